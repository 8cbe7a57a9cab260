/*
 * covariance.c -- sample covariance matrix, written from its
 * definition.  data holds N observations (rows) of M variables (columns):
 *
 *     mean[j]    = (1/N) * sum_i data[i][j]
 *     data[i][j] := data[i][j] - mean[j]
 *     cov[a][b]  = (1/(N-1)) * sum_i data[i][a] * data[i][b]
 *
 * cov is symmetric, so only a <= b is summed and then mirrored.  float_n is
 * N as a floating-point number.
 */
#include <stdio.h>

#include "polybench.h"
#include "covariance.h"

static void init_array(int m, int n, DATA_TYPE *float_n,
                       DATA_TYPE POLYBENCH_2D(data, N, M, n, m))
{
    int i, j;

    *float_n = (DATA_TYPE)n;
    for (i = 0; i < n; i++)
        for (j = 0; j < m; j++)
            data[i][j] = (DATA_TYPE)((i * (j + 2) + j) % m) / m;
}

static void kernel_covariance(int m, int n, DATA_TYPE float_n,
                              DATA_TYPE POLYBENCH_2D(data, N, M, n, m),
                              DATA_TYPE POLYBENCH_2D(cov, M, M, m, m),
                              DATA_TYPE POLYBENCH_1D(mean, M, m))
{
    int i, j, k;

#pragma scop
    for (j = 0; j < _PB_M; j++) {
        mean[j] = 0.0;
        for (i = 0; i < _PB_N; i++)
            mean[j] += data[i][j];
        mean[j] /= float_n;
    }
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_M; j++)
            data[i][j] -= mean[j];
    for (i = 0; i < _PB_M; i++)
        for (j = i; j < _PB_M; j++) {
            cov[i][j] = 0.0;
            for (k = 0; k < _PB_N; k++)
                cov[i][j] += data[k][i] * data[k][j];
            cov[i][j] /= float_n - 1.0;
            cov[j][i] = cov[i][j];
        }
#pragma endscop
}

int main(void)
{
    int m = M, n = N;
    DATA_TYPE float_n;
    POLYBENCH_2D_ARRAY_DECL(data, DATA_TYPE, N, M, n, m);
    POLYBENCH_2D_ARRAY_DECL(cov, DATA_TYPE, M, M, m, m);
    POLYBENCH_1D_ARRAY_DECL(mean, DATA_TYPE, M, m);

    init_array(m, n, &float_n, POLYBENCH_ARRAY(data));

    polybench_start_instruments;
    kernel_covariance(m, n, float_n, POLYBENCH_ARRAY(data), POLYBENCH_ARRAY(cov),
                      POLYBENCH_ARRAY(mean));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("cov", POLYBENCH_ARRAY(cov), m * m);

    POLYBENCH_FREE_ARRAY(data);
    POLYBENCH_FREE_ARRAY(cov);
    POLYBENCH_FREE_ARRAY(mean);
    return 0;
}
