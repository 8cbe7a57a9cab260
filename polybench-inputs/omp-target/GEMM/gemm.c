/*
 * gemm.c -- general matrix multiply, OpenMP-offload version written
 * from its definition:
 *
 *     C := alpha * A * B + beta * C
 *
 * with A of NI x NK, B of NK x NJ and C of NI x NJ.  The rows i of C are
 * distributed over the device threads; each thread scales its row by beta and
 * then adds alpha * A[i][k] * B[k][j] over k, sequentially.
 */
#include <stdio.h>

#include "polybench.h"
#include "gemm.h"

static void init_array(int ni, int nj, int nk, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj))
{
    int i, j;

    *alpha = 1.5;
    *beta = 1.2;
    for (i = 0; i < ni; i++)
        for (j = 0; j < nj; j++)
            C[i][j] = (DATA_TYPE)((i * j + 3) % ni) / ni;
    for (i = 0; i < ni; i++)
        for (j = 0; j < nk; j++)
            A[i][j] = (DATA_TYPE)(i * (j + 2) % nk) / nk;
    for (i = 0; i < nk; i++)
        for (j = 0; j < nj; j++)
            B[i][j] = (DATA_TYPE)((i + 1) * (j + 1) % nj) / nj;
}

static void kernel_gemm(int ni, int nj, int nk, DATA_TYPE alpha, DATA_TYPE beta,
                        DATA_TYPE POLYBENCH_2D(C, NI, NJ, ni, nj),
                        DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                        DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj))
{
    int i, j, k;

#pragma scop
#pragma omp target teams distribute parallel for map(to: A[0:NI][0:NK], B[0:NK][0:NJ]) map(tofrom: C[0:NI][0:NJ]) private(j, k)
    for (i = 0; i < _PB_NI; i++) {
        for (j = 0; j < _PB_NJ; j++)
            C[i][j] *= beta;
        for (k = 0; k < _PB_NK; k++)
            for (j = 0; j < _PB_NJ; j++)
                C[i][j] += alpha * A[i][k] * B[k][j];
    }
#pragma endscop
}

int main(void)
{
    int ni = NI, nj = NJ, nk = NK;
    DATA_TYPE alpha, beta;
    POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, NI, NJ, ni, nj);
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, ni, nk);
    POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NK, NJ, nk, nj);

    init_array(ni, nj, nk, &alpha, &beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A),
               POLYBENCH_ARRAY(B));

    polybench_start_instruments;
    kernel_gemm(ni, nj, nk, alpha, beta, POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(A),
                POLYBENCH_ARRAY(B));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("C", POLYBENCH_ARRAY(C), ni * nj);

    POLYBENCH_FREE_ARRAY(C);
    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    return 0;
}
