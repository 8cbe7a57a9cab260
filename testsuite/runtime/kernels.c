/* Loop nests for rt_decide.sh (line numbers are part of the test). */
void mm(int n, double C[n][n], double A[n][n], double B[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i][j] += A[i][k] * B[k][j];
}

void square(long n, double *a)
{
    for (long i = 0; i < n * n; i++)
        a[i] = 0;
}
