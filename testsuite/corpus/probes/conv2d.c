/*
 * conv2d.c -- a 3x3 image convolution with the kernel in a local 2-D
 * array and explicit tap loops, on a fixed-size image.
 */
#include "probe.h"

#ifndef H
#define H 64
#endif
#ifndef W
#define W 80
#endif
static double img[H][W], out[H][W];

static void conv(const double k[3][3])
{
    for (int y = 1; y < H - 1; y++) // V:parallel I:- S:out=80,img=80
        for (int x = 1; x < W - 1; x++) { // V:parallel I:stream S:out=1,img=1
            double s = 0.0;
            for (int dy = -1; dy <= 1; dy++) // V:reduction I:-
                for (int dx = -1; dx <= 1; dx++) // V:reduction I:reduction,stencil
                    s += k[dy + 1][dx + 1] * img[y + dy][x + dx];
            out[y][x] = s;
        }
}

int main(int argc, char **argv)
{
    (void)argc; (void)argv;
    const double k[3][3] = { { 0, -1, 0 }, { -1, 5, -1 }, { 0, -1, 0 } };
    probe_fill(&img[0][0], (long)H * W, 103);
    conv(k);
    printf("%.9e\n", probe_sum(&out[0][0], (long)H * W));
    return 0;
}
