/* gemm on rectangular matrices, row-major subscripts on pointers */
void gemmr(int ni, int nj, int nk, double *C, const double *A, const double *B)
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            for (int k = 0; k < nk; k++)
                C[i * nj + j] += A[i * nk + k] * B[k * nj + j];
}
