/*
 * argminmax.c -- the position of an extremum with its value: argmax by
 * strict comparison (first maximum wins), and the nearest centre of a
 * point set (argmin of a distance computed in the body).
 */
#include "probe.h"

static long argmax(long n, const double *a)
{
    long k = 0;
    double best = a[0];
    for (long i = 1; i < n; i++) // V:reduction I:reduction
        if (a[i] > best) {
            best = a[i];
            k = i;
        }
    return k;
}

static long nearest(long n, const double *cx, const double *cy, double px, double py)
{
    long k = -1;
    double dmin = 1e300;
    for (long i = 0; i < n; i++) { // V:reduction I:reduction
        double dx = cx[i] - px, dy = cy[i] - py;
        double d = dx * dx + dy * dy;
        if (d < dmin) {
            dmin = d;
            k = i;
        }
    }
    return k;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), *b = probe_alloc(n);
    probe_fill(a, n, 36);
    probe_fill(b, n, 37);
    printf("%ld %ld\n", argmax(n, a), nearest(n, a, b, 0.5, 0.25));
    free(a); free(b);
    return 0;
}
