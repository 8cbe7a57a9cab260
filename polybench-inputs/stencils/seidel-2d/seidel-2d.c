/*
 * seidel-2d.c -- 2-D Gauss-Seidel relaxation, written from its
 * definition: every interior point 0 < i, j < N-1 of an N x N grid becomes the
 * mean of the 3 x 3 block around it,
 *
 *     A[i][j] := (1/9) * sum_{-1 <= di, dj <= 1} A[i+di][j+dj],
 *
 * updated in place in row-major order (so the points above and to the left
 * already hold their new values), TSTEPS times.
 */
#include <stdio.h>

#include "polybench.h"
#include "seidel-2d.h"

static void init_array(int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            A[i][j] = (DATA_TYPE)((i * (j + 3) + 7) % n) / n;
}

static void kernel_seidel_2d(int tsteps, int n, DATA_TYPE POLYBENCH_2D(A, N, N, n, n))
{
    int t, i, j;

#pragma scop
    for (t = 0; t < _PB_TSTEPS; t++)
        for (i = 1; i < _PB_N - 1; i++)
            for (j = 1; j < _PB_N - 1; j++)
                A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]
                           + A[i][j - 1] + A[i][j] + A[i][j + 1]
                           + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0;
#pragma endscop
}

int main(void)
{
    int n = N, tsteps = TSTEPS;
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(A));

    polybench_start_instruments;
    kernel_seidel_2d(tsteps, n, POLYBENCH_ARRAY(A));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("A", POLYBENCH_ARRAY(A), n * n);

    POLYBENCH_FREE_ARRAY(A);
    return 0;
}
