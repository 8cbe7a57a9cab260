/*
 * syrk_lower.c -- the lower triangle of C += A A^T (triangular j bound),
 * fixed-size arrays.
 */
#include "probe.h"

#ifndef N
#define N 64
#endif
static double A[N][N], C[N][N];

static void syrk(void)
{
    for (long i = 0; i < N; i++) // V:parallel I:- S:C=64,A=0/64
        for (long j = 0; j <= i; j++) { // V:parallel I:stream S:C=1,A=0/64
            double s = 0.0;
            for (long k = 0; k < N; k++) // V:reduction I:matmul,reduction
                s += A[i][k] * A[j][k];
            C[i][j] += s;
        }
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    probe_fill(&A[0][0], (long)N * N, 63);
    probe_fill(&C[0][0], (long)N * N, 64);
    syrk();
    printf("%.9e\n", probe_sum(&C[0][0], (long)N * N));
    return 0;
}
