/*
 * matmul_ijk.c -- C = A B with 2-D subscripts on variably modified
 * arrays, i-j-k order with the dot product in a scalar.
 */
#include "probe.h"

static void matmul(long n, double (*C)[n], double (*A)[n], double (*B)[n])
{
    for (long i = 0; i < n; i++) // V:parallel I:- S:C=n,A=n,B=0
        for (long j = 0; j < n; j++) { // V:parallel I:stream S:C=1,A=0,B=1
            double acc = 0.0;
            for (long k = 0; k < n; k++) // V:reduction I:matmul,reduction
                acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 500 : 20;
    double *A = probe_alloc(n * n), *B = probe_alloc(n * n), *C = probe_alloc(n * n);
    probe_fill(A, n * n, 59);
    probe_fill(B, n * n, 60);
    matmul(n, (double (*)[n])C, (double (*)[n])A, (double (*)[n])B);
    printf("%.9e\n", probe_sum(C, n * n));
    free(A); free(B); free(C);
    return 0;
}
