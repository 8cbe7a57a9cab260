/*
 * fold_logic.c -- boolean folds: "all positive" with &&, "any above a
 * threshold" with ||, and a count of sign changes (a fold of a
 * comparison of neighbours).
 */
#include "probe.h"

static int all_positive(long n, const double *a)
{
    int ok = 1;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        ok = ok && a[i] > 0.0;
    return ok;
}

static int any_above(long n, const double *a, double t)
{
    int found = 0;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        found = found || a[i] > t;
    return found;
}

static long sign_changes(long n, const double *a)
{
    long c = 0;
    for (long i = 1; i < n; i++) // V:reduction I:reduction
        c += (a[i] < 0.5) != (a[i - 1] < 0.5);
    return c;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *a = probe_alloc(n);
    probe_fill(a, n, 33);
    printf("%d %d %d %ld\n", all_positive(n, a), any_above(n, a, 0.999),
           any_above(n, a, 2.0), sign_changes(n, a));
    free(a);
    return 0;
}
