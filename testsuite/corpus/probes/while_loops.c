/*
 * while_loops.c -- while and do loops with a plain induction variable and
 * bound: a map, a reverse product, and a sum through a post-increment.
 */
#include "probe.h"

static void kernels(long n, const double *x, double *y, double *z, double *out)
{
    long i = 0;
    while (i < n) { // V:parallel I:stream S:y=1,x=1
        y[i] = 2.0 * x[i] - 1.0;
        i++;
    }
    i = n;
    do { // V:parallel I:stream
        --i;
        z[i] = x[i] * y[i];
    } while (i > 0);
    long j = 0;
    double s = 0.0;
    while (j < n) // V:reduction I:reduction
        s += z[j++];
    *out = s;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *x = probe_alloc(n), *y = probe_alloc(n), *z = probe_alloc(n), s;
    probe_fill(x, n, 18);
    kernels(n, x, y, z, &s);
    printf("%.9e %.9e\n", probe_sum(z, n), s);
    free(x); free(y); free(z);
    return 0;
}
