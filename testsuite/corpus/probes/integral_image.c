/*
 * integral_image.c -- a summed-area table of an integer image in two
 * passes: prefix sums along each row (rows independent, the row carries),
 * then down the columns (each row adds the one above: the row loop
 * carries, the points of a row are independent).
 */
#include "probe.h"

static void row_pass(long h, long w, long (*S)[w], const int (*img)[w])
{
    for (long y = 0; y < h; y++) { // V:parallel I:stream
        S[y][0] = img[y][0];
        for (long x = 1; x < w; x++) // V:sequential I:stream
            S[y][x] = S[y][x - 1] + img[y][x];
    }
}

static void column_pass(long h, long w, long (*S)[w])
{
    for (long y = 1; y < h; y++) // V:sequential I:-
        for (long x = 0; x < w; x++) // V:parallel I:stencil S:S=1
            S[y][x] += S[y - 1][x];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long h = large ? 2000 : 30, w = large ? 2000 : 40;
    int *img = probe_alloc_int(h * w);
    long (*S)[w] = calloc((size_t)h, sizeof *S);
    if (!S) return 1;
    probe_fill_int(img, h * w, 315, 256);
    row_pass(h, w, S, (const int (*)[w])img);
    column_pass(h, w, S);
    long t = 0;
    for (long y = 0; y < h; y++) // V:reduction I:reduction
        t += S[y][w - 1] % 1000003;
    printf("%ld %ld\n", S[h - 1][w - 1], t);
    free(img); free(S);
    return 0;
}
