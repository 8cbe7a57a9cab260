#!/bin/sh
# sanitize.sh BIN SRC [SEEDS] -- instrumented programs under AddressSanitizer
# and UndefinedBehaviorSanitizer report nothing the plain build does not.
#
# Builds each program twice with -O1 -g -fsanitize=address,undefined: with
# clang-19, and with keelcc (report mode, so libkeelrt.a -- built without
# sanitizers, which ASan and UBSan accept: its allocations go through ASan's
# malloc, its code is not checked -- is linked in).  Runs both and compares
# the sanitizer reports (lines with "runtime error:" or "ERROR: ...Sanitizer",
# positions included: the instrumented copy keeps the source's lines) and
# the outputs.  Programs: csmith seeds 1..SEEDS (default 5) and a few
# polybench inputs at the MINI size (gemm, jacobi-2d, covariance, and the
# omp-target gemm built with -fopenmp, run on the host).
# Prints one line per program and "N programs, M differ"; exit 0 when M = 0.
set -u
BIN=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
SEEDS=${3:-5}
PB=$SRC/polybench-inputs
SAN="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer"
work=$(mktemp -d /tmp/keel-san-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset KEEL_VERBOSE KEEL_FORCE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=0
n=0
bad=0

reports() {  # the sanitizer findings of an output file, addresses removed
    grep -E 'runtime error:|ERROR: [A-Za-z]*Sanitizer|SUMMARY: [A-Za-z]*Sanitizer' "$1" |
        sed -E 's/0x[0-9a-f]+/ADDR/g; s/ +\(pc ADDR.*//'
}

# check NAME EXTRA-FLAGS -- SOURCES...: build, run and compare one program.
check() {
    name=$1; extra=$2; shift 2
    n=$((n + 1))
    if ! clang-19 $SAN $extra "$@" -o "$name.plain" -lm 2>"$name.cc.err"; then
        echo "$name: clang-19 failed: $(head -1 "$name.cc.err")"; bad=$((bad + 1)); return
    fi
    if ! "$BIN/keelcc" --keel-db="$work/k.db" --keel-mca=off $SAN $extra "$@" \
            -o "$name.keel" -lm 2>"$name.kc.err" || grep -q 'keel' "$name.kc.err"; then
        echo "$name: keelcc failed or fell back: $(head -1 "$name.kc.err")"; bad=$((bad + 1)); return
    fi
    # Polybench kernels keep their calls (csmith's may all be dropped).
    case $name in seed*) ;; *)
        nm "$name.keel" | grep -q ' T keel_decide$' || { echo "$name: not instrumented"; bad=$((bad + 1)); return; }
    esac
    timeout 60 ./"$name.plain" >"$name.p.out" 2>&1; prc=$?
    timeout 60 ./"$name.keel" >"$name.k.out" 2>&1; krc=$?
    reports "$name.p.out" >"$name.p.rep"
    reports "$name.k.out" >"$name.k.rep"
    if [ "$prc" -ne "$krc" ] || ! cmp -s "$name.p.rep" "$name.k.rep"; then
        echo "$name: DIFFERS (exit $krc, plain $prc)"; diff "$name.p.rep" "$name.k.rep" | head -5
        bad=$((bad + 1))
    else
        echo "$name: same ($(wc -l <"$name.p.rep") sanitizer lines, exit $prc)"
    fi
}

s=1
while [ "$s" -le "$SEEDS" ]; do
    csmith --seed "$s" >"seed$s.c" && check "seed$s" "-w -I/usr/include/csmith" "seed$s.c"
    s=$((s + 1))
done
U=$PB/utilities
for p in linear-algebra/blas/gemm/gemm stencils/jacobi-2d/jacobi-2d \
         datamining/covariance/covariance; do
    check "$(basename "$p")" "-I$U -I$PB/$(dirname "$p") -DMINI_DATASET" "$PB/$p.c" "$U/polybench.c"
done
check omp-gemm "-fopenmp -I$U -I$PB/omp-target/GEMM -DMINI_DATASET" \
    "$PB/omp-target/GEMM/gemm.c" "$U/polybench.c"

echo "$n programs, $bad differ"
[ "$bad" -eq 0 ]
