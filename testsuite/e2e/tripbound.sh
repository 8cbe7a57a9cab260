#!/bin/sh
# tripbound.sh BIN -- inner trip counts that are not a polynomial in the
# enclosing loop variables (`k < MIN(i, m)`, `k = MAX(0, i - ub)`), through
# keelcc, the real compiler and `keel explain --set`: the front end reads
# the MIN / MAX macros' conditionals as min and max, and the runtime counts
# such a loop at its largest trip count over the enclosing loops' ranges (a
# bound, said as such); a triangular affine trip count stays an average.
# Every expected value is worked by hand in the comments.
set -u
BIN=$(cd "$1" && pwd) || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-tripbound.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"

cat > t.c <<'EOF'
#include <stdio.h>
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
double a[128], b[128];

void tri(int n, int m)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int k = 0; k < MIN(i, m); k++)
            a[i] += b[k];
}

void band(int n, int ub)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int k = MAX(0, i - ub); k < n; k++)
            a[i] += b[k];
}

void lower(int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int k = i + 1; k < n; k++)
            a[i] += b[k];
}

void other(int n, int c)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int k = 0; k < (c ? i : n); k++)
            a[i] += b[k];
}

void stride2(int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int k = i; k < n; k += 2)
            a[i] += b[k];
}

int main(void)
{
    for (int i = 0; i < 128; i++)
        b[i] = i;
    tri(100, 40);
    band(100, 10);
    lower(101);
    other(10, 1);
    stride2(101);
    double t = 0;
    for (int i = 0; i < 128; i++)
        t += a[i];
    printf("%.0f\n", t);
    return 0;
}
EOF

clang-19 -O2 -fopenmp t.c -o plain 2>/dev/null || cc -O2 t.c -o plain || bad "plain build"
"$BIN/keelcc" --keel-db="$work/t.db" --keel-quiet -O2 -fopenmp t.c -o t || bad "keelcc t.c"
expect_eq "$(OMP_NUM_THREADS=2 KEEL_DB="$work/t.db" ./t 2>/dev/null)" "$(./plain)" "same output as the plain build"

"$BIN/keel" loops --json "$work/t.db" > loops.json || bad "keel loops"
trip() { python3 -c '
import json, sys
for l in json.load(open("loops.json")):
    if l["line"] == int(sys.argv[1]):
        print(l["trip"])' "$1"; }
expect_eq "$(trip 10)" "min(i, m)" "MIN(i, m) is min"
expect_eq "$(trip 18)" "n - max(i - ub, 0)" "MAX(0, i - ub) is max"
expect_eq "$(trip 34)" '?"c ? i : n"' "another conditional stays unknown"

# launch facts: (trip_bounds, flops, parallel iterations); one flop a
# statement, flops = parallel iterations x inner trip count
facts() {
    "$BIN/keel" explain "t.c:$1" --set "$2" --json "$work/t.db" | python3 -c '
import json, sys
l = json.load(sys.stdin)["launch"]
print("%d %.0f %.0f" % (l["trip_bounds"], l["flops"], l["parallel_iterations"]))'
}
# tri, n = 100, m = 40: i in [0, 99], min(i, 40) at most min(99, 40) = 40;
# 100 x 40 = 4000 (the exact count is 0+1+...+39 + 60 x 40 = 3180)
expect_eq "$(facts 9 n=100,m=40)" "1 4000 100" "MIN bound"
# m = 500: min(i, 500) at most 99: 9900 (exact 4950)
expect_eq "$(facts 9 n=100,m=500)" "1 9900 100" "MIN bound, the other operand"
# band, n = 100, ub = 10: i - 10 in [-10, 89], max(., 0) in [0, 89],
# 100 - that in [11, 100]: 100 x 100 = 10000 (exact 9055)
expect_eq "$(facts 17 n=100,ub=10)" "1 10000 100" "MAX bound"
# lower, n = 101: affine, i at the middle of [0, 100] = 50, trip
# 101 - 51 = 50, 101 x 50 = 5050, the exact count: not a bound
expect_eq "$(facts 25 n=101)" "0 5050 101" "triangular: the average, exact"

# stride2, n = 101: div(-i + n + 1, 2) is a rounded polynomial: averaged,
# i = 50 gives div(52, 2) = 26, 101 x 26 = 2626 (exact 2601), not a bound
expect_eq "$(trip 42)" "div(-i + n + 1, 2)" "a step of 2"
expect_eq "$(facts 41 n=101)" "0 2626 101" "a step of 2: the average"

"$BIN/keel" explain t.c:9 --set n=100,m=40 "$work/t.db" > ex.txt 2>&1 || bad "explain tri: $(cat ex.txt)"
grep -q '^    10:9  k  trip min(i, m) (at most its largest value over the enclosing loops)  ' ex.txt \
    || bad "explain names the bounded loop: $(grep '10:9' ex.txt)"
grep -q '^  trip counts            1 loop counted at its largest trip count over the enclosing loops.* (a bound, not an exact count' ex.txt \
    || bad "explain says the count is a bound: $(grep 'trip counts' ex.txt)"
"$BIN/keel" explain t.c:25 --set n=101 "$work/t.db" > ex2.txt 2>&1 || bad "explain lower"
grep -q 'trip counts' ex2.txt && bad "an exact count is not called a bound"
"$BIN/keel" explain t.c:17 --sweep '*=16:4096' "$work/t.db" > sw.txt 2>&1 || bad "sweep band: $(cat sw.txt)"
grep -q '^crossover ' sw.txt || bad "the band loop gets an answer: $(cat sw.txt)"

finish tripbound
