/* transpose-add, 2-D subscripts */
void tadd(int n, double A[n][n], double B[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            B[i][j] = A[j][i] + B[i][j];
}
