/*
 * symm.c -- symmetric matrix multiply, written for keel from its definition:
 *
 *     C := alpha * A * B + beta * C
 *
 * with A of M x M symmetric, B and C of M x N.  Only the lower triangle of A
 * (A[i][k] with k <= i) is read: the element in row i, column k of the
 * symmetric matrix is A[i][k] when k <= i and A[k][i] when k > i.  Each C[i][j]
 * accumulates its dot product in temp and is then scaled and combined.
 */
#include <stdio.h>

#include "polybench.h"
#include "symm.h"

static void init_array(int m, int n, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(C, M, N, m, n),
                       DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                       DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
    int i, j;

    *alpha = 1.5;
    *beta = 1.2;
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
            C[i][j] = (DATA_TYPE)((i + j) % 100) / m;
            B[i][j] = (DATA_TYPE)((n + i - j) % 100) / m;
        }
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++)
            A[i][j] = (DATA_TYPE)((i * j + i + j) % 100) / m;
}

static void kernel_symm(int m, int n, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE POLYBENCH_2D(C, M, N, m, n),
                        DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                        DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
    int i, j, k;
    DATA_TYPE temp;

#pragma scop
    for (i = 0; i < _PB_M; i++)
        for (j = 0; j < _PB_N; j++) {
            temp = 0.0;
            for (k = 0; k < i; k++)
                temp += A[i][k] * B[k][j];
            for (k = i; k < _PB_M; k++)
                temp += A[k][i] * B[k][j];
            C[i][j] = beta * C[i][j] + alpha * temp;
        }
#pragma endscop
}

int main(void)
{
    int m = M, n = N;
    DATA_TYPE alpha, beta;
    POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, M, N, m, n);
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, M, m, m);
    POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, M, N, m, n);

    init_array(m, n, &alpha, &beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

    polybench_start_instruments;
    kernel_symm(m, n, alpha, beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("C", POLYBENCH_ARRAY(C), m * n);

    POLYBENCH_FREE_ARRAY(C);
    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    return 0;
}
