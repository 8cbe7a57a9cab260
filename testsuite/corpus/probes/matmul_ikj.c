/*
 * matmul_ikj.c -- C = A B flattened, i-k-j order (the cache-friendly
 * form): C is zeroed, then each A[i][k] is hoisted and its row of B
 * streamed into C's row.
 */
#include "probe.h"

static void matmul(long n, double *C, const double *A, const double *B)
{
    for (long i = 0; i < n * n; i++) // V:parallel I:stream S:C=1
        C[i] = 0.0;
    for (long i = 0; i < n; i++) // V:parallel I:- S:C=n,A=n,B=0
        for (long k = 0; k < n; k++) { // V:reduction I:matmul,reduction
            double aik = A[i * n + k];
            for (long j = 0; j < n; j++) // V:parallel I:stream S:C=1,B=1
                C[i * n + j] += aik * B[k * n + j];
        }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 500 : 20;
    double *A = probe_alloc(n * n), *B = probe_alloc(n * n), *C = probe_alloc(n * n);
    probe_fill(A, n * n, 61);
    probe_fill(B, n * n, 62);
    matmul(n, C, A, B);
    printf("%.9e\n", probe_sum(C, n * n));
    free(A); free(B); free(C);
    return 0;
}
