#include <stdio.h>
#include <stdlib.h>

/* a[i] += *bias: parallel only if bias does not point into a[0..n). */
void add_bias(double *a, const double *bias, int n)
{
    for (int i = 0; i < n; i++)
        a[i] += *bias;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n);
    if (!a || !b)
        return 1;
    for (int i = 0; i < n; i++)
        a[i] = b[i] = 1.0 + i % 13;
    double w = 0.5;
    add_bias(b, &w, n);                  /* apart */
    add_bias(a, &a[10], n);              /* bias = &a[10]: a[10] changes mid-loop */
    double s = 0, t = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * (i % 7), t += b[i] * (i % 5);
    printf("%.6e %.6e %.17g\n", s, t, a[n - 1]);
    free(a);
    free(b);
    return 0;
}
