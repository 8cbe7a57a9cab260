/*
 * csr_spmv.c -- sparse matrix-vector products in CSR: y = A x (a gather
 * and a dot product per row) and y = A^T x (each row scatters into y
 * through the column indices: a histogram).
 */
#include "probe.h"

static void spmv(long n, const int *rp, const int *ci, const double *v, const double *x, double *y)
{
    for (long i = 0; i < n; i++) { // V:parallel I:stream S:y=1,rp=1
        double s = 0.0;
        for (int k = rp[i]; k < rp[i + 1]; k++) // V:reduction I:gather,reduction
            s += v[k] * x[ci[k]];
        y[i] = s;
    }
}

static void spmv_t(long n, const int *rp, const int *ci, const double *v, const double *x, double *y)
{
    for (long i = 0; i < n; i++) // V:reduction I:-
        for (int k = rp[i]; k < rp[i + 1]; k++) // V:reduction I:histogram
            y[ci[k]] += v[k] * x[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 1000000 : 100, per = 8, nnz = n * per;
    int *rp = probe_alloc_int(n + 1), *ci = probe_alloc_int(nnz);
    double *v = probe_alloc(nnz), *x = probe_alloc(n), *y = probe_alloc(n), *z = probe_alloc(n);
    for (long i = 0; i <= n; i++) // V:parallel I:stream
        rp[i] = (int)(i * per);
    probe_fill_int(ci, nnz, 69, (int)n);
    probe_fill(v, nnz, 70);
    probe_fill(x, n, 71);
    spmv(n, rp, ci, v, x, y);
    spmv_t(n, rp, ci, v, x, z);
    printf("%.9e %.9e\n", probe_sum(y, n), probe_sum(z, n));
    free(rp); free(ci); free(v); free(x); free(y); free(z);
    return 0;
}
