/* syrk, 2-D subscripts */
void syrk(int n, int m, double alpha, double C[n][n], double A[n][m])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < m; k++)
                C[i][j] += alpha * A[i][k] * A[j][k];
}
