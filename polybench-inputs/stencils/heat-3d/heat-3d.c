/*
 * heat-3d.c -- explicit 3-D heat equation, written from its
 * definition: with the second differences
 *
 *     Dxx(A)[i][j][k] = A[i+1][j][k] - 2 A[i][j][k] + A[i-1][j][k]
 *
 * (and Dyy, Dzz likewise along j and k), every time step applies
 *
 *     B := A + 0.125 * (Dxx(A) + Dyy(A) + Dzz(A))
 *     A := B + 0.125 * (Dxx(B) + Dyy(B) + Dzz(B))
 *
 * on the interior points 0 < i, j, k < N-1 of an N x N x N grid, TSTEPS times.
 * The boundary faces keep their initial values.
 */
#include <stdio.h>

#include "polybench.h"
#include "heat-3d.h"

static void init_array(int n, DATA_TYPE POLYBENCH_3D(A, N, N, N, n, n, n),
                       DATA_TYPE POLYBENCH_3D(B, N, N, N, n, n, n))
{
    int i, j, k;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            for (k = 0; k < n; k++) {
                A[i][j][k] = (DATA_TYPE)((i + j + (n - k)) % n) * 10 / n;
                B[i][j][k] = A[i][j][k];
            }
}

static void kernel_heat_3d(int tsteps, int n, DATA_TYPE POLYBENCH_3D(A, N, N, N, n, n, n),
                           DATA_TYPE POLYBENCH_3D(B, N, N, N, n, n, n))
{
    int t, i, j, k;

#pragma scop
    for (t = 1; t <= _PB_TSTEPS; t++) {
        for (i = 1; i < _PB_N - 1; i++)
            for (j = 1; j < _PB_N - 1; j++)
                for (k = 1; k < _PB_N - 1; k++)
                    B[i][j][k] = A[i][j][k]
                                 + 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                                 + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                                 + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]);
        for (i = 1; i < _PB_N - 1; i++)
            for (j = 1; j < _PB_N - 1; j++)
                for (k = 1; k < _PB_N - 1; k++)
                    A[i][j][k] = B[i][j][k]
                                 + 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                                 + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                                 + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]);
    }
#pragma endscop
}

int main(void)
{
    int n = N, tsteps = TSTEPS;
    POLYBENCH_3D_ARRAY_DECL(A, DATA_TYPE, N, N, N, n, n, n);
    POLYBENCH_3D_ARRAY_DECL(B, DATA_TYPE, N, N, N, n, n, n);

    init_array(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

    polybench_start_instruments;
    kernel_heat_3d(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("A", POLYBENCH_ARRAY(A), n * n * n);

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    return 0;
}
