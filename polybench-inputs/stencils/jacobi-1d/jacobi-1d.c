/*
 * jacobi-1d.c -- 1-D Jacobi relaxation, written from its definition:
 *
 *     B[i] := (A[i-1] + A[i] + A[i+1]) / 3      (0 < i < N-1)
 *     A[i] := (B[i-1] + B[i] + B[i+1]) / 3      (0 < i < N-1)
 *
 * repeated TSTEPS times.  The two end points of A and B never change.
 */
#include <stdio.h>

#include "polybench.h"
#include "jacobi-1d.h"

static void init_array(int n, DATA_TYPE POLYBENCH_1D(A, N, n), DATA_TYPE POLYBENCH_1D(B, N, n))
{
    int i;

    for (i = 0; i < n; i++) {
        A[i] = (DATA_TYPE)((i * 7 + 2) % n) / n;
        B[i] = (DATA_TYPE)((i * 3 + 5) % n) / n;
    }
}

static void kernel_jacobi_1d(int tsteps, int n, DATA_TYPE POLYBENCH_1D(A, N, n),
                             DATA_TYPE POLYBENCH_1D(B, N, n))
{
    int t, i;

#pragma scop
    for (t = 0; t < _PB_TSTEPS; t++) {
        for (i = 1; i < _PB_N - 1; i++)
            B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;
        for (i = 1; i < _PB_N - 1; i++)
            A[i] = (B[i - 1] + B[i] + B[i + 1]) / 3.0;
    }
#pragma endscop
}

int main(void)
{
    int n = N, tsteps = TSTEPS;
    POLYBENCH_1D_ARRAY_DECL(A, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(B, DATA_TYPE, N, n);

    init_array(n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));

    polybench_start_instruments;
    kernel_jacobi_1d(tsteps, n, POLYBENCH_ARRAY(A), POLYBENCH_ARRAY(B));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("A", POLYBENCH_ARRAY(A), n);

    POLYBENCH_FREE_ARRAY(A);
    POLYBENCH_FREE_ARRAY(B);
    return 0;
}
