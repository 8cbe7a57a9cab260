/*
 * recur.c -- recurrences carried by an innermost loop (recur.h says what
 * is found and why): the dependence test on the statement's accesses, the
 * operations between the carried read and the value stored (the front
 * end's flow of each read, ir.h ir_flow, from libclang's expanded tree),
 * the fact text, and which loops carry no other chain.
 */
#include "recur.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

const char *recur_op_name(int k)
{
    return ku_chain_op_name(k);
}

/* ---- the dependence test -------------------------------------------------- */

/* Distance in iterations of loop (iv, step) from write w to read r of the
 * same array: the smallest d in 1..16 with r(iv + d*step) == w(iv) in
 * every subscript; -1 for an accumulator (equal subscripts that do not
 * mention iv); 0 when neither. */
static int distance(const ir_access *w, const ir_access *r, const char *iv, int64_t step)
{
    if (w->ndims != r->ndims || w->ndims <= 0)
        return 0;
    int same = 1, moves = 0;
    for (int k = 0; k < w->ndims; k++) {
        if (!w->index[k] || !r->index[k])
            return 0;
        same &= kx_equal(w->index[k], r->index[k]);
        moves |= kx_mentions(w->index[k], iv);
    }
    if (same)
        return moves ? 0 : -1;
    kx_expr *v = kx_sym(iv);
    for (int d = 1; d <= 16 && v; d++) {
        kx_expr *sh = kx_int(d * step);
        kx_expr *at = sh ? kx_add(v, sh) : NULL;
        int all = at != NULL;
        for (int k = 0; k < w->ndims && all; k++) {
            kx_expr *e = kx_subst(r->index[k], iv, at);
            all = e && kx_equal(e, w->index[k]);
            kx_free(e);
        }
        kx_free(sh);
        kx_free(at);
        if (all) {
            kx_free(v);
            return d;
        }
    }
    kx_free(v);
    return 0;
}

/* Does loop lp store anywhere that may be w's element, but through
 * another write than w's own (same array, same subscripts)?  Distinct
 * array objects never overlap; anything else may.  Only then must the
 * compiler load the accumulator again after the store: with no such store
 * between, the value stored is forwarded in a register (loads do not
 * clobber it) and llvm-mca sees that chain itself. */
static int other_store(const ir_loop *lp, const ir_access *w)
{
    for (int s = 0; s < lp->nstmts; s++)
        for (int a = 0; a < lp->stmts[s].nacc; a++) {
            const ir_access *o = &lp->stmts[s].acc[a];
            if (!o->is_write || o == w)
                continue;
            int same_array = !strcmp(o->array, w->array);
            if (!same_array && o->base == IR_BASE_ARRAY && w->base == IR_BASE_ARRAY)
                continue;
            int same = same_array && o->ndims == w->ndims;
            for (int k = 0; same && k < w->ndims; k++)
                same = o->index[k] && w->index[k] && kx_equal(o->index[k], w->index[k]);
            if (!same)
                return 1;
        }
    return 0;
}

/* Does statement s of lp both read and write scalar v, and no other
 * statement of lp name v?  Then v is an accumulator whose chain
 * recur_loop_fact follows in s. */
static int scalar_accumulator(const ir_loop *lp, int s, const char *v)
{
    int rd = 0, wr = 0;
    for (int t = 0; t < lp->nstmts; t++)
        for (int k = 0; k < lp->stmts[t].nscalars; k++) {
            const ir_scalar *x = &lp->stmts[t].scalars[k];
            if (strcmp(x->name, v) != 0)
                continue;
            if (t != s)
                return 0;
            rd |= !x->is_write, wr |= x->is_write;
        }
    return rd && wr;
}

/* Is every chain loop lp carries one recur_loop_fact finds?  Every
 * statement unconditional and with no call, no scalar written (a scalar
 * may carry a chain in a register), and every array the loop writes read
 * only by the statement that writes it (no chain between statements). */
static int complete(const ir_loop *lp)
{
    for (int s = 0; s < lp->nstmts; s++) {
        const ir_stmt *st = &lp->stmts[s];
        if (st->conditional || st->ncalls > 0)
            return 0;
        for (int v = 0; v < st->nscalars; v++)
            if (st->scalars[v].is_write && !scalar_accumulator(lp, s, st->scalars[v].name))
                return 0;
        for (int a = 0; a < st->nacc; a++) {
            if (!st->acc[a].is_write)
                continue;
            for (int t = 0; t < lp->nstmts; t++)
                for (int b = 0; t != s && b < lp->stmts[t].nacc; b++)
                    if (!strcmp(lp->stmts[t].acc[b].array, st->acc[a].array))
                        return 0;
        }
    }
    return 1;
}

/* A chain found, before it is written out. */
typedef struct {
    char rt[96], wt[96];       /* the read's and the write's text */
    recur_chain c;
    int opaque;                /* an operation of unknown latency on its way */
} found_chain;

typedef struct {
    found_chain *v;
    int n;
    int dropped;               /* a carried read whose way is not known */
    int opaque;                /* a chain with an operation of unknown latency */
    int oom;
} chain_set;

/* Is a at least b in every operation (same read, write, distance, round
 * trip)?  Then b's delay is never above a's: b adds nothing. */
static int covers(const found_chain *a, const found_chain *b)
{
    if (strcmp(a->rt, b->rt) || strcmp(a->wt, b->wt) || a->c.dist != b->c.dist ||
        a->c.mem != b->c.mem)
        return 0;
    for (int k = 0; k < RECUR_NOPS; k++)
        if (a->c.ops[k] < b->c.ops[k])
            return 0;
    return 1;
}

/* Add chain x to the set unless one there covers it (a read that appears
 * twice on the way, as the operand of a max macro's comparison and of
 * its arm: the longer way is kept); chains it covers go. */
static void add_chain(chain_set *cs, const found_chain *x)
{
    for (int i = 0; i < cs->n; i++)
        if (covers(&cs->v[i], x))
            return;
    int o = 0;
    for (int i = 0; i < cs->n; i++)
        if (!covers(x, &cs->v[i]))
            cs->v[o++] = cs->v[i];
    cs->n = o;
    found_chain *slot = ku_push(&cs->v, &cs->n, sizeof *slot);
    if (!slot) {
        cs->oom = 1;
        return;
    }
    *slot = *x;
}

/* The chain along read flow f (dist, mem given) into the set; a way with
 * no operation and no round trip says nothing: dropped. */
static void add_flow(chain_set *cs, const ir_flow *f, const char *rt, const char *wt, int dist,
                     int mem)
{
    found_chain x;
    memset(&x, 0, sizeof x);
    snprintf(x.rt, sizeof x.rt, "%s", rt);
    snprintf(x.wt, sizeof x.wt, "%s", wt);
    x.c.dist = dist;
    x.c.mem = mem;
    x.opaque = f->opaque;
    int any = mem;
    for (int k = 0; k < RECUR_NOPS; k++)
        any |= (x.c.ops[k] = f->ops[k]) > 0;
    if (!any) {
        cs->dropped = 1;               /* nothing known on the way */
        return;
    }
    cs->opaque |= f->opaque;
    add_chain(cs, &x);
}

/* The access's text without blanks, "A[i][j-1]". */
static void access_text(const ir_access *a, char *out, size_t outlen)
{
    char buf[256];
    ir_access_text(a, buf, sizeof buf);
    size_t o = 0;
    for (const char *q = buf; *q && o + 1 < outlen; q++)
        if (*q != ' ')
            out[o++] = *q;
    out[o] = '\0';
}

/* The chains of statement s of loop lp into cs. */
static void stmt_chains(const ir_loop *lp, int s, chain_set *cs)
{
    const ir_stmt *st = &lp->stmts[s];
    for (int wi = 0; wi < st->nacc; wi++) {
        const ir_access *w = &st->acc[wi];
        if (!w->is_write || !strcmp(w->array, "?"))
            continue;
        for (int ri = 0; ri < st->nacc; ri++) {
            const ir_access *r = &st->acc[ri];
            if (r->is_write || strcmp(r->array, w->array) != 0)
                continue;
            int d = distance(w, r, lp->iv, lp->step);
            if (d == 0)
                continue;
            if (r->flow.to_kind != IR_FLOW_ACCESS || r->flow.to != wi) {
                cs->dropped = 1;   /* carried, but its value's way is not this write */
                continue;
            }
            char rt[96], wt[96];
            access_text(r, rt, sizeof rt);
            access_text(w, wt, sizeof wt);
            add_flow(cs, &r->flow, rt, wt, d < 0 ? 1 : d, d < 0 && other_store(lp, w));
        }
    }
    /* scalar accumulators: w -= A[i][k] * A[k][j] (in a register) */
    for (int wv = 0; wv < st->nscalars; wv++) {
        const char *name = st->scalars[wv].name;
        if (!st->scalars[wv].is_write || !scalar_accumulator(lp, s, name))
            continue;
        int before = cs->n, reads = 0;
        for (int rv = 0; rv < st->nscalars; rv++) {
            const ir_scalar *r = &st->scalars[rv];
            if (r->is_write || strcmp(r->name, name) != 0)
                continue;
            reads++;
            if (r->flow.to_kind == IR_FLOW_SCALAR && r->flow.to == wv)
                add_flow(cs, &r->flow, name, name, 1, 0);
        }
        if (reads && cs->n == before)
            cs->dropped = 1;
    }
}

/* Append "text" to *buf (grown); 0 or -1. */
static int append(char **buf, size_t *len, size_t *cap, const char *text)
{
    size_t k = strlen(text);
    if (*len + k + 1 > *cap) {
        size_t nc = (*len + k + 1) * 2;
        char *nb = realloc(*buf, nc);
        if (!nb)
            return -1;
        *buf = nb, *cap = nc;
    }
    memcpy(*buf + *len, text, k + 1);
    *len += k;
    return 0;
}

/* The fact text of the first n chains of v, " all" after each when all. */
static char *fact_text(const found_chain *v, int n, int all)
{
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (int i = 0; i < n; i++) {
        char one[320];
        const recur_chain *c = &v[i].c;
        int m = snprintf(one, sizeof one, "%s%s->%s dist=%d", i ? "; " : "", v[i].rt, v[i].wt,
                         c->dist);
        for (int k = 0; k < RECUR_NOPS && m < (int)sizeof one; k++)
            if (c->ops[k])
                m += snprintf(one + m, sizeof one - (size_t)m, " %s=%d", recur_op_name(k),
                              c->ops[k]);
        if (c->mem && m < (int)sizeof one)
            m += snprintf(one + m, sizeof one - (size_t)m, " mem");
        if (all && m < (int)sizeof one)
            snprintf(one + m, sizeof one - (size_t)m, " all");
        if (append(&buf, &len, &cap, one)) {
            free(buf);
            return NULL;
        }
    }
    return buf;
}

char *recur_loop_fact(const ir_tu *tu, int l, int *oom)
{
    *oom = 0;
    if (l < 0 || l >= tu->nloops)
        return NULL;
    const ir_loop *lp = &tu->loops[l];
    if (lp->kind != IR_FOR || !lp->canonical || !lp->iv || lp->step == 0)
        return NULL;
    /* not innermost: in pre-order a child is the next loop, else any */
    for (int k = tu->unordered ? 0 : l + 1; k < (tu->unordered ? tu->nloops : ir_nest_end(tu, l)); k++)
        if (tu->loops[k].parent == l)
            return NULL;
    chain_set cs;
    memset(&cs, 0, sizeof cs);
    for (int s = 0; s < lp->nstmts && !cs.oom; s++)
        if (!lp->stmts[s].conditional)
            stmt_chains(lp, s, &cs);
    char *text = NULL;
    if (!cs.oom && cs.n > 0) {
        int n = cs.n < RECUR_MAX_CHAINS ? cs.n : RECUR_MAX_CHAINS;
        /* every chain found, each with every latency known: each says so */
        int all = !cs.dropped && !cs.opaque && cs.n <= RECUR_MAX_CHAINS && complete(lp);
        text = fact_text(cs.v, n, all);
        cs.oom = !text;
    }
    free(cs.v);
    *oom = cs.oom;
    return cs.oom ? NULL : text;
}
