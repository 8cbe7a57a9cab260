#!/bin/sh
# agree.sh BIN AGREE SRC -- build every polybench input with keelcc (MINI
# dataset, no llvm-mca stage: the compared facts do not depend on it) and
# check with AGREE (agree.c) that `keel show` and `keel explain` agree on
# every nest: parallel verdict, mapping, strides, counts.
set -eu
BIN=$1
AGREE=$2
SRC=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-agree-XXXXXX")
trap 'rm -rf "$work"' EXIT
KEEL_MCA=off make -s -C "$SRC/polybench-inputs" DATASET=MINI O="$work/bin" CC="$BIN/keelcc" \
    KEEL_DB="$work/k.db" >/dev/null
# every nest of the 43 programs (and polybench.c's); fewer means a file was lost
"$AGREE" "$work/k.db" 200
