#!/bin/sh
# score.sh BIN SRC -- score keel's verdicts and idioms on our own corpus.
#
# Compiles every testsuite/corpus/*.c with keelcc (-c, into a fresh
# database) and compares, per loop, the database with the label comment on
# the loop's line (`// V:VERDICT I:IDIOMS`, see README.md):
#   verdict   right when equal; UNSAFE when keel says parallel or reduction
#             where the label says sequential or unknown, or parallel where
#             it says reduction.  Any unsafe verdict fails the test.
#   idioms    per nest (a depth-0 loop and the loops under it): the union of
#             the labelled and of keel's idioms; per-idiom tp/fp/fn, F1.
# Prints every mismatch, the per-idiom table, the verdict accuracy, and
# fails on an unsafe verdict, a labelled loop missing from the database or
# the reverse, or figures below the floor in floor.txt.
set -eu
TAB=$(printf "\t")
BIN=$1
SRC=$2
HERE=$SRC/testsuite/corpus
work=$(mktemp -d /tmp/keel-corpus-XXXXXX)
trap 'rm -rf "$work"' EXIT
: >"$work/want"
: >"$work/got"
for f in "$HERE"/*.c; do
    b=$(basename "$f")
    KEEL_DB="$work/k.db" "$BIN/keelcc" -O1 -c "$f" -o "$work/${b%.c}.o" 2>>"$work/warn" ||
        { echo "FAIL: keelcc $b"; exit 1; }
    awk -v b="$b" '/\/\/ V:/ { v = $0; sub(/.*\/\/ V:/, "", v); split(v, p, " ");
                              i = $0; sub(/.*I:/, "", i); split(i, q, " ");
                              print b "\t" FNR "\t" p[1] "\t" q[1] }' "$f" >>"$work/want"
    abs=$(cd "$(dirname "$f")" && pwd)/$b
    sqlite3 -separator "$TAB" "$work/k.db" "
      SELECT '$b', l.line, l.depth, coalesce(d.verdict, 'none'), coalesce(nullif(l.idioms, ''), '-')
        FROM loops l LEFT JOIN loop_dependences d ON d.loop_id = l.id
       WHERE l.file = '$abs' ORDER BY l.line" >>"$work/got"
done
if [ -s "$work/warn" ]; then echo "keelcc warnings:"; cat "$work/warn"; fi
read -r floor_right floor_f1 <<EOF2
$(grep -v '^#' "$HERE/floor.txt")
EOF2
awk -F"$TAB" -v fr="$floor_right" -v ff="$floor_f1" '
    FNR == NR { key = $1 ":" $2; wv[key] = $3; wi[key] = $4; next }
    { key = $1 ":" $2; depth[key] = $3; gv[key] = $4; gi[key] = $5; order[++n] = key }
    function add(set, list,   k, m, x) { m = split(list == "-" ? "" : list, x, ",");
                                          for (k = 1; k <= m; k++) set[x[k]] = 1 }
    function nestscore(   k) {
        for (k in NW) kinds[k] = 1
        for (k in NG) kinds[k] = 1
        for (k in kinds) {
            if ((k in NW) && (k in NG)) tp[k]++
            else if (k in NG) { fp[k]++; printf "  idiom fp: nest %s %s\n", root, k }
            else if ((k in NW)) { fn[k]++; printf "  idiom fn: nest %s %s\n", root, k }
        }
        delete NW; delete NG; delete kinds; nests++
    }
    END {
        bad = 0
        for (k in wv) if (!(k in gv)) { print "FAIL: labelled loop " k " not in the database"; bad++ }
        for (i = 1; i <= n; i++) {
            key = order[i]
            if (!(key in wv)) { print "FAIL: loop " key " has no label"; bad++; continue }
            if (depth[key] == 0) { if (root != "") nestscore(); root = key }
            add(NW, wi[key]); add(NG, gi[key])
            loops++
            w = wv[key]; g = gv[key]
            if (g == w) { right++; continue }
            unsafe = ((w == "sequential" || w == "unknown") && (g == "parallel" || g == "reduction")) \
                     || (w == "reduction" && g == "parallel")
            if (unsafe) { nunsafe++; printf "UNSAFE: %s verdict %s, want %s\n", key, g, w }
            else printf "  verdict miss: %s %s, want %s\n", key, g, w
        }
        if (root != "") nestscore()
        printf "%-10s %4s %4s %4s %6s\n", "idiom", "tp", "fp", "fn", "F1"
        m = split("gather histogram matmul matvec reduction scatter stencil stream transpose", K, " ")
        for (i = 1; i <= m; i++) { k = K[i]; d = 2 * tp[k] + fp[k] + fn[k]
            printf "%-10s %4d %4d %4d %6s\n", k, tp[k], fp[k], fn[k], d ? sprintf("%.3f", 2 * tp[k] / d) : "-"
            TP += tp[k]; FP += fp[k]; FN += fn[k] }
        f1 = 2 * TP + FP + FN ? 2 * TP / (2 * TP + FP + FN) : 1
        printf "all        %4d %4d %4d  %.3f  (micro F1 over %d nests)\n", TP, FP, FN, f1, nests
        printf "verdicts: %d of %d loops right (%.1f%%), %d unsafe\n", right, loops,
               100 * right / loops, nunsafe
        if (nunsafe) { print "FAIL: unsafe verdicts"; bad++ }
        if (right < fr) { printf "FAIL: %d verdicts right, floor %d\n", right, fr; bad++ }
        if (f1 + 1e-9 < ff) { printf "FAIL: idiom F1 %.3f, floor %.3f\n", f1, ff; bad++ }
        exit bad > 0
    }' "$work/want" "$work/got"
