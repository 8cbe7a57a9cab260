/*
 * gauss_seidel.c -- an in-place Gauss-Seidel sweep on a fixed-size grid
 * (double g[N][N]): each point uses its already updated upper and left
 * neighbours, so both loops carry a dependence.
 */
#include "probe.h"

#ifndef N
#define N 48
#endif
static double g[N][N];

static void gs_sweep(void)
{
    for (long i = 1; i < N - 1; i++) // V:sequential I:-
        for (long j = 1; j < N - 1; j++) // V:sequential I:stencil
            g[i][j] = 0.25 * (g[i - 1][j] + g[i + 1][j] + g[i][j - 1] + g[i][j + 1]);
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    probe_fill(&g[0][0], (long)N * N, 51);
    for (int s = 0; s < 3; s++) // V:sequential I:-
        gs_sweep();
    printf("%.9e\n", probe_sum(&g[0][0], (long)N * N));
    return 0;
}
