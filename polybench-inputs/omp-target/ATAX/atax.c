/*
 * atax.c -- y := A^T (A x), OpenMP-offload version written from its
 * definition.  A is M x N, x and y have N elements, tmp has M:
 *
 *     tmp[i] = sum_j A[i][j] * x[j]      (tmp := A x)
 *     y[j]   = sum_i A[i][j] * tmp[i]    (y := A^T tmp)
 *
 * The two products are separate nests: the first is distributed over the
 * rows i, the second over the columns j, so every thread writes only its own
 * element of tmp or y and sums it sequentially.
 */
#include <stdio.h>

#include "polybench.h"
#include "atax.h"

static void init_array(int m, int n, DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                       DATA_TYPE POLYBENCH_1D(x, N, n))
{
    int i, j;

    for (j = 0; j < n; j++)
        x[j] = 1.0 + (DATA_TYPE)j / n;
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++)
            A[i][j] = (DATA_TYPE)((i + 2 * j + 1) % n) / (5 * m);
}

static void kernel_atax(int m, int n, DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                        DATA_TYPE POLYBENCH_1D(x, N, n), DATA_TYPE POLYBENCH_1D(y, N, n),
                        DATA_TYPE POLYBENCH_1D(tmp, M, m))
{
    int i, j;

#pragma scop
#pragma omp target teams distribute parallel for map(to: A[0:M][0:N], x[0:N]) map(from: tmp[0:M]) private(j)
    for (i = 0; i < _PB_M; i++) {
        tmp[i] = 0.0;
        for (j = 0; j < _PB_N; j++)
            tmp[i] += A[i][j] * x[j];
    }
#pragma omp target teams distribute parallel for map(to: A[0:M][0:N], tmp[0:M]) map(from: y[0:N]) private(i)
    for (j = 0; j < _PB_N; j++) {
        y[j] = 0.0;
        for (i = 0; i < _PB_M; i++)
            y[j] += A[i][j] * tmp[i];
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
