/*
 * reduce.c -- corpus kernels: folds of an associative operator (sum, dot,
 * product, min, max, argmax, conditional sums, counters, fmaxf).  Labels
 * as in sparse.c.
 */
#include <math.h>

double sum(int n, const double *a)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        s += a[i];
    return s;
}

double dot(int n, const double *a, const double *b)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        s += a[i] * b[i];
    return s;
}

double product(int n, const double *a)
{
    double p = 1.0;
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        p *= a[i];
    return p;
}

double max_value(int n, const double *a)
{
    double m = a[0];
    for (int i = 1; i < n; i++) // V:reduction I:reduction
        if (a[i] > m)
            m = a[i];
    return m;
}

int argmax(int n, const float *a)
{
    float best = a[0];
    int arg = 0;
    for (int i = 1; i < n; i++) { // V:reduction I:reduction
        if (a[i] > best) {
            best = a[i];
            arg = i;
        }
    }
    return arg;
}

int argmin(int n, const double *a)
{
    int arg = 0;
    for (int i = 1; i < n; i++) // V:reduction I:reduction
        if (a[i] < a[arg])
            arg = i;
    return arg;
}

float fmax_fold(int n, const float *a)
{
    float m = -INFINITY;
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        m = fmaxf(m, a[i]);
    return m;
}

double min_ternary(int n, const double *a)
{
    double m = a[0];
    for (int i = 1; i < n; i++) // V:reduction I:reduction
        m = a[i] < m ? a[i] : m;
    return m;
}

double positive_sum(int n, const double *a)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        if (a[i] > 0.0)
            s += a[i];
    return s;
}

int count_above(int n, const double *a, double t)
{
    int c = 0;
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        if (a[i] > t)
            c++;
    return c;
}

/* Non-zeros of a dense matrix: the counter is carried by both loops. */
int count_nonzeros(int n, int m, double A[n][m])
{
    int nnz = 0;
    for (int i = 0; i < n; i++) // V:reduction I:-
        for (int j = 0; j < m; j++) // V:reduction I:reduction
            if (A[i][j] != 0.0)
                nnz += 1;
    return nnz;
}

/* Euclidean norm. */
double norm2(int n, const double *x)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        s += x[i] * x[i];
    return sqrt(s);
}

/* Row sums of a matrix: a reduction per row, rows independent. */
void row_sums(int n, int m, const double A[n][m], double *r)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        double s = 0.0;
        for (int j = 0; j < m; j++) // V:reduction I:reduction
            s += A[i][j];
        r[i] = s;
    }
}

/* Column sums accumulated in place: the array reduction is carried by the outer loop. */
void col_sums(int n, int m, const double A[n][m], double *c)
{
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        for (int j = 0; j < m; j++) // V:parallel I:stream
            c[j] += A[i][j];
}

/* Mean and variance, two passes. */
double variance(int n, const double *x)
{
    double s = 0.0, v = 0.0;
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        s += x[i];
    double mean = s / n;
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        v += (x[i] - mean) * (x[i] - mean);
    return v / n;
}
