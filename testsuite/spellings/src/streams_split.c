/* the same two updates, one nest each */
void streams(int n, double A[n][n], double B[n][n], double C[n][n], double D[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            B[i][j] = 2.0 * A[i][j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            D[i][j] = C[i][j] + 1.0;
}
