#!/bin/sh
# rt_explain.sh BINDIR ROOT -- polybench gemm and gesummv compiled with
# keelcc (EXTRALARGE extents), then `keel explain --set` at the MINI and
# EXTRALARGE sizes of their headers under the h100 profile, with the
# host defaults (fresh database: no calibration) and 16 threads:
# gemm flips from CPU to GPU, gesummv stays CPU (memory bound, transfers).
BIN=$1 ROOT=$2
P=$ROOT/polybench-inputs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
for k in gemm gesummv; do
    "$BIN/keelcc" --keel-db="$work/k.db" -O2 -I"$P/utilities" -I"$P/linear-algebra/blas/$k" \
        -DEXTRALARGE_DATASET -c "$P/linear-algebra/blas/$k/$k.c" -o $k.o || bad "keelcc $k"
done
verdict() {   # LOC SET -> the verdict word
    OMP_NUM_THREADS= "$BIN/keel" explain "$1" --set "$2" --device h100 --threads 16 k.db \
        >out.txt 2>err.txt || { bad "explain $1 $2: $(cat err.txt)"; return; }
    sed -n 's/^verdict .* -> \([A-Z]*\).*/\1/p' out.txt
}
check() { [ "$(verdict "$1" "$2")" = "$3" ] && ok || bad "$1 $2: want $3: $(tail -1 out.txt)"; }
# gemm.h: MINI 20/25/30, EXTRALARGE 2000/2300/2600; gesummv.h: MINI 30, EXTRALARGE 2800
check gemm.c:42 ni=20,nj=25,nk=30 CPU
check gemm.c:42 ni=2000,nj=2300,nk=2600 GPU
check gesummv.c:43 n=30 CPU
check gesummv.c:43 n=2800 CPU
# the terms are printed: every model's lines are there
verdict gemm.c:42 ni=2000,nj=2300,nk=2600 >/dev/null
for term in Parallel_Region_c Loop_chunk_c MWP_peak_BW CWP_full '#OMP_Rep' Mem_cycles B_bus \
            'needs       ni,nj,nk' 'map threads' 'R A\[i\]\[k\] .*uniform' 'bytes in / out         126240000 / 36800000'; do
    grep -q "$term" out.txt && ok || bad "explain lacks '$term'"
done
# a missing value is a one-line error naming it
"$BIN/keel" explain gemm.c:42 --set ni=20 --device h100 k.db >/dev/null 2>err.txt
[ $? -eq 1 ] && grep -q 'nj' err.txt && ok || bad "missing value: $(cat err.txt)"
# `--host host` is this host as calibrated, like no --host: a stored
# calibration (2.5 GHz, 4 cores) is used by both; a named profile is not
sqlite3 k.db "INSERT INTO host_calibration(host, cores, freq_hz, mem_bw, peak_flops, fork_ns,
    join_ns, sched_ns, target_fallback_ns) VALUES ('$(hostname)', 4, 2.5e9, 2e10, 1e11, 1000,
    1000, 1000, 40000)" || bad "sqlite3 insert"
for h in "" "--host host"; do
    # shellcheck disable=SC2086
    "$BIN/keel" explain gemm.c:42 --set ni=20,nj=25,nk=30 --device h100 $h k.db >out.txt 2>&1
    grep -q 'calibrated by `keel calibrate`' out.txt && grep -q 'at 2.50 GHz' out.txt && ok ||
        bad "explain ${h:-(no --host)} ignores the calibration: $(grep -e '^host' -e GHz out.txt)"
done
"$BIN/keel" explain gemm.c:42 --set ni=20,nj=25,nk=30 --device h100 --host power9 k.db >out.txt
grep -q 'at 3.00 GHz' out.txt && ok || bad "--host power9: $(grep GHz out.txt)"
# Loop_overhead_c (Liao-Chapman's loop control, 4 cycles an iteration) is
# for cycles that hold the body alone: gemm's i loop has inner loops, its
# cycles are per statement, so 4 x 20 = 80; a loop with no inner loop is
# timed by llvm-mca as its whole block, control included: 0 on top; so is
# a time-stepped region's (its kernels are inner loops of the step loop,
# their control in their cycles)
grep -q '^  Loop_overhead_c  *80 cycles (4 x chunk)$' out.txt && ok ||
    bad "gemm Loop_overhead_c: $(grep Loop_overhead_c out.txt)"
printf 'void scale(int n, double *restrict a, const double *restrict b, double s)\n{\n    for (int i = 0; i < n; i++)\n        a[i] = b[i] * s;\n}\n' >one.c
"$BIN/keelcc" --keel-db="$work/k.db" -O2 -c one.c -o one.o || bad "keelcc one.c"
"$BIN/keel" explain one.c:3 --set n=1000 --host power9 --device h100 k.db >out.txt 2>&1
grep -q "^  Loop_overhead_c  *0 cycles (the loop's control is in its cycles)$" out.txt && ok ||
    bad "one-loop Loop_overhead_c: $(grep -e Loop_overhead_c -e llvm-mca out.txt)"
printf 'void relax(int T, int n, double *restrict a, double *restrict b)\n{\n    for (int t = 0; t < T; t++) {\n        for (int i = 1; i < n - 1; i++)\n            b[i] = 0.5 * (a[i - 1] + a[i + 1]);\n        for (int i = 1; i < n - 1; i++)\n            a[i] = b[i];\n    }\n}\n' >reg.c
"$BIN/keelcc" --keel-db="$work/k.db" -O2 -c reg.c -o reg.o || bad "keelcc reg.c"
"$BIN/keel" explain reg.c:3 --set T=10,n=1000 --host power9 --device h100 k.db >out.txt 2>&1
grep -q '^  region  *10 steps x 2 kernels' out.txt &&
    grep -q "^  Loop_overhead_c  *0 cycles (the loop's control is in its cycles)$" out.txt && ok ||
    bad "region Loop_overhead_c: $(grep -e region -e Loop_overhead_c out.txt)"
finish
