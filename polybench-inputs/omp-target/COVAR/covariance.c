/*
 * covariance.c -- sample covariance matrix, OpenMP-offload version written
 * from its definition.  data holds N observations (rows) of M variables
 * (columns):
 *
 *     mean[j]    = (1/N) * sum_i data[i][j]
 *     data[i][j] := data[i][j] - mean[j]
 *     cov[a][b]  = (1/(N-1)) * sum_i data[i][a] * data[i][b]
 *
 * Three nests, each distributed over its outer index: the means over j, the
 * centring over the rows i, and the covariances over the rows a of cov.
 * Thread a writes cov[a][b] and cov[b][a] with b >= a only, so no two threads
 * write the same element.
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
            data[i][j] = (DATA_TYPE)((i * (j + 3) + 2 * j + 1) % n) / m;
}

static void kernel_covar(int m, int n, DATA_TYPE float_n, DATA_TYPE POLYBENCH_2D(data, N, M, n, m),
                         DATA_TYPE POLYBENCH_2D(cov, M, M, m, m), DATA_TYPE POLYBENCH_1D(mean, M, m))
{
    int i, j, k;

#pragma scop
#pragma omp target teams distribute parallel for map(to: data[0:N][0:M]) map(from: mean[0:M]) private(i)
    for (j = 0; j < _PB_M; j++) {
        mean[j] = 0.0;
        for (i = 0; i < _PB_N; i++)
            mean[j] += data[i][j];
        mean[j] /= float_n;
    }
#pragma omp target teams distribute parallel for map(to: mean[0:M]) map(tofrom: data[0:N][0:M]) private(j)
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_M; j++)
            data[i][j] -= mean[j];
#pragma omp target teams distribute parallel for map(to: data[0:N][0:M]) map(from: cov[0:M][0:M]) private(j, k)
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
    kernel_covar(m, n, float_n, POLYBENCH_ARRAY(data), POLYBENCH_ARRAY(cov), POLYBENCH_ARRAY(mean));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("cov", POLYBENCH_ARRAY(cov), m * m);

    POLYBENCH_FREE_ARRAY(data);
    POLYBENCH_FREE_ARRAY(cov);
    POLYBENCH_FREE_ARRAY(mean);
    return 0;
}
