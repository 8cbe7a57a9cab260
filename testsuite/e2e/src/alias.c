/* alias.c -- one function called with arrays apart and with overlapping
 * ones (a shifted copy, a smoother in place, struct members into one
 * buffer): the run-time overlap check (e2e/overlap.sh). */
#include <stdio.h>
#include <stdlib.h>

struct pair { double *src, *dst; };

void shift_scale(double *out, const double *in, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = in[i] * 0.5 + 1.0;
}

void smooth3(double *out, const double *in, int n)
{
    for (int i = 1; i < n - 1; i++)
        out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
}

void pair_copy(struct pair *p, int n)
{
    for (int i = 0; i < n; i++)
        p->dst[i] = p->src[i] * 2.0 + 1.0;
}

static double sum(const double *a, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (i % 7 + 1);
    return s;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    double *a = malloc((size_t)(2 * n + 2) * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    if (!a || !b)
        return 1;
    for (int i = 0; i < 2 * n + 2; i++)
        a[i] = i % 13;
    for (int i = 0; i < n; i++)
        b[i] = i % 5;
    shift_scale(b, a, n);                /* apart */
    printf("distinct %.1f\n", sum(b, n));
    shift_scale(a + 1, a, n);            /* overlapping */
    printf("shifted %.1f\n", sum(a, n + 1));
    smooth3(b, a, n);                    /* apart */
    printf("smooth %.1f\n", sum(b, n));
    smooth3(a, a, n);                    /* in == out */
    printf("in place %.1f\n", sum(a, n));
    struct pair p = { a, a + n / 2 };    /* one buffer */
    pair_copy(&p, n);
    printf("members %.1f\n", sum(a, 2 * n));
    struct pair q = { a, b };
    pair_copy(&q, n);
    printf("members apart %.1f\n", sum(b, n));
    free(a);
    free(b);
    return 0;
}
