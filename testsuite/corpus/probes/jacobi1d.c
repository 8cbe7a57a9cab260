/*
 * jacobi1d.c -- time-stepped 1-D Jacobi relaxation with two buffers: the
 * time loop carries the state, each sweep is a 3-point stencil.
 */
#include "probe.h"

static void jacobi(long steps, long n, double *a, double *b)
{
    for (long t = 0; t < steps; t++) { // V:sequential I:-
        for (long i = 1; i < n - 1; i++) // V:parallel I:stencil S:b=1,a=1
            b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
        for (long i = 1; i < n - 1; i++) // V:parallel I:stencil S:a=1,b=1
            a[i] = 0.33333 * (b[i - 1] + b[i] + b[i + 1]);
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000, steps = large ? 2 : 20;
    double *a = probe_alloc(n), *b = probe_alloc(n);
    probe_fill(a, n, 47);
    jacobi(steps, n, a, b);
    printf("%.9e %.9e\n", probe_sum(a, n), probe_sum(b, n));
    free(a); free(b);
    return 0;
}
