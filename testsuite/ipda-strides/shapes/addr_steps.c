/* Writes through an object's address (calls, C11 and GNU atomics), steps
 * that may be 0, diagonals and rows of a flattened matrix, loops whose
 * condition reads what the body sets, and fmax folds over calls. */
#include <math.h>
#include <stdatomic.h>

void keep(double *p, double v);

void scaled_update(long n, double a, const double *x, double *y, long inc)
{
    for (long i = 0; i < n; i++) // V:reduction
        y[i * inc] += a * x[i];
}

void scaled_store(long n, const double *x, double *y, long inc)
{
    for (long i = 0; i < n; i++) // V:unknown
        y[i * inc] = x[i];
}

void c11_histogram(long n, const int *k, _Atomic long *h)
{
    for (long i = 0; i < n; i++) // V:reduction
        atomic_fetch_add_explicit(&h[k[i]], 1, memory_order_relaxed);
}

long gnu_counter(long n, const double *a)
{
    long count = 0;
    for (long i = 0; i < n; i++) // V:reduction
        if (a[i] > 0.5)
            __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
    return count;
}

void tickets(long n, _Atomic long *next, long *out)
{
    for (long i = 0; i < n; i++) { // V:sequential
        long t = atomic_fetch_add(next, 1);
        out[t] = i;
    }
}

long atomic_reads(long n, _Atomic long *h)
{
    long s = 0;
    for (long i = 0; i < n; i++) // V:reduction
        s += atomic_load(&h[i]);
    return s;
}

void by_address(long n, const double *a, double *s)
{
    double acc = 0.0;
    for (long i = 0; i < n; i++) // V:unknown
        keep(&acc, a[i]);
    *s = acc;
}

void diagonal(long n, double *a)
{
    for (long i = 0; i < n; i++) // V:parallel
        a[i * n + i] += 1.0;
}

void eliminate(long n, double *a)
{
    for (long k = 0; k < n; k++) // V:sequential
        for (long i = k + 1; i < n; i++) { // V:parallel
            double f = a[i * n + k] / a[k * n + k];
            a[i * n + k] = f;
            for (long j = k + 1; j < n; j++) // V:parallel
                a[i * n + j] -= f * a[k * n + j];
        }
}

long bisect(long n, const double *a, double x)
{
    long lo = 0, hi = n;
    while (lo < hi) { // V:sequential
        long mid = lo + (hi - lo) / 2;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

double max_abs_diff(long n, const double *a, const double *b)
{
    double m = 0.0;
    for (long i = 0; i < n; i++) // V:reduction
        m = fmax(m, fabs(a[i] - b[i]));
    return m;
}
