#!/bin/sh
# replay.sh [BUILD] [MEASURED] -- measured rows through libkeelrt's learning.
#
# Asks the models for each row of MEASURED (default bench/measured-h100.txt:
# `program dataset cpu_s gpu_s ...`, bench/gpu-offload.sh) with
# bench/verdicts.py --programs (keelcc builds the omp-target inputs per
# dataset; keel explain sums each program's target nests under
# bench/machines/lent-host.machine and lent-h100.machine, 16 threads), then
# plays every row 10 times through rt_learn (bench/replay.c, linked with
# BUILD's libkeelrt.a) with the measured times given instead of run: the
# total time of following it against the oracle, always offloading and the
# models alone.  No GPU needed.  KEEL_REPLAY_DBDIR keeps the databases.
set -eu
BUILD=${1:-build}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
MEASURED=${2:-$ROOT/bench/measured-h100.txt}
BIN=$(cd "$BUILD/bin" && pwd)
LIB=$(cd "$BUILD/lib" && pwd)
work=$(mktemp -d /tmp/keel-replay-XXXXXX)
trap 'rm -rf "$work"' EXIT
dbdir=${KEEL_REPLAY_DBDIR:-$work/db}
python3 "$ROOT/bench/verdicts.py" --keel "$BIN/keel" --keelcc "$BIN/keelcc" --programs "$MEASURED" \
    --cells --dbdir "$dbdir" >"$work/cells.txt"
cc -O2 -Wall -Wextra -I"$ROOT/runtime" "$ROOT/bench/replay.c" "$LIB/libkeelrt.a" -lsqlite3 \
    -lpthread -ldl -lm -o "$work/replay"
# "DATASET PROGRAM predicted Sx (cpu C s, gpu G s)  measured ..." joined with
# the measured file's exact times, in its order
awk 'NR == FNR {
         if ($3 == "predicted" && match($0, /\(cpu [^ ]+ s, gpu [^ ]+ s\)/)) {
             split(substr($0, RSTART + 1, RLENGTH - 2), w, /[ ,]+/)
             model[$2 " " $1] = w[2] " " w[5]
         }
         next
     }
     /^#/ || NF < 4 || $1 == "program" { next }
     ($1 " " $2) in model { print $1, $2, model[$1 " " $2], $3, $4 }' \
    "$work/cells.txt" "$MEASURED" >"$work/rows.txt"
"$work/replay" 10 <"$work/rows.txt"
