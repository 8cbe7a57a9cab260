/*
 * blas_neg.c -- reference-BLAS style level-1 loops with run-time
 * increments, negative ones included: the index starts at (1 - n) * inc
 * when inc < 0 and is stepped by inc.  An update y[iy] += ... is a
 * reduction for every increment (inc 0 sums into one element); a
 * reversed copy through a constant step of -1 is independent.
 */
#include "probe.h"

static void daxpy_ref(long n, double a, const double *x, long incx, double *y, long incy)
{
    long ix = incx < 0 ? (1 - n) * incx : 0;
    long iy = incy < 0 ? (1 - n) * incy : 0;
    for (long i = 0; i < n; i++) { // V:reduction I:stream
        y[iy] += a * x[ix];
        ix += incx;
        iy += incy;
    }
}

static double ddot_ref(long n, const double *x, long incx, const double *y, long incy)
{
    double s = 0.0;
    long ix = incx < 0 ? (1 - n) * incx : 0;
    long iy = incy < 0 ? (1 - n) * incy : 0;
    for (long i = 0; i < n; i++) { // V:reduction I:reduction
        s += x[ix] * y[iy];
        ix += incx;
        iy += incy;
    }
    return s;
}

static void reverse_scale(long n, double s, const double *restrict x, double *restrict y)
{
    for (long i = n - 1; i >= 0; i--) // V:parallel I:stream S:y=1,x=-1
        y[n - 1 - i] = s * x[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 2000000 : 400;
    double *x = probe_alloc(2 * n), *y = probe_alloc(2 * n), *z = probe_alloc(n);
    probe_fill(x, 2 * n, 301);
    probe_fill(y, 2 * n, 302);
    daxpy_ref(n, 0.5, x, -2, y, 1);
    daxpy_ref(n, 0.25, x, 1, y, -1);
    double d = ddot_ref(n, x, 2, y, -2);
    reverse_scale(n, 3.0, x, z);
    printf("%.9e %.9e %.9e\n", probe_sum(y, 2 * n), d, probe_sum(z, n));
    free(x); free(y); free(z);
    return 0;
}
