/*
 * axpy_alias.c -- y += alpha * x with x and y unrestricted.  x == y + 1
 * makes each iteration read the element the next one overwrites (an
 * anti-dependence: run out of order it reads new values); distinct
 * vectors are independent.
 */
#include "probe.h"

static void axpy(long n, double alpha, const double *x, double *y)
{
    for (long i = 0; i < n; i++) // V:unknown I:stream A:args S:x=1,y=1
        y[i] += alpha * x[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), *b = probe_alloc(n);
    probe_fill(a, n, 5);
    probe_fill(b, n, 6);
    probe_overlap_begin(large);
    axpy(n - 1, 0.5, a + 1, a);
    probe_overlap_end(large);
    axpy(n, -1.5, a, b);
    printf("%.9e %.9e\n", probe_sum(a, n), probe_sum(b, n));
    free(a); free(b);
    return 0;
}
