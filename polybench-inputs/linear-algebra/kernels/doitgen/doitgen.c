/*
 * doitgen.c -- multiresolution analysis kernel, written for keel from its
 * definition:
 *
 *     A[r][q][p] := sum over s of A[r][q][s] * C4[s][p]
 *
 * for every r < NR, q < NQ and p < NP, with A of NR x NQ x NP and C4 of
 * NP x NP: every row A[r][q][:] is replaced by its product with C4.  The new
 * row is built in the temporary sum (length NP) and then copied back, since
 * each new element reads the whole old row.
 */
#include <stdio.h>

#include "polybench.h"
#include "doitgen.h"

static void init_array(int nr, int nq, int np,
                       DATA_TYPE POLYBENCH_3D(A, NR, NQ, NP, nr, nq, np),
                       DATA_TYPE POLYBENCH_2D(C4, NP, NP, np, np))
{
    int i, j, k;

    for (i = 0; i < nr; i++)
        for (j = 0; j < nq; j++)
            for (k = 0; k < np; k++)
                A[i][j][k] = (DATA_TYPE)((i * j + k) % np) / np;
    for (i = 0; i < np; i++)
        for (j = 0; j < np; j++)
            C4[i][j] = (DATA_TYPE)(i * (j + 1) % np) / (np * np);
}

static void kernel_doitgen(int nr, int nq, int np,
                           DATA_TYPE POLYBENCH_3D(A, NR, NQ, NP, nr, nq, np),
                           DATA_TYPE POLYBENCH_2D(C4, NP, NP, np, np),
                           DATA_TYPE POLYBENCH_1D(sum, NP, np))
{
    int r, q, p, s;

#pragma scop
    for (r = 0; r < _PB_NR; r++)
        for (q = 0; q < _PB_NQ; q++) {
            for (p = 0; p < _PB_NP; p++) {
                sum[p] = 0.0;
                for (s = 0; s < _PB_NP; s++)
                    sum[p] += A[r][q][s] * C4[s][p];
            }
            for (p = 0; p < _PB_NP; p++)
                A[r][q][p] = sum[p];
        }
#pragma endscop
}

int main(void)
{
    int nr = NR, nq = NQ, np = NP;
    POLYBENCH_3D_ARRAY_DECL(A, DATA_TYPE, NR, NQ, NP, nr, nq, np);
    POLYBENCH_2D_ARRAY_DECL(C4, DATA_TYPE, NP, NP, np, np);
    POLYBENCH_1D_ARRAY_DECL(sum, DATA_TYPE, NP, np);

    init_array(nr, nq, np, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(C4));

    polybench_start_instruments;
    kernel_doitgen(nr, nq, np, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(C4), POLYBENCH_ARRAY(sum));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("A", POLYBENCH_ARRAY(A), nr * nq * np);

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(C4);
    POLYBENCH_FREE_ARRAY(sum);
    return 0;
}
