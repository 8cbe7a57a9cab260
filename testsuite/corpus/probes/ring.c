/*
 * ring.c -- a ring buffer: appending a block at head modulo the capacity
 * (distinct slots only while the block fits, which the loop does not
 * know), and reading back the last k samples in order.
 */
#include "probe.h"

static void ring_put(double *buf, long cap, long head, const double *x, long n)
{
    for (long i = 0; i < n; i++) // V:unknown I:stream
        buf[(head + i) % cap] = x[i];
}

static void ring_last(const double *buf, long cap, long head, double *out, long k)
{
    for (long i = 0; i < k; i++) // V:parallel I:stream S:out=1
        out[i] = buf[(head - k + i + cap) % cap];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long cap = large ? 4000000 : 1000, n = cap - cap / 4;
    double *buf = probe_alloc(cap), *x = probe_alloc(n), *out = probe_alloc(n);
    probe_fill(x, n, 92);
    ring_put(buf, cap, cap / 2, x, n);
    ring_last(buf, cap, (cap / 2 + n) % cap, out, n / 2);
    printf("%.9e %.9e\n", probe_sum(buf, cap), probe_sum(out, n));
    free(buf); free(x); free(out);
    return 0;
}
