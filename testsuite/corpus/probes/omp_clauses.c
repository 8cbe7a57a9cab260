/*
 * omp_clauses.c -- OpenMP-annotated loops (built here without -fopenmp,
 * so the pragmas are comments to the compiler): a private temporary, a
 * sum reduction, a max reduction, and a lastprivate value.
 */
#include "probe.h"

static void kernels(long n, const double *a, double *b, double *out)
{
    double t, s = 0.0, m = 0.0, last = 0.0;
#pragma omp parallel for private(t)
    for (long i = 0; i < n; i++) { // V:parallel I:stream S:a=1,b=1
        t = a[i] * a[i];
        b[i] = t + 1.0;
    }
#pragma omp parallel for reduction(+:s)
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        s += a[i] * b[i];
#pragma omp parallel for reduction(max:m)
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        m = b[i] > m ? b[i] : m;
#pragma omp parallel for lastprivate(last)
    for (long i = 0; i < n; i++) { // V:parallel I:stream S:a=1,b=1
        last = a[i] - 0.5;
        b[i] = last * last;
    }
    out[0] = s;
    out[1] = m;
    out[2] = last;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), *b = probe_alloc(n), out[3];
    probe_fill(a, n, 40);
    kernels(n, a, b, out);
    printf("%.9e %.9e %.9e %.9e\n", out[0], out[1], out[2], probe_sum(b, n));
    free(a); free(b);
    return 0;
}
