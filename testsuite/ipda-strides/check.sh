#!/bin/sh
# check.sh BIN SRC -- compile every polybench input with keelcc (MINI
# dataset) and compare the database with the hand-written expectations:
#   verdicts.txt   FILE LINE VERDICT for the kernel loops of the files named
#   NAME.strides   the stride table of omp-target/NAME (kernel functions)
# Exact match; every mismatch is printed.  Exit 1 on any.
set -eu
BIN=$1
SRC=$2
PB=$SRC/polybench-inputs
HERE=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/keel-strides-XXXXXX)
trap 'rm -rf "$work"' EXIT
make -s -C "$PB" DATASET=MINI O="$work/bin" CC="$BIN/keelcc" KEEL_DB="$work/k.db" >/dev/null
PBABS=$(cd "$PB" && pwd)
fail=0 n=0
sqlite3 -separator ' ' "$work/k.db" "
  SELECT substr(l.file, length('$PBABS/') + 1), l.line, d.verdict
    FROM loops l JOIN loop_dependences d ON d.loop_id = l.id
    JOIN functions f ON f.id = l.function_id
   WHERE f.name LIKE 'kernel\\_%' ESCAPE '\\' ORDER BY 1, 2" >"$work/verdicts"
files=$(grep -v '^#' "$HERE/verdicts.txt" | awk '{print $1}' | sort -u)
nfiles=$(echo "$files" | wc -w)
if [ "$nfiles" -ne 43 ]; then
    echo "FAIL: verdicts.txt names $nfiles files, want all 43 polybench inputs"; fail=$((fail + 1))
fi
for f in $files; do
    grep -v '^#' "$HERE/verdicts.txt" | awk -v f="$f" '$1 == f' >"$work/want"
    awk -v f="$f" '$1 == f' "$work/verdicts" >"$work/got"
    n=$((n + 1))
    if ! diff -u "$work/want" "$work/got" >"$work/diff"; then
        echo "FAIL: verdicts of $f (- expected, + keel):"; cat "$work/diff"; fail=$((fail + 1))
    fi
done
for t in "$HERE"/*.strides; do
    name=$(basename "$t" .strides)
    sqlite3 -separator ' ' "$work/k.db" "
      SELECT a.line,
             a.array || (SELECT group_concat('[' || x.text || ']', '') FROM
                          (SELECT e.text FROM access_subscripts s JOIN expressions e ON e.id = s.expr_id
                            WHERE s.access_id = a.id ORDER BY s.dim) x),
             CASE a.is_write WHEN 1 THEN 'W' ELSE 'R' END, tl.line,
             coalesce(s.stride, '-'), s.class, coalesce(s.inner_stride, '-')
        FROM access_strides s JOIN accesses a ON a.id = s.access_id
        JOIN loops tl ON tl.id = s.thread_loop_id JOIN functions f ON f.id = tl.function_id
       WHERE tl.file LIKE '%/omp-target/$name/%' AND f.name LIKE 'kernel\\_%' ESCAPE '\\'
       ORDER BY a.line, a.id" >"$work/got"
    grep -v '^#' "$t" >"$work/want"
    n=$((n + 1))
    if ! diff -u "$work/want" "$work/got" >"$work/diff"; then
        echo "FAIL: strides of omp-target/$name (- expected, + keel):"; cat "$work/diff"; fail=$((fail + 1))
    fi
done
echo "ipda-strides: $n tables compared, $fail mismatched"
[ "$fail" -eq 0 ]
