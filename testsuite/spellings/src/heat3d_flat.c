/* 3-D seven-point sweep, flattened (i*n + j)*n + k on pointers */
void heat(int n, const double *A, double *B)
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            for (int k = 1; k < n - 1; k++)
                B[(i * n + j) * n + k] = 0.125 * (A[((i + 1) * n + j) * n + k] + A[((i - 1) * n + j) * n + k]
                                                  + A[(i * n + j + 1) * n + k] + A[(i * n + j - 1) * n + k]
                                                  + A[(i * n + j) * n + k + 1] + A[(i * n + j) * n + k - 1]
                                                  - 6.0 * A[(i * n + j) * n + k]);
}
