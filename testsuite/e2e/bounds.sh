#!/bin/sh
# bounds.sh BIN -- loop bounds held in memory, through keelcc, the real
# compiler and libkeelrt: the call before a nest passes the values its
# entry test reads (a global array's element, a member through the pointer
# the test dereferences, a struct object's member) under their C text, and
# nothing the program would not read there; a CSR row loop's trip counts
# sum exactly (rowstr[hi] - rowstr[lo]); `keel explain --sweep '*=...'`
# scales extents and keeps offsets.  Every expected value is exact.
set -u
BIN=$(cd "$1" && pwd) || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-bounds.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"

cat > b.c <<'EOF'
#include <stdio.h>
struct shape { int n, m; };
struct pts { int count; } pub;
int grid[3];
int rowptr[7];
int ist, iend;
double val[32], vec[32], out[8], g[4][5][6], w[64];

void scale(double *a, struct shape *s)
{
#pragma omp parallel for
    for (int i = 0; i < s->n; i++)          /* s->n: the test reads it */
        a[i] = 2 * a[i];
}

void inner_ptr(double *a, struct shape *s, int n)
{
    /* s->m is read only when the outer loop runs: never passed */
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j < s->m; j++)
            a[i * 4 + j] += 1;
}

void shrink(double *a, struct shape *s)
{
    /* the body writes the bound: loop control, no call */
    for (int i = 0; i < s->n; i++) {
        a[i] = 3 * a[i];
        s->n--;
    }
}

void cube(void)
{
#pragma omp parallel for
    for (int k = 0; k < grid[2]; k++)
        for (int j = 0; j < grid[1]; j++)
            for (int i = 0; i < grid[0]; i++)
                g[k][j][i] = i + j + k;
}

void points(void)
{
#pragma omp parallel for
    for (int i = 0; i < pub.count; i++)
        w[i] = i;
}

void spmv(int lo, int hi)
{
#pragma omp parallel for
    for (int r = lo; r < hi; r++) {
        double sum = 0;
        for (int k = rowptr[r]; k < rowptr[r + 1]; k++)
            sum += val[k] * vec[k];
        out[r] = sum;
    }
}

void lu_like(void)
{
#pragma omp parallel for
    for (int i = ist; i <= iend; i++)
        w[i] = 2 * w[i];
}

void through(double *a, const int *len, const int *m, int l)
{
#pragma omp parallel for
    for (int i = 0; i < *len; i++)          /* *len: the test reads it */
        a[i] += 1;
#pragma omp parallel for
    for (int i = 0; i < m[l]; i++)          /* m[l], l a parameter */
        a[i] += 2;
    for (int i = 0; i < m[l]; i++) {        /* the body writes l: no call */
        a[i] += 3;
        l = 0;
    }
}

void headwrite(double *a, struct shape *t)
{
    int i;
    struct shape *p;
    for (i = 0, p = t; i < p->n; i++)       /* p is set by the head: no call */
        a[i] += 4;
}

int main(void)
{
    static const int len[6] = { 1, 3, 0, 5, 2, 4 };
    double a[64];
    struct shape s = { 10, 3 };
    for (int i = 0; i < 64; i++)
        a[i] = i;
    rowptr[0] = 0;
    for (int r = 0; r < 6; r++)
        rowptr[r + 1] = rowptr[r] + len[r];
    for (int k = 0; k < 32; k++)
        val[k] = k, vec[k] = 1;
    grid[0] = 6, grid[1] = 5, grid[2] = 4;
    pub.count = 9;
    ist = 2, iend = 7;
    scale(a, &s);
    inner_ptr(a, &s, 3);
    inner_ptr(a, &s, 0);
    shrink(a, &s);
    cube();
    points();
    spmv(0, 6);
    spmv(2, 5);
    spmv(3, 3);
    lu_like();
    static const int dims[3] = { 4, 6, 8 };
    through(a, &dims[1], dims, 2);
    headwrite(a, &s);
    double t = 0;
    for (int i = 0; i < 64; i++)
        t += a[i] + w[i];
    for (int r = 0; r < 6; r++)
        t += out[r];
    printf("%d %.0f %.0f\n", s.n, t, g[3][4][5]);
    return 0;
}
EOF

clang-19 -O2 -fopenmp b.c -o plain 2>/dev/null || cc -O2 b.c -o plain || bad "plain build"
"$BIN/keelcc" --keel-db="$work/b.db" --keel-quiet -O2 -fopenmp b.c -o b || bad "keelcc b.c"
want=$(./plain)
expect_eq "$(OMP_NUM_THREADS=2 KEEL_DB="$work/b.db" ./b 2>/dev/null)" "$want" "same output as the plain build"
OMP_NUM_THREADS=2 KEEL_DB="$work/b.db" KEEL_VERBOSE=2 ./b 2>err.txt >/dev/null
# one line a decision: "keel: b.c:LINE FUNC [idioms] VALUES: -> ..."
vals() { grep "^keel: b.c:$1 " err.txt | sed 's/^keel: [^ ]* [^ ]* [^ ]* \(.*\): ->.*/\1/'; }
expect_eq "$(vals 12)" "s->n=10" "member through the pointer the test reads"
expect_eq "$(vals 20)" "" "a pointer read of an inner bound is not passed (no call)"
expect_eq "$(vals 28)" "" "a bound the body writes (no call)"
expect_eq "$(vals 37)" "grid[2]=4,grid[1]=5,grid[0]=6" "elements of a global array, inner ones too"
expect_eq "$(vals 46)" "pub.count=9" "member of a struct object"
# spmv(0, 6): 15 nonzeros from row 0; spmv(2, 5): rows 2..4, 7 from
# rowptr[2] = 4; spmv(3, 3): empty, nothing read (0, 0)
T='((hi) > (lo) ? rowptr[hi] - rowptr[lo] : 0)'
S='((hi) > (lo) ? rowptr[lo] : 0)'
expect_eq "$(vals 53 | sed -n 1p)" "lo=0,hi=6,$T=15,$S=0" "CSR total, first launch"
expect_eq "$(vals 53 | sed -n 2p)" "lo=2,hi=5,$T=7,$S=4" "CSR total, second launch"
expect_eq "$(vals 53 | sed -n 3p)" "lo=3,hi=3,$T=0,$S=0" "CSR total, empty launch"
expect_eq "$(vals 64)" "ist=2,iend=7" "offsets are passed as they are"
expect_eq "$(vals 71)" "*len=6" "a dereference the test reads"
expect_eq "$(vals 74)" "m[l]=8" "an element at a variable subscript the test reads"
expect_eq "$(vals 76)" "" "a subscript the body writes (no call)"
expect_eq "$(vals 86)" "" "a pointer the loop's head sets (no call)"
expect_eq "$(grep -c '^keel: b.c:' err.txt)" 9 "decisions in all"

# keel loops: the bounds' names, the row loop's mean trip count
"$BIN/keel" loops --json "$work/b.db" > loops.json || bad "keel loops"
trip() { python3 -c '
import json, sys
for l in json.load(open("loops.json")):
    if l["line"] == int(sys.argv[1]):
        print(l["trip"])' "$1"; }
expect_eq "$(trip 12)" '$"s->n"' "trip of scale"
expect_eq "$(trip 39)" '$"grid[0]"' "trip of cube's innermost loop"
expect_eq "$(trip 55)" "div(\$\"$T\", hi - lo)" "trip of the row loop"
expect_eq "$(trip 28)" 'None' "trip of a loop whose bound the body writes"

# explain --sweep '*': the extents grow, the offset ist keeps 1 (or --set):
# iend - ist + 1 = N iterations, N - 4 with ist = 5; the transfer is
# proportional to the iterations (one element read and written each)
xfer() {
    "$BIN/keel" explain b.c:64 --sweep '*=16:64' --json "$@" "$work/b.db" | python3 -c '
import json, sys
rows = json.load(sys.stdin)["sweep"]["rows"]
x = {r["n"]: r["xfer_s"] for r in rows}
print("%.6f %.6f %d" % (x[32] / x[16], x[64] / x[16], all(r["error"] is None for r in rows)))'
}
expect_eq "$(xfer)" "2.000000 4.000000 1" "sweep of * over iend - ist + 1"
expect_eq "$(xfer --set ist=5)" "2.333333 5.000000 1" "sweep of * keeps --set ist=5"
"$BIN/keel" explain b.c:53 --sweep '*=16:64' "$work/b.db" > sw.txt 2>&1 || bad "explain the row loop: $(cat sw.txt)"
grep -q '^crossover ' sw.txt || bad "the row loop gets an answer: $(cat sw.txt)"

finish bounds
