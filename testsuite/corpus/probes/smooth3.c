/*
 * smooth3.c -- a 3-point moving average through two pointer parameters.
 * Called in place (out == in: each point then averages its already
 * smoothed left neighbour, a recurrence) and into a second array.
 */
#include "probe.h"

static void smooth3(double *out, const double *in, long n)
{
    for (long i = 1; i < n - 1; i++) // V:unknown I:stencil A:args S:out=1,in=1
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), *b = probe_alloc(n);
    probe_fill(a, n, 2);
    probe_overlap_begin(large);
    smooth3(a, a, n);
    probe_overlap_end(large);
    smooth3(b, a, n - 1);
    printf("%.9e %.9e\n", probe_sum(a, n), probe_sum(b, n));
    free(a); free(b);
    return 0;
}
