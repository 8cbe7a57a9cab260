/* syrk, leading-dimension subscripts i*lda+k on pointers */
void syrk(int n, int m, double alpha, double *C, int ldc, const double *A, int lda)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < m; k++)
                C[i * ldc + j] += alpha * A[i * lda + k] * A[j * lda + k];
}
