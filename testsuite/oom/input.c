/* The input of the allocation-failure loop: one nest of each shape the
 * analyses treat differently (keel's own code). */
#include <math.h>

#define N 64

double A[N][N], B[N][N], C[N][N];

void gemm(int ni, int nj, int nk, double alpha)
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            C[i][j] *= 0.5;
            for (int k = 0; k < nk; k++)
                C[i][j] += alpha * A[i][k] * B[k][j];
        }
}

void jacobi(int n, int steps, double *restrict a, double *restrict b)
{
    for (int t = 0; t < steps; t++) {
        for (int i = 1; i < n - 1; i++)
            b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0;
        for (int i = 1; i < n - 1; i++)
            a[i] = b[i];
    }
}

void histogram(int n, const int *key, int *h, double *w, const double *x)
{
    for (int i = 0; i < n; i++) {
        int b = key[i];
        h[b] += 1;
        w[i] = sqrt(x[b]);
    }
}

double dot(int n, const double *x, const double *y)
{
    double s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

void prefix(int n, double *p)
{
    int i = 1;
    while (i < n) {
        p[i] += p[i - 1];
        i++;
    }
}
