/*
 * adi.c -- alternating-direction implicit (Peaceman-Rachford) solver of the
 * 2-D heat equation u_t = cx * u_xx + cy * u_yy on the unit square, written
 * from its definition.  With dt = 1/TSTEPS, h = 1/N and
 *
 *     a = cx * dt / (2 h^2),   b = cy * dt / (2 h^2),
 *
 * one time step is two half steps, each a set of independent tridiagonal
 * systems (boundary value 1 on every side):
 *
 *   1. implicit along i, one system per column j:
 *        -a v[i-1][j] + (1+2a) v[i][j] - a v[i+1][j]
 *            = b u[i][j-1] + (1-2b) u[i][j] + b u[i][j+1]
 *   2. implicit along j, one system per row i:
 *        -b u[i][j-1] + (1+2b) u[i][j] - b u[i][j+1]
 *            = a v[i-1][j] + (1-2a) v[i][j] + a v[i+1][j]
 *
 * Each system is solved by the Thomas algorithm: a forward elimination that
 * keeps x[k-1] = p[k-1] * x[k] + q[k-1], where
 *
 *     p[k] = s / (d - s p[k-1]),   q[k] = (r[k] + s q[k-1]) / (d - s p[k-1]),
 *
 * (s the off-diagonal magnitude, d the diagonal, r the right-hand side), then a
 * backward substitution x[k] = p[k] x[k+1] + q[k].  p and q hold the
 * elimination coefficients of every system of a half step.
 */
#include <stdio.h>

#include "polybench.h"
#include "adi.h"

static void init_array(int n, DATA_TYPE POLYBENCH_2D(u, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            u[i][j] = (DATA_TYPE)(i + n - j) / n;
}

static void kernel_adi(int tsteps, int n, DATA_TYPE POLYBENCH_2D(u, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(v, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(p, N, N, n, n),
                       DATA_TYPE POLYBENCH_2D(q, N, N, n, n))
{
    int t, i, j;
    DATA_TYPE dt, h, a, b;

    dt = 1.0 / (DATA_TYPE)_PB_TSTEPS;
    h = 1.0 / (DATA_TYPE)_PB_N;
    a = 1.0 * dt / (2.0 * h * h);
    b = 0.5 * dt / (2.0 * h * h);

#pragma scop
    for (t = 1; t <= _PB_TSTEPS; t++) {
        /* Half step 1: implicit along i, one system per column j. */
        for (j = 1; j < _PB_N - 1; j++) {
            v[0][j] = 1.0;
            p[0][j] = 0.0;
            q[0][j] = v[0][j];
            for (i = 1; i < _PB_N - 1; i++) {
                p[i][j] = a / (1.0 + 2.0 * a - a * p[i - 1][j]);
                q[i][j] = (b * u[i][j - 1] + (1.0 - 2.0 * b) * u[i][j] + b * u[i][j + 1]
                           + a * q[i - 1][j]) / (1.0 + 2.0 * a - a * p[i - 1][j]);
            }
            v[_PB_N - 1][j] = 1.0;
            for (i = _PB_N - 2; i >= 1; i--)
                v[i][j] = p[i][j] * v[i + 1][j] + q[i][j];
        }
        /* Half step 2: implicit along j, one system per row i. */
        for (i = 1; i < _PB_N - 1; i++) {
            u[i][0] = 1.0;
            p[i][0] = 0.0;
            q[i][0] = u[i][0];
            for (j = 1; j < _PB_N - 1; j++) {
                p[i][j] = b / (1.0 + 2.0 * b - b * p[i][j - 1]);
                q[i][j] = (a * v[i - 1][j] + (1.0 - 2.0 * a) * v[i][j] + a * v[i + 1][j]
                           + b * q[i][j - 1]) / (1.0 + 2.0 * b - b * p[i][j - 1]);
            }
            u[i][_PB_N - 1] = 1.0;
            for (j = _PB_N - 2; j >= 1; j--)
                u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
        }
    }
#pragma endscop
}

int main(void)
{
    int n = N, tsteps = TSTEPS;
    POLYBENCH_2D_ARRAY_DECL(u, DATA_TYPE, N, N, n, n);
    POLYBENCH_2D_ARRAY_DECL(v, DATA_TYPE, N, N, n, n);
    POLYBENCH_2D_ARRAY_DECL(p, DATA_TYPE, N, N, n, n);
    POLYBENCH_2D_ARRAY_DECL(q, DATA_TYPE, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(u));

    polybench_start_instruments;
    kernel_adi(tsteps, n, POLYBENCH_ARRAY(u), POLYBENCH_ARRAY(v), POLYBENCH_ARRAY(p),
               POLYBENCH_ARRAY(q));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("u", POLYBENCH_ARRAY(u), n * n);

    POLYBENCH_FREE_ARRAY(u);
    POLYBENCH_FREE_ARRAY(v);
    POLYBENCH_FREE_ARRAY(p);
    POLYBENCH_FREE_ARRAY(q);
    return 0;
}
