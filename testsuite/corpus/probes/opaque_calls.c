/*
 * opaque_calls.c -- calls whose effects the loop cannot see: a helper
 * that bumps a global counter it also returns (each call sees the
 * previous one's count), rand() (hidden state), a callback through a
 * function pointer, and a pure helper defined in this file.
 */
#include "probe.h"

static long calls;

static double noisy(double x)
{
    calls++;
    return x * (double)(calls % 7);
}

static double sq(double x) { return x * x; }

static void apply_noisy(long n, double *y, const double *x)
{
    for (long i = 0; i < n; i++) // V:sequential I:stream
        y[i] = noisy(x[i]);
}

static void jitter(long n, double *y)
{
    for (long i = 0; i < n; i++) // V:sequential I:stream
        y[i] += (double)(rand() % 100) * 1e-3;
}

static void apply(long n, double *y, const double *x, double (*f)(double))
{
    for (long i = 0; i < n; i++) // V:unknown I:stream
        y[i] = f(x[i]);
}

static void apply_sq(long n, double *y, const double *x)
{
    for (long i = 0; i < n; i++) // V:parallel I:stream S:y=1,x=1
        y[i] = sq(x[i]) - x[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *x = probe_alloc(n), *y = probe_alloc(n), *z = probe_alloc(n), *w = probe_alloc(n);
    probe_fill(x, n, 83);
    apply_noisy(n, y, x);
    jitter(n, y);
    apply(n, z, x, sq);
    apply_sq(n, w, x);
    printf("%.9e %.9e %.9e %ld\n", probe_sum(y, n), probe_sum(z, n), probe_sum(w, n), calls);
    free(x); free(y); free(z); free(w);
    return 0;
}
