/*
 * correlation.c -- Pearson correlation matrix, written from its
 * definition.  data holds N observations (rows) of M variables (columns):
 *
 *     mean[j]   = (1/N) * sum_i data[i][j]
 *     stddev[j] = sqrt((1/N) * sum_i (data[i][j] - mean[j])^2)
 *                 (taken as 1 when it is not above eps = 0.1, so that a
 *                  near-constant variable does not divide by ~0)
 *     data[i][j] := (data[i][j] - mean[j]) / (sqrt(N) * stddev[j])
 *     corr[a][b] = sum_i data[i][a] * data[i][b]
 *
 * corr is symmetric with a unit diagonal, so only a < b is summed and then
 * mirrored.  float_n is N as a floating-point number.
 */
#include <math.h>
#include <stdio.h>

#include "polybench.h"
#include "correlation.h"

static void init_array(int m, int n, DATA_TYPE *float_n,
                       DATA_TYPE POLYBENCH_2D(data, N, M, n, m))
{
    int i, j;

    *float_n = (DATA_TYPE)n;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            data[i][j] = (DATA_TYPE)((i * (j + 1) + 3 * j) % n) / n + (DATA_TYPE)j / m;
}

static void kernel_correlation(int m, int n, DATA_TYPE float_n,
                               DATA_TYPE POLYBENCH_2D(data, N, M, n, m),
                               DATA_TYPE POLYBENCH_2D(corr, M, M, m, m),
                               DATA_TYPE POLYBENCH_1D(mean, M, m),
                               DATA_TYPE POLYBENCH_1D(stddev, M, m))
{
    int i, j, k;
    DATA_TYPE eps = 0.1;

#pragma scop
    for (j = 0; j < _PB_M; j++) {
        mean[j] = 0.0;
        for (i = 0; i < _PB_N; i++)
            mean[j] += data[i][j];
        mean[j] /= float_n;
    }
    for (j = 0; j < _PB_M; j++) {
        stddev[j] = 0.0;
        for (i = 0; i < _PB_N; i++)
            stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
        stddev[j] = sqrt(stddev[j] / float_n);
        stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
    }
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_M; j++)
            data[i][j] = (data[i][j] - mean[j]) / (sqrt(float_n) * stddev[j]);
    for (i = 0; i < _PB_M; i++) {
        corr[i][i] = 1.0;
        for (j = i + 1; j < _PB_M; j++) {
            corr[i][j] = 0.0;
            for (k = 0; k < _PB_N; k++)
                corr[i][j] += data[k][i] * data[k][j];
            corr[j][i] = corr[i][j];
        }
    }
#pragma endscop
}

int main(void)
{
    int m = M, n = N;
    DATA_TYPE float_n;
    POLYBENCH_2D_ARRAY_DECL(data, DATA_TYPE, N, M, n, m);
    POLYBENCH_2D_ARRAY_DECL(corr, DATA_TYPE, M, M, m, m);
    POLYBENCH_1D_ARRAY_DECL(mean, DATA_TYPE, M, m);
    POLYBENCH_1D_ARRAY_DECL(stddev, DATA_TYPE, M, m);

    init_array(m, n, &float_n, POLYBENCH_ARRAY(data));

    polybench_start_instruments;
    kernel_correlation(m, n, float_n, POLYBENCH_ARRAY(data), POLYBENCH_ARRAY(corr),
                       POLYBENCH_ARRAY(mean), POLYBENCH_ARRAY(stddev));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("corr", POLYBENCH_ARRAY(corr), m * m);

    POLYBENCH_FREE_ARRAY(data);
    POLYBENCH_FREE_ARRAY(corr);
    POLYBENCH_FREE_ARRAY(mean);
    POLYBENCH_FREE_ARRAY(stddev);
    return 0;
}
