/*
 * gramschmidt.c -- QR decomposition by modified Gram-Schmidt, written for
 * keel from its definition:
 *
 *     A = Q * R
 *
 * with A of M x N (M >= N) of full column rank, Q of M x N with orthonormal
 * columns and R of N x N upper triangular.  For each column k in turn:
 *
 *     R[k][k] = || A[:][k] ||,   Q[:][k] = A[:][k] / R[k][k]
 *
 * and every later column j > k gets R[k][j] = Q[:][k] . A[:][j] and has its
 * component along Q[:][k] removed: A[:][j] -= Q[:][k] * R[k][j].  A is
 * overwritten; the strict lower triangle of R stays zero.
 */
#include <math.h>
#include <stdio.h>

#include "polybench.h"
#include "gramschmidt.h"

/*
 * A is 2 on its leading diagonal plus a perturbation whose elements lie in
 * [0, 1/n), of 2-norm below sqrt(m / n) < 2 (the sizes keep m < 2n here), so
 * its columns are independent and no column norm is zero.  R starts at zero.
 */
static void init_array(int m, int n,
                       DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                       DATA_TYPE POLYBENCH_2D(R, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(Q, M, N, m, n))
{
    int i, j;

    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++) {
            A[i][j] = (DATA_TYPE)((i * (j + 1) + 1) % m) / m / n;
            if (i == j)
                A[i][j] += 2.0;
            Q[i][j] = 0.0;
        }
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            R[i][j] = 0.0;
}

static void kernel_gramschmidt(int m, int n,
                               DATA_TYPE POLYBENCH_2D(A, M, N, m, n),
                               DATA_TYPE POLYBENCH_2D(R, N, N, n, n),
                               DATA_TYPE POLYBENCH_2D(Q, M, N, m, n))
{
    int i, j, k;
    DATA_TYPE nrm;

#pragma scop
    for (k = 0; k < _PB_N; k++) {
        nrm = 0.0;
        for (i = 0; i < _PB_M; i++)
            nrm += A[i][k] * A[i][k];
        R[k][k] = sqrt(nrm);
        for (i = 0; i < _PB_M; i++)
            Q[i][k] = A[i][k] / R[k][k];
        for (j = k + 1; j < _PB_N; j++) {
            R[k][j] = 0.0;
            for (i = 0; i < _PB_M; i++)
                R[k][j] += Q[i][k] * A[i][j];
            for (i = 0; i < _PB_M; i++)
                A[i][j] = A[i][j] - Q[i][k] * R[k][j];
        }
    }
#pragma endscop
}

int main(void)
{
    int m = M, n = N;
    POLYBENCH_2D_ARRAY_DECL(A, DATA_TYPE, M, N, m, n);
    POLYBENCH_2D_ARRAY_DECL(R, DATA_TYPE, N, N, n, n);
    POLYBENCH_2D_ARRAY_DECL(Q, DATA_TYPE, M, N, m, n);

    init_array(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(R), POLYBENCH_ARRAY(Q));

    polybench_start_instruments;
    kernel_gramschmidt(m, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(R), POLYBENCH_ARRAY(Q));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("A", POLYBENCH_ARRAY(A), m * n);
    POLYBENCH_CHECKSUM("R", POLYBENCH_ARRAY(R), n * n);
    POLYBENCH_CHECKSUM("Q", POLYBENCH_ARRAY(Q), m * n);

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(R);
    POLYBENCH_FREE_ARRAY(Q);
    return 0;
}
