/*
 * matvec_t.c -- y = A^T x on a 2-D array (double (*A)[n]) walked row by
 * row: the row loop accumulates into the whole of y (an array
 * reduction), the column loop updates distinct elements.
 */
#include "probe.h"

static void matvec_t(long m, long n, double *y, double (*A)[n], const double *x)
{
    for (long j = 0; j < n; j++) // V:parallel I:stream S:y=1
        y[j] = 0.0;
    for (long i = 0; i < m; i++) // V:reduction I:matvec,reduction
        for (long j = 0; j < n; j++) // V:parallel I:stream S:y=1,A=1,x=0
            y[j] += A[i][j] * x[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long m = large ? 3000 : 30, n = large ? 3000 : 40;
    double *A = probe_alloc(m * n), *x = probe_alloc(m), *y = probe_alloc(n);
    probe_fill(A, m * n, 57);
    probe_fill(x, m, 58);
    matvec_t(m, n, y, (double (*)[n])A, x);
    printf("%.9e\n", probe_sum(y, n));
    free(A); free(x); free(y);
    return 0;
}
