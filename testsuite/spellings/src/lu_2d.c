/* one elimination step below the diagonal, 2-D subscripts */
void elim(int n, int p, double A[n][n])
{
    for (int i = p + 1; i < n; i++)
        for (int j = p + 1; j < n; j++)
            A[i][j] -= A[i][p] * A[p][j] / A[p][p];
}
