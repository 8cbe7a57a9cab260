/*
 * transpose.c -- out-of-place transposes: flattened (B[j*n+i] = A[i*n+j])
 * and on 2-D variably modified arrays with a scale.
 */
#include "probe.h"

static void transpose_flat(long n, double *B, const double *A)
{
    for (long i = 0; i < n; i++) // V:parallel I:- S:B=1,A=n
        for (long j = 0; j < n; j++) // V:parallel I:transpose S:B=n,A=1
            B[j * n + i] = A[i * n + j];
}

static void transpose_2d(long n, long m, double (*T)[n], double (*M)[m], double f)
{
    for (long i = 0; i < n; i++) // V:parallel I:- S:T=1,M=m
        for (long j = 0; j < m; j++) // V:parallel I:transpose S:T=n,M=1
            T[j][i] = f * M[i][j];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 2000 : 30, m = large ? 1500 : 20;
    double *A = probe_alloc(n * n), *B = probe_alloc(n * n), *T = probe_alloc(n * m);
    probe_fill(A, n * n, 65);
    transpose_flat(n, B, A);
    transpose_2d(n, m, (double (*)[n])T, (double (*)[m])A, 2.0);
    printf("%.9e %.9e\n", probe_sum(B, n * n), probe_sum(T, n * m));
    free(A); free(B); free(T);
    return 0;
}
