/*
 * stencil.c -- corpus kernels: stencils and filters (1-D, 2-D, through row
 * pointers and flattened subscripts), FIR convolution, in-place sweeps.
 * Labels as in sparse.c.
 */

/* Three-point average. */
void smooth3(int n, const double *a, double *b)
{
    for (int i = 1; i < n - 1; i++) // V:parallel I:stencil
        b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
}

/* Five-point Laplacian on 2-D arrays. */
void laplace2d(int n, int m, const double a[n][m], double b[n][m])
{
    for (int i = 1; i < n - 1; i++) // V:parallel I:-
        for (int j = 1; j < m - 1; j++) // V:parallel I:stencil
            b[i][j] = a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1] - 4.0 * a[i][j];
}

/* Five-point Laplacian, flattened row-major with a symbolic row length. */
void laplace_flat(int n, int m, const float *a, float *b)
{
    for (int i = 1; i < n - 1; i++) // V:parallel I:-
        for (int j = 1; j < m - 1; j++) // V:parallel I:stencil
            b[i * m + j] = a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1]
                         + a[i * m + j + 1] - 4.0f * a[i * m + j];
}

/* Five-point Laplacian through row pointers. */
void laplace_rows(int n, int m, const double *a, double *b)
{
    for (int i = 1; i < n - 1; i++) { // V:parallel I:-
        const double *up = a + (i - 1) * m, *r = a + i * m, *dn = a + (i + 1) * m;
        double *o = b + i * m;
        for (int j = 1; j < m - 1; j++) // V:parallel I:stencil
            o[j] = up[j] + dn[j] + r[j - 1] + r[j + 1] - 4.0 * r[j];
    }
}

/* 3 x 3 box blur of an 8-bit image. */
void box_blur(int h, int w, const unsigned char in[h][w], unsigned char out[h][w])
{
    for (int y = 1; y < h - 1; y++) // V:parallel I:-
        for (int x = 1; x < w - 1; x++) { // V:parallel I:stencil
            int s = in[y - 1][x - 1] + in[y - 1][x] + in[y - 1][x + 1]
                  + in[y][x - 1] + in[y][x] + in[y][x + 1]
                  + in[y + 1][x - 1] + in[y + 1][x] + in[y + 1][x + 1];
            out[y][x] = (unsigned char)(s / 9);
        }
}

/* Horizontal Sobel gradient. */
void sobel_x(int h, int w, const float *in, float *out)
{
    for (int y = 1; y < h - 1; y++) // V:parallel I:-
        for (int x = 1; x < w - 1; x++) // V:parallel I:stencil
            out[y * w + x] = in[(y - 1) * w + x + 1] - in[(y - 1) * w + x - 1]
                           + 2.0f * (in[y * w + x + 1] - in[y * w + x - 1])
                           + in[(y + 1) * w + x + 1] - in[(y + 1) * w + x - 1];
}

/* FIR filter: y[i] = sum_k h[k] x[i+k]. */
void fir(int n, int taps, const float *h, const float *x, float *y)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        float s = 0.0f;
        for (int k = 0; k < taps; k++) // V:reduction I:reduction,stencil
            s += h[k] * x[i + k];
        y[i] = s;
    }
}

/* Gauss-Seidel sweep in place: the left neighbour is this sweep's value. */
void gauss_seidel_1d(int n, double *a)
{
    for (int i = 1; i < n - 1; i++) // V:sequential I:stencil
        a[i] = 0.5 * (a[i - 1] + a[i + 1]);
}

/* Jacobi time steps: the time loop carries, the sweeps are parallel. */
void jacobi_1d(int steps, int n, double *a, double *b)
{
    for (int t = 0; t < steps; t++) { // V:sequential I:-
        for (int i = 1; i < n - 1; i++) // V:parallel I:stencil
            b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
        for (int i = 1; i < n - 1; i++) // V:parallel I:stream
            a[i] = b[i];
    }
}

/* Row relaxation through row pointers: row i uses the new row i-1. */
void relax_rows(int n, int m, double *g)
{
    for (int i = 1; i < n; i++) { // V:sequential I:-
        double *up = g + (i - 1) * m, *row = g + i * m;
        for (int j = 0; j < m; j++) // V:parallel I:stencil
            row[j] = 0.5 * (row[j] + up[j]);
    }
}

/* 7-point 3-D stencil. */
void heat3d(int n, const double A[n][n][n], double B[n][n][n])
{
    for (int i = 1; i < n - 1; i++) // V:parallel I:-
        for (int j = 1; j < n - 1; j++) // V:parallel I:-
            for (int k = 1; k < n - 1; k++) // V:parallel I:stencil
                B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                           + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                           + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]);
}
