/*
 * atax.c -- matrix transpose times matrix times vector, written for keel from
 * its definition:
 *
 *     y := A^T * (A * x)
 *
 * with A of M x N, x and y of length N and the intermediate tmp = A * x of
 * length M.  For each row i, tmp[i] is the dot product of row i with x, and
 * row i scaled by tmp[i] is then added into y.
 */
#include <stdio.h>

#include "polybench.h"
#include "atax.h"

static void init_array(int m, int n,
                       DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                       DATA_TYPE POLYBENCH_1D(x, N, n))
{
    int i, j;

    for (i = 0; i < n; i++)
        x[i] = 1.0 + (DATA_TYPE)i / n;
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++)
            A[i][j] = (DATA_TYPE)((i + 2 * j) % n) / (5 * m);
}

static void kernel_atax(int m, int n,
                        DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                        DATA_TYPE POLYBENCH_1D(x, N, n),
                        DATA_TYPE POLYBENCH_1D(y, N, n),
                        DATA_TYPE POLYBENCH_1D(tmp, M, m))
{
    int i, j;

#pragma scop
    for (i = 0; i < _PB_N; i++)
        y[i] = 0.0;
    for (i = 0; i < _PB_M; i++) {
        tmp[i] = 0.0;
        for (j = 0; j < _PB_N; j++)
            tmp[i] = tmp[i] + A[i][j] * x[j];
        for (j = 0; j < _PB_N; j++)
            y[j] = y[j] + A[i][j] * tmp[i];
    }
#pragma endscop
}

int main(void)
{
    int m = M, n = N;
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, N, m, n);
    POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(tmp, DATA_TYPE, M, m);

    init_array(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(x));

    polybench_start_instruments;
    kernel_atax(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(y),
                POLYBENCH_ARRAY(tmp));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("y", POLYBENCH_ARRAY(y), n);

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(x);
    POLYBENCH_FREE_ARRAY(y);
    POLYBENCH_FREE_ARRAY(tmp);
    return 0;
}
