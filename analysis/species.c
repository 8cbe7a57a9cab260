/*
 * species.c -- boat-hull algorithm classes of loop nests (see species.h).
 *
 * The boat-hull paper (section 3.2) classifies code by what each input
 * element contributes to each output element ("K|element -> K|element",
 * "K|neighbourhood(3) -> K|element", "K|element -> 1|shared"); Table 1
 * lists the class parameters.  We derive them from the loop IR:
 *
 *   outputs   the arrays the nest writes, in order of first write;
 *   P         the work-unit variables: loop variables the writes mention
 *             (all loop variables when the writes mention none: a sum);
 *   inputs    arrays read and not written, and written arrays read at a
 *             subscript tuple they are never written at (only such reads
 *             count for them), in order of first counted read;
 *   range     per dimension lo:hi, the extremes of the subscripts over the
 *             enclosing loops' bounds (innermost variable first, each
 *             replaced by its lower or upper bound by the sign of its
 *             coefficient; a bounding box, not an exact footprint);
 *   pattern   input: shared (no loop variable), full (no work-unit
 *             variable), chunk(per dim "-" or range) (work-unit and other
 *             variables), neighbourhood(E1x..) (>= 2 tuples at constant
 *             offsets from one another, E = offset extent per dimension),
 *             element (otherwise); output: element, or shared when it
 *             mentions no work-unit variable.
 *
 * Parameters (Table 1, section 4.2, as expressions):
 *   w   work units: the element count of the first output's range when it
 *       is an element output; for a shared output every iteration of the
 *       deepest statement is a work unit (Table 1 "sum": w = A*B).
 *   m   applications of f() per work unit: the product of the trip counts
 *       of the non-work-unit loops around the deepest statement, each trip
 *       bounded above (outer variables at their extremes); 1 when none.
 *   d   compulsory bytes in + out: range elements * element size of every
 *       input and output; an output that is also read at its written
 *       elements (C += ...) counts twice (read and written).
 *   c   the part of d whose accesses are coalesced for work units along
 *       the thread variable t (the innermost work-unit loop around the
 *       deepest statement): t only in the last subscript, with coefficient
 *       -1, 0 or 1 (0: broadcast).  u = d - c (shared outputs are u, as
 *       Table 1's "sum" has u = 1).
 *   f_complexity  float + integer operations of the deepest statement (the
 *       operator f() applied per element).
 */
#include "species.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counts.h"
#include "util.h"

/* No fixed limits: accesses, work-unit variables, loop depth and array
 * dimensions are all held in arrays sized to the nest; an allocation failure
 * makes species_classify return -1 (the caller reports it), never a class
 * computed from part of the nest. */

typedef struct {
    int loop;                 /* loop holding the statement */
    const ir_stmt *st;
    const ir_access *a;
} acc_ref;

typedef struct {
    const ir_tu *tu;
    int root;
    int nacc;
    acc_ref *acc;
    const char **P;
    int nP;
    int oom;
} nest;

/* The loops from l out to the nest's root, innermost first, into *out
 * (malloc'd; free it); returns how many, 0 on allocation failure (n->oom). */
static int chain(nest *n, int l, int **out)
{
    int k = 0;
    *out = NULL;
    for (; l >= 0; l = n->tu->loops[l].parent) {
        assert(l < n->tu->nloops);
        int *e = ku_push(out, &k, sizeof **out);
        if (!e) {
            n->oom = 1;
            free(*out);
            *out = NULL;
            return 0;
        }
        *e = l;
        if (l == n->root)
            break;
    }
    return k;
}

static int mentions_any(const ir_access *a, const char *iv)
{
    for (int d = 0; iv && d < a->ndims; d++)
        if (kx_mentions(a->index[d], iv))
            return 1;
    return 0;
}

static int same_tuple(const ir_access *a, const ir_access *b)
{
    if (strcmp(a->array, b->array) || a->ndims != b->ndims)
        return 0;
    for (int d = 0; d < a->ndims; d++)
        if (!kx_equal(a->index[d], b->index[d]))
            return 0;
    return 1;
}

static void add_P(nest *n, const char *iv)
{
    const char **e = ku_push(&n->P, &n->nP, sizeof *n->P);
    if (e)
        *e = iv;
    else
        n->oom = 1;
}

/* Per-dimension scratch of one array: its range lo:hi, a flag and the
 * constant offset extremes of a neighbourhood. */
typedef struct {
    kx_expr **lo, **hi;
    int *flag;
    int64_t *mn, *mx;
    int oom;
} dims;

static int dims_new(dims *d, int nd)
{
    size_t k = (size_t)(nd > 0 ? nd : 1);
    d->lo = calloc(k, sizeof *d->lo);
    d->hi = calloc(k, sizeof *d->hi);
    d->flag = calloc(k, sizeof *d->flag);
    d->mn = calloc(k, sizeof *d->mn);
    d->mx = calloc(k, sizeof *d->mx);
    d->oom = !d->lo || !d->hi || !d->flag || !d->mn || !d->mx;
    return d->oom ? -1 : 0;
}

/* Free the scratch and the nd range expressions in it. */
static void dims_free(dims *d, int nd)
{
    for (int k = 0; d->lo && d->hi && k < nd; k++) {
        kx_free(d->lo[k]);
        kx_free(d->hi[k]);
    }
    free(d->lo);
    free(d->hi);
    free(d->flag);
    free(d->mn);
    free(d->mx);
}

static int in_P(const nest *n, const char *iv)
{
    for (int k = 0; iv && k < n->nP; k++)
        if (strcmp(n->P[k], iv) == 0)
            return 1;
    return 0;
}

/* Extreme (max when want_max) of e over the loops around loop l. */
static kx_expr *extreme(nest *n, int l, const kx_expr *e, int want_max)
{
    int *ch;
    int nch = chain(n, l, &ch);
    kx_expr *x = kx_copy(e);
    for (int k = 0; k < nch && x; k++) {
        const ir_loop *L = &n->tu->loops[ch[k]];
        if (!L->iv || !L->canonical || !L->lower || !L->upper || !kx_mentions(x, L->iv))
            continue;
        kx_expr *c = kx_coeff(x, L->iv);
        int64_t cv = 1;
        int inc = kx_is_const(c, &cv) ? cv >= 0 : 1;
        kx_free(c);
        int take_max = inc == want_max;
        kx_expr *one = kx_int(1), *b;
        if (L->step > 0)
            b = take_max ? kx_sub(L->upper, one) : kx_copy(L->lower);
        else
            b = take_max ? kx_copy(L->lower) : kx_add(L->upper, one);
        kx_expr *y = kx_subst(x, L->iv, b);
        kx_free(one);
        kx_free(b);
        kx_free(x);
        x = y;
    }
    free(ch);
    return x;
}

/* print e without blanks */
static void put_expr(ku_buf *b, const kx_expr *e)
{
    char *t = kx_print(e);
    if (!t) {
        ku_buf_free(b);    /* the buffer's rule: after a failure it holds nothing */
        b->oom = 1;
        return;
    }
    char *w = t;
    for (char *r = t; *r; r++)
        if (*r != ' ')
            *w++ = *r;
    *w = '\0';
    ku_buf_put(b, t);
    free(t);
}

/* Symbols are program sizes: large.  Bind every symbol to 2^20. */
static int big(void *ctx, const char *name, int64_t *v)
{
    (void)ctx;
    (void)name;
    *v = 1 << 20;
    return 1;
}

/* min (want_max 0) or max of a and b: decided by their difference when it
 * is constant, else with every symbol assumed large (2^20); an opaque
 * min()/max() when neither decides. */
static kx_expr *pick(const kx_expr *a, const kx_expr *b, int want_max)
{
    kx_expr *diff = kx_sub(a, b);
    int64_t v;
    char err[64];
    int ok = kx_is_const(diff, &v) || kx_eval(diff, big, NULL, &v, err, sizeof err) == 0;
    kx_free(diff);
    if (ok)
        return kx_copy((v >= 0) == (want_max != 0) ? a : b);
    kx_expr *ab[2] = { (kx_expr *)a, (kx_expr *)b };
    return kx_op(want_max ? KX_MAX : KX_MIN, NULL, 2, ab);
}

/* A new *dm for an ndims-dimensional array with the range of its accesses
 * sel[0..ns-1] per dimension in dm->lo[], dm->hi[].  0, or -1 with *dm
 * freed (n->oom set when an allocation failed). */
static int range(nest *n, const int *sel, int ns, int ndims, dims *dm)
{
    if (dims_new(dm, ndims))
        goto fail;
    kx_expr **lo = dm->lo, **hi = dm->hi;
    for (int d = 0; d < ndims; d++) {
        lo[d] = hi[d] = NULL;
        for (int s = 0; s < ns; s++) {
            const acc_ref *r = &n->acc[sel[s]];
            if (d >= r->a->ndims)
                continue;
            kx_expr *mn = extreme(n, r->loop, r->a->index[d], 0);
            kx_expr *mx = extreme(n, r->loop, r->a->index[d], 1);
            if (!lo[d]) {
                kx_free(hi[d]);     /* an earlier access whose minimum was not found */
                lo[d] = mn;
                hi[d] = mx;
            } else {
                kx_expr *nl = pick(lo[d], mn, 0), *nh = pick(hi[d], mx, 1);
                kx_free(lo[d]);
                kx_free(hi[d]);
                kx_free(mn);
                kx_free(mx);
                lo[d] = nl;
                hi[d] = nh;
            }
        }
        if (!lo[d])
            goto fail;
    }
    return 0;
fail:
    n->oom |= dm->oom;
    dims_free(dm, ndims);   /* a range that failed half-way */
    return -1;
}

static void put_range(ku_buf *b, int ndims, kx_expr **lo, kx_expr **hi)
{
    for (int d = 0; d < ndims; d++) {
        if (d)
            ku_buf_put(b, ",");
        put_expr(b, lo[d]);
        ku_buf_put(b, ":");
        put_expr(b, hi[d]);
    }
}

/* elements of the range: product of (hi - lo + 1) */
static kx_expr *elements(int ndims, kx_expr **lo, kx_expr **hi)
{
    kx_expr *e = kx_int(1), *one = kx_int(1);
    for (int d = 0; d < ndims; d++) {
        kx_expr *t = kx_sub(hi[d], lo[d]);
        kx_expr *t1 = kx_add(t, one);
        kx_expr *p = kx_mul(e, t1);
        kx_free(e);
        kx_free(t);
        kx_free(t1);
        e = p;
    }
    kx_free(one);
    return e;
}

/* Is access r coalesced along thread variable t? */
static int coalesced(const ir_access *a, const char *t)
{
    if (!t)
        return 1;
    for (int d = 0; d < a->ndims; d++) {
        if (!kx_mentions(a->index[d], t))
            continue;
        if (d != a->ndims - 1)
            return 0;
        kx_expr *c = kx_coeff(a->index[d], t);
        int64_t v;
        int ok = kx_is_const(c, &v) && v >= -1 && v <= 1 && kx_degree(a->index[d], t) == 1;
        kx_free(c);
        if (!ok)
            return 0;
    }
    return 1;
}

static void add_to(kx_expr **sum, const kx_expr *x)
{
    kx_expr *s = kx_add(*sum, x);
    kx_free(*sum);
    *sum = s;
}

static int cmp_stmt(const void *a, const void *b)
{
    const acc_ref *x = a, *y = b;
    if (x->st->line != y->st->line)
        return x->st->line - y->st->line;
    if (x->st->col != y->st->col)
        return x->st->col - y->st->col;
    return (int)(x->a - y->a);
}

static char *dup_print(const kx_expr *e)
{
    return e ? kx_print(e) : NULL;
}

/* One array of a nest: its accesses and how the class counts them. */
typedef struct {
    const char *name;
    int first_read, first_write;   /* acc index of first counted read / write, -1: none */
    int *reads, nreads, *writes, nwrites;   /* acc indices */
    int rmw;                       /* read at a written tuple */
    int elem;
} arr;

/* Append access i to list (*len entries) and make it *first when that is
 * still -1; ns->oom on allocation failure. */
static void note(nest *ns, int **list, int *len, int *first, int i)
{
    int *e = ku_push(list, len, sizeof *e);
    if (!e) {
        ns->oom = 1;
        return;
    }
    *e = i;
    if (*first < 0)
        *first = i;
}

static int first_of(const arr *a, int writes)
{
    return writes ? a->first_write : a->first_read;
}

/* The arrays (indices into A) with a first counted read (writes: a first
 * write), in the order of those accesses, into order[]; how many. */
static int by_first(const arr *A, int nnames, int writes, int *order)
{
    int n = 0;
    for (int k = 0; k < nnames; k++) {
        int key = first_of(&A[k], writes), j;
        if (key < 0)
            continue;
        for (j = n++; j > 0 && first_of(&A[order[j - 1]], writes) > key; j--)
            order[j] = order[j - 1];
        order[j] = k;
    }
    assert(n <= nnames);
    return n;
}

/* Every access of the nest at root into n->acc in statement order, and
 * the deepest statement (the first one at the greatest depth) into *deep
 * and *deep_loop.  -1 when out of memory. */
static int collect_accesses(nest *n, const ir_stmt **deep, int *deep_loop)
{
    const ir_tu *tu = n->tu;
    int root = n->root, deep_depth = -1, deep_line = 0;
    for (int l = root; l < ir_nest_end(tu, root); l++) {
        if (!ir_loop_within(tu, l, root))
            continue;
        for (int s = 0; s < tu->loops[l].nstmts; s++) {
            const ir_stmt *st = &tu->loops[l].stmts[s];
            if (tu->loops[l].depth > deep_depth ||
                (tu->loops[l].depth == deep_depth && st->line < deep_line)) {
                *deep = st;
                *deep_loop = l;
                deep_depth = tu->loops[l].depth;
                deep_line = st->line;
            }
            for (int a = 0; a < st->nacc; a++) {
                acc_ref *r = ku_push(&n->acc, &n->nacc, sizeof *n->acc);
                if (!r)
                    return -1;
                *r = (acc_ref){ l, st, &st->acc[a] };
            }
        }
    }
    return 0;
}

/* The work-unit variables n->P: the loop variables written accesses
 * mention (outermost first), else every loop variable of the nest. */
static void work_units(nest *n)
{
    const ir_tu *tu = n->tu;
    int root = n->root;
    for (int i = 0; i < n->nacc; i++) {
        if (!n->acc[i].a->is_write)
            continue;
        int *ch;
        int nch = chain(n, n->acc[i].loop, &ch);
        for (int k = nch - 1; k >= 0; k--) {
            const char *iv = tu->loops[ch[k]].iv;
            if (iv && mentions_any(n->acc[i].a, iv) && !in_P(n, iv))
                add_P(n, iv);
        }
        free(ch);
    }
    /* writes that mention no loop variable (a sum into s or h[0]): every
     * iteration is a work unit, so every loop variable is one */
    if (n->nP == 0)
        for (int l = root; l < ir_nest_end(tu, root); l++)
            if (ir_loop_within(tu, l, root) && tu->loops[l].iv && !in_P(n, tu->loops[l].iv))
                add_P(n, tu->loops[l].iv);
}

/* The thread variable (the outermost work-unit variable around the
 * deepest statement, or NULL) and m, the product of the largest trips of
 * the other loops around it. */
static kx_expr *thread_and_m(nest *n, int deep_loop, const char **thread)
{
    const ir_tu *tu = n->tu;
    int root = n->root;
    kx_expr *m = kx_int(1);
    *thread = NULL;
    int *ch;
    int nch = chain(n, deep_loop, &ch);
    for (int k = 0; k < nch; k++) {
        const ir_loop *L = &tu->loops[ch[k]];
        if (L->iv && in_P(n, L->iv)) {
            if (!*thread)
                *thread = L->iv;
        } else if (L->trip) {
            kx_expr *t = extreme(n, L->parent >= 0 && ch[k] != root ? L->parent : ch[k],
                                 L->trip, 1);
            kx_expr *nm = kx_mul(m, t);
            kx_free(m);
            kx_free(t);
            m = nm;
        }
    }
    free(ch);
    return m;
}

/* Per array x of the nest: its element size, its writes, its counted
 * reads (those not at a written tuple), and whether it is read at a
 * written tuple (rmw). */
static void array_uses(nest *n, arr *A, const char **names, int nnames)
{
    for (int k = 0; k < nnames; k++) {
        arr *x = &A[k];
        x->name = names[k];
        x->first_read = x->first_write = -1;
        for (int i = 0; i < n->nacc; i++) {
            const ir_access *a = n->acc[i].a;
            if (strcmp(a->array, x->name))
                continue;
            if (a->elem_size > x->elem)
                x->elem = a->elem_size;
            if (a->is_write)
                note(n, &x->writes, &x->nwrites, &x->first_write, i);
        }
        for (int i = 0; i < n->nacc; i++) {
            const ir_access *a = n->acc[i].a;
            if (strcmp(a->array, x->name) || a->is_write)
                continue;
            int at_written = 0;
            for (int w = 0; w < x->nwrites && !at_written; w++)
                at_written = same_tuple(a, n->acc[x->writes[w]].a);
            if (at_written) {
                x->rmw = 1;
                continue;
            }
            note(n, &x->reads, &x->nreads, &x->first_read, i);
        }
    }
}

/* The neighbourhood of the reads of x: distinct tuples all at constant
 * offsets give `neighbourhood(AxB)`, else `element`. */
static void neighbourhood_text(nest *n, const arr *x, int nd, dims *dm, ku_buf *b)
{
    int64_t *mn = dm->mn, *mx = dm->mx;
    int distinct = 1, constant = 1;
    const ir_access *base = n->acc[x->reads[0]].a;
    for (int dd = 0; dd < nd; dd++)
        mn[dd] = mx[dd] = 0;
    for (int r = 1; r < x->nreads && constant; r++) {
        const ir_access *o = n->acc[x->reads[r]].a;
        int diffz = 1;
        for (int dd = 0; dd < nd && constant; dd++) {
            kx_expr *df = kx_sub(o->index[dd], base->index[dd]);
            int64_t v;
            if (!kx_is_const(df, &v))
                constant = 0;
            else {
                if (v < mn[dd])
                    mn[dd] = v;
                if (v > mx[dd])
                    mx[dd] = v;
                diffz &= v == 0;
            }
            kx_free(df);
        }
        if (!diffz)
            distinct = 2;
    }
    if (constant && distinct == 2) {
        ku_buf_put(b, "neighbourhood(");
        for (int dd = 0; dd < nd; dd++) {
            char t[32];
            snprintf(t, sizeof t, "%s%lld", dd ? "x" : "",
                     (long long)(mx[dd] - mn[dd] + 1));
            ku_buf_put(b, t);
        }
        ku_buf_put(b, ")");
    } else {
        ku_buf_put(b, "element");
    }
}

/* How the work units read input x over its range dm (`|shared`, `|full`,
 * `|chunk(...)`, `|neighbourhood(...)` or `|element`) into b; returns
 * whether every counted read is coalesced along the thread variable. */
static int read_pattern(nest *n, const arr *x, int nd, dims *dm, const char *thread, ku_buf *b)
{
    const ir_tu *tu = n->tu;
    kx_expr **lo = dm->lo, **hi = dm->hi;
    int *nonP_dim = dm->flag;
    /* variables of the counted reads */
    int anyP = 0, anyOther = 0, anyIv = 0, allC = 1;
    for (int r = 0; r < x->nreads; r++) {
        const acc_ref *ar = &n->acc[x->reads[r]];
        int *ch;
        int nch = chain(n, ar->loop, &ch);
        for (int q = 0; q < nch; q++) {
            const char *iv = tu->loops[ch[q]].iv;
            if (!iv)
                continue;
            for (int dd = 0; dd < ar->a->ndims && dd < nd; dd++) {
                if (!kx_mentions(ar->a->index[dd], iv))
                    continue;
                anyIv = 1;
                if (in_P(n, iv))
                    anyP = 1;
                else {
                    anyOther = 1;
                    nonP_dim[dd] = 1;
                }
            }
        }
        free(ch);
        if (!coalesced(ar->a, thread))
            allC = 0;
    }
    ku_buf_put(b, "|");
    if (!anyIv) {
        ku_buf_put(b, "shared");
    } else if (!anyP) {
        ku_buf_put(b, "full");
    } else if (anyOther) {
        ku_buf_put(b, "chunk(");
        for (int dd = 0; dd < nd; dd++) {
            if (dd)
                ku_buf_put(b, ",");
            if (nonP_dim[dd]) {
                put_expr(b, lo[dd]);
                ku_buf_put(b, ":");
                put_expr(b, hi[dd]);
            } else {
                ku_buf_put(b, "-");
            }
        }
        ku_buf_put(b, ")");
    } else {
        neighbourhood_text(n, x, nd, dm, b);
    }
    return allC;
}

/* Output x over its range dm into b (`|element` when its writes move with
 * the work units, else `|shared`); its element count into *el; returns
 * whether every write is coalesced (never for a shared one), and
 * *elementwise. */
static int write_pattern(nest *n, const arr *x, int nd, dims *dm, const char *thread, ku_buf *b,
                         kx_expr **el_out, int *elementwise_out)
{
    kx_expr **lo = dm->lo, **hi = dm->hi;
    int elementwise = 0, allC = 1;
    for (int r = 0; r < x->nwrites; r++) {
        const acc_ref *ar = &n->acc[x->writes[r]];
        for (int q = 0; q < n->nP; q++)
            elementwise |= mentions_any(ar->a, n->P[q]);
        if (!coalesced(ar->a, thread))
            allC = 0;
    }
    kx_expr *el = nd ? elements(nd, lo, hi) : kx_int(1);
    if (nd)
        put_range(b, nd, lo, hi);
    else
        ku_buf_put(b, "1");
    ku_buf_put(b, elementwise ? "|element" : "|shared");
    if (!elementwise)
        allC = 0;
    *el_out = el;
    *elementwise_out = elementwise;
    return allC;
}

/* Work units when no output moves with them: every iteration of the
 * deepest statement, summed over its loops (NULL when the sum is not
 * known). */
static kx_expr *deep_iterations(nest *n, int deep_loop)
{
    const ir_tu *tu = n->tu;
    kx_expr *w = NULL;
    counts_q q = { kx_int(1), 1 };
    int *ch;
    int nch = chain(n, deep_loop, &ch);
    for (int k = 0; k < nch; k++) {
        counts_q s;
        if (counts_sum(tu, ch[k], &q, &s)) {
            kx_free(q.p);
            q.p = NULL;
            break;
        }
        kx_free(q.p);
        q = s;
    }
    free(ch);
    if (q.p && q.den == 1)
        w = q.p;
    else if (q.p) {
        kx_expr *args[2] = { q.p, kx_int(q.den) };
        w = kx_op(KX_DIV, NULL, 2, args);
        kx_free(args[0]);
        kx_free(args[1]);
    }
    return w;
}

/* The scratch of one classification, filled phase by phase: the nest's
 * accesses, its arrays, the class text and the parameter sums. */
typedef struct {
    nest n;
    const ir_stmt *deep;      /* the deepest statement (f), its loop */
    int deep_loop;
    const char *thread;       /* the thread variable t, or NULL */
    const char **names;       /* arrays in order of first appearance */
    int nnames;
    arr *A;                   /* per name: its writes and counted reads */
    int *by_read, *by_write;  /* indices into A: the inputs, the outputs */
    int nread, nwrite;
    ku_buf b;                 /* the class text */
    kx_expr *w, *m, *d, *c;   /* the parameters summed so far */
} classify;

/* Phase 3: the arrays of the nest in order of first appearance, what each
 * one does (array_uses), and the input and output orders (by first
 * counted read, by first write).  -1 when the array table cannot be
 * allocated; a failure after it only sets n.oom. */
static int classify_arrays(classify *k)
{
    nest *n = &k->n;
    k->names = calloc((size_t)n->nacc, sizeof *k->names);
    for (int i = 0; k->names && i < n->nacc; i++) {
        int seen = 0;
        for (int j = 0; j < k->nnames && !seen; j++)
            seen = strcmp(k->names[j], n->acc[i].a->array) == 0;
        if (!seen)
            k->names[k->nnames++] = n->acc[i].a->array;
    }
    k->A = k->names ? calloc((size_t)k->nnames + 1, sizeof *k->A) : NULL;
    if (!k->A)
        return -1;
    array_uses(n, k->A, k->names, k->nnames);
    k->by_read = malloc(sizeof *k->by_read * (size_t)(k->nnames + 1));
    k->by_write = malloc(sizeof *k->by_write * (size_t)(k->nnames + 1));
    k->nread = k->by_read ? by_first(k->A, k->nnames, 0, k->by_read) : 0;
    k->nwrite = k->by_write ? by_first(k->A, k->nnames, 1, k->by_write) : 0;
    n->oom |= !k->by_read || !k->by_write;
    return 0;
}

/* Phase 4: the inputs, by first counted read: "range|pattern" each,
 * joined by " ^ ", then the arrow; their bytes into d (and c when every
 * counted read is coalesced). */
static void classify_inputs(classify *k)
{
    nest *n = &k->n;
    int ninputs = 0;
    for (int o = 0; o < k->nread; o++) {
        arr *x = &k->A[k->by_read[o]];
        assert(x->first_read >= 0 && x->nreads > 0);   /* by_first keeps only those */
        int nd = n->acc[x->first_read].a->ndims;
        dims dm;
        if (range(n, x->reads, x->nreads, nd, &dm))
            continue;
        if (ninputs++)
            ku_buf_put(&k->b, " ^ ");
        put_range(&k->b, nd, dm.lo, dm.hi);
        int allC = read_pattern(n, x, nd, &dm, k->thread, &k->b);
        kx_expr *el = elements(nd, dm.lo, dm.hi), *sz = kx_int(x->elem);
        kx_expr *by = kx_mul(el, sz);
        add_to(&k->d, by);
        if (allC)
            add_to(&k->c, by);
        kx_free(el);
        kx_free(sz);
        kx_free(by);
        dims_free(&dm, nd);
    }
    ku_buf_put(&k->b, ninputs ? " -> " : "-> ");
}

/* Phase 5: the outputs, by first write ("1|shared" when none); their
 * bytes into d and c (twice for one read at its written elements), and w
 * from the first element output. */
static void classify_outputs(classify *k)
{
    nest *n = &k->n;
    int noutputs = 0;
    for (int o = 0; o < k->nwrite; o++) {
        arr *x = &k->A[k->by_write[o]];
        assert(x->first_write >= 0 && x->nwrites > 0);
        int nd = n->acc[x->first_write].a->ndims;
        dims dm;
        if (range(n, x->writes, x->nwrites, nd, &dm))
            continue;
        if (noutputs++)
            ku_buf_put(&k->b, " ^ ");
        kx_expr *el;
        int elementwise;
        int allC = write_pattern(n, x, nd, &dm, k->thread, &k->b, &el, &elementwise);
        if (!k->w && elementwise)
            k->w = kx_copy(el);
        kx_expr *sz = kx_int(x->elem);
        kx_expr *by = kx_mul(el, sz);
        int times = x->rmw ? 2 : 1;
        for (int t = 0; t < times; t++) {
            add_to(&k->d, by);
            if (allC)
                add_to(&k->c, by);
        }
        kx_free(el);
        kx_free(sz);
        kx_free(by);
        dims_free(&dm, nd);
    }
    if (noutputs == 0)
        ku_buf_put(&k->b, "1|shared");
}

/* Phase 6: the class into *out (text, and each parameter printed; w from
 * the deepest statement's iterations when no output gave it, u = d - c,
 * f_complexity from the deepest statement's operations). */
static void classify_emit(classify *k, species_class *out)
{
    if (!k->w)
        k->w = deep_iterations(&k->n, k->deep_loop);
    kx_expr *u = kx_sub(k->d, k->c);
    const ir_stmt *deep = k->deep;
    int64_t f = deep ? deep->ops.fadd + deep->ops.fmul + deep->ops.fdiv + deep->ops.fmath +
                       deep->ops.iadd + deep->ops.imul + deep->ops.idiv + deep->ops.cmp
                     : 0;
    kx_expr *fe = kx_int(f);
    out->text = ku_buf_take(&k->b);
    out->w = dup_print(k->w);
    out->m = dup_print(k->m);
    out->d = dup_print(k->d);
    out->c = dup_print(k->c);
    out->u = dup_print(u);
    out->f_complexity = dup_print(fe);
    kx_free(u);
    kx_free(fe);
}

/* Everything the scratch owns (the class text is taken by classify_emit
 * or never started). */
static void classify_free(classify *k)
{
    kx_free(k->w);
    kx_free(k->m);
    kx_free(k->d);
    kx_free(k->c);
    for (int j = 0; k->A && j < k->nnames; j++) {
        free(k->A[j].reads);
        free(k->A[j].writes);
    }
    free(k->A);
    free(k->by_read);
    free(k->by_write);
    free(k->names);
    free(k->n.acc);
    free(k->n.P);
    ku_buf_free(&k->b);
}

int species_classify(const ir_tu *tu, int root, species_class *out)
{
    memset(out, 0, sizeof *out);
    classify k = { .n = { .tu = tu, .root = root }, .deep_loop = -1 };
    /* 1. every access of the nest, in statement order; none: no class */
    if (collect_accesses(&k.n, &k.deep, &k.deep_loop)) {
        classify_free(&k);
        return -1;
    }
    if (k.n.nacc == 0) {
        classify_free(&k);
        return 1;
    }
    qsort(k.n.acc, (size_t)k.n.nacc, sizeof k.n.acc[0], cmp_stmt);
    /* 2. the work-unit variables P, the thread variable and m */
    work_units(&k.n);
    k.m = thread_and_m(&k.n, k.deep_loop, &k.thread);
    /* 3-6. arrays, inputs, outputs, the class */
    if (classify_arrays(&k)) {
        classify_free(&k);
        return -1;
    }
    k.d = kx_int(0);
    k.c = kx_int(0);
    classify_inputs(&k);
    classify_outputs(&k);
    classify_emit(&k, out);
    int oom = k.n.oom;
    classify_free(&k);
    if (oom || !out->text || !out->w || !out->m || !out->d || !out->c || !out->u ||
        !out->f_complexity) {
        species_class_free(out);
        return -1;
    }
    return 0;
}

void species_class_free(species_class *c)
{
    if (!c)
        return;
    free(c->text);
    free(c->w);
    free(c->m);
    free(c->d);
    free(c->c);
    free(c->u);
    free(c->f_complexity);
    memset(c, 0, sizeof *c);
}
