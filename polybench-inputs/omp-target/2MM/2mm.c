/*
 * 2mm.c -- two chained matrix multiplications, OpenMP-offload version written
 * from its definition:
 *
 *     tmp := alpha * A * B          (NI x NJ; A is NI x NK, B is NK x NJ)
 *     D   := tmp * C + beta * D     (NI x NL; C is NJ x NL)
 *
 * Each product is its own nest, distributed over the rows i; every thread
 * computes its own row of tmp, then of D, summing over k sequentially.
 */
#include <stdio.h>

#include "polybench.h"
#include "2mm.h"

static void init_array(int ni, int nj, int nk, int nl, DATA_TYPE *alpha, DATA_TYPE *beta,
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NL, nj, nl),
                       DATA_TYPE POLYBENCH_2D(D, NI, NL, ni, nl))
{
    int i, j;

    *alpha = 1.5;
    *beta = 1.2;
    for (i = 0; i < ni; i++)
        for (j = 0; j < nk; j++)
            A[i][j] = (DATA_TYPE)((i * j + 1) % ni) / ni;
    for (i = 0; i < nk; i++)
        for (j = 0; j < nj; j++)
            B[i][j] = (DATA_TYPE)(i * (j + 1) % nj) / nj;
    for (i = 0; i < nj; i++)
        for (j = 0; j < nl; j++)
            C[i][j] = (DATA_TYPE)((i * (j + 3) + 1) % nl) / nl;
    for (i = 0; i < ni; i++)
        for (j = 0; j < nl; j++)
            D[i][j] = (DATA_TYPE)(i * (j + 2) % nk) / nk;
}

static void kernel_2mm(int ni, int nj, int nk, int nl, DATA_TYPE alpha, DATA_TYPE beta,
                       DATA_TYPE POLYBENCH_2D(tmp, NI, NJ, ni, nj),
                       DATA_TYPE POLYBENCH_2D(A, NI, NK, ni, nk),
                       DATA_TYPE POLYBENCH_2D(B, NK, NJ, nk, nj),
                       DATA_TYPE POLYBENCH_2D(C, NJ, NL, nj, nl),
                       DATA_TYPE POLYBENCH_2D(D, NI, NL, ni, nl))
{
    int i, j, k;

#pragma scop
#pragma omp target teams distribute parallel for map(to: A[0:NI][0:NK], B[0:NK][0:NJ]) map(from: tmp[0:NI][0:NJ]) private(j, k)
    for (i = 0; i < _PB_NI; i++)
        for (j = 0; j < _PB_NJ; j++) {
            tmp[i][j] = 0.0;
            for (k = 0; k < _PB_NK; k++)
                tmp[i][j] += alpha * A[i][k] * B[k][j];
        }
#pragma omp target teams distribute parallel for map(to: tmp[0:NI][0:NJ], C[0:NJ][0:NL]) map(tofrom: D[0:NI][0:NL]) private(j, k)
    for (i = 0; i < _PB_NI; i++)
        for (j = 0; j < _PB_NL; j++) {
            D[i][j] *= beta;
            for (k = 0; k < _PB_NJ; k++)
                D[i][j] += tmp[i][k] * C[k][j];
        }
#pragma endscop
}

int main(void)
{
    int ni = NI, nj = NJ, nk = NK, nl = NL;
    DATA_TYPE alpha, beta;
    POLYBENCH_2D_ARRAY_DECL(tmp, DATA_TYPE, NI, NJ, ni, nj);
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, NI, NK, ni, nk);
    POLYBENCH_2D_ARRAY_DECL(B, DATA_TYPE, NK, NJ, nk, nj);
    POLYBENCH_2D_ARRAY_DECL(C, DATA_TYPE, NJ, NL, nj, nl);
    POLYBENCH_2D_ARRAY_DECL(D, DATA_TYPE, NI, NL, ni, nl);

    init_array(ni, nj, nk, nl, &alpha, &beta, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B),
               POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(D));

    polybench_start_instruments;
    kernel_2mm(ni, nj, nk, nl, alpha, beta, POLYBENCH_ARRAY(tmp), POLYBENCH_ARRAY(A),
               POLYBENCH_ARRAY(B), POLYBENCH_ARRAY(C), POLYBENCH_ARRAY(D));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("D", POLYBENCH_ARRAY(D), ni * nl);

    POLYBENCH_FREE_ARRAY(tmp);
    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    POLYBENCH_FREE_ARRAY(C);
    POLYBENCH_FREE_ARRAY(D);
    return 0;
}
