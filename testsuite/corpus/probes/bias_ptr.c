/*
 * bias_ptr.c -- a bias read through a pointer into an array.  When the
 * pointer points into the array being updated (`bias = &a[10]`), element
 * 10 changes half-way and every later iteration adds the new value (the
 * two names reach overlapping ranges: main marks the call); into another
 * array it is a plain broadcast.
 */
#include "probe.h"

static void add_bias_self(double *a, long n)
{
    double *bias = &a[10];
    for (long i = 0; i < n; i++) // V:sequential I:stream A:args
        a[i] += *bias;
}

static void add_bias_other(double *a, const double *b, long n)
{
    const double *bias = &b[10];
    for (long i = 0; i < n; i++) // V:parallel I:stream S:a=1,b=0
        a[i] += *bias;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), *b = probe_alloc(n);
    probe_fill(a, n, 3);
    probe_fill(b, n, 4);
    probe_overlap_begin(large);
    add_bias_self(a, n);
    probe_overlap_end(large);
    add_bias_other(b, a, n);
    printf("%.9e %.9e\n", probe_sum(a, n), probe_sum(b, n));
    free(a); free(b);
    return 0;
}
