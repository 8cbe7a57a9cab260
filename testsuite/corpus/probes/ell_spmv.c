/*
 * ell_spmv.c -- ELLPACK: a fixed number of slots per row stored column
 * by column (slot k of row i at k*n + i), padded slots with column -1.
 */
#include "probe.h"

static void ell(long n, long w, const int *col, const double *val, const double *x, double *y)
{
    for (long i = 0; i < n; i++) { // V:parallel I:stream S:y=1,col=1,val=1
        double s = 0.0;
        for (long k = 0; k < w; k++) { // V:reduction I:gather,reduction
            int c = col[k * n + i];
            if (c >= 0)
                s += val[k * n + i] * x[c];
        }
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 1000000 : 100, w = 6;
    int *col = probe_alloc_int(n * w);
    double *val = probe_alloc(n * w), *x = probe_alloc(n), *y = probe_alloc(n);
    probe_fill_int(col, n * w, 76, (int)n);
    for (long i = 0; i < n * w; i += 7) // V:parallel I:stream
        col[i] = -1;
    probe_fill(val, n * w, 77);
    probe_fill(x, n, 78);
    ell(n, w, col, val, x, y);
    printf("%.9e\n", probe_sum(y, n));
    free(col); free(val); free(x); free(y);
    return 0;
}
