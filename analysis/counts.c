/*
 * counts.c -- symbolic operation counts and bytes per loop (see counts.h).
 *
 * Per statement execution: the IR's ir_ops (float add/sub, mul, div, fma
 * pairs, math calls; integer add, mul, div, compares), one load per array
 * read access, one store per array write access, elem_size bytes each.
 * iteration(L) = statements directly in L + total(child) for each child;
 * total(L) = sum over L's variable of iteration(L).
 */
#include "counts.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a < 0 ? -a : a;
}

static counts_q q_int(int64_t v)
{
    counts_q q = { kx_int(v), 1 };
    return q;
}

static void q_free(counts_q *q)
{
    kx_free(q->p);
    q->p = NULL;
}

/* a + b */
static counts_q q_add(const counts_q *a, const counts_q *b)
{
    int64_t g = gcd64(a->den, b->den);
    int64_t l = a->den / g * b->den;
    kx_expr *fa = kx_int(l / a->den), *fb = kx_int(l / b->den);
    kx_expr *x = kx_mul(a->p, fa), *y = kx_mul(b->p, fb);
    counts_q r = { kx_add(x, y), l };
    kx_free(fa);
    kx_free(fb);
    kx_free(x);
    kx_free(y);
    return r;
}

char *counts_q_print(const counts_q *q)
{
    char *p = kx_print(q->p);
    if (!p || q->den == 1)
        return p;
    size_t n = strlen(p) + 32;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "div(%s, %lld)", p, (long long)q->den);
    free(p);
    return s;
}

int counts_sum(const ir_tu *tu, int l, const counts_q *q, counts_q *out)
{
    return counts_sum_why(tu, l, q, out, NULL, 0);
}

int counts_sum_why(const ir_tu *tu, int l, const counts_q *q, counts_q *out,
                   char *why, size_t whylen)
{
    const ir_loop *L = &tu->loops[l];
    const char *iv = L->iv;
    int d = iv ? kx_degree(q->p, iv) : 0;
    int opaque_dep = iv && kx_mentions(q->p, iv) && d == 0;
    kx_expr *lo = NULL, *hi = NULL;
    if (L->canonical && L->lower && L->upper && (L->step == 1 || L->step == -1)) {
        kx_expr *one = kx_int(1);
        if (L->step == 1) {
            lo = kx_copy(L->lower);
            hi = kx_copy(L->upper);
        } else {
            lo = kx_add(L->upper, one);
            hi = kx_add(L->lower, one);
        }
        kx_free(one);
    }
    if (!lo || opaque_dep || d > 6) {
        /* bound: body times the trip count, the variable left in place */
        if (why && whylen && !why[0]) {   /* exact when the body ignores iv */
            if (!L->trip)
                snprintf(why, whylen, "line %d: trip count unknown: counts use trip@%d",
                         L->line, L->line);
            else if (!lo && kx_mentions(q->p, iv))
                snprintf(why, whylen, "line %d: body depends on %s, loop not bounded with step"
                         " +-1: count is body x trip, %s left in place", L->line, iv, iv);
            else if (opaque_dep)
                snprintf(why, whylen, "line %d: body not a polynomial in %s: count is body x"
                         " trip, %s left in place", L->line, iv, iv);
            else if (d > 6)
                snprintf(why, whylen, "line %d: body of degree %d in %s (above 6): count is"
                         " body x trip, %s left in place", L->line, d, iv, iv);
        }
        kx_expr *trip;
        if (L->trip) {
            trip = kx_copy(L->trip);
        } else {
            char name[32];
            snprintf(name, sizeof name, "trip@%d", L->line);
            trip = kx_op(KX_UNKNOWN, name, 0, NULL);
        }
        out->p = kx_mul(q->p, trip);
        out->den = q->den;
        kx_free(trip);
        kx_free(lo);
        kx_free(hi);
        return out->p ? 0 : -1;
    }
    kx_expr *m = kx_sub(hi, lo);
    /* forward differences of p at lo: diff[k] = D^k p(lo); val[t] = p(lo + t) */
    kx_expr *val[8], *diff[8];
    for (int t = 0; t <= d; t++) {
        kx_expr *c = kx_int(t);
        kx_expr *at = kx_add(lo, c);
        val[t] = kx_subst(q->p, iv, at);
        kx_free(c);
        kx_free(at);
    }
    for (int k = 0; k <= d; k++) {
        diff[k] = kx_copy(val[0]);
        for (int t = 0; t + 1 <= d - k; t++) {
            kx_expr *nx = kx_sub(val[t + 1], val[t]);
            kx_free(val[t]);
            val[t] = nx;
        }
        kx_free(val[d - k]);
        val[d - k] = NULL;
    }
    int64_t fact = 1;
    for (int k = 2; k <= d + 1; k++)
        fact *= k;
    kx_expr *sum = kx_int(0);
    kx_expr *fall = kx_copy(m);        /* m (m-1) ... (m-k) */
    int64_t kf = 1;                    /* (k+1)! */
    for (int k = 0; k <= d; k++) {
        kf *= (k + 1);
        kx_expr *w = kx_int(fact / kf);
        kx_expr *t1 = kx_mul(diff[k], fall);
        kx_expr *t2 = kx_mul(t1, w);
        kx_expr *ns = kx_add(sum, t2);
        kx_free(sum);
        sum = ns;
        kx_free(w);
        kx_free(t1);
        kx_free(t2);
        kx_expr *kk = kx_int(k + 1);
        kx_expr *mk = kx_sub(m, kk);
        kx_expr *nf = kx_mul(fall, mk);
        kx_free(fall);
        fall = nf;
        kx_free(kk);
        kx_free(mk);
        kx_free(diff[k]);
    }
    kx_free(fall);
    kx_free(m);
    kx_free(lo);
    kx_free(hi);
    out->p = sum;
    out->den = q->den * fact;
    return sum ? 0 : -1;
}

/* index of array name in c->arrays, adding it */
static int array_slot(counts_loop *c, const char *name)
{
    for (int i = 0; i < c->narrays; i++)
        if (strcmp(c->arrays[i], name) == 0)
            return i;
    int n = c->narrays + 1, n1 = c->narrays, n2 = c->narrays, n3 = c->narrays;
    if (!ku_push(&c->arrays, &n1, sizeof *c->arrays) || !ku_push(&c->read, &n2, sizeof *c->read)
        || !ku_push(&c->written, &n3, sizeof *c->written))
        return -1;
    c->arrays[n - 1] = strdup(name);
    c->read[n - 1] = q_int(0);
    c->written[n - 1] = q_int(0);
    c->narrays = n;
    return c->arrays[n - 1] ? n - 1 : -1;
}

static void acc_add(counts_q *dst, const counts_q *x)
{
    counts_q s = q_add(dst, x);
    q_free(dst);
    *dst = s;
}

static void acc_add_int(counts_q *dst, int64_t v)
{
    if (v == 0)
        return;
    counts_q x = q_int(v);
    acc_add(dst, &x);
    q_free(&x);
}

static void zero(counts_loop *c)
{
    memset(c, 0, sizeof *c);
    for (int k = 0; k < CNT_NFIXED; k++)
        c->v[k] = q_int(0);
}

/* dst += src (arrays merged by name) */
static int merge(counts_loop *dst, const counts_loop *src)
{
    for (int k = 0; k < CNT_NFIXED; k++)
        acc_add(&dst->v[k], &src->v[k]);
    if (!dst->reason[0])
        memcpy(dst->reason, src->reason, sizeof dst->reason);
    for (int a = 0; a < src->narrays; a++) {
        int s = array_slot(dst, src->arrays[a]);
        if (s < 0)
            return -1;
        acc_add(&dst->read[s], &src->read[a]);
        acc_add(&dst->written[s], &src->written[a]);
    }
    return 0;
}

/* dst = sum over loop l of src */
static int sum_all(const ir_tu *tu, int l, const counts_loop *src, counts_loop *dst)
{
    zero(dst);
    memcpy(dst->reason, src->reason, sizeof dst->reason);
    for (int k = 0; k < CNT_NFIXED; k++) {
        q_free(&dst->v[k]);
        if (counts_sum_why(tu, l, &src->v[k], &dst->v[k], dst->reason, sizeof dst->reason))
            return -1;
    }
    for (int a = 0; a < src->narrays; a++) {
        int s = array_slot(dst, src->arrays[a]);
        if (s < 0)
            return -1;
        q_free(&dst->read[s]);
        q_free(&dst->written[s]);
        if (counts_sum_why(tu, l, &src->read[a], &dst->read[s], dst->reason,
                           sizeof dst->reason) ||
            counts_sum_why(tu, l, &src->written[a], &dst->written[s], dst->reason,
                           sizeof dst->reason))
            return -1;
    }
    return 0;
}

/* *dst = a copy of src */
static int copy_counts(counts_loop *dst, const counts_loop *src)
{
    zero(dst);
    return merge(dst, src);
}

int counts_loop_compute(const ir_tu *tu, int l, int total, counts_loop *out)
{
    return counts_loop_compute_memo(tu, l, total, out, NULL);
}

void counts_memo_free(counts_memo *memo)
{
    if (!memo)
        return;
    for (int l = 0; l < memo->n && memo->have; l++)
        if (memo->have[l])
            counts_loop_free(&memo->total[l]);
    free(memo->total);
    free(memo->have);
    memset(memo, 0, sizeof *memo);
}

int counts_loop_compute_memo(const ir_tu *tu, int l, int total, counts_loop *out,
                             counts_memo *memo)
{
    if (memo && !memo->have) {
        memo->n = tu->nloops;
        memo->total = calloc((size_t)tu->nloops + 1, sizeof *memo->total);
        memo->have = calloc((size_t)tu->nloops + 1, 1);
        if (!memo->total || !memo->have) {
            counts_memo_free(memo);
            return -1;
        }
    }
    if (memo && total && l < memo->n && memo->have[l])
        return copy_counts(out, &memo->total[l]) ? (counts_loop_free(out), -1) : 0;
    counts_loop it;
    zero(&it);
    const ir_loop *L = &tu->loops[l];
    for (int s = 0; s < L->nstmts; s++) {
        const ir_stmt *st = &L->stmts[s];
        const ir_ops *o = &st->ops;
        acc_add_int(&it.v[CNT_FADD], o->fadd);
        acc_add_int(&it.v[CNT_FMUL], o->fmul);
        acc_add_int(&it.v[CNT_FDIV], o->fdiv);
        acc_add_int(&it.v[CNT_FFMA], o->ffma);
        acc_add_int(&it.v[CNT_FMATH], o->fmath);
        acc_add_int(&it.v[CNT_FLOPS], o->fadd + o->fmul + o->fdiv + o->fmath);
        acc_add_int(&it.v[CNT_IOPS], o->iadd + o->imul + o->idiv + o->cmp);
        for (int a = 0; a < st->nacc; a++) {
            const ir_access *ac = &st->acc[a];
            int slot = array_slot(&it, ac->array);
            if (slot < 0) {
                counts_loop_free(&it);
                return -1;
            }
            acc_add_int(&it.v[ac->is_write ? CNT_STORES : CNT_LOADS], 1);
            acc_add_int(&it.v[ac->is_write ? CNT_BYTES_WRITTEN : CNT_BYTES_READ], ac->elem_size);
            acc_add_int(ac->is_write ? &it.written[slot] : &it.read[slot], ac->elem_size);
        }
    }
    int *kids = NULL;
    int nk = ir_children(tu, l, &kids);
    for (int k = 0; k < nk; k++) {
        counts_loop child = { 0 };   /* a failed compute may leave it unwritten */
        if (counts_loop_compute_memo(tu, kids[k], 1, &child, memo) || merge(&it, &child)) {
            counts_loop_free(&child);
            counts_loop_free(&it);
            free(kids);
            return -1;
        }
        counts_loop_free(&child);
    }
    free(kids);
    if (!total) {
        *out = it;
        return 0;
    }
    int rc = sum_all(tu, l, &it, out);
    counts_loop_free(&it);
    if (rc)
        counts_loop_free(out);
    else if (memo && l < memo->n) {
        if (copy_counts(&memo->total[l], out) == 0)
            memo->have[l] = 1;
        else
            counts_loop_free(&memo->total[l]);   /* a half-made copy: not kept */
    }
    return rc;
}

void counts_loop_free(counts_loop *c)
{
    if (!c)
        return;
    for (int k = 0; k < CNT_NFIXED; k++)
        q_free(&c->v[k]);
    for (int a = 0; a < c->narrays; a++) {
        free(c->arrays[a]);
        q_free(&c->read[a]);
        q_free(&c->written[a]);
    }
    free(c->arrays);
    free(c->read);
    free(c->written);
    memset(c, 0, sizeof *c);
}

char *counts_intensity(const counts_loop *c)
{
    counts_q bytes = q_add(&c->v[CNT_BYTES_READ], &c->v[CNT_BYTES_WRITTEN]);
    char *f = counts_q_print(&c->v[CNT_FLOPS]), *b = counts_q_print(&bytes);
    q_free(&bytes);
    char *s = NULL;
    if (f && b) {
        size_t n = strlen(f) + strlen(b) + 16;
        if ((s = malloc(n)))
            snprintf(s, n, "(%s) / (%s)", f, b);
    }
    free(f);
    free(b);
    return s;
}
