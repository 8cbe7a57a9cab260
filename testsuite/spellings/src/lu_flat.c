/* the same step, row-major subscripts on a pointer */
void elim(int n, int p, double *A)
{
    for (int i = p + 1; i < n; i++)
        for (int j = p + 1; j < n; j++)
            A[i * n + j] -= A[i * n + p] * A[p * n + j] / A[p * n + p];
}
