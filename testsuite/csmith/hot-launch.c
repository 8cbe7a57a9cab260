/*
 * hot-launch.c -- regression test for issue 15 (csmith seed 1059), reduced
 * by hand.
 *
 * The nest after `again:` is launched 200000 times by a goto loop; the goto
 * leaves it early, so it can never run on a GPU and keelcc puts no call
 * before it (seed 1059 spent most of its time in such calls).  fill's nest
 * has constant bounds (100 iterations: a nest of at most 64 gets no call
 * either): it is decided at its first launch only.  total's
 * nest needs n: decided again only when n changes.  With KEEL_VERBOSE=1
 * the program prints one verdict line per decision: none for line 38, one
 * for line 20, two for line 27.
 */
#include <stdio.h>

int a[128];

static void fill(int v)
{
    for (int j = 0; j < 100; j++)
        a[j] += v;
}

static long total(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

int main(void)
{
    unsigned k = 200000;
    long t = 0;
again:
    k--;
    for (int i = 0; i < 4; i++) {
        a[i] ^= (int)k;
        if (k && i == 3)
            goto again;
    }
    int r = 0;
    while (r < 1000) {
        fill(r & 3);
        t += total(5);
        r++;
    }
    t += total(6);
    printf("t = %ld a[3] = %d\n", t, a[3]);
    return 0;
}
