/*
 * periodic.c -- a 1-D diffusion step on a ring (periodic boundary): the
 * neighbours are found by wrapping the index modulo n, so the subscripts
 * are not affine, but every iteration writes its own element of the new
 * array.  Time steps swap the two buffers.
 */
#include "probe.h"

static void ring_step(long n, const double *restrict u, double *restrict v, double k)
{
    for (long i = 0; i < n; i++) // V:parallel I:stream S:v=1,u=1/?
        v[i] = u[i] + k * (u[(i + n - 1) % n] - 2.0 * u[i] + u[(i + 1) % n]);
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *u = probe_alloc(n), *v = probe_alloc(n);
    probe_fill(u, n, 316);
    for (int t = 0; t < 6; t++) { // V:sequential I:-
        ring_step(n, u, v, 0.2);
        double *s = u;
        u = v;
        v = s;
    }
    printf("%.9e\n", probe_sum(u, n));
    free(u); free(v);
    return 0;
}
