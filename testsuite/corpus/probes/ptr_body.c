/*
 * ptr_body.c -- pointers stepped in the loop body rather than the
 * header: a copy through *d++ = *s++, and an in-place running sum that
 * stores the total so far through a post-incremented pointer (a scan).
 */
#include "probe.h"

static void copy(long n, double *dst, const double *src)
{
    double *d = dst;
    const double *s = src;
    for (long i = 0; i < n; i++) // V:parallel I:stream
        *d++ = *s++;
}

static void running_total(long n, double *a)
{
    double acc = 0.0, *p = a;
    for (long i = 0; i < n; i++) { // V:sequential I:reduction,stream
        acc += *p;
        *p++ = acc;
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n), *b = probe_alloc(n);
    probe_fill(a, n, 110);
    copy(n, b, a);
    running_total(n, a);
    printf("%.9e %.9e\n", probe_sum(a, n), probe_sum(b, n));
    free(a); free(b);
    return 0;
}
