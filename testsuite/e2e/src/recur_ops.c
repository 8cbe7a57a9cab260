/* recur_ops.c -- chains whose operations only the expanded tree shows
 * (testsuite/e2e/recur.sh reads the per-loop fact of each loop by line). */
#include <math.h>

#define max_score(s1, s2) ((s1 >= s2) ? s1 : s2)

/* nussinov's split loop, its max a macro: a compare-and-select */
void split(int n, int table[n][n], int i, int j)
{
    for (int k = i + 1; k < j; k++)
        table[i][j] = max_score(table[i][j], table[i][k] + table[k + 1][j]);
}

/* a conditional expression on doubles */
void running_max(int n, double *x, const double *y)
{
    for (int i = 1; i < n; i++)
        x[i] = x[i - 1] > y[i] ? x[i - 1] : y[i];
}

/* fmax, then a multiply */
void damped_max(int n, double *x, const double *y)
{
    for (int i = 1; i < n; i++)
        x[i] = fmax(x[i - 1], y[i]) * 0.5;
}

/* an integer scalar chain */
long horner(int n, const long *a)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s = s * 3 + a[i];
    return s;
}

/* an integer widening on the way: no latency of its own */
void widen(int n, int *x, const long *y)
{
    for (int i = 1; i < n; i++)
        x[i] = (int)((long)x[i - 1] + y[i]);
}

/* a conversion to int and back on the way: its latency is not known,
 * the chain keeps the addition, and the loop is not marked "all" */
void truncate_sum(int n, double *x, const int *y)
{
    for (int i = 1; i < n; i++)
        x[i] = (int)x[i - 1] + y[i];
}

/* a static function returning an expression of its parameters (the
 * project's nussinov spells max_score so): followed into its body */
static inline int imax(int a, int b)
{
    return a >= b ? a : b;
}

void split_fn(int n, int table[n][n], int i, int j)
{
    for (int k = i + 1; k < j; k++)
        table[i][j] = imax(table[i][j], table[i][k] + table[k + 1][j]);
}
