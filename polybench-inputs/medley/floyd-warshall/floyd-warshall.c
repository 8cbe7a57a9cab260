/*
 * floyd-warshall.c -- all-pairs shortest paths, written from the
 * Floyd-Warshall recurrence.  paths[i][j] starts as the weight of the edge
 * i -> j (0 on the diagonal, a large value where there is no edge); after
 * step k it is the length of the shortest path from i to j whose inner
 * vertices all lie in {0, ..., k}:
 *
 *     paths[i][j] := min(paths[i][j], paths[i][k] + paths[k][j]),
 *
 * with k running over all N vertices (outermost), i and j over all pairs.
 */
#include <stdio.h>

#include "polybench.h"
#include "floyd-warshall.h"

static void init_array(int n, DATA_TYPE POLYBENCH_2D(paths, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            paths[i][j] = (DATA_TYPE)((i * j) % 7 + 1 + (i + 2 * j) % 5);
            if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
                paths[i][j] = 999;
            if (i == j)
                paths[i][j] = 0;
        }
}

static void kernel_floyd_warshall(int n, DATA_TYPE POLYBENCH_2D(paths, N, N, n, n))
{
    int i, j, k;

#pragma scop
    for (k = 0; k < _PB_N; k++)
        for (i = 0; i < _PB_N; i++)
            for (j = 0; j < _PB_N; j++)
                paths[i][j] = paths[i][k] + paths[k][j] < paths[i][j]
                                  ? paths[i][k] + paths[k][j]
                                  : paths[i][j];
#pragma endscop
}

int main(void)
{
    int n = N;
    POLYBENCH_2D_ARRAY_DECL(paths, DATA_TYPE, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(paths));

    polybench_start_instruments;
    kernel_floyd_warshall(n, POLYBENCH_ARRAY(paths));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("paths", POLYBENCH_ARRAY(paths), n * n);

    POLYBENCH_FREE_ARRAY(paths);
    return 0;
}
