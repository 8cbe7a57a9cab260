/*
 * trmm.c -- triangular matrix multiply, written for keel from its definition:
 *
 *     B := alpha * A^T * B
 *
 * with A of M x M unit lower triangular (ones on the diagonal, which is not
 * read, and only A[k][i] with k > i read below it) and B of M x N.  Element
 * (i, j) of A^T * B is B[i][j] + sum over k > i of A[k][i] * B[k][j]; the
 * rows are computed in increasing i, so the rows k > i that the sum reads
 * still hold their original values when row i is overwritten.
 */
#include <stdio.h>

#include "polybench.h"
#include "trmm.h"

static void init_array(int m, int n, DATA_TYPE *alpha,
                       DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                       DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
    int i, j;

    *alpha = 1.5;
    for (i = 0; i < m; i++) {
        for (j = 0; j < i; j++)
            A[i][j] = (DATA_TYPE)((i + j) % m) / m;
        A[i][i] = 1.0;
        for (j = i + 1; j < m; j++)
            A[i][j] = 0.0;
        for (j = 0; j < n; j++)
            B[i][j] = (DATA_TYPE)((n + (i - j)) % n) / n;
    }
}

static void kernel_trmm(int m, int n, DATA_TYPE alpha,
                        DATA_TYPE POLYBENCH_2D(A, M, M, m, m),
                        DATA_TYPE POLYBENCH_2D(B, M, N, m, n))
{
    int i, j, k;

#pragma scop
    for (i = 0; i < _PB_M; i++)
        for (j = 0; j < _PB_N; j++) {
            for (k = i + 1; k < _PB_M; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
#pragma endscop
}

int main(void)
{
    int m = M, n = N;
    DATA_TYPE alpha;
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, M, m, m);
    POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, M, N, m, n);

    init_array(m, n, &alpha, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

    polybench_start_instruments;
    kernel_trmm(m, n, alpha, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("B", POLYBENCH_ARRAY(B), m * n);

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    return 0;
}
