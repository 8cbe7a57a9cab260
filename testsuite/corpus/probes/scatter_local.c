/*
 * scatter_local.c -- scatters through an index in a local.  Whether two
 * iterations write one element depends on the index array's contents (a
 * permutation here, but nothing in the loop says so).
 */
#include "probe.h"

static void permute(long n, double *out, const double *in, const int *perm)
{
    for (long i = 0; i < n; i++) { // V:unknown I:scatter
        long j = perm[i];
        out[j] = in[i];
    }
}

static void put_rows(long n, long m, double *dst, const double *src, const int *rows)
{
    for (long i = 0; i < n; i++) { // V:unknown I:-
        long r = rows[i];
        for (long j = 0; j < m; j++) // V:parallel I:scatter
            dst[r * m + j] = src[i * m + j];
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000, rn = large ? 2000 : 30;
    double *in = probe_alloc(n), *out = probe_alloc(n);
    double *src = probe_alloc(rn * rn), *dst = probe_alloc(rn * rn);
    int *perm = probe_alloc_int(n), *rows = probe_alloc_int(rn);
    probe_fill(in, n, 26);
    probe_fill(src, rn * rn, 27);
    for (long i = 0; i < n; i++) // V:parallel I:stream
        perm[i] = (int)((i * 7919) % n);
    for (long i = 0; i < rn; i++) // V:parallel I:stream
        rows[i] = (int)(rn - 1 - i);
    permute(n, out, in, perm);
    put_rows(rn, rn, dst, src, rows);
    printf("%.9e %.9e\n", probe_sum(out, n), probe_sum(dst, rn * rn));
    free(in); free(out); free(src); free(dst); free(perm); free(rows);
    return 0;
}
