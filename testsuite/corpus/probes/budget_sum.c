/*
 * budget_sum.c -- loops whose bound the body changes: a sum that gives up
 * one element of its range for every large value it meets (n-- in the
 * body), and trimming trailing zeros with a while loop on the length.
 */
#include "probe.h"

static double sum_with_budget(const double *a, long n)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) { // V:sequential I:reduction
        s += a[i];
        if (a[i] > 0.9)
            n--;
    }
    return s;
}

static long trim_zeros(const double *a, long n)
{
    while (n > 0 && a[n - 1] == 0.0) // V:sequential I:-
        n--;
    return n;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n);
    probe_fill(a, n - n / 10, 14);
    printf("%.9e %ld\n", sum_with_budget(a, n), trim_zeros(a, n));
    free(a);
    return 0;
}
