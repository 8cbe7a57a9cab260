#!/bin/sh
# omp_device.sh BINDIR SRCDIR -- OpenMP programs through keelcc (issue 10).
#
# 1. A file that includes <omp.h>, compiled with -fopenmp, is fully analysed
#    (its loops are in the database, no "analysis skipped").
# 2. Every omp-target PolyBench input, and sources whose loops sit inside
#    `target` / `target data` regions, instrumented in report and offload
#    mode, compile for the device side (clang-19 --offload-device-only for
#    sm_90: no GPU, CUDA or device library needed) without a warning from
#    keelcc, and the device code never calls keel_decide -- while the host
#    code of the same compile does.
# 3. A host-only offload-mode build still decides and logs each launch
#    (clang-19 does not evaluate if(target: ...) without offload targets).
# 4. `target teams distribute parallel for` on i over j: strides along i
#    (1,024 work items); with collapse(2) along j (1,048,576 work items).
# No timing is asserted; --keel-mca=off keeps it short.
BIN=$1
SRC=$2
KEELCC="$BIN/keelcc"
KEEL="$BIN/keel"
tmp=$(mktemp -d /tmp/keel-ompdev-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
. "$(dirname "$0")/../lib.sh"
KC="$KEELCC --keel-db=$tmp/k.db --keel-mca=off"

# ---- 1. omp.h ------------------------------------------------------------
cat >omph.c <<'EOF'
#include <omp.h>
#include <stdio.h>
int main(void)
{
    double s = 0;
    int n = 1000;
#pragma omp parallel for reduction(+:s)
    for (int i = 0; i < n; i++)
        s += i * 0.5;
    printf("%.1f %d\n", s, omp_get_max_threads() > 0 && omp_is_initial_device());
    return 0;
}
EOF
$KC -O2 -fopenmp -c omph.c -o omph.o 2>err.txt || bad "omph.c: compile failed"
[ -s err.txt ] && bad "omph.c: keelcc said: $(cat err.txt)"
"$KEEL" show omph.c:8 k.db >show.txt 2>&1 || bad "omph.c:8 not in the database: $(cat show.txt)"
grep -q '^pragmas     omp parallel for reduction(+:s)$' show.txt || bad "omph.c:8 pragmas: $(grep pragmas show.txt)"
grep -q '^gpu map     grid:' show.txt || bad "omph.c:8 gpu map: $(grep gpu show.txt)"

# ---- 2. device-side compiles --------------------------------------------
cat >regions.c <<'EOF'
void regions(int n, float *a, float *b)
{
#pragma omp target map(tofrom: a[0:n])
    {
#pragma omp teams distribute parallel for
        for (int i = 0; i < n; i++)
            a[i] += 1;
    }
#pragma omp target data map(tofrom: a[0:n], b[0:n])
    {
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++)
            b[i] = a[i];
#pragma omp target teams distribute
        for (int i = 0; i < n; i++) {
            float s = 0;
#pragma omp parallel for reduction(+: s)
            for (int j = 0; j < n; j++)
                s += a[j];
            b[i] += s;
        }
    }
#pragma omp target teams map(tofrom: a[0:n])
#pragma omp distribute parallel for
    for (int i = 0; i < n; i++)
        a[i] *= 2;
    for (int t = 0; t < 4; t++) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
        for (int i = 0; i < n; i++)
            a[i] -= 1;
    }
}
EOF
# a bare `target` region holding two worksharing nests: in offload mode
# both verdicts go to its one if(target: ...) clause
cat >bare2.c <<'EOF'
void bare2(int n, float *a, float *b)
{
#pragma omp target map(tofrom: a[0:n], b[0:n])
    {
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            a[i] += 1;
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            b[i] += a[i];
    }
}
EOF
srcs="$tmp/regions.c $tmp/bare2.c"
for f in "$SRC"/polybench-inputs/omp-target/*/*.c; do srcs="$srcs $f"; done
n=0
for f in $srcs; do
    b=$(basename "$f" .c)
    inc="-I$(dirname "$f") -I$SRC/polybench-inputs/utilities"
    for mode in report offload; do
        $KC --keel-instrument=$mode -O1 -fopenmp --offload-arch=sm_90 --offload-device-only \
            -nogpulib -S -emit-llvm $inc "$f" -o "$b.$mode.dev.ll" 2>err.txt \
            || bad "$b ($mode): device-side compile failed: $(head -3 err.txt)"
        [ -s err.txt ] && bad "$b ($mode): device-side compile printed: $(head -3 err.txt)"
        grep -q 'keel_decide' "$b.$mode.dev.ll" && bad "$b ($mode): device code calls keel_decide"
        $KC --keel-instrument=$mode -O1 -fopenmp -S -emit-llvm $inc "$f" -o "$b.$mode.host.ll" \
            2>err.txt || bad "$b ($mode): host compile failed: $(head -3 err.txt)"
        [ -s err.txt ] && bad "$b ($mode): host compile printed: $(head -3 err.txt)"
        grep -q 'call.*@keel_decide' "$b.$mode.host.ll" || bad "$b ($mode): host code never decides"
        n=$((n + 1))
    done
done
[ $n -eq 30 ] || bad "expected 30 compiles pairs, did $n"

# ---- 3. host-only offload build decides and logs --------------------------
cat >main.c <<'EOF'
#include <stdio.h>
void regions(int n, float *a, float *b);
int main(void)
{
    static float a[1000], b[1000];
    regions(1000, a, b);
    printf("%g %g\n", a[10], b[10]);
    return 0;
}
EOF
$KC --keel-instrument=offload -O1 -fopenmp regions.c main.c -o prog 2>err.txt \
    || bad "offload host build failed: $(head -3 err.txt)"
KEEL_DB="$tmp/k.db" KEEL_VERBOSE=2 KEEL_DEVICE=h100 ./prog >out.txt 2>log.txt \
    || bad "offload host build: program failed"
[ "$(cat out.txt)" = "-2 1001" ] || bad "offload host build: output $(cat out.txt)"
nv=$(grep -c '^keel: regions.c:' log.txt)
[ "$nv" -ge 5 ] || bad "offload host build: $nv verdicts logged, want >= 5: $(cat log.txt)"

# ---- 4. the mapping's fastest thread index drives strides and work items --
for c in "" "collapse(2) "; do
    cat >map.c <<EOF
void add(float *C, const float *A)
{
#pragma omp target teams distribute parallel for ${c}map(tofrom: C[:1024*1024]) map(to: A[:1024*1024])
    for (int i = 0; i < 1024; i++)
        for (int j = 0; j < 1024; j++)
            C[i * 1024 + j] += A[i * 1024 + j];
}
EOF
    rm -f m.db
    $KEELCC --keel-db="$tmp/m.db" --keel-mca=off -O1 -fopenmp -c map.c -o map.o 2>err.txt || bad "map.c ($c): compile"
    "$KEEL" explain map.c:4 m.db >ex.txt 2>&1 || bad "map.c ($c): explain: $(head -3 ex.txt)"
    "$KEEL" show map.c:5 m.db >sh.txt 2>&1 || bad "map.c ($c): show"
    if [ -z "$c" ]; then
        grep -q 'R C\[1024\*i + j\] .*stride 1024  -> strided(1024)' ex.txt || bad "no collapse: stride along i: $(grep 'C\[' ex.txt)"
        grep -q 'GPU work items         1024$' ex.txt || bad "no collapse: work items: $(grep 'work items' ex.txt)"
        grep -q '^gpu map     seq:' sh.txt || bad "no collapse: j is seq: $(grep gpu sh.txt)"
        grep -q '6:13 R C\[1024\*i + j\]  stride 1024  strided(1024)  (thread loop line 4)' sh.txt \
            || bad "no collapse: IPDA stride: $(grep 'R C' sh.txt)"
    else
        grep -q 'R C\[1024\*i + j\] .*stride 1  -> coalesced' ex.txt || bad "collapse(2): stride along j: $(grep 'C\[' ex.txt)"
        grep -q 'GPU work items         1048576$' ex.txt || bad "collapse(2): work items: $(grep 'work items' ex.txt)"
        grep -q '^gpu map     grid:' sh.txt || bad "collapse(2): j is grid: $(grep gpu sh.txt)"
        grep -q '6:13 R C\[1024\*i + j\]  stride 1  coalesced  (thread loop line 5)' sh.txt \
            || bad "collapse(2): IPDA stride: $(grep 'R C' sh.txt)"
    fi
done

finish omp_device
