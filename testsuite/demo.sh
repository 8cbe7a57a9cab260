#!/bin/sh
# demo.sh BUILD -- the PolyBench demo.
#
# Compiles every polybench input with keelcc (make CC=keelcc, as a user
# would), then prints, per program, the loops keel recorded in the attribute
# database: file:line, function, depth, parent loop, induction variable and
# trip count.
set -eu
BUILD=${1:-build}
BIN=$(cd "$BUILD/bin" && pwd)
OUT=$(mkdir -p "$BUILD/demo" && cd "$BUILD/demo" && pwd)
DB=$OUT/keel.db
PB=$(pwd)/polybench-inputs
JOBS=$(nproc 2>/dev/null || echo 2)

rm -f "$DB" "$DB-wal" "$DB-shm"
echo "== compiling polybench-inputs with keelcc (make -j$JOBS CC=keelcc, database $DB)"
make -s -j"$JOBS" -C "$PB" CC="$BIN/keelcc" KEEL_DB="$DB" O="$OUT/bin" DATASET=SMALL
echo
for src in $(make -s -C "$PB" list); do
    echo "== $src"
    "$BIN/keel" loops --file "$PB/$src" "$DB"
    echo
done
nloops=$(sqlite3 "$DB" "SELECT count(*) FROM loop_summary")
nkern=$(sqlite3 "$DB" "SELECT count(*) FROM loop_summary WHERE function LIKE 'kernel\\_%' ESCAPE '\\'")
ntu=$(sqlite3 "$DB" "SELECT count(*) FROM translation_units")
echo "keel: $ntu translation units, $nloops loops ($nkern in kernel functions) in $DB"
echo "try:  $BIN/keel show $PB/linear-algebra/blas/gemm/gemm.c:46 $DB"
echo "      sqlite3 $DB 'SELECT * FROM loop_summary LIMIT 5'"
