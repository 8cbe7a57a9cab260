#!/bin/sh
# cpu-truth.sh [--datasets MEDIUM,LARGE] [--runs 3] [--omp] [--only gemm,atax]
# keel's CPU model of this host, after `keel calibrate`, against the measured
# kernel times of the PolyBench-style inputs (bench/cpu-truth.py says how).
# Needs a build (make build) and clang-19.
exec python3 "$(dirname "$0")/cpu-truth.py" "$@"
