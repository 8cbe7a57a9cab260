/*
 * restrict_ok.c -- element-wise kernels whose pointers cannot or do not
 * overlap: restrict-qualified parameters, and unqualified ones that the
 * program only ever passes distinct arrays.
 */
#include "probe.h"

static void affine(long n, double *restrict y, const double *restrict x)
{
    for (long i = 0; i < n; i++) // V:parallel I:stream S:y=1,x=1
        y[i] = 3.0 * x[i] + 1.0;
}

static void blend(long n, double *out, const double *p, const double *q)
{
    for (long i = 0; i < n; i++) // V:parallel I:stream S:out=1,p=1,q=1
        out[i] = 0.25 * p[i] + 0.75 * q[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), *b = probe_alloc(n), *c = probe_alloc(n);
    probe_fill(a, n, 9);
    affine(n, b, a);
    blend(n, c, a, b);
    printf("%.9e %.9e\n", probe_sum(b, n), probe_sum(c, n));
    free(a); free(b); free(c);
    return 0;
}
