/*
 * unescape.c -- loops that move their own induction variable: dropping
 * backslash escapes from a text (i++ in the body when a backslash is
 * seen), and summing adjacent pairs with the step written in the body.
 */
#include "probe.h"

static long unescape(const char *s, long n, char *out)
{
    long k = 0;
    for (long i = 0; i < n; i++) { // V:sequential I:reduction
        if (s[i] == '\\' && i + 1 < n)
            i++;
        out[k++] = s[i];
    }
    return k;
}

/* n even: c[i/2] = a[i] + a[i+1], stepping two at a time */
static void pair_sums(double *c, const double *a, long n)
{
    for (long i = 0; i < n; i++) { // V:parallel I:stream
        c[i / 2] = a[i] + a[i + 1];
        i++;
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    char *s = malloc((size_t)n), *o = malloc((size_t)n);
    int *code = probe_alloc_int(n);
    double *a = probe_alloc(n), *c = probe_alloc(n / 2);
    if (!s || !o) return 1;
    probe_fill_int(code, n, 12, 40);
    for (long i = 0; i < n; i++) // V:parallel I:stream
        s[i] = code[i] == 0 ? '\\' : (char)('a' + code[i] % 26);
    long k = unescape(s, n, o);
    long h = 0;
    for (long i = 0; i < k; i++) // V:sequential I:reduction
        h = h * 31 % 1000003 + o[i];
    probe_fill(a, n, 13);
    pair_sums(c, a, n);
    printf("%ld %ld %.9e\n", k, h, probe_sum(c, n / 2));
    free(s); free(o); free(code); free(a); free(c);
    return 0;
}
