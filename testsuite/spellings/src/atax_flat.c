/* atax, row-major subscripts i*n+j */
void atax(int n, const double *A, double *x, double *y, double *tmp)
{
    for (int i = 0; i < n; i++) {
        tmp[i] = 0.0;
        for (int j = 0; j < n; j++)
            tmp[i] += A[i * n + j] * x[j];
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            y[j] += A[i * n + j] * tmp[i];
}
