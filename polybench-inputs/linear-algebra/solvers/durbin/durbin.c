/*
 * durbin.c -- Levinson-Durbin recursion, written for keel from its
 * definition: solve the Yule-Walker system
 *
 *     T * y = -r
 *
 * where T is the N x N symmetric Toeplitz matrix with ones on the diagonal
 * and T[i][j] = r[|i - j| - 1] off it.  The solution is grown one order at a
 * time: with y the solution of order k, the next reflection coefficient is
 *
 *     alpha = -(r[k] + sum over i < k of r[k - i - 1] * y[i]) / beta
 *
 * (beta being the prediction error, beta := (1 - alpha^2) * beta), every
 * y[i] with i < k becomes y[i] + alpha * y[k - i - 1] (computed into z first,
 * since the update reads y in reverse order) and y[k] becomes alpha.
 */
#include <stdio.h>

#include "polybench.h"
#include "durbin.h"

/*
 * r[k] = 0.5 * (-1)^k / (k + 2)^2, so the off-diagonal elements of T satisfy
 * |T[i][j]| <= 0.5 / (|i - j| + 1)^2.  Every row then has off-diagonal sum
 * below 2 * 0.5 * (pi^2 / 6 - 1) < 0.65 < 1: T is diagonally dominant, hence
 * positive definite, and every reflection coefficient has |alpha| < 1 at
 * every dataset size; y decays only polynomially, so all of it counts.
 */
static void init_array(int n, DATA_TYPE POLYBENCH_1D(r, N, n))
{
    int i;

    for (i = 0; i < n; i++)
        r[i] = (i % 2 == 0 ? 0.5 : -0.5) / ((DATA_TYPE)(i + 2) * (i + 2));
}

static void kernel_durbin(int n, DATA_TYPE POLYBENCH_1D(r, N, n), DATA_TYPE POLYBENCH_1D(y, N, n))
{
    int i, k;
    DATA_TYPE z[N];
    DATA_TYPE alpha, beta, sum;

#pragma scop
    y[0] = -r[0];
    beta = 1.0;
    alpha = -r[0];
    for (k = 1; k < _PB_N; k++) {
        beta = (1 - alpha * alpha) * beta;
        sum = 0.0;
        for (i = 0; i < k; i++)
            sum += r[k - i - 1] * y[i];
        alpha = -(r[k] + sum) / beta;
        for (i = 0; i < k; i++)
            z[i] = y[i] + alpha * y[k - i - 1];
        for (i = 0; i < k; i++)
            y[i] = z[i];
        y[k] = alpha;
    }
#pragma endscop
}

int main(void)
{
    int n = N;
    POLYBENCH_1D_ARRAY_DECL(r, DATA_TYPE, N, n);
    POLYBENCH_1D_ARRAY_DECL(y, DATA_TYPE, N, n);

    init_array(n, POLYBENCH_ARRAY(r));

    polybench_start_instruments;
    kernel_durbin(n, POLYBENCH_ARRAY(r), POLYBENCH_ARRAY(y));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("y", POLYBENCH_ARRAY(y), n);

    POLYBENCH_FREE_ARRAY(r);
    POLYBENCH_FREE_ARRAY(y);
    return 0;
}
