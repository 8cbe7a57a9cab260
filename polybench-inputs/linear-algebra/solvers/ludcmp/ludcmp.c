/*
 * ludcmp.c -- linear solve by LU decomposition, written for keel from its
 * definition:
 *
 *     A * x = b,   A = L * U,   L * y = b,   U * x = y
 *
 * with A of N x N and b, x, y of length N.  A is first overwritten by its
 * Doolittle factors without pivoting (L unit lower triangular below the
 * diagonal, U on and above it), each element accumulated in the scalar w;
 * then forward substitution gives y and backward substitution gives x:
 *
 *     y[i] =  b[i] - sum over j < i of L[i][j] * y[j]
 *     x[i] = (y[i] - sum over j > i of U[i][j] * x[j]) / U[i][i]
 */
#include <stdio.h>

#include "polybench.h"
#include "ludcmp.h"

/*
 * Off-diagonal elements of A lie in (0, 1/n] and its diagonal is at least 2,
 * so A is strictly diagonally dominant by rows and by columns: no pivot is
 * zero and the solve is well conditioned at every dataset size.
 */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                       DATA_TYPE POLYBENCH_1D(b, N, n),
                       DATA_TYPE POLYBENCH_1D(x, N, n),
                       DATA_TYPE POLYBENCH_1D(y, N, n))
{
    int i, j;

    for (i = 0; i < n; i++) {
        b[i] = 1.0 + (DATA_TYPE)(i + 1) / n / 2;
        x[i] = 0.0;
        y[i] = 0.0;
        for (j = 0; j < n; j++)
            A[i][j] = (DATA_TYPE)((7 * i + 2 * j) % 13 + 1) / (13 * n);
        A[i][i] = 2.0 + (DATA_TYPE)(i % 4) / 4;
    }
}

static void kernel_ludcmp(int n,
                          DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                          DATA_TYPE POLYBENCH_1D(b, N, n),
                          DATA_TYPE POLYBENCH_1D(x, N, n),
                          DATA_TYPE POLYBENCH_1D(y, N, n))
{
    int i, j, k;
    DATA_TYPE w;

#pragma scop
    for (i = 0; i < _PB_N; i++) {
        for (j = 0; j < i; j++) {
            w = A[i][j];
            for (k = 0; k < j; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w / A[j][j];
        }
        for (j = i; j < _PB_N; j++) {
            w = A[i][j];
            for (k = 0; k < i; k++)
                w -= A[i][k] * A[k][j];
            A[i][j] = w;
        }
    }
    for (i = 0; i < _PB_N; i++) {
        w = b[i];
        for (j = 0; j < i; j++)
            w -= A[i][j] * y[j];
        y[i] = w;
    }
    for (i = _PB_N - 1; i >= 0; i--) {
        w = y[i];
        for (j = i + 1; j < _PB_N; j++)
            w -= A[i][j] * x[j];
        x[i] = w / A[i][i];
    }
#pragma endscop
}

int main(void)
{
    int n = N;
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);
    POLYBENCH_1D_ARRAY_DECL(b, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, N, n);

    init_array(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(b), POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(y));

    polybench_start_instruments;
    kernel_ludcmp(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(b), POLYBENCH_ARRAY(x),
                  POLYBENCH_ARRAY(y));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("A", POLYBENCH_ARRAY(A), n * n);
    POLYBENCH_CHECKSUM("x", POLYBENCH_ARRAY(x), n);

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(b);
    POLYBENCH_FREE_ARRAY(x);
    POLYBENCH_FREE_ARRAY(y);
    return 0;
}
