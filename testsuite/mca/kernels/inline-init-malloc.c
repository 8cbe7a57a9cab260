/* inline-init.c's program with its arrays from malloc: the compiler knows
 * they do not overlap, so no loop is versioned (one assembly copy each),
 * and the unroller unrolls each sweep's vector body by 2 (one remark, one
 * copy): 4 source iterations per assembly iteration. */
#include <stdio.h>
#include <stdlib.h>

#define LEN 3000
#define SWEEPS 40

static void setup(int n, double *u, double *v)
{
    for (int k = 0; k < n; k++) {
        u[k] = (double)((k * 11 + 4) % n) / n;
        v[k] = (double)((k * 13 + 1) % n) / n;
    }
}

static void smooth(int sweeps, int n, double *u, double *v)
{
    for (int s = 0; s < sweeps; s++) {
        for (int k = 1; k < n - 1; k++)
            v[k] = (u[k - 1] + u[k] + u[k + 1]) / 3.0;
        for (int k = 1; k < n - 1; k++)
            u[k] = (v[k - 1] + v[k + 1]) / 3.0;
    }
}

int main(void)
{
    double *u = malloc(LEN * sizeof *u), *v = malloc(LEN * sizeof *v);
    if (!u || !v)
        return 1;
    setup(LEN, u, v);
    smooth(SWEEPS, LEN, u, v);
    double sum = 0;
    for (int k = 0; k < LEN; k++)
        sum += u[k];
    printf("%.6f\n", sum);
    free(u);
    free(v);
    return 0;
}
