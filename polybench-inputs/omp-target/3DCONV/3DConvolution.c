/*
 * 3DConvolution.c -- 3 x 3 x 3 convolution of a volume, OpenMP-offload
 * version written from its definition:
 *
 *     B[i][j][k] = sum_{di, dj, dk in {-1, 0, 1}} c(di, dj, dk) * A[i+di][j+dj][k+dk]
 *
 * over the interior points 0 < i < NI-1, 0 < j < NJ-1, 0 < k < NK-1, with
 * the fixed weights, numbering the 27 offsets t = 9(di+1) + 3(dj+1) + (dk+1),
 *
 *     c = (t + 1) / 32, with a minus sign when t is odd.
 *
 * The planes i are distributed over the device threads; each thread computes
 * its own plane of B.  The border of B stays zero.
 */
#include <stdio.h>

#include "polybench.h"
#include "3DConvolution.h"

static void init_array(int ni, int nj, int nk, DATA_TYPE POLYBENCH_3D(A, NI, NJ, NK, ni, nj, nk))
{
    int i, j, k;

    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++)
            for (k = 0; k < nk; k++)
                A[i][j][k] = (DATA_TYPE)((i * 7 + j * 13 + k * 19 + (j * k) % 5) % 97) / 97;
}

static void kernel_3dconv(int ni, int nj, int nk,
                          DATA_TYPE POLYBENCH_3D(A, NI, NJ, NK, ni, nj, nk),
                          DATA_TYPE POLYBENCH_3D(B, NI, NJ, NK, ni, nj, nk))
{
    int i, j, k;

#pragma scop
#pragma omp target teams distribute parallel for map(to: A[0:NI][0:NJ][0:NK]) map(tofrom: B[0:NI][0:NJ][0:NK]) private(j, k)
    for (i = 1; i < _PB_NI - 1; i++)
        for (j = 1; j < _PB_NJ - 1; j++)
            for (k = 1; k < _PB_NK - 1; k++)
                B[i][j][k] = 0.03125 * A[i - 1][j - 1][k - 1]
                             - 0.0625 * A[i - 1][j - 1][k]
                             + 0.09375 * A[i - 1][j - 1][k + 1]
                             - 0.125 * A[i - 1][j][k - 1]
                             + 0.15625 * A[i - 1][j][k]
                             - 0.1875 * A[i - 1][j][k + 1]
                             + 0.21875 * A[i - 1][j + 1][k - 1]
                             - 0.25 * A[i - 1][j + 1][k]
                             + 0.28125 * A[i - 1][j + 1][k + 1]
                             - 0.3125 * A[i][j - 1][k - 1]
                             + 0.34375 * A[i][j - 1][k]
                             - 0.375 * A[i][j - 1][k + 1]
                             + 0.40625 * A[i][j][k - 1]
                             - 0.4375 * A[i][j][k]
                             + 0.46875 * A[i][j][k + 1]
                             - 0.5 * A[i][j + 1][k - 1]
                             + 0.53125 * A[i][j + 1][k]
                             - 0.5625 * A[i][j + 1][k + 1]
                             + 0.59375 * A[i + 1][j - 1][k - 1]
                             - 0.625 * A[i + 1][j - 1][k]
                             + 0.65625 * A[i + 1][j - 1][k + 1]
                             - 0.6875 * A[i + 1][j][k - 1]
                             + 0.71875 * A[i + 1][j][k]
                             - 0.75 * A[i + 1][j][k + 1]
                             + 0.78125 * A[i + 1][j + 1][k - 1]
                             - 0.8125 * A[i + 1][j + 1][k]
                             + 0.84375 * A[i + 1][j + 1][k + 1];
#pragma endscop
}

int main(void)
{
    int ni = NI, nj = NJ, nk = NK;
    POLYBENCH_3D_ARRAY_DECL(A, DATA_TYPE, NI, NJ, NK, ni, nj, nk);
    POLYBENCH_3D_ARRAY_DECL(B, DATA_TYPE, NI, NJ, NK, ni, nj, nk);

    init_array(ni, nj, nk, POLYBENCH_ARRAY(A));

    polybench_start_instruments;
    kernel_3dconv(ni, nj, nk, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("B", POLYBENCH_ARRAY(B), ni * nj * nk);

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    return 0;
}
