/*
 * search.c -- early exits: the first index of a key (break), the first
 * row of a matrix whose sum exceeds a limit (return from inside the
 * nest), and validating a buffer until the first bad byte (goto).
 */
#include "probe.h"

static long find_first(long n, const int *a, int key)
{
    long pos = -1;
    for (long i = 0; i < n; i++) // V:sequential I:-
        if (a[i] == key) {
            pos = i;
            break;
        }
    return pos;
}

static long first_heavy_row(long n, long m, const double *A, double limit)
{
    for (long i = 0; i < n; i++) { // V:sequential I:-
        double s = 0.0;
        for (long j = 0; j < m; j++) // V:reduction I:reduction
            s += A[i * m + j];
        if (s > limit)
            return i;
    }
    return -1;
}

static long valid_prefix(long n, const int *b)
{
    long i;
    for (i = 0; i < n; i++) // V:sequential I:-
        if (b[i] > 250)
            goto bad;
    return n;
bad:
    return i;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000, r = large ? 2000 : 30;
    int *a = probe_alloc_int(n);
    double *A = probe_alloc(r * r);
    probe_fill_int(a, n, 79, 256);
    probe_fill(A, r * r, 80);
    printf("%ld %ld %ld %ld\n", find_first(n, a, 77), find_first(n, a, 1000),
           first_heavy_row(r, r, A, 0.5 * r + 1.0), valid_prefix(n, a));
    free(a); free(A);
    return 0;
}
