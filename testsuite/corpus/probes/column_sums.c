/*
 * column_sums.c -- statistics of a row-major table: per-column sums (the
 * column loop outside, a sum down each column), and per-row means written
 * through a row pointer.
 */
#include "probe.h"

static void col_sums(long n, long m, const double *A, double *cs)
{
    for (long j = 0; j < m; j++) { // V:parallel I:stream S:cs=1,A=1
        double s = 0.0;
        for (long i = 0; i < n; i++) // V:reduction I:reduction
            s += A[i * m + j];
        cs[j] = s;
    }
}

static void row_means(long n, long m, const double *A, double *mean)
{
    for (long i = 0; i < n; i++) { // V:parallel I:stream S:mean=1,A=m
        const double *r = A + i * m;
        double s = 0.0;
        for (long j = 0; j < m; j++) // V:reduction I:reduction
            s += r[j];
        mean[i] = s / (double)m;
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 3000 : 30, m = large ? 2000 : 20;
    double *A = probe_alloc(n * m), *cs = probe_alloc(m), *mean = probe_alloc(n);
    probe_fill(A, n * m, 93);
    col_sums(n, m, A, cs);
    row_means(n, m, A, mean);
    printf("%.9e %.9e\n", probe_sum(cs, m), probe_sum(mean, n));
    free(A); free(cs); free(mean);
    return 0;
}
