/*
 * omp_sync.c -- synchronised updates: a histogram with `omp atomic`, an
 * argmax under `omp critical`, and the same histogram through C11 atomics
 * (atomic_fetch_add on an _Atomic array).
 */
#include "probe.h"
#include <stdatomic.h>

static void hist_atomic(long n, const int *key, long *h)
{
#pragma omp parallel for
    for (long i = 0; i < n; i++) { // V:reduction I:histogram
#pragma omp atomic
        h[key[i]] += 1;
    }
}

static long argmax_critical(long n, const double *a)
{
    long k = 0;
    double best = -1.0;
#pragma omp parallel for
    for (long i = 0; i < n; i++) { // V:reduction I:reduction
#pragma omp critical
        {
            if (a[i] > best) {
                best = a[i];
                k = i;
            }
        }
    }
    return k;
}

static void hist_c11(long n, const int *key, _Atomic long *h)
{
    for (long i = 0; i < n; i++) // V:reduction I:histogram
        atomic_fetch_add_explicit(&h[key[i]], 1, memory_order_relaxed);
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    int *key = probe_alloc_int(n);
    double *a = probe_alloc(n);
    long h[32] = { 0 };
    static _Atomic long h2[32];
    probe_fill_int(key, n, 45, 32);
    probe_fill(a, n, 46);
    hist_atomic(n, key, h);
    hist_c11(n, key, h2);
    long s = 0;
    for (int b = 0; b < 32; b++) // V:reduction I:reduction
        s += (b + 1) * (h[b] + 2 * atomic_load(&h2[b]));
    printf("%ld %ld\n", s, argmax_critical(n, a));
    free(key); free(a);
    return 0;
}
