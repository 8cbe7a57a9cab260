/*
 * test_expr_pack.c -- the binary form of expressions
 * (ipda/expr_pack.h): exact bytes, round trips, every truncation and
 * corruption refused (or, for a flipped byte that still spells a valid
 * form, an expression in canonical form that encodes back to those bytes);
 * kx_decode_in, in memory handed out in small chunks of garbage, agrees
 * with kx_decode on all of them and says when memory runs out.
 *
 *   test_expr_pack              the unit checks
 *   test_expr_pack FILE MIN     also every line of FILE (stored expression
 *                               texts): decode(encode(parse(t))) prints as
 *                               parse(t); at least MIN lines
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "expr_pack.h"

static int fails;

#define CHECK(cond, ...)                                 \
    do {                                                 \
        if (!(cond)) {                                   \
            printf("FAIL line %d: ", __LINE__);          \
            printf(__VA_ARGS__);                         \
            printf("\n");                                \
            fails++;                                     \
        }                                                \
    } while (0)

/* kx_decode_in's memory for the checks: chunks of 24 bytes at least (so
 * that most expressions need several), filled with 0xa5 rather than
 * zeroed (the decoder must set every member), the first `limit` granted
 * (then out of memory; -1: no limit). */
typedef struct {
    kx_mem m;
    unsigned char *chunk[4096];
    int n, limit;
} test_mem;

static int test_more(kx_mem *m, size_t n)
{
    test_mem *t = (test_mem *)m;
    size_t size = n > 24 ? n : 24;
    if (t->n == t->limit || t->n == 4096 || !(t->chunk[t->n] = malloc(size)))
        return -1;
    memset(t->chunk[t->n], 0xa5, size);
    m->p = t->chunk[t->n++];
    m->end = m->p + size;
    return 0;
}

static void test_mem_free(test_mem *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->chunk[i]);
    t->n = 0;
    t->m.p = t->m.end = NULL;
}

/* kx_decode_in over t: what kx_decode returns, in t's memory. */
static kx_expr *decode_in(test_mem *t, const void *b, size_t n, size_t *used, char *err,
                          size_t errlen, int limit)
{
    *t = (test_mem){ { NULL, NULL, test_more }, { NULL }, 0, limit };
    return kx_decode_in(b, n, used, &t->m, err, errlen);
}

/* kx_decode_in agrees with kx_decode on bytes[0..n): the same verdict,
 * bytes used and an equal expression (that kx_free leaves alone), or a
 * refusal with one message, the same one where `same` (bytes with one
 * fault: where there are several, kx_decode's first pass meets a later
 * one first). */
static void agree_in(const char *what, const void *bytes, size_t n, int same)
{
    char e1[256] = "", e2[256] = "";
    size_t u1 = 0, u2 = 0;
    test_mem t;
    kx_expr *a = kx_decode(bytes, n, &u1, e1, sizeof e1);
    kx_expr *b = decode_in(&t, bytes, n, &u2, e2, sizeof e2, -1);
    if (b)
        kx_free(b);                     /* (the caller's memory: a no-op) */
    if (!a != !b || (a && (u1 != u2 || !kx_equal(a, b))) ||
        (!a && (same ? strcmp(e1, e2) != 0 : !e2[0] || strchr(e2, '\n') != NULL))) {
        printf("FAIL: %s: kx_decode %s (%s), kx_decode_in %s (%s)\n", what,
               a ? "accepts" : "refuses", e1, b ? "accepts" : "refuses", e2);
        fails++;
    }
    kx_free(a);
    test_mem_free(&t);
}

/* The bytes of e, as hex pairs separated by blanks. */
static char *hex_of(const kx_expr *e)
{
    ku_buf b = { 0 }, h = { 0 };
    kx_encode(e, &b);
    for (size_t i = 0; i < b.len; i++)
        ku_buf_printf(&h, i ? " %02x" : "%02x", (unsigned char)b.s[i]);
    ku_buf_free(&b);
    return ku_buf_take(&h);
}

/* parse(text) encodes to `want` (hex) and decodes back to text. */
static void bytes_are(const char *text, const char *want)
{
    char err[256];
    kx_expr *e = kx_parse(text, err, sizeof err);
    if (!e) {
        printf("FAIL: %s does not parse: %s\n", text, err);
        fails++;
        return;
    }
    char *h = hex_of(e);
    if (!h || strcmp(h, want) != 0) {
        printf("FAIL: %s encodes as %s, want %s\n", text, h ? h : "(null)", want);
        fails++;
    }
    free(h);
    ku_buf b = { 0 };
    kx_encode(e, &b);
    size_t used = 0;
    kx_expr *d = kx_decode(b.s, b.len, &used, err, sizeof err);
    char *p = d ? kx_print(d) : NULL;
    if (!d || used != b.len || !kx_equal(d, e) || !p || strcmp(p, text) != 0) {
        printf("FAIL: %s decodes as %s (%zu of %zu bytes): %s\n", text, p ? p : "(null)",
               used, b.len, d ? "" : err);
        fails++;
    }
    free(p);
    kx_free(d);
    agree_in(text, b.s, b.len, 1);
    /* out of memory at each of its requests: refused, with that message */
    for (int limit = 0;; limit++) {
        test_mem t;
        err[0] = '\0';
        d = decode_in(&t, b.s, b.len, NULL, err, sizeof err, limit);
        int granted = t.n;
        test_mem_free(&t);
        if (d)
            break;
        if (!strstr(err, "out of memory") || granted != limit) {
            printf("FAIL: %s: out of memory after %d chunks: %s\n", text, limit, err);
            fails++;
            break;
        }
    }
    kx_free(e);
    ku_buf_free(&b);
}

/* Hex text to bytes (at most 64). */
static size_t unhex(const char *h, unsigned char *out)
{
    size_t n = 0;
    while (*h && n < 64) {
        out[n++] = (unsigned char)strtoul(h, (char **)&h, 16);
        while (*h == ' ')
            h++;
    }
    return n;
}

/* The bytes `hex` are refused with exactly `want`. */
static void refused(const char *hex, const char *want)
{
    unsigned char b[64];
    size_t n = unhex(hex, b);
    char err[256] = "";
    kx_expr *e = kx_decode(b, n, NULL, err, sizeof err);
    if (e || strcmp(err, want) != 0) {
        char *p = e ? kx_print(e) : NULL;
        printf("FAIL: %s: got %s / \"%s\", want \"%s\"\n", hex, p ? p : "NULL", err, want);
        free(p);
        fails++;
    }
    kx_free(e);
    agree_in(hex, b, n, 1);
}

/* Every prefix of e's bytes refused; every single flipped bit either
 * refused with one message or decoded into an expression that encodes to
 * exactly the flipped bytes (so it is canonical: unique form). */
static void hostile(const char *text)
{
    char err[256];
    kx_expr *e = kx_parse(text, err, sizeof err);
    ku_buf b = { 0 };
    if (!e)
        return;
    kx_encode(e, &b);
    unsigned char *c = malloc(b.len);
    for (size_t k = 0; c && k < b.len; k++) {
        err[0] = '\0';
        kx_expr *d = kx_decode(b.s, k, NULL, err, sizeof err);
        if (d || !strstr(err, "truncated") || strchr(err, '\n')) {
            printf("FAIL: %s: a prefix of %zu bytes: %s\n", text, k, d ? "accepted" : err);
            fails++;
        }
        kx_free(d);
        agree_in(text, b.s, k, 1);
        for (int bit = 0; bit < 8; bit++) {
            memcpy(c, b.s, b.len);
            c[k] ^= (unsigned char)(1u << bit);
            size_t used = 0;
            err[0] = '\0';
            agree_in(text, c, b.len, 0);
            d = kx_decode(c, b.len, &used, err, sizeof err);
            if (!d) {
                if (!err[0] || strchr(err, '\n')) {
                    printf("FAIL: %s: byte %zu bit %d: no message\n", text, k, bit);
                    fails++;
                }
                continue;
            }
            ku_buf again = { 0 };
            kx_encode(d, &again);
            if (again.len != used || memcmp(again.s, c, used) != 0) {
                printf("FAIL: %s: byte %zu bit %d: decoded a form that is not canonical\n",
                       text, k, bit);
                fails++;
            }
            ku_buf_free(&again);
            kx_free(d);
        }
    }
    free(c);
    ku_buf_free(&b);
    kx_free(e);
}

/* Every line of path: the round trip. */
static int stored_texts(const char *path, int min)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("FAIL: cannot read %s\n", path);
        return 1;
    }
    char **v = NULL, line[65536], err[256];
    int n = 0, parsed = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        size_t len = strlen(line) + 1;
        char *t = malloc(len);
        if (t)
            memcpy(t, line, len);
        if (!t || ku_push_ptr(&v, &n, t)) {
            free(t);
            fclose(f);
            printf("FAIL: out of memory\n");
            return 1;
        }
    }
    fclose(f);
    for (int i = 0; i < n; i++) {
        kx_expr *e = kx_parse(v[i], err, sizeof err), *d = NULL;
        if (!e)
            continue;                   /* the runtime reads it as unknown either way */
        parsed++;
        ku_buf b = { 0 };
        kx_encode(e, &b);
        size_t used = 0;
        d = kx_decode(b.s, b.len, &used, err, sizeof err);
        char *pe = kx_print(e), *pd = d ? kx_print(d) : NULL;
        if (!pe || !pd || strcmp(pe, pd) || used != b.len || !kx_equal(e, d)) {
            printf("FAIL: stored %s: parsed %s, decoded %s (%s)\n", v[i], pe ? pe : "-",
                   pd ? pd : "-", err);
            fails++;
        }
        free(pe), free(pd);
        kx_free(e), kx_free(d);
        ku_buf_free(&b);
    }
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
    CHECK(parsed >= min, "%d stored texts parse, want at least %d", parsed, min);
    printf("expr_pack: %d stored texts (%d parse) round-trip\n", n, parsed);
    return fails != 0;
}

/* kx_each_symbol's visitor: the names joined by ' ', stopping at "stop". */
static int join_sym(void *ctx, const char *name)
{
    ku_buf *b = ctx;
    if (!strcmp(name, "stop"))
        return 7;
    ku_buf_printf(b, "%s ", name);
    return 0;
}

static void each_symbol_checks(void)
{
    char err[128];
    kx_expr *e = kx_parse("max(n - 1, 0) + i*n + load.A(j, $\"s->n\")", err, sizeof err);
    ku_buf b = { 0 };
    CHECK(e && kx_each_symbol(e, join_sym, &b) == 0, "each symbol: %s", err);
    char *t = ku_buf_take(&b);
    CHECK(t && !strcmp(t, "i n n j s->n "), "symbols visited: %s", t ? t : "(null)");
    free(t);
    kx_free(e);
    e = kx_parse("a + stop + z", err, sizeof err);
    CHECK(e && kx_each_symbol(e, join_sym, &b) == 7, "a stop");
    free(ku_buf_take(&b));
    kx_free(e);
    CHECK(kx_each_symbol(NULL, join_sym, &b) == 0, "NULL");
}

int main(int argc, char **argv)
{
    each_symbol_checks();
    bytes_are("0", "00");
    bytes_are("1", "01 02 00");
    bytes_are("-1", "01 01 00");
    bytes_are("n", "01 02 01 00 01 01 6e");
    bytes_are("n^2", "01 02 01 00 02 01 6e");
    bytes_are("2*i*n + j - 1",
              "03 04 02 00 01 01 69 00 01 01 6e 02 01 00 01 01 6a 01 00");
    bytes_are("div(n, 2)", "01 02 01 01 01 01 02 01 00 01 01 6e 01 04 00");
    bytes_are("load.A(i)", "01 02 01 06 01 01 41 01 01 02 01 00 01 01 69");
    bytes_are("call.f()", "01 02 01 05 01 01 66 00");
    bytes_are("?\"x y\"", "01 02 01 07 01 03 78 20 79");
    bytes_are("$\"s->n\"", "01 02 01 00 01 04 73 2d 3e 6e");
    bytes_are("-9223372036854775808", "01 ff ff ff ff ff ff ff ff ff 01 00");
    bytes_are("64*n", "01 80 01 01 00 01 01 6e");
    bytes_are("min(i, n)", "01 02 01 03 01 01 02 01 00 01 01 69 01 02 01 00 01 01 6e");
    bytes_are("max(n - 1, 0)", "01 02 01 04 01 02 02 01 00 01 01 6e 01 00 00");

    refused("", "expression bytes: truncated at byte 0");
    refused("01 02 01 09 01 01 6e", "expression bytes: unknown atom kind at byte 3");
    refused("01 00 00", "expression bytes: zero coefficient at byte 2");
    refused("01 02 01 00 00 01 6e", "expression bytes: power out of range at byte 5");
    refused("01 02 01 00 01 00", "expression bytes: empty name at byte 6");
    refused("01 02 01 00 01 02 6e 00", "expression bytes: NUL in a name at byte 6");
    refused("01 02 01 05 01 01 31 00",
            "expression bytes: a call or load name that is not an identifier at byte 7");
    refused("02 02 01 00 01 01 6a 02 01 00 01 01 69",
            "expression bytes: terms or factors out of canonical order at byte 0");
    refused("01 02 02 00 01 01 6e 00 01 01 6d",
            "expression bytes: terms or factors out of canonical order at byte 0");
    refused("01 02 01 03 01 01 02 01 00 01 01 6e 01 02 01 00 01 01 69",
            "expression bytes: min or max operands out of order at byte 19");
    refused("01 ff ff ff ff ff ff ff ff ff 02 00", "expression bytes: number too long at byte 11");
    refused("7f 02 00", "expression bytes: truncated (a count beyond the bytes left) at byte 1");
    refused("01 02 7f 00",
            "expression bytes: truncated (a count beyond the bytes left) at byte 3");
    {
        /* div(div(...div(n, 2)..., 2), 2) nested 201 deep: refused; 200 taken */
        for (int depth = 200; depth <= 201; depth++) {
            ku_buf b = { 0 };
            for (int i = 0; i < depth; i++)
                ku_buf_putn(&b, "\x01\x02\x01\x01\x01", 5);
            ku_buf_putn(&b, "\x01\x02\x01\x00\x01\x01n", 7);
            for (int i = 0; i < depth; i++)
                ku_buf_putn(&b, "\x01\x04\x00", 3);
            char err[256] = "";
            kx_expr *e = kx_decode(b.s, b.len, NULL, err, sizeof err);
            CHECK(depth == 200 ? e != NULL
                               : !e && strstr(err, "nested too deep") != NULL,
                  "depth %d: %s", depth, err);
            kx_free(e);
            agree_in(depth == 200 ? "200 deep" : "201 deep", b.s, b.len, 1);
            ku_buf_free(&b);
        }
    }
    hostile("2*i*n + j - 1");
    hostile("max(n - 1, 0) + div(load.A(i, j + 1), 3)*m + ?\"a\\\"b\" + $\"s->n\"^3");
    if (argc == 3 && stored_texts(argv[1], atoi(argv[2])))
        return 1;
    if (fails)
        printf("%d failed\n", fails);
    else
        printf("expr_pack: all passed\n");
    return fails != 0;
}
