/*
 * omp_wrong.c -- pragmas that promise more than the loop gives: a
 * `parallel for` on a running recurrence (a data race in the OpenMP
 * build; sequential in C), and a `parallel for` whose private clause
 * names a scalar that is read before it is written in an iteration.
 */
#include "probe.h"

static void running(long n, double *a, const double *b)
{
#pragma omp parallel for
    for (long i = 1; i < n; i++) // V:sequential I:stream
        a[i] = 0.5 * a[i - 1] + b[i];
}

static void carry(long n, double *y, const double *x)
{
    double c = 0.0;
#pragma omp parallel for private(c)
    for (long i = 0; i < n; i++) { // V:sequential I:stream
        y[i] = x[i] + c;
        c = 0.25 * y[i];
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), *b = probe_alloc(n), *y = probe_alloc(n);
    probe_fill(a, n, 43);
    probe_fill(b, n, 44);
    running(n, a, b);
    carry(n, y, a);
    printf("%.9e %.9e\n", probe_sum(a, n), probe_sum(y, n));
    free(a); free(b); free(y);
    return 0;
}
