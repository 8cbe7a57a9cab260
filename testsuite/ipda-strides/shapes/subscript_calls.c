/* Calls inside subscripts: a call that may write through its argument
 * (a random-number generator stepping its seed) stops the dependence
 * test wherever it sits, in a subscript too; a math function or abs()
 * there reads only its arguments. */
#include <math.h>
#include <stdlib.h>

unsigned long ext_rng(unsigned long *s);

static unsigned long lcg(unsigned long *s)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return *s >> 33;
}

void deal(int n, int m, int *h, unsigned long *seed)
{
    for (int i = 0; i < n; i++) // V:unknown
        h[ext_rng(seed) % m]++;
}

void deal_local(int n, int m, int *h, unsigned long *seed)
{
    for (int i = 0; i < n; i++) // V:unknown
        h[lcg(seed) % m] += 1;
}

void fold_in(int n, const double *x, double *y)
{
    for (int i = 0; i < n; i++) // V:parallel I:stream
        y[i] = x[abs(i - n / 2)];
}

void bin_floor(int n, const double *x, int *h)
{
    for (int i = 0; i < n; i++) // V:reduction I:histogram
        h[(int)floor(x[i])] += 1;
}
