/*
 * nest.c -- a loop nest's model (nest.h): freeing it (every array, string
 * and expression it owns, partly filled arrays included: a load that
 * failed half-way frees what it made), what follows from it (nest_derive,
 * the one place: keelcc calls it when it builds the model, the runtime's
 * reader of older databases when it reads the rows), and the two
 * per-loop inputs both builders read alike (llvm-mca's figures, the
 * recurrence fact's text).
 */
#include "nest.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Arrays and strings are freed unless they lie in a decoded model's block
 * (own 0); expressions always go to kx_free, which leaves the block's
 * alone and frees any that replaced them. */
static void free_loops(nest_loop *loops, int n, int own)
{
    for (int k = 0; k < n; k++) {
        nest_loop *l = &loops[k];
        if (own) {
            free(l->iv);
            free(l->gpu_map);
            for (int i = 0; i < l->nmca; i++)
                free(l->mca[i].target);
            free(l->mca);
        }
        kx_free(l->trip);
        kx_free(l->lower);
        kx_free(l->last);
    }
    if (own)
        free(loops);
}

static void free_accs(nest_acc *accs, int n, int nloops, int own)
{
    for (int a = 0; a < n; a++) {
        nest_acc *ac = &accs[a];
        for (int j = 0; j < ac->ndims; j++) {
            if (ac->index && own)
                free(ac->index[j]);
            if (ac->extent)
                kx_free(ac->extent[j]);
            for (int k = 0; ac->diff && k < nloops; k++)
                kx_free(ac->diff[j * nloops + k]);
        }
        for (int k = 0; ac->lin && k < nloops; k++)
            kx_free(ac->lin[k]);
        kx_free(ac->stride);
        if (own) {
            free(ac->lin);
            free(ac->index);
            free(ac->extent);
            free(ac->diff);
            free(ac->array);
            free(ac->text);
        }
    }
    if (own)
        free(accs);
}

void nest_free(nest_model *n)
{
    if (!n)
        return;
    int own = !n->block;
    free_loops(n->loops, n->nloops, own);
    free_accs(n->accs, n->naccs, n->nloops, own);
    for (int i = 0; i < n->nov; i++) {
        if (own)
            free(n->ov[i].base);
        kx_free(n->ov[i].offset);
    }
    if (own) {
        free(n->ov);
        free(n->stmts);
        for (int i = 0; i < n->nsyms; i++)
            free(n->syms[i]);
        free(n->syms);
    }
    nest_block_free(n->block);
    memset(n, 0, sizeof *n);
}

int nest_add_mca(nest_loop *l, const char *target, int ok, int has_cycles, double cycles,
                 double src_iters_per_asm_iter, double block_rthroughput)
{
    if (!ok || !has_cycles || !target)
        return 0;
    char *t = strdup(target);
    nest_mca *m = t ? ku_push(&l->mca, &l->nmca, sizeof *l->mca) : NULL;
    if (!m) {
        free(t);
        return -1;
    }
    m->target = t;
    m->cycles = cycles;
    m->rthru = src_iters_per_asm_iter > 0 && block_rthroughput > 0
                   ? block_rthroughput / src_iters_per_asm_iter : 0;
    return 0;
}

int nest_label_add(char **label, const char *idioms)
{
    for (const char *p = idioms; p && *p;) {
        size_t n = strcspn(p, ",");
        int seen = 0;
        for (const char *q = *label; q && *q && !seen;) {
            size_t m = strcspn(q, ",");
            seen = m == n && strncmp(q, p, n) == 0;
            q += m + (q[m] == ',');
        }
        if (!seen && n > 0) {
            size_t old = *label ? strlen(*label) : 0;
            char *nl = realloc(*label, old + n + 2);
            if (!nl)
                return -1;
            if (old)
                nl[old++] = ',';
            memcpy(nl + old, p, n);
            nl[old + n] = '\0';
            *label = nl;
        }
        p += n + (p[n] == ',');
    }
    return 0;
}

/* "A[i][j-1]->A[i][j] dist=1 fadd=6 mem all; ...": keys it does not know
 * are skipped, a chain without dist >= 1 is dropped. */
int nest_recur_parse(const char *text, nest_recur *out, int max)
{
    int n = 0;
    const char *s = text ? text : "";
    while (*s && n < max) {
        size_t seg = strcspn(s, ";");
        nest_recur c;
        memset(&c, 0, sizeof c);
        for (const char *t = s, *end = s + seg; t < end;) {
            while (t < end && *t == ' ')
                t++;
            const char *te = t;
            while (te < end && *te != ' ')
                te++;
            size_t tl = (size_t)(te - t);
            const char *eq = memchr(t, '=', tl);
            if (tl == 3 && !strncmp(t, "mem", 3))
                c.mem = 1;
            if (tl == 3 && !strncmp(t, "all", 3))
                c.all = 1;
            if (eq) {
                size_t kl = (size_t)(eq - t);
                int v = atoi(eq + 1);
                if (kl == 4 && !strncmp(t, "dist", 4))
                    c.dist = v;
                for (int k = 0; k < KU_CHAIN_NOPS; k++)
                    if (strlen(ku_chain_op_name(k)) == kl &&
                        !strncmp(t, ku_chain_op_name(k), kl) && v > 0)
                        c.ops[k] = v;
            }
            t = te;
        }
        if (c.dist >= 1)
            out[n++] = c;
        s += seg;
        if (*s == ';')
            s++;
    }
    return n;
}

/* ---- what follows from the rest (nest_derive) ----------------------------- */

/* Does e hold min, max, mod (or a division by a non-constant) of the
 * variable of loop k or of a loop around it?  Such a trip count is not a
 * polynomial in them (a step's div(n - i + 1, 2) is one, rounded), and its
 * value at the middle of their ranges is not its average: it is bounded. */
static int opaque_in_ivs(const nest_model *n, int k, const kx_expr *e)
{
    if (!e || !kx_has_opaque(e))
        return 0;
    for (int q = k; q >= 0; q = n->loops[q].parent)
        if (n->loops[q].iv && kx_piecewise_in(e, n->loops[q].iv))
            return 1;
    return 0;
}

/* One symbol of an expression: a new one (not a loop variable, not seen)
 * joins n->syms.  1 on allocation failure. */
static int add_sym(void *ctx, const char *name)
{
    nest_model *n = ctx;
    for (int k = 0; k < n->nloops; k++)
        if (n->loops[k].iv && !strcmp(n->loops[k].iv, name))
            return 0;
    for (int k = 0; k < n->nsyms; k++)
        if (!strcmp(n->syms[k], name))
            return 0;
    char *copy = strdup(name);
    if (!copy || ku_push_ptr(&n->syms, &n->nsyms, copy)) {
        free(copy);
        return 1;
    }
    return 0;
}

static int collect_syms(nest_model *n, const kx_expr *e)
{
    return kx_each_symbol(e, add_sym, n) ? -1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int nest_same_subscripts(const nest_acc *a, const nest_acc *b)
{
    if (a->ndims != b->ndims)
        return 0;
    for (int j = 0; j < a->ndims; j++)
        if (strcmp(a->index[j], b->index[j]) != 0)
            return 0;
    return 1;
}

/* Per loop: spread, bounded, last; then each loop's thread loop on its
 * path and each access's stride along it. */
static int derive_loops(nest_model *n)
{
    for (int k = 0; k < n->nloops; k++) {
        nest_loop *l = &n->loops[k];
        int64_t step = l->step ? l->step : 1;
        l->spread = l->thread || (l->parent >= 0 && l->gpu_map && !strcmp(l->gpu_map, "collapsed"));
        l->bounded = l->parent >= 0 && opaque_in_ivs(n, l->parent, l->trip);
        if (l->trip && l->lower) {
            kx_expr *st = kx_int(step), *m = st ? kx_mul(l->trip, st) : NULL;
            kx_expr *a = m ? kx_add(l->lower, m) : NULL;
            l->last = a ? kx_sub(a, st) : NULL;
            kx_free(st), kx_free(m), kx_free(a);
            if (!l->last)
                return -1;
        }
    }
    for (int k = 0; k < n->nloops; k++) {
        int p = n->loops[k].parent;
        n->loops[k].thread_on_path = n->loops[k].thread ? k
                                     : p >= 0 ? n->loops[p].thread_on_path : -1;
    }
    for (int a = 0; a < n->naccs; a++) {
        nest_acc *ac = &n->accs[a];
        int li = n->stmts[ac->stmt].loop, t = n->loops[li].thread_on_path;
        if (t < 0)
            ac->no_thread = 1;
        else if (ac->lin[t] && !(ac->stride = kx_copy(ac->lin[t])))
            return -1;
    }
    return 0;
}

/* Whether loops[0]'s iterations differ in work: a loop whose bounds
 * mention a moving variable moves too, since the models take its variable
 * at the middle of its range (preorder: a parent first). */
static int derive_uneven(nest_model *n)
{
    unsigned char *moves = calloc((size_t)n->nloops + 1, 1);
    if (!moves)
        return -1;
    for (int k = 0; k < n->nloops; k++) {
        const nest_loop *l = &n->loops[k];
        int trip_moves = 0, lower_moves = k == 0;
        for (int a = l->parent; a >= 0 && k > 0; a = n->loops[a].parent)
            if (moves[a] && n->loops[a].iv) {
                trip_moves |= l->trip && kx_mentions(l->trip, n->loops[a].iv);
                lower_moves |= l->lower && kx_mentions(l->lower, n->loops[a].iv);
            }
        moves[k] = (unsigned char)(lower_moves || trip_moves);
        if (k > 0 && (trip_moves || lower_moves))
            n->uneven = 1;
    }
    free(moves);
    return 0;
}

/* The symbols a launch binds, sorted. */
static int derive_syms(nest_model *n)
{
    for (int k = 0; k < n->nloops; k++)
        if (collect_syms(n, n->loops[k].trip) || collect_syms(n, n->loops[k].lower))
            return -1;
    for (int a = 0; a < n->naccs; a++) {
        nest_acc *ac = &n->accs[a];
        if (collect_syms(n, ac->stride))
            return -1;
        for (int j = 0; j < ac->ndims; j++) {
            if (collect_syms(n, ac->extent[j]))
                return -1;
            for (int k = 0; k < n->nloops; k++)
                if (collect_syms(n, ac->diff[j * n->nloops + k]))
                    return -1;
        }
        for (int k = 0; k < n->nloops; k++)
            if (collect_syms(n, ac->lin[k]))
                return -1;
    }
    if (n->nsyms > 1)
        qsort(n->syms, (size_t)n->nsyms, sizeof *n->syms, cmp_str);
    return 0;
}

int nest_derive(nest_model *n)
{
    if (derive_loops(n) || derive_uneven(n) || derive_syms(n))
        return -1;
    /* which accesses share an array, and which writes have a read of the
     * same element: name comparisons made once, not at every launch */
    for (int a = 0; a < n->naccs; a++) {
        nest_acc *ac = &n->accs[a];
        ac->arr = a;
        for (int b = 0; b < a; b++)
            if (!strcmp(n->accs[b].array, ac->array)) {
                ac->arr = n->accs[b].arr;
                break;
            }
        ac->read_first = 0;
        for (int b = 0; b < n->naccs && ac->is_write && !ac->read_first; b++)
            ac->read_first = !n->accs[b].is_write && !strcmp(n->accs[b].array, ac->array) &&
                             nest_same_subscripts(&n->accs[b], ac);
    }
    return 0;
}
