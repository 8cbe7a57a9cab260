#!/bin/sh
# gpu-offload.sh -- measure the omp-target inputs on a real GPU: CPU vs GPU.
#
#   sh bench/gpu-offload.sh build OUTDIR [ARCH]   # here: build for sm_90 (default)
#   sh bench/gpu-offload.sh run OUTDIR            # on the GPU machine: time them
#
# `build` compiles every polybench-inputs/omp-target program with clang-19
# -O2 -fopenmp --offload-arch=ARCH for the MEDIUM, LARGE and EXTRALARGE
# datasets, with -DPOLYBENCH_TIME (kernel time on stderr) and
# -DPOLYBENCH_OFFLOAD_WARMUP (the device is started before the timer) and
# -DPOLYBENCH_OMP_WARMUP (so is the host's OpenMP runtime and the league of
# teams a host `target teams` region starts the first time: with
# OMP_TARGET_OFFLOAD=DISABLED the CPU time is then the kernel's, as in
# bench/cpu-truth.py, not the kernel's plus a once-a-process start-up).  It
# needs clang-tools-19 (clang-offload-packager, clang-linker-wrapper), the
# NVPTX device runtime of libomp-19-dev and a CUDA toolkit's ptxas/nvlink
# ($CUDA_PATH).  That toolkit must be older than 12.8: LLVM 19's libomptarget
# reads the cubin's e_flags in the old layout (EF_CUDA_SM in the low byte,
# EF_CUDA_64BIT_ADDRESS) and rejects the new ELF ABI of CUDA 12.8+/13 images
# ("No images found compatible with the installed hardware").  We used the
# ptxas/nvlink of Debian non-free's nvidia-cuda-toolkit 11.8 with a
# cuda.h saying CUDA_VERSION 11080, and CUDA 13's nvvm/libdevice.
#
# On the GPU machine the program needs libomptarget.so.19.1 and its
# libraries (libLLVM.so.19.1 ...) on LD_LIBRARY_PATH, and a `libcuda.so`
# (not only libcuda.so.1) that the CUDA plugin can dlopen.
#
# `run` runs each binary three times with OMP_TARGET_OFFLOAD=DISABLED (the
# target regions run on the host, `parallel for` over OMP_NUM_THREADS
# threads) and three times with OMP_TARGET_OFFLOAD=MANDATORY, keeps the
# fastest of each, checks that both print the same checksums (to 1e-9
# relative; the GPU contracts to FMA differently) and prints one line a
# program:  program dataset cpu_s gpu_s speedup checksums
set -eu
mode=${1:?usage: gpu-offload.sh build|run OUTDIR [ARCH]}
out=${2:?usage: gpu-offload.sh build|run OUTDIR [ARCH]}
arch=${3:-sm_90}
root=$(cd "$(dirname "$0")/.." && pwd)
pb=$root/polybench-inputs

case $mode in
build)
    mkdir -p "$out"
    cuda=${CUDA_PATH:-/usr/local/cuda}
    for dir in "$pb"/omp-target/*/; do
        name=$(basename "$dir")
        src=$(ls "$dir"*.c)
        for ds in MEDIUM LARGE EXTRALARGE; do
            clang-19 -O2 -fopenmp --offload-arch="$arch" \
                --libomptarget-nvptx-bc-path=/usr/lib/llvm-19/lib --cuda-path="$cuda" \
                -DPOLYBENCH_TIME -DPOLYBENCH_OFFLOAD_WARMUP -DPOLYBENCH_OMP_WARMUP -D${ds}_DATASET \
                -I"$pb/utilities" -I"$dir" "$src" "$pb/utilities/polybench.c" \
                -o "$out/$name.$ds" -lm
        done
        echo "built $name"
    done
    ;;
run)
    best() {  # best OFFLOAD BIN -> "seconds checksum-file"
        b=""
        for rep in 1 2 3; do
            OMP_TARGET_OFFLOAD=$1 "$2" >"$tmp/out.$1" 2>"$tmp/err" || { echo fail; return; }
            t=$(sed -n 's/^time: \([0-9.]*\) s$/\1/p' "$tmp/err")
            [ -n "$t" ] || { echo fail; return; }
            if [ -z "$b" ] || awk "BEGIN { exit !($t < $b) }"; then b=$t; fi
        done
        echo "$b"
    }
    tmp=$(mktemp -d)
    printf '%-8s %-11s %12s %12s %9s %s\n' program dataset cpu_s gpu_s speedup checksums
    for bin in "$out"/*.*; do
        name=$(basename "$bin"); prog=${name%.*}; ds=${name##*.}
        c=$(best DISABLED "$bin"); g=$(best MANDATORY "$bin")
        if [ "$c" = fail ] || [ "$g" = fail ]; then
            printf '%-8s %-11s %12s %12s %9s %s\n' "$prog" "$ds" "$c" "$g" - -; continue
        fi
        same=$(awk 'NR==FNR { a[FNR]=$3; next }
                    { d=$3-a[FNR]; if (d<0) d=-d; m=(a[FNR]<0?-a[FNR]:a[FNR]);
                      if (d > 1e-9*m + 1e-300) bad=1 }
                    END { print bad ? "DIFFER" : "equal" }' "$tmp/out.DISABLED" "$tmp/out.MANDATORY")
        printf '%-8s %-11s %12s %12s %9.2f %s\n' "$prog" "$ds" "$c" "$g" "$(awk "BEGIN { print $c / $g }")" "$same"
    done
    rm -rf "$tmp"
    ;;
*) echo "gpu-offload.sh: unknown mode '$mode' (build or run)" >&2; exit 2 ;;
esac
