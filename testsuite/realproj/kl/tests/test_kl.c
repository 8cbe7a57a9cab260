/* test_kl.c -- kl's own test program: prints every result, exits with the
 * number of failed checks (so a changed computation changes the exit code). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kl.h"

static int failed;

static void check(const char *what, int ok)
{
    printf("%-24s %s\n", what, ok ? "ok" : "FAILED");
    failed += !ok;
}

int main(int argc, char **argv)
{
    int n = 48 + argc - 1;
    kl_vec x, y;
    if (kl_vec_init(&x, (size_t)n, 1.0, 0.5) || kl_vec_init(&y, (size_t)n, 2.0, 0.25))
        return 99;
    kl_axpy(2.0, &x, &y);
    double d = kl_dot(&x, &y);
    printf("dot %.6f\n", d);
    check("dot", d > 0);
    kl_scale(n, x.v, 0.5);
    printf("sum %.6f\n", kl_sum(n, x.v));

    double *a = malloc(sizeof *a * (size_t)(n * n)), *b = malloc(sizeof *b * (size_t)(n * n));
    double *c = malloc(sizeof *c * (size_t)(n * n)), *t = malloc(sizeof *t * (size_t)(n * n));
    if (!a || !b || !c || !t)
        return 98;
    for (int i = 0; i < n * n; i++) {
        a[i] = (i % 7) - 3;
        b[i] = (i % 5) * 0.5;
    }
    kl_matmul(n, a, b, c);
    kl_transpose(n, c, t);
    printf("c[1][2] %.3f t[2][1] %.3f\n", c[1 * n + 2], t[2 * n + 1]);
    check("transpose", c[1 * n + 2] == t[2 * n + 1]);

    int data[100];
    unsigned bins[10];
    for (int i = 0; i < 100; i++)
        data[i] = (i * 37) % 101;
    unsigned out = kl_histogram(100, data, bins, 10);
    printf("hist %u %u %u out %u\n", bins[0], bins[5], bins[9], out);
    check("histogram", out == 0);
    printf("prefix %.3f\n", kl_prefix(n, y.v));
    int primes = kl_primes_below(1000);
    printf("primes %d\n", primes);
    check("primes", primes == 168);
    unsigned nums[40] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    printf("table %u\n", kl_table_size(nums, 100));

    int clamp[6] = { -5, 3, 12, 7, 0, 99 };
    printf("clamped %d\n", kl_clamp_all(6, clamp, 0, 10));

    FILE *f = tmpfile();
    if (!f)
        return 97;
    fputs("the quick brown\nfox jumps\n\tover the lazy dog\n", f);
    rewind(f);
    size_t lines, words = kl_count_words(f, &lines);
    fclose(f);
    printf("words %zu lines %zu\n", words, lines);
    check("words", words == 9 && lines == 3);
    printf("hash %lu\n", kl_hash("keel"));
    check("drain", kl_drain() == 6);

    free(a);
    free(b);
    free(c);
    free(t);
    kl_vec_free(&x);
    kl_vec_free(&y);
    return failed;
}
