/* vec.c -- vectors: bounds that are struct members, parameters and sizeof. */
#include <stdlib.h>
#include "kl.h"
#include "kl_config.h"

int kl_vec_init(kl_vec *x, size_t len, double first, double step)
{
    x->len = len;
    x->v = malloc(len * sizeof *x->v);
    if (!x->v)
        return -1;
    for (size_t i = 0; i < x->len; i++)
        x->v[i] = first + step * (double)i;
    return 0;
}

void kl_vec_free(kl_vec *x)
{
    free(x->v);
    x->v = NULL;
    x->len = 0;
}

void kl_axpy(double a, const kl_vec *x, kl_vec *y)
{
    size_t n = x->len < y->len ? x->len : y->len;
#pragma omp parallel for
    for (size_t i = 0; i < n; i++)
        y->v[i] += a * x->v[i];
}

double kl_dot(const kl_vec *x, const kl_vec *y)
{
    double s = 0; for (size_t i = 0; i < x->len; i++) s += x->v[i] * y->v[i];
    return s;
}

void kl_scale(int n, double *a, double s)
{
    for (int i = 0; i < n; i++)
        a[i] *= s;
}

double kl_sum(int n, const double *a)
{
    static const double w[] = { 1.0, 1.0, 1.0, 1.0 };
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * w[i % (int)(sizeof w / sizeof w[0])];
    return s;
}
