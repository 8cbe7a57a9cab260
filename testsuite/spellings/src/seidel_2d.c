/* in-place five-point sweep with a red-black split along j, 2-D subscripts */
#define N 1024
static double A[N][N];
void sweep(void)
{
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N / 2 - 1; j++)
            A[i][2 * j] = 0.25 * (A[i][2 * j - 1] + A[i][2 * j + 1] + A[i - 1][2 * j] + A[i + 1][2 * j]);
}
