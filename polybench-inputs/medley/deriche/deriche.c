/*
 * deriche.c -- Deriche's recursive edge/smoothing filter, written
 * from its definition.  With
 *
 *     k  = (1 - e^-alpha)^2 / (1 + 2 alpha e^-alpha - e^-2alpha)
 *     a1 = a5 = k                   a2 = a6 = k e^-alpha (alpha - 1)
 *     a3 = a7 = k e^-alpha (alpha + 1)   a4 = a8 = -k e^-2alpha
 *     b1 = 2 e^-alpha               b2 = -e^-2alpha          c1 = c2 = 1
 *
 * a 1-D signal x is filtered by a causal and an anti-causal recursion
 *
 *     y1[n] = a1 x[n]   + a2 x[n-1] + b1 y1[n-1] + b2 y1[n-2]
 *     y2[n] = a3 x[n+1] + a4 x[n+2] + b1 y2[n+1] + b2 y2[n+2]
 *     out[n] = c1 (y1[n] + y2[n])
 *
 * (samples outside the signal are zero).  The W x H image imgIn is filtered
 * along j (each row i), giving imgOut; imgOut is then filtered along i (each
 * column j, with a5..a8 and c2).  The first two and last two samples of each
 * recursion are written out so that no term reaches outside the image.
 */
#include <math.h>
#include <stdio.h>

#include "polybench.h"
#include "deriche.h"

static void init_array(int w, int h, DATA_TYPE *alpha,
                       DATA_TYPE POLYBENCH_2D(imgIn, W, H, w, h))
{
    int i, j;

    *alpha = 0.25;
    for (i = 0; i < w; i++)
        for (j = 0; j < h; j++)
            imgIn[i][j] = (DATA_TYPE)((i * 37 + j * 101) % 256) / 255;
}

static void kernel_deriche(int w, int h, DATA_TYPE alpha,
                           DATA_TYPE POLYBENCH_2D(imgIn, W, H, w, h),
                           DATA_TYPE POLYBENCH_2D(imgOut, W, H, w, h),
                           DATA_TYPE POLYBENCH_2D(y1, W, H, w, h),
                           DATA_TYPE POLYBENCH_2D(y2, W, H, w, h))
{
    int i, j;
    DATA_TYPE k, a1, a2, a3, a4, a5, a6, a7, a8, b1, b2, c1, c2;

    k = (1.0 - exp(-alpha)) * (1.0 - exp(-alpha))
        / (1.0 + 2.0 * alpha * exp(-alpha) - exp(-2.0 * alpha));
    a1 = a5 = k;
    a2 = a6 = k * exp(-alpha) * (alpha - 1.0);
    a3 = a7 = k * exp(-alpha) * (alpha + 1.0);
    a4 = a8 = -k * exp(-2.0 * alpha);
    b1 = 2.0 * exp(-alpha);
    b2 = -exp(-2.0 * alpha);
    c1 = c2 = 1.0;

#pragma scop
    /* Along j: causal and anti-causal recursions of every row. */
    for (i = 0; i < _PB_W; i++) {
        y1[i][0] = a1 * imgIn[i][0];
        y1[i][1] = a1 * imgIn[i][1] + a2 * imgIn[i][0] + b1 * y1[i][0];
        for (j = 2; j < _PB_H; j++)
            y1[i][j] = a1 * imgIn[i][j] + a2 * imgIn[i][j - 1]
                       + b1 * y1[i][j - 1] + b2 * y1[i][j - 2];
    }
    for (i = 0; i < _PB_W; i++) {
        y2[i][_PB_H - 1] = 0.0;
        y2[i][_PB_H - 2] = a3 * imgIn[i][_PB_H - 1];
        for (j = _PB_H - 3; j >= 0; j--)
            y2[i][j] = a3 * imgIn[i][j + 1] + a4 * imgIn[i][j + 2]
                       + b1 * y2[i][j + 1] + b2 * y2[i][j + 2];
    }
    for (i = 0; i < _PB_W; i++)
        for (j = 0; j < _PB_H; j++)
            imgOut[i][j] = c1 * (y1[i][j] + y2[i][j]);

    /* Along i: the recursions run over the rows, every column at once. */
    for (j = 0; j < _PB_H; j++) {
        y1[0][j] = a5 * imgOut[0][j];
        y1[1][j] = a5 * imgOut[1][j] + a6 * imgOut[0][j] + b1 * y1[0][j];
    }
    for (i = 2; i < _PB_W; i++)
        for (j = 0; j < _PB_H; j++)
            y1[i][j] = a5 * imgOut[i][j] + a6 * imgOut[i - 1][j]
                       + b1 * y1[i - 1][j] + b2 * y1[i - 2][j];
    for (j = 0; j < _PB_H; j++) {
        y2[_PB_W - 1][j] = 0.0;
        y2[_PB_W - 2][j] = a7 * imgOut[_PB_W - 1][j];
    }
    for (i = _PB_W - 3; i >= 0; i--)
        for (j = 0; j < _PB_H; j++)
            y2[i][j] = a7 * imgOut[i + 1][j] + a8 * imgOut[i + 2][j]
                       + b1 * y2[i + 1][j] + b2 * y2[i + 2][j];
    for (i = 0; i < _PB_W; i++)
        for (j = 0; j < _PB_H; j++)
            imgOut[i][j] = c2 * (y1[i][j] + y2[i][j]);
#pragma endscop
}

int main(void)
{
    int w = W, h = H;
    DATA_TYPE alpha;
    POLYBENCH_2D_ARRAY_DECL(imgIn, DATA_TYPE, W, H, w, h);
    POLYBENCH_2D_ARRAY_DECL(imgOut, DATA_TYPE, W, H, w, h);
    POLYBENCH_2D_ARRAY_DECL(y1, DATA_TYPE, W, H, w, h);
    POLYBENCH_2D_ARRAY_DECL(y2, DATA_TYPE, W, H, w, h);

    init_array(w, h, &alpha, POLYBENCH_ARRAY(imgIn));

    polybench_start_instruments;
    kernel_deriche(w, h, alpha, POLYBENCH_ARRAY(imgIn), POLYBENCH_ARRAY(imgOut),
                   POLYBENCH_ARRAY(y1), POLYBENCH_ARRAY(y2));
    polybench_stop_instruments;
    polybench_print_instruments;

    POLYBENCH_CHECKSUM("imgOut", POLYBENCH_ARRAY(imgOut), w * h);

    POLYBENCH_FREE_ARRAY(imgIn);
    POLYBENCH_FREE_ARRAY(imgOut);
    POLYBENCH_FREE_ARRAY(y1);
    POLYBENCH_FREE_ARRAY(y2);
    return 0;
}
