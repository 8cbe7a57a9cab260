/*
 * early_search.c -- searches that stop at their answer: the first element
 * above a threshold (break), a binary search on a sorted array (while),
 * and the first pair of rows that are equal (return from a nest).
 */
#include "probe.h"

static long first_above(long n, const double *a, double t)
{
    long k = -1;
    for (long i = 0; i < n; i++) { // V:sequential I:-
        if (a[i] > t) {
            k = i;
            break;
        }
    }
    return k;
}

static long lower_bound(long n, const double *a, double x)
{
    long lo = 0, hi = n;
    while (lo < hi) { // V:sequential I:-
        long mid = lo + (hi - lo) / 2;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static long equal_rows(long n, long m, const int *A)
{
    for (long i = 1; i < n; i++) { // V:sequential I:-
        long j = 0;
        while (j < m && A[i * m + j] == A[(i - 1) * m + j]) // V:sequential I:-
            j++;
        if (j == m)
            return i;
    }
    return -1;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000, r = large ? 20000 : 100, m = 8;
    double *a = probe_alloc(n);
    int *A = probe_alloc_int(r * m);
    probe_fill(a, n, 310);
    probe_fill_int(A, r * m, 311, 2);
    for (long i = 1; i < n; i++) // V:sequential I:stream
        a[i] = a[i - 1] + a[i];
    printf("%ld %ld %ld\n", first_above(n, a, 0.25 * a[n - 1]), lower_bound(n, a, 0.5 * a[n - 1]),
           equal_rows(r, m, A));
    free(a); free(A);
    return 0;
}
