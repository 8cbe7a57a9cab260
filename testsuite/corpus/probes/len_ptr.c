/*
 * len_ptr.c -- a bound read through a pointer.  The first loop shortens
 * the length it runs to when a value overflows (the bound is written in
 * the body, through the pointer); the second only reads it.
 */
#include "probe.h"

static void double_until(double *a, long *len)
{
    for (long i = 0; i < *len; i++) { // V:sequential I:stream
        a[i] *= 2.0;
        if (a[i] > 1.99)
            *len = i;
    }
}

static void add_one(double *a, const long *len)
{
    for (long i = 0; i < *len; i++) // V:parallel I:stream S:a=1
        a[i] += 1.0;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n);
    probe_fill(a, n, 15);
    long len = n;
    double_until(a, &len);
    add_one(a, &len);
    printf("%ld %.9e\n", len, probe_sum(a, n));
    free(a);
    return 0;
}
