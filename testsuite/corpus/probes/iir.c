/*
 * iir.c -- recursive filters: a one-pole low-pass (y[i] depends on
 * y[i-1]) and a second-order section (two previous outputs kept in
 * locals that shift every step).
 */
#include "probe.h"

static void onepole(long n, double *y, const double *x, double a)
{
    y[0] = x[0];
    for (long i = 1; i < n; i++) // V:sequential I:stream
        y[i] = (1.0 - a) * x[i] + a * y[i - 1];
}

static void biquad(long n, double *y, const double *x, const double *c)
{
    double y1 = 0.0, y2 = 0.0;
    for (long i = 0; i < n; i++) { // V:sequential I:stream
        double v = c[0] * x[i] - c[1] * y1 - c[2] * y2;
        y2 = y1;
        y1 = v;
        y[i] = v;
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *x = probe_alloc(n), *y = probe_alloc(n), *z = probe_alloc(n);
    double c[3] = { 0.2, -0.5, 0.1 };
    probe_fill(x, n, 99);
    onepole(n, y, x, 0.9);
    biquad(n, z, x, c);
    printf("%.9e %.9e\n", probe_sum(y, n), probe_sum(z, n));
    free(x); free(y); free(z);
    return 0;
}
