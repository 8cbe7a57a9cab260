/*
 * jacobi2d_flat.c -- a 5-point Jacobi sweep on a row-major grid with
 * flattened subscripts i*n + j, then the residual (sum of squared
 * changes) over the interior.
 */
#include "probe.h"

static void sweep(long n, double *out, const double *in)
{
    for (long i = 1; i < n - 1; i++) // V:parallel I:- S:out=n,in=n
        for (long j = 1; j < n - 1; j++) // V:parallel I:stencil S:out=1,in=1
            out[i * n + j] = 0.25 * (in[(i - 1) * n + j] + in[(i + 1) * n + j]
                                     + in[i * n + j - 1] + in[i * n + j + 1]);
}

static double residual(long n, const double *a, const double *b)
{
    double r = 0.0;
    for (long i = 1; i < n - 1; i++) // V:reduction I:-
        for (long j = 1; j < n - 1; j++) { // V:reduction I:reduction
            double d = a[i * n + j] - b[i * n + j];
            r += d * d;
        }
    return r;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 2000 : 40;
    double *a = probe_alloc(n * n), *b = probe_alloc(n * n);
    probe_fill(a, n * n, 48);
    sweep(n, b, a);
    printf("%.9e %.9e\n", probe_sum(b, n * n), residual(n, a, b));
    free(a); free(b);
    return 0;
}
