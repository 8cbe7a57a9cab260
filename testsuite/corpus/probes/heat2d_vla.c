/*
 * heat2d_vla.c -- explicit heat step on a grid passed as a variably
 * modified 2-D array (u[i][j] subscripts), with a diffusion coefficient
 * per row.
 */
#include "probe.h"

static void heat(long n, long m, double (*un)[m], double (*u)[m], const double *k)
{
    for (long i = 1; i < n - 1; i++) // V:parallel I:- S:un=m,u=m,k=1
        for (long j = 1; j < m - 1; j++) // V:parallel I:stencil S:un=1,u=1,k=0
            un[i][j] = u[i][j] + k[i] * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1]
                                         + u[i][j + 1] - 4.0 * u[i][j]);
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 2000 : 30, m = large ? 2000 : 40;
    double *u = probe_alloc(n * m), *un = probe_alloc(n * m), *k = probe_alloc(n);
    probe_fill(u, n * m, 49);
    probe_fill(k, n, 50);
    heat(n, m, (double (*)[m])un, (double (*)[m])u, k);
    printf("%.9e\n", probe_sum(un, n * m));
    free(u); free(un); free(k);
    return 0;
}
