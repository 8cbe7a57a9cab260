/* 2mm, row-major subscripts on static one-dimensional arrays */
#define N 512
static double A[N * N], B[N * N], C[N * N], D[N * N], T[N * N];
void mm2(double alpha, double beta)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            T[i * N + j] = 0.0;
            for (int k = 0; k < N; k++)
                T[i * N + j] += alpha * A[i * N + k] * B[k * N + j];
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            D[i * N + j] *= beta;
            for (int k = 0; k < N; k++)
                D[i * N + j] += T[i * N + k] * C[k * N + j];
        }
}
