/* gemm, 2-D subscripts on variably modified arrays */
void gemm(int n, double alpha, double C[n][n], double A[n][n], double B[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i][j] += alpha * A[i][k] * B[k][j];
}
