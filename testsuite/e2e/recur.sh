#!/bin/sh
# recur.sh BIN SRC -- recurrences carried by innermost loops, through keelcc,
# the database and keel explain (analysis/recur.h, runtime/model.c).
#
#  1. keelcc stores the per-loop fact `recurrence` on seidel-2d's j loop
#     (A[i][j-1] is read one iteration after A[i][j] was written, through
#     six additions and a division) and on bicg's j loop (the accumulator
#     q[i], whose store stays in the loop: a memory round trip and one
#     addition); both are all the chains their loops carry ("all");
#     none on the loops around them, none on jacobi-2d's (it reads B,
#     writes A); the operations of chains through macros, selects,
#     fmax, functions of this file and conversions (1b);
#  2. keel explain takes the bound: with a host profile whose latencies are
#     fadd 10, fdiv 40 cycles, seidel's j loop costs 6 x 10 + 40 = 100
#     cycles, so at tsteps=1, n=3 (one i and one j iteration per step) a
#     step costs 100 + 1 (the i loop's own control, keelcc's estimate) =
#     101 cycles, the bound adding 100 less the j loop's own estimate
#     (with no llvm-mca figure the bound is a floor on keelcc's estimate).
# --keel-mca=off: the figures do not depend on this host.
set -u
BIN=$1
SRC=$2
PB=$SRC/polybench-inputs
work=$(mktemp -d /tmp/keel-recur-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset KEEL_DB KEEL_HOST KEEL_DEVICE KEEL_VERBOSE
. "$(dirname "$0")/../lib.sh"

for p in stencils/seidel-2d/seidel-2d stencils/jacobi-2d/jacobi-2d linear-algebra/kernels/bicg/bicg; do
    "$BIN/keelcc" --keel-db=k.db --keel-mca=off -O2 -I"$PB/utilities" -DMINI_DATASET \
        -c "$PB/$p.c" -o x.o 2>err.txt || bad "$p: keelcc"
    expect_eq "$(cat err.txt)" "" "$p: keelcc messages"
done

# 1. the facts, loop by loop (keel show's line)
fact() { "$BIN/keel" show "$1" k.db | sed -n 's/^recurrence *//p'; }
S=$PB/stencils/seidel-2d/seidel-2d.c
expect_eq "$(fact "$S:32")" "A[i][j-1]->A[i][j] dist=1 fadd=6 fdiv=1 all" "seidel-2d j loop"
expect_eq "$(fact "$S:31")" "" "seidel-2d i loop"
expect_eq "$(fact "$S:30")" "" "seidel-2d t loop"
B=$PB/linear-algebra/kernels/bicg/bicg.c
expect_eq "$(fact "$B:47")" "q[i]->q[i] dist=1 fadd=1 mem all" "bicg j loop"
J=$PB/stencils/jacobi-2d/jacobi-2d.c
n=$("$BIN/keel" show "$J" k.db 2>/dev/null | grep -c '^recurrence')
expect_eq "$n" "0" "jacobi-2d: no recurrence"

# 1b. operations only the expanded tree shows (testsuite/e2e/src/recur_ops.c):
#     a max macro and a max function (a compare-and-select, isel; the
#     comparison is the select's own), a conditional expression and fmax on
#     doubles (fsel), an integer scalar chain, an integer widening (no
#     latency of its own) and a conversion to int and back (its latency
#     unknown: the addition kept, no "all"); the function's call also
#     keeps "all" off (the loop calls a function)
R=$SRC/testsuite/e2e/src/recur_ops.c
"$BIN/keelcc" --keel-db=k.db --keel-mca=off -O2 -c "$R" -o r.o 2>err.txt || bad "recur_ops: keelcc"
expect_eq "$(cat err.txt)" "" "recur_ops: keelcc messages"
expect_eq "$(fact "$R:10")" "table[i][j]->table[i][j] dist=1 isel=1 all" "max macro"
expect_eq "$(fact "$R:17")" "x[i-1]->x[i] dist=1 fsel=1 all" "conditional on doubles"
expect_eq "$(fact "$R:24")" "x[i-1]->x[i] dist=1 fmul=1 fsel=1 all" "fmax"
expect_eq "$(fact "$R:32")" "s->s dist=1 iadd=1 imul=1 all" "integer scalar chain"
expect_eq "$(fact "$R:40")" "x[i-1]->x[i] dist=1 iadd=1 all" "integer widening"
expect_eq "$(fact "$R:48")" "x[i-1]->x[i] dist=1 iadd=1" "conversion to int and back"
expect_eq "$(fact "$R:61")" "table[i][j]->table[i][j] dist=1 isel=1" "max function"
N=$PB/medley/nussinov/nussinov.c
"$BIN/keelcc" --keel-db=k.db --keel-mca=off -O2 -I"$PB/utilities" -DMINI_DATASET \
    -c "$N" -o n.o 2>err.txt || bad "nussinov: keelcc"
expect_eq "$(fact "$N:55")" "table[i][j]->table[i][j] dist=1 isel=1" "nussinov k loop"

# 2. the bound in the model
printf 'name = slowfp\nkind = cpu\nclock = 1 GHz\ncores = 1\nmem_bw = 100 GB/s\nline = 64 B\nl2 = 1 MiB\nl3 = 0 B\nmem_latency = 100 ns\nmlp = 10\nlatency_fadd = 10 cycles\nlatency_fdiv = 40 cycles\n' >slowfp.machine
"$BIN/keel" explain "$S:30" --host ./slowfp.machine --device h100 --set tsteps=1,n=3 \
    --json k.db >e.json 2>err.txt || bad "explain: $(cat err.txt)"
cyc=$(sed -n 's/.*"cycles_per_iteration": *\([0-9.e+]*\).*/\1/p' e.json | head -1)
expect_eq "$cyc" "101.0" "seidel-2d: cycles per step at n=3"
rec=$(sed -n 's/.*"recurrence_cycles": *\([0-9.e+]*\).*/\1/p' e.json | head -1)
case "$rec" in
    ''|0) bad "seidel-2d: no recurrence term ($rec)" ;;
    *) ok ;;
esac
"$BIN/keel" explain "$S:30" --host ./slowfp.machine --device h100 --set tsteps=1,n=3 \
    k.db >e.txt 2>&1
expect_eq "$(grep -c '^  recurrence bound' e.txt)" "1" "explain: the recurrence line"

finish recur
