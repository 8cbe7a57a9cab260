/* Mapping after inlining: a setup loop (line 18) and a smoothing kernel
 * (time steps on line 26, sweeps on lines 27 and 29), both static and
 * inlined into main at -O2 before a checksum loop (line 42).  Every loop
 * divides, so the setup loop and both sweeps all hold divpd: only the
 * line table tells them apart.  The arrays come from a function of
 * another unit, so the vectoriser versions each loop on an alias check
 * (a vector copy and a scalar copy); with constant sizes the unroller then
 * unrolls both copies of each sweep by 2 (one remark per copy). */
#include <stdio.h>

#define LEN 3000
#define SWEEPS 40

double *grab(int n);

static void setup(int n, double *u, double *v)
{
    for (int k = 0; k < n; k++) {
        u[k] = (double)((k * 11 + 4) % n) / n;
        v[k] = (double)((k * 13 + 1) % n) / n;
    }
}

static void smooth(int sweeps, int n, double *u, double *v)
{
    for (int s = 0; s < sweeps; s++) {
        for (int k = 1; k < n - 1; k++)
            v[k] = (u[k - 1] + u[k] + u[k + 1]) / 3.0;
        for (int k = 1; k < n - 1; k++)
            u[k] = (v[k - 1] + v[k + 1]) / 3.0;
    }
}

int main(void)
{
    double *u = grab(LEN), *v = grab(LEN);
    if (!u || !v)
        return 1;
    setup(LEN, u, v);
    smooth(SWEEPS, LEN, u, v);
    double sum = 0;
    for (int k = 0; k < LEN; k++)
        sum += u[k];
    printf("%.6f\n", sum);
    return 0;
}
