#!/bin/sh
# check-labels.sh BIN SRC -- keel's idioms and classes against the label files.
#
# Compiles every polybench input with keelcc (MINI dataset) into a fresh
# database, then for every testsuite/labels/**/*.labels file compares, per
# kernel loop, loops.idioms with the `loop LINE IDIOMS` line and, per nest,
# loops.algorithm_class with the `nest LINE CLASS` line (plain sqlite3 on
# loop_summary).  Prints every mismatch, the per-idiom precision and recall
# over the whole set, and fails on any mismatch or on a kernel loop that no
# label file mentions.
set -eu
TAB=$(printf "\t")
BIN=$1
SRC=$2
PB=$SRC/polybench-inputs
LAB=$SRC/testsuite/labels
work=$(mktemp -d /tmp/keel-labels-XXXXXX)
trap 'rm -rf "$work"' EXIT
make -s -C "$PB" DATASET=MINI O="$work/bin" CC="$BIN/keelcc" KEEL_DB="$work/k.db" >/dev/null
fail=0
: >"$work/pairs"
nfiles=0
for src in $(make -s -C "$PB" list); do
    lab=$LAB/${src%.c}.labels
    abs=$(cd "$PB/$(dirname "$src")" && pwd)/$(basename "$src")
    if [ ! -f "$lab" ]; then echo "FAIL: no label file for $src"; fail=$((fail + 1)); continue; fi
    nfiles=$((nfiles + 1))
    # every kernel loop of the database must be labelled, and the reverse
    sqlite3 -separator "$TAB" "$work/k.db" "SELECT line, coalesce(nullif(idioms, ''), '-'),
            CASE WHEN depth = 0 THEN algorithm_class END FROM loop_summary
            WHERE file = '$abs' AND function LIKE 'kernel\\_%' ESCAPE '\\' ORDER BY line" \
        >"$work/got"
    awk -F"$TAB" -v src="$src" -v lab="$lab" -v pairs="$work/pairs" '
        FILENAME == lab && $0 ~ /^loop / { split($0, f, " "); want[f[2]] = f[3]; nl++; next }
        FILENAME == lab && $0 ~ /^nest / { l = $0; sub(/^nest [0-9]+ /, "", l); split($0, f, " ");
                                           wantc[f[2]] = l; next }
        FILENAME == lab { next }
        { got[$1] = $2; if ($3 != "") gotc[$1] = $3 }
        END {
            bad = 0
            for (l in got) if (!(l in want)) { print "FAIL: " src ":" l ": loop not in labels"; bad++ }
            for (l in want) {
                if (!(l in got)) { print "FAIL: " src ":" l ": labelled loop not in database"; bad++; continue }
                if (want[l] != got[l]) { print "FAIL: " src ":" l ": idioms " got[l] ", want " want[l]; bad++ }
                print l, want[l], got[l] >> pairs
            }
            for (l in wantc) if (wantc[l] != gotc[l]) {
                print "FAIL: " src ":" l ": class\n    got:  " gotc[l] "\n    want: " wantc[l]; bad++ }
            for (l in gotc) if (!(l in wantc)) { print "FAIL: " src ":" l ": nest not in labels"; bad++ }
            exit bad > 0
        }' "$lab" "$work/got" || fail=$((fail + 1))
done
[ "$nfiles" -eq 43 ] || { echo "FAIL: $nfiles label files, want 43"; fail=$((fail + 1)); }
# per-idiom precision and recall over all labelled loops
awk '{ nw = split($2 == "-" ? "" : $2, w, ","); ng = split($3 == "-" ? "" : $3, g, ",")
       for (i = 1; i <= nw; i++) { W[w[i]] = 1; kinds[w[i]] = 1 }
       for (i = 1; i <= ng; i++) { G[g[i]] = 1; kinds[g[i]] = 1 }
       for (k in kinds) { if ((k in W) && (k in G)) tp[k]++; else if (k in G) fp[k]++; else if (k in W) fn[k]++ }
       delete W; delete G; loops++ }
     END { printf "%-10s %5s %5s %5s %9s %7s\n", "idiom", "tp", "fp", "fn", "precision", "recall"
           n = split("gather histogram matmul matvec reduction scatter stencil stream transpose", K, " ")
           for (i = 1; i <= n; i++) { k = K[i]; p = tp[k] + fp[k]; r = tp[k] + fn[k]
             printf "%-10s %5d %5d %5d %9s %7s\n", k, tp[k], fp[k], fn[k],
                    p ? sprintf("%.3f", tp[k] / p) : "-", r ? sprintf("%.3f", tp[k] / r) : "-" }
           printf "%d labelled loops\n", loops }' "$work/pairs"
# keel report: the PIR rows of gemm's kernel, and valid JSON for all
got=$("$BIN/keel" report --idioms "$work/k.db" --file linear-algebra/blas/gemm/gemm.c |
      awk '$3 == "kernel_gemm" { printf "%s %s %s;", $2, $3, $4 }')
want="44 kernel_gemm stream;47 kernel_gemm matmul;47 kernel_gemm reduction;47 kernel_gemm stream;"
[ "$got" = "$want" ] || { echo "FAIL: keel report gemm: [$got], want [$want]"; fail=$((fail + 1)); }
"$BIN/keel" report --idioms "$work/k.db" --json >"$work/report.json"
n=$(sqlite3 :memory: "SELECT json_array_length(readfile('$work/report.json'))")
m=$(sqlite3 "$work/k.db" "SELECT count(*) FROM idiom_instances")
[ -n "$n" ] && [ "$n" = "$m" ] || { echo "FAIL: keel report --json has $n rows, database $m"; fail=$((fail + 1)); }
echo "$fail failures"
[ "$fail" -eq 0 ]
