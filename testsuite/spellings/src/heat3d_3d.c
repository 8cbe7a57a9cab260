/* 3-D seven-point sweep, 3-D subscripts */
void heat(int n, double A[n][n][n], double B[n][n][n])
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            for (int k = 1; k < n - 1; k++)
                B[i][j][k] = 0.125 * (A[i + 1][j][k] + A[i - 1][j][k] + A[i][j + 1][k]
                                      + A[i][j - 1][k] + A[i][j][k + 1] + A[i][j][k - 1]
                                      - 6.0 * A[i][j][k]);
}
