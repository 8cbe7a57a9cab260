/* mat.c -- dense matrices: a blocked product (a macro bound, a pragma
 * separated from its loop by an #if) and a transpose written with _Pragma. */
#include "kl.h"
#include "kl_config.h"

#define PARALLEL_FOR _Pragma("omp parallel for")

void kl_matmul(int n, const double *a, const double *b, double *c)
{
    int i, j, k;
#pragma omp parallel for private(j, k)
#if KL_BLOCK > 1
    for (i = 0; i < n; i++)
#else
    for (i = n - 1; i >= 0; i--)
#endif
        for (j = 0; j < n; j++) {
            double s = 0;
            for (k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
}

void kl_transpose(int n, const double *a, double *t)
{
    PARALLEL_FOR
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            t[j * n + i] = a[i * n + j];
}
