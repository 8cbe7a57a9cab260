/*
 * ptr_prefix.c -- pointers stepped in the for header: an in-place prefix
 * sum (*p += p[-1]: each iteration needs the previous one's result) and a
 * copy through two pointers into a distinct array.
 */
#include "probe.h"

static void prefix(double *a, long n)
{
    double *p = a + 1;
    for (long i = 1; i < n; i++, p++) // V:sequential I:stream
        *p += p[-1];
}

static void copy(double *dst, const double *src, long n)
{
    double *d = dst;
    const double *s = src;
    for (long i = 0; i < n; i++, d++, s++) // V:parallel I:stream
        *d = *s;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), *b = probe_alloc(n);
    probe_fill(a, n, 19);
    copy(b, a, n);
    prefix(a, n);
    printf("%.9e %.9e\n", probe_sum(a, n), probe_sum(b, n));
    free(a); free(b);
    return 0;
}
