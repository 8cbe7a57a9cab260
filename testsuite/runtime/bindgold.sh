#!/bin/sh
# bindgold.sh BIN BINDGOLD SRC [--refresh] -- the binder's and the models'
# outputs against a golden file, exactly.
#
# Builds 14 PolyBench-style kernels of polybench-inputs (MINI dataset, no
# llvm-mca stage) and bindgold-nests.c with keelcc -c into a fresh database, and a copy of it
# with llvm-mca figures for two target CPUs added on the innermost loops
# (so that the hosts pick different ones, and the packed nests go: the
# rows route); runs rt_bindgold (bindgold.c: every nest x fixed size sets
# x six built-in or fixed host profiles x three GPUs, every launch field
# and estimate as a hex float, the run-time overlap check) on both, and
# compares its output with bindgold.golden line for line.  No figure of
# this machine enters.  A speed-up of the binder must leave the file as it
# is; a change of a model's result changes it, and is refreshed with
#
#     sh testsuite/runtime/bindgold.sh build/bin build/testsuite/runtime/rt_bindgold . --refresh
#
# from the repository root (after a build), saying in the commit why.
set -eu
BIN=$1
GOLD_BIN=$2
SRC=$3
REFRESH=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
golden=$here/bindgold.golden
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-bindgold-XXXXXX")
trap 'rm -rf "$work"' EXIT
pb=$(cd "$SRC/polybench-inputs" && pwd)
for p in linear-algebra/blas/gemm/gemm.c linear-algebra/blas/trmm/trmm.c \
         linear-algebra/blas/syrk/syrk.c linear-algebra/kernels/3mm/3mm.c \
         linear-algebra/kernels/doitgen/doitgen.c linear-algebra/solvers/cholesky/cholesky.c \
         linear-algebra/solvers/lu/lu.c datamining/correlation/correlation.c \
         medley/nussinov/nussinov.c stencils/fdtd-2d/fdtd-2d.c stencils/heat-3d/heat-3d.c \
         stencils/adi/adi.c omp-target/2DCONV/2DConvolution.c omp-target/CORR/correlation.c; do
    omp=
    case $p in omp-target/*) omp=-fopenmp ;; esac
    KEEL_MCA=off KEEL_DB="$work/k.db" "$BIN/keelcc" -O2 $omp -DMINI_DATASET -I"$pb/utilities" \
        -I"$pb/$(dirname "$p")" -c "$pb/$p" -o "$work/$(basename "$p" .c).o"
done
# and nests of our own: a bounded trip, a gather, a column walk, a
# triangular OpenMP loop, a step, an unevaluable bound
KEEL_MCA=off KEEL_DB="$work/k.db" "$BIN/keelcc" -O2 -fopenmp -c "$here/bindgold-nests.c" \
    -o "$work/nests.o"
cp "$work/k.db" "$work/mca.db"
sqlite3 "$work/mca.db" <"$here/mca-rows.sql"
{
    echo "== packed nests, 6 size sets"
    "$GOLD_BIN" "$work/k.db" 6 "$pb/" "$here/"
    echo "== rows with llvm-mca figures, 3 size sets"
    "$GOLD_BIN" "$work/mca.db" 3 "$pb/" "$here/"
} >"$work/out"
if [ "$REFRESH" = --refresh ]; then
    {
        echo "# bindgold.golden -- rt_bindgold's output on the kernels bindgold.sh builds."
        echo "# Written by bindgold.sh --refresh.  A refresh needs a reason: a model or"
        echo "# the facts keelcc stores changed on purpose (say which in the commit); a"
        echo "# change of the binder's speed alone must leave every line as it is."
        cat "$work/out"
    } >"$golden"
    echo "bindgold: $(grep -c '' "$work/out") lines written to $golden"
    exit 0
fi
grep -v '^#' "$golden" >"$work/want"
if ! cmp -s "$work/want" "$work/out"; then
    echo "FAIL: the binder's or the models' output differs from bindgold.golden:"
    diff -u "$work/want" "$work/out" | head -60
    echo "(a model change on purpose: refresh with bindgold.sh --refresh, saying why)"
    exit 1
fi
echo "bindgold: $(grep -c '' "$work/out") lines as in bindgold.golden"
