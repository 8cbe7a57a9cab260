/* 3-D seven-point sweep on static 3-D arrays */
#define N 128
static double A[N][N][N], B[N][N][N];
void heat(void)
{
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            for (int k = 1; k < N - 1; k++)
                B[i][j][k] = 0.125 * (A[i + 1][j][k] + A[i - 1][j][k] + A[i][j + 1][k]
                                      + A[i][j - 1][k] + A[i][j][k + 1] + A[i][j][k - 1]
                                      - 6.0 * A[i][j][k]);
}
