/*
 * nest_build.c -- the model of one launch nest from keelcc's IR and launch
 * facts (nest_build.h).
 *
 * One pass lays out the nest (preorder, children and statements sorted as
 * the model's order says), keeping the IR index of each model loop,
 * statement and access; a second puts the launch facts of the root in
 * place through those maps; nest_derive finishes (llvm-mca's figures,
 * which it does not read, the caller adds after).
 */
#include "nest_build.h"

#include <stdlib.h>
#include <string.h>

#include "omp_pragmas.h"
#include "util.h"

typedef struct {
    const nest_build_in *in;
    nest_model *n;
    int *loop_of;             /* IR loop -> model loop, -1 outside the nest */
    int *stmt0, *acc0;        /* IR loop -> flat index of its first statement / access */
    int *acc_of;              /* flat IR access -> model access, -1 outside */
    int nflat;
    int oom;
    char *err;
    size_t errlen;
} builder;

static kx_expr *copy_or_null(const kx_expr *e, builder *b)
{
    kx_expr *c = e ? kx_copy(e) : NULL;
    if (e && !c)
        b->oom = 1;
    return c;
}

static char *dup_or(const char *s, const char *dflt, builder *b)
{
    const char *t = s ? s : dflt;
    char *c = t ? strdup(t) : NULL;
    if (t && !c)
        b->oom = 1;
    return c;
}

typedef struct {
    int line, col, ir;
} ordered;

static int cmp_ordered(const void *x, const void *y)
{
    const ordered *a = x, *b = y;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    return (a->ir > b->ir) - (a->ir < b->ir);
}

static void add_access(builder *b, const ir_access *a, int flat, int stmt)
{
    nest_model *n = b->n;
    nest_acc *ac = ku_push(&n->accs, &n->naccs, sizeof *n->accs);
    if (!ac) {
        b->oom = 1;
        return;
    }
    b->acc_of[flat] = n->naccs - 1;
    ac->id = b->in->acc_ids[flat];
    ac->stmt = stmt;
    ac->array = dup_or(a->array, "?", b);
    ac->elem = a->elem_size;
    ac->is_write = a->is_write;
    ac->ndims = a->ndims;
    int nd = a->ndims > 0 ? a->ndims : 1;
    ac->index = calloc((size_t)nd, sizeof *ac->index);
    ac->extent = calloc((size_t)nd, sizeof *ac->extent);
    if (!ac->index || !ac->extent || !ac->array) {
        ac->ndims = 0;         /* nothing in index[] to free */
        b->oom = 1;
        return;
    }
    ku_buf t = { 0 };
    ku_buf_put(&t, ac->array);
    for (int j = 0; j < a->ndims; j++) {
        char *s = a->index[j] ? kx_print(a->index[j]) : NULL;
        if (a->index[j] && !s)
            b->oom = 1;
        ac->index[j] = dup_or(s, "?", b);
        free(s);
        ku_buf_printf(&t, "[%s]", ac->index[j] ? ac->index[j] : "?");
        /* extents are declared outermost first; a pointer subscripted
         * more often than it has extents leaves the rest unknown */
        int e = j - (a->ndims - a->nextents);
        if (e >= 0 && e < a->nextents && a->extent[e])
            ac->extent[j] = copy_or_null(a->extent[e], b);
    }
    if (t.oom)
        b->oom = 1;
    ac->text = ku_buf_take(&t);
}

static void add_loop(builder *b, int l, int parent)
{
    const ir_tu *tu = b->in->tu;
    const ir_loop *il = &tu->loops[l];
    nest_model *n = b->n;
    nest_loop *nl = ku_push(&n->loops, &n->nloops, sizeof *n->loops);
    if (!nl) {
        b->oom = 1;
        return;
    }
    int li = n->nloops - 1;
    b->loop_of[l] = li;
    nl->id = b->in->loop_ids[l];
    nl->parent = parent;
    nl->line = il->line;
    nl->col = il->col;
    nl->iv = dup_or(il->iv, NULL, b);
    nl->trip = copy_or_null(il->trip, b);
    nl->lower = copy_or_null(il->lower, b);
    nl->step = il->step;
    nl->gpu_map = il->gpu_map ? dup_or(omp_map_role_name(il->gpu_map), NULL, b) : NULL;
    nl->thread_on_path = -1;
    nl->nrec = nest_recur_parse(b->in->recurrence ? b->in->recurrence[l] : NULL, nl->rec,
                                NEST_MAX_RECUR);
    ordered *st = calloc((size_t)il->nstmts + 1, sizeof *st);
    if (!st) {
        b->oom = 1;
        return;
    }
    for (int s = 0; s < il->nstmts; s++)
        st[s] = (ordered){ il->stmts[s].line, il->stmts[s].col, s };
    qsort(st, (size_t)il->nstmts, sizeof *st, cmp_ordered);
    for (int k = 0; k < il->nstmts && !b->oom; k++) {
        int s = st[k].ir;
        const ir_stmt *is = &il->stmts[s];
        nest_stmt *ns = ku_push(&n->stmts, &n->nstmts, sizeof *n->stmts);
        if (!ns) {
            b->oom = 1;
            break;
        }
        int flat = b->acc0[l];
        for (int q = 0; q < s; q++)
            flat += il->stmts[q].nacc;
        ns->id = b->in->stmt_ids[b->stmt0[l] + s];
        ns->loop = li;
        ns->line = is->line;
        ns->conditional = is->conditional;
        ns->acc0 = n->naccs;
        ns->nacc = is->nacc;
        const launch_cost *c = &b->in->lr->costs[b->stmt0[l] + s];
        ns->cpu_cycles = c->cycles;
        ns->gpu_insts = c->gpu_insts;
        ns->flops = c->flops;
        for (int a = 0; a < is->nacc && !b->oom; a++)
            add_access(b, &is->acc[a], flat + a, n->nstmts - 1);
    }
    free(st);
    /* children by line, column, IR order */
    int nch = 0;
    for (int c = 0; c < tu->nloops; c++)
        nch += tu->loops[c].parent == l;
    ordered *ch = calloc((size_t)nch + 1, sizeof *ch);
    if (!ch) {
        b->oom = 1;
        return;
    }
    nch = 0;
    for (int c = 0; c < tu->nloops; c++)
        if (tu->loops[c].parent == l)
            ch[nch++] = (ordered){ tu->loops[c].line, tu->loops[c].col, c };
    qsort(ch, (size_t)nch, sizeof *ch, cmp_ordered);
    n->loops[li].nchildren = nch;
    for (int k = 0; k < nch && !b->oom; k++)
        add_loop(b, ch[k].ir, li);
    free(ch);
}

/* The launch facts of the nest at `root` into the model: 0, 1 when a text
 * does not parse, -1 out of memory. */
static int put_launch(builder *b, int root)
{
    const launch_result *lr = b->in->lr;
    nest_model *n = b->n;
    const launch_nest *ln = &lr->nests[root];
    char e[128];
    n->region = ln->region;
    n->omp_target = ln->omp_target;
    for (int i = 0; i < ln->nroles; i++) {
        int k = b->loop_of[ln->roles[i].loop];
        if (k < 0)
            continue;
        n->loops[k].parallel = lr->parallel[ln->roles[i].loop];
        n->loops[k].thread = ln->roles[i].thread;
        n->loops[k].kroot = ln->roles[i].kernel;
    }
    for (int a = 0; a < n->naccs; a++) {
        nest_acc *ac = &n->accs[a];
        ac->diff = calloc((size_t)(ac->ndims * n->nloops + 1), sizeof *ac->diff);
        ac->lin = calloc((size_t)n->nloops + 1, sizeof *ac->lin);
        if (!ac->diff || !ac->lin)
            return ku_fail(b->err, b->errlen, "out of memory");
    }
    for (int f = 0; f < b->nflat; f++) {
        int a = b->acc_of[f];
        for (int i = 0; a >= 0 && i < lr->nstrides[f]; i++) {
            const launch_stride *s = &lr->strides[f][i];
            int k = b->loop_of[s->loop];
            nest_acc *ac = &n->accs[a];
            if (k < 0 || !n->loops[k].iv || s->dim < -1 || s->dim >= ac->ndims)
                continue;
            kx_expr **slot = s->dim < 0 ? &ac->lin[k] : &ac->diff[s->dim * n->nloops + k];
            kx_free(*slot);
            *slot = s->stride ? kx_parse(s->stride, e, sizeof e) : NULL;
            if (s->stride && !*slot)
                return ku_fail(b->err, b->errlen, "a stride does not parse: %s", e), 1;
        }
    }
    /* the overlap condition, by access id (IR order), as the reader has it */
    for (int f = 0; f < b->nflat; f++)
        for (int i = 0; b->acc_of[f] >= 0 && i < lr->noverlap[root]; i++) {
            const launch_overlap *o = &lr->overlap[root][i];
            if (o->acc != f)
                continue;
            nest_ov *v = ku_push(&n->ov, &n->nov, sizeof *n->ov);
            if (!v || !(v->base = strdup(o->base ? o->base : "?")))
                return ku_fail(b->err, b->errlen, "out of memory");
            v->acc = b->acc_of[f];
            v->checkable = o->checkable;
            v->offset = o->offset ? kx_parse(o->offset, e, sizeof e) : NULL;
            if (o->offset && !v->offset)
                return ku_fail(b->err, b->errlen, "an overlap offset does not parse: %s", e), 1;
        }
    return 0;
}

int nest_build(const nest_build_in *in, int root, nest_model *out, char *err, size_t errlen)
{
    const ir_tu *tu = in->tu;
    memset(out, 0, sizeof *out);
    builder b = { in, out, NULL, NULL, NULL, NULL, 0, 0, err, errlen };
    b.loop_of = malloc(sizeof *b.loop_of * ((size_t)tu->nloops + 1));
    b.stmt0 = calloc((size_t)tu->nloops + 1, sizeof *b.stmt0);
    b.acc0 = calloc((size_t)tu->nloops + 1, sizeof *b.acc0);
    int rc = 0;
    if (b.loop_of && b.stmt0 && b.acc0) {
        for (int l = 0, ns = 0, na = 0; l < tu->nloops; l++) {
            b.loop_of[l] = -1;
            b.stmt0[l] = ns, b.acc0[l] = na;
            ns += tu->loops[l].nstmts;
            for (int s = 0; s < tu->loops[l].nstmts; s++)
                na += tu->loops[l].stmts[s].nacc;
            b.nflat = na;
        }
        b.acc_of = malloc(sizeof *b.acc_of * ((size_t)b.nflat + 1));
    }
    if (!b.loop_of || !b.stmt0 || !b.acc0 || !b.acc_of) {
        rc = ku_fail(err, errlen, "out of memory");
    } else {
        for (int f = 0; f < b.nflat; f++)
            b.acc_of[f] = -1;
        add_loop(&b, root, -1);
        if (b.oom)
            rc = ku_fail(err, errlen, "out of memory");
    }
    if (rc == 0)
        rc = put_launch(&b, root);
    if (rc == 0 && nest_derive(out))
        rc = ku_fail(err, errlen, "out of memory");
    free(b.loop_of), free(b.stmt0), free(b.acc0), free(b.acc_of);
    return rc;
}
