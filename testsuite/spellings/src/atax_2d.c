/* atax, 2-D subscripts */
void atax(int n, double A[n][n], double *x, double *y, double *tmp)
{
    for (int i = 0; i < n; i++) {
        tmp[i] = 0.0;
        for (int j = 0; j < n; j++)
            tmp[i] += A[i][j] * x[j];
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            y[j] += A[i][j] * tmp[i];
}
