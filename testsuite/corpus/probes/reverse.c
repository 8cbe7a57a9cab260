/*
 * reverse.c -- reversing in place: swapping the two halves pairwise
 * (each iteration touches its own pair: independent), and the slip of
 * writing a[i] = a[n-1-i] over the whole range (the second half reads
 * what the first half overwrote).
 */
#include "probe.h"

static void reverse_swap(long n, double *a)
{
    for (long i = 0; i < n / 2; i++) { // V:parallel I:stream
        double t = a[i];
        a[i] = a[n - 1 - i];
        a[n - 1 - i] = t;
    }
}

static void mirror(long n, double *a)
{
    for (long i = 0; i < n; i++) // V:sequential I:stream
        a[i] = a[n - 1 - i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), *b = probe_alloc(n);
    probe_fill(a, n, 101);
    probe_fill(b, n, 102);
    reverse_swap(n, a);
    mirror(n, b);
    printf("%.9e %.9e\n", probe_sum(a, n), probe_sum(b, n));
    free(a); free(b);
    return 0;
}
