/*
 * ptr_walk.c -- loops controlled by pointers alone: a scaled copy from
 * [p, a+n), an in-place backward difference walking down (each iteration
 * reads the element the next one overwrites), and a maximum.
 */
#include "probe.h"

static void scaled_copy(const double *a, double *b, long n)
{
    const double *p;
    double *q;
    for (p = a, q = b; p < a + n; p++, q++) // V:parallel I:stream
        *q = *p * 2.0;
}

static void back_diff(double *a, long n)
{
    for (double *p = a + n - 1; p > a; p--) // V:sequential I:stencil
        *p -= *(p - 1);
}

static double max_of(const double *a, long n)
{
    double m = a[0];
    for (const double *p = a, *e = a + n; p != e; ++p) // V:reduction I:reduction
        m = m > *p ? m : *p;
    return m;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), *b = probe_alloc(n);
    probe_fill(a, n, 20);
    scaled_copy(a, b, n);
    back_diff(b, n);
    printf("%.9e %.9e\n", probe_sum(b, n), max_of(a, n));
    free(a); free(b);
    return 0;
}
