#!/bin/sh
# objmap.sh MCA_OBJ MCA_MAP DIR -- the assembly keelcc makes of a -g object
# (plugin/mcaobj.c: llvm-objdump's disassembly, the object's DWARF line
# table, natural loops) maps every loop of the mapping kernels exactly as
# clang's own -S output does, with the same llvm-mca bodies: the same
# copies, VF, IC, unroll counts, and instruction for instruction the same
# text once block labels (numbered differently) and constant-pool names
# (`.LCPI0_0(%rip)`, `(%rip)` in an object) are blanked.  Also against the
# hand-checked expectations of mapping.sh (labels blanked).
set -eu
OBJ=$1
MAP=$2
DIR=$3
work=$(mktemp -d /tmp/keel-mcaobjmap-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail=0
blank() { sed -e 's/[.]LBB[0-9_]*/L/g' -e 's/[.]LCPI[0-9_]*(%rip)/(%rip)/g'; }
R='-foptimization-record-passes=^loop-(vectorize|unroll)$'
for k in gemm-orders inline-init inline-init-malloc unroll-copies; do
    src=$DIR/kernels/$k.c
    F="-O2 --target=x86_64-linux-gnu -march=x86-64"
    clang-19 $F -S -gline-tables-only -fsave-optimization-record "$R" \
        -foptimization-record-file="$work/s.yaml" -o "$work/s.s" "$src"
    clang-19 $F -g -c -fsave-optimization-record "$R" \
        -foptimization-record-file="$work/o.yaml" -o "$work/o.o" "$src"
    llvm-objdump-19 -d -r --no-show-raw-insn --no-print-imm-hex "$work/o.o" >"$work/o.dis"
    "$OBJ" "$work/o.o" "$work/o.dis" >"$work/o.s" || { echo "FAIL $k: no assembly"; fail=1; continue; }
    MCA_MAP_BODIES=1 "$MAP" "$src" "$work/s.s" "$work/s.yaml" | blank >"$work/s.out"
    MCA_MAP_BODIES=1 "$MAP" "$src" "$work/o.s" "$work/o.yaml" | blank >"$work/o.out"
    "$MAP" "$src" "$work/o.s" "$work/o.yaml" | blank >"$work/o.map"
    blank <"$DIR/kernels/$k.expected" >"$work/expected"
    if cmp -s "$work/s.out" "$work/o.out" && cmp -s "$work/expected" "$work/o.map"; then
        echo "ok $k ($(grep -c ' copies=' "$work/o.map") loops mapped, $(wc -l <"$work/o.out") lines)"
    else
        echo "FAIL $k:"
        diff "$work/s.out" "$work/o.out" || true
        diff "$work/expected" "$work/o.map" || true
        fail=1
    fi
done
exit $fail
