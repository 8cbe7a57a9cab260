#!/bin/sh
# demo.sh BUILD -- the PolyBench demo.
#
# 1. Compiles every polybench input with keelcc (make CC=keelcc, as a user
#    would; MEDIUM dataset): the loops, idioms, classes, parallel verdicts,
#    strides and llvm-mca cycles land in the attribute database.
#    A line per program as each one is built.
# 2. Per program, prints its kernel loops from the database (keel loops:
#    location, idioms, parallel verdict, llvm-mca cycles per iteration).
# 3. Runs the program with KEEL_VERBOSE=2 KEEL_DEVICE=h100: libkeelrt prints,
#    per loop nest launched, the predicted CPU and GPU (+ transfer) times and
#    the verdict, against the H100 profile (no GPU is needed: a what-if).
#    The decisions are logged in the database.
# 4. Writes the HTML report (keel report --html: nests, roofline per
#    device, boat-hull view per class, crossover sizes, logged decisions)
#    and ends with its path.
set -eu
BUILD=${1:-build}
BIN=$(cd "$BUILD/bin" && pwd)
OUT=${DEMO_OUT:-$BUILD/demo}          # where the database, programs and report go
OUT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)
DB=$OUT/keel.db
PB=$(pwd)/polybench-inputs
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
DATASET=${DATASET:-MEDIUM}

rm -f "$DB" "$DB-wal" "$DB-shm"
rm -rf "$OUT/bin"       # programs built by an earlier demo would not be recompiled
# DEMO_PROGRAMS: the program sources to build and run (paths below
# polybench-inputs/, as `make list` prints them); default all of them.
LIST=${DEMO_PROGRAMS:-$(make -s -C "$PB" list)}
TARGETS=
for src in $LIST; do TARGETS="$TARGETS $OUT/bin/${src%.c}"; done
NPROG=$(echo $LIST | wc -w)
echo "== compiling $NPROG polybench-inputs programs with keelcc (make -j$JOBS CC=keelcc DATASET=$DATASET, database $DB)"
# A line per program as make finishes it (make's own status kept in a file:
# sh has no pipefail).
T0=$(date +%s)
{ make -s -j"$JOBS" -C "$PB" CC="$BIN/keelcc" KEEL_DB="$DB" O="$OUT/bin" DATASET="$DATASET" PROGRESS=1 $TARGETS
  echo $? >"$OUT/make.status"; } | {
    k=0
    while IFS= read -r line; do
        case $line in
        "built "*) k=$((k + 1))
                   printf '   [%2d/%d] %s (%ds)\n' "$k" "$NPROG" "${line#built }.c" $(($(date +%s) - T0)) ;;
        *) printf '%s\n' "$line" ;;
        esac
    done
}
[ "$(cat "$OUT/make.status")" = 0 ] || exit 1
echo
gpu=0
cpu=0
for src in $LIST; do
    prog=${src%.c}
    echo "== $src"
    for fn in $(sqlite3 "$DB" "SELECT DISTINCT function FROM loop_summary WHERE file = '$PB/$src' AND function LIKE 'kernel\\_%' ESCAPE '\\'"); do
        "$BIN/keel" loops --file "$PB/$src" --function "$fn" "$DB"
    done
    (cd "$OUT" && KEEL_VERBOSE=2 KEEL_DEVICE=h100 "$OUT/bin/$prog" >/dev/null 2>"$OUT/verdicts.txt") || true
    grep ' kernel_' "$OUT/verdicts.txt" || true
    gpu=$((gpu + $(grep -c ' kernel_.*-> GPU' "$OUT/verdicts.txt" || true)))
    cpu=$((cpu + $(grep -c ' kernel_.*-> CPU' "$OUT/verdicts.txt" || true)))
    echo
done
nloops=$(sqlite3 "$DB" "SELECT count(*) FROM loop_summary")
nkern=$(sqlite3 "$DB" "SELECT count(*) FROM loop_summary WHERE function LIKE 'kernel\\_%' ESCAPE '\\'")
ntu=$(sqlite3 "$DB" "SELECT count(*) FROM translation_units")
echo "keel: $ntu translation units, $nloops loops ($nkern in kernel functions) in $DB"
echo "keel: kernel loop-nest launches at $DATASET under the h100 profile: $gpu -> GPU, $cpu -> CPU"
echo "try:  $BIN/keel loops --wide --function kernel_gemm $DB"
echo "      $BIN/keel show $PB/linear-algebra/blas/gemm/gemm.c:42 $DB"
echo "      $BIN/keel explain $PB/linear-algebra/blas/gemm/gemm.c:42 --set ni=2000,nj=2300,nk=2600 --device h100 $DB"
echo "      $BIN/keel report $DB"
echo "      $BIN/keel explain $PB/linear-algebra/blas/gemm/gemm.c:42 --sweep '*=16:4096' --device h100 $DB"
echo "      sqlite3 $DB 'SELECT * FROM loop_summary LIMIT 5'"
echo
"$BIN/keel" report --html "$OUT/keel-report.html" --device h100,v100 "$DB" >/dev/null
echo "keel: HTML report (open it in a browser):"
echo "$OUT/keel-report.html"
