/*
 * fold_bits.c -- bitwise folds over flag words: the union (|=) and the
 * intersection (&=) of permission masks, and an xor checksum of keys.
 */
#include "probe.h"

static unsigned union_flags(long n, const int *f)
{
    unsigned m = 0;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        m |= (unsigned)f[i];
    return m;
}

static unsigned common_flags(long n, const int *f)
{
    unsigned m = ~0u;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        m &= (unsigned)f[i] | 0x100u;
    return m;
}

static unsigned xor_keys(long n, const int *k)
{
    unsigned h = 0;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        h ^= (unsigned)k[i] * 2654435761u;
    return h;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    int *f = probe_alloc_int(n);
    probe_fill_int(f, n, 34, 1 << 20);
    printf("%u %u %u\n", union_flags(n, f), common_flags(n, f), xor_keys(n, f));
    free(f);
    return 0;
}
