/* stats.c -- histograms and scans: a loop whose head sets its bound (Lua's
 * computesizes), a prefix sum (sequential), a sieve with a while loop. */
#include <stdlib.h>
#include <string.h>
#include "kl.h"

unsigned kl_histogram(int n, const int *data, unsigned *bins, int nbins)
{
    unsigned out = 0;
    memset(bins, 0, sizeof *bins * (size_t)nbins);
    for (int i = 0; i < n; i++) {
        int b = data[i] % nbins;
        if (b < 0 || b >= nbins) out++;
        else bins[b]++;
    }
    return out;
}

double kl_prefix(int n, double *a)
{
    for (int i = 1; i < n; i++)
        a[i] += a[i - 1];
    return n > 0 ? a[n - 1] : 0;
}

int kl_primes_below(int n)
{
    char *comp = calloc((size_t)n + 1, 1);
    int count = 0, p = 2;
    if (!comp)
        return -1;
    while (p < n) {
        if (!comp[p]) {
            count++;
            for (int m = 2 * p; m < n; m += p)
                comp[m] = 1;
        }
        p++;
    }
    free(comp);
    return count;
}

unsigned kl_table_size(const unsigned nums[], unsigned lim)
{
    int i;
    unsigned twotoi, a = 0, na = 0;
    for (i = 0, twotoi = 1; twotoi > 0 && lim > twotoi / 2; i++, twotoi *= 2) {
        a += nums[i];
        if (a > twotoi / 2)
            na = a;
    }
    return na;
}
