#!/bin/sh
# mapping.sh MCA_MAP DIR -- the assembly -> source loop mapping on small
# kernels whose loops are known, against hand-checked expectations.
#
# kernels/gemm-orders.c: ijk gemm (inner k loop: scalar, runtime-unrolled by
# 2, one copy) and ikj gemm (inner j loop: versioned into a vector copy,
# VF 2 x IC 2, and a scalar remainder unrolled by 2: two copies, the vector
# one primary, 4 source iterations per assembly iteration).
# kernels/inline-init.c: a setup loop and a two-sweep kernel inlined into
# main, every loop holding divpd; each loop gets its own assembly loop, and
# the sweeps' vector bodies, unrolled by 2 after VF 2 (an unroll remark for
# each of the two copies), run 4 source iterations per assembly iteration.
# kernels/inline-init-malloc.c: the same without versioning (one copy, one
# remark).
# kernels/unroll-copies.c: vector and scalar copies with one unroll remark,
# or two of different counts: which copy each was about, from the copies'
# memory operations.  Compiled for plain x86-64 at -O2 by clang-19, as
# keelcc's stage does.
set -eu
MAP=$1
DIR=$2
work=$(mktemp -d /tmp/keel-mcamap-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail=0
for k in gemm-orders inline-init inline-init-malloc unroll-copies; do
    src=$DIR/kernels/$k.c
    clang-19 -O2 --target=x86_64-linux-gnu -march=x86-64 -S -gline-tables-only \
        -fsave-optimization-record -foptimization-record-file="$work/$k.yaml" \
        -o "$work/$k.s" "$src"
    "$MAP" "$src" "$work/$k.s" "$work/$k.yaml" >"$work/$k.out"
    if cmp -s "$work/$k.out" "$DIR/kernels/$k.expected"; then
        echo "ok $k"
    else
        echo "FAIL $k:"; diff "$DIR/kernels/$k.expected" "$work/$k.out" || true
        fail=1
    fi
    # keelcc's stage keeps only the remarks of the passes the mapping reads
    # (plugin/mcarun.h, MCR_REMARK_PASSES): the same assembly, the same
    # mapping, and no remark of another pass in the file
    clang-19 -O2 --target=x86_64-linux-gnu -march=x86-64 -S -gline-tables-only \
        -fsave-optimization-record '-foptimization-record-passes=^loop-(vectorize|unroll)$' \
        -foptimization-record-file="$work/$k.f.yaml" -o "$work/$k.f.s" "$src"
    "$MAP" "$src" "$work/$k.f.s" "$work/$k.f.yaml" >"$work/$k.f.out"
    other=$(grep '^Pass:' "$work/$k.f.yaml" | grep -cvE 'Pass: +loop-(vectorize|unroll)$' || true)
    if cmp -s "$work/$k.s" "$work/$k.f.s" && cmp -s "$work/$k.f.out" "$DIR/kernels/$k.expected" \
       && [ "$other" = 0 ]; then
        echo "ok $k (remarks of loop-vectorize and loop-unroll only)"
    else
        echo "FAIL $k with the passes' remarks only (other passes' remarks: $other):"
        diff "$DIR/kernels/$k.expected" "$work/$k.f.out" || true
        fail=1
    fi
done
grep -qF '"-foptimization-record-passes=^loop-(vectorize|unroll)$"' "$DIR/../../plugin/mcarun.h" \
    || { echo "FAIL: mcarun.h's MCR_REMARK_PASSES is not the filter tested here"; fail=1; }
exit $fail
