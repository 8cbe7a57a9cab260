/*
 * blas_inc.c -- BLAS-style strided vectors: y[i*incy] += a * x[i*incx].
 * With incy == 0 every iteration updates y[0]: the += updates commute, so
 * reduction is the answer that holds for every increment (parallel only
 * for incy != 0).  A fixed stride of 3 is independent.
 */
#include "probe.h"

static void daxpy_inc(long n, double a, const double *x, long incx, double *y, long incy)
{
    for (long i = 0; i < n; i++) // V:reduction I:stream
        y[i * incy] += a * x[i * incx];
}

static void every_third(long n, double *y, const double *x)
{
    for (long i = 0; i < n; i++) // V:parallel I:stream S:y=3,x=1
        y[3 * i] = x[i] * 0.5;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 2000000 : 500;
    double *x = probe_alloc(3 * n), *y = probe_alloc(3 * n);
    probe_fill(x, 3 * n, 104);
    daxpy_inc(n, 2.0, x, 3, y, 2);
    every_third(n, y, x);
    printf("%.9e\n", probe_sum(y, 3 * n));
    free(x); free(y);
    return 0;
}
