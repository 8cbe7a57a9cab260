#!/bin/sh
# cpu-truth.sh [--datasets MEDIUM,LARGE] [--runs 3] [--omp | --omp-only] [--threads 1,N] [--clock wall]
#              [--only gemm,atax] [--work DIR] [--measured OUTPUT] [--compare KEEL]
# keel's CPU model of this host, after `keel calibrate`, against the measured
# kernel times of the PolyBench-style inputs (bench/cpu-truth.py says how).
# Needs a build (make build) and clang-19.
exec python3 "$(dirname "$0")/cpu-truth.py" "$@"
