/*
 * dense.c -- corpus kernels: dense linear algebra written as people write
 * it (2-D arrays, flattened A[i*n+j], hoisted operands, blocking, BLAS
 * strides).  Labels as in sparse.c.
 */

/* C = A B with a scalar accumulator. */
void matmul_ijk(int n, const double A[n][n], const double B[n][n], double C[n][n])
{
    for (int i = 0; i < n; i++) // V:parallel I:-
        for (int j = 0; j < n; j++) { // V:parallel I:stream
            double s = 0.0;
            for (int k = 0; k < n; k++) // V:reduction I:matmul,reduction
                s += A[i][k] * B[k][j];
            C[i][j] = s;
        }
}

/* C += A B, flattened, i-k-j order with the A element hoisted. */
void matmul_flat_ikj(int n, const double *A, const double *B, double *C)
{
    for (int i = 0; i < n; i++) // V:parallel I:-
        for (int k = 0; k < n; k++) { // V:reduction I:matmul,reduction
            double aik = A[i * n + k];
            for (int j = 0; j < n; j++) // V:parallel I:stream
                C[i * n + j] += aik * B[k * n + j];
        }
}

/* C += A B in bs x bs blocks (n a multiple of bs). */
void matmul_blocked(int n, int bs, const double A[n][n], const double B[n][n], double C[n][n])
{
    for (int ii = 0; ii < n; ii += bs) // V:parallel I:-
        for (int jj = 0; jj < n; jj += bs) // V:parallel I:-
            for (int kk = 0; kk < n; kk += bs) // V:reduction I:-
                for (int i = ii; i < ii + bs; i++) // V:parallel I:-
                    for (int j = jj; j < jj + bs; j++) // V:parallel I:-
                        for (int k = kk; k < kk + bs; k++) // V:reduction I:matmul,reduction
                            C[i][j] += A[i][k] * B[k][j];
}

/* y = A x. */
void matvec_rows(int n, int m, const double A[n][m], const double *x, double *y)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        double s = 0.0;
        for (int j = 0; j < m; j++) // V:reduction I:matvec,reduction
            s += A[i][j] * x[j];
        y[i] = s;
    }
}

/* y = A x, A flattened with a symbolic row length. */
void matvec_flat(int n, int m, const double *A, const double *x, double *y)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        y[i] = 0.0;
        for (int j = 0; j < m; j++) // V:reduction I:matvec,reduction
            y[i] += A[i * m + j] * x[j];
    }
}

/* y = A^T x accumulated column-wise: the array y is reduced over i. */
void matvec_transposed(int n, int m, const double A[n][m], const double *x, double *y)
{
    for (int i = 0; i < n; i++) // V:reduction I:matvec,reduction
        for (int j = 0; j < m; j++) // V:parallel I:stream
            y[j] += A[i][j] * x[i];
}

/* B = A^T. */
void transpose(int n, int m, const double A[n][m], double B[m][n])
{
    for (int i = 0; i < n; i++) // V:parallel I:-
        for (int j = 0; j < m; j++) // V:parallel I:transpose
            B[j][i] = A[i][j];
}

/* B = A^T, both flattened. */
void transpose_flat(int n, int m, const float *A, float *B)
{
    for (int i = 0; i < n; i++) // V:parallel I:-
        for (int j = 0; j < m; j++) // V:parallel I:transpose
            B[j * n + i] = A[i * m + j];
}

/* B = A^T in 32 x 32 tiles (n a multiple of 32). */
void transpose_blocked(int n, const double A[n][n], double B[n][n])
{
    for (int ii = 0; ii < n; ii += 32) // V:parallel I:-
        for (int jj = 0; jj < n; jj += 32) // V:parallel I:-
            for (int i = ii; i < ii + 32; i++) // V:parallel I:-
                for (int j = jj; j < jj + 32; j++) // V:parallel I:transpose
                    B[j][i] = A[i][j];
}

/* A = x y^T. */
void outer_product(int n, int m, const double *x, const double *y, double A[n][m])
{
    for (int i = 0; i < n; i++) // V:parallel I:-
        for (int j = 0; j < m; j++) // V:parallel I:stream
            A[i][j] = x[i] * y[j];
}

/* y = a x + y with unit strides. */
void axpy(int n, double a, const double *x, double *y)
{
    for (int i = 0; i < n; i++) // V:parallel I:stream
        y[i] += a * x[i];
}

/* BLAS-style axpy with increments: incy may be 0, then y[iy] is one element
 * and the loop a sum; either way the += updates commute, so reduction is the
 * answer that holds for every incy (label corrected from unknown). */
void axpy_inc(int n, double a, const double *x, int incx, double *y, int incy)
{
    int ix = 0, iy = 0;
    for (int i = 0; i < n; i++) { // V:reduction I:stream
        y[iy] += a * x[ix];
        ix += incx;
        iy += incy;
    }
}

/* Scale a vector with a unit increment counter. */
void scale_counter(int n, double a, double *x)
{
    int k = 0;
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        x[k] = a * x[k];
        k += 1;
    }
}
