/*
 * redblack.c -- red-black Gauss-Seidel for the 2-D Poisson equation: the
 * points of one colour read only points of the other, so within a sweep
 * of one colour every row and every point is independent; the colour loop
 * carries (black reads what red wrote).
 */
#include "probe.h"

static void rb_sweep(long n, double (*u)[n], double (*f)[n], double h2)
{
    for (int colour = 0; colour < 2; colour++) // V:sequential I:-
        for (long i = 1; i < n - 1; i++) // V:parallel I:- S:u=n,f=n
            for (long j = 1 + (i + colour) % 2; j < n - 1; j += 2) // V:parallel I:stencil S:u=2,f=2
                u[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]
                                  - h2 * f[i][j]);
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 2000 : 40;
    double (*u)[n] = calloc((size_t)n, sizeof *u), (*f)[n] = calloc((size_t)n, sizeof *f);
    if (!u || !f) return 1;
    probe_fill(&f[0][0], n * n, 304);
    for (int it = 0; it < 4; it++) // V:sequential I:-
        rb_sweep(n, u, f, 1.0 / (double)((n - 1) * (n - 1)));
    printf("%.9e\n", probe_sum(&u[0][0], n * n));
    free(u); free(f);
    return 0;
}
