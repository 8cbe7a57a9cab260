/*
 * trisolv.c -- triangular solve, written for keel from its definition:
 *
 *     L * x = b
 *
 * with L of N x N lower triangular with a nonzero diagonal and x, b of
 * length N.  Forward substitution:
 *
 *     x[i] = (b[i] - sum over j < i of L[i][j] * x[j]) / L[i][i]
 *
 * The strict upper triangle of L is not read.
 */
#include <stdio.h>

#include "polybench.h"
#include "trisolv.h"

/*
 * Below the diagonal L holds values in (0, 1/n], the diagonal is at least 1
 * and the upper triangle is zero: L is diagonally dominant, so x stays of the
 * order of b at every dataset size.
 */
static void init_array(int n,
                       DATA_TYPE POLYBENCH_2D(L, N, N, n, n),
                       DATA_TYPE POLYBENCH_1D(x, N, n),
                       DATA_TYPE POLYBENCH_1D(b, N, n))
{
    int i, j;

    for (i = 0; i < n; i++) {
        x[i] = 0.0;
        b[i] = 1.0 + (DATA_TYPE)(i % 10) / 10;
        for (j = 0; j < i; j++)
            L[i][j] = (DATA_TYPE)((i - j) % 9 + 1) / (9 * n);
        L[i][i] = 1.0 + (DATA_TYPE)(i % 4) / 4;
        for (j = i + 1; j < n; j++)
            L[i][j] = 0.0;
    }
}

static void kernel_trisolv(int n,
                           DATA_TYPE POLYBENCH_2D(L, N, N, n, n),
                           DATA_TYPE POLYBENCH_1D(x, N, n),
                           DATA_TYPE POLYBENCH_1D(b, N, n))
{
    int i, j;

#pragma scop
    for (i = 0; i < _PB_N; i++) {
        x[i] = b[i];
        for (j = 0; j < i; j++)
            x[i] -= L[i][j] * x[j];
        x[i] = x[i] / L[i][i];
    }
#pragma endscop
}

int main(void)
{
    int n = N;
    POLYBENCH_2D_ARRAY_DECL(L, DATA_TYPE, N, N, n, n);
    POLYBENCH_1D_ARRAY_DECL(x, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(b, DATA_TYPE, N, n);

    init_array(n, POLYBENCH_ARRAY(L), POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(b));

    polybench_start_instruments;
    kernel_trisolv(n, POLYBENCH_ARRAY(L), POLYBENCH_ARRAY(x), POLYBENCH_ARRAY(b));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("x", POLYBENCH_ARRAY(x), n);

    POLYBENCH_FREE_ARRAY(L);
    POLYBENCH_FREE_ARRAY(x);
    POLYBENCH_FREE_ARRAY(b);
    return 0;
}
