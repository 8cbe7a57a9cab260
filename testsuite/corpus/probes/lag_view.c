/*
 * lag_view.c -- a differencing filter through a view shifted by a lag
 * (b = a + lag): b[i] -= a[i] reads what the iteration lag steps earlier
 * wrote whenever lag > 0.  Only the run-time value of lag decides.
 */
#include "probe.h"

static void diff_lag(double *a, long n, long lag)
{
    double *b = a + lag;
    for (long i = 0; i < n - lag; i++) // V:unknown I:stream
        b[i] -= a[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n);
    probe_fill(a, n, 10);
    diff_lag(a, n, 3);
    printf("%.9e\n", probe_sum(a, n));
    free(a);
    return 0;
}
