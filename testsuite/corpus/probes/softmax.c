/*
 * softmax.c -- a numerically stable softmax in three passes: the
 * maximum, the sum of exponentials (stored), and the normalisation.
 */
#include "probe.h"
#include <math.h>

static void softmax(long n, const double *z, double *p)
{
    double m = z[0];
    for (long i = 1; i < n; i++) // V:reduction I:reduction
        if (z[i] > m)
            m = z[i];
    double s = 0.0;
    for (long i = 0; i < n; i++) { // V:reduction I:reduction,stream
        p[i] = exp(z[i] - m);
        s += p[i];
    }
    for (long i = 0; i < n; i++) // V:parallel I:stream S:p=1
        p[i] /= s;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *z = probe_alloc(n), *p = probe_alloc(n);
    probe_fill(z, n, 105);
    softmax(n, z, p);
    printf("%.9e\n", probe_sum(p, n));
    free(z); free(p);
    return 0;
}
