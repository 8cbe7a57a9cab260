/*
 * csr_build.c -- building a CSR matrix from coordinates: count entries
 * per row (histogram), an exclusive prefix sum into the row pointer (a
 * running sum: sequential), and placing each entry at its row's next
 * free slot (the slot counter is carried).
 */
#include "probe.h"

static void build(long n, long nnz, const int *row, const int *col, const double *v,
                  int *rowptr, int *fill, int *ci, double *cv)
{
    for (long e = 0; e < nnz; e++) // V:reduction I:histogram
        rowptr[row[e] + 1]++;
    for (long i = 0; i < n; i++) // V:sequential I:stream
        rowptr[i + 1] += rowptr[i];
    for (long e = 0; e < nnz; e++) { // V:sequential I:gather,histogram,scatter
        int r = row[e];
        int at = rowptr[r] + fill[r]++;
        ci[at] = col[e];
        cv[at] = v[e];
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 1000000 : 100, nnz = 8 * n;
    int *row = probe_alloc_int(nnz), *col = probe_alloc_int(nnz);
    int *rowptr = probe_alloc_int(n + 1), *fill = probe_alloc_int(n), *ci = probe_alloc_int(nnz);
    double *v = probe_alloc(nnz), *cv = probe_alloc(nnz);
    probe_fill_int(row, nnz, 66, (int)n);
    probe_fill_int(col, nnz, 67, (int)n);
    probe_fill(v, nnz, 68);
    build(n, nnz, row, col, v, rowptr, fill, ci, cv);
    printf("%ld %ld %.9e\n", probe_isum(rowptr, n + 1), probe_isum(ci, nnz), probe_sum(cv, nnz));
    free(row); free(col); free(rowptr); free(fill); free(ci); free(v); free(cv);
    return 0;
}
