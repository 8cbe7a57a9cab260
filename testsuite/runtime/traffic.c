/* Loop nests for rt_traffic.sh: the memory-traffic model and time-stepped regions (line numbers are part of the test). */
void colsum(int n, double A[n][n], double s[n])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            s[i] += A[j][i];
}

void jacobi(int n, int tsteps, double A[n], double B[n])
{
    for (int t = 0; t < tsteps; t++) {
#pragma omp parallel for
        for (int i = 1; i < n - 1; i++)
            B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
#pragma omp parallel for
        for (int i = 1; i < n - 1; i++)
            A[i] = B[i];
    }
}

void matvec(int n, double A[n][n], double x[n], double y[n])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            y[i] += A[i][j] * x[j];
}

void planes(int nx, int ny, int nz, float *a, float *b)
{
    int x, y, z, c;
    for (z = 0; z < nz; z++)
        for (y = 0; y < ny; y++)
            for (x = 0; x < nx; x++) {
                c = x + y * nx + z * nx * ny;
                b[c] = a[c] * 2.0f;
            }
}

void rowsum(int n, int m, double A[n][m], double s[n])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        double t = 0;
        for (int k = 0; k < m; k++)
            t += A[i][k];
        s[i] = t;
    }
}

void tri(int n, double A[n][n], double s[n])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        double t = 0;
        for (int j = i; j < n; j++)
            t += A[j][i];
        s[i] = t;
    }
}

void diag(int n, double A[n][n], double B[n][n], double s[n])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            s[i] += A[j][j] * B[j][i];
}

void mmcol(int n, double B[n][n], double C[n][n])
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i][j] += B[k][j];
}
