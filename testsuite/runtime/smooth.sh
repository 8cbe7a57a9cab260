#!/bin/sh
# smooth.sh BIN SMOOTH SRC -- build a matmul (sequential and as an OpenMP
# target region), a matvec pair and two time-stepped stencils with keelcc
# (llvm-mca on: the cycles are part of the CPU time) and check with SMOOTH
# (smooth.c) that no predicted time has a cliff over sizes or threads.
set -eu
BIN=$1
SMOOTH=$2
SRC=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-smooth-XXXXXX")
trap 'rm -rf "$work"' EXIT
P=$SRC/polybench-inputs
for src in linear-algebra/blas/gemm/gemm.c linear-algebra/kernels/mvt/mvt.c \
           stencils/jacobi-2d/jacobi-2d.c stencils/heat-3d/heat-3d.c \
           datamining/covariance/covariance.c; do
    KEEL_DB="$work/k.db" "$BIN/keelcc" -O2 -I"$P/utilities" -I"$P/$(dirname "$src")" \
        -c "$P/$src" -o "$work/$(basename "$src").o"
done
KEEL_DB="$work/k.db" "$BIN/keelcc" -O2 -fopenmp -I"$P/utilities" -I"$P/omp-target/GEMM" \
    -c "$P/omp-target/GEMM/gemm.c" -o "$work/omp-gemm.o"
"$SMOOTH" "$work/k.db"
