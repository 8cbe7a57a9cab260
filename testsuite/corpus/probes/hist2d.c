/*
 * hist2d.c -- a weighted 2-D histogram of points (two bin coordinates in
 * locals, one flattened bin index), then normalising the bins.
 */
#include "probe.h"

static void hist2d(long n, const double *x, const double *y, const double *w, int nb, double *h)
{
    for (long i = 0; i < n; i++) { // V:reduction I:histogram
        int bx = (int)(x[i] * nb), by = (int)(y[i] * nb);
        h[by * nb + bx] += w[i];
    }
}

static void normalise(long nbins, double *h, double total)
{
    for (long b = 0; b < nbins; b++) // V:parallel I:stream S:h=1
        h[b] /= total;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    int nb = 32;
    double *x = probe_alloc(n), *y = probe_alloc(n), *w = probe_alloc(n), *h = probe_alloc(nb * nb);
    probe_fill(x, n, 94);
    probe_fill(y, n, 95);
    probe_fill(w, n, 96);
    hist2d(n, x, y, w, nb, h);
    normalise((long)nb * nb, h, probe_sum(w, n));
    printf("%.9e\n", probe_sum(h, nb * nb));
    free(x); free(y); free(w); free(h);
    return 0;
}
