/*
 * lu.c -- LU decomposition without pivoting, written for keel from its
 * definition:
 *
 *     A = L * U
 *
 * with A of N x N, L unit lower triangular and U upper triangular (Doolittle
 * form).  L (below the diagonal, its unit diagonal implied) and U (on and
 * above it) overwrite A row by row:
 *
 *     L[i][j] = (A[i][j] - sum over k < j of L[i][k] * U[k][j]) / U[j][j]   (j < i)
 *     U[i][j] =  A[i][j] - sum over k < i of L[i][k] * U[k][j]              (j >= i)
 */
#include <stdio.h>

#include "polybench.h"
#include "lu.h"

/*
 * Off-diagonal elements lie in (0, 1/n] and the diagonal is at least 2, so A
 * is strictly diagonally dominant by rows and by columns: elimination without
 * pivoting never meets a zero pivot and stays stable at every dataset size.
 */
static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++)
            A[i][j] = (DATA_TYPE)((3 * i + 5 * j) % 11 + 1) / (11 * n);
        A[i][i] = 2.0 + (DATA_TYPE)(i % 3) / 3;
    }
}

static void kernel_lu(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j, k;

#pragma scop
    for (i = 0; i < _PB_N; i++) {
        for (j = 0; j < i; j++) {
            for (k = 0; k < j; k++)
                A[i][j] -= A[i][k] * A[k][j];
            A[i][j] /= A[j][j];
        }
        for (j = i; j < _PB_N; j++)
            for (k = 0; k < i; k++)
                A[i][j] -= A[i][k] * A[k][j];
    }
#pragma endscop
}

int main(void)
{
    int n = N;
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(A));

    polybench_start_instruments;
    kernel_lu(n, POLYBENCH_ARRAY(A));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("A", POLYBENCH_ARRAY(A), n * n);

    POLYBENCH_FREE_ARRAY(A);
    return 0;
}
