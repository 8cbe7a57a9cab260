/*
 * pivot_row.c -- normalising a pivot row of a row-major matrix through a
 * row pointer.  With the pivot hoisted the row update is independent;
 * dividing by row[r] inside the loop reads an element the loop itself
 * overwrites at j == r (the classic Gauss-Jordan slip).
 */
#include "probe.h"

static void normalise_hoisted(double *m, long n, long r)
{
    double *row = &m[r * n];
    double piv = row[r];
    for (long j = 0; j < n; j++) // V:parallel I:stream S:m=1
        row[j] /= piv;
}

static void normalise_inline(double *m, long n, long r)
{
    double *row = &m[r * n];
    for (long j = 0; j < n; j++) // V:sequential I:stream
        row[j] /= row[r];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 2000 : 30;
    double *m = probe_alloc(n * n), *w = probe_alloc(n * n);
    probe_fill(m, n * n, 11);
    probe_fill(w, n * n, 11);
    normalise_hoisted(m, n, n / 2);
    normalise_inline(w, n, n / 2);
    printf("%.9e %.9e\n", probe_sum(m, n * n), probe_sum(w, n * n));
    free(m); free(w);
    return 0;
}
