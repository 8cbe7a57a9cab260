/* jacobi-2d sweep, row-major subscripts */
void jacobi(int n, const double *A, double *B)
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            B[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1]
                                  + A[(i + 1) * n + j] + A[(i - 1) * n + j]);
}
