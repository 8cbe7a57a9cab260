/*
 * wave.c -- a 1-D wave equation with three time levels whose pointers
 * rotate after every step (prev <- cur <- next): the time loop carries the
 * state through the rotation, the space loop is a stencil.
 */
#include "probe.h"

static double *wave(long steps, long n, double *prev, double *cur, double *next, double c2)
{
    for (long t = 0; t < steps; t++) { // V:sequential I:-
        for (long i = 1; i < n - 1; i++) // V:parallel I:stencil S:next=1,cur=1,prev=1
            next[i] = 2.0 * cur[i] - prev[i] + c2 * (cur[i - 1] - 2.0 * cur[i] + cur[i + 1]);
        double *tmp = prev;
        prev = cur;
        cur = next;
        next = tmp;
    }
    return cur;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000, steps = large ? 2 : 30;
    double *a = probe_alloc(n), *b = probe_alloc(n), *c = probe_alloc(n);
    probe_fill(a, n, 54);
    probe_fill(b, n, 54);
    double *u = wave(steps, n, a, b, c, 0.2);
    printf("%.9e\n", probe_sum(u, n));
    free(a); free(b); free(c);
    return 0;
}
