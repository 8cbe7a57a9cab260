/*
 * lag_view.c -- a differencing filter through a view shifted by a lag
 * (b = a + lag): b[i] -= a[i] reads what the iteration lag steps earlier
 * wrote whenever 0 < lag < n - lag, i.e. whenever the ranges b and a
 * reach overlap.  Only run-time values decide; main's call overlaps.
 */
#include "probe.h"

static void diff_lag(double *a, long n, long lag)
{
    double *b = a + lag;
    for (long i = 0; i < n - lag; i++) // V:unknown I:stream A:args
        b[i] -= a[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n);
    probe_fill(a, n, 10);
    probe_overlap_begin(large);
    diff_lag(a, n, 3);
    probe_overlap_end(large);
    printf("%.9e\n", probe_sum(a, n));
    free(a);
    return 0;
}
