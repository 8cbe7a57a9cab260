/* transpose-add, row-major subscripts j*n+i */
void tadd(int n, const double *A, double *B)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            B[i * n + j] = A[j * n + i] + B[i * n + j];
}
