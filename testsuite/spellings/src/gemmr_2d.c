/* gemm on rectangular matrices, 2-D subscripts */
void gemmr(int ni, int nj, int nk, double C[ni][nj], double A[ni][nk], double B[nk][nj])
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++)
            for (int k = 0; k < nk; k++)
                C[i][j] += A[i][k] * B[k][j];
}
