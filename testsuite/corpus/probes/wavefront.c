/*
 * wavefront.c -- a local-alignment style dynamic programme: H[i][j] from
 * its north-west, north and west neighbours.  Row by row both loops carry
 * the recurrence; swept by anti-diagonals d = i + j, the cells of one
 * diagonal depend only on the two diagonals before it.
 */
#include "probe.h"
#include <math.h>

static void dp_rows(long n, double (*H)[n + 1], const double *s)
{
    for (long i = 1; i <= n; i++) // V:sequential I:-
        for (long j = 1; j <= n; j++) // V:sequential I:stencil
            H[i][j] = fmax(0.0, fmax(H[i - 1][j - 1] + s[(i * 7 + j) % 16],
                                     fmax(H[i - 1][j], H[i][j - 1]) - 0.5));
}

static void dp_diagonals(long n, double (*H)[n + 1], const double *s)
{
    for (long d = 2; d <= 2 * n; d++) { // V:sequential I:-
        long lo = d - n > 1 ? d - n : 1, hi = d - 1 < n ? d - 1 : n;
        for (long i = lo; i <= hi; i++) { // V:parallel I:stencil
            long j = d - i;
            H[i][j] = fmax(0.0, fmax(H[i - 1][j - 1] + s[(i * 7 + j) % 16],
                                     fmax(H[i - 1][j], H[i][j - 1]) - 0.5));
        }
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 1500 : 60;
    double (*A)[n + 1] = calloc((size_t)(n + 1), sizeof *A);
    double (*B)[n + 1] = calloc((size_t)(n + 1), sizeof *B);
    double *s = probe_alloc(16);
    if (!A || !B) return 1;
    probe_fill(s, 16, 303);
    for (int k = 0; k < 16; k++) // V:parallel I:stream
        s[k] = 2.0 * s[k] - 0.8;
    dp_rows(n, A, s);
    dp_diagonals(n, B, s);
    printf("%.9e %.9e\n", probe_sum(&A[0][0], (n + 1) * (n + 1)), probe_sum(&B[0][0], (n + 1) * (n + 1)));
    free(A); free(B); free(s);
    return 0;
}
