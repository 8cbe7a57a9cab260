#!/bin/sh
# probes.sh BIN SRC -- run the probe programs (testsuite/corpus/probes/,
# see README.md) and score keel on them.
#
# Per program, two at a time: build it with keelcc (default
# instrumentation, its own database) and with plain clang-19; run both at
# the small size and require the same stdout, the same exit status and an
# empty stderr; run the keelcc build at the large size (`prog large`) with
# KEEL_DEVICE=h100 KEEL_VERBOSE=2 and keep its verdict lines.  Then, over
# all programs:
#   verdicts  per loop against the `V:` key: right, conservative (keel less
#             permissive than the key), UNSAFE (parallel or reduction where
#             the key says sequential or unknown, parallel where it says
#             reduction).  On a loop keyed `A:args` a parallel or reduction
#             verdict that carries a run-time overlap condition (table
#             launch_overlap) is right: it holds when the pointers' ranges
#             are apart, which the runtime checks at launch;
#   GPU       a `-> GPU` line is UNSAFE when a loop the launch runs in
#             parallel (the launch loop, or the kernels of a time-stepped
#             region; the thread loops: table launch_loops) is keyed
#             sequential or unknown, unless that key has `A:args` (the loop
#             is safe when its pointer arguments do not overlap) and the
#             launch is outside a `probe: overlap` ... `probe: end` window,
#             inside which any GPU verdict is UNSAFE;
#   idioms    per nest (a depth-0 loop and the loops under it), the union of
#             the keyed and of keel's idioms: per-idiom tp/fp/fn, micro
#             precision, recall, F1;
#   strides   per loop with an `S:` key that keel made a thread loop: the
#             inter-thread stride of every keyed array.
# Fails on a build or output mismatch, a keyed loop missing from the
# database or a loop without a key, an unsafe verdict not listed in
# known-unsafe.txt, a listed one that is no longer unsafe, and figures
# below probes-floor.txt.
set -eu
TAB=$(printf "\t")

if [ "${1:-}" = "--one" ]; then
    # --one BIN WORK FILE: build and run one program into WORK/NAME/.
    BIN=$2 WORK=$3 f=$4
    b=$(basename "$f" .c)
    d=$WORK/$b
    mkdir -p "$d"
    fail() { echo "FAIL: $b: $*" >>"$d/fail"; }
    unset KEEL_FORCE KEEL_HOST KEEL_MACHINES KEEL_CALIBRATE OMP_TARGET_OFFLOAD \
          KEEL_DISABLE KEEL_INSTRUMENT KEEL_VERBOSE KEEL_DEVICE 2>/dev/null || true
    if ! KEEL_DB="$d/k.db" "$BIN/keelcc" -O2 -o "$d/keel" "$f" -lm 2>"$d/keelcc.err"; then
        fail "keelcc build failed: $(head -3 "$d/keelcc.err")"; exit 0
    fi
    if [ -s "$d/keelcc.err" ]; then fail "keelcc warned: $(head -3 "$d/keelcc.err")"; fi
    if ! clang-19 -O2 -o "$d/plain" "$f" -lm 2>"$d/clang.err"; then
        fail "clang-19 build failed: $(head -3 "$d/clang.err")"; exit 0
    fi
    rp=0; rk=0
    (cd "$d" && ./plain >plain.out 2>plain.err) || rp=$?
    (cd "$d" && ./keel >keel.out 2>keel.err) || rk=$?
    [ "$rp" = 0 ] || fail "clang-19 build exits $rp"
    [ "$rk" = "$rp" ] || fail "keelcc build exits $rk, clang-19 build $rp"
    cmp -s "$d/plain.out" "$d/keel.out" ||
        fail "output differs: clang-19 '$(head -c 200 "$d/plain.out")', keelcc '$(head -c 200 "$d/keel.out")'"
    [ -s "$d/keel.err" ] && fail "keelcc build writes to stderr: $(head -c 200 "$d/keel.err")"
    rl=0
    (cd "$d" && KEEL_DEVICE=h100 KEEL_VERBOSE=2 KEEL_LOG=0 ./keel large >/dev/null 2>large.err) || rl=$?
    [ "$rl" = 0 ] || fail "large run exits $rl"
    sqlite3 -separator "$TAB" "$d/k.db" "
      SELECT replace(l.file, rtrim(l.file, replace(l.file, '/', '')), ''), l.line, l.depth,
             coalesce(d.verdict, 'none'), coalesce(nullif(l.idioms, ''), '-')
        FROM loops l LEFT JOIN loop_dependences d ON d.loop_id = l.id
       ORDER BY l.file, l.line" >"$d/loops" || fail "database query failed"
    sqlite3 -separator "$TAB" "$d/k.db" "
      SELECT replace(l.file, rtrim(l.file, replace(l.file, '/', '')), ''), l.line, a.array, s.class
        FROM access_strides s JOIN accesses a ON a.id = s.access_id
        JOIN loops l ON l.id = s.thread_loop_id" >"$d/strides" || fail "database query failed"
    # loops whose verdict holds only if the ranges their pointers reach are
    # apart, checked at run time (table launch_overlap, where it exists)
    if [ -n "$(sqlite3 "$d/k.db" "SELECT name FROM sqlite_master WHERE name = 'launch_overlap'")" ]; then
        sqlite3 -separator "$TAB" "$d/k.db" "
          SELECT DISTINCT replace(l.file, rtrim(l.file, replace(l.file, '/', '')), ''), l.line
            FROM launch_overlap o JOIN loops l ON l.id = o.launch_id" >"$d/conditional" ||
            fail "database query failed"
    else
        : >"$d/conditional"
    fi
    # per launch site, the loops whose iterations a GPU launch runs at once:
    # the launch loop (unless it is the sequential loop of a time-stepped
    # region), the kernels of a region, the thread loops
    sqlite3 -separator "$TAB" "$d/k.db" "
      SELECT replace(r.file, rtrim(r.file, replace(r.file, '/', '')), ''), r.line, l.line
        FROM launch_loops ll JOIN launches la ON la.loop_id = ll.launch_id
        JOIN loops r ON r.id = ll.launch_id JOIN loops l ON l.id = ll.loop_id
       WHERE (ll.loop_id = ll.launch_id AND la.region = 0) OR ll.thread = 1 OR ll.kernel = 1
       ORDER BY l.line" >"$d/concurrent" || fail "database query failed"
    exit 0
fi

BIN=$1
SRC=$2
HERE=$SRC/testsuite/corpus
work=$(mktemp -d /tmp/keel-probes-XXXXXX)
trap 'rm -rf "$work"' EXIT

ls "$HERE"/probes/*.c | xargs -P 2 -n 1 sh "$HERE/probes.sh" --one "$BIN" "$work"

# The keys: FILE LINE V I S A, from the probes and probe.h.
for f in "$HERE"/probes/*.c "$HERE"/probes/probe.h; do
    awk -v b="$(basename "$f")" '/\/\/ V:/ {
        t = $0; sub(/.*\/\/ /, "", t); n = split(t, w, " "); v = i = s = "-"; a = 0
        for (k = 1; k <= n; k++) {
            if (w[k] ~ /^V:/) v = substr(w[k], 3)
            else if (w[k] ~ /^I:/) i = substr(w[k], 3)
            else if (w[k] ~ /^S:/) s = substr(w[k], 3)
            else if (w[k] == "A:args") a = 1
        }
        print b "\t" FNR "\t" v "\t" i "\t" s "\t" a }' "$f"
done >"$work/keys"

cat "$work"/*/fail 2>/dev/null >"$work/fails" || true
: >"$work/loops"; : >"$work/strides"; : >"$work/gpu"; : >"$work/concurrent"; : >"$work/conditional"
for d in "$work"/*/; do
    b=$(basename "$d")
    [ -f "$d/loops" ] || continue
    # loops and strides of the program itself (probe.h's are keyed for the
    # GPU check only)
    awk -F"$TAB" -v f="$b.c" '$1 == f' "$d/loops" >>"$work/loops"
    awk -F"$TAB" -v f="$b.c" '$1 == f' "$d/strides" >>"$work/strides"
    cat "$d/concurrent" >>"$work/concurrent"
    cat "$d/conditional" >>"$work/conditional"
    # verdict lines of the large run, with the overlap window
    awk -v p="$b" '/^probe: overlap/ { w = 1; next } /^probe: end/ { w = 0; next }
                   /^keel: [^ ]+:[0-9]+ .*-> (GPU|CPU)/ {
                       split($2, q, ":"); v = $0; sub(/.*-> /, "", v); sub(/ .*/, "", v)
                       print p "\t" q[1] "\t" q[2] + 0 "\t" v "\t" w }' "$d/large.err" >>"$work/gpu"
done

read -r floor_right floor_f1 floor_strides <<EOF2
$(grep -v '^#' "$HERE/probes-floor.txt")
EOF2
grep -v '^#' "$HERE/known-unsafe.txt" | awk 'NF { print $1 "\t" $2 }' >"$work/known"

awk -F"$TAB" -v fr="$floor_right" -v ff="$floor_f1" -v fs="$floor_strides" '
    FILENAME ~ /keys$/   { k = $1 ":" $2; wv[k] = $3; wi[k] = $4; ws[k] = $5; wa[k] = $6; next }
    FILENAME ~ /known$/  { known[$1 " " $2] = 1; next }
    FILENAME ~ /fails$/  { print; bad++; next }
    FILENAME ~ /strides$/ { k = $1 ":" $2; c = $4
                           if (c == "coalesced") c = 1; else if (c == "uniform") c = 0
                           else if (c == "irregular") c = "?"
                           else { sub(/^(strided|symbolic)\(/, "", c); sub(/\)$/, "", c) }
                           gsub(/ /, "", c)
                           thread[k] = 1; ks = k SUBSEP $3
                           if (!((ks, c) in seen)) { seen[ks, c] = 1; gs[ks] = gs[ks] (gs[ks] == "" ? "" : "/") c }
                           next }
    FILENAME ~ /gpu$/    { gpu[++ng] = $0; next }
    FILENAME ~ /conditional$/ { cond[$1 ":" $2] = 1; next }
    FILENAME ~ /concurrent$/ { k = $1 ":" $2; conc[k] = (k in conc) ? conc[k] " " $1 ":" $3 : $1 ":" $3; next }
    { k = $1 ":" $2; depth[k] = $3; gv[k] = $4; gi[k] = $5; order[++n] = k }
    function add(set, list,   j, m, x) { m = split(list == "-" ? "" : list, x, ",");
                                          for (j = 1; j <= m; j++) set[x[j]] = 1 }
    function nestscore(   j) {
        for (j in NW) kinds[j] = 1
        for (j in NG) kinds[j] = 1
        for (j in kinds) {
            if ((j in NW) && (j in NG)) tp[j]++
            else if (j in NG) { fp[j]++; printf "  idiom fp: nest %s %s\n", root, j }
            else { fn[j]++; printf "  idiom fn: nest %s %s\n", root, j }
        }
        delete NW; delete NG; delete kinds; nests++
    }
    function sorted(s,   m, x, i, j, t, r) {
        m = split(s, x, "/")
        for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
        r = x[1]; for (i = 2; i <= m; i++) r = r "/" x[i]
        return r
    }
    function unsafe_at(key, kind, why) {
        found[key " " kind] = 1
        if ((key " " kind) in known) printf "  known unsafe: %s %s: %s\n", key, kind, why
        else { printf "UNSAFE: %s %s: %s (not in known-unsafe.txt)\n", key, kind, why; bad++ }
    }
    END {
        for (k in wv) if (k !~ /^probe\.h:/ && !(k in gv)) { print "FAIL: keyed loop " k " not in the database"; bad++ }
        for (i = 1; i <= n; i++) {
            key = order[i]
            if (!(key in wv)) { print "FAIL: loop " key " has no key"; bad++; continue }
            if (depth[key] == 0) { if (root != "") nestscore(); root = key }
            add(NW, wi[key]); add(NG, gi[key])
            loops++
            w = wv[key]; g = gv[key]
            if (g == w) right++
            else if (wa[key] && (key in cond) && (g == "parallel" || g == "reduction")) {
                right++; printf "  right, with a run-time overlap condition: %s %s, key %s\n", key, g, w
            }
            else if (((w == "sequential" || w == "unknown") && (g == "parallel" || g == "reduction")) \
                     || (w == "reduction" && g == "parallel")) {
                nunsafe++; unsafe_at(key, "verdict", "keel " g ", key " w)
            } else { cons++; printf "  conservative: %s %s, key %s\n", key, g, w }
            if (ws[key] == "-") continue
            if (!(key in thread)) { snot++; printf "  stride not compared: %s is not a thread loop of keel\n", key; continue }
            m = split(ws[key], S, ",")
            for (j = 1; j <= m; j++) {
                split(S[j], kv, "="); sn++
                got = gs[key SUBSEP kv[1]]
                if (sorted(got) == sorted(kv[2])) sright++
                else printf "  stride miss: %s %s: keel %s, key %s\n", key, kv[1], got == "" ? "none" : got, kv[2]
            }
        }
        if (root != "") nestscore()
        for (i = 1; i <= ng; i++) {
            split(gpu[i], q, "\t"); key = q[2] ":" q[3]; launches++
            if (q[4] != "GPU") continue
            ngpu++
            if (!(key in wv)) { print "FAIL: GPU verdict for " key ", a loop without a key"; bad++; continue }
            if (q[5] == 1) { ngu++; unsafe_at(key, "gpu", "GPU verdict on a call with overlapping arguments"); continue }
            m = split(key in conc ? conc[key] : key, C, " ")
            for (j = 1; j <= m; j++)
                if ((wv[C[j]] == "sequential" || wv[C[j]] == "unknown") && !wa[C[j]]) {
                    ngu++; unsafe_at(key, "gpu", "GPU verdict runs " C[j] " (key " wv[C[j]] ") in parallel"); break
                }
        }
        for (k in known) if (!(k in found)) {
            printf "FAIL: %s is listed in known-unsafe.txt but is no longer unsafe: remove it\n", k; bad++
        }
        printf "%-10s %4s %4s %4s %6s\n", "idiom", "tp", "fp", "fn", "F1"
        m = split("gather histogram matmul matvec reduction scatter stencil stream transpose", K, " ")
        for (i = 1; i <= m; i++) { k = K[i]; d = 2 * tp[k] + fp[k] + fn[k]
            printf "%-10s %4d %4d %4d %6s\n", k, tp[k], fp[k], fn[k], d ? sprintf("%.3f", 2 * tp[k] / d) : "-"
            TP += tp[k]; FP += fp[k]; FN += fn[k] }
        f1 = 2 * TP + FP + FN ? 2 * TP / (2 * TP + FP + FN) : 1
        printf "idioms per nest: F1 %.3f, precision %.3f, recall %.3f (%d nests)\n", f1,
               TP + FP ? TP / (TP + FP) : 1, TP + FN ? TP / (TP + FN) : 1, nests
        printf "dependence: %d of %d loops exact (%.1f%%), %d conservative, %d unsafe\n",
               right, loops, 100 * right / loops, cons, nunsafe
        printf "strides: %d of %d keyed arrays right (%d keyed loops not thread loops)\n", sright, sn, snot
        printf "GPU at the large size: %d launches, %d GPU verdicts, %d unsafe\n", launches, ngpu, ngu
        if (right < fr) { printf "FAIL: %d verdicts exact, floor %d\n", right, fr; bad++ }
        if (f1 + 1e-9 < ff) { printf "FAIL: idiom F1 %.3f, floor %.3f\n", f1, ff; bad++ }
        if (sright < fs) { printf "FAIL: %d strides right, floor %d\n", sright, fs; bad++ }
        exit bad > 0
    }' "$work/keys" "$work/known" "$work/fails" "$work/strides" "$work/concurrent" "$work/conditional" "$work/gpu" \
    "$work/loops"
