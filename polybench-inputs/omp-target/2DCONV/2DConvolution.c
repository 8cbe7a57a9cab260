/*
 * 2DConvolution.c -- 3 x 3 convolution of an image, OpenMP-offload version
 * written from its definition:
 *
 *     B[i][j] = sum_{di, dj in {-1, 0, 1}} c(di, dj) * A[i+di][j+dj]
 *
 * over the interior points 0 < i < NI-1, 0 < j < NJ-1, with the fixed weights
 *
 *              dj=-1   dj=0   dj=+1
 *     di=-1    0.10   -0.25   0.30
 *     di= 0   -0.40    0.75  -0.15
 *     di=+1    0.20   -0.35   0.05
 *
 * The rows i are distributed over the device threads; each thread computes
 * its own row of B.  The border of B stays zero.
 */
#include <stdio.h>

#include "polybench.h"
#include "2DConvolution.h"

static void init_array(int ni, int nj, DATA_TYPE POLYBENCH_2D(A, NI, NJ, ni, nj))
{
    int i, j;

    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++)
            A[i][j] = (DATA_TYPE)((i * 17 + j * 29 + (i * j) % 13) % 101) / 101;
}

static void kernel_2dconv(int ni, int nj, DATA_TYPE POLYBENCH_2D(A, NI, NJ, ni, nj),
                          DATA_TYPE POLYBENCH_2D(B, NI, NJ, ni, nj))
{
    int i, j;

#pragma scop
#pragma omp target teams distribute parallel for map(to: A[0:NI][0:NJ]) map(tofrom: B[0:NI][0:NJ]) private(j)
    for (i = 1; i < _PB_NI - 1; i++)
        for (j = 1; j < _PB_NJ - 1; j++)
            B[i][j] = 0.10 * A[i - 1][j - 1] - 0.25 * A[i - 1][j] + 0.30 * A[i - 1][j + 1]
                      - 0.40 * A[i][j - 1] + 0.75 * A[i][j] - 0.15 * A[i][j + 1]
                      + 0.20 * A[i + 1][j - 1] - 0.35 * A[i + 1][j] + 0.05 * A[i + 1][j + 1];
#pragma endscop
}

int main(void)
{
    int ni = NI, nj = NJ;
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NJ, ni, nj);
    POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NI, NJ, ni, nj);

    init_array(ni, nj, POLYBENCH_ARRAY(A));

    polybench_start_instruments;
    kernel_2dconv(ni, nj, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("B", POLYBENCH_ARRAY(B), ni * nj);

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    return 0;
}
