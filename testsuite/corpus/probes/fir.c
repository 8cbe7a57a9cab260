/*
 * fir.c -- filters: a 5-point smoothing stencil with its weights in an
 * array, and a FIR filter with a tap loop (y[i] = sum_k h[k] x[i+k]).
 */
#include "probe.h"

static void smooth5(long n, double *y, const double *x, const double *c)
{
    for (long i = 2; i < n - 2; i++) // V:parallel I:stencil S:y=1,x=1,c=0
        y[i] = c[0] * x[i - 2] + c[1] * x[i - 1] + c[2] * x[i] + c[3] * x[i + 1] + c[4] * x[i + 2];
}

static void fir(long n, long taps, double *y, const double *x, const double *h)
{
    for (long i = 0; i < n - taps; i++) { // V:parallel I:stream S:y=1,x=1,h=0
        double s = 0.0;
        for (long k = 0; k < taps; k++) // V:reduction I:reduction,stencil
            s += h[k] * x[i + k];
        y[i] = s;
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000, taps = 16;
    double *x = probe_alloc(n), *y = probe_alloc(n), *z = probe_alloc(n);
    double c[5] = { 0.1, 0.2, 0.4, 0.2, 0.1 }, h[16];
    probe_fill(x, n, 52);
    probe_fill(h, taps, 53);
    smooth5(n, y, x, c);
    fir(n, taps, z, x, h);
    printf("%.9e %.9e\n", probe_sum(y, n), probe_sum(z, n));
    free(x); free(y); free(z);
    return 0;
}
