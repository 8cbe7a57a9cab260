/*
 * mvt.c -- matrix-vector product and transposed product, written for keel
 * from its definition:
 *
 *     x1 := x1 + A * y_1
 *     x2 := x2 + A^T * y_2
 *
 * with A of N x N and x1, x2, y_1, y_2 of length N.  The two updates are
 * independent; the first walks A by rows, the second by columns.
 */
#include <stdio.h>

#include "polybench.h"
#include "mvt.h"

static void init_array(int n,
                       DATA_TYPE POLYBENCH_1D(x1, N, n), DATA_TYPE POLYBENCH_1D(x2, N, n),
                       DATA_TYPE POLYBENCH_1D(y_1, N, n), DATA_TYPE POLYBENCH_1D(y_2, N, n),
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++) {
        x1[i] = (DATA_TYPE)(i % n) / n;
        x2[i] = (DATA_TYPE)((i + 1) % n) / n;
        y_1[i] = (DATA_TYPE)((i + 3) % n) / n;
        y_2[i] = (DATA_TYPE)((i + 4) % n) / n;
        for (j = 0; j < n; j++)
            A[i][j] = (DATA_TYPE)(i * j % n) / n;
    }
}

static void kernel_mvt(int n,
                       DATA_TYPE POLYBENCH_1D(x1, N, n), DATA_TYPE POLYBENCH_1D(x2, N, n),
                       DATA_TYPE POLYBENCH_1D(y_1, N, n), DATA_TYPE POLYBENCH_1D(y_2, N, n),
                       DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j;

#pragma scop
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_N; j++)
            x1[i] = x1[i] + A[i][j] * y_1[j];
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_N; j++)
            x2[i] = x2[i] + A[j][i] * y_2[j];
#pragma endscop
}

int main(void)
{
    int n = N;
    POLYBENCH_1D_ARRAY_DECL(x1, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(x2, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(y_1, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(y_2, DATA_TYPE, N, n);
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(x1), POLYBENCH_ARRAY(x2), POLYBENCH_ARRAY(y_1),
               POLYBENCH_ARRAY(y_2), POLYBENCH_ARRAY(A));

    polybench_start_instruments;
    kernel_mvt(n, POLYBENCH_ARRAY(x1), POLYBENCH_ARRAY(x2), POLYBENCH_ARRAY(y_1),
               POLYBENCH_ARRAY(y_2), POLYBENCH_ARRAY(A));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("x1", POLYBENCH_ARRAY(x1), n);
    POLYBENCH_CHECKSUM("x2", POLYBENCH_ARRAY(x2), n);

    POLYBENCH_FREE_ARRAY(x1);
    POLYBENCH_FREE_ARRAY(x2);
    POLYBENCH_FREE_ARRAY(y_1);
    POLYBENCH_FREE_ARRAY(y_2);
    POLYBENCH_FREE_ARRAY(A);
    return 0;
}
