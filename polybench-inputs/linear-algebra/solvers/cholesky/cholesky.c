/*
 * cholesky.c -- Cholesky decomposition, written for keel from its definition:
 *
 *     A = L * L^T
 *
 * with A of N x N symmetric positive definite and L lower triangular with a
 * positive diagonal.  L overwrites the lower triangle of A row by row:
 *
 *     L[i][j] = (A[i][j] - sum over k < j of L[i][k] * L[j][k]) / L[j][j]   (j < i)
 *     L[i][i] = sqrt(A[i][i] - sum over k < i of L[i][k]^2)
 *
 * The strict upper triangle of A is not read and keeps its input values.
 */
#include <math.h>
#include <stdio.h>

#include "polybench.h"
#include "cholesky.h"

/*
 * A symmetric matrix whose off-diagonal elements lie in (0, 1/n] and whose
 * diagonal is at least 2: it is strictly diagonally dominant with a positive
 * diagonal, hence positive definite, at every dataset size.
 */
static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++)
            A[i][j] = (DATA_TYPE)((i * j + i + j) % 7 + 1) / (7 * n);
        A[i][i] = 2.0 + (DATA_TYPE)(i % 5) / 5;
    }
}

static void kernel_cholesky(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j, k;

#pragma scop
    for (i = 0; i < _PB_N; i++) {
        for (j = 0; j < i; j++) {
            for (k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[j][k];
            A[i][j] /= A[j][j];
        }
        for (k = 0; k < i; k++)
            A[i][i] -= A[i][k] * A[i][k];
        A[i][i] = sqrt(A[i][i]);
    }
#pragma endscop
}

int main(void)
{
    int n = N;
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(A));

    polybench_start_instruments;
    kernel_cholesky(n, POLYBENCH_ARRAY(A));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("A", POLYBENCH_ARRAY(A), n * n);

    POLYBENCH_FREE_ARRAY(A);
    return 0;
}
