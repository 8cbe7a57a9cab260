/*
 * scatter_dup.c -- scatters whose index array repeats values (a counting
 * sort's keys): a plain store keeps the last writer, so the order of
 * iterations decides the result; an accumulation commutes; placing each
 * item at its bucket's running position orders the iterations.
 */
#include "probe.h"

static void last_writer(long n, double *out, const double *v, const int *key)
{
    for (long i = 0; i < n; i++) // V:unknown I:scatter
        out[key[i]] = v[i];
}

static void accumulate(long n, double *acc, const double *v, const int *key)
{
    for (long i = 0; i < n; i++) // V:reduction I:histogram
        acc[key[i]] += v[i];
}

static void counting_sort(long n, int nb, const int *key, const double *v, long *start,
                          double *out)
{
    for (int b = 0; b <= nb; b++) // V:parallel I:stream
        start[b] = 0;
    for (long i = 0; i < n; i++) // V:reduction I:histogram
        start[key[i] + 1]++;
    for (int b = 1; b <= nb; b++) // V:sequential I:stream
        start[b] += start[b - 1];
    for (long i = 0; i < n; i++) // V:sequential I:histogram,scatter
        out[start[key[i]]++] = v[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    int nb = 64;
    int *key = probe_alloc_int(n);
    double *v = probe_alloc(n), *out = probe_alloc(nb), *acc = probe_alloc(nb);
    double *sorted = probe_alloc(n);
    long *start = calloc((size_t)nb + 1, sizeof *start);
    if (!start) return 1;
    probe_fill_int(key, n, 305, nb);
    probe_fill(v, n, 306);
    last_writer(n, out, v, key);
    accumulate(n, acc, v, key);
    counting_sort(n, nb, key, v, start, sorted);
    printf("%.9e %.9e %.9e %ld\n", probe_sum(out, nb), probe_sum(acc, nb), probe_sum(sorted, n),
           start[nb - 1]);
    free(key); free(v); free(out); free(acc); free(sorted); free(start);
    return 0;
}
