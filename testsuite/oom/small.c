/* The small input of the every-N allocation-failure loop (keel's own code). */
#include <math.h>

#define N 64

double A[N][N], B[N][N], C[N][N];

void gemm(int ni, int nj, int nk, double alpha)
{
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            C[i][j] *= 0.5;
            for (int k = 0; k < nk; k++)
                C[i][j] += alpha * A[i][k] * B[k][j];
        }
}
