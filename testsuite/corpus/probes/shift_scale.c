/*
 * shift_scale.c -- y[i] = s * x[i] through two pointer parameters without
 * restrict.  main calls it once with y one element above x in the same
 * array (each iteration reads what the previous one wrote: a recurrence)
 * and once with two distinct arrays (parallel).
 */
#include "probe.h"

static void shift_scale(double *y, const double *x, long n, double s)
{
    for (long i = 0; i < n; i++) // V:unknown I:stream A:args S:y=1,x=1
        y[i] = s * x[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 20000000 : 1000;
    double *a = probe_alloc(n + 1), *b = probe_alloc(n);
    probe_fill(a, n + 1, 1);
    probe_overlap_begin(large);
    shift_scale(a + 1, a, n, 0.5);
    probe_overlap_end(large);
    shift_scale(b, a, n - 1, 2.0);
    printf("%.6e %.6e\n", probe_sum(a, n + 1), probe_sum(b, n));
    free(a); free(b);
    return 0;
}
