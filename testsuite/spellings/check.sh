#!/bin/sh
# check.sh BIN SRC -- compile every spelling in src/ with keelcc into one
# database, then compare each pair of pairs.txt with compare.py: loop
# verdicts and idioms, access strides, and the CPU/GPU verdict with the
# CPU, GPU and transfer times of `keel explain` at two sizes (within 10%).
set -eu
BIN=$1
HERE=$2/testsuite/spellings
work=$(mktemp -d /tmp/keel-spellings-XXXXXX)
trap 'rm -rf "$work"' EXIT
for f in "$HERE"/src/*.c; do
    b=$(basename "$f" .c)
    if ! KEEL_DB="$work/k.db" "$BIN/keelcc" -O1 -c "$f" -o "$work/$b.o" 2>"$work/warn"; then
        echo "FAIL: keelcc $b.c"; cat "$work/warn"; exit 1
    fi
    if [ -s "$work/warn" ]; then echo "FAIL: keelcc warned on $b.c:"; cat "$work/warn"; exit 1; fi
done
python3 "$HERE/compare.py" "$BIN/keel" "$work/k.db" "$HERE/src" "$HERE/pairs.txt"
