#!/bin/sh
# instrument.sh BIN SRC -- programs built by keelcc decide per loop nest at
# launch, and compute exactly what the plain builds compute.
#
#  - report mode (the default): gemm at MINI prints one verdict line per
#    loop nest with KEEL_VERBOSE=2, CPU for the kernel under the h100
#    profile, and logs its decisions in the database;
#  - offload mode: every omp-target program built with -fopenmp and
#    --keel-instrument=offload prints the plain build's checksums, whether
#    the verdict is CPU or (forced) GPU, which falls back to the host here;
#  - without KEEL_VERBOSE a keelcc-built program prints nothing extra.
set -u
BIN=$1
SRC=$2
PB=$SRC/polybench-inputs
work=$(mktemp -d /tmp/keel-instr-XXXXXX)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"

GEMM=linear-algebra/blas/gemm/gemm
make -s -C "$PB" DATASET=MINI O="$work/plain" CC=clang-19 "$work/plain/$GEMM" >/dev/null
make -s -C "$PB" DATASET=MINI O="$work/keel" CC="$BIN/keelcc" KEEL_DB="$work/k.db" \
    "$work/keel/$GEMM" >/dev/null
cd "$work" || exit 1
"$work/plain/$GEMM" >plain.out 2>&1
"$work/keel/$GEMM" >keel.out 2>&1
cmp -s plain.out keel.out && ok || bad "gemm output differs without KEEL_VERBOSE"

KEEL_VERBOSE=2 KEEL_DEVICE=h100 "$work/keel/$GEMM" >out.txt 2>err.txt
cmp -s plain.out out.txt && ok || bad "gemm stdout differs with KEEL_VERBOSE"
# init_array has three nests, kernel_gemm one: four lines, in program order.
expect_eq "$(grep -c '^keel: gemm.c:' err.txt)" 4 "verdict lines"
kline=$(grep '^keel: gemm.c:42 kernel_gemm ' err.txt)
echo "$kline" | grep -Eq '^keel: gemm\.c:42 kernel_gemm \[stream,matmul,reduction\] ni=20,nj=25,nk=30: cpu [0-9.]+ (s|ms|us) \| gpu [0-9.]+ (s|ms|us) \+ xfer [0-9.]+ (s|ms|us) -> CPU$' \
    && ok || bad "kernel verdict line: '$kline'"
n=$(sqlite3 k.db "SELECT count(*) FROM decisions d JOIN loops l ON l.id = d.loop_id WHERE l.line = 42 AND d.verdict = 'CPU'")
expect_eq "$n" 1 "logged kernel decision"

# __FILE__ and __LINE__ are what the plain compile gives (the #line
# directives name the source as the command does, relative here).
mkdir -p src
printf '#include <stdio.h>\nint main(void)\n{\n    int s = 0;\n    for (int i = 0; i < 3; i++) s += i;\n    printf("%%s:%%d %%d\\n", __FILE__, __LINE__, s);\n    return 0;\n}\n' >src/where.c
clang-19 src/where.c -o where.plain
KEEL_DB=$work/w.db "$BIN/keelcc" src/where.c -o where.keel
expect_eq "$(./where.keel)" "$(./where.plain)" "__FILE__/__LINE__ of an instrumented program"
expect_eq "$(./where.plain)" "src/where.c:6 3" "plain program's own output"

# KEEL_FORCE=gpu with no GPU: still the verdict the user forced.
KEEL_VERBOSE=2 KEEL_FORCE=gpu "$work/keel/$GEMM" >out.txt 2>err.txt
cmp -s plain.out out.txt && ok || bad "gemm stdout differs with KEEL_FORCE=gpu"
grep -q '^keel: gemm.c:42 kernel_gemm .*-> GPU' err.txt && ok || bad "forced verdict: $(grep ':42 ' err.txt)"

# Offload mode over the omp-target set.
make -s -C "$PB" DATASET=MINI O="$work/plain" CC=clang-19 >/dev/null 2>&1
make -s -C "$PB" DATASET=MINI O="$work/off" CC="$BIN/keelcc --keel-instrument=offload" \
    KEEL_DB="$work/off.db" >/dev/null 2>"$work/off.err"
[ -s "$work/off.err" ] && bad "keelcc warnings in offload mode: $(head -3 "$work/off.err")" || ok
for src in $(cd "$PB" && ls omp-target/*/*.c); do
    prog=${src%.c}
    "$work/plain/$prog" >p.out 2>&1
    for force in cpu gpu; do
        KEEL_FORCE=$force "$work/off/$prog" >o.out 2>&1
        cmp -s p.out o.out && ok || bad "$prog (offload, KEEL_FORCE=$force): output differs"
    done
done
n=$(sqlite3 off.db "SELECT count(*) FROM loops WHERE pragmas LIKE '%omp target%'")
[ "$n" -ge 13 ] && ok || bad "only $n omp target loops recorded"

finish
