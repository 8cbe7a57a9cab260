/*
 * math_calls.c -- libm calls in loop bodies: an element-wise activation
 * (exp, tanh), a log-likelihood sum (log), and a polar conversion
 * (sqrt, atan2) into two arrays.
 */
#include "probe.h"
#include <math.h>

static void activate(long n, double *y, const double *x)
{
    for (long i = 0; i < n; i++) // V:parallel I:stream S:y=1,x=1
        y[i] = tanh(x[i]) + exp(-x[i] * x[i]);
}

static double loglik(long n, const double *p)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        s += log(p[i] + 1e-9);
    return s;
}

static void polar(long n, const double *x, const double *y, double *r, double *th)
{
    for (long i = 0; i < n; i++) { // V:parallel I:stream S:x=1,y=1,r=1,th=1
        r[i] = sqrt(x[i] * x[i] + y[i] * y[i]);
        th[i] = atan2(y[i], x[i]);
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *x = probe_alloc(n), *y = probe_alloc(n), *r = probe_alloc(n), *th = probe_alloc(n);
    probe_fill(x, n, 82);
    activate(n, y, x);
    double ll = loglik(n, x);
    polar(n, x, y, r, th);
    printf("%.9e %.9e %.9e %.9e\n", probe_sum(y, n), ll, probe_sum(r, n), probe_sum(th, n));
    free(x); free(y); free(r); free(th);
    return 0;
}
