/*
 * sparse.c -- corpus kernels: sparse and indirect access, written from the
 * textbook definitions (CSR/COO/ELL matrix-vector product, gather,
 * scatter, sparse axpy).  Every loop carries its expected labels in a
 * comment on its own line: V: the dependence verdict of that loop, I: the
 * idioms attached to it (see testsuite/corpus/README.md).
 */

/* y = A x, A in compressed sparse rows. */
void spmv_csr(int n, const int *rowptr, const int *col, const double *val, const double *x,
              double *y)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        double s = 0.0;
        for (int k = rowptr[i]; k < rowptr[i + 1]; k++) // V:reduction I:gather,reduction
            s += val[k] * x[col[k]];
        y[i] = s;
    }
}

/* y += A x, A in coordinate form: rows repeat, so y is updated through an index. */
void spmv_coo(int nnz, const int *row, const int *col, const double *val, const double *x,
              double *y)
{
    for (int e = 0; e < nnz; e++) // V:reduction I:histogram
        y[row[e]] += val[e] * x[col[e]];
}

/* y = A x, A in ELLPACK: w entries per row, flattened row-major. */
void spmv_ell(int n, int w, const int *col, const double *val, const double *x, double *y)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        double s = 0.0;
        for (int j = 0; j < w; j++) // V:reduction I:gather,reduction
            s += val[i * w + j] * x[col[i * w + j]];
        y[i] = s;
    }
}

/* y[i] = x[idx[i]]. */
void gather_copy(int n, const int *idx, const double *x, double *y)
{
    for (int i = 0; i < n; i++) // V:parallel I:gather
        y[i] = x[idx[i]];
}

/* y[idx[i]] = x[i]: a permutation only if idx is one; two equal indices race. */
void scatter_copy(int n, const int *idx, const double *x, double *y)
{
    for (int i = 0; i < n; i++) // V:unknown I:scatter
        y[idx[i]] = x[i];
}

/* y[idx[i]] += a * x[i]: sparse axpy into a dense vector. */
void sparse_axpy(int n, double a, const int *idx, const double *x, double *y)
{
    for (int i = 0; i < n; i++) // V:reduction I:histogram
        y[idx[i]] += a * x[i];
}

/* Entries per column of a CSR matrix (first step of a transpose). */
void csr_col_count(int nnz, const int *col, int *count)
{
    for (int k = 0; k < nnz; k++) // V:reduction I:histogram
        count[col[k]]++;
}

/* Gather through an index held in a local scalar. */
void gather_local(int n, const int *perm, const float *in, float *out)
{
    for (int i = 0; i < n; i++) { // V:parallel I:gather
        int j = perm[i];
        out[i] = 2.0f * in[j];
    }
}
