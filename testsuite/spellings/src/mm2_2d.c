/* 2mm, 2-D subscripts on static arrays */
#define N 512
static double A[N][N], B[N][N], C[N][N], D[N][N], T[N][N];
void mm2(double alpha, double beta)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            T[i][j] = 0.0;
            for (int k = 0; k < N; k++)
                T[i][j] += alpha * A[i][k] * B[k][j];
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            D[i][j] *= beta;
            for (int k = 0; k < N; k++)
                D[i][j] += T[i][k] * C[k][j];
        }
}
