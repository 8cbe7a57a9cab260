/*
 * fmax_norms.c -- maximum norms as numerical codes check convergence:
 * the largest difference of two vectors through fmax, a row-wise maximum
 * into an array element, and a float minimum through fminf.
 */
#include "probe.h"
#include <math.h>

static double max_diff(long n, const double *a, const double *b)
{
    double m = 0.0;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        m = fmax(m, fabs(a[i] - b[i]));
    return m;
}

static void row_max(long n, long m, const double *A, double *rmax)
{
    for (long i = 0; i < n; i++) { // V:parallel I:stream
        rmax[i] = 0.0;
        for (long j = 0; j < m; j++) // V:reduction I:reduction
            rmax[i] = fmax(rmax[i], fabs(A[i * m + j]));
    }
}

static float min_float(long n, const float *x)
{
    float lo = x[0];
    for (long i = 1; i < n; i++) // V:reduction I:reduction
        lo = fminf(lo, x[i]);
    return lo;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000, r = large ? 2000 : 30;
    double *a = probe_alloc(n), *b = probe_alloc(n), *rm = probe_alloc(r);
    float *x = malloc((size_t)n * sizeof *x);
    if (!x) return 1;
    probe_fill(a, n, 308);
    probe_fill(b, n, 309);
    for (long i = 0; i < n; i++) // V:parallel I:stream
        x[i] = (float)(a[i] - 0.5 * b[i]);
    row_max(r, n / r, a, rm);
    printf("%.9e %.9e %.6e\n", max_diff(n, a, b), probe_sum(rm, r), (double)min_float(n, x));
    free(a); free(b); free(rm); free(x);
    return 0;
}
