/*
 * tridiag_batch.c -- many independent tridiagonal systems (one per grid
 * line, as in an ADI step), each solved by the Thomas algorithm: the
 * forward sweep and the back substitution carry their recurrences, the
 * loop over systems is independent.
 */
#include "probe.h"

static void thomas_batch(long ns, long n, const double *restrict a, const double *restrict b,
                         const double *restrict c, const double *restrict d,
                         double *restrict cp, double *restrict x)
{
    for (long s = 0; s < ns; s++) { // V:parallel I:stream S:a=n,b=n,c=n,d=n,cp=n,x=n
        cp[s * n] = c[s * n] / b[s * n];
        x[s * n] = d[s * n] / b[s * n];
        for (long i = 1; i < n; i++) { // V:sequential I:stream
            double m = b[s * n + i] - a[s * n + i] * cp[s * n + i - 1];
            cp[s * n + i] = c[s * n + i] / m;
            x[s * n + i] = (d[s * n + i] - a[s * n + i] * x[s * n + i - 1]) / m;
        }
        for (long i = n - 2; i >= 0; i--) // V:sequential I:stream
            x[s * n + i] -= cp[s * n + i] * x[s * n + i + 1];
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long ns = large ? 20000 : 40, n = large ? 200 : 25;
    double *a = probe_alloc(ns * n), *b = probe_alloc(ns * n), *c = probe_alloc(ns * n);
    double *d = probe_alloc(ns * n), *cp = probe_alloc(ns * n), *x = probe_alloc(ns * n);
    probe_fill(a, ns * n, 312);
    probe_fill(c, ns * n, 313);
    probe_fill(d, ns * n, 314);
    for (long k = 0; k < ns * n; k++) // V:parallel I:stream
        b[k] = 4.0 + a[k] + c[k];
    thomas_batch(ns, n, a, b, c, d, cp, x);
    printf("%.9e\n", probe_sum(x, ns * n));
    free(a); free(b); free(c); free(d); free(cp); free(x);
    return 0;
}
