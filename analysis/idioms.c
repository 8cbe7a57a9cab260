/*
 * idioms.c -- idiom recognition on the loop IR (see idioms.h).
 *
 * Definitions (statement S in its innermost loop L with variable v; W an
 * array write of S; "the variables of an access" are the enclosing loop
 * variables its subscripts mention; an access is indirect when a subscript
 * holds a load atom, ipda's `load.X(...)`):
 *
 *   stream     W mentions v, no access of S is indirect, S is neither a
 *              transpose nor a stencil.                                 -> L
 *   transpose  a read of rank >= 2 whose per-dimension variables (one per
 *              dimension) are a non-identity permutation of W's.        -> L
 *   gather     W direct, some read indirect.                            -> L
 *   scatter    W indirect, the same element is not read.                -> L
 *   histogram  W indirect and the same element is read (h[B[i]] += x).  -> L
 *   stencil    W mentions v; one array X is read at >= 2 distinct tuples,
 *              each a constant vector away from W's tuple, one non-zero;
 *              unless X is W's array and every non-zero offset reaches an
 *              element written by an earlier iteration of L (recurrence).
 *                                                                       -> L
 *   reduction  S reads and writes the same scalar or array element; the
 *              reducing loop R is the innermost enclosing loop whose
 *              variable the element does not mention but another read of S
 *              does.                                                    -> R
 *   matmul     reduction over R (variable k) with a multiply; the output O
 *              (W, or for a scalar the array written by the first later
 *              statement of R's parent that reads it) mentions a and b;
 *              reads X, Y with a in X\Y, b in Y\X, k in X and Y.         -> R
 *   matvec     as matmul with one output variable a in X, k in X and Y, and
 *              Y mentioning no output variable (a dot product has no
 *              output variable and is only a reduction).                -> R
 */
#include "idioms.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* No fixed limits: loop chains, reads per statement, stencil offsets,
 * dimensions and evidence texts are held in memory sized to the statement
 * (scratch memory freed after each statement); an allocation failure makes
 * idiom_analyze return -1, never a result computed from part of a
 * statement. */

static const char *const names[IDIOM_NKINDS] = {
    "gather", "histogram", "matmul", "matvec", "reduction",
    "scatter", "stencil", "stream", "transpose",
};

const char *idiom_name(idiom_kind k)
{
    return k >= 0 && k < IDIOM_NKINDS ? names[k] : "?";
}

/* ---- analysis state and scratch memory ------------------------------------ */

typedef struct {
    const ir_tu *tu;
    idiom_result *r;
    int failed;             /* an allocation failed: the analysis fails */
    void **tmp;             /* scratch blocks of the current statement */
    int ntmp;
} ctx;

/* Keep p (malloc'd, may be NULL) until the statement is done; returns p.
 * NULL (an allocation failed) marks the analysis failed. */
static void *keep(ctx *c, void *p)
{
    void **slot = p ? ku_push(&c->tmp, &c->ntmp, sizeof *slot) : NULL;
    if (!slot) {
        free(p);
        c->failed = 1;
        return NULL;
    }
    return *slot = p;
}

/* n zeroed elements of size bytes, freed after the statement (n may be 0). */
static void *scratch(ctx *c, size_t n, size_t size)
{
    return keep(c, calloc(n ? n : 1, size));
}

static void scratch_free(ctx *c)
{
    for (int i = 0; i < c->ntmp; i++)
        free(c->tmp[i]);
    free(c->tmp);
    c->tmp = NULL;
    c->ntmp = 0;
}

/* The access as text, whole, freed after the statement ("?" on failure). */
static const char *atext(ctx *c, const ir_access *a)
{
    char *s = keep(c, ir_access_str(a));
    return s ? s : "?";
}

/* ---- small helpers over accesses ----------------------------------------- */

/* The loops enclosing loop li, innermost first (li itself at [0]), into
 * *out (scratch); returns how many. */
static int chain(ctx *c, int li, int **out)
{
    int n = 0;
    for (int l = li; l >= 0; l = c->tu->loops[l].parent)
        n++;
    *out = scratch(c, (size_t)n, sizeof **out);
    if (!*out)
        return 0;
    n = 0;
    for (int l = li; l >= 0; l = c->tu->loops[l].parent)
        (*out)[n++] = l;
    return n;
}

static int acc_mentions(const ir_access *a, const char *iv)
{
    if (!iv)
        return 0;
    for (int d = 0; d < a->ndims; d++)
        if (kx_mentions(a->index[d], iv))
            return 1;
    return 0;
}

/* Is scalar `name` set from memory in the nest that holds loop sl: written
 * by a statement that reads an array or calls a function (not a loop
 * variable of any loop; a counter or a copy of a loop variable is not)? */
static int written_in_nest(const ir_tu *tu, int sl, const char *name)
{
    int root = sl;
    while (tu->loops[root].parent >= 0)
        root = tu->loops[root].parent;
    for (int k = root; k < tu->nloops && ir_loop_within(tu, k, root); k++)
        if (tu->loops[k].iv && strcmp(tu->loops[k].iv, name) == 0)
            return 0;
    for (int k = root; k < tu->nloops && ir_loop_within(tu, k, root); k++)
        for (int s = 0; s < tu->loops[k].nstmts; s++)
            for (int v = 0; v < tu->loops[k].stmts[s].nscalars; v++) {
                const ir_stmt *st = &tu->loops[k].stmts[s];
                const ir_scalar *x = &st->scalars[v];
                int loads = st->ncalls > 0;
                for (int a = 0; a < st->nacc && !loads; a++)
                    loads = !st->acc[a].is_write;
                if (x->is_write && strcmp(x->name, name) == 0 && loads)
                    return 1;
            }
    return 0;
}

/* Indirect: a subscript holds a load (`x[idx[i]]`), or names a local the
 * nest computes (`b = key[i]; if (b > m) b = m; h[b]`) that the front end
 * could not express. */
static int acc_indirect(const ir_tu *tu, int sl, const ir_access *a)
{
    for (int d = 0; d < a->ndims; d++) {
        if (kx_has_opaque(a->index[d])) {
            char *t = kx_print(a->index[d]);
            int hit = t && strstr(t, "load.") != NULL;
            free(t);
            if (hit)
                return 1;
        }
        char **names = NULL;
        int n = kx_symbols(a->index[d], &names), hit = 0;
        for (int i = 0; i < n && !hit; i++)
            hit = !strstr(names[i], "__L") && written_in_nest(tu, sl, names[i]);
        kx_free_names(names, n > 0 ? n : 0);
        if (hit)
            return 1;
    }
    return 0;
}

static int same_tuple(const ir_access *a, const ir_access *b)
{
    if (strcmp(a->array, b->array) != 0 || a->ndims != b->ndims)
        return 0;
    for (int d = 0; d < a->ndims; d++)
        if (!kx_equal(a->index[d], b->index[d]))
            return 0;
    return 1;
}

/* off = r - w per dimension (w->ndims of them) when every difference is a
 * constant. */
static int const_offset(const ir_access *r, const ir_access *w, int64_t *off)
{
    if (r->ndims != w->ndims || r->ndims == 0)
        return 0;
    for (int d = 0; d < r->ndims; d++) {
        kx_expr *diff = kx_sub(r->index[d], w->index[d]);
        int ok = kx_is_const(diff, &off[d]);
        kx_free(diff);
        if (!ok)
            return 0;
    }
    return 1;
}

/* The single chain variable dimension d of a mentions, or NULL. */
static const char *dim_iv(const ir_tu *tu, const int *ch, int nch, const ir_access *a, int d)
{
    const char *found = NULL;
    for (int c = 0; c < nch; c++) {
        const char *iv = tu->loops[ch[c]].iv;
        if (iv && kx_mentions(a->index[d], iv)) {
            if (found)
                return NULL;
            found = iv;
        }
    }
    return found;
}

/* ---- result building ------------------------------------------------------ */

static idiom_instance *add(ctx *c, idiom_kind kind, int loop, int sl, int si,
                           const char *fmt, ...) KU_PRINTF(6, 7);
static idiom_instance *add(ctx *c, idiom_kind kind, int loop, int sl, int si,
                           const char *fmt, ...)
{
    idiom_result *r = c->r;
    ku_buf b = {0};
    va_list ap;
    va_start(ap, fmt);
    ku_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *evidence = ku_buf_take(&b);
    idiom_instance *in = evidence ? ku_push(&r->v, &r->n, sizeof *r->v) : NULL;
    if (!in) {
        free(evidence);
        c->failed = 1;
        return NULL;
    }
    in->kind = kind;
    in->loop = loop;
    in->stmt_loop = sl;
    in->stmt = si;
    in->line = c->tu->loops[sl].stmts[si].line;
    in->evidence = evidence;
    return in;
}

/* ---- the per-statement rules ---------------------------------------------- */

/* Is the read of X at offset off (from W) an element W wrote in an earlier
 * iteration of loop l?  Needs off = coeff(W, v) * delta with delta * step < 0. */
static int backward(const ir_loop *l, const ir_access *w, const int64_t *off)
{
    if (!l->iv || l->step == 0)
        return 0;
    int64_t delta = 0;
    int have = 0;
    for (int d = 0; d < w->ndims; d++) {
        kx_expr *c = kx_coeff(w->index[d], l->iv);
        int64_t cv;
        int isc = kx_is_const(c, &cv);
        kx_free(c);
        if (!isc)
            return 0;
        if (cv == 0) {
            if (off[d] != 0)
                return 0;
            continue;
        }
        if (off[d] % cv != 0)
            return 0;
        int64_t dd = off[d] / cv;
        if (have && dd != delta)
            return 0;
        delta = dd;
        have = 1;
    }
    return have && delta != 0 && (delta > 0) != (l->step > 0);
}

/* The reads of statement si and, through the scalars it reads, of the
 * statements that set them earlier in the same iteration (`aik = A[i][k]`
 * hoisted out of the j loop, `s = in[y-1][x-1] + ...` before `out[y][x] =
 * s / 9`): a defining statement lies in loop sl or one enclosing it, before
 * si, writes that scalar and no array.  The reads into *out (scratch);
 * returns how many. */
static int eff_reads(ctx *c, int sl, int si, const ir_access ***out)
{
    const ir_tu *tu = c->tu;
    const ir_stmt *s = &tu->loops[sl].stmts[si];
    const ir_access **reads = NULL, **slot;
    int n = 0;
    *out = NULL;
    for (int a = 0; a < s->nacc; a++)
        if (!s->acc[a].is_write) {
            if (!(slot = ku_push(&reads, &n, sizeof *reads)))
                goto oom;
            *slot = &s->acc[a];
        }
    for (int v = 0; v < s->nscalars; v++) {
        const ir_scalar *sc = &s->scalars[v];
        if (sc->is_write)
            continue;
        int written_here = 0;
        for (int u = 0; u < s->nscalars; u++)
            written_here |= s->scalars[u].is_write && strcmp(s->scalars[u].name, sc->name) == 0;
        if (written_here)
            continue;
        const ir_stmt *def = NULL;
        for (int l = sl; l >= 0 && !def; l = tu->loops[l].parent)
            for (int k = tu->loops[l].nstmts - 1; k >= 0 && !def; k--) {
                const ir_stmt *d = &tu->loops[l].stmts[k];
                if (d->line > s->line || (d->line == s->line && d->col >= s->col))
                    continue;
                int wr = 0, aw = 0;
                for (int u = 0; u < d->nscalars; u++)
                    wr |= d->scalars[u].is_write && strcmp(d->scalars[u].name, sc->name) == 0;
                for (int a = 0; a < d->nacc; a++)
                    aw |= d->acc[a].is_write;
                if (wr && !aw && !d->conditional)
                    def = d;
            }
        for (int a = 0; def && a < def->nacc; a++) {
            if (!(slot = ku_push(&reads, &n, sizeof *reads)))
                goto oom;
            *slot = &def->acc[a];
        }
    }
    if (reads && !keep(c, reads))
        return 0;
    *out = reads;
    return n;
oom:
    free(reads);
    c->failed = 1;
    return 0;
}

/* Stencil test of write w against the reads of array `arr`; adds an
 * instance and returns 1 when it holds. */
static int try_stencil(ctx *c, int sl, int si, const ir_access *w, const char *arr)
{
    const ir_loop *l = &c->tu->loops[sl];
    size_t nd = w->ndims > 0 ? (size_t)w->ndims : 1, row = nd * sizeof(int64_t);
    int64_t *offs = NULL;   /* n distinct offset vectors, nd each */
    int n = 0, nonzero = 0, allback = 1;
    const ir_access **rd;
    int nrd = eff_reads(c, sl, si, &rd);
    int64_t *off = scratch(c, nd, sizeof *off);
    for (int a = 0; off && a < nrd; a++) {
        const ir_access *r = rd[a];
        if (r->is_write || strcmp(r->array, arr) != 0)
            continue;
        if (!const_offset(r, w, off))
            continue;
        int dup = 0;
        for (int k = 0; k < n && !dup; k++)
            dup = memcmp(offs + (size_t)k * nd, off, row) == 0;
        if (dup)
            continue;
        int64_t *o = ku_push(&offs, &n, row);
        if (!o) {
            c->failed = 1;
            break;
        }
        memcpy(o, off, row);
        int nz = 0;
        for (int d = 0; d < w->ndims; d++)
            nz |= off[d] != 0;
        if (nz) {
            nonzero++;
            if (!backward(l, w, off))
                allback = 0;
        }
    }
    if (offs && !keep(c, offs))
        return 0;
    if (c->failed || n < 2 || nonzero == 0)
        return 0;
    if (strcmp(arr, w->array) == 0 && allback)
        return 0;   /* a recurrence, not a parallel stencil */
    int *radius = malloc(nd * sizeof *radius);
    ku_buf ot = {0}, rt = {0};
    for (size_t d = 0; radius && d < nd; d++)
        radius[d] = 0;
    for (int k = 0; radius && k < n; k++) {
        ku_buf_put(&ot, k ? " (" : "(");
        for (int d = 0; d < w->ndims; d++) {
            int64_t o = offs[(size_t)k * nd + (size_t)d];
            int ro = (int)(o < 0 ? -o : o);
            if (ro > radius[d])
                radius[d] = ro;
            ku_buf_printf(&ot, "%s%lld", d ? "," : "", (long long)o);
        }
        ku_buf_putc(&ot, ')');
    }
    for (int d = 0; radius && d < w->ndims; d++)
        ku_buf_printf(&rt, "%s%d", d ? "," : "", radius[d]);
    const char *ots = keep(c, ku_buf_take(&ot)), *rts = keep(c, ku_buf_take(&rt));
    idiom_instance *in = radius && ots && rts
        ? add(c, IDIOM_STENCIL, sl, sl, si, "W %s; R %s at offsets %s; radius %s",
              atext(c, w), arr, ots, rts)
        : NULL;
    if (in) {
        in->ndims = w->ndims;
        in->radius = radius;
    } else {
        free(radius);
        c->failed = 1;
    }
    return 1;
}

static int try_transpose(ctx *c, int sl, int si, const ir_access *w, const int *ch, int nch)
{
    const ir_stmt *s = &c->tu->loops[sl].stmts[si];
    if (w->ndims < 2)
        return 0;
    const char **wiv = scratch(c, (size_t)w->ndims, sizeof *wiv);
    int *used = scratch(c, (size_t)w->ndims, sizeof *used);
    if (!wiv || !used)
        return 0;
    for (int d = 0; d < w->ndims; d++)
        if (!(wiv[d] = dim_iv(c->tu, ch, nch, w, d)))
            return 0;
    for (int a = 0; a < s->nacc; a++) {
        const ir_access *r = &s->acc[a];
        if (r->is_write || r->ndims != w->ndims || same_tuple(r, w))
            continue;
        int ok = 1, ident = 1;
        memset(used, 0, (size_t)w->ndims * sizeof *used);
        for (int d = 0; d < r->ndims && ok; d++) {
            const char *iv = dim_iv(c->tu, ch, nch, r, d);
            int k = -1;
            for (int e = 0; iv && e < w->ndims && k < 0; e++)
                if (!used[e] && strcmp(wiv[e], iv) == 0)
                    k = e;
            if (k < 0)
                ok = 0;
            else {
                used[k] = 1;
                ident &= k == d;
            }
        }
        if (ok && !ident) {
            add(c, IDIOM_TRANSPOSE, sl, sl, si, "W %s; R %s", atext(c, w), atext(c, r));
            return 1;
        }
    }
    return 0;
}

/* Output access of a scalar accumulator: the first array write of the first
 * statement after loop r in r's parent that reads `name`. */
static const ir_access *scalar_output(const ir_tu *tu, int r, const char *name)
{
    int p = tu->loops[r].parent;
    if (p < 0)
        return NULL;
    const ir_loop *pl = &tu->loops[p];
    int after = tu->loops[r].end_line;
    for (int s = 0; s < pl->nstmts; s++) {
        const ir_stmt *st = &pl->stmts[s];
        if (st->line <= after)
            continue;
        int reads = 0;
        for (int v = 0; v < st->nscalars; v++)
            reads |= !st->scalars[v].is_write && strcmp(st->scalars[v].name, name) == 0;
        if (!reads)
            continue;
        for (int a = 0; a < st->nacc; a++)
            if (st->acc[a].is_write)
                return &st->acc[a];
        return NULL;
    }
    return NULL;
}

/* Is scalar `name` set afresh in every iteration of loop R before
 * statement s reads it: a statement directly in R, unconditional, before s
 * in the source, that writes name without reading it (`float v = a[i];`
 * before `v *= b[i]`)?  Then the scalar is private to R's iteration, and
 * s's update of it folds nothing across R. */
static int set_first_in(const ir_tu *tu, int R, const ir_stmt *s, const char *name)
{
    const ir_loop *l = &tu->loops[R];
    for (int k = 0; k < l->nstmts; k++) {
        const ir_stmt *w = &l->stmts[k];
        if (w == s || w->conditional || w->line > s->line
            || (w->line == s->line && w->col >= s->col))
            continue;
        int wr = 0, rd = 0;
        for (int v = 0; v < w->nscalars; v++)
            if (strcmp(w->scalars[v].name, name) == 0) {
                if (w->scalars[v].is_write) wr = 1; else rd = 1;
            }
        if (wr && !rd)
            return 1;
    }
    return 0;
}

/* Reduction of statement si (target: array write w, or scalar `scal`), and
 * matmul / matvec on top of it. */
static void try_reduction(ctx *c, int sl, int si, const ir_access *w, const char *scal,
                          const int *ch, int nch)
{
    const ir_tu *tu = c->tu;
    const ir_stmt *s = &tu->loops[sl].stmts[si];
    /* reads other than the target element itself (and the operands
     * hoisted into scalars, for matmul and matvec only) */
    const ir_access **rd;
    int no = 0, nrd = eff_reads(c, sl, si, &rd), nown = 0, nown_kept = 0;
    const ir_access **oth = scratch(c, (size_t)nrd, sizeof *oth);
    if (!oth)
        return;
    for (int a = 0; a < s->nacc; a++)
        nown += !s->acc[a].is_write;
    for (int a = 0; a < nrd; a++) {
        if (w && same_tuple(rd[a], w))
            continue;
        if (a < nown)
            nown_kept++;
        oth[no++] = rd[a];
    }
    int red = -1;
    for (int k = 0; k < nch && red < 0; k++) {
        const char *iv = tu->loops[ch[k]].iv;
        if (!iv || (w && acc_mentions(w, iv)))
            continue;
        for (int o = 0; o < nown_kept; o++)
            if (acc_mentions(oth[o], iv)) {
                red = ch[k];
                break;
            }
    }
    if (red < 0 || (scal && set_first_in(tu, red, s, scal)))
        return;
    const char *kv = tu->loops[red].iv;
    add(c, IDIOM_REDUCTION, red, sl, si, "RW %s; over %s", w ? atext(c, w) : scal, kv);

    if (s->ops.fmul + s->ops.imul < 1)
        return;
    const ir_access *out = w ? w : scalar_output(tu, red, scal);
    /* output variables: chain variables the output mentions */
    const char **F = scratch(c, (size_t)nch, sizeof *F);
    int nf = 0;
    for (int k = 0; F && out && k < nch; k++) {
        const char *iv = tu->loops[ch[k]].iv;
        if (iv && acc_mentions(out, iv))
            F[nf++] = iv;
    }
    if (nf == 0)
        return;
    const char *ot = atext(c, out);
    /* matmul first */
    for (int x = 0; x < no; x++)
        for (int y = 0; y < no; y++) {
            if (x == y)
                continue;
            const ir_access *X = oth[x], *Y = oth[y];
            if (!acc_mentions(X, kv) || !acc_mentions(Y, kv))
                continue;
            for (int a = 0; a < nf; a++)
                for (int b = 0; b < nf; b++) {
                    if (a == b)
                        continue;
                    if (acc_mentions(X, F[a]) && !acc_mentions(Y, F[a]) &&
                        acc_mentions(Y, F[b]) && !acc_mentions(X, F[b])) {
                        add(c, IDIOM_MATMUL, red, sl, si, "out %s; R %s; R %s; over %s",
                            ot, atext(c, X), atext(c, Y), kv);
                        return;
                    }
                }
        }
    for (int x = 0; x < no; x++)
        for (int y = 0; y < no; y++) {
            if (x == y)
                continue;
            const ir_access *X = oth[x], *Y = oth[y];
            if (!acc_mentions(X, kv) || !acc_mentions(Y, kv))
                continue;
            int yf = 0, xa = 0;
            for (int a = 0; a < nf; a++) {
                yf |= acc_mentions(Y, F[a]);
                xa |= acc_mentions(X, F[a]);
            }
            if (xa && !yf) {
                const char *xt = atext(c, X), *yt = atext(c, Y);
                /* a convolution (FIR): X is read at out + k in one
                 * dimension, a window sliding with the output */
                for (int d = 0; d < X->ndims; d++)
                    for (int a = 0; a < nf; a++) {
                        kx_expr *ck = kx_coeff(X->index[d], kv), *ca = kx_coeff(X->index[d], F[a]);
                        int64_t vk = 0, va = 0;
                        int conv = ck && ca && kx_is_const(ck, &vk) && kx_is_const(ca, &va)
                                   && (vk == 1 || vk == -1) && va == 1;
                        kx_free(ck);
                        kx_free(ca);
                        if (conv) {
                            add(c, IDIOM_STENCIL, red, sl, si, "out %s; R %s (window); R %s (taps); over %s",
                                ot, xt, yt, kv);
                            return;
                        }
                    }
                add(c, IDIOM_MATVEC, red, sl, si, "out %s; R %s (matrix); R %s (vector); over %s",
                    ot, xt, yt, kv);
                return;
            }
        }
}

static int is_chain_iv(const ir_tu *tu, const int *ch, int nch, const char *name)
{
    for (int k = 0; k < nch; k++) {
        if (tu->loops[ch[k]].iv && strcmp(tu->loops[ch[k]].iv, name) == 0)
            return 1;
        /* a pointer stepped like a loop variable (`*d++ = ...`) */
        for (int p = 0; p < tu->loops[ch[k]].nstepped; p++)
            if (strcmp(tu->loops[ch[k]].stepped[p], name) == 0)
                return 1;
    }
    return 0;
}

/* Each array the statement writes: scatter or histogram through an index
 * array, gather from one, reduction into an element it reads, transpose,
 * stencil per distinct array read, else stream. */
static void array_writes(ctx *c, int sl, int si, const int *ch, int nch, int any_indirect)
{
    const ir_tu *tu = c->tu;
    const ir_loop *l = &tu->loops[sl];
    const ir_stmt *s = &l->stmts[si];
    for (int a = 0; a < s->nacc; a++) {
        const ir_access *w = &s->acc[a];
        if (!w->is_write)
            continue;
        const char *wt = atext(c, w);
        int self_read = 0;
        for (int b = 0; b < s->nacc; b++)
            self_read |= !s->acc[b].is_write && same_tuple(&s->acc[b], w);
        if (acc_indirect(tu, sl, w)) {
            add(c, self_read ? IDIOM_HISTOGRAM : IDIOM_SCATTER, sl, sl, si, "W %s", wt);
            continue;
        }
        if (any_indirect) {
            for (int b = 0; b < s->nacc; b++)
                if (!s->acc[b].is_write && acc_indirect(tu, sl, &s->acc[b])) {
                    add(c, IDIOM_GATHER, sl, sl, si, "W %s; R %s", wt, atext(c, &s->acc[b]));
                    break;
                }
            continue;
        }
        if (self_read)
            try_reduction(c, sl, si, w, NULL, ch, nch);
        if (!acc_mentions(w, l->iv))
            continue;
        int special = try_transpose(c, sl, si, w, ch, nch);
        /* stencil: once per distinct read array (also through scalars) */
        const ir_access **rd;
        int nrd = eff_reads(c, sl, si, &rd);
        for (int b = 0; b < nrd; b++) {
            int seen = 0;
            for (int e = 0; e < b && !seen; e++)
                seen = strcmp(rd[e]->array, rd[b]->array) == 0;
            if (!seen)
                special |= try_stencil(c, sl, si, w, rd[b]->array);
        }
        if (!special)
            add(c, IDIOM_STREAM, sl, sl, si, "W %s", wt);
    }
}

/* Gather into a scalar: indirect reads, no array written. */
static void scalar_gather(ctx *c, int sl, int si, int any_indirect)
{
    const ir_tu *tu = c->tu;
    const ir_loop *l = &tu->loops[sl];
    const ir_stmt *s = &l->stmts[si];
    int array_write = 0, scalar_write = 0;
    for (int a = 0; a < s->nacc; a++)
        array_write |= s->acc[a].is_write;
    for (int v = 0; v < s->nscalars; v++)
        scalar_write |= s->scalars[v].is_write;
    if (any_indirect && !array_write && scalar_write)
        for (int b = 0; b < s->nacc; b++)
            if (acc_indirect(tu, sl, &s->acc[b])) {
                add(c, IDIOM_GATHER, sl, sl, si, "W scalar; R %s", atext(c, &s->acc[b]));
                break;
            }
}

/* Folds into a scalar under a condition (see below). */
static void conditional_scalar_folds(ctx *c, int sl, int si, const int *ch, int nch)
{
    const ir_tu *tu = c->tu;
    const ir_loop *l = &tu->loops[sl];
    const ir_stmt *s = &l->stmts[si];
    /* folds the reading rule misses, attached to the statement's loop
     * (no break in it): a counter under a condition (`if (a[i] > t) c++`),
     * a select under a condition that compares the scalar with the value
     * (`if (a[i] > m) m = a[i]`), and argmax's index (`arg = i`) */
    if (s->conditional && l->iv && !l->n_break && !l->n_goto && !l->n_return)
        for (int v = 0; v < s->nscalars; v++) {
            const ir_scalar *sc = &s->scalars[v];
            if (!sc->is_write || is_chain_iv(tu, ch, nch, sc->name)
                || set_first_in(tu, sl, s, sc->name))   /* private: no fold */
                continue;
            /* a write to what the loop's condition reads ends the loop
             * early: no fold (ir_loop.control_write) */
            if (l->control_write && strcmp(l->control_write, sc->name) == 0)
                continue;
            const char *t = s->text ? s->text : "";
            size_t n = strlen(sc->name);
            int read = 0;
            for (int u = 0; u < s->nscalars; u++)
                read |= !s->scalars[u].is_write && strcmp(s->scalars[u].name, sc->name) == 0;
            int other_mentions_iv = 0;
            for (int b = 0; b < s->nacc; b++)
                other_mentions_iv |= acc_mentions(&s->acc[b], l->iv);
            int fold = 0;
            if (read && !other_mentions_iv && strncmp(t, sc->name, n) == 0
                && (strcmp(t + n, "++") == 0 || strncmp(t + n, " += ", 4) == 0
                    || strcmp(t + n, "--") == 0 || strncmp(t + n, " -= ", 4) == 0))
                fold = 1;                           /* counter */
            if (!read && strncmp(t, sc->name, n) == 0 && strncmp(t + n, " = ", 3) == 0) {
                const char *e = t + n + 3;
                if (strcmp(e, l->iv) == 0)
                    fold = 1;                       /* argmax / argmin index */
                for (int k = 0; k < l->nstmts && !fold; k++) {
                    const char *ct = l->stmts[k].text ? l->stmts[k].text : "";
                    if (k != si && (strchr(ct, '<') || strchr(ct, '>')) && strstr(ct, e)
                        && strstr(ct, sc->name) && !strchr(ct, '=') && other_mentions_iv)
                        fold = 1;                   /* compared select: min / max */
                }
            }
            if (fold) {
                add(c, IDIOM_REDUCTION, sl, sl, si, "fold %s; over %s", sc->name, l->iv);
                break;
            }
        }
}

/* Folds into one element the loop does not move (see below). */
static void conditional_element_folds(ctx *c, int sl, int si)
{
    const ir_loop *l = &c->tu->loops[sl];
    const ir_stmt *s = &l->stmts[si];
    /* the same folds into one element the loop does not move (a struct
     * member, `if (a[i] > m->max) m->max = a[i]`, `m->at = i`) */
    if (s->conditional && l->iv && !l->n_break && !l->n_goto && !l->n_return) {
        const char *t = s->text ? s->text : "", *eq = strstr(t, " = ");
        const ir_access *w = NULL;
        int nw = 0, sw = 0;
        for (int a = 0; a < s->nacc; a++)
            if (s->acc[a].is_write) {
                w = &s->acc[a];
                nw++;
            }
        for (int v = 0; v < s->nscalars; v++)
            sw |= s->scalars[v].is_write;
        /* not the element the loop's condition reads (`i < *len`,
         * `*len = i`: the loop ends early, ir_loop.control_write) */
        int control = w && l->control_write && l->control_write[0] == '*'
                      && strcmp(l->control_write + 1, w->array) == 0;
        if (eq && nw == 1 && !sw && !control && !acc_mentions(w, l->iv) && !strchr(eq + 3, '=')) {
            char X[256];
            snprintf(X, sizeof X, "%.*s", (int)(eq - t) < 255 ? (int)(eq - t) : 255, t);
            const char *e = eq + 3;
            int fold = strcmp(e, l->iv) == 0;           /* argmax's index */
            for (int k = 0; k < l->nstmts && !fold && *e && !strstr(e, X); k++) {
                const char *ct = l->stmts[k].text ? l->stmts[k].text : "";
                if (k != si && (strchr(ct, '<') || strchr(ct, '>')) && strstr(ct, e)
                    && strstr(ct, X) && !strchr(ct, '='))
                    fold = 1;                           /* compared select */
            }
            if (fold)
                add(c, IDIOM_REDUCTION, sl, sl, si, "fold %s; over %s", X, l->iv);
        }
    }
}

/* Scalar accumulators: a scalar the statement reads and writes. */
static void scalar_accumulators(ctx *c, int sl, int si, const int *ch, int nch)
{
    const ir_tu *tu = c->tu;
    const ir_loop *l = &tu->loops[sl];
    const ir_stmt *s = &l->stmts[si];
    /* scalar accumulators */
    for (int v = 0; v < s->nscalars; v++) {
        const ir_scalar *sc = &s->scalars[v];
        if (!sc->is_write || is_chain_iv(tu, ch, nch, sc->name))
            continue;
        int dup = 0, read = 0;
        for (int u = 0; u < s->nscalars; u++) {
            if (u < v && s->scalars[u].is_write && strcmp(s->scalars[u].name, sc->name) == 0)
                dup = 1;
            if (!s->scalars[u].is_write && strcmp(s->scalars[u].name, sc->name) == 0)
                read = 1;
        }
        if (!dup && read)
            try_reduction(c, sl, si, NULL, sc->name, ch, nch);
    }
}

static void statement(ctx *c, int sl, int si)
{
    const ir_tu *tu = c->tu;
    const ir_stmt *s = &tu->loops[sl].stmts[si];
    int *ch;
    int nch = chain(c, sl, &ch);
    if (c->failed)
        return;
    int any_indirect = 0;
    for (int a = 0; a < s->nacc; a++)
        any_indirect |= acc_indirect(tu, sl, &s->acc[a]);
    array_writes(c, sl, si, ch, nch, any_indirect);
    scalar_gather(c, sl, si, any_indirect);
    conditional_scalar_folds(c, sl, si, ch, nch);
    conditional_element_folds(c, sl, si);
    scalar_accumulators(c, sl, si, ch, nch);
}

/* r->first / r->order (a counting sort of the instances by loop), so that
 * a loop's idioms cost its own instances, not the file's. */
static int index_by_loop(idiom_result *r, int nloops)
{
    r->first = calloc((size_t)nloops + 2, sizeof *r->first);
    r->order = malloc(sizeof *r->order * ((size_t)r->n + 1));
    if (!r->first || !r->order)
        return -1;
    r->nloops = nloops;
    for (int i = 0; i < r->n; i++)
        if (r->v[i].loop >= 0 && r->v[i].loop < nloops)
            r->first[r->v[i].loop + 2]++;
    for (int l = 0; l < nloops; l++)
        r->first[l + 2] += r->first[l + 1];
    for (int i = 0; i < r->n; i++)   /* first[l + 1]: the next free slot of l */
        if (r->v[i].loop >= 0 && r->v[i].loop < nloops)
            r->order[r->first[r->v[i].loop + 1]++] = i;
    return 0;
}

int idiom_analyze(const ir_tu *tu, idiom_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    ctx c = { .tu = tu, .r = out };
    for (int l = 0; tu && l < tu->nloops && !c.failed; l++)
        for (int s = 0; s < tu->loops[l].nstmts && !c.failed; s++) {
            statement(&c, l, s);
            scratch_free(&c);
        }
    if (!c.failed && tu)
        c.failed = index_by_loop(out, tu->nloops) != 0;
    if (c.failed) {
        idiom_result_free(out);
        return ku_fail(err, errlen, "out of memory");
    }
    return 0;
}

void idiom_result_free(idiom_result *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n; i++) {
        free(r->v[i].evidence);
        free(r->v[i].radius);
    }
    free(r->v);
    free(r->first);
    free(r->order);
    memset(r, 0, sizeof *r);
}

static char *join(const int *have)
{
    size_t cap = 1;
    for (int k = 0; k < IDIOM_NKINDS; k++)
        if (have[k])
            cap += strlen(names[k]) + 1;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (int k = 0; k < IDIOM_NKINDS; k++)
        if (have[k]) {
            if (s[0])
                strcat(s, ",");
            strcat(s, names[k]);
        }
    return s;
}

char *idiom_loop_list(const idiom_result *r, int loop)
{
    int have[IDIOM_NKINDS] = {0};
    if (r->first) {
        for (int k = loop >= 0 && loop < r->nloops ? r->first[loop] : 0;
             loop >= 0 && loop < r->nloops && k < r->first[loop + 1]; k++)
            have[r->v[r->order[k]].kind] = 1;
        return join(have);
    }
    for (int i = 0; i < r->n; i++)
        if (r->v[i].loop == loop)
            have[r->v[i].kind] = 1;
    return join(have);
}

char *idiom_nest_list(const ir_tu *tu, const idiom_result *r, int loop)
{
    int have[IDIOM_NKINDS] = {0};
    if (r->first && !tu->unordered && loop >= 0 && loop < r->nloops) {
        /* pre-order: the nest is loops [loop, nest end) */
        int end = ir_nest_end(tu, loop);
        for (int k = r->first[loop]; k < r->first[end < r->nloops ? end : r->nloops]; k++)
            have[r->v[r->order[k]].kind] = 1;
        return join(have);
    }
    for (int i = 0; i < r->n; i++) {
        int l = r->v[i].loop;
        while (l >= 0 && l != loop)
            l = tu->loops[l].parent;
        if (l == loop)
            have[r->v[i].kind] = 1;
    }
    return join(have);
}
