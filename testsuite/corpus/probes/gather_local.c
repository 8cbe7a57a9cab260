/*
 * gather_local.c -- an index held in a local: a weighted gather through
 * an index array, and a table lookup whose index is computed from the
 * data (a quantised value).
 */
#include "probe.h"

static void gather(long n, double *y, const double *x, const int *idx, const double *w)
{
    for (long i = 0; i < n; i++) { // V:parallel I:gather S:y=1,x=?,idx=1,w=1
        long j = idx[i];
        y[i] = x[j] * w[i];
    }
}

static void lookup(long n, double *y, const double *x, const double *lut)
{
    for (long i = 0; i < n; i++) { // V:parallel I:gather S:y=1,x=1,lut=?
        int q = (int)(x[i] * 255.0);
        y[i] = lut[q];
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *x = probe_alloc(n), *w = probe_alloc(n), *y = probe_alloc(n), *z = probe_alloc(n);
    double *lut = probe_alloc(256);
    int *idx = probe_alloc_int(n);
    probe_fill(x, n, 22);
    probe_fill(w, n, 23);
    probe_fill(lut, 256, 24);
    probe_fill_int(idx, n, 25, (int)n);
    gather(n, y, x, idx, w);
    lookup(n, z, x, lut);
    printf("%.9e %.9e\n", probe_sum(y, n), probe_sum(z, n));
    free(x); free(w); free(y); free(z); free(lut); free(idx);
    return 0;
}
