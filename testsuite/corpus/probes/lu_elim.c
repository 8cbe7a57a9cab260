/*
 * lu_elim.c -- LU factorisation without pivoting, in place on a flattened
 * matrix: the pivot loop k is carried, the row and column updates below
 * it are independent.
 */
#include "probe.h"

static void lu(long n, double *a)
{
    for (long k = 0; k < n; k++) // V:sequential I:matmul,reduction
        for (long i = k + 1; i < n; i++) { // V:parallel I:stream
            double f = a[i * n + k] / a[k * n + k];
            a[i * n + k] = f;
            for (long j = k + 1; j < n; j++) // V:parallel I:stream
                a[i * n + j] -= f * a[k * n + j];
        }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 400 : 20;
    double *a = probe_alloc(n * n);
    probe_fill(a, n * n, 100);
    for (long i = 0; i < n; i++) // V:parallel I:stream
        a[i * n + i] += (double)n;
    lu(n, a);
    printf("%.9e\n", probe_sum(a, n * n));
    free(a);
    return 0;
}
