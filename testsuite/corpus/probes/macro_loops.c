/*
 * macro_loops.c -- loops written through a FOR macro, as many code bases
 * do: an element-wise map, a dot product, and an outer product.
 */
#include "probe.h"

#define FOR(i, n) for (long i = 0; i < (n); i++)
#define SQR(x) ((x) * (x))

static void map_sq(long n, double *y, const double *x)
{
    FOR(i, n) // V:parallel I:stream S:y=1,x=1
        y[i] = SQR(x[i]) + 1.0;
}

static double dot(long n, const double *x, const double *y)
{
    double s = 0.0;
    FOR(i, n) // V:reduction I:reduction
        s += x[i] * y[i];
    return s;
}

static void outer(long n, long m, double *c, const double *a, const double *b)
{
    FOR(i, n) // V:parallel I:- S:c=m,a=1,b=0
        FOR(j, m) // V:parallel I:stream S:c=1,a=0,b=1
            c[i * m + j] = a[i] * b[j];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000, r = large ? 2000 : 30;
    double *x = probe_alloc(n), *y = probe_alloc(n), *c = probe_alloc(r * r);
    probe_fill(x, n, 17);
    map_sq(n, y, x);
    double d = dot(n, x, y);
    outer(r, r, c, x, y);
    printf("%.9e %.9e %.9e\n", probe_sum(y, n), d, probe_sum(c, r * r));
    free(x); free(y); free(c);
    return 0;
}
