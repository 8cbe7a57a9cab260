/*
 * correlation.c -- Pearson correlation matrix, OpenMP-offload version written
 * from its definition.  data holds N observations (rows) of M
 * variables (columns):
 *
 *     mean[j]   = (1/N) * sum_i data[i][j]
 *     stddev[j] = sqrt((1/N) * sum_i (data[i][j] - mean[j])^2)
 *                 (taken as 1 when it is not above eps = 0.1)
 *     data[i][j] := (data[i][j] - mean[j]) / (sqrt(N) * stddev[j])
 *     corr[a][b] = sum_i data[i][a] * data[i][b]
 *
 * Four nests, each distributed over its outer index: the column statistics
 * over j, the normalisation over the rows i, and the correlations over the
 * rows a of corr.  Thread a writes corr[a][a], corr[a][b] and corr[b][a] with
 * b > a only, so no two threads write the same element.
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
            data[i][j] = (DATA_TYPE)((i * (j + 2) + 5 * j) % n) / n + (DATA_TYPE)(j % 3) / 4;
}

static void kernel_corr(int m, int n, DATA_TYPE float_n, DATA_TYPE POLYBENCH_2D(data, N, M, n, m),
                        DATA_TYPE POLYBENCH_2D(corr, M, M, m, m),
                        DATA_TYPE POLYBENCH_1D(mean, M, m), DATA_TYPE POLYBENCH_1D(stddev, M, m))
{
    int i, j, k;
    DATA_TYPE eps = 0.1;

#pragma scop
#pragma omp target teams distribute parallel for map(to: data[0:N][0:M]) map(from: mean[0:M]) private(i)
    for (j = 0; j < _PB_M; j++) {
        mean[j] = 0.0;
        for (i = 0; i < _PB_N; i++)
            mean[j] += data[i][j];
        mean[j] /= float_n;
    }
#pragma omp target teams distribute parallel for map(to: data[0:N][0:M], mean[0:M]) map(from: stddev[0:M]) private(i)
    for (j = 0; j < _PB_M; j++) {
        stddev[j] = 0.0;
        for (i = 0; i < _PB_N; i++)
            stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
        stddev[j] = sqrt(stddev[j] / float_n);
        stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
    }
#pragma omp target teams distribute parallel for map(to: mean[0:M], stddev[0:M]) map(tofrom: data[0:N][0:M]) private(j)
    for (i = 0; i < _PB_N; i++)
        for (j = 0; j < _PB_M; j++)
            data[i][j] = (data[i][j] - mean[j]) / (sqrt(float_n) * stddev[j]);
#pragma omp target teams distribute parallel for map(to: data[0:N][0:M]) map(from: corr[0:M][0:M]) private(j, k)
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
    kernel_corr(m, n, float_n, POLYBENCH_ARRAY(data), POLYBENCH_ARRAY(corr), POLYBENCH_ARRAY(mean),
                POLYBENCH_ARRAY(stddev));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("corr", POLYBENCH_ARRAY(corr), m * m);

    POLYBENCH_FREE_ARRAY(data);
    POLYBENCH_FREE_ARRAY(corr);
    POLYBENCH_FREE_ARRAY(mean);
    POLYBENCH_FREE_ARRAY(stddev);
    return 0;
}
