/*
 * tern_array.c -- ?: selecting into array elements: an element-wise
 * clamp (independent), the minimum of a column kept in one element of an
 * array (a min fold into a[0]), and a dynamic-programming row where each
 * element takes the better of itself and its left neighbour plus a gain.
 */
#include "probe.h"

static void clamp(long n, double *x, double lo, double hi)
{
    for (long i = 0; i < n; i++) // V:parallel I:stream S:x=1
        x[i] = x[i] < lo ? lo : x[i] > hi ? hi : x[i];
}

static void min_into(long n, const double *w, double *best)
{
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        best[0] = best[0] < w[i] ? best[0] : w[i];
}

static void dp_row(long n, double *row, const double *gain)
{
    for (long j = 1; j < n; j++) // V:sequential I:stream
        row[j] = row[j] > row[j - 1] + gain[j] ? row[j] : row[j - 1] + gain[j];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *x = probe_alloc(n), *g = probe_alloc(n), best[2] = { 9.0, 0.0 };
    probe_fill(x, n, 38);
    probe_fill(g, n, 39);
    for (long i = 0; i < n; i++) // V:parallel I:stream
        g[i] -= 0.5;
    clamp(n, x, 0.1, 0.9);
    min_into(n, g, best);
    dp_row(n, x, g);
    printf("%.9e %.9e\n", probe_sum(x, n), best[0]);
    free(x); free(g);
    return 0;
}
