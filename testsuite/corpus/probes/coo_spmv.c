/*
 * coo_spmv.c -- y += A x in coordinate form: each entry gathers x at its
 * column and accumulates into y at its row.
 */
#include "probe.h"

static void coo(long nnz, const int *r, const int *c, const double *v, const double *x, double *y)
{
    for (long e = 0; e < nnz; e++) { // V:reduction I:gather,histogram
        double t = v[e] * x[c[e]];
        y[r[e]] += t;
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 1000000 : 100, nnz = 8 * n;
    int *r = probe_alloc_int(nnz), *c = probe_alloc_int(nnz);
    double *v = probe_alloc(nnz), *x = probe_alloc(n), *y = probe_alloc(n);
    probe_fill_int(r, nnz, 72, (int)n);
    probe_fill_int(c, nnz, 73, (int)n);
    probe_fill(v, nnz, 74);
    probe_fill(x, n, 75);
    coo(nnz, r, c, v, x, y);
    printf("%.9e\n", probe_sum(y, n));
    free(r); free(c); free(v); free(x); free(y);
    return 0;
}
