/*
 * matvec_flat.c -- y = A x with A row-major and flattened subscripts
 * (A[i*n + j]); the dot product per row goes through a scalar.
 */
#include "probe.h"

static void matvec(long m, long n, double *y, const double *A, const double *x)
{
    for (long i = 0; i < m; i++) { // V:parallel I:stream S:y=1,A=n,x=0
        double s = 0.0;
        for (long j = 0; j < n; j++) // V:reduction I:matvec,reduction
            s += A[i * n + j] * x[j];
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long m = large ? 3000 : 30, n = large ? 3000 : 40;
    double *A = probe_alloc(m * n), *x = probe_alloc(n), *y = probe_alloc(m);
    probe_fill(A, m * n, 55);
    probe_fill(x, n, 56);
    matvec(m, n, y, A, x);
    printf("%.9e\n", probe_sum(y, m));
    free(A); free(x); free(y);
    return 0;
}
