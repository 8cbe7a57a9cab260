/*
 * ipd.c -- iteration-point difference: linearised addresses, strides, their
 * classes, and the ZIV / SIV / GCD dependence tests (see ipd.h).
 *
 * The dependence test renames, in b, every loop variable from L inwards
 * (`i` -> `i__b`), keeps the loops outside L shared (direction '='), and
 * solves each subscript equation a.index[k] - b.index[k] = 0 over the loop
 * variables as sum c_v * v + rest = 0.  The equation is accepted as affine
 * only when that decomposition rebuilds it exactly, so an opaque atom over a
 * loop variable or a product of two loop variables is never mistaken for a
 * solvable equation.  One-dimensional offsets of both references are first
 * split into digits of a shared program symbol where the bounds allow it
 * (delinearize_pair), so a flattened nest is tested dimension by dimension.
 *
 * ip_depend runs in four phases over one dep_pair scratch: the subscripts
 * compared (pair_subscripts), b's variables renamed (rename_b), each
 * dimension's equation tested (test_dims), the verdict (dep_verdict).
 */
#include "ipd.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

kx_expr *ip_linearize(int ndims, kx_expr *const *index, int nextents,
                      kx_expr *const *extent)
{
    if (ndims <= 0)
        return NULL;
    if (nextents == 0)
        return ndims == 1 ? kx_copy(index[0]) : NULL;
    if (ndims > nextents)
        return NULL;
    /* offset = (((i0 * e1) + i1) * e2 + i2) ... * e_{ndims}... * e_{nextents-1} */
    kx_expr *off = kx_int(0);
    for (int k = 0; k < nextents && off; k++) {
        if (k > 0) {
            if (!extent[k]) {
                kx_free(off);
                return NULL;
            }
            kx_expr *t = kx_mul(off, extent[k]);
            kx_free(off);
            off = t;
        }
        if (k < ndims) {
            kx_expr *t = kx_add(off, index[k]);
            kx_free(off);
            off = t;
        }
    }
    return off;
}

kx_expr *ip_stride(const kx_expr *addr, const char *iv, int64_t step)
{
    if (!addr || !iv)
        return NULL;
    kx_expr *sym = kx_sym(iv), *s = kx_int(step ? step : 1);
    kx_expr *next = kx_add(sym, s);
    kx_expr *moved = kx_subst(addr, iv, next);
    kx_expr *d = kx_sub(moved, addr);
    kx_free(sym);
    kx_free(s);
    kx_free(next);
    kx_free(moved);
    return d;
}

/* Every symbol is 7: evaluation fails only on call/load/unknown atoms
 * (or a division by zero, overflow: then irregular too, conservatively). */
static int seven(void *ctx, const char *name, int64_t *v)
{
    (void)ctx;
    (void)name;
    *v = 7;
    return 1;
}

ip_class ip_classify(const kx_expr *stride, char *const *ivs, int nivs)
{
    if (!stride)
        return IP_IRREGULAR;
    for (int i = 0; i < nivs; i++)
        if (kx_mentions(stride, ivs[i]))
            return IP_IRREGULAR;
    int64_t k, v;
    char err[8];
    if (kx_is_const(stride, &k))
        return k == 0 ? IP_UNIFORM : (k == 1 || k == -1) ? IP_COALESCED : IP_STRIDED;
    if (kx_eval(stride, seven, NULL, &v, err, sizeof err) != 0)
        return IP_IRREGULAR;
    return IP_SYMBOLIC;
}

const char *ip_class_name(ip_class c)
{
    static const char *const names[] = { "uniform", "coalesced", "strided", "symbolic",
                                         "irregular" };
    return (unsigned)c < 5 ? names[c] : "irregular";
}

/* ---- dependence ------------------------------------------------------------ */

enum { DIM_INDEP, DIM_DIST, DIM_ANY, DIM_MAYBE, DIM_NONAFFINE, DIM_SYMCOEF };

typedef struct {
    int nvars;
    char *vars[64];     /* loop variables (a's chain, then b's renamed inner ones) */
    const char *x, *xb; /* L's variable in a and in b */
    const ip_loop *L;
} dep_ctx;

static int64_t gcd64(int64_t a, int64_t b)
{
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Constant trip count of L, or -1. */
static int64_t const_trip(const ip_loop *L)
{
    int64_t lo, up;
    if (!L->lower || !L->upper || !kx_is_const(L->lower, &lo) || !kx_is_const(L->upper, &up)
        || L->step == 0)
        return -1;
    int64_t span = L->step > 0 ? up - lo : lo - up;
    int64_t s = L->step > 0 ? L->step : -L->step;
    return span <= 0 ? 0 : (span + s - 1) / s;
}

/* Is x = value outside L's constant range? */
static int outside(const ip_loop *L, int64_t x)
{
    int64_t lo, up;
    if (!L->lower || !L->upper || !kx_is_const(L->lower, &lo) || !kx_is_const(L->upper, &up))
        return 0;
    return L->step > 0 ? (x < lo || x >= up) : L->step < 0 ? (x > lo || x <= up) : 0;
}

/* Is the solution x = -rest / a (a = +-1) of a weak-zero equation provably
 * outside L's bounds, symbolically: x - upper a constant >= 0 or
 * x - lower a constant < 0 (step > 0)? */
static int outside_sym(const ip_loop *L, const kx_expr *rest, int64_t a)
{
    if (L->step <= 0 || !L->lower || !L->upper)
        return 0;
    kx_expr *x = a == 1 ? kx_neg(rest) : kx_copy(rest);
    kx_expr *du = kx_sub(x, L->upper), *dl = kx_sub(x, L->lower);
    int64_t u, l;
    int r = (kx_is_const(du, &u) && u >= 0) || (kx_is_const(dl, &l) && l < 0);
    kx_free(x);
    kx_free(du);
    kx_free(dl);
    return r;
}

/* The affine form of a subscript equation: diff = sum coef[v]*v + rest
 * over the loop variables c->vars, with rest and every coefficient free of
 * them, checked by rebuilding diff.  1 when it holds; coef[] and *rest_out
 * are set either way and the caller frees them. */
static int affine_split(const dep_ctx *c, const kx_expr *diff, kx_expr **coef,
                        kx_expr **rest_out)
{
    kx_expr *rest = kx_copy(diff), *zero = kx_int(0);
    /* In a polynomial of symbols (no opaque atom, which a substitution
     * rebuilds and may re-fold) a variable the equation does not mention
     * has coefficient 0 and substituting it changes nothing: only the
     * mentioned ones are substituted.  A d-deep nest has up to 2d
     * variables and an equation mentions a few. */
    unsigned char men[64];
    int poly = !kx_has_opaque(diff);
    for (int v = 0; v < c->nvars; v++)
        men[v] = !poly || kx_mentions(diff, c->vars[v]);
    for (int v = 0; v < c->nvars && rest; v++) {
        if (!men[v])
            continue;
        kx_expr *t = kx_subst(rest, c->vars[v], zero);
        kx_free(rest);
        rest = t;
    }
    /* rebuild sum coef*v + rest and compare */
    kx_expr *re = kx_copy(rest);
    int ok = rest != NULL;
    for (int v = 0; v < c->nvars && ok; v++) {
        if (!men[v]) {
            ok = (coef[v] = kx_int(0)) != NULL;
            continue;
        }
        if (kx_degree(diff, c->vars[v]) > 1) { ok = 0; break; }
        coef[v] = kx_coeff(diff, c->vars[v]);
        for (int w = 0; w < c->nvars && coef[v]; w++)
            if (kx_mentions(coef[v], c->vars[w]))
                ok = 0;
        kx_expr *s = kx_sym(c->vars[v]);
        kx_expr *p = kx_mul(coef[v], s);
        kx_expr *q = kx_add(re, p);
        kx_free(s); kx_free(p); kx_free(re);
        re = q;
    }
    for (int w = 0; w < c->nvars && ok && rest; w++)
        if (kx_mentions(rest, c->vars[w]))
            ok = 0;
    ok = ok && re && kx_equal(re, diff);
    kx_free(re);
    kx_free(zero);
    *rest_out = rest;
    return ok;
}

/* An affine equation sum coef[v]*v + rest = 0 with what the tests ask of
 * it: which variables occur (nused; ix and ixb: L's variable in a and in
 * b, -1 when absent), whether all their coefficients are constants (cv)
 * and whether rest is one (restc). */
typedef struct {
    kx_expr *const *coef;
    const kx_expr *rest;
    int64_t cv[64], restc;
    int nused, allconst, rest_const, ix, ixb;
} dim_eq;

static void eq_terms(const dep_ctx *c, kx_expr *const *coef, const kx_expr *rest, dim_eq *e)
{
    memset(e, 0, sizeof *e);
    e->coef = coef;
    e->rest = rest;
    e->allconst = 1;
    e->ix = e->ixb = -1;
    e->rest_const = kx_is_const(rest, &e->restc);
    for (int v = 0; v < c->nvars; v++) {
        if (kx_is_zero(coef[v]))
            continue;
        e->nused++;
        if (!kx_is_const(coef[v], &e->cv[v]))
            e->allconst = 0;
        if (strcmp(c->vars[v], c->x) == 0) e->ix = v;
        if (strcmp(c->vars[v], c->xb) == 0) e->ixb = v;
    }
}

/* a*(x - x') + rest = 0 */
static int strong_siv(const dep_ctx *c, const dim_eq *e, int64_t *dist)
{
    /* a symbolic coefficient may be 0 at run time (a BLAS increment): then
     * every iteration meets every other */
    if (!e->allconst) return DIM_SYMCOEF;
    if (kx_is_zero(e->rest)) { *dist = 0; return DIM_DIST; }
    if (!e->rest_const) return DIM_MAYBE;
    int64_t a = e->cv[e->ix];
    if (e->restc % a != 0) return DIM_INDEP;
    int64_t dx = e->restc / a;                          /* x' - x */
    int64_t s = c->L->step ? c->L->step : 1;
    if (dx % s != 0) return DIM_INDEP;
    int64_t d = dx / s, trip = const_trip(c->L);
    if (trip >= 0 && (d >= trip || -d >= trip)) return DIM_INDEP;
    *dist = d;
    return DIM_DIST;
}

/* a*(x + x') + rest = 0 */
static int weak_crossing_siv(const dim_eq *e)
{
    if (!e->allconst) return DIM_SYMCOEF;
    if (!e->rest_const) return DIM_MAYBE;
    return (-e->restc) % e->cv[e->ix] != 0 ? DIM_INDEP : DIM_MAYBE;
}

/* a*x + rest = 0 (x of a or of b alone) */
static int weak_zero_siv(const dep_ctx *c, const dim_eq *e)
{
    int v = e->ix >= 0 ? e->ix : e->ixb;
    if (!e->allconst) return DIM_SYMCOEF;
    int unit = e->cv[v] == 1 || e->cv[v] == -1;
    if (!e->rest_const)
        return unit && outside_sym(c->L, e->rest, e->cv[v]) ? DIM_INDEP : DIM_MAYBE;
    if ((-e->restc) % e->cv[v] != 0 || outside(c->L, -e->restc / e->cv[v])
        || (unit && outside_sym(c->L, e->rest, e->cv[v])))
        return DIM_INDEP;
    return DIM_MAYBE;
}

/* MIV: the GCD test */
static int gcd_miv(const dep_ctx *c, const dim_eq *e, const char **test)
{
    *test = "GCD";
    if (!e->allconst) return DIM_SYMCOEF;
    if (!e->rest_const) { *test = "MIV"; return DIM_MAYBE; }
    int64_t g = 0;
    for (int v = 0; v < c->nvars; v++)
        g = gcd64(g, e->cv[v]);
    int r = g != 0 && e->restc % g != 0 ? DIM_INDEP : DIM_MAYBE;
    if (r == DIM_MAYBE)
        *test = "MIV";
    return r;
}

/* The test that fits the equation's shape (ZIV, strong, weak-crossing or
 * weak-zero SIV, else GCD), and its answer. */
static int solve_dim(const dep_ctx *c, const dim_eq *e, int64_t *dist, const char **test)
{
    if (e->nused == 0) {
        *test = "ZIV";
        return e->rest_const && e->restc != 0 ? DIM_INDEP : DIM_ANY;
    }
    int only_x = e->nused == (e->ix >= 0) + (e->ixb >= 0);
    if (only_x && e->ix >= 0 && e->ixb >= 0) {
        kx_expr *sum = kx_add(e->coef[e->ix], e->coef[e->ixb]);
        int strong = kx_is_zero(sum);
        int crossing = !strong && kx_equal(e->coef[e->ix], e->coef[e->ixb]);
        kx_free(sum);
        if (strong) {
            *test = "strong SIV";
            return strong_siv(c, e, dist);
        }
        if (crossing) {
            *test = "weak-crossing SIV";
            return weak_crossing_siv(e);
        }
    }
    if (only_x && (e->ix < 0 || e->ixb < 0)) {
        *test = "weak-zero SIV";
        return weak_zero_siv(c, e);
    }
    return gcd_miv(c, e, test);
}

/* One subscript equation diff = 0.  *dist gets the distance for DIM_DIST;
 * *test the name of the test that decided. */
static int test_dim(const dep_ctx *c, const kx_expr *diff, int64_t *dist, const char **test)
{
    kx_expr *coef[64] = { 0 }, *rest = NULL;
    int r = DIM_NONAFFINE;
    *test = "non-affine";
    if (affine_split(c, diff, coef, &rest)) {
        dim_eq e;
        eq_terms(c, coef, rest, &e);
        r = solve_dim(c, &e, dist, test);
    }
    for (int v = 0; v < c->nvars; v++)
        kx_free(coef[v]);
    kx_free(rest);
    return r;
}

static int find_loop(const ip_ref *r, const ip_loop *L)
{
    for (int i = 0; i < r->nloops; i++)
        if (r->loops[i] == L)
            return i;
    return -1;
}

/* Is 0 <= d < S over r's loops: d = v + c for one loop variable v of r
 * (coefficient 1, step +-1) with min(v) + c >= 0 and S - max(v) - c >= 1
 * constants?  (Then S >= 1 too.) */
static int digit_in_range(const ip_ref *r, const kx_expr *d, const char *S)
{
    const ip_loop *v = NULL;
    for (int i = 0; i < r->nloops; i++)
        if (r->loops[i]->iv && kx_mentions(d, r->loops[i]->iv)) {
            if (v)
                return 0;
            v = r->loops[i];
        }
    if (!v || (v->step != 1 && v->step != -1) || !v->lower || !v->upper)
        return 0;
    kx_expr *a = kx_coeff(d, v->iv), *one = kx_int(1), *sv = kx_sym(v->iv), *s = kx_sym(S);
    kx_expr *c = kx_sub(d, sv);
    /* v runs over [min, max]: step 1 lower..upper-1, step -1 upper+1..lower */
    kx_expr *mn = v->step == 1 ? kx_copy(v->lower) : kx_add(v->upper, one);
    kx_expr *mx = v->step == 1 ? kx_sub(v->upper, one) : kx_copy(v->lower);
    kx_expr *lo = c && mn ? kx_add(mn, c) : NULL, *hi = c && mx ? kx_add(mx, c) : NULL;
    kx_expr *room = hi && s ? kx_sub(s, hi) : NULL;
    int64_t k, l, h;
    int ok = a && kx_is_const(a, &k) && k == 1 && c && kx_is_const(c, &k) && lo
             && kx_is_const(lo, &l) && l >= 0 && room && kx_is_const(room, &h) && h >= 1;
    kx_free(a); kx_free(one); kx_free(sv); kx_free(s); kx_free(c);
    kx_free(mn); kx_free(mx); kx_free(lo); kx_free(hi); kx_free(room);
    return ok;
}

/* Delinearisation of a one-dimensional offset e of r in the radix S (a
 * program symbol): e = d[0]*S^deg + d[1]*S^(deg-1) + ... + d[deg], each
 * digit free of S, every digit but the first provably in [0, S)
 * (digit_in_range).  Two offsets so split with the same S and degree are
 * equal exactly when their digits are, so each digit is a subscript of its
 * own: `B[(i*n + j)*n + k]` is tested as B[i][j][k].  Returns deg + 1
 * digits in d (the caller frees them), or 0. */
static int delinearize(const ip_ref *r, const kx_expr *e, const char *S, int deg,
                       kx_expr **d)
{
    if (!e || kx_has_opaque(e) || deg < 1 || deg > 8 || kx_degree(e, S) != deg)
        return 0;
    int ok = 1;
    for (int k = 0; k <= deg; k++) {
        d[k] = kx_coeff_pow(e, S, deg - k);
        ok = ok && d[k] && !kx_mentions(d[k], S) && (k == 0 || digit_in_range(r, d[k], S));
    }
    if (!ok)
        for (int k = 0; k <= deg; k++) {
            kx_free(d[k]);
            d[k] = NULL;
        }
    return ok ? deg + 1 : 0;
}

/* Split the offsets *a0 of a and *b0 of b into digits (delinearize) in a
 * radix both share: a program symbol that is no loop variable of either.
 * On success ai[0..n-1] and bi[0..n-1] replace them and n is returned;
 * else 0 and nothing changes. */
static int delinearize_pair(const ip_ref *a, const ip_ref *b, kx_expr **ai, kx_expr **bi)
{
    char **names = NULL;
    int nn = ai[0] && bi[0] ? kx_symbols(ai[0], &names) : 0, n = 0;
    for (int i = 0; i < nn && !n; i++) {
        int is_iv = strstr(names[i], "__") != NULL;
        for (int k = 0; k < a->nloops && !is_iv; k++)
            is_iv = a->loops[k]->iv && strcmp(a->loops[k]->iv, names[i]) == 0;
        for (int k = 0; k < b->nloops && !is_iv; k++)
            is_iv = b->loops[k]->iv && strcmp(b->loops[k]->iv, names[i]) == 0;
        int deg = kx_degree(ai[0], names[i]);
        if (is_iv || deg != kx_degree(bi[0], names[i]))
            continue;
        kx_expr *da[9] = { 0 }, *db[9] = { 0 };
        int m = delinearize(a, ai[0], names[i], deg, da);
        if (m && delinearize(b, bi[0], names[i], deg, db)) {
            kx_free(ai[0]);
            kx_free(bi[0]);
            for (int k = 0; k < m; k++) {
                ai[k] = da[k];
                bi[k] = db[k];
            }
            n = m;
        } else {
            for (int k = 0; k < m; k++)
                kx_free(da[k]);
        }
    }
    kx_free_names(names, nn > 0 ? nn : 0);
    return n;
}

/* The scratch of one dependence test, filled phase by phase: the
 * equations' context, the subscripts of a and of b (b's renamed), and b's
 * renamed variable names (owned, indexed by loop). */
typedef struct {
    dep_ctx c;
    int nd;                   /* subscripts compared */
    kx_expr *ai[32], *bi[32];
    char *renamed[64];
} dep_pair;

/* What the per-dimension tests found, for dep_verdict. */
typedef struct {
    int indep, have_d, nonaffine, symcoef, allany;
    int64_t d0;               /* the distance when have_d */
    const char *maybe_test;   /* the first inconclusive test's name */
} dep_dims;

/* Phase 1: the subscripts compared: a's and b's index when their ranks
 * agree, else their linearised offsets; a single offset is split into
 * digits when it can be (delinearize_pair).  -1 when there are more than
 * ai[] holds. */
static int pair_subscripts(const ip_ref *a, const ip_ref *b, dep_pair *p)
{
    p->nd = a->ndims == b->ndims ? a->ndims : 1;
    if (p->nd > 32)
        return -1;
    if (a->ndims == b->ndims) {
        for (int k = 0; k < p->nd; k++) {
            p->ai[k] = kx_copy(a->index[k]);
            p->bi[k] = kx_copy(b->index[k]);
        }
    } else {
        p->ai[0] = ip_linearize(a->ndims, a->index, a->nextents, a->extent);
        p->bi[0] = ip_linearize(b->ndims, b->index, b->nextents, b->extent);
    }
    if (p->nd == 1) {
        int m = delinearize_pair(a, b, p->ai, p->bi);
        if (m > 0)
            p->nd = m;
    }
    assert(p->nd >= 0 && p->nd <= 32);
    return 0;
}

/* Phase 2: b's loop variables from L (b's loop lb) inwards renamed in b's
 * subscripts (`i` -> `i__b`) and added to the equations' variables, L's
 * own as c.xb.  -1 when out of memory or L has no variable in b. */
static int rename_b(const ip_ref *b, int lb, dep_pair *p)
{
    for (int i = lb; i < b->nloops; i++) {
        const char *iv = b->loops[i]->iv;
        if (!iv)
            continue;
        size_t n = strlen(iv);
        p->renamed[i] = malloc(n + 4);
        if (!p->renamed[i])
            return -1;
        memcpy(p->renamed[i], iv, n);
        memcpy(p->renamed[i] + n, "__b", 4);
        kx_expr *s = kx_sym(p->renamed[i]);
        for (int k = 0; k < p->nd; k++) {
            if (p->bi[k] && !kx_has_opaque(p->bi[k]) && !kx_mentions(p->bi[k], iv))
                continue;       /* a polynomial without iv: unchanged */
            kx_expr *t = kx_subst(p->bi[k], iv, s);
            kx_free(p->bi[k]);
            p->bi[k] = t;
        }
        kx_free(s);
        assert(p->c.nvars < (int)(sizeof p->c.vars / sizeof p->c.vars[0]));
        p->c.vars[p->c.nvars++] = p->renamed[i];
        if (i == lb)
            p->c.xb = p->renamed[i];
    }
    return p->c.xb ? 0 : -1;
}

/* Phase 3: each dimension's equation ai[k] - bi[k] = 0 tested (test_dim)
 * and summed up in *s; stops at the first that proves independence (its
 * test's name into out->test). */
static void test_dims(dep_pair *p, dep_dims *s, ip_dep *out)
{
    *s = (dep_dims){ .allany = 1 };
    for (int k = 0; k < p->nd; k++) {
        kx_expr *diff = kx_sub(p->ai[k], p->bi[k]);
        int64_t d = 0;
        const char *test = "non-affine";
        int r = diff ? test_dim(&p->c, diff, &d, &test) : DIM_NONAFFINE;
        kx_free(diff);
        if (r != DIM_ANY)
            s->allany = 0;
        if (r == DIM_INDEP) {
            s->indep = 1;
            snprintf(out->test, sizeof out->test, "%s", test);
            break;
        } else if (r == DIM_DIST) {
            if (s->have_d && d != s->d0) {
                s->indep = 1;
                snprintf(out->test, sizeof out->test, "strong SIV");
                break;
            }
            s->have_d = 1;
            s->d0 = d;
        } else if (r == DIM_NONAFFINE) {
            s->nonaffine = 1;
        } else if (r == DIM_SYMCOEF) {
            s->symcoef = 1;
            if (!s->maybe_test)
                s->maybe_test = test;
        } else if (r == DIM_MAYBE && !s->maybe_test) {
            s->maybe_test = test;
        }
    }
}

/* Phase 4: the verdict from the dimensions' summary: independent, one
 * distance (0: loop-independent), unknown (non-affine, symbolic
 * coefficients), invariant (every dimension any), else carried. */
static void dep_verdict(const dep_dims *s, ip_dep *out)
{
    if (s->indep) {
        out->kind = IP_INDEPENDENT;
    } else if (s->have_d && s->d0 == 0) {
        out->kind = IP_LOOP_INDEP;
        snprintf(out->test, sizeof out->test, "strong SIV");
    } else if (s->have_d) {
        out->kind = IP_CARRIED;
        out->has_distance = 1;
        out->distance = s->d0;
        snprintf(out->test, sizeof out->test, "strong SIV");
    } else if (s->nonaffine) {
        out->kind = IP_UNKNOWN;
        snprintf(out->test, sizeof out->test, "non-affine");
    } else if (s->symcoef) {
        out->kind = IP_UNKNOWN;
        snprintf(out->test, sizeof out->test, "%s", s->maybe_test ? s->maybe_test : "symbolic");
    } else if (s->allany) {
        out->kind = IP_CARRIED;
        out->invariant = 1;
        snprintf(out->test, sizeof out->test, "ZIV");
    } else {
        out->kind = IP_CARRIED;
        snprintf(out->test, sizeof out->test, "%s", s->maybe_test ? s->maybe_test : "MIV");
    }
}

int ip_depend(const ip_ref *a, const ip_ref *b, const ip_loop *L, ip_dep *out)
{
    memset(out, 0, sizeof *out);
    out->kind = IP_UNKNOWN;
    snprintf(out->test, sizeof out->test, "non-affine");
    int la = find_loop(a, L), lb = find_loop(b, L);
    if (la < 0 || lb < 0 || la != lb || !L->iv || a->nloops + b->nloops > 60)
        return -1;
    dep_pair p = { .c = { .L = L, .x = L->iv } };
    /* loops outside L are at the same iteration in a and b: their variables
     * are parameters of the equations, like program symbols */
    for (int i = la; i < a->nloops; i++)
        if (a->loops[i]->iv)
            p.c.vars[p.c.nvars++] = (char *)a->loops[i]->iv;
    int rc = 0;
    if (pair_subscripts(a, b, &p))
        return -1;
    if (rename_b(b, lb, &p) == 0) {
        dep_dims s;
        test_dims(&p, &s, out);
        dep_verdict(&s, out);
    } else {
        rc = -1;
    }
    for (int k = 0; k < p.nd; k++) {
        kx_free(p.ai[k]);
        kx_free(p.bi[k]);
    }
    for (int i = 0; i < 64; i++)
        free(p.renamed[i]);
    return rc;
}
