/*
 * minmax.c -- extremum folds written three ways: ?: into the
 * accumulator, an if that assigns it, and fmin/fmax from libm.
 */
#include "probe.h"
#include <math.h>

static double max_tern(long n, const double *a)
{
    double m = -1.0;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        m = a[i] > m ? a[i] : m;
    return m;
}

static double min_if(long n, const double *a)
{
    double m = 2.0;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        if (a[i] < m)
            m = a[i];
    return m;
}

static void range_libm(long n, const double *a, double *lo, double *hi)
{
    double l = INFINITY, h = -INFINITY;
    for (long i = 0; i < n; i++) { // V:reduction I:reduction
        l = fmin(l, a[i]);
        h = fmax(h, a[i]);
    }
    *lo = l;
    *hi = h;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), lo, hi;
    probe_fill(a, n, 35);
    range_libm(n, a, &lo, &hi);
    printf("%.9e %.9e %.9e %.9e\n", max_tern(n, a), min_if(n, a), lo, hi);
    free(a);
    return 0;
}
