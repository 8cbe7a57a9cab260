/*
 * rle.c -- run-length decoding (count, value pairs), and a filter that
 * skips the two words after a negative marker by stepping its induction
 * variable in the body.
 */
#include "probe.h"

static long rle_decode(const int *in, long n, int *out)
{
    long k = 0;
    for (long i = 0; i + 1 < n; i += 2) { // V:sequential I:reduction
        for (int r = 0; r < in[i]; r++) // V:parallel I:stream
            out[k++] = in[i + 1];
    }
    return k;
}

static void skip_marked(const int *in, long n, int *out)
{
    for (long i = 0; i < n; i++) { // V:sequential I:stream
        if (in[i] < 0)
            i += 2;
        else
            out[i] = 2 * in[i];
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    int *in = probe_alloc_int(n), *out = probe_alloc_int(4 * n), *o2 = probe_alloc_int(n);
    probe_fill_int(in, n, 16, 8);
    long k = rle_decode(in, n, out);
    for (long i = 0; i < n; i += 5) // V:parallel I:stream
        in[i] = -1;
    skip_marked(in, n, o2);
    printf("%ld %ld %ld\n", k, probe_isum(out, k), probe_isum(o2, n));
    free(in); free(out); free(o2);
    return 0;
}
