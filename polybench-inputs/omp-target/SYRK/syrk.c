/*
 * syrk.c -- symmetric rank-k update, OpenMP-offload version written
 * from its definition:
 *
 *     C := alpha * A * A^T + beta * C,  i.e.
 *     C[i][j] = beta * C[i][j] + alpha * sum_k A[i][k] * A[j][k]
 *
 * with A of N x M and C of N x N.  As is usual on a GPU the whole of C is
 * computed (not just one triangle).  The rows i are distributed over the
 * device threads; each thread computes its own row of C.
 */
#include <stdio.h>

#include "polybench.h"
#include "syrk.h"

static void init_array(int m, int n, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(C, N, N, n, n), DATA_TYPE POLYBENCH_2D(A, N, M, n, m))
{
    int i, j;

    *alpha = 1.5;
    *beta = 1.2;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            A[i][j] = (DATA_TYPE)((i * j + 1) % n) / n;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            C[i][j] = (DATA_TYPE)((i * j + 2) % m) / m;
}

static void kernel_syrk(int m, int n, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE POLYBENCH_2D(C, N, N, n, n), DATA_TYPE POLYBENCH_2D(A, N, M, n, m))
{
    int i, j, k;

#pragma scop
#pragma omp target teams distribute parallel for map(to: A[0:N][0:M]) map(tofrom: C[0:N][0:N]) private(j, k)
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_N; j++) {
            C[i][j] *= beta;
            for (k = 0; k < _PB_M; k++)
                C[i][j] += alpha * A[i][k] * A[j][k];
        }
#pragma endscop
}

int main(void)
{
    int m = M, n = N;
    DATA_TYPE alpha, beta;
    POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, N, N, n, n);
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, M, n, m);

    init_array(m, n, &alpha, &beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A));

    polybench_start_instruments;
    kernel_syrk(m, n, alpha, beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("C", POLYBENCH_ARRAY(C), n * n);

    POLYBENCH_FREE_ARRAY(C);
    POLYBENCH_FREE_ARRAY(A);
    return 0;
}
