/* gemm, row-major subscripts i*n+j on pointers */
void gemm(int n, double alpha, double *C, const double *A, const double *B)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i * n + j] += alpha * A[i * n + k] * B[k * n + j];
}
