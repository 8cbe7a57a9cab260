/* the same sweep on a static one-dimensional array */
#define N 1024
static double A[N * N];
void sweep(void)
{
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N / 2 - 1; j++)
            A[i * N + 2 * j] = 0.25 * (A[i * N + 2 * j - 1] + A[i * N + 2 * j + 1]
                                      + A[(i - 1) * N + 2 * j] + A[(i + 1) * N + 2 * j]);
}
