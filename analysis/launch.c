/*
 * launch.c -- what libkeelrt's models need per launch root, per access and
 * per statement (see launch.h), computed from the loop IR and IPDA's
 * verdicts.  A statement's cost includes the loops of the functions it
 * calls when their cost is known (callee.h).  keelcc runs these rules once
 * per translation unit and stores the results (plugin/store.c); the
 * runtime only binds them to the values of a launch (runtime/facts.c).
 */
#include "launch.h"

#include "callee.h"
#include "omp_pragmas.h"
#include "sync.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int launch_parallel(int role, par_verdict verdict)
{
    if (role != OMP_MAP_NONE && role != OMP_MAP_SEQ)
        return 1;
    return verdict == PAR_PARALLEL;
}

static int inside(const ir_tu *tu, int l, int anc)
{
    for (; l >= 0; l = tu->loops[l].parent)
        if (l == anc)
            return 1;
    return 0;
}

/* One past the last loop of k's subtree (the IR is in preorder). */
static int subtree_end(const ir_tu *tu, int k)
{
    if (!tu->unordered)
        return ir_nest_end(tu, k);   /* pre-order: the nest is an index range */
    int e = k + 1;
    while (e < tu->nloops && inside(tu, e, k))
        e++;
    return e;
}

/* Mark the first parallel loops strictly below k on every path; returns
 * how many. */
static int mark_threads(const ir_tu *tu, const int *parallel, int k, unsigned char *thread)
{
    int n = 0;
    for (int c = k + 1, end = subtree_end(tu, k); c < end; c++) {
        if (tu->loops[c].parent != k)
            continue;
        if (parallel[c]) {
            thread[c] = 1;
            n++;
        } else
            n += mark_threads(tu, parallel, c, thread);
    }
    return n;
}

/* Does the outermost nest around loop l hold synchronisation or a call
 * whose work its cost leaves out (sync.h)?  Then no loop of it is ever a
 * GPU thread loop, whatever OpenMP's pragmas say. */
static int nest_blocked(const ir_tu *tu, int l)
{
    char why[256];
    while (tu->loops[l].parent >= 0)
        l = tu->loops[l].parent;
    return sync_nest_blocked(tu, l, why, sizeof why);
}

void launch_map(const ir_tu *tu, const int *roles, const int *parallel, int root,
                unsigned char *thread, unsigned char *kernel, int *region)
{
    int end = subtree_end(tu, root), nomp = 0;
    *region = 0;
    for (int k = root; k < end; k++)
        thread[k] = kernel[k] = 0;
    if (nest_blocked(tu, root))
        return;
    /* the nest's OpenMP mapping: GPU threads take the loops clang's offload
     * gives them; a teams loop with no thread loop below is its own item */
    for (int k = root; roles && k < end; k++)
        if (roles[k] == OMP_MAP_GRID || roles[k] == OMP_MAP_THREADS) {
            thread[k] = 1;
            nomp++;
        }
    for (int k = root; roles && k < end; k++) {
        if (roles[k] != OMP_MAP_TEAMS)
            continue;
        int below = 0;
        for (int c = k + 1; c < end; c++)
            below |= thread[c] && inside(tu, c, k);
        if (!below) {
            thread[k] = 1;
            nomp++;
        }
    }
    if (nomp == 0 && parallel[root] && mark_threads(tu, parallel, root, thread) == 0)
        thread[root] = 1;
    else if (!parallel[root] && (nomp > 0 || mark_threads(tu, parallel, root, thread) > 0)) {
        /* issue 10.4: a sequential loop (a time loop, or one inside
         * `target data`) around parallel nests is one offload region: the
         * first thread loops below it are the kernels, each mapped as a
         * launch loop of its own (teams over it, threads over the first
         * parallel loops below it, else over itself). */
        *region = 1;
        for (int k = root + 1; k < end; k++)
            if (thread[k]) {
                int in = 0;
                for (int p = tu->loops[k].parent; p >= 0 && p >= root; p = tu->loops[p].parent)
                    in |= kernel[p];
                if (!in)
                    kernel[k] = 1;
            }
        for (int k = root + 1; nomp == 0 && k < end; k++)
            if (kernel[k] && mark_threads(tu, parallel, k, thread) > 0)
                thread[k] = 0;
    }
}

kx_expr *launch_linearize(const ir_access *a)
{
    for (int j = 0; j < a->ndims; j++)
        if (!a->index[j])
            return NULL;
    return ip_linearize(a->ndims, a->index, a->nextents, a->extent);
}

/* Does one of the loop's pragmas open a `target` construct that runs code
 * (not target data / enter / exit / update)? */
static int is_target_construct(const ir_loop *l)
{
    for (int i = 0; i < l->npragmas; i++) {
        omp_directive d;
        char err[128];
        int yes = omp_parse(l->pragmas[i], &d, err, sizeof err) == 0 && d.is_omp &&
                  (d.constructs & OMP_TARGET) &&
                  !(d.constructs & (OMP_DATA | OMP_ENTER | OMP_EXIT | OMP_UPDATE));
        omp_free(&d);
        if (yes)
            return 1;
    }
    return 0;
}

launch_cost launch_stmt_cost(const ir_stmt *s)
{
    const ir_ops *o = &s->ops;
    launch_cost c;
    c.cycles = 1.0 * (o->fadd + o->fmul) + 4.0 * o->fdiv + 20.0 * o->fmath +
               0.5 * (o->iadd + o->cmp) + 1.0 * o->imul + 20.0 * o->idiv + 0.5 * s->nacc;
    c.gpu_insts = (double)(o->fadd + o->fmul) + 4.0 * o->fdiv + 20.0 * o->fmath +
                  o->iadd + o->imul + 20.0 * o->idiv + o->cmp + 2.0 * s->nacc;
    c.flops = (double)(o->fadd + o->fmul + o->fdiv + o->fmath);
    return c;
}

/* Iteration-point difference of e along loop l: e(iv + step) - e, with the
 * loop's constant step (1 when unknown).  NULL: unknown. */
static char *diff_text(const kx_expr *e, const ir_loop *l)
{
    kx_expr *d = e && l->iv ? ip_stride(e, l->iv, l->step ? l->step : 1) : NULL;
    char *s = d ? kx_print(d) : NULL;
    kx_free(d);
    return s;
}

/* Strides of one access along every enclosing loop with a variable: the
 * linearised address (dim -1) and each subscript. */
static int access_strides(const ir_tu *tu, int l, const ir_access *a, int *n,
                          launch_stride **out)
{
    int depth = 0;
    for (int k = l; k >= 0; k = tu->loops[k].parent)
        depth++;
    launch_stride *v = calloc((size_t)depth * (size_t)(a->ndims + 1) + 1, sizeof *v);
    if (!v)
        return -1;
    kx_expr *lin = launch_linearize(a);
    int m = 0, rc = 0;
    for (int k = l; k >= 0 && rc == 0; k = tu->loops[k].parent) {
        const ir_loop *lp = &tu->loops[k];
        if (!lp->iv)
            continue;
        for (int dim = -1; dim < a->ndims && rc == 0; dim++) {
            const kx_expr *e = dim < 0 ? lin : a->index[dim];
            v[m].loop = k;
            v[m].dim = dim;
            v[m].stride = diff_text(e, lp);
            if (e && !v[m].stride)
                rc = -1;     /* kx_print / ip_stride out of memory */
            m++;
        }
    }
    kx_free(lin);
    *n = m;
    *out = v;
    return rc;
}

void launch_overlap_free(launch_overlap *v, int n)
{
    for (int i = 0; v && i < n; i++) {
        free(v[i].base);
        free(v[i].offset);
    }
    free(v);
}

typedef struct {
    const char *name;
    int kind;                 /* IR_BASE_* of its accesses (OTHER when they differ) */
    int written;
    int moved;                /* the nest assigns the variable itself */
    int need;
} ov_base;

/* Row-major element offset text of an access from its base, NULL when it
 * cannot be bounded; *oom set on allocation failure. */
static char *overlap_offset(const ir_access *a, int *oom)
{
    if (!a->affine || a->elem_size <= 0 || a->ndims < 1)
        return NULL;
    kx_expr *lin = launch_linearize(a);
    char *t = lin ? kx_print(lin) : NULL;
    if (lin && !t)
        *oom = 1;
    kx_free(lin);
    return t;
}

int launch_overlap_of(const ir_tu *tu, const par_result *par, int root, launch_overlap **out,
                      int *n)
{
    int acc0 = 0;
    for (int l = 0; l < root; l++)
        for (int s = 0; s < tu->loops[l].nstmts; s++)
            acc0 += tu->loops[l].stmts[s].nacc;
    return launch_overlap_at(tu, par, root, acc0, out, n);
}

int launch_overlap_at(const ir_tu *tu, const par_result *par, int root, int acc0,
                      launch_overlap **out, int *n)
{
    *out = NULL;
    *n = 0;
    int end = subtree_end(tu, root), relies = 0;
    for (int k = root; k < end && par; k++)
        relies |= par->loops[k].verdict == PAR_PARALLEL || par->loops[k].verdict == PAR_REDUCTION;
    if (!relies)
        return 0;
    ov_base *b = NULL;
    int nb = 0, rc = -1, oom = 0;
    for (int k = root; k < end; k++)
        for (int s = 0; s < tu->loops[k].nstmts; s++) {
            const ir_stmt *st = &tu->loops[k].stmts[s];
            for (int a = 0; a < st->nacc; a++) {
                const ir_access *ac = &st->acc[a];
                int i = 0;
                while (i < nb && strcmp(b[i].name, ac->array) != 0)
                    i++;
                if (i == nb) {
                    ov_base *x = ku_push(&b, &nb, sizeof *b);
                    if (!x)
                        goto done;
                    *x = (ov_base){ ac->array, ac->base, 0, 0, 0 };
                }
                if (b[i].kind != ac->base)
                    b[i].kind = IR_BASE_OTHER;
                b[i].written |= ac->is_write;
            }
        }
    /* a base variable the nest assigns (`p = q`, `p++`) moves under its accesses */
    for (int k = root; k < end; k++)
        for (int s = 0; s < tu->loops[k].nstmts; s++) {
            const ir_stmt *st = &tu->loops[k].stmts[s];
            for (int v = 0; v < st->nscalars; v++)
                for (int i = 0; i < nb; i++)
                    b[i].moved |= st->scalars[v].is_write && !strcmp(st->scalars[v].name, b[i].name);
        }
    int any = 0;
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < nb; j++)
            if (i != j && (b[i].written || b[j].written)
                && !(b[i].kind == IR_BASE_ARRAY && b[j].kind == IR_BASE_ARRAY))
                b[i].need = any = 1;
    if (!any) {
        rc = 0;
        goto done;
    }
    int ai = acc0;
    for (int k = root; k < end; k++)
        for (int s = 0; s < tu->loops[k].nstmts; s++) {
            const ir_stmt *st = &tu->loops[k].stmts[s];
            for (int a = 0; a < st->nacc; a++, ai++) {
                const ir_access *ac = &st->acc[a];
                int i = 0;
                while (strcmp(b[i].name, ac->array) != 0)
                    i++;
                if (!b[i].need)
                    continue;
                launch_overlap *o = ku_push(out, n, sizeof **out);
                if (!o)
                    goto done;
                *o = (launch_overlap){ ai, strdup(ac->array), overlap_offset(ac, &oom),
                                       (b[i].kind == IR_BASE_POINTER || b[i].kind == IR_BASE_ARRAY)
                                       && !b[i].moved };
                if (!o->base || oom)
                    goto done;
            }
        }
    rc = 0;
done:
    free(b);
    if (rc) {
        launch_overlap_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

int launch_analyze(const ir_tu *tu, const par_result *par, launch_result **out,
                   char *err, size_t errlen)
{
    *out = NULL;
    launch_result *r = calloc(1, sizeof *r);
    int *roles = malloc(sizeof *roles * (size_t)(tu->nloops + 1));
    unsigned char *thread = calloc((size_t)tu->nloops + 1, 1);
    unsigned char *kernel = calloc((size_t)tu->nloops + 1, 1);
    int rc = -1;
    if (!r || !roles || !thread || !kernel)
        goto done;
    r->nloops = tu->nloops;
    for (int l = 0; l < tu->nloops; l++)
        for (int s = 0; s < tu->loops[l].nstmts; s++) {
            r->nstmts++;
            r->naccs += tu->loops[l].stmts[s].nacc;
        }
    r->parallel = calloc((size_t)tu->nloops + 1, sizeof *r->parallel);
    r->noverlap = calloc((size_t)tu->nloops + 1, sizeof *r->noverlap);
    r->overlap = calloc((size_t)tu->nloops + 1, sizeof *r->overlap);
    if (!r->noverlap || !r->overlap)
        goto done;
    for (int l = 0, acc0 = 0; l < tu->nloops; l++) {
        if (launch_overlap_at(tu, par, l, acc0, &r->overlap[l], &r->noverlap[l]))
            goto done;
        for (int s = 0; s < tu->loops[l].nstmts; s++)
            acc0 += tu->loops[l].stmts[s].nacc;
    }
    r->nests = calloc((size_t)tu->nloops + 1, sizeof *r->nests);
    r->nstrides = calloc((size_t)r->naccs + 1, sizeof *r->nstrides);
    r->strides = calloc((size_t)r->naccs + 1, sizeof *r->strides);
    r->costs = calloc((size_t)r->nstmts + 1, sizeof *r->costs);
    if (!r->parallel || !r->nests || !r->nstrides || !r->strides || !r->costs)
        goto done;
    /* the roles as stored in loops.gpu_map */
    for (int l = 0; l < tu->nloops; l++)
        roles[l] = tu->loops[l].gpu_map;
    for (int l = 0; l < tu->nloops; l++)
        r->parallel[l] = launch_parallel(roles[l], par->loops[l].verdict)
                         && !nest_blocked(tu, l);
    for (int root = 0; root < tu->nloops; root++) {
        launch_nest *n = &r->nests[root];
        int end = subtree_end(tu, root);
        launch_map(tu, roles, r->parallel, root, thread, kernel, &n->region);
        n->roles = calloc((size_t)(end - root), sizeof *n->roles);
        if (!n->roles)
            goto done;
        for (int k = root; k < end; k++) {
            n->roles[n->nroles++] = (launch_role){ k, thread[k], kernel[k] };
            if ((n->region ? kernel[k] : k == root) && is_target_construct(&tu->loops[k]))
                n->omp_target = 1;
        }
    }
    int a = 0, s = 0;
    for (int l = 0; l < tu->nloops; l++)
        for (int si = 0; si < tu->loops[l].nstmts; si++) {
            const ir_stmt *st = &tu->loops[l].stmts[si];
            launch_cost c = launch_stmt_cost(st), add;
            char why[256];
            /* a callee of known cost (callee.h) is part of the statement;
             * an unknown one keeps the nest off the GPU (nest_blocked) */
            int cr = st->ncalls ? callee_stmt_cost(tu, l, si, &add, why, sizeof why) : 1;
            if (cr < 0)
                goto done;
            if (cr == 0) {
                c.cycles += add.cycles;
                c.gpu_insts += add.gpu_insts;
                c.flops += add.flops;
            }
            r->costs[s++] = c;
            for (int k = 0; k < st->nacc; k++, a++)
                if (access_strides(tu, l, &st->acc[k], &r->nstrides[a], &r->strides[a]))
                    goto done;
        }
    rc = 0;
done:
    free(roles);
    free(thread);
    free(kernel);
    if (rc) {
        launch_free(r);
        return ku_fail(err, errlen, "out of memory");
    }
    *out = r;
    return 0;
}

void launch_free(launch_result *r)
{
    if (!r)
        return;
    for (int l = 0; r->nests && l < r->nloops; l++)
        free(r->nests[l].roles);
    for (int l = 0; r->overlap && r->noverlap && l < r->nloops; l++)
        launch_overlap_free(r->overlap[l], r->noverlap[l]);
    free(r->overlap);
    free(r->noverlap);
    for (int a = 0; r->strides && a < r->naccs; a++) {
        for (int i = 0; r->strides[a] && i < r->nstrides[a]; i++)
            free(r->strides[a][i].stride);
        free(r->strides[a]);
    }
    free(r->parallel);
    free(r->nests);
    free(r->nstrides);
    free(r->strides);
    free(r->costs);
    free(r);
}
