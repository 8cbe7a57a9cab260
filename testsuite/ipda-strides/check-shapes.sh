#!/bin/sh
# check-shapes.sh BIN SRC -- the loop shapes of shapes/*.c through keelcc
# and the database: every loop's dependence verdict (loop_dependences)
# must equal the `// V:VERDICT` label on its line, and every loop must carry
# a label; where the line also has `I:IDIOMS` (comma-separated, alphabetical,
# `-` for none), the loop's idioms must equal them too.  Each file is compiled with -fopenmp too when it holds a pragma,
# so the clauses are read as a user's build would have them.
set -eu
BIN=$1
SRC=$2
HERE=$SRC/testsuite/ipda-strides/shapes
work=$(mktemp -d /tmp/keel-shapes-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail=0 n=0
for f in "$HERE"/*.c; do
    b=$(basename "$f" .c)
    flags=-O1
    grep -q '#pragma omp' "$f" && flags="-O1 -fopenmp"
    if ! KEEL_DB="$work/k.db" "$BIN/keelcc" $flags -c "$f" -o "$work/$b.o" 2>"$work/warn"; then
        echo "FAIL: keelcc $b.c"; cat "$work/warn"; fail=$((fail + 1)); continue
    fi
    if [ -s "$work/warn" ]; then echo "FAIL: keelcc warned on $b.c:"; cat "$work/warn"; fail=$((fail + 1)); fi
    abs=$(cd "$HERE" && pwd)/$b.c
    awk '/\/\/ V:/ { v = $0; sub(/.*\/\/ V:/, "", v); sub(/ .*/, "", v);
                      i = ""; if ($0 ~ /I:/) { i = $0; sub(/.*I:/, "", i); sub(/ .*/, "", i); i = " " i }
                      print FNR, v i }' "$f" >"$work/want"
    sqlite3 -separator ' ' "$work/k.db" "
      SELECT l.line, coalesce(d.verdict, 'none'), coalesce(nullif(l.idioms, ''), '-') FROM loops l
        LEFT JOIN loop_dependences d ON d.loop_id = l.id
       WHERE l.file = '$abs' ORDER BY l.line, l.col" |
    awk 'FNR == NR { lab[$1] = NF > 2; next } { print $1, $2 (lab[$1] ? " " $3 : "") }' \
        "$work/want" - >"$work/got"
    n=$((n + $(wc -l <"$work/want")))
    if ! diff -u "$work/want" "$work/got" >"$work/diff"; then
        echo "FAIL: verdicts of $b.c (- label, + keel):"; cat "$work/diff"
        sqlite3 -separator ' ' "$work/k.db" "
          SELECT l.line, d.verdict, d.reason FROM loops l
            LEFT JOIN loop_dependences d ON d.loop_id = l.id
           WHERE l.file = '$abs' ORDER BY l.line, l.col"
        fail=$((fail + 1))
    fi
done
echo "shapes: $n labelled loops, $fail files mismatched"
[ "$fail" -eq 0 ]
