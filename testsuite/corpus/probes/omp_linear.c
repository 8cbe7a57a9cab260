/*
 * omp_linear.c -- a secondary induction variable declared linear (j
 * advances by 2 per iteration: interleaving real and imaginary parts),
 * and a firstprivate scale factor.
 */
#include "probe.h"

static void interleave(long n, const double *re, const double *im, double *z)
{
    long j = 0;
#pragma omp parallel for linear(j:2)
    for (long i = 0; i < n; i++) { // V:parallel I:stream
        z[j] = re[i];
        z[j + 1] = im[i];
        j += 2;
    }
}

static void scale(long n, double *z, double f)
{
#pragma omp parallel for firstprivate(f)
    for (long i = 0; i < n; i++) // V:parallel I:stream S:z=1
        z[i] *= f;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *re = probe_alloc(n), *im = probe_alloc(n), *z = probe_alloc(2 * n);
    probe_fill(re, n, 41);
    probe_fill(im, n, 42);
    interleave(n, re, im, z);
    scale(2 * n, z, 0.75);
    printf("%.9e\n", probe_sum(z, 2 * n));
    free(re); free(im); free(z);
    return 0;
}
