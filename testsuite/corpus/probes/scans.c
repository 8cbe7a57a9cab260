/*
 * scans.c -- prefix sums written the usual ways: in place over an int
 * array (c[i] += c[i-1]), and an exclusive scan through a running scalar
 * stored at every step.
 */
#include "probe.h"

static void inclusive(long n, int *c)
{
    for (long i = 1; i < n; i++) // V:sequential I:stream
        c[i] += c[i - 1];
}

static void exclusive(long n, const double *a, double *out)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) { // V:sequential I:reduction,stream
        out[i] = s;
        s += a[i];
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    int *c = probe_alloc_int(n);
    double *a = probe_alloc(n), *o = probe_alloc(n);
    probe_fill_int(c, n, 97, 10);
    probe_fill(a, n, 98);
    inclusive(n, c);
    exclusive(n, a, o);
    printf("%ld %.9e\n", probe_isum(c, n), probe_sum(o, n));
    free(c); free(a); free(o);
    return 0;
}
