/*
 * converge.c -- an iterative solver's outer loop: a while loop that runs
 * until the update is small (its trip count depends on the data), around
 * a damped update and the norm of the change.
 */
#include "probe.h"

static long relax(long n, double *x, const double *b, double *d, double tol, long maxit)
{
    long it = 0;
    double err = 1.0;
    while (err > tol && it < maxit) { // V:sequential I:-
        for (long i = 0; i < n; i++) // V:parallel I:stream S:d=1,b=1,x=1
            d[i] = 0.5 * (b[i] - x[i]);
        err = 0.0;
        for (long i = 0; i < n; i++) { // V:reduction I:reduction,stream
            x[i] += d[i];
            err += d[i] * d[i];
        }
        it++;
    }
    return it;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *x = probe_alloc(n), *b = probe_alloc(n), *d = probe_alloc(n);
    probe_fill(b, n, 81);
    long it = relax(n, x, b, d, 1e-12, large ? 2 : 200);
    printf("%ld %.9e\n", it, probe_sum(x, n));
    free(x); free(b); free(d);
    return 0;
}
