/*
 * test_expr_props.c -- property tests for ipda/expr.h with a fixed-seed
 * PRNG (the same cases on every run).
 *
 * Each round draws a binding of the symbols i, j, m, n to small values and
 * generates random expression texts with their values under that binding
 * computed directly (an oracle independent of expr.c), opaque atoms
 * included.  It then checks:
 *   - the text parses, and eval of the result equals the oracle's value;
 *   - print(parse(print(e))) == print(e) and the reparsed form is kx_equal;
 *   - (a+b)-b == a, a+b == b+a, a*b == b*a, a*(b+c) == a*b + a*c,
 *     (a*b)*c == a*(b*c), a-a == 0, -(-a) == a;
 *   - kx_compare is antisymmetric and 0 exactly when the printed forms agree;
 *   - eval(a+b) == eval(a)+eval(b) and eval(a*b) == eval(a)*eval(b);
 *   - substituting every symbol by its value gives the constant eval gives,
 *     and substituting a symbol by an expression p evaluates like binding
 *     the symbol to eval(p);
 *   - for expressions without opaque atoms and of degree <= 1 in x,
 *     e == subst(e, x, 0) + coeff(e, x)*x.
 */
#include "check.h"
#include "expr.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 3000

/* splitmix64, fixed seed */
static uint64_t rng_state = 0x6b65656c2d697064ull;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int rnd_range(int lo, int hi)
{
    return lo + (int)(rnd() % (uint64_t)(hi - lo + 1));
}

static const char *const syms[] = { "i", "j", "m", "n" };
static int64_t vals[4];

static int lookup(void *ctx, const char *name, int64_t *value)
{
    (void)ctx;
    for (int k = 0; k < 4; k++)
        if (strcmp(syms[k], name) == 0) {
            *value = vals[k];
            return 1;
        }
    return 0;
}

/* ---- generator: text plus its value under vals ---------------------- */

typedef struct {
    char buf[8192];
    size_t n;
} text;

static void put(text *t, const char *s)
{
    size_t k = strlen(s);
    if (t->n + k < sizeof t->buf) {
        memcpy(t->buf + t->n, s, k);
        t->n += k;
        t->buf[t->n] = '\0';
    }
}

/* Value of a generated text: ok is 0 when it cannot be evaluated (a call,
 * a load, an unknown, a division by zero). */
typedef struct {
    int64_t v;
    int ok;
} value;

static value gen(text *t, int depth, int evaluable);

static value gen_leaf(text *t, int evaluable)
{
    char tmp[64];
    value r = { 0, 1 };
    int k = rnd_range(0, evaluable ? 9 : 11);
    if (k <= 3) {
        int c = rnd_range(-9, 9);
        snprintf(tmp, sizeof tmp, c < 0 ? "(%d)" : "%d", c);
        put(t, tmp);
        r.v = c;
    } else if (k <= 9) {
        int s = rnd_range(0, 3), p = rnd_range(1, 3);
        r.v = 1;
        for (int q = 0; q < p; q++)
            r.v *= vals[s];
        if (p == 1)
            snprintf(tmp, sizeof tmp, "%s", syms[s]);
        else
            snprintf(tmp, sizeof tmp, "%s^%d", syms[s], p);
        put(t, tmp);
    } else {
        static const char *const u[] = { "?\"p->n\"", "?\"sizeof(x)\"" };
        put(t, u[rnd() & 1]);
        r.ok = 0;
    }
    return r;
}

static value gen(text *t, int depth, int evaluable)
{
    value a, b, r = { 0, 1 };
    int k = depth <= 0 ? 0 : rnd_range(0, evaluable ? 10 : 12);
    switch (k) {
    case 0: case 1: case 2:
        return gen_leaf(t, evaluable);
    case 3: case 4:                 /* sum */
        put(t, "(");
        a = gen(t, depth - 1, evaluable);
        put(t, " + ");
        b = gen(t, depth - 1, evaluable);
        put(t, ")");
        r.v = a.v + b.v;
        r.ok = a.ok && b.ok;
        return r;
    case 5:                         /* difference */
        put(t, "(");
        a = gen(t, depth - 1, evaluable);
        put(t, " - ");
        b = gen(t, depth - 1, evaluable);
        put(t, ")");
        r.v = a.v - b.v;
        r.ok = a.ok && b.ok;
        return r;
    case 6: case 7:                 /* product */
        put(t, "(");
        a = gen(t, depth - 1, evaluable);
        put(t, ")*(");
        b = gen(t, depth - 1, evaluable);
        put(t, ")");
        r.v = a.v * b.v;
        r.ok = a.ok && b.ok;
        return r;
    case 8:                         /* negation */
        put(t, "(-(");
        a = gen(t, depth - 1, evaluable);
        put(t, "))");
        r.v = -a.v;
        r.ok = a.ok;
        return r;
    case 9: {                       /* div or mod */
        int mod = rnd() & 1;
        put(t, mod ? "mod(" : "div(");
        a = gen(t, depth - 1, evaluable);
        put(t, ", ");
        b = gen(t, depth - 2, evaluable);
        put(t, ")");
        r.ok = a.ok && b.ok && b.v != 0;
        if (r.ok)
            r.v = mod ? a.v % b.v : a.v / b.v;
        return r;
    }
    case 10: {                      /* min or max */
        int max = rnd() & 1;
        put(t, max ? "max(" : "min(");
        a = gen(t, depth - 1, evaluable);
        put(t, ", ");
        b = gen(t, depth - 1, evaluable);
        put(t, ")");
        r.v = max ? (a.v > b.v ? a.v : b.v) : (a.v < b.v ? a.v : b.v);
        r.ok = a.ok && b.ok;
        return r;
    }
    default:                        /* call or load */
        put(t, rnd() & 1 ? "call.f(" : "load.A(");
        gen(t, depth - 1, evaluable);
        if (rnd() & 1) {
            put(t, ", ");
            gen(t, depth - 2, evaluable);
        }
        put(t, ")");
        r.ok = 0;
        return r;
    }
}

/* A random expression with its oracle value; depth 1..3. */
static kx_expr *random_expr(value *val, int evaluable, char *src, size_t srclen)
{
    text t = { { 0 }, 0 };
    char err[200];
    *val = gen(&t, rnd_range(1, 3), evaluable);
    snprintf(src, srclen, "%s", t.buf);
    kx_expr *e = kx_parse(t.buf, err, sizeof err);
    if (!e)
        fprintf(stderr, "parse failed: %s: %s\n", t.buf, err);
    return e;
}

static int eval(const kx_expr *e, int64_t *v)
{
    return kx_eval(e, lookup, NULL, v, NULL, 0);
}

static int sign(int x)
{
    return (x > 0) - (x < 0);
}

static int64_t total_checked_eval, total_checked_subst;

static void round_trip(const kx_expr *e)
{
    char *s = kx_print(e), err[200];
    kx_expr *back = kx_parse(s, err, sizeof err);
    char *s2 = back ? kx_print(back) : NULL;
    CHECK(back != NULL);
    CHECK_STR(s2, s);
    CHECK(kx_equal(e, back));
    free(s);
    free(s2);
    kx_free(back);
}

static void algebra(const kx_expr *a, const kx_expr *b, const kx_expr *c)
{
    kx_expr *ab = kx_add(a, b), *ba = kx_add(b, a), *abb = kx_sub(ab, b);
    kx_expr *m_ab = kx_mul(a, b), *m_ba = kx_mul(b, a);
    kx_expr *bc = kx_add(b, c), *a_bc = kx_mul(a, bc), *ac = kx_mul(a, c);
    kx_expr *ab_ac = kx_add(m_ab, ac);
    kx_expr *abc1 = kx_mul(m_ab, c), *bc_m = kx_mul(b, c), *abc2 = kx_mul(a, bc_m);
    kx_expr *aa = kx_sub(a, a), *na = kx_neg(a), *nna = kx_neg(na);

    CHECK(kx_equal(abb, a));
    CHECK(kx_equal(ab, ba));
    CHECK(kx_equal(m_ab, m_ba));
    CHECK(kx_equal(a_bc, ab_ac));
    CHECK(kx_equal(abc1, abc2));
    CHECK(kx_is_zero(aa));
    CHECK(kx_equal(nna, a));

    /* the order: antisymmetric, zero exactly on equal printed forms */
    char *pa = kx_print(a), *pb = kx_print(b);
    int cab = kx_compare(a, b), cba = kx_compare(b, a);
    CHECK_INT(sign(cab), -sign(cba));
    CHECK_INT(cab == 0, strcmp(pa, pb) == 0);
    free(pa);
    free(pb);

    /* evaluation agrees with the algebra */
    int64_t va, vb, vs, vp, sum, prod;
    if (eval(a, &va) == 0 && eval(b, &vb) == 0
        && !__builtin_add_overflow(va, vb, &sum) && !__builtin_mul_overflow(va, vb, &prod)) {
        total_checked_eval++;
        CHECK_INT(eval(ab, &vs), 0);
        CHECK_INT(vs, sum);
        /* the expanded product may overflow where the factored one does not */
        if (eval(m_ab, &vp) == 0)
            CHECK_INT(vp, prod);
    }

    kx_free(ab); kx_free(ba); kx_free(abb); kx_free(m_ab); kx_free(m_ba);
    kx_free(bc); kx_free(a_bc); kx_free(ac); kx_free(ab_ac);
    kx_free(abc1); kx_free(bc_m); kx_free(abc2);
    kx_free(aa); kx_free(na); kx_free(nna);
}

/* Substituting every symbol by its value gives eval's constant;
 * substituting symbol s by p evaluates like binding s to eval(p). */
static void substitution(const kx_expr *e, const kx_expr *p)
{
    int64_t want, got, vp;
    kx_expr *cur = kx_copy(e), *next;

    for (int k = 0; k < 4; k++) {
        kx_expr *v = kx_int(vals[k]);
        next = kx_subst(cur, syms[k], v);
        kx_free(v);
        kx_free(cur);
        cur = next;
    }
    if (eval(e, &want) == 0) {
        total_checked_subst++;
        CHECK(kx_is_const(cur, &got));
        CHECK_INT(got, want);
    }
    kx_free(cur);

    int s = rnd_range(0, 3);
    if (eval(p, &vp) == 0) {
        kx_expr *sub = kx_subst(e, syms[s], p);
        int64_t saved = vals[s], a, b;
        int ra = eval(sub, &a);
        vals[s] = vp;
        int rb = eval(e, &b);
        vals[s] = saved;
        CHECK_INT(ra, rb);
        if (ra == 0 && rb == 0)
            CHECK_INT(a, b);
        kx_free(sub);
    }
}

/* e == subst(e, x, 0) + coeff(e, x)*x where that identity holds. */
static void coefficient(const kx_expr *e)
{
    const char *x = syms[rnd_range(0, 3)];
    if (kx_has_opaque(e) || kx_degree(e, x) > 1)
        return;
    kx_expr *zero = kx_int(0), *sym = kx_sym(x);
    kx_expr *e0 = kx_subst(e, x, zero), *c = kx_coeff(e, x), *cx = kx_mul(c, sym);
    kx_expr *sum = kx_add(e0, cx);
    CHECK(kx_equal(sum, e));
    CHECK(!kx_mentions(c, x));
    kx_free(zero); kx_free(sym); kx_free(e0); kx_free(c); kx_free(cx); kx_free(sum);
}

int main(void)
{
    int64_t parsed_eval = 0;
    for (int round = 0; round < ROUNDS; round++) {
        for (int k = 0; k < 4; k++)
            vals[k] = rnd_range(-5, 5);
        int evaluable = rnd_range(0, 3) != 0;
        value va, vb, vc;
        char sa[8192], sb[8192], sc[8192];
        kx_expr *a = random_expr(&va, evaluable, sa, sizeof sa);
        kx_expr *b = random_expr(&vb, evaluable, sb, sizeof sb);
        kx_expr *c = random_expr(&vc, 1, sc, sizeof sc);
        CHECK(a && b && c);
        if (!a || !b || !c) {
            kx_free(a); kx_free(b); kx_free(c);
            continue;
        }

        /* the parsed, canonicalised text evaluates to the oracle's value */
        int64_t v;
        if (va.ok) {
            parsed_eval++;
            if (eval(a, &v) != 0 || v != va.v)
                fprintf(stderr, "eval mismatch for %s\n", sa);
            CHECK_INT(eval(a, &v), 0);
            CHECK_INT(v, va.v);
        }

        round_trip(a);
        round_trip(b);
        algebra(a, b, c);
        substitution(a, c);
        coefficient(a);
        coefficient(c);
        kx_free(a);
        kx_free(b);
        kx_free(c);
    }
    /* the eval-based properties must not have been vacuous */
    CHECK(parsed_eval > ROUNDS / 3);
    CHECK(total_checked_eval > ROUNDS / 3);
    CHECK(total_checked_subst > ROUNDS / 3);
    printf("oracle evals %lld, algebra evals %lld, subst evals %lld\n",
           (long long)parsed_eval, (long long)total_checked_eval,
           (long long)total_checked_subst);
    return check_summary();
}
