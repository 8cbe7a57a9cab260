/*
 * unreachable-path.c -- regression test for issue 15 (csmith seeds 5079,
 * 5343), reduced by hand.
 *
 * The loop over x never ends (x is 0 or an unsigned short, never <= -13)
 * and has no side effects, so C11 6.8.5p6 lets the compiler assume it
 * terminates: clang -O1 treats the whole `if (g)` branch as unreachable and
 * drops it, and the plain build prints "g = 1".  keelcc used to put an
 * opaque keel_decide call before the nest over l; clang kept the path up
 * to that call, and execution then ran off the end of main (SIGSEGV).
 * The instrumented build must print what the plain build prints.
 */
#include <stdio.h>

int g = 1;

static int step(int x)
{
    return (unsigned short)(x - 3);
}

int main(void)
{
    int l[2];
    if (g) {
        for (int i = 0; i < 2; i++)
            l[i] = 0;
        for (int x = 0; x > -13; x = step(x))
            ;
        g = l[1];
    }
    printf("g = %d\n", g);
    return 0;
}
