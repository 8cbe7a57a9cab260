/* mvt, one nest per product */
void mvt(int n, double A[n][n], double *x1, double *x2, double *y1, double *y2)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x1[i] += A[i][j] * y1[j];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            x2[i] += A[j][i] * y2[j];
}
