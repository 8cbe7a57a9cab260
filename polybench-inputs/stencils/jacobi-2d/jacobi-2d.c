/*
 * jacobi-2d.c -- 2-D Jacobi relaxation, written from its definition:
 *
 *     B[i][j] := (A[i][j] + A[i-1][j] + A[i+1][j] + A[i][j-1] + A[i][j+1]) / 5
 *     A[i][j] := (B[i][j] + B[i-1][j] + B[i+1][j] + B[i][j-1] + B[i][j+1]) / 5
 *
 * over the interior points 0 < i, j < N-1 of an N x N grid, TSTEPS times.
 * Every point of a sweep reads only the other array, so each sweep is fully
 * parallel; the boundary rows and columns keep their initial values.
 */
#include <stdio.h>

#include "polybench.h"
#include "jacobi-2d.h"

static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            A[i][j] = (DATA_TYPE)((i * (j + 2) + 3) % n) / n;
            B[i][j] = (DATA_TYPE)((i * (j + 5) + 1) % n) / n;
        }
}

static void kernel_jacobi_2d(int tsteps, int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n),
                             DATA_TYPE POLYBENCH_2D(B, N, N, n, n))
{
    int t, i, j;

#pragma scop
    for (t = 0; t < _PB_TSTEPS; t++) {
        for (i = 1; i < _PB_N - 1; i++)
            for (j = 1; j < _PB_N - 1; j++)
                B[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);
        for (i = 1; i < _PB_N - 1; i++)
            for (j = 1; j < _PB_N - 1; j++)
                A[i][j] = 0.2 * (B[i][j] + B[i - 1][j] + B[i + 1][j] + B[i][j - 1] + B[i][j + 1]);
    }
#pragma endscop
}

int main(void)
{
    int n = N, tsteps = TSTEPS;
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);
    POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

    polybench_start_instruments;
    kernel_jacobi_2d(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("A", POLYBENCH_ARRAY(A), n * n);

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    return 0;
}
