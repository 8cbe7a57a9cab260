/*
 * count_chars.c -- systems-style string loops: counting one character in
 * a NUL-terminated string through a walking pointer, and turning ASCII
 * upper case to lower case in place over a known length.
 */
#include "probe.h"

static long count_char(const char *s, char c)
{
    long n = 0;
    while (*s) { // V:sequential I:reduction
        if (*s == c)
            n++;
        s++;
    }
    return n;
}

static void lower(char *s, long n)
{
    for (long i = 0; i < n; i++) // V:parallel I:stream S:s=1
        s[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] + 32) : s[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    int *code = probe_alloc_int(n);
    char *s = malloc((size_t)n + 1);
    if (!s) return 1;
    probe_fill_int(code, n, 21, 52);
    for (long i = 0; i < n; i++) // V:parallel I:stream
        s[i] = code[i] < 26 ? (char)('a' + code[i]) : (char)('A' + code[i] - 26);
    s[n] = '\0';
    long before = count_char(s, 'e');
    lower(s, n);
    printf("%ld %ld\n", before, count_char(s, 'e'));
    free(code); free(s);
    return 0;
}
