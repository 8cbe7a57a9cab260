/*
 * test_expr.c -- exact expected values for ipda/expr.h: construction,
 * algebra, canonical printing, folding of opaque atoms, substitution,
 * queries, evaluation (and each of its errors) and parse errors.
 */
#include "check.h"
#include "expr.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Printing consumes the expression, so checks can nest constructors. */
static char printed[4096];
static const char *P(kx_expr *e)
{
    char *s = kx_print(e);
    snprintf(printed, sizeof printed, "%s", s ? s : "(null)");
    free(s);
    kx_free(e);
    return printed;
}

/* print(parse(s)), or "ERR: message". */
static char reparsed[4096];
static const char *RP(const char *text)
{
    char err[200];
    kx_expr *e = kx_parse(text, err, sizeof err);
    if (!e) {
        snprintf(reparsed, sizeof reparsed, "ERR: %s", err);
        return reparsed;
    }
    char *s = kx_print(e);
    snprintf(reparsed, sizeof reparsed, "%s", s ? s : "(null)");
    free(s);
    kx_free(e);
    return reparsed;
}

static kx_expr *X(const char *text)
{
    return kx_parse(text, NULL, 0);
}

/* A binding: parallel arrays of names and values. */
typedef struct {
    const char **names;
    const int64_t *values;
    int n;
} binding;

static int lookup(void *ctx, const char *name, int64_t *value)
{
    binding *b = ctx;
    for (int i = 0; i < b->n; i++)
        if (strcmp(b->names[i], name) == 0) {
            *value = b->values[i];
            return 1;
        }
    return 0;
}

static const char *names[] = { "i", "j", "n", "m", "z", "big" };
static const int64_t values[] = { 3, -2, 10, 7, 0, INT64_MAX };
static binding env = { names, values, 6 };

static char evalmsg[256];
static int64_t evalval;
/* Evaluate text under env: 0 and evalval, or -1 and evalmsg. */
static int EV(const char *text)
{
    kx_expr *e = X(text);
    int rc = kx_eval(e, lookup, &env, &evalval, evalmsg, sizeof evalmsg);
    kx_free(e);
    return rc;
}

static void test_construction(void)
{
    CHECK_STR(P(kx_int(0)), "0");
    CHECK_STR(P(kx_int(-5)), "-5");
    CHECK_STR(P(kx_int(INT64_MIN)), "-9223372036854775808");
    CHECK_STR(P(kx_int(INT64_MAX)), "9223372036854775807");
    CHECK_STR(P(kx_sym("n")), "n");
    CHECK_STR(P(kx_sym("_x1")), "_x1");
    /* names that could not be parsed back become unknown text */
    CHECK_STR(P(kx_sym("a b")), "?\"a b\"");
    /* operator words are symbols where no '(' or '.' follows */
    CHECK_STR(P(kx_sym("max")), "max");
    CHECK_STR(P(kx_sym("call")), "call");
    {
        char e[128];
        kx_expr *m = kx_parse("max*a + load*2 - div", e, sizeof e);
        /* canonical order: degree first, then names */
        CHECK_STR(P(kx_copy(m)), "a*max - div + 2*load");
        kx_expr *mm = kx_parse("max(max, 3) + call.f(call)", e, sizeof e);
        /* opaque atoms order div, mod, min, max, call, load */
        CHECK_STR(P(kx_copy(mm)), "max(max, 3) + call.f(call)");
        kx_free(m);
        kx_free(mm);
    }
    CHECK_STR(P(kx_sym("")), "?\"\"");
    CHECK(kx_sym(NULL) == NULL);
    CHECK(kx_print(NULL) == NULL);

    kx_expr *n = kx_sym("n"), *two = kx_int(2), *i = kx_sym("i");
    kx_expr *args[2] = { n, two };
    CHECK_STR(P(kx_op(KX_DIV, NULL, 2, args)), "div(n, 2)");
    CHECK_STR(P(kx_op(KX_MOD, NULL, 2, args)), "mod(n, 2)");
    CHECK_STR(P(kx_op(KX_CALL, "f", 2, args)), "call.f(n, 2)");
    CHECK_STR(P(kx_op(KX_CALL, "f", 0, NULL)), "call.f()");
    CHECK_STR(P(kx_op(KX_LOAD, "A", 1, args)), "load.A(n)");
    CHECK_STR(P(kx_op(KX_UNKNOWN, "p->len", 0, NULL)), "?\"p->len\"");
    CHECK_STR(P(kx_op(KX_UNKNOWN, "say \"hi\"\\\n\t\x01", 0, NULL)),
              "?\"say \\\"hi\\\"\\\\\\n\\t\\001\"");
    /* ill-formed calls keep their information as unknown text */
    CHECK_STR(P(kx_op(KX_DIV, NULL, 1, args)), "?\"div(n)\"");
    CHECK_STR(P(kx_op(KX_CALL, "a b", 1, args)), "?\"call.a b(n)\"");
    CHECK_STR(P(kx_op(KX_CALL, NULL, 1, args)), "?\"call.(n)\"");
    /* a NULL operand (a failed allocation upstream) propagates */
    kx_expr *bad[2] = { n, NULL };
    CHECK(kx_op(KX_MIN, NULL, 2, bad) == NULL);
    CHECK(kx_add(n, NULL) == NULL);

    /* opaque atoms are atoms of the polynomial */
    kx_expr *d = kx_op(KX_DIV, NULL, 2, args);
    kx_expr *t = kx_mul(two, d), *one = kx_int(1);
    CHECK_STR(P(kx_add(t, one)), "2*div(n, 2) + 1");
    CHECK_STR(P(kx_mul(d, d)), "div(n, 2)^2");
    CHECK_STR(P(kx_mul(d, n)), "n*div(n, 2)");
    kx_expr *dn = kx_mul(d, n);
    CHECK_STR(P(kx_mul(i, dn)), "i*n*div(n, 2)");
    kx_free(dn);
    kx_free(t);
    kx_free(one);
    kx_free(d);
    kx_free(n);
    kx_free(two);
    kx_free(i);
}

static void test_algebra(void)
{
    kx_expr *a = X("i + 1"), *b = X("i - 1"), *c;
    CHECK_STR(P(kx_mul(a, b)), "i^2 - 1");
    CHECK_STR(P(kx_add(a, b)), "2*i");
    CHECK_STR(P(kx_sub(a, b)), "2");
    CHECK_STR(P(kx_sub(b, a)), "-2");
    CHECK_STR(P(kx_sub(a, a)), "0");
    CHECK_STR(P(kx_neg(a)), "-i - 1");
    CHECK_STR(P(kx_copy(a)), "i + 1");
    c = kx_mul(a, a);
    CHECK_STR(P(kx_mul(c, a)), "i^3 + 3*i^2 + 3*i + 1");
    kx_free(c);
    kx_free(a);
    kx_free(b);

    a = X("j + i");
    b = X("n");
    c = kx_mul(a, b);
    kx_expr *m1 = kx_int(-1);
    CHECK_STR(P(kx_add(c, m1)), "i*n + j*n - 1");
    kx_free(m1);
    kx_free(c);
    kx_free(a);
    kx_free(b);

    /* canonical order: degree first, then graded lexicographic, symbols
     * before opaque atoms, constant last */
    CHECK_STR(RP("1 + j + 2*n*i"), "2*i*n + j + 1");
    CHECK_STR(RP("3 - i"), "-i + 3");
    CHECK_STR(RP("n*n"), "n^2");
    CHECK_STR(RP("(i+j)*(i+j)"), "i^2 + 2*i*j + j^2");
    CHECK_STR(RP("div(n, 2) + n"), "n + div(n, 2)");
    CHECK_STR(RP("?\"x\" + load.A(i) + call.f(i) + max(i, j) + min(i, j) + mod(i, 2) + div(i, 2) + i"),
              "i + div(i, 2) + mod(i, 2) + min(i, j) + max(i, j) + call.f(i) + load.A(i) + ?\"x\"");
    CHECK_STR(RP("b*a*c + a*a*a + c"), "a^3 + a*b*c + c");
    CHECK_STR(RP("i*j^2 + i^2*j"), "i^2*j + i*j^2");
    CHECK_STR(RP("-1*n"), "-n");
    CHECK_STR(RP("2*3*n"), "6*n");
    CHECK_STR(RP("-(a+b)"), "-a - b");
    CHECK_STR(RP("-(-(a))"), "a");
    CHECK_STR(RP("(i+1)^2"), "i^2 + 2*i + 1");
    CHECK_STR(RP("n^2*n^3"), "n^5");
    CHECK_STR(RP("  2 *i*  n+j -1 "), "2*i*n + j - 1");
    CHECK_STR(RP("n*(m+1)^2"), "m^2*n + 2*m*n + n");

    /* coefficient overflow gives the unknown atom ?"overflow" */
    a = kx_int(INT64_MAX);
    b = kx_int(1);
    CHECK_STR(P(kx_add(a, b)), "?\"overflow\"");
    CHECK_STR(P(kx_mul(a, a)), "?\"overflow\"");
    kx_free(a);
    a = kx_int(INT64_MIN);
    CHECK_STR(P(kx_neg(a)), "?\"overflow\"");
    CHECK_STR(P(kx_sub(b, a)), "?\"overflow\"");
    CHECK_STR(P(kx_add(a, b)), "-9223372036854775807");
    kx_free(a);
    kx_free(b);

    /* an over-large product becomes ?"too large" */
    a = X("a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q+r+s+t+u+v+w+x+y+z");
    b = kx_mul(a, a);
    CHECK_INT(kx_degree(b, "q"), 2);
    CHECK_STR(P(kx_mul(b, b)), "?\"too large\"");
    kx_free(a);
    kx_free(b);

    /* long sums and product chains are fine (and fast) */
    char *buf = malloc(100000);
    size_t n = 0;
    for (int k = 0; k < 4000; k++)
        n += (size_t)snprintf(buf + n, 100000 - n, "%sx%d", k ? " + " : "", k);
    a = X(buf);
    CHECK(a != NULL);
    CHECK_INT(kx_degree(a, "x3999"), 1);
    kx_free(a);
    for (int k = 0; k < 3000; k++)
        buf[k] = k % 2 ? '*' : 'n';
    buf[2999] = '\0';
    CHECK_STR(RP(buf), "n^1500");
    n = 0;
    for (int k = 0; k < 3000; k++)
        n += (size_t)snprintf(buf + n, 100000 - n, "%sy%d", k ? "*" : "", k);
    a = X(buf);
    CHECK_INT(kx_degree(a, "y2999"), 1);
    kx_free(a);
    free(buf);
}

static void test_folding(void)
{
    CHECK_STR(RP("div(7, 2)"), "3");
    CHECK_STR(RP("div(-7, 2)"), "-3");       /* truncation, as in C */
    CHECK_STR(RP("mod(-7, 2)"), "-1");
    CHECK_STR(RP("mod(7, -2)"), "1");
    CHECK_STR(RP("div(7, 0)"), "div(7, 0)"); /* by zero stays opaque */
    CHECK_STR(RP("mod(n, 0)"), "mod(n, 0)");
    CHECK_STR(RP("div(-9223372036854775808, -1)"), "div(-9223372036854775808, -1)");
    CHECK_STR(RP("mod(-9223372036854775808, -1)"), "0");
    CHECK_STR(RP("div(n + 1, 1)"), "n + 1");
    CHECK_STR(RP("div(n + 1, -1)"), "-n - 1");
    CHECK_STR(RP("mod(n, 1)"), "0");
    CHECK_STR(RP("mod(n, -1)"), "0");
    CHECK_STR(RP("div(n, 2)"), "div(n, 2)");
    CHECK_STR(RP("div(2*n, 2)"), "div(2*n, 2)"); /* no rational reasoning */
    CHECK_STR(RP("min(3, 5)"), "3");
    CHECK_STR(RP("max(3, -5)"), "3");
    CHECK_STR(RP("min(n, n)"), "n");
    CHECK_STR(RP("max(div(n,2), div(n,2))"), "div(n, 2)");
    CHECK_STR(RP("min(n + 1, n)"), "n");
    CHECK_STR(RP("max(n + 1, n)"), "n + 1");
    CHECK_STR(RP("min(n, m)"), "min(m, n)");   /* commutative: sorted */
    CHECK_STR(RP("min(m, n)"), "min(m, n)");
    CHECK_STR(RP("max(0, n)"), "max(n, 0)");
    CHECK_STR(RP("min(2*n, n)"), "min(n, 2*n)");
    CHECK_STR(RP("div(div(12, 2), 4)"), "1");
    CHECK_STR(RP("div(i, 2)^2"), "div(i, 2)^2");
    CHECK_STR(RP("div(6, 2)^2"), "9");
}

static void test_subst(void)
{
    kx_expr *e = X("2*i*n + i + j"), *v = X("k + 1"), *ten = kx_int(10);
    CHECK_STR(P(kx_subst(e, "i", v)), "2*k*n + j + k + 2*n + 1");
    CHECK_STR(P(kx_subst(e, "n", ten)), "21*i + j");
    CHECK_STR(P(kx_subst(e, "zz", ten)), "2*i*n + i + j");
    kx_free(e);

    e = X("div(n, 2) + mod(n, 3)*m");
    CHECK_STR(P(kx_subst(e, "n", ten)), "m + 5");
    CHECK_STR(P(kx_subst(e, "n", v)), "m*mod(k + 1, 3) + div(k + 1, 2)");
    kx_free(e);

    e = X("min(n, m) + call.f(n) + load.A(n, i)");
    CHECK_STR(P(kx_subst(e, "m", v)), "min(k + 1, n) + call.f(n) + load.A(n, i)");
    CHECK_STR(P(kx_subst(e, "n", ten)), "min(m, 10) + call.f(10) + load.A(10, i)");
    kx_free(e);

    e = X("min(n, n + m)");
    kx_expr *z = kx_int(0);
    CHECK_STR(P(kx_subst(e, "m", z)), "n");           /* re-folded */
    kx_free(z);
    kx_free(e);

    e = X("n^3 - 1");
    CHECK_STR(P(kx_subst(e, "n", v)), "k^3 + 3*k^2 + 3*k");
    CHECK_STR(P(kx_subst(e, "n", ten)), "999");
    kx_free(e);

    e = X("n^2");
    kx_expr *huge = kx_int(INT64_MAX);
    CHECK_STR(P(kx_subst(e, "n", huge)), "?\"overflow\"");
    kx_free(huge);
    kx_free(e);
    kx_free(v);
    kx_free(ten);
}

static void test_queries(void)
{
    kx_expr *e = X("2*i*n + i + j + i^2*m + div(i, 2)");
    int64_t v = 99;

    CHECK_STR(P(kx_coeff(e, "i")), "2*n + 1");
    CHECK_STR(P(kx_coeff(e, "j")), "1");
    CHECK_STR(P(kx_coeff(e, "n")), "2*i");
    CHECK_STR(P(kx_coeff(e, "m")), "i^2");
    CHECK_STR(P(kx_coeff(e, "q")), "0");
    CHECK_STR(P(kx_coeff_pow(e, "i", 2)), "m");
    CHECK_STR(P(kx_coeff_pow(e, "i", 3)), "0");
    CHECK_STR(P(kx_coeff_pow(e, "m", 0)), "2*i*n + i + j + div(i, 2)");
    {
        kx_expr *f = X("i*n^2 + j*n + n^2 + k - 1");
        CHECK_STR(P(kx_coeff_pow(f, "n", 2)), "i + 1");
        CHECK_STR(P(kx_coeff_pow(f, "n", 1)), "j");
        CHECK_STR(P(kx_coeff_pow(f, "n", 0)), "k - 1");
        kx_free(f);
    }
    CHECK_INT(kx_degree(e, "i"), 2);
    CHECK_INT(kx_degree(e, "n"), 1);
    CHECK_INT(kx_degree(e, "q"), 0);
    CHECK(kx_mentions(e, "i"));
    CHECK(kx_mentions(e, "m"));
    CHECK(!kx_mentions(e, "q"));
    CHECK(kx_has_opaque(e));
    CHECK(!kx_is_affine(e));
    CHECK(!kx_is_const(e, &v));
    CHECK_INT(v, 99);
    CHECK(!kx_is_zero(e));

    char **names;
    int n = kx_symbols(e, &names);
    CHECK_INT(n, 4);
    if (n == 4) {
        CHECK_STR(names[0], "i");
        CHECK_STR(names[1], "j");
        CHECK_STR(names[2], "m");
        CHECK_STR(names[3], "n");
    }
    kx_free_names(names, n);
    kx_free(e);

    /* coefficients with several terms come out sorted */
    e = X("a*x + x*z + b*x + x^2");
    CHECK_STR(P(kx_coeff(e, "x")), "a + b + z");
    kx_free(e);

    /* mentions and symbols look inside opaque operands; degree does not */
    e = X("div(k, 2) + call.f(q, load.A(p)) + k");
    CHECK(kx_mentions(e, "p"));
    CHECK(kx_mentions(e, "q"));
    CHECK_INT(kx_degree(e, "q"), 0);
    CHECK_INT(kx_degree(e, "k"), 1);
    n = kx_symbols(e, &names);
    CHECK_INT(n, 3);
    if (n == 3) {
        CHECK_STR(names[0], "k");
        CHECK_STR(names[1], "p");
        CHECK_STR(names[2], "q");
    }
    kx_free_names(names, n);
    kx_free(e);

    e = X("7");
    n = kx_symbols(e, &names);
    CHECK_INT(n, 0);
    CHECK(names == NULL);
    CHECK(kx_is_const(e, &v));
    CHECK_INT(v, 7);
    CHECK(kx_is_affine(e));
    CHECK(!kx_has_opaque(e));
    kx_free(e);

    e = X("0");
    CHECK(kx_is_zero(e));
    CHECK(kx_is_const(e, &v));
    CHECK_INT(v, 0);
    kx_free(e);

    e = X("2*i + 3*j - n + 4");
    CHECK(kx_is_affine(e));
    kx_free(e);
    e = X("i*j");
    CHECK(!kx_is_affine(e));                 /* degree 1 in each, not affine */
    kx_free(e);
    e = X("i^2");
    CHECK(!kx_is_affine(e));
    kx_free(e);

    /* equality and order */
    kx_expr *a = X("n + 1"), *b = X("1 + n"), *c = X("n + 2");
    CHECK(kx_equal(a, b));
    CHECK(!kx_equal(a, c));
    CHECK_INT(kx_compare(a, b), 0);
    CHECK(kx_compare(a, c) < 0);
    CHECK(kx_compare(c, a) > 0);
    CHECK(kx_compare(NULL, a) < 0);
    CHECK(kx_equal(NULL, NULL));
    kx_free(a);
    kx_free(b);
    kx_free(c);
}

static void test_eval(void)
{
    CHECK_INT(EV("2*i*n + j - 1"), 0);
    CHECK_INT(evalval, 57);
    CHECK_INT(EV("i^3"), 0);
    CHECK_INT(evalval, 27);
    CHECK_INT(EV("div(j - 5, 2)"), 0);       /* -7 / 2 truncates */
    CHECK_INT(evalval, -3);
    CHECK_INT(EV("mod(j - 5, 2)"), 0);
    CHECK_INT(evalval, -1);
    CHECK_INT(EV("min(i, j) + max(i, n)"), 0);
    CHECK_INT(evalval, 8);
    CHECK_INT(EV("0"), 0);
    CHECK_INT(evalval, 0);
    CHECK_INT(EV("big"), 0);
    CHECK_INT(evalval, INT64_MAX);
    CHECK_INT(EV("z^1000000"), 0);
    CHECK_INT(evalval, 0);
    CHECK_INT(EV("mod(-9223372036854775808, big - big - 1)"), 0);
    CHECK_INT(evalval, 0);

    CHECK_INT(EV("n + q"), -1);
    CHECK_STR(evalmsg, "unbound symbol 'q'");
    CHECK_INT(EV("div(n, z)"), -1);
    CHECK_STR(evalmsg, "division by zero in div(n, z)");
    CHECK_INT(EV("mod(n, z)"), -1);
    CHECK_STR(evalmsg, "division by zero in mod(n, z)");
    CHECK_INT(EV("call.f(n) + 1"), -1);
    CHECK_STR(evalmsg, "cannot evaluate call.f(n)");
    CHECK_INT(EV("load.A(i, j)"), -1);
    CHECK_STR(evalmsg, "cannot evaluate load.A(i, j)");
    CHECK_INT(EV("?\"x->y\""), -1);
    CHECK_STR(evalmsg, "cannot evaluate ?\"x->y\"");
    CHECK_INT(EV("big + 1"), -1);
    CHECK_STR(evalmsg, "int64 overflow in a sum");
    CHECK_INT(EV("2*big"), -1);
    CHECK_STR(evalmsg, "int64 overflow in 2*big");
    CHECK_INT(EV("n^19"), -1);
    CHECK_STR(evalmsg, "int64 overflow in n^19");
    CHECK_INT(EV("n^18"), 0);
    CHECK_INT(evalval, 1000000000000000000);
    CHECK_INT(EV("div(-9223372036854775808, n - 11)"), -1);
    CHECK_STR(evalmsg, "int64 overflow in div(-9223372036854775808, n - 11)");

    /* no lookup at all: every symbol is unbound; a short buffer truncates */
    kx_expr *e = X("n");
    char small[8];
    int64_t v;
    CHECK_INT(kx_eval(e, NULL, NULL, &v, small, sizeof small), -1);
    CHECK_STR(small, "unbound");
    CHECK_INT(kx_eval(e, NULL, NULL, &v, NULL, 0), -1);
    kx_free(e);
}

static void test_parse_errors(void)
{
    static const struct { const char *text, *msg; } cases[] = {
        { "", "unexpected end of input at offset 0" },
        { "   ", "unexpected end of input at offset 3" },
        { "1 +", "unexpected end of input at offset 3" },
        { "((", "unexpected end of input at offset 2" },
        { "(1", "expected ')' at offset 2" },
        { "div(1)", "expected ',' at offset 5" },
        { "div(1, 2, 3)", "expected ')' at offset 8" },
        { "div 1", "unexpected '1' at offset 4" },     /* the symbol div, then 1 */
        { "call(1)", "unexpected '(' at offset 4" },   /* the symbol call, then ( */
        { "call.(1)", "expected a name at offset 5" },
        { "load.1(1)", "expected a name at offset 5" },
        { "call.f(1,)", "expected a number, a symbol or '(' at offset 9" },
        { "n^", "expected exponent at offset 2" },
        { "n^0", "exponent must be at least 1 at offset 2" },
        { "n^2147483648", "exponent out of range at offset 2" },
        { "2^3", "unexpected '^' at offset 1" },
        { "99999999999999999999", "integer literal out of range at offset 0" },
        { "9223372036854775808", "integer literal out of range at offset 0" },
        { "1 - -1", "expected a number, a symbol or '(' at offset 4" },
        { "9223372036854775807 + 1", "integer overflow at offset 0" },
        { "n + 2*(9223372036854775807 + 1)", "integer overflow at offset 7" },
        { "n*(4611686018427387904*2)", "integer overflow at offset 3" },
        { "(a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q+r+s+t+u+v+w+x+y+z)^4", "expression too large at offset 0" },
        { "(i+j)^100", "integer overflow at offset 0" },
        { "-(-9223372036854775808)", "integer overflow at offset 1" },
        { "?\"unterminated", "unterminated string at offset 1" },
        { "?x", "expected '\"' at offset 1" },
        { "?\"a\\q\"", "bad escape in string at offset 3" },
        { "?\"a\\0\"", "NUL byte in string at offset 3" },
        { "?\"\\777\"", "bad escape in string at offset 2" },
        { "a b", "unexpected 'b' at offset 2" },
        { "n)", "unexpected ')' at offset 1" },
        { "n\x01", "unexpected byte 0x01 at offset 1" },
        { "s.x", "unexpected '.' at offset 1" },
        { "+n", "expected a number, a symbol or '(' at offset 0" },
        { "2**n", "expected a number, a symbol or '(' at offset 2" },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char err[128];
        memset(err, 'x', sizeof err);
        kx_expr *e = kx_parse(cases[k].text, err, sizeof err);
        CHECK(e == NULL);
        kx_free(e);
        CHECK_STR(err, cases[k].msg);
    }

    /* nesting: 200 levels parse, 201 do not */
    char deep[512];
    memset(deep, '(', 199);
    deep[199] = 'n';
    memset(deep + 200, ')', 199);
    deep[399] = '\0';
    CHECK_STR(RP(deep), "n");
    memset(deep, '(', 200);
    deep[200] = 'n';
    memset(deep + 201, ')', 200);
    deep[401] = '\0';
    CHECK_STR(RP(deep), "ERR: nesting deeper than 200 levels at offset 200");

    /* a tiny or absent error buffer is fine */
    char tiny[4];
    CHECK(kx_parse("(", tiny, sizeof tiny) == NULL);
    CHECK_STR(tiny, "une");
    CHECK(kx_parse("(", NULL, 0) == NULL);
    CHECK(kx_parse(NULL, tiny, sizeof tiny) == NULL);
}

static void test_text_round_trip(void)
{
    static const char *const printed_forms[] = {
        "0", "1", "-1", "n", "-n", "2*i*n + j - 1", "n^2", "-i + 3",
        "i^2 - 1", "2*div(n, 2) + 1", "div(n, 2)", "mod(-n, 3)",
        "min(m, n)", "max(n, 0)", "call.f()", "call.f(i, j + 1)",
        "load.A(i, j)", "load.A(load.B(i))", "?\"\"", "?\"a\\\"b\\\\c\\n\\t\\r\\001\\177\"",
        "?\"\xc3\xa9t\xc3\xa9\"", "-9223372036854775808", "9223372036854775807",
        "-9223372036854775808*n + 9223372036854775807",
        "n - 9223372036854775808", "i^2147483647", "x*?\"overflow\"",
        "call.div(n)", "div(mod(i, 4), min(n, max(i, 0)))^3 - 2*call.g(i^2)",
        "div(1, 0)", "div(-9223372036854775808, -1)",
    };
    for (size_t k = 0; k < sizeof printed_forms / sizeof *printed_forms; k++)
        CHECK_STR(RP(printed_forms[k]), printed_forms[k]);

    /* escapes a human may write come back in the printed spelling */
    CHECK_STR(RP("?\"\\x41\\101\\'\\?\\a\""), "?\"AA'?\\007\"");
}

static int named_lookup(void *ctx, const char *name, int64_t *value)
{
    (void)ctx;
    if (strcmp(name, "s->n") == 0)
        return *value = 40, 1;
    if (strcmp(name, "n") == 0)
        return *value = 7, 1;
    return 0;
}

/* Named values: any text, a symbol in every respect, $"..." in text form. */
static void test_named(void)
{
    char err[128], *t;
    int64_t v = 0;
    kx_expr *a = kx_named("s->n"), *n = kx_sym("n"), *one = kx_int(1);
    kx_expr *an = kx_add(a, n), *e = kx_sub(an, one);
    kx_free(an);
    CHECK_STR(t = kx_print(e), "n + $\"s->n\" - 1");
    free(t);
    CHECK_INT(kx_eval(e, named_lookup, NULL, &v, err, sizeof err), 0);
    CHECK_INT(v, 46);
    CHECK(kx_mentions(e, "s->n"));
    kx_expr *p = kx_parse("2*$\"grid_points[0]\" - 1", err, sizeof err);
    CHECK_STR(t = kx_print(p), "2*$\"grid_points[0]\" - 1");
    free(t);
    char **names = NULL;
    CHECK_INT(kx_symbols(p, &names), 1);
    CHECK_STR(names[0], "grid_points[0]");
    kx_free_names(names, 1);
    kx_expr *plain = kx_named("n");   /* an identifier is the plain symbol */
    CHECK(kx_equal(plain, n));
    CHECK(kx_parse("$\"\"", err, sizeof err) == NULL);
    CHECK(kx_parse("$x", err, sizeof err) == NULL);
    kx_free(plain);
    kx_free(p);
    kx_free(a);
    kx_free(n);
    kx_free(one);
    kx_free(e);
}

/* The CSR row sum: sum over j = 1 .. m of rowstr(j + 1) - rowstr(j). */
static void test_telescope(void)
{
    char err[128], *t;
    kx_expr *row = kx_parse("load.rowstr(j + 1) - load.rowstr(j)", err, sizeof err);
    kx_expr *lo = kx_int(1), *hi = kx_parse("m + 1", err, sizeof err), *sum = NULL;
    CHECK_INT(kx_telescope(row, "j", lo, hi, &sum), 1);
    CHECK_STR(t = kx_print(sum), "load.rowstr(m + 1) - load.rowstr(1)");
    free(t);
    kx_free(sum);
    /* offsets: a[2*k + j + 4] - a[2*k + j + 3] over j in [0, n) */
    kx_expr *off = kx_parse("load.a(2*k + j + 4) - load.a(2*k + j + 3)", err, sizeof err);
    kx_expr *z = kx_int(0), *n = kx_sym("n");
    CHECK_INT(kx_telescope(off, "j", z, n, &sum), 1);
    CHECK_STR(t = kx_print(sum), "load.a(2*k + n + 3) - load.a(2*k + 3)");
    free(t);
    kx_free(sum);
    /* not telescoping: a gap of 2, two arrays, a stride of 2, a bound in j */
    const char *no[] = { "load.r(j + 2) - load.r(j)", "load.r(j + 1) - load.s(j)",
                         "load.r(2*j + 1) - load.r(2*j)", "load.r(j + 1) + load.r(j)",
                         "n - j" };
    for (size_t i = 0; i < sizeof no / sizeof *no; i++) {
        kx_expr *e = kx_parse(no[i], err, sizeof err);
        sum = NULL;
        CHECK_INT(kx_telescope(e, "j", z, n, &sum), 0);
        CHECK(sum == NULL);
        kx_free(e);
    }
    kx_expr *j = kx_sym("j");
    CHECK_INT(kx_telescope(row, "j", j, n, &sum), 0);
    kx_free(j);
    kx_free(off);
    kx_free(z);
    kx_free(n);
    kx_free(row);
    kx_free(lo);
    kx_free(hi);
}

/* Ranges for test_range: i in [0, 9], j in [2, 5], n = 10, ub = 3. */
static int range_of(void *ctx, const char *name, int64_t *lo, int64_t *hi)
{
    (void)ctx;
    static const struct { const char *n; int64_t lo, hi; } r[] = {
        { "i", 0, 9 }, { "j", 2, 5 }, { "n", 10, 10 }, { "ub", 3, 3 }, { "m", -4, 7 } };
    for (size_t k = 0; k < sizeof r / sizeof *r; k++)
        if (!strcmp(r[k].n, name)) {
            *lo = r[k].lo;
            *hi = r[k].hi;
            return 1;
        }
    return 0;
}

/* [lo, hi] of text under range_of, or -1 -1 with the error kept. */
static char range_err[200];
static void R(const char *text, int64_t *lo, int64_t *hi)
{
    char err[200];
    kx_expr *e = kx_parse(text, err, sizeof err);
    *lo = *hi = -1;
    range_err[0] = '\0';
    if (!e || kx_eval_range(e, range_of, NULL, lo, hi, range_err, sizeof range_err)) {
        *lo = *hi = -1;
        if (!e)
            snprintf(range_err, sizeof range_err, "%s", err);
    }
    kx_free(e);
}

static void test_range(void)
{
    /* each expected pair worked by hand from the ranges in range_of */
    static const struct { const char *e; int64_t lo, hi; } ok[] = {
        { "n - i", 1, 10 },                 /* 10 - [0, 9] */
        { "n - max(0, j - ub)", 8, 10 },    /* j - 3 in [-1, 2], max(0, .) in [0, 2] */
        { "min(i, j)", 0, 5 },              /* [min(0,2), min(9,5)] */
        { "max(i, j) + 1", 3, 10 },
        { "i*j", 0, 45 },
        { "i^2 - i", -9, 81 },              /* i taken twice, independently: a bound */
        { "m^2", -28, 49 },                 /* [-4,7]*[-4,7]: -4*7 .. 7*7 */
        { "div(i + 1, 2)", 0, 5 },          /* 1/2 .. 10/2 */
        { "div(n, j)", 2, 5 },              /* 10/5 .. 10/2 */
        { "div(m, -2)", -3, 2 },            /* -4/-2 = 2, 7/-2 = -3 */
        { "mod(i, 4)", 0, 3 },
        { "mod(m, j)", -4, 4 },             /* |m % j| <= 4, sign of m */
        { "7", 7, 7 },
    };
    int64_t lo, hi;
    for (size_t k = 0; k < sizeof ok / sizeof *ok; k++) {
        R(ok[k].e, &lo, &hi);
        CHECK_INT(lo, ok[k].lo);
        CHECK_INT(hi, ok[k].hi);
        CHECK_STR(range_err, "");
    }
    static const struct { const char *e, *err; } bad[] = {
        { "load.m3(i)", "cannot bound load.m3(i)" },
        { "call.f(i)", "cannot bound call.f(i)" },
        { "n - ?\"r->len\"", "cannot bound ?\"r->len\"" },
        { "n - q", "unbound symbol 'q'" },
        { "div(n, m)", "a divisor whose range holds 0" },
        { "i*9223372036854775807", "int64 overflow in a product" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        R(bad[k].e, &lo, &hi);
        CHECK_INT(lo, -1);
        CHECK_STR(range_err, bad[k].err);
    }
    /* which trip counts are bounded rather than averaged */
    static const struct { const char *e; int want; } pw[] = {
        { "n - max(i - ub, 0)", 1 }, { "min(i, m)", 1 }, { "mod(i, 4)", 1 },
        { "div(n - i + 1, 2)", 0 }, { "n - i", 0 }, { "div(n, i)", 1 },
        { "div(min(i, n), 2)", 1 }, { "max(n, m) - i", 0 }, { "load.a(i)", 1 },
    };
    char perr[200];
    for (size_t k = 0; k < sizeof pw / sizeof *pw; k++) {
        kx_expr *e = kx_parse(pw[k].e, perr, sizeof perr);
        CHECK_INT(kx_piecewise_in(e, "i"), pw[k].want);
        kx_free(e);
    }
    CHECK_INT(kx_eval_range(NULL, range_of, NULL, &lo, &hi, range_err, sizeof range_err), -1);
    CHECK_STR(range_err, "no expression");
}

int main(void)
{
    test_construction();
    test_algebra();
    test_folding();
    test_subst();
    test_queries();
    test_eval();
    test_parse_errors();
    test_text_round_trip();
    test_named();
    test_telescope();
    test_range();
    return check_summary();
}
