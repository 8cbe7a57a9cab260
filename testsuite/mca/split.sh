#!/bin/sh
# split.sh MCA_SPLIT DIR -- every loop of the mapping kernels gets the same
# llvm-mca figures from one process as from its blocks split over two, and
# the split starts two processes (one when there is a single block).
set -eu
SPLIT=$1
DIR=$2
fail=0
check() {   # check KERNEL EXPECTED-OUTPUT
    out=$("$SPLIT" "$DIR/kernels/$1.c" 2>&1) || true
    if [ "$out" != "$2" ]; then
        printf 'FAIL %s:\n%s\nexpected:\n%s\n' "$1" "$out" "$2"
        fail=1
    else
        echo "ok $1"
    fi
}
check gemm-orders "$(printf 'processes 1 2\nsame 6')"
check inline-init "$(printf 'processes 1 2\nsame 5')"
exit $fail
