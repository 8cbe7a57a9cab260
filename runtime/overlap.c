/*
 * overlap.c -- the run-time overlap check (overlap.h): the byte range each
 * access of an overlap condition touches, from its element offset and the
 * bounds of the loops around it, and whether a written range meets a range
 * of another base.
 *
 * Runs on a launch with new values only (a memo hit never gets here), with
 * no allocation: loop depth and bases are bounded (MAX_DEPTH, MAX_BASES;
 * deeper nests or more bases cannot be checked, so they stay on the CPU).
 * The condition is compiled once per site into a flat plan (offsets and
 * bounds as (coefficient, slots) terms), so that a check looks no name
 * up; see "the per-site plan" below.
 */
#include "overlap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 12, MAX_BASES = 64 };

typedef struct {
    const rt_overlap *o;
    const int *path;          /* loop indices, outermost first */
    int depth;                /* loop variables bound: path[0..depth-1] */
    const int64_t *iv;        /* their values */
    int n;
    const char *const *names;
    const long long *values;
} ov_ctx;

static int lookup(void *vctx, const char *name, int64_t *value)
{
    const ov_ctx *c = vctx;
    for (int t = 0; t < c->depth; t++) {
        const char *iv = c->o->loops[c->path[t]].iv;
        if (iv && !strcmp(iv, name)) {
            *value = c->iv[t];
            return 1;
        }
    }
    for (int i = 0; i < c->n; i++)
        if (c->names[i] && c->names[i][0] != '&' && !strcmp(c->names[i], name)) {
            *value = c->values[i];
            return 1;
        }
    return 0;
}

/* Is e of degree <= 1 in each of the first d loop variables of the path,
 * with no opaque atom naming one (the extremes are at the corners)? */
static int corner_exact(const rt_overlap *o, const int *path, int d, const kx_expr *e)
{
    for (int t = 0; t < d; t++) {
        const char *iv = o->loops[path[t]].iv;
        if (iv && (kx_degree(e, iv) > 1 || (kx_has_opaque(e) && kx_mentions(e, iv))))
            return 0;
    }
    return 1;
}

/* min/max of e over the corners of the box lo[0..d-1], hi[0..d-1]. */
static int corners(ov_ctx *c, const kx_expr *e, int d, const int64_t *lo, const int64_t *hi,
                   int64_t *mn, int64_t *mx, char *why, size_t whylen)
{
    int64_t v[MAX_DEPTH];
    c->iv = v;
    c->depth = d;
    for (unsigned m = 0; m < 1u << d; m++) {
        for (int t = 0; t < d; t++)
            v[t] = (m >> t) & 1 ? hi[t] : lo[t];
        int64_t x;
        char e2[96];
        if (kx_eval(e, lookup, c, &x, e2, sizeof e2)) {
            snprintf(why, whylen, "%s", e2);
            return -1;
        }
        if (m == 0 || x < *mn)
            *mn = x;
        if (m == 0 || x > *mx)
            *mx = x;
    }
    return 0;
}

int rt_overlap_elems(const rt_overlap *o, int a, int n, const char *const *names,
                     const long long *values, int64_t *lo, int64_t *hi, char *why,
                     size_t whylen)
{
    const rt_ov_access *ac = &o->accs[a];
    int rev[MAX_DEPTH + 1], path[MAX_DEPTH], d = 0;
    if (!ac->offset)
        return snprintf(why, whylen, "%s has no bounded offset", ac->text), -1;
    for (int k = ac->loop; k >= 0; k = o->loops[k].parent) {
        if (!o->loops[k].iv)
            continue;               /* repeats the same offsets */
        if (d == MAX_DEPTH)
            return snprintf(why, whylen, "nest deeper than %d loops", MAX_DEPTH), -1;
        rev[d++] = k;
    }
    for (int t = 0; t < d; t++)
        path[t] = rev[d - 1 - t];
    ov_ctx c = { o, path, 0, NULL, n, names, values };
    int64_t ivlo[MAX_DEPTH], ivhi[MAX_DEPTH];
    for (int j = 0; j < d; j++) {
        const rt_ov_loop *l = &o->loops[path[j]];
        if (!l->lower || !l->trip || l->step == 0)
            return snprintf(why, whylen, "loop %s has no known bounds", l->iv), -1;
        if (!corner_exact(o, path, j, l->lower) || !corner_exact(o, path, j, l->trip))
            return snprintf(why, whylen, "bounds of loop %s are not affine in the outer loops",
                            l->iv), -1;
        int64_t l0, l1, t0;
        /* lower and trip over the outer box; the last value of the
         * variable at each corner is lower + step (trip - 1) */
        int64_t first_lo = 0, first_hi = 0, last_lo = 0, last_hi = 0;
        int64_t v[MAX_DEPTH];
        for (unsigned m = 0; m < 1u << j; m++) {
            for (int t = 0; t < j; t++)
                v[t] = (m >> t) & 1 ? ivhi[t] : ivlo[t];
            c.iv = v;
            c.depth = j;
            char e2[96];
            if (kx_eval(l->lower, lookup, &c, &l0, e2, sizeof e2) ||
                kx_eval(l->trip, lookup, &c, &t0, e2, sizeof e2))
                return snprintf(why, whylen, "%s", e2), -1;
            __int128 last = (__int128)l0 + (__int128)l->step * (t0 > 1 ? t0 - 1 : 0);
            if (last > INT64_MAX || last < INT64_MIN)
                return snprintf(why, whylen, "loop %s overflows", l->iv), -1;
            l1 = (int64_t)last;
            if (m == 0 || l0 < first_lo) first_lo = l0;
            if (m == 0 || l0 > first_hi) first_hi = l0;
            if (m == 0 || l1 < last_lo) last_lo = l1;
            if (m == 0 || l1 > last_hi) last_hi = l1;
        }
        ivlo[j] = first_lo < last_lo ? first_lo : last_lo;
        ivhi[j] = first_hi > last_hi ? first_hi : last_hi;
    }
    if (!corner_exact(o, path, d, ac->offset))
        return snprintf(why, whylen, "%s is not affine in its loops", ac->text), -1;
    if (corners(&c, ac->offset, d, ivlo, ivhi, lo, hi, why, whylen))
        return -1;
    return 0;
}

int rt_overlap_bytes(const rt_overlap *o, int a, uint64_t addr, int n, const char *const *names,
                     const long long *values, uint64_t *lo, uint64_t *hi, char *why,
                     size_t whylen)
{
    int64_t e0, e1;
    if (rt_overlap_elems(o, a, n, names, values, &e0, &e1, why, whylen))
        return -1;
    int elem = o->accs[a].elem;
    if (elem <= 0)
        return snprintf(why, whylen, "%s has no element size", o->accs[a].text), -1;
    __int128 b0 = (__int128)addr + (__int128)elem * e0;
    __int128 b1 = (__int128)addr + (__int128)elem * ((__int128)e1 + 1);
    if (b0 < 0 || b1 > (__int128)UINT64_MAX)
        return snprintf(why, whylen, "%s lies outside the address space", o->accs[a].text), -1;
    *lo = (uint64_t)b0;
    *hi = (uint64_t)b1;
    return 0;
}

/* 0 when every base's written hull is apart from every other base's
 * hull, else 1 with the pair in why. */
static int apart(const rt_overlap *o, const unsigned char *have, const unsigned char *wr,
                 const uint64_t *alo, const uint64_t *ahi, const uint64_t *wlo,
                 const uint64_t *whi, char *why, size_t whylen)
{
    for (int x = 0; x < o->nbases; x++)
        for (int y = 0; y < o->nbases && wr[x]; y++)
            if (y != x && have[y] && wlo[x] < ahi[y] && alo[y] < whi[x] && whi[x] > wlo[x]
                && ahi[y] > alo[y])
                return snprintf(why, whylen, "overlap: %s (written) and %s", o->bases[x].name,
                                o->bases[y].name), 1;
    return 0;
}

/* ---- the per-site plan --------------------------------------------------- */

/* A site passes the same symbol array at every call, so the condition is
 * compiled for it once (rt_overlap_prepare): each loop's lower bound and
 * trip count and each access's offset become a list of terms, a
 * coefficient times up to MAX_FACTORS slots (`i * m + j`: 1 x [i] x [m] +
 * 1 x [j]), a slot being a loop variable's place on the path or the index
 * of a passed value, resolved once as lookup() resolves the name there.
 * An expression of degree > 1 in a symbol, with an opaque atom or a name
 * nobody binds does not compile.  A check then runs with no name lookup,
 * no parse and no allocation.  Its result is the by-name check's exactly:
 * a sum is used only when no step of kx_eval's, in any order, could have
 * overflowed (aff_eval), and anything else -- such a sum, a loop that
 * overflows, a range outside the address space, a condition with a part
 * that does not compile -- runs the by-name check (check_named) instead,
 * which says why. */

enum { MAX_FACTORS = 6 };   /* symbols in one term of a compiled expression */

/* coeff x the product of the factors, a factor being a slot: < MAX_DEPTH,
 * iv[slot]; else values[slot - MAX_DEPTH]. */
typedef struct {
    int64_t coeff;
    int nf;
    int f[MAX_FACTORS];
} ov_term;

typedef struct {
    int n, first;             /* terms[first .. first + n) */
} ov_aff;

typedef struct {
    int depth;                /* loops on the path */
    int path[MAX_DEPTH];      /* loop indices, outermost first */
    ov_aff offset;
} ov_acc_plan;

/* The flat form of a compiled plan (see flat_compile): every loop on an
 * access's path has bounds free of loop variables (a rectangular box) and
 * every term of an offset names at most one loop variable, so that an
 * offset's extremes over the box are a constant plus, per loop variable,
 * the smaller (larger) of its coefficient times the interval's two ends. */
typedef struct {
    int64_t coeff;
    int iv;                   /* the term's loop variable: a loop index, or -1 */
    int nv;
    int v[MAX_FACTORS];       /* values[v[i]]: the other factors */
} ov_fterm;

typedef struct {
    int first, n;             /* fterms[first .. first + n) */
} ov_foff;

struct rt_ov_plan {
    int nbases;
    int *slot;                /* values[slot[b]]: base b's address */
    int compiled;             /* 0: every check runs by name */
    ov_aff *lower, *trip;     /* per loop */
    ov_acc_plan *acc;         /* per access */
    ov_term *terms;
    int nterms, cap;
    /* the flat form (flat is 0 without one) */
    int flat;
    int nbox, *box;           /* the loops whose intervals a check needs */
    ov_foff *foff;            /* per access */
    ov_fterm *fterms;
};

int rt_overlap_plan_slot(const rt_ov_plan *p, int b)
{
    return p && b >= 0 && b < p->nbases ? p->slot[b] : -1;
}

int rt_overlap_plan_compiled(const rt_ov_plan *p)
{
    return p && p->compiled;
}

int rt_overlap_plan_flat(const rt_ov_plan *p)
{
    return p && p->flat;
}

void rt_overlap_plan_free(rt_ov_plan *p)
{
    if (!p)
        return;
    free(p->slot);
    free(p->lower);
    free(p->trip);
    free(p->acc);
    free(p->terms);
    free(p->box);
    free(p->foff);
    free(p->fterms);
    free(p);
}

/* The slot lookup() reads for `name` with the first d loops of path
 * bound, or -1. */
static int plan_slot(const rt_overlap *o, const int *path, int d, int n,
                     const char *const *names, const char *name)
{
    for (int t = 0; t < d; t++) {
        const char *iv = o->loops[path[t]].iv;
        if (iv && !strcmp(iv, name))
            return t;
    }
    for (int i = 0; i < n; i++)
        if (names[i] && names[i][0] != '&' && !strcmp(names[i], name))
            return MAX_DEPTH + i;
    return -1;
}

static int plan_push(rt_ov_plan *p, int64_t coeff, const int *f, int nf)
{
    if (p->nterms == p->cap) {
        int cap = p->cap * 2 + 16;
        ov_term *t = realloc(p->terms, sizeof *t * (size_t)cap);
        if (!t)
            return -1;
        p->terms = t, p->cap = cap;
    }
    ov_term *t = &p->terms[p->nterms++];
    t->coeff = coeff, t->nf = nf;
    memcpy(t->f, f, sizeof *f * (size_t)nf);
    return 1;
}

/* The terms of e (degree <= 1 in every symbol, no opaque atom) times the
 * factors f[0..nf-1], appended: 1, 0 when e does not compile, -1 when out
 * of memory.  e = coeff(s) x s + e[s := 0] for its first symbol s. */
static int plan_terms(rt_ov_plan *p, const rt_overlap *o, const int *path, int d, int n,
                      const char *const *names, const kx_expr *e, int *f, int nf)
{
    int64_t c;
    if (kx_is_const(e, &c))
        return c ? plan_push(p, c, f, nf) : 1;
    if (kx_has_opaque(e) || nf == MAX_FACTORS)
        return 0;
    char **syms = NULL;
    int ns = kx_symbols(e, &syms);
    if (ns <= 0)
        return ns < 0 ? -1 : 0;
    int slot = kx_degree(e, syms[0]) == 1 ? plan_slot(o, path, d, n, names, syms[0]) : -1, rc = 0;
    if (slot >= 0) {
        kx_expr *zero = kx_int(0), *cf = kx_coeff(e, syms[0]);
        kx_expr *rest = zero ? kx_subst(e, syms[0], zero) : NULL;
        if (!zero || !cf || !rest)
            rc = -1;
        else {
            f[nf] = slot;
            rc = plan_terms(p, o, path, d, n, names, cf, f, nf + 1);
            if (rc == 1)
                rc = plan_terms(p, o, path, d, n, names, rest, f, nf);
        }
        kx_free(zero), kx_free(cf), kx_free(rest);
    }
    kx_free_names(syms, ns);
    return rc;
}

/* e compiled with the first d loops of path bound into *x: 1, 0 when it
 * does not compile, -1 when out of memory. */
static int plan_aff(rt_ov_plan *p, const rt_overlap *o, const int *path, int d, int n,
                    const char *const *names, const kx_expr *e, ov_aff *x)
{
    int f[MAX_FACTORS];
    x->first = p->nterms;
    int rc = e ? plan_terms(p, o, path, d, n, names, e, f, 0) : 0;
    x->n = p->nterms - x->first;
    return rc;
}

/* Compile every loop and access of o (p->compiled stays 0 where one does
 * not compile, or a by-name check would fail whatever the values are).
 * -1: out of memory. */
static int plan_compile(rt_ov_plan *p, const rt_overlap *o, int n, const char *const *names)
{
    p->lower = calloc((size_t)o->nloops + 1, sizeof *p->lower);
    p->trip = calloc((size_t)o->nloops + 1, sizeof *p->trip);
    p->acc = calloc((size_t)o->naccs + 1, sizeof *p->acc);
    unsigned char *done = calloc((size_t)o->nloops + 1, 1);
    int rc = !p->lower || !p->trip || !p->acc || !done ? -1 : 1;
    for (int a = 0; a < o->naccs && rc == 1; a++) {
        const rt_ov_access *ac = &o->accs[a];
        ov_acc_plan *ap = &p->acc[a];
        int rev[MAX_DEPTH], d = 0;
        for (int k = ac->loop; k >= 0 && rc == 1; k = o->loops[k].parent) {
            if (!o->loops[k].iv)
                continue;
            if (d == MAX_DEPTH)
                rc = 0;
            else
                rev[d++] = k;
        }
        for (int t = 0; t < d && rc == 1; t++)
            ap->path[t] = rev[d - 1 - t];
        ap->depth = d;
        for (int j = 0; j < d && rc == 1; j++) {
            int k = ap->path[j];
            const rt_ov_loop *l = &o->loops[k];
            if (!l->lower || !l->trip || l->step == 0 || !corner_exact(o, ap->path, j, l->lower)
                || !corner_exact(o, ap->path, j, l->trip))
                rc = 0;
            else if (!done[k]) {
                rc = plan_aff(p, o, ap->path, j, n, names, l->lower, &p->lower[k]);
                if (rc == 1)
                    rc = plan_aff(p, o, ap->path, j, n, names, l->trip, &p->trip[k]);
                done[k] = 1;
            }
        }
        if (rc == 1 && (!ac->offset || ac->elem <= 0 || !corner_exact(o, ap->path, d, ac->offset)))
            rc = 0;
        if (rc == 1)
            rc = plan_aff(p, o, ap->path, d, n, names, ac->offset, &ap->offset);
    }
    free(done);
    if (rc < 0)
        return -1;
    p->compiled = rc == 1;
    return 0;
}

enum { BOX_LOOPS = 64 };   /* nests up to this many loops share their intervals */

/* The flat form of a compiled plan, when it has one (see ov_fterm): the
 * loops of the accesses' paths, whose bounds must name no loop variable,
 * and each offset's terms with their one loop variable (as a place on the
 * access's path) apart from the passed values they multiply.  Leaves
 * p->flat 0 where the form does not apply (or memory runs out): the
 * compiled plan then answers alone. */
static void flat_compile(rt_ov_plan *p, const rt_overlap *o)
{
    if (!p->compiled || o->nloops > BOX_LOOPS)
        return;
    unsigned char used[BOX_LOOPS];
    memset(used, 0, sizeof used);
    int nft = 0, nbox = 0;
    for (int a = 0; a < o->naccs; a++) {
        const ov_acc_plan *ap = &p->acc[a];
        for (int j = 0; j < ap->depth; j++)
            if (!used[ap->path[j]])
                used[ap->path[j]] = 1, nbox++;
        for (int i = 0; i < ap->offset.n; i++) {
            const ov_term *t = &p->terms[ap->offset.first + i];
            int ivs = 0;
            for (int k = 0; k < t->nf; k++)
                ivs += t->f[k] < MAX_DEPTH;
            if (ivs > 1)
                return;
        }
        nft += ap->offset.n;
    }
    for (int k = 0; k < o->nloops; k++) {
        const ov_aff *x[2] = { &p->lower[k], &p->trip[k] };
        for (int w = 0; w < 2 && used[k]; w++)
            for (int i = 0; i < x[w]->n; i++)
                for (int j = 0; j < p->terms[x[w]->first + i].nf; j++)
                    if (p->terms[x[w]->first + i].f[j] < MAX_DEPTH)
                        return;
    }
    p->box = malloc(sizeof *p->box * (size_t)(nbox + 1));
    p->foff = malloc(sizeof *p->foff * (size_t)(o->naccs + 1));
    p->fterms = malloc(sizeof *p->fterms * (size_t)(nft + 1));
    if (!p->box || !p->foff || !p->fterms)
        return;
    p->nbox = 0;
    for (int k = 0; k < o->nloops; k++)
        if (used[k])
            p->box[p->nbox++] = k;
    int at = 0;
    for (int a = 0; a < o->naccs; a++) {
        const ov_acc_plan *ap = &p->acc[a];
        p->foff[a] = (ov_foff){ at, ap->offset.n };
        for (int i = 0; i < ap->offset.n; i++) {
            const ov_term *t = &p->terms[ap->offset.first + i];
            ov_fterm *ft = &p->fterms[at++];
            ft->coeff = t->coeff, ft->iv = -1, ft->nv = 0;
            for (int k = 0; k < t->nf; k++)
                if (t->f[k] < MAX_DEPTH)
                    ft->iv = t->f[k];
                else
                    ft->v[ft->nv++] = t->f[k] - MAX_DEPTH;
        }
    }
    p->flat = 1;
}

static int prepare(const rt_overlap *o, int n, const char *const *names, rt_ov_plan **plan,
                   char *why, size_t whylen, int compile)
{
    *plan = NULL;
    if (o->nbases > MAX_BASES)
        return snprintf(why, whylen, "overlap unchecked: more than %d bases", MAX_BASES), -1;
    for (int a = 0; a < o->naccs; a++)
        if (!o->accs[a].offset || o->accs[a].elem <= 0)
            return snprintf(why, whylen, "overlap unchecked: %s has no bounded extent",
                            o->accs[a].text), -1;
    rt_ov_plan *p = calloc(1, sizeof *p);
    int *s = p ? calloc((size_t)o->nbases + 1, sizeof *s) : NULL;
    if (!s) {
        free(p);
        return snprintf(why, whylen, "out of memory"), -1;
    }
    p->slot = s;
    p->nbases = o->nbases;
    for (int b = 0; b < o->nbases; b++) {
        const char *nm = o->bases[b].name;
        if (!o->bases[b].checkable) {
            rt_overlap_plan_free(p);
            return snprintf(why, whylen, "overlap unchecked: %s cannot be read before the loop",
                            nm), -1;
        }
        s[b] = -1;
        for (int i = 0; i < n && s[b] < 0; i++)
            if (names[i] && names[i][0] == '&' && !strcmp(names[i] + 1, nm))
                s[b] = i;
        if (s[b] < 0) {
            rt_overlap_plan_free(p);
            return snprintf(why, whylen, "overlap unchecked: the call does not pass %s", nm), -1;
        }
    }
    if (compile && plan_compile(p, o, n, names) != 0) {
        rt_overlap_plan_free(p);
        return snprintf(why, whylen, "out of memory"), -1;
    }
    flat_compile(p, o);
    *plan = p;
    return 0;
}

int rt_overlap_prepare(const rt_overlap *o, int n, const char *const *names, rt_ov_plan **plan,
                       char *why, size_t whylen)
{
    return prepare(o, n, names, plan, why, whylen, 1);
}

int rt_overlap_prepare_slots(const rt_overlap *o, int n, const char *const *names,
                             rt_ov_plan **plan, char *why, size_t whylen)
{
    return prepare(o, n, names, plan, why, whylen, 0);
}

/* x with the loop variables iv and the call's values; 0 when kx_eval
 * could overflow in some order of its steps (then the by-name check runs):
 * every step is bounded by a term's coefficient times the product of its
 * factors' magnitudes (at least 1 each), and the sum of those bounds must
 * stay below 2^63. */
static int aff_eval(const rt_ov_plan *p, const ov_aff *x, const int64_t *iv,
                    const long long *values, int64_t *v)
{
    /* |each partial product| <= bound, |each partial sum| <= mag: neither
     * the products nor the sums below can overflow */
    int64_t sum = 0;
    uint64_t mag = 0;
    for (int i = 0; i < x->n; i++) {
        const ov_term *t = &p->terms[x->first + i];
        int64_t q = t->coeff;
        uint64_t bound = q < 0 ? -(uint64_t)q : (uint64_t)q;
        if (bound > INT64_MAX)
            return 0;
        for (int k = 0; k < t->nf; k++) {
            int s = t->f[k];
            int64_t val = s < MAX_DEPTH ? iv[s] : (int64_t)values[s - MAX_DEPTH];
            uint64_t m = val < 0 ? -(uint64_t)val : (uint64_t)val;
            if (__builtin_mul_overflow(bound, m > 1 ? m : 1, &bound) || bound > INT64_MAX)
                return 0;
            q *= val;
        }
        if (__builtin_add_overflow(mag, bound, &mag) || mag > INT64_MAX)
            return 0;
        sum += q;
    }
    *v = sum;
    return 1;
}

/* rt_overlap_elems from the plan: 1, or 0 when the by-name check must
 * run.  A loop's interval depends only on the loops around it, so the
 * accesses of one check share them: box_lo/box_hi[k] hold loop k's once
 * known[k] is set (box arrays NULL: none kept). */
static int plan_elems(const rt_ov_plan *p, const rt_overlap *o, int a, const long long *values,
                      int64_t *box_lo, int64_t *box_hi, unsigned char *known, int64_t *lo,
                      int64_t *hi)
{
    const ov_acc_plan *ap = &p->acc[a];
    int d = ap->depth;
    int64_t ivlo[MAX_DEPTH], ivhi[MAX_DEPTH], v[MAX_DEPTH];
    for (int j = 0; j < d; j++) {
        int k = ap->path[j];
        if (known && known[k]) {
            ivlo[j] = box_lo[k], ivhi[j] = box_hi[k];
            continue;
        }
        int64_t step = o->loops[k].step, l0, t0;
        int64_t first_lo = 0, first_hi = 0, last_lo = 0, last_hi = 0;
        for (unsigned m = 0; m < 1u << j; m++) {
            for (int t = 0; t < j; t++)
                v[t] = (m >> t) & 1 ? ivhi[t] : ivlo[t];
            if (!aff_eval(p, &p->lower[k], v, values, &l0) || !aff_eval(p, &p->trip[k], v, values, &t0))
                return 0;
            __int128 last = (__int128)l0 + (__int128)step * (t0 > 1 ? t0 - 1 : 0);
            if (last > INT64_MAX || last < INT64_MIN)
                return 0;
            int64_t l1 = (int64_t)last;
            if (m == 0 || l0 < first_lo) first_lo = l0;
            if (m == 0 || l0 > first_hi) first_hi = l0;
            if (m == 0 || l1 < last_lo) last_lo = l1;
            if (m == 0 || l1 > last_hi) last_hi = l1;
        }
        ivlo[j] = first_lo < last_lo ? first_lo : last_lo;
        ivhi[j] = first_hi > last_hi ? first_hi : last_hi;
        if (known)
            box_lo[k] = ivlo[j], box_hi[k] = ivhi[j], known[k] = 1;
    }
    for (unsigned m = 0; m < 1u << d; m++) {
        for (int t = 0; t < d; t++)
            v[t] = (m >> t) & 1 ? ivhi[t] : ivlo[t];
        int64_t x;
        if (!aff_eval(p, &ap->offset, v, values, &x))
            return 0;
        if (m == 0 || x < *lo)
            *lo = x;
        if (m == 0 || x > *hi)
            *hi = x;
    }
    return 1;
}

/* The intervals of the flat form's loops (box_lo/box_hi[k], as
 * plan_elems finds them: a rectangular box has one corner per loop): 1,
 * or 0 when plan_elems must run. */
static int flat_box(const rt_ov_plan *p, const rt_overlap *o, const long long *values,
                    int64_t *box_lo, int64_t *box_hi)
{
    static const int64_t none[MAX_DEPTH];      /* (the bounds name no loop variable) */
    for (int i = 0; i < p->nbox; i++) {
        int k = p->box[i];
        int64_t l0, t0;
        if (!aff_eval(p, &p->lower[k], none, values, &l0) ||
            !aff_eval(p, &p->trip[k], none, values, &t0))
            return 0;
        __int128 last = (__int128)l0 + (__int128)o->loops[k].step * (t0 > 1 ? t0 - 1 : 0);
        if (last > INT64_MAX || last < INT64_MIN)
            return 0;
        int64_t l1 = (int64_t)last;
        box_lo[k] = l0 < l1 ? l0 : l1;
        box_hi[k] = l0 > l1 ? l0 : l1;
    }
    return 1;
}

/* plan_elems' answer from the flat form: the offset's smallest and
 * largest value over the box's corners, as a constant plus, per loop
 * variable, the smaller (larger) of its summed coefficient times the two
 * ends.  Every term's magnitude at its worse end is bounded as aff_eval
 * bounds it at a corner; when the sum of those bounds stays below 2^63
 * no corner can make aff_eval give up and no sum here overflows, so the
 * extremes are plan_elems' exactly.  0 otherwise: plan_elems decides. */
static int flat_elems(const rt_ov_plan *p, int a, const long long *values, const int64_t *box_lo,
                      const int64_t *box_hi, int64_t *lo, int64_t *hi)
{
    const ov_acc_plan *ap = &p->acc[a];
    const ov_fterm *t = p->fterms + p->foff[a].first, *end = t + p->foff[a].n;
    int64_t c = 0, g[MAX_DEPTH] = { 0 };    /* (a fixed size: a few stores, no memset call) */
    uint64_t mag = 0;
    for (; t < end; t++) {
        int64_t q = t->coeff;
        uint64_t b = q < 0 ? -(uint64_t)q : (uint64_t)q;
        if (b > INT64_MAX)
            return 0;
        for (int i = 0; i < t->nv; i++) {
            int64_t val = values[t->v[i]];
            uint64_t m = val < 0 ? -(uint64_t)val : (uint64_t)val;
            if (__builtin_mul_overflow(b, m > 1 ? m : 1, &b) || b > INT64_MAX)
                return 0;
            q *= val;
        }
        if (t->iv >= 0) {
            int k = ap->path[t->iv];
            uint64_t x0 = box_lo[k] < 0 ? -(uint64_t)box_lo[k] : (uint64_t)box_lo[k];
            uint64_t x1 = box_hi[k] < 0 ? -(uint64_t)box_hi[k] : (uint64_t)box_hi[k];
            uint64_t x = x0 > x1 ? x0 : x1;
            if (__builtin_mul_overflow(b, x > 1 ? x : 1, &b) || b > INT64_MAX)
                return 0;
            g[t->iv] += q;
        } else
            c += q;
        if (__builtin_add_overflow(mag, b, &mag) || mag > INT64_MAX)
            return 0;
    }
    int64_t mn = c, mx = c;
    for (int j = 0; j < ap->depth; j++)
        if (g[j]) {
            int k = ap->path[j];
            int64_t u = g[j] * box_lo[k], w = g[j] * box_hi[k];
            mn += u < w ? u : w;
            mx += u > w ? u : w;
        }
    *lo = mn, *hi = mx;
    return 1;
}

/* Grow base b's byte range [lo[b], hi[b]) to take in [l, h); seen[b]
 * says whether it holds a range yet. */
static void widen(uint64_t *lo, uint64_t *hi, unsigned char *seen, int b, uint64_t l,
                  uint64_t h)
{
    if (!seen[b] || l < lo[b])
        lo[b] = l;
    if (!seen[b] || h > hi[b])
        hi[b] = h;
    seen[b] = 1;
}

/* The check with every expression evaluated by name. */
static int check_named(const rt_overlap *o, const int *slot, int n, const char *const *names,
                       const long long *values, char *why, size_t whylen)
{
    if (o->nbases > MAX_BASES)
        return snprintf(why, whylen, "overlap unchecked: more than %d bases", MAX_BASES), -1;
    /* per base: the hull of all its ranges and of its written ones */
    uint64_t alo[MAX_BASES], ahi[MAX_BASES], wlo[MAX_BASES], whi[MAX_BASES];
    unsigned char have[MAX_BASES], wr[MAX_BASES];
    memset(have, 0, sizeof have);
    memset(wr, 0, sizeof wr);
    for (int a = 0; a < o->naccs; a++) {
        const rt_ov_access *ac = &o->accs[a];
        uint64_t lo, hi;
        char e2[160];
        int b = ac->base;
        if (rt_overlap_bytes(o, a, (uint64_t)values[slot[b]], n, names, values, &lo, &hi, e2,
                             sizeof e2))
            return snprintf(why, whylen, "overlap unchecked: %s", e2), -1;
        widen(alo, ahi, have, b, lo, hi);
        if (ac->is_write)
            widen(wlo, whi, wr, b, lo, hi);
    }
    return apart(o, have, wr, alo, ahi, wlo, whi, why, whylen);
}

int rt_overlap_check(const rt_overlap *o, const rt_ov_plan *p, int n, const char *const *names,
                     const long long *values, char *why, size_t whylen)
{
    if (o->nbases > MAX_BASES)
        return snprintf(why, whylen, "overlap unchecked: more than %d bases", MAX_BASES), -1;
    if (!p || p->nbases != o->nbases)
        return snprintf(why, whylen, "overlap unchecked: no plan for this condition"), -1;
    if (!p->compiled)
        return check_named(o, p->slot, n, names, values, why, whylen);
    uint64_t alo[MAX_BASES], ahi[MAX_BASES], wlo[MAX_BASES], whi[MAX_BASES];
    unsigned char have[MAX_BASES], wr[MAX_BASES];
    int64_t box_lo[BOX_LOOPS], box_hi[BOX_LOOPS], flo[BOX_LOOPS], fhi[BOX_LOOPS];
    unsigned char known[BOX_LOOPS];
    int share = o->nloops <= BOX_LOOPS;
    int flat = p->flat && flat_box(p, o, values, flo, fhi);
    /* whole arrays of a fixed size: the compiler clears them with a few
     * stores where a size known only now costs a call to memset */
    memset(have, 0, sizeof have);
    memset(wr, 0, sizeof wr);
    if (share)
        memset(known, 0, sizeof known);
    for (int a = 0; a < o->naccs; a++) {
        const rt_ov_access *ac = &o->accs[a];
        int b = ac->base;
        int64_t e0 = 0, e1 = 0;
        if (!(flat && flat_elems(p, a, values, flo, fhi, &e0, &e1)) &&
            !plan_elems(p, o, a, values, share ? box_lo : NULL, share ? box_hi : NULL,
                        share ? known : NULL, &e0, &e1))
            return check_named(o, p->slot, n, names, values, why, whylen);
        uint64_t addr = (uint64_t)values[p->slot[b]], lo, hi;
        int64_t p0, p1;
        /* the usual range, non-negative offsets that stay in 64 bits: the
         * same bytes as the 128-bit sums below */
        if (__builtin_mul_overflow((int64_t)ac->elem, e0, &p0) || p0 < 0 || e1 == INT64_MAX ||
            __builtin_mul_overflow((int64_t)ac->elem, e1 + 1, &p1) || p1 < 0 ||
            __builtin_add_overflow(addr, (uint64_t)p0, &lo) ||
            __builtin_add_overflow(addr, (uint64_t)p1, &hi)) {
            __int128 b0 = (__int128)addr + (__int128)ac->elem * e0;
            __int128 b1 = (__int128)addr + (__int128)ac->elem * ((__int128)e1 + 1);
            if (b0 < 0 || b1 > (__int128)UINT64_MAX)
                return check_named(o, p->slot, n, names, values, why, whylen);
            lo = (uint64_t)b0, hi = (uint64_t)b1;
        }
        widen(alo, ahi, have, b, lo, hi);
        if (ac->is_write)
            widen(wlo, whi, wr, b, lo, hi);
    }
    return apart(o, have, wr, alo, ahi, wlo, whi, why, whylen);
}

int rt_overlap_check_named(const rt_overlap *o, const rt_ov_plan *p, int n,
                           const char *const *names, const long long *values, char *why,
                           size_t whylen)
{
    if (!p || p->nbases != o->nbases)
        return snprintf(why, whylen, "overlap unchecked: no plan for this condition"), -1;
    return check_named(o, p->slot, n, names, values, why, whylen);
}
