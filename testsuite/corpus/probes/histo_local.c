/*
 * histo_local.c -- histograms whose bin is held in a local: bins read
 * from a key array, and bins computed from a value (clamped).
 */
#include "probe.h"

static void count_keys(long n, const int *key, long *h)
{
    for (long i = 0; i < n; i++) { // V:reduction I:histogram
        int b = key[i];
        h[b] += 1;
    }
}

static void bin_values(long n, const double *x, int nb, double *w, long *cnt)
{
    for (long i = 0; i < n; i++) { // V:reduction I:histogram
        int b = (int)(x[i] * nb);
        if (b >= nb)
            b = nb - 1;
        cnt[b]++;
        w[b] += x[i];
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    int *key = probe_alloc_int(n);
    double *x = probe_alloc(n), w[64] = { 0 };
    long h[100] = { 0 }, cnt[64] = { 0 };
    probe_fill_int(key, n, 28, 100);
    probe_fill(x, n, 29);
    count_keys(n, key, h);
    bin_values(n, x, 64, w, cnt);
    long hs = 0;
    for (int b = 0; b < 64; b++) // V:reduction I:reduction
        hs += h[b] * (b + 1) + cnt[b];
    printf("%ld %.9e\n", hs, probe_sum(w, 64));
    free(key); free(x);
    return 0;
}
