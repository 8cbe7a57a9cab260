/* the same sweep on static one-dimensional arrays, (i*N + j)*N + k */
#define N 128
static double A[N * N * N], B[N * N * N];
void heat(void)
{
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            for (int k = 1; k < N - 1; k++)
                B[(i * N + j) * N + k] = 0.125 * (A[((i + 1) * N + j) * N + k] + A[((i - 1) * N + j) * N + k]
                                                  + A[(i * N + j + 1) * N + k] + A[(i * N + j - 1) * N + k]
                                                  + A[(i * N + j) * N + k + 1] + A[(i * N + j) * N + k - 1]
                                                  - 6.0 * A[(i * N + j) * N + k]);
}
