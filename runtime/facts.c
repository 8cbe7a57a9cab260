/*
 * facts.c -- a loop nest's facts: the model keelcc built, decoded once,
 * bound per launch (see facts.h).
 *
 * The nest is kept flat, in the model's types (nest.h, which owns them and
 * frees them: nest_free): loops[] in preorder (loops[0] is the launch site,
 * every loop after its parent), stmts[] with the index of their innermost
 * loop, accs[] with the index of their statement, ov[] the overlap rows.
 * Loading decodes the model keelcc built from its IR and packed
 * (nest_pack.h) -- the one linked into the program, or the one keelcc
 * stored in the database with the build (load_stored) -- straight into
 * those types: loops, statements, accesses, the launch facts (parallel
 * verdicts, the GPU mapping, every access's iteration-point differences
 * along its enclosing loops, statement cost estimates, whether the kernels
 * are `omp target` constructs), llvm-mca's figures and what nest_derive
 * worked out at build time; nothing is rebuilt, parsed or derived here.
 * Only a nest with no stored model of this format (a database an older
 * keelcc wrote, a damaged blob, a model naming another launch loop) is
 * built from its rows (load_nest over db_nest.h's row source: its expressions parsed,
 * rt_facts_parsed counts them, then the same nest_derive).  The per-site
 * plan (below) compiles at a site's second bind: its first evaluates by
 * name, as the reference path does.  Binding evaluates them
 * with kx_eval, where each induction variable stands at the middle of its
 * range (lower + step * floor((trip - 1) / 2)), which makes triangular
 * inner trip counts their average.  A trip count with min, max, div or mod
 * of an enclosing loop's variable (`k < min(i, j)`) has no such average:
 * it is bounded instead, by its largest value over the ranges those
 * variables take (interval arithmetic, kx_eval_range), and the launch says
 * so (rt_launch.trip_bounds).  Unknown trip counts count 128
 * iterations and conditional statements half their executions, the
 * assumptions of Chikin et al. (section IV.B, "Instruction Loadout").
 *
 * GPU mapping (keelcc's launch_map): teams over the launch loop, threads
 * over the loops keelcc marked; a work item is one (team iteration, thread
 * iteration) pair; an access's inter-thread stride is its linearised
 * difference along the thread loop of its path (uniform when it has none:
 * every thread of a team sees the same team iteration).
 *
 * Ownership: one rt_facts owns everything in it; rt_facts_free frees it.
 */
#include "facts.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db_launch.h"
#include "db_mca.h"
#include "db_nest.h"
#include "expr.h"
#include "nest.h"
#include "nest_pack.h"
#include "util.h"

#define UNKNOWN_TRIP 128      /* chikin IV.B: loops of unknown count run 128 times */

/* The nest's model (nest.h) under the names the models below use. */
typedef nest_mca fl_mca;
typedef nest_loop fl_loop;
typedef nest_stmt fl_stmt;
typedef nest_acc fl_acc;

typedef struct fl_plan fl_plan;   /* the per-site plan (see "the per-site plan") */

struct rt_facts {
    fl_plan *plan;            /* compiled at the second bind, published atomically */
    int binds;                /* binds without a plan so far (plan_for; atomic) */
    char *file, *function, *label;
    char *hash;               /* translation_units.hash of the nest's source, NULL none */
    char *fact[DB_NLOOP_FACTS];   /* the launch loop's per-loop facts (loop_facts.h) */
    int line;
    int64_t loop_id;
    union {                   /* the model (nest.h): f->model, its arrays also as f->loops ... */
        nest_model model;
        struct { NEST_MEMBERS };
    };
    /* region, omp_target, uneven and syms are the model's (nest.h) */
    int target_host_code;     /* 1: per-loop fact `offload` "host": built without an
                               * offload image, a target region runs as host code */
    int parsed;               /* expression texts loading parsed (rt_facts_parsed) */
    /* the plain view of the run-time overlap condition (the model's ov[])
     * that overlap.c checks */
    rt_ov_loop *ovl;
    rt_ov_base *ovb;
    rt_ov_access *ova;
    rt_overlap spec;
    int head_in_block;        /* file, function, hash, label and fact[] lie in the
                               * decoded model's block (take_head) */
};

/* ---- small helpers ------------------------------------------------------- */

static char *dup(const char *s)
{
    return s ? strdup(s) : NULL;
}

static kx_expr *parse_or_null(const char *text)
{
    char err[128];
    return text ? kx_parse(text, err, sizeof err) : NULL;
}

/* ---- loading ------------------------------------------------------------- */

/* The rows route (a nest with no stored model of the current format). */
typedef struct {
    rt_facts *f;
    int parsed;               /* expression texts parsed */
} loader;

/* A stored expression parsed from its text; NULL for NULL text or text
 * that does not parse (unknown). */
static kx_expr *expr_of(loader *ld, const char *text)
{
    if (!text)
        return NULL;
    ld->parsed++;
    return parse_or_null(text);
}

static int load_loop(db_nest *d, loader *ld, int64_t id, int parent, char *err, size_t errlen);

/* Append one statement of loop `li` with its accesses and scalars. */
static int add_stmt(loader *ld, int li, const db_stmt_info *s)
{
    rt_facts *f = ld->f;
    fl_stmt *st = ku_push(&f->stmts, &f->nstmts, sizeof *f->stmts);
    if (!st)
        return -1;
    st->id = s->id;
    st->loop = li;
    st->line = s->line;
    st->conditional = s->conditional;
    st->acc0 = f->naccs;
    st->nacc = s->naccesses;
    for (int k = 0; k < s->naccesses; k++) {
        const db_access_info *a = &s->accesses[k];
        fl_acc *ac = ku_push(&f->accs, &f->naccs, sizeof *f->accs);
        if (!ac)
            return -1;
        ac->id = a->id;
        ac->stmt = f->nstmts - 1;
        ac->array = dup(a->array ? a->array : "?");
        ac->elem = a->elem_size;
        ac->is_write = a->is_write;
        ac->ndims = a->ndims;
        size_t tl = strlen(ac->array ? ac->array : "") + 1;
        for (int j = 0; j < a->ndims; j++)
            tl += strlen(a->index[j] ? a->index[j] : "?") + 2;
        ac->text = malloc(tl);
        ac->index = calloc((size_t)(a->ndims > 0 ? a->ndims : 1), sizeof *ac->index);
        ac->extent = calloc((size_t)(a->ndims > 0 ? a->ndims : 1), sizeof *ac->extent);
        if (!ac->array || !ac->text || !ac->index || !ac->extent)
            return -1;
        strcpy(ac->text, ac->array);
        for (int j = 0; j < a->ndims; j++) {
            strcat(ac->text, "[");
            strcat(ac->text, a->index[j] ? a->index[j] : "?");
            strcat(ac->text, "]");
            if (!(ac->index[j] = dup(a->index[j] ? a->index[j] : "?")))
                return -1;
            /* extents are declared outermost first; a pointer subscripted
             * more often than it has extents leaves the rest unknown */
            int e = j - (a->ndims - a->nextents);
            if (e >= 0 && e < a->nextents && a->extent[e])
                ac->extent[j] = expr_of(ld, a->extent[e]);
        }
    }
    return 0;
}

static int mca_row(void *ctx, const db_mca_row *r)
{
    return nest_add_mca(ctx, r->target, r->ok, r->has_cycles_per_src_iter,
                        r->cycles_per_src_iter, r->src_iters_per_asm_iter,
                        r->figs.block_rthroughput) ? 1 : 0;
}

static int load_loop(db_nest *d, loader *ld, int64_t id, int parent, char *err, size_t errlen)
{
    db_loop_info *l = NULL;
    rt_facts *f = ld->f;
    int r = db_nest_loop(d, id, &l, err, errlen);
    if (r != 0)
        return r < 0 ? -1 : ku_fail(err, errlen, "loop %lld vanished", (long long)id);
    fl_loop *fl = ku_push(&f->loops, &f->nloops, sizeof *f->loops);
    if (!fl) {
        db_nest_loop_free(d, l);
        return ku_fail(err, errlen, "out of memory");
    }
    int li = f->nloops - 1;
    fl->id = l->id;
    fl->parent = parent;
    fl->line = l->line;
    fl->col = l->col;
    fl->iv = dup(l->iv);
    fl->trip = expr_of(ld, l->trip);
    fl->lower = expr_of(ld, l->lower);
    fl->step = l->step;
    fl->gpu_map = dup(l->gpu_map);
    fl->nchildren = l->nchildren;
    fl->thread_on_path = -1;
    fl->nrec = nest_recur_parse(db_loop_fact(l, DB_LOOP_FACT_recurrence), fl->rec, NEST_MAX_RECUR);
    if (li == 0) {
        f->loop_id = l->id;
        f->file = dup(l->file);
        f->function = dup(l->function);
        f->hash = dup(l->tu_hash);
        f->line = l->line;
        for (int k = 0; k < DB_NLOOP_FACTS; k++)
            if (db_loop_fact(l, k) && !(f->fact[k] = dup(db_loop_fact(l, k)))) {
                db_nest_loop_free(d, l);
                return ku_fail(err, errlen, "out of memory");
            }
        f->target_host_code = f->fact[DB_LOOP_FACT_offload] &&
                              strcmp(f->fact[DB_LOOP_FACT_offload], "host") == 0;
    }
    if (nest_label_add(&f->label, l->idioms)) {
        db_nest_loop_free(d, l);
        return ku_fail(err, errlen, "out of memory");
    }
    for (int i = 0; i < l->nstmts; i++)
        if (add_stmt(ld, li, &l->stmts[i])) {
            db_nest_loop_free(d, l);
            return ku_fail(err, errlen, "out of memory");
        }
    int nch = l->nchildren;
    int64_t *kids = malloc(sizeof *kids * (size_t)(nch > 0 ? nch : 1));
    if (!kids) {
        db_nest_loop_free(d, l);
        return ku_fail(err, errlen, "out of memory");
    }
    for (int i = 0; i < nch; i++)
        kids[i] = l->children[i].id;
    int64_t self = l->id;
    db_nest_loop_free(d, l);
    /* llvm-mca's figures per target CPU (older databases: none) */
    char e2[128];
    if (db_nest_mca_each(d, self, mca_row, &f->loops[li], e2, sizeof e2) > 0) {
        free(kids);
        return ku_fail(err, errlen, "out of memory");
    }
    for (int i = 0; i < nch; i++)
        if (load_loop(d, ld, kids[i], li, err, errlen)) {
            free(kids);
            return -1;
        }
    free(kids);
    return 0;
}

/* Cycles of one iteration of loop k counting only its own statements (not
 * inner loops): llvm-mca's figure for the modelled host's CPU when keelcc
 * stored one (mca_results) for a loop with no inner loop, else keelcc's
 * per-statement estimates (statements.est_cycles) plus 1 cycle of loop
 * overhead (increment, compare and branch fused).  `overhead` is 0 for
 * the launch loop, whose overhead Liao-Chapman counts separately. */
static double rt_loop_own_cycles(const rt_facts *f, int k, const double *stmt_weight,
                                 int overhead, const char *target, int *from_mca,
                                 double *rthru)
{
    const fl_loop *l = &f->loops[k];
    *from_mca = 0;
    *rthru = 0;
    /* the chosen CPU's llvm-mca figure, else one of its family (pwr9 for
     * pwr8: llvm-mca rejects some POWER8 vector blocks), else the default */
    if (target && l->nchildren == 0) {
        *from_mca = 1;
        for (int i = 0; i < l->nmca; i++)
            if (!strcmp(l->mca[i].target, target) && l->mca[i].cycles > 0)
                return *rthru = l->mca[i].rthru, l->mca[i].cycles;
        for (int i = 0; i < l->nmca; i++)
            if (!strncmp(l->mca[i].target, target, 3) && l->mca[i].cycles > 0)
                return *rthru = l->mca[i].rthru, l->mca[i].cycles;
        *from_mca = 0;
    }
    double c = overhead ? 1 : 0;
    for (int s = 0; s < f->nstmts; s++)
        if (f->stmts[s].loop == k)
            c += stmt_weight[s] * f->stmts[s].cpu_cycles;
    return c;
}

/* The same, and a loop with no inner loop that carries a recurrence takes
 * at least its bound (Rau's RecMII, rt_recur_cycles: llvm-mca assumes
 * loads and stores never alias); when keelcc found every chain the loop
 * carries ("all") and llvm-mca's block throughput is known, Rau's whole
 * MII = max(ResMII, RecMII): the resources' bound is llvm-mca's
 * throughput, the recurrences' the host's latencies (llvm-mca's figure
 * counts a register chain with its own model's latencies).  *recur gets
 * what the bound changed (negative: less than llvm-mca's figure). */
static double rt_loop_body_cycles(const rt_facts *f, int k, const double *stmt_weight,
                                  int overhead, const char *target, int *from_mca,
                                  const rt_profile *cpu, double *recur)
{
    double rthru;
    double c = rt_loop_own_cycles(f, k, stmt_weight, overhead, target, from_mca, &rthru);
    const fl_loop *l = &f->loops[k];
    *recur = 0;
    if (l->nchildren == 0 && l->nrec > 0) {
        double b = rt_recur_cycles(cpu, l->rec, l->nrec);
        int all = 1;
        for (int i = 0; i < l->nrec; i++)
            all &= l->rec[i].all;
        if (all && *from_mca && rthru > 0) {
            double mii = b > rthru ? b : rthru;
            *recur = mii - c, c = mii;
        } else if (b > c) {
            *recur = b - c, c = b;
        }
    }
    return c;
}


/* ---- the launch facts keelcc stored for the nest (db_launch.h) ---------
 * Per loop its parallel verdict and GPU role, per access its strides along
 * every enclosing loop, per statement its cost estimates.  Nothing is
 * derived here: a nest without them was written by an older keelcc (or its
 * analysis failed) and does not load. */

/* Ids to indices: (id, index) pairs sorted by id, searched per row (a
 * nest of thousands of accesses has tens of thousands of stride rows). */
typedef struct {
    int64_t id;
    int index;
} id_index;

static int cmp_id(const void *a, const void *b)
{
    int64_t x = ((const id_index *)a)->id, y = ((const id_index *)b)->id;
    return x < y ? -1 : x > y;
}

static int find_id(const id_index *v, int n, int64_t id)
{
    id_index key = { id, 0 };
    const id_index *hit = bsearch(&key, v, (size_t)n, sizeof *v, cmp_id);
    return hit ? hit->index : -1;
}

typedef struct {
    rt_facts *f;
    id_index *loops, *accs, *stmts;
    loader *ld;
} launch_ctx;

static int launch_loop_row(void *vctx, const db_launch_loop *r)
{
    launch_ctx *c = vctx;
    int k = find_id(c->loops, c->f->nloops, r->loop_id);
    if (k >= 0) {
        c->f->loops[k].parallel = r->parallel;
        c->f->loops[k].thread = r->thread;
        c->f->loops[k].kroot = r->kernel;
    }
    return 0;
}


static int launch_stride_row(void *vctx, const db_launch_stride *r)
{
    launch_ctx *c = vctx;
    rt_facts *f = c->f;
    int k = find_id(c->loops, f->nloops, r->loop_id), a = find_id(c->accs, f->naccs, r->access_id);
    if (k < 0 || a < 0 || !f->loops[k].iv)
        return 0;
    fl_acc *ac = &f->accs[a];
    if (r->dim < -1 || r->dim >= ac->ndims)
        return 0;
    kx_expr **slot = r->dim < 0 ? &ac->lin[k] : &ac->diff[r->dim * f->nloops + k];
    kx_free(*slot);
    *slot = expr_of(c->ld, r->stride);
    return r->stride && !*slot ? 1 : 0;      /* 1: unparsable or out of memory */
}

static int launch_overlap_row(void *vctx, const db_launch_overlap *r)
{
    launch_ctx *c = vctx;
    rt_facts *f = c->f;
    int a = find_id(c->accs, f->naccs, r->access_id);
    if (a < 0)
        return 0;
    nest_ov *o = ku_push(&f->ov, &f->nov, sizeof *f->ov);
    if (!o || !(o->base = dup(r->base ? r->base : "?")))
        return 1;
    o->acc = a;
    o->checkable = r->checkable;
    o->offset = expr_of(c->ld, r->offset);
    return r->offset && !o->offset ? 1 : 0;
}

/* n zeroed elements of `size` bytes for the facts' own arrays: in the
 * decoded model's block when it has one (freed with it), else calloc'd. */
static void *facts_array(rt_facts *f, size_t n, size_t size)
{
    return f->model.block ? nest_block_take(&f->model.block, n * size, 0) : calloc(n, size);
}

/* The plain view of the overlap condition overlap.c checks. */
static int overlap_spec(rt_facts *f)
{
    if (f->nov == 0)
        return 0;
    f->ovl = facts_array(f, (size_t)f->nloops + 1, sizeof *f->ovl);
    f->ovb = facts_array(f, (size_t)f->nov + 1, sizeof *f->ovb);
    f->ova = facts_array(f, (size_t)f->nov + 1, sizeof *f->ova);
    if (!f->ovl || !f->ovb || !f->ova)
        return -1;
    for (int k = 0; k < f->nloops; k++)
        f->ovl[k] = (rt_ov_loop){ f->loops[k].parent, f->loops[k].iv, f->loops[k].lower,
                                  f->loops[k].trip, f->loops[k].step };
    int nb = 0;
    for (int i = 0; i < f->nov; i++) {
        const nest_ov *o = &f->ov[i];
        const fl_acc *ac = &f->accs[o->acc];
        int b = 0;
        while (b < nb && strcmp(f->ovb[b].name, o->base) != 0)
            b++;
        if (b == nb)
            f->ovb[nb++] = (rt_ov_base){ o->base, o->checkable };
        f->ovb[b].checkable &= o->checkable;
        f->ova[i] = (rt_ov_access){ b, f->stmts[ac->stmt].loop, o->offset, ac->elem,
                                    ac->is_write, ac->text };
    }
    f->spec = (rt_overlap){ f->nloops, f->ovl, nb, f->ovb, f->nov, f->ova };
    return 0;
}

static int launch_cost_row(void *vctx, const db_launch_cost *r)
{
    launch_ctx *c = vctx;
    int s = find_id(c->stmts, c->f->nstmts, r->stmt_id);
    if (s >= 0) {
        c->f->stmts[s].cpu_cycles = r->cycles;
        c->f->stmts[s].gpu_insts = r->gpu_insts;
        c->f->stmts[s].flops = r->flops;
    }
    return 0;
}

/* Read the launch facts, then the strides along the thread loops and the
 * symbols the launch needs.  Returns 0, 1 when keelcc stored no launch
 * facts, -1 with a message. */
static int bind_launch(db_nest *d, loader *ld, char *err, size_t errlen)
{
    rt_facts *f = ld->f;
    int r = db_nest_launch_get(d, f->loops[0].id, &f->model.region, &f->model.omp_target, err,
                               errlen);
    if (r != 0)
        return r;
    for (int a = 0; a < f->naccs; a++) {
        fl_acc *ac = &f->accs[a];
        ac->diff = calloc((size_t)(ac->ndims * f->nloops + 1), sizeof *ac->diff);
        ac->lin = calloc((size_t)f->nloops + 1, sizeof *ac->lin);
        if (!ac->diff || !ac->lin)
            return ku_fail(err, errlen, "out of memory");
    }
    launch_ctx c = { f, malloc(sizeof *c.loops * (size_t)(f->nloops + 1)),
                     malloc(sizeof *c.accs * (size_t)(f->naccs + 1)),
                     malloc(sizeof *c.stmts * (size_t)(f->nstmts + 1)), ld };
    if (!c.loops || !c.accs || !c.stmts) {
        free(c.loops), free(c.accs), free(c.stmts);
        return ku_fail(err, errlen, "out of memory");
    }
    for (int k = 0; k < f->nloops; k++)
        c.loops[k] = (id_index){ f->loops[k].id, k };
    qsort(c.loops, (size_t)f->nloops, sizeof *c.loops, cmp_id);
    for (int a = 0; a < f->naccs; a++)
        c.accs[a] = (id_index){ f->accs[a].id, a };
    for (int s = 0; s < f->nstmts; s++)
        c.stmts[s] = (id_index){ f->stmts[s].id, s };
    qsort(c.accs, (size_t)f->naccs, sizeof *c.accs, cmp_id);
    qsort(c.stmts, (size_t)f->nstmts, sizeof *c.stmts, cmp_id);
    r = 0;
    if (db_nest_launch_each_loop(d, f->loops[0].id, launch_loop_row, &c, err, errlen) < 0 ||
        db_nest_launch_each_cost(d, f->loops[0].id, launch_cost_row, &c, err, errlen) < 0)
        r = -1;
    else if ((r = db_nest_launch_each_stride(d, f->loops[0].id, launch_stride_row, &c, err,
                                        errlen)) > 0) {
        r = ku_fail(err, errlen, "a stored stride does not parse (or out of memory)");
    } else if ((r = db_nest_launch_each_overlap(d, f->loops[0].id, launch_overlap_row, &c, err,
                                           errlen)) > 0) {
        r = ku_fail(err, errlen, "a stored overlap offset does not parse (or out of memory)");
    }
    free(c.loops), free(c.accs), free(c.stmts);
    return r;
}

typedef struct {
    int n;
    char **file;
    int64_t *id;
} found;

static int found_row(void *ctx, const db_loop_summary *r)
{
    found *m = ctx;
    char *file = strdup(r->file ? r->file : "");
    int n = m->n;
    int64_t *id = file ? ku_push(&m->id, &n, sizeof *m->id) : NULL;
    if (!id || ku_push_ptr(&m->file, &m->n, file)) {
        free(file);
        return 1;
    }
    *id = r->loop_id;
    return 0;
}

/* The rows route: the nest launched at loop `root` from its rows (src, a
 * database), its launch facts, then nest_derive.  0 with *out, -1 with a
 * message. */
static int load_nest(db_nest *src, int64_t root, const char *file, int line, rt_facts **out,
                     char *err, size_t errlen)
{
    loader ld = { 0 };
    int x;
    rt_facts *f = calloc(1, sizeof *f);
    ld.f = f;
    if (!f)
        return ku_fail(err, errlen, "out of memory");
    if (load_loop(src, &ld, root, -1, err, errlen)) {
        rt_facts_free(f);
        return -1;
    }
    if ((x = bind_launch(src, &ld, err, errlen)) != 0) {
        if (x > 0)
            ku_fail(err, errlen, "%s:%d: no launch facts (an older keelcc wrote it, or "
                    "its analysis failed): recompile it with keelcc", f->file ? f->file : file,
                    line);
        rt_facts_free(f);
        return -1;
    }
    if (nest_derive(&f->model) || overlap_spec(f)) {
        rt_facts_free(f);
        return ku_fail(err, errlen, "out of memory");
    }
    f->parsed = ld.parsed;
    *out = f;
    return 0;
}

/* The launch's head (nest_pack.h) into f: its strings lie in the
 * model's block (f->head_in_block), as the overlap view does. */
static int take_head(rt_facts *f, const nest_head *h)
{
    f->loop_id = h->root;
    f->line = h->line;
    f->file = h->file;
    f->function = h->function;
    f->hash = h->hash;
    f->label = h->label;
    f->head_in_block = 1;
    for (int i = 0; i < h->nfacts; i++)
        for (int k = 0; k < DB_NLOOP_FACTS; k++)
            if (!f->fact[k] && !strcmp(h->fact_name[i], db_loop_fact_names[k])) {
                f->fact[k] = h->fact[i];
                break;
            }
    f->target_host_code = f->fact[DB_LOOP_FACT_offload] &&
                          strcmp(f->fact[DB_LOOP_FACT_offload], "host") == 0;
    return overlap_spec(f);
}

/* The model keelcc packed (nest_pack.h), decoded straight into f->model:
 * nothing is rebuilt or derived here. */
int rt_facts_load_packed(const void *bytes, size_t n, rt_facts **out, char *err, size_t errlen)
{
    nest_head h;
    *out = NULL;
    rt_facts *f = calloc(1, sizeof *f);
    if (!f)
        return ku_fail(err, errlen, "out of memory");
    if (nest_decode(bytes, n, &h, &f->model, err, errlen)) {
        rt_facts_free(f);
        return -1;
    }
    int rc = take_head(f, &h);
    if (rc) {
        rt_facts_free(f);
        return ku_fail(err, errlen, "out of memory");
    }
    *out = f;
    return 0;
}

int rt_facts_load(db *d, const char *file, int line, int col, rt_facts **out,
                  char *err, size_t errlen)
{
    return rt_facts_load_build(d, file, line, col, NULL, out, err, errlen);
}

/* The part of a site's file name that a stored (resolved) path ends in:
 * after its last "." or ".." component and any leading "/" ("../src/k.c":
 * "src/k.c", "./k.c": "k.c", "/src/k.c": "src/k.c"). */
static const char *name_tail(const char *file)
{
    const char *tail = file, *p = file;
    while (*p) {
        const char *c = p, *e = c;
        while (*e && *e != '/')      /* (strchr's work, inline: no lazy binding) */
            e++;
        size_t n = (size_t)(e - c);
        if (!*e)
            e = NULL;
        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
            tail = e ? e + 1 : c + n;
        p = e ? e + 1 : c + n;
    }
    return *tail ? tail : file;
}

int rt_facts_load_linked(const unsigned char *table, const char *file, int line, int col,
                         const char *hash, rt_facts **out, char *err, size_t errlen)
{
    const unsigned char *nest;
    size_t n;
    *out = NULL;
    if (!table || !hash || !*hash ||
        db_link_find(table, name_tail(file), line, col, hash, &nest, &n) != 0)
        return 1;
    return rt_facts_load_packed(nest, n, out, err, errlen) ? -1 : 0;
}

/* The nest launched at loop `root` of d: the model keelcc stored with it
 * (db_nest_stored: one read, decoded as a linked program's), else -- none
 * stored (a translation unit an older keelcc wrote), an older format,
 * damaged bytes, a model naming another launch loop -- from its rows. */
static int load_stored(db *d, int64_t root, const char *file, int line, rt_facts **out,
                       char *err, size_t errlen)
{
    unsigned char *bytes = NULL;
    size_t n = 0;
    db_nest *src = NULL;
    char e2[160];
    int rc = db_nest_stored(d, root, &bytes, &n, err, errlen);
    if (rc < 0)
        return -1;
    if (rc == 0 && rt_facts_load_packed(bytes, n, out, e2, sizeof e2) == 0 &&
        rt_facts_loop_id(*out) == root) {
        free(bytes);
        return 0;
    }
    rt_facts_free(*out);
    *out = NULL;
    free(bytes);
    if ((rc = db_nest_from_db(d, &src, err, errlen)) == 0)
        rc = load_nest(src, root, file, line, out, err, errlen);
    db_nest_close(src);
    return rc;
}

int rt_facts_parsed(const rt_facts *f) { return f->parsed; }

const nest_model *rt_facts_model(const rt_facts *f) { return &f->model; }

int rt_facts_load_rows(db *d, int64_t root, rt_facts **out, char *err, size_t errlen)
{
    db_nest *src = NULL;
    *out = NULL;
    int rc = db_nest_from_db(d, &src, err, errlen);
    if (rc == 0)
        rc = load_nest(src, root, "", 0, out, err, errlen);
    db_nest_close(src);
    return rc;
}

int rt_facts_load_build(db *d, const char *file, int line, int col, const char *hash,
                        rt_facts **out, char *err, size_t errlen)
{
    found m = { 0 };
    int64_t exact;
    *out = NULL;
    /* a site naming its path as stored: one index lookup */
    int x = db_find_loop_build(d, file, line, col, hash, &exact, err, errlen);
    if (x < 0)
        return -1;
    /* one naming its source as the compiler was given it ("k.c",
     * "../src/k.c", a prefix-mapped path): its build's loop in a stored
     * path that ends so, one name or many alike (the hash is the source's
     * bytes and its flags) */
    const char *tail = name_tail(file);
    if (x == 1 && hash && *hash && (x = db_find_loop_hash(d, tail, line, col, hash, &exact, err,
                                                           errlen)) < 0)
        return -1;
    if (x == 0) {
        m.id = malloc(sizeof *m.id);
        m.file = malloc(sizeof *m.file);
        if (!m.id || !m.file || !(m.file[0] = strdup(file))) {
            free(m.id), free(m.file);
            return ku_fail(err, errlen, "out of memory");
        }
        m.id[0] = exact;
        m.n = 1;
    }
    db_loop_filter flt = { .file = tail, .file_match = DB_FILE_SUFFIX, .line = line, .col = col };
    int r = m.n ? 0 : db_each_loop(d, &flt, found_row, &m, err, errlen);
    int rc = 0;
    if (r > 0)
        rc = ku_fail(err, errlen, "out of memory");
    else if (r < 0)
        rc = -1;
    else if (m.n == 0)
        rc = 1;
    else if (strcmp(m.file[0], m.file[m.n - 1]) != 0)
        rc = ku_fail(err, errlen, "%s:%d is ambiguous: %s and %s", file, line, m.file[0],
                     m.file[m.n - 1]);
    if (rc == 0)
        rc = load_stored(d, m.id[0], file, line, out, err, errlen);
    for (int i = 0; i < m.n; i++)
        free(m.file[i]);
    free(m.file);
    free(m.id);
    return rc;
}

static void plan_free(fl_plan *p);

void rt_facts_free(rt_facts *f)
{
    if (!f)
        return;
    plan_free(f->plan);
    if (!f->model.block) {     /* (else they lie in the block) */
        free(f->ovl);
        free(f->ovb);
        free(f->ova);
    }
    if (!f->head_in_block) {
        free(f->file);
        free(f->hash);
        free(f->function);
        free(f->label);
        for (int k = 0; k < DB_NLOOP_FACTS; k++)
            free(f->fact[k]);
    }
    nest_free(&f->model);
    free(f);
}

/* ---- binding ------------------------------------------------------------- */

/* Binding runs as named phases over one scratch struct (bind_scratch):
 * trip counts, kernels, compute, strides and differences, working sets,
 * then the accesses one by one, the GPU totals and the arrays.  Every
 * value-dependent expression is evaluated once per call (the differences
 * an access's footprints read at every level are kept in dv[], and what a
 * footprint at any loop and granule needs in sp_*[], bind_spans), through
 * the site's plan where it has one (below: affine expressions compiled to
 * terms, the strides and differences that are constants laid out once,
 * the host's llvm-mca figures picked once).  The scratch arrays live in
 * one buffer on the stack, or for a very large nest in a block kept per
 * thread: a call allocates nothing after its thread's first.
 * `reference` evaluates everything where the model reads it, through
 * kx_eval, as binding always did; rt_agree's run of rt_fastpath checks
 * both (and rt_facts_bind_site, keel_decide's path) give the same launch
 * and the same estimates bit for bit. */

/* fmin and fmax as glibc computes them on x86-64 (minsd / maxsd: the
 * second argument when the two compare equal; a NaN argument yields the
 * other), inline: the compiler otherwise calls libm for every one. */
static inline double min_d(double x, double y)
{
    return isnan(y) ? x : x < y ? x : y;
}

static inline double max_d(double x, double y)
{
    return isnan(y) ? x : x > y ? x : y;
}

typedef struct {
    const rt_facts *f;
    int loop;                 /* ivs of this loop and its ancestors are bound */
    const int64_t *ivals;
    int n;
    const char *const *names;
    const long long *values;
} bind_ctx;

static int lookup(void *vctx, const char *name, int64_t *value)
{
    const bind_ctx *c = vctx;
    for (int k = c->loop; k >= 0; k = c->f->loops[k].parent)
        if (c->f->loops[k].iv && !strcmp(c->f->loops[k].iv, name)) {
            *value = c->ivals[k];
            return 1;
        }
    for (int i = 0; i < c->n; i++)
        if (c->names[i] && !strcmp(c->names[i], name)) {
            *value = c->values[i];
            return 1;
        }
    return 0;
}

static int eval_at(bind_ctx *c, int loop, const kx_expr *e, int64_t *v, char *err, size_t errlen)
{
    c->loop = loop;
    return kx_eval(e, lookup, c, v, err, errlen);
}

/* ---- the per-site plan --------------------------------------------------- */

/* A site passes the same symbol array at every call.  At its second bind
 * (the first evaluates by name: many sites bind once, and compiling costs
 * several evaluations) the nest's expressions are compiled for that
 * array: an affine one
 * (every bound, stride and difference of a usual nest) becomes a constant
 * and a short list of (coefficient, slot) terms, a slot being an
 * induction variable's index in ivals[] or the index of a passed value,
 * resolved once as lookup() would resolve the name at that loop.  A call
 * then evaluates it with no name lookup and no allocation.  The result is
 * kx_eval's exactly: the sum is taken in 128 bits and used only when the
 * sum of the terms' magnitudes stays below 2^63, so that kx_eval could
 * not have overflowed in any order; otherwise, and for every expression
 * that is not affine or names a symbol nobody binds, kx_eval runs as
 * before.  The plan also keeps what a call would find out about the
 * nest's accesses from the facts alone (the earlier access to the same
 * element, the arrays that share a loop, each array's accesses), each
 * access's path with what bind_wsets and bind_gpu_bytes find along it,
 * and, where every difference of an access is a constant, the span
 * program that takes the place of the differences' walk (bind_spans_plan),
 * so that a call walks only what its values change. */

typedef struct {
    int64_t coeff;
    int slot;                 /* < nloops: ivals[slot]; else values[slot - nloops] */
} cx_term;

enum { DV_NONE = 0, DV_FAIL, DV_OK };   /* a difference: absent, unevaluable, a value */

typedef struct {
    int affine;               /* 0: evaluate with kx_eval */
    int n;                    /* terms */
    int64_t c0;
    cx_term *t;               /* into the plan's pool */
} cx_expr;

struct fl_plan {
    const char *const *names; /* the site's symbol array, compared at every call */
    int n;
    char **copy;              /* the strings as they were when compiled */
    cx_expr *trip, *lower;    /* per loop */
    cx_expr *stride;          /* per access */
    cx_expr *lin;             /* naccs x nloops */
    cx_expr *diff;            /* per access, ndims x nloops from dv_off[a] */
    int *dv_off;
    cx_term *pool;
    int npool;
    /* the host's llvm-mca figures, for the CPU profile it was compiled
     * with (bind_compute uses them when the call's profile asks for the
     * same -mcpu with the same latencies): the target picked, and each
     * loop's body cycles and recurrence bound */
    char *mca_want;           /* that profile's mca_cpu, copied; NULL: none */
    const char *mca;          /* pick_mca's answer (owned by the facts) */
    int mca_exact, mca_len;
    double *body;             /* per loop: rt_loop_body_cycles */
    double *rec;              /* per loop: what its recurrence bound changed */
    int *body_mca;            /* per loop: its from_mca */
    double lat[RT_NLAT];      /* that profile's latencies (the bound's delays) */
    /* bind_strides' results that no value changes (a stride or difference
     * the plan compiled to a constant, an unknown one), laid out as the
     * scratch arrays lin[], dv[] and dvs[]; the others are listed in var[]
     * and evaluated per call */
    double *lin_t, *dv_t;
    unsigned char *dvs_t;
    struct fl_var { int lin, at, li; const cx_expr *x; const kx_expr *e; } *var;
    int nvar, ndv;
    /* no trip count or lower bound below the first thread loop names its
     * variable (each an affine expression): every work item's chain is
     * the same, so bind_longest_chain has nothing to add */
    int chain_flat;
    /* per access, what no value changes (plan_accs) */
    struct fl_pacc *pa;
    int *path;                /* the accesses' paths (fl_pacc.po) */
    unsigned char *wc_add;    /* per path position: 1 when bind_wsets counts the
                               * access in wset_c there (no earlier access to the
                               * same element inside; with an L1 term) */
    int host_seq;             /* no loop of the nest has an OpenMP loop construct */
    int *acc_li;              /* per access: its statement's loop */
    double *acc_e;            /* per access: its element's bytes (8 when unknown) */
    struct fl_term *term;     /* their span programs (fl_pacc.to) */
    /* bind_arrays' walk: per array (at its first access) whether it is
     * read and written, and its accesses in order (into mem[]) */
    struct fl_parr { int rd, wr, first, n; } *arr;
    int narr, *mem;
};

/* What a call would find out about an access from the facts alone, as
 * the binding finds it: the loop of the first earlier access to the same
 * element (bind_wsets' dup; -1 none), whether its loop holds an access to
 * another array (other_array_in), and whether same_stream has an earlier
 * access to compare strides with (rw 0, rw 1). */
struct fl_pacc {
    int dup, other, cand[2];
    /* the loop bind_gpu_bytes takes its footprint at (its kernel's
     * root, or in a time-stepped region the loop below the step loop) */
    int top;
    /* bind_gpu_access: the loop its loads move out to when it is
     * invariant in its own loop (-1: they never do, whatever the values),
     * and its class and stride when no value changes them (cls -1: the
     * stride is evaluated per call) */
    int clp, cls;
    int64_t stride;
    double trans;             /* with cls: rt_warp_access' transactions */
    /* its path (path[po .. po + np): its statement's loop out to
     * loops[0]) and, when every difference on it is a constant of the
     * plan (flat), bind_spans' dimension walk as a program: the first
     * path position u at which a difference is unknown (np: none), and
     * the non-zero differences before it, term[to .. to + nt), in the
     * walk's order (dimension, then path position) */
    int po, np, flat, u, to, nt;
};

/* One non-zero difference d of dimension j at path position p. */
struct fl_term {
    int j, p;
    double d;
};

static void plan_free(fl_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n; i++)
        free(p->copy[i]);
    free(p->copy);
    free(p->trip), free(p->lower), free(p->stride), free(p->lin), free(p->diff);
    free(p->dv_off);
    free(p->pool);
    free(p->mca_want);
    free(p->body), free(p->rec), free(p->body_mca);
    free(p->lin_t), free(p->dv_t), free(p->dvs_t), free(p->var);
    free(p->pa), free(p->arr), free(p->mem), free(p->path), free(p->term), free(p->wc_add);
    free(p->acc_li), free(p->acc_e);
    free(p);
}

static int zero_lookup(void *ctx, const char *name, int64_t *value)
{
    (void)ctx, (void)name;
    *value = 0;
    return 1;
}

/* The slot lookup() would read for `name` at loop `loop`, or -1. */
static int plan_slot(const rt_facts *f, int loop, int n, const char *const *names,
                     const char *name)
{
    for (int k = loop; k >= 0; k = f->loops[k].parent)
        if (f->loops[k].iv && !strcmp(f->loops[k].iv, name))
            return k;
    for (int i = 0; i < n; i++)
        if (names[i] && !strcmp(names[i], name))
            return f->nloops + i;
    return -1;
}

/* Compile e at loop `loop` into *x (terms appended to the pool when
 * `pool` is non-NULL, else only counted in *used).  -1: out of memory. */
static int plan_expr(const rt_facts *f, int loop, int n, const char *const *names,
                     const kx_expr *e, cx_expr *x, cx_term *pool, int *used)
{
    memset(x, 0, sizeof *x);
    if (!e || !kx_is_affine(e))
        return 0;
    char **syms = NULL;
    int ns = kx_symbols(e, &syms);
    if (ns < 0)
        return -1;
    int64_t c0;
    char e2[64];
    int ok = kx_eval(e, zero_lookup, NULL, &c0, e2, sizeof e2) == 0, at = *used;
    for (int i = 0; i < ns && ok; i++) {
        int slot = plan_slot(f, loop, n, names, syms[i]);
        kx_expr *c = slot >= 0 ? kx_coeff(e, syms[i]) : NULL;
        int64_t cv;
        if (slot < 0 || !c || !kx_is_const(c, &cv))
            ok = 0;
        else if (pool)
            pool[at + i] = (cx_term){ cv, slot };
        kx_free(c);
    }
    kx_free_names(syms, ns);
    if (!ok)
        return 0;
    *used += ns;
    if (pool)
        *x = (cx_expr){ .affine = 1, .n = ns, .c0 = c0, .t = pool + at };
    return 0;
}

/* Every expression a call evaluates, at the loop it is evaluated at (the
 * same walk as bind_trips, bind_strides and bind_gpu_access). */
static int plan_all(const rt_facts *f, fl_plan *p, cx_term *pool, int *used)
{
    int nl = f->nloops, n = p->n;
    const char *const *names = p->names;
    for (int k = 0; k < nl; k++) {
        int par = f->loops[k].parent;
        if (plan_expr(f, par, n, names, f->loops[k].trip, &p->trip[k], pool, used) ||
            plan_expr(f, par, n, names, f->loops[k].lower, &p->lower[k], pool, used))
            return -1;
    }
    for (int a = 0; a < f->naccs; a++) {
        const fl_acc *ac = &f->accs[a];
        int li = f->stmts[ac->stmt].loop;
        if (plan_expr(f, li, n, names, ac->stride, &p->stride[a], pool, used))
            return -1;
        for (int k = li; k >= 0; k = f->loops[k].parent) {
            if (ac->lin && plan_expr(f, li, n, names, ac->lin[k], &p->lin[a * nl + k], pool, used))
                return -1;
            for (int j = 0; j < ac->ndims; j++)
                if (plan_expr(f, li, n, names, ac->diff[j * nl + k],
                              &p->diff[p->dv_off[a] + j * nl + k], pool, used))
                    return -1;
        }
    }
    return 0;
}

static const char *pick_mca(const rt_facts *f, const rt_profile *cpu, int *exact);

/* The constant part of bind_strides (see fl_plan): the same walk, each
 * entry either its value for every call or a var[] to evaluate.  -1: out
 * of memory. */
static int plan_strides(const rt_facts *f, fl_plan *p, int ndv)
{
    int nl = f->nloops, na = f->naccs, nv = 0;
    p->ndv = ndv;
    p->lin_t = calloc((size_t)na * nl + 1, sizeof *p->lin_t);
    p->dv_t = calloc((size_t)ndv + 1, sizeof *p->dv_t);
    p->dvs_t = calloc((size_t)ndv + 1, 1);
    p->var = calloc((size_t)na * nl + (size_t)ndv + 1, sizeof *p->var);
    if (!p->lin_t || !p->dv_t || !p->dvs_t || !p->var)
        return -1;
    for (int a = 0; a < na; a++) {
        const fl_acc *ac = &f->accs[a];
        int li = f->stmts[ac->stmt].loop;
        for (int k = li; k >= 0; k = f->loops[k].parent) {
            const cx_expr *x = &p->lin[a * nl + k];
            if (!f->loops[k].iv)
                continue;
            if (!ac->lin || !ac->lin[k])
                p->lin_t[a * nl + k] = -1;
            else if (x->affine && x->n == 0 && x->c0 != INT64_MIN)
                p->lin_t[a * nl + k] = fabs((double)x->c0);
            else
                p->var[nv++] = (struct fl_var){ 1, a * nl + k, li, x, ac->lin[k] };
        }
        for (int j = 0; j < ac->ndims; j++)
            for (int k = li; k >= 0; k = f->loops[k].parent) {
                int at = p->dv_off[a] + j * nl + k;
                const cx_expr *x = &p->diff[at];
                const kx_expr *d = ac->diff[j * nl + k];
                if (!d)
                    p->dvs_t[at] = DV_NONE;
                else if (x->affine && x->n == 0 && x->c0 != INT64_MIN)
                    p->dvs_t[at] = DV_OK, p->dv_t[at] = fabs((double)x->c0);
                else
                    p->var[nv++] = (struct fl_var){ 0, at, li, x, d };
            }
    }
    p->nvar = nv;
    return 0;
}

/* Whether chain_at gives the same chain whatever value the first thread
 * loop's variable takes: the loops it walks (those below that loop) have
 * trip counts and lower bounds compiled to terms none of which reads the
 * variable's slot, so their trips, their variables and the chain come out
 * of the same operations on the same numbers for every value. */
static int plan_chain_flat(const rt_facts *f, const fl_plan *p)
{
    int nl = f->nloops, tl = -1;
    for (int k = 0; k < nl && tl < 0; k++)
        if (f->loops[k].thread)
            tl = k;
    if (tl < 0)
        return 0;
    for (int k = tl + 1; k < nl && f->loops[k].parent >= tl; k++) {
        const cx_expr *x[2] = { f->loops[k].trip ? &p->trip[k] : NULL,
                                f->loops[k].lower ? &p->lower[k] : NULL };
        for (int w = 0; w < 2; w++) {
            if (!x[w])
                continue;
            if (!x[w]->affine)
                return 0;
            for (int i = 0; i < x[w]->n; i++)
                if (x[w]->t[i].slot == tl)
                    return 0;
        }
    }
    return 1;
}

static int other_array_in(const rt_facts *f, int a, int li);

/* Each access's path, statement loop, element size, what bind_gpu_access
 * and bind_gpu_bytes find from the facts, and its span program (fl_pacc).
 * -1: out of memory. */
static int plan_paths(const rt_facts *f, fl_plan *p)
{
    int na = f->naccs;
    /* the paths and span programs: each access's path has at most nl
     * loops, its program at most ndims x nl terms */
    int nl = f->nloops, npath = 0, nterm = 0;
    for (int a = 0; a < na; a++)
        npath += nl, nterm += f->accs[a].ndims * nl;
    if (!(p->acc_li = calloc((size_t)na + 1, sizeof *p->acc_li)) ||
        !(p->acc_e = calloc((size_t)na + 1, sizeof *p->acc_e)))
        return -1;
    for (int a = 0; a < na; a++) {
        p->acc_li[a] = f->stmts[f->accs[a].stmt].loop;
        p->acc_e[a] = f->accs[a].elem > 0 ? f->accs[a].elem : 8;
    }
    if (!(p->path = calloc((size_t)npath + 1, sizeof *p->path)) ||
        !(p->wc_add = calloc((size_t)npath + 1, 1)) ||
        !(p->term = calloc((size_t)nterm + 1, sizeof *p->term)))
        return -1;
    npath = nterm = 0;
    for (int a = 0; a < na; a++) {
        const fl_acc *ac = &f->accs[a];
        struct fl_pacc *x = &p->pa[a];
        x->po = npath;
        for (int k = f->stmts[ac->stmt].loop; k >= 0; k = f->loops[k].parent)
            p->path[npath++] = k;
        x->np = npath - x->po;
        {                     /* bind_gpu_access' facts-only tests, in its order */
            int li = p->acc_li[a];
            const fl_loop *l = &f->loops[li];
            x->clp = li > 0 && !l->thread && !l->kroot && !(ac->is_write && x->other)
                         ? l->parent : -1;
            const cx_expr *c = &p->stride[a];
            x->cls = -1, x->stride = 0;
            if (ac->no_thread)
                x->cls = RT_UNIFORM;
            else if (!ac->stride)
                x->cls = RT_IRREGULAR;
            else if (c->affine && c->n == 0 && c->c0 != INT64_MIN) {
                int64_t k = c->c0;
                x->stride = k;
                x->cls = k == 0 ? RT_UNIFORM : (k == 1 || k == -1) ? RT_COALESCED : RT_STRIDED;
            }
            if (x->cls >= 0) {
                rt_access r = { .cls = (rt_stride_class)x->cls, .stride = x->stride,
                                .elem_size = (int)p->acc_e[a] };
                double b;
                rt_warp_access(&r, &x->trans, &b);
            }
        }
        {                     /* bind_trips' kr[] of li, then bind_gpu_bytes' climb */
            int li = p->acc_li[a], kr = 0;
            if (f->region) {
                int k = li;
                while (k >= 0 && !f->loops[k].kroot)
                    k = f->loops[k].parent;
                kr = k;
            }
            int top = kr >= 0 ? kr : 0;
            while (f->region && top > 0 && f->loops[top].parent > 0)
                top = f->loops[top].parent;
            x->top = top;
        }
        /* bind_wsets' walk of the earlier access's loop out to each q */
        for (int q = 0, dup = x->dup; q < x->np; q++) {
            int k = p->path[x->po + q];
            while (dup >= 0 && dup != k && dup > k)
                dup = f->loops[dup].parent;
            p->wc_add[x->po + q] = dup != k;
        }
        /* flat: every difference on the path a constant of the plan (the
         * states bind_strides gives it at every call) */
        x->flat = 1, x->u = x->np;
        for (int j = 0; j < ac->ndims && x->flat; j++)
            for (int q = 0; q < x->np; q++) {
                int k = p->path[x->po + q], at = p->dv_off[a] + j * nl + k;
                const cx_expr *c = &p->diff[at];
                if (!ac->diff[j * nl + k]) {
                    if (f->loops[k].iv && q < x->u)      /* DV_NONE along a loop: unknown */
                        x->u = q;
                } else if (!(c->affine && c->n == 0 && c->c0 != INT64_MIN))
                    x->flat = 0;                          /* a value changes it */
            }
        x->to = nterm;
        for (int j = 0; j < ac->ndims && x->flat; j++)
            for (int q = 0; q < x->u; q++) {
                int k = p->path[x->po + q], at = p->dv_off[a] + j * nl + k;
                double d = ac->diff[j * nl + k] ? fabs((double)p->diff[at].c0) : 0;
                if (d != 0)       /* span += 0 x (trip - 1) leaves span as it is */
                    p->term[nterm++] = (struct fl_term){ j, q, d };
            }
        x->nt = nterm - x->to;
    }
    return 0;
}

/* The per-access constants (fl_pacc).  -1: out of memory. */
static int plan_accs(const rt_facts *f, fl_plan *p)
{
    int na = f->naccs;
    if (!(p->pa = calloc((size_t)na + 1, sizeof *p->pa)))
        return -1;
    for (int a = 0; a < na; a++) {
        const fl_acc *ac = &f->accs[a];
        struct fl_pacc *x = &p->pa[a];
        int li = f->stmts[ac->stmt].loop;
        x->dup = -1;
        for (int b = 0; b < a && x->dup < 0; b++)
            if (f->accs[b].arr == ac->arr && nest_same_subscripts(&f->accs[b], ac))
                x->dup = f->stmts[f->accs[b].stmt].loop;
        x->other = other_array_in(f, a, li);
        for (int b = 0; b < a; b++) {
            const fl_acc *o = &f->accs[b];
            if (f->stmts[o->stmt].loop != li || o->arr != ac->arr)
                continue;
            x->cand[0] = 1;
            if (o->is_write == ac->is_write)
                x->cand[1] = 1;
        }
    }
    if (plan_paths(f, p))
        return -1;
    /* the arrays as bind_arrays walks them */
    if (!(p->arr = calloc((size_t)na + 1, sizeof *p->arr)) ||
        !(p->mem = calloc((size_t)na + 1, sizeof *p->mem)))
        return -1;
    int nm = 0;
    for (int a = 0; a < na; a++) {
        if (f->accs[a].arr != a)
            continue;
        struct fl_parr *r = &p->arr[p->narr++];
        r->first = nm;
        for (int q = a; q < na; q++) {
            if (f->accs[q].arr != a)
                continue;
            p->mem[nm++] = q, r->n++;
            if (f->accs[q].is_write)
                r->wr = 1;
            else
                r->rd = 1;
        }
    }
    return 0;
}

static fl_plan *plan_build(const rt_facts *f, int n, const char *const *names,
                           const rt_profile *cpu)
{
    int nl = f->nloops, na = f->naccs, ndv = 0;
    fl_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->names = names, p->n = n;
    p->copy = calloc((size_t)n + 1, sizeof *p->copy);
    p->dv_off = calloc((size_t)na + 1, sizeof *p->dv_off);
    for (int a = 0; a < na && p->dv_off; a++)
        p->dv_off[a] = ndv, ndv += f->accs[a].ndims * nl;
    p->trip = calloc((size_t)nl + 1, sizeof *p->trip);
    p->lower = calloc((size_t)nl + 1, sizeof *p->lower);
    p->stride = calloc((size_t)na + 1, sizeof *p->stride);
    p->lin = calloc((size_t)na * nl + 1, sizeof *p->lin);
    p->diff = calloc((size_t)ndv + 1, sizeof *p->diff);
    p->body = calloc((size_t)nl + 1, sizeof *p->body);
    p->rec = calloc((size_t)nl + 1, sizeof *p->rec);
    p->body_mca = calloc((size_t)nl + 1, sizeof *p->body_mca);
    memcpy(p->lat, cpu->lat, sizeof p->lat);
    int bad = !p->copy || !p->dv_off || !p->trip || !p->lower || !p->stride || !p->lin ||
              !p->diff || !p->body || !p->rec || !p->body_mca ||
              (cpu->mca_cpu && !(p->mca_want = dup(cpu->mca_cpu)));
    if (!bad) {               /* as bind_compute would for this profile */
        double sw[f->nstmts > 0 ? f->nstmts : 1];
        for (int i = 0; i < f->nstmts; i++)
            sw[i] = f->stmts[i].conditional ? 0.5 : 1.0;
        p->mca = pick_mca(f, cpu, &p->mca_exact);
        p->mca_len = p->mca ? (int)strlen(p->mca) : 0;
        for (int k = 0; k < nl; k++)
            p->body[k] = rt_loop_body_cycles(f, k, sw, k != 0, p->mca, &p->body_mca[k], cpu,
                                             &p->rec[k]);
    }
    for (int i = 0; i < n && !bad; i++)
        bad = names[i] && !(p->copy[i] = dup(names[i]));
    int used = 0;
    if (!bad && !plan_all(f, p, NULL, &used)) {        /* count, then fill */
        p->npool = used, used = 0;
        bad = !(p->pool = calloc((size_t)p->npool + 1, sizeof *p->pool)) ||
              plan_all(f, p, p->pool, &used);
    } else
        bad = 1;
    if (!bad)
        bad = plan_strides(f, p, ndv);
    if (!bad)
        p->chain_flat = plan_chain_flat(f, p);
    if (!bad)
        bad = plan_accs(f, p);
    p->host_seq = 1;
    for (int k = 0; k < nl; k++)
        if (f->loops[k].gpu_map)
            p->host_seq = 0;
    if (bad) {
        plan_free(p);
        return NULL;
    }
    return p;
}

/* The plan for this call's symbol array: the published one when it was
 * compiled for the same array holding the same names, else NULL (plain
 * evaluation).  With `fixed` the caller passes the same array holding the
 * same names at every call (a keel_site's symbols): the array is then
 * compared by address only.  The first call publishes one; a thread that
 * loses the race frees its own. */
static const fl_plan *plan_for(const rt_facts *f, int n, const char *const *names,
                               const rt_profile *cpu, int fixed)
{
    fl_plan *p = __atomic_load_n(&((rt_facts *)f)->plan, __ATOMIC_ACQUIRE);
    if (!p) {
        /* a site's first bind evaluates by name: compiling the plan costs
         * more than one evaluation saves, and many sites bind once */
        if (__atomic_fetch_add(&((rt_facts *)f)->binds, 1, __ATOMIC_RELAXED) == 0)
            return NULL;
        fl_plan *mine = plan_build(f, n, names, cpu), *none = NULL;
        if (!mine)
            return NULL;
        if (!__atomic_compare_exchange_n(&((rt_facts *)f)->plan, &none, mine, 0,
                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            plan_free(mine);
            p = none;
        } else
            p = mine;
    }
    if (p->names != names || p->n != n)
        return NULL;
    if (fixed)
        return p;
    for (int i = 0; i < n; i++)
        if (!names[i] != !p->copy[i] || (names[i] && strcmp(names[i], p->copy[i])))
            return NULL;
    return p;
}

/* x's value with the ivals and values of this call, else kx_eval of e.
 * The affine sum is used only when the sum of its terms' magnitudes stays
 * below 2^63 (then no order of kx_eval's additions could overflow, and
 * the sum taken modulo 2^64 is the exact one); a product or a magnitude
 * that overflows falls back to kx_eval, as the same test in 128 bits did. */
static inline int cx_eval(const cx_expr *x, bind_ctx *c, int loop, const kx_expr *e, int64_t *v,
                          char *err, size_t errlen)
{
    if (x && x->affine) {
        if (x->n == 0 && x->c0 != INT64_MIN) {   /* a constant: most differences */
            *v = x->c0;
            return 0;
        }
        uint64_t sum = (uint64_t)x->c0;
        uint64_t mag = x->c0 < 0 ? -(uint64_t)x->c0 : (uint64_t)x->c0;
        int nl = c->f->nloops, ok = 1;
        for (int i = 0; i < x->n && ok; i++) {
            int s = x->t[i].slot;
            int64_t p;
            if (__builtin_mul_overflow(x->t[i].coeff,
                                       s < nl ? (int64_t)c->ivals[s] : (int64_t)c->values[s - nl],
                                       &p))
                ok = 0;
            else {
                uint64_t m = p < 0 ? -(uint64_t)p : (uint64_t)p;
                ok = !__builtin_add_overflow(mag, m, &mag);
                sum += (uint64_t)p;
            }
        }
        if (ok && mag <= (uint64_t)INT64_MAX) {
            *v = (int64_t)sum;
            return 0;
        }
    }
    return eval_at(c, loop, e, v, err, errlen);
}


static const char *pick_mca(const rt_facts *f, const rt_profile *cpu, int *exact);

typedef struct {
    const rt_facts *f;
    const rt_profile *cpu, *gpu;
    rt_launch *out;
    bind_ctx c;
    const fl_plan *plan;      /* NULL: every expression through kx_eval */
    int reference;            /* 1: evaluate differences where they are read, no plan */
    int nl, na;
    /* per loop */
    int64_t *ivals;
    double *trip, *cpu_it, *gpu_it, *kitems, *launches, *wset, *wset_pg, *round_lat;
    double *wset_c;           /* wset with each element counted once (the cache levels) */
    double *scl;              /* scale_of(k), set by bind_kernels */
    int *kr, *has_mem;
    /* per access (x loop) */
    double *lin;              /* na x nl linearised strides, elements; -1 irregular */
    double *arr_bytes;
    const int *acc_li;        /* per access: its statement's loop (the plan's, or
                               * filled per call) */
    const double *acc_e;      /* per access: its element's bytes, 8 when unknown */
    double *kwarps;           /* per kernel root: ceil(its items / 32), its warps */
    double *fps;              /* per access: its footprint at the sector at fl_pacc.top
                               * (bind_spans_plan; with a plan only) */
    const int *dv0;           /* offset of access a's differences in dv[] / dvs[]
                               * (the plan's dv_off, the same walk, when it has one) */
    double *dv;               /* ndims x nl per access: |difference| when dvs is DV_OK */
    unsigned char *dvs;
    /* na x nl, at (a, q) for q on access a's path (from its statement's
     * loop out to q): what every footprint of a over those loops needs,
     * computed once per call (bind_spans; not in the reference mode).
     * With a plan (bind_spans_plan) only sp_elems, sp_fpl and sp_fpp
     * are kept, and fps[]: nothing then reads the others (sp_on stays
     * 0, and footprint_at would walk the differences itself) */
    double *sp_elems;         /* span_elems(a, q), -1 unknown */
    double *sp_minlin;        /* the smallest non-zero linearised stride (INFINITY: none) */
    double *sp_execs;         /* executions: the product of the trips */
    double *sp_moving;        /* the product of the trips of the loops that move it */
    double *sp_fpl, *sp_fpp;  /* footprint_bytes(a, q) at the line and (with tlb) the page */
    unsigned char *sp_on;     /* 1: q is on a's path (the five above are set) */
    /* per statement */
    double *sw;               /* execution weight: 0.5 when conditional */
    /* nest-wide */
    double items_max, par_max, kernels;
    const char *mca;
    int t;                    /* host threads */
    double line, cap, page, reach, sector, gpu_sum, gpu_minfp;
    double cap1, cap2;        /* the L1 and the L2 a thread has (0: no cache-level term) */
    int tlb;
} bind_scratch;

/* Per-item counts of kernel root kr[k] scaled to the widest kernel's items
 * and by its launches per step (one equivalent kernel of items_max). */
static double scale_of(const bind_scratch *s, int k)
{
    return s->kr[k] >= 0 && s->items_max > 0
               ? s->kitems[s->kr[k]] * s->launches[s->kr[k]] / s->items_max : 0;
}

/* scale_of, kept per loop once the kernels are bound (bind_kernels). */
static inline double scale(const bind_scratch *s, int k)
{
    return s->scl[k];
}

#define SCRATCH_STACK 8192

/* The scratch block of a nest too large for the stack buffer: one per
 * thread, grown when a larger nest comes and kept for the thread's next
 * calls (freed when the thread exits), so that a call allocates nothing
 * once its thread has bound a nest as large.  NULL when out of memory. */
static _Thread_local void *tl_block;
static _Thread_local size_t tl_size;
static pthread_key_t tl_key;
static pthread_once_t tl_once = PTHREAD_ONCE_INIT;
static int tl_keyed;

static void tl_init(void)
{
    tl_keyed = pthread_key_create(&tl_key, free) == 0;
}

static void *big_scratch(size_t bytes)
{
    if (bytes <= tl_size)
        return tl_block;
    void *p = malloc(bytes);
    if (!p)
        return NULL;
    pthread_once(&tl_once, tl_init);
    free(tl_block);
    tl_block = p, tl_size = bytes;
    if (tl_keyed)
        pthread_setspecific(tl_key, p);    /* freed at the thread's exit */
    return p;
}

/* Carve every array out of buf (SCRATCH_STACK bytes) or one heap block,
 * zero-filled.  -1 when out of memory. */
static int scratch_init(bind_scratch *s, double *buf)
{
    const rt_facts *f = s->f;
    int nl = s->nl, na = s->na, ndv = 0;
    if (s->plan)              /* (the plan's dv_off is the same walk) */
        ndv = s->plan->ndv;
    else
        for (int a = 0; a < na; a++)
            ndv += f->accs[a].ndims * nl;
    size_t nfp = 6 * (size_t)na * (size_t)nl + 1;
    size_t nd = (size_t)nl * 12 + (size_t)na * (size_t)nl + 1 + 3 * ((size_t)na + 1) +
                (size_t)f->nstmts + 1 + (size_t)ndv + 1 + nfp;
    size_t ni = (size_t)nl * 2 + (size_t)na + 1 + (size_t)na + 1;
    size_t bytes = nd * sizeof(double) + ni * sizeof(int) + (size_t)ndv + 1 + nfp;
    char *p = (char *)buf;
    if (bytes > SCRATCH_STACK && !(p = big_scratch(bytes)))
        return -1;
    memset(p, 0, bytes);
    double *d = (double *)p;
    s->ivals = (int64_t *)d, d += nl;      /* int64_t and double share size and alignment */
    s->trip = d, d += nl;
    s->cpu_it = d, d += nl;
    s->gpu_it = d, d += nl;
    s->kitems = d, d += nl;
    s->launches = d, d += nl;
    s->wset = d, d += nl;
    s->wset_pg = d, d += nl;
    s->round_lat = d, d += nl;
    s->scl = d, d += nl;
    s->wset_c = d, d += nl;
    s->kwarps = d, d += nl;                /* (the twelfth of the nl x 12 above) */
    double *acc_e = d;
    d += na + 1;
    s->fps = d, d += na + 1;
    s->lin = d, d += (size_t)na * nl + 1;
    s->arr_bytes = d, d += na + 1;
    s->sw = d, d += f->nstmts + 1;
    s->dv = d, d += ndv + 1;
    s->sp_elems = d, d += (size_t)na * nl;
    s->sp_minlin = d, d += (size_t)na * nl;
    s->sp_execs = d, d += (size_t)na * nl;
    s->sp_moving = d, d += (size_t)na * nl;
    s->sp_fpl = d, d += (size_t)na * nl;
    s->sp_fpp = d, d += (size_t)na * nl + 1;
    int *ip = (int *)d;
    s->kr = ip, ip += nl;
    s->has_mem = ip, ip += nl;
    int *dv0 = ip, *acc_li = ip + na + 1;
    ip += 2 * ((size_t)na + 1);
    s->dvs = (unsigned char *)ip;
    s->sp_on = s->dvs + ndv + 1;
    if (s->plan)
        s->dv0 = s->plan->dv_off, s->acc_li = s->plan->acc_li, s->acc_e = s->plan->acc_e;
    else {
        for (int a = 0; a < na; a++) {
            acc_li[a] = f->stmts[f->accs[a].stmt].loop;
            acc_e[a] = f->accs[a].elem > 0 ? f->accs[a].elem : 8;
        }
        s->acc_li = acc_li, s->acc_e = acc_e;
        for (int a = 0, o = 0; a < na; a++) {
            dv0[a] = o;
            o += f->accs[a].ndims * nl;
        }
        s->dv0 = dv0;
    }
    return 0;
}

/* The range of symbol `name` at loop rc->loop for kx_eval_range: a loop
 * variable (of that loop or one around it) takes values from its lower
 * bound to its last value, each bounded over the ranges of the loops
 * around it in turn; any other symbol is its bound value. */
typedef struct {
    bind_ctx *c;
    int loop;
    int depth;
} range_ctx;

static int range_lookup(void *vctx, const char *name, int64_t *lo, int64_t *hi)
{
    range_ctx *rc = vctx;
    const rt_facts *f = rc->c->f;
    for (int k = rc->loop; k >= 0; k = f->loops[k].parent) {
        const fl_loop *l = &f->loops[k];
        if (!l->iv || strcmp(l->iv, name))
            continue;
        if (!l->lower || !l->last || rc->depth > 64)
            return 0;
        range_ctx up = { rc->c, l->parent, rc->depth + 1 };
        int64_t a0, a1, b0, b1;
        char e2[8];
        if (kx_eval_range(l->lower, range_lookup, &up, &a0, &a1, e2, sizeof e2)
            || kx_eval_range(l->last, range_lookup, &up, &b0, &b1, e2, sizeof e2))
            return 0;
        *lo = a0 < b0 ? a0 : b0;
        *hi = a1 > b1 ? a1 : b1;
        return 1;
    }
    int64_t v;
    bind_ctx *c = rc->c;
    c->loop = -1;          /* a passed value, not an iv */
    if (!lookup(c, name, &v))
        return 0;
    *lo = *hi = v;
    return 1;
}

/* Trip counts (parents first), ivs at the middle of their range, and
 * iterations of each loop per launch-loop iteration (CPU) and per work
 * item (GPU: the thread loop's own iterations are the items; in a
 * time-stepped region each kernel root's iterations are its items). */
static int bind_trips(bind_scratch *s, char *err, size_t errlen)
{
    const rt_facts *f = s->f;
    for (int k = 0; k < s->nl; k++) {
        const fl_loop *l = &f->loops[k];
        int p = l->parent;
        int64_t t = UNKNOWN_TRIP, lo = 0;
        const fl_plan *P = s->plan;
        if (l->bounded) {
            /* the largest trip count over the enclosing loops' ranges: an
             * upper bound of every iteration's count (interval arithmetic,
             * kx_eval_range), so the nest's work is at most what is modelled */
            range_ctx rc = { &s->c, p, 0 };
            int64_t tlo;
            if (kx_eval_range(l->trip, range_lookup, &rc, &tlo, &t, err, errlen))
                return -1;
            s->out->trip_bounds++;
        } else if (l->trip && cx_eval(P ? &P->trip[k] : NULL, &s->c, p, l->trip, &t, err, errlen))
            return -1;
        if (l->lower && cx_eval(P ? &P->lower[k] : NULL, &s->c, p, l->lower, &lo, err, errlen))
            return -1;
        if (t < 0)
            t = 0;
        s->trip[k] = (double)t;
        s->ivals[k] = lo + (l->step ? l->step : 1) * (t > 0 ? (t - 1) / 2 : 0);
        s->cpu_it[k] = k == 0 ? 1 : s->cpu_it[p] * s->trip[k];
        s->gpu_it[k] = k == 0 || l->kroot ? 1 : s->gpu_it[p] * (l->spread ? 1 : s->trip[k]);
        s->kr[k] = !f->region ? 0 : l->kroot ? k : p >= 0 ? s->kr[p] : -1;
    }
    return 0;
}

/* Work items of each kernel: its root's iterations times its widest
 * thread loop (a plain nest is one kernel rooted at loops[0]). */
static void bind_kernels(bind_scratch *s)
{
    const rt_facts *f = s->f;
    int nl = s->nl;
    for (int r = 0; r < nl; r++) {
        if (!(f->region ? f->loops[r].kroot : r == 0))
            continue;
        /* launches of kernel r per step: a sequential loop between the
         * step loop and the kernel's root (the y of a z-y-x sweep whose x
         * is the parallel one) launches it once per iteration: its count
         * is the product of their trips, each launch a kernel of the
         * root's items (the loops outside a kernel are host code, chikin
         * IV.B: one target region per execution of the construct) */
        s->launches[r] = 1;
        for (int q = f->loops[r].parent; q > 0; q = f->loops[q].parent)
            s->launches[r] *= s->trip[q];
        /* a collapsed space (collapse(3): the loops between the root and
         * the thread loop spread too) has the product of their trips */
        double items = s->trip[r], inner = 0;
        for (int k = r + 1; k < nl; k++) {
            if (!f->loops[k].thread || s->kr[k] != r)
                continue;
            double prod = s->trip[k];
            for (int q = f->loops[k].parent; q > r; q = f->loops[q].parent)
                if (f->loops[q].spread)
                    prod *= s->trip[q];
            if (prod > inner)
                inner = prod;
        }
        if (inner > 0 && !f->loops[r].thread)
            items *= inner;
        s->kitems[r] = items;
        s->kwarps[r] = ceil(items / 32);     /* (bind_gpu_bytes' warps) */
        s->kernels += s->launches[r];
        if (items > s->items_max) s->items_max = items;
        if (s->trip[r] > s->par_max) s->par_max = s->trip[r];
    }
    for (int k = 0; k < nl; k++)
        s->scl[k] = scale_of(s, k);
}

/* Whether the site's plan holds the loops' body cycles for this call's
 * CPU profile: compiled for the same -mcpu and the same latencies (the
 * recurrence bound's). */
static int plan_cycles_valid(const bind_scratch *s)
{
    const fl_plan *P = s->plan;
    const char *want = s->cpu->mca_cpu;
    return P && P->body && (want ? P->mca_want && !strcmp(want, P->mca_want) : !P->mca_want) &&
           !memcmp(P->lat, s->cpu->lat, sizeof P->lat);
}

/* Statements: executions per parallel iteration (CPU) and per work item;
 * the launch's compute terms.  Per-item counts are scaled (scale()) so that
 * a step's kernels are one equivalent kernel of items_max items (their
 * latency rounds add up: a launch starts when the previous one ends). */
static void bind_compute(bind_scratch *s)
{
    const rt_facts *f = s->f;
    rt_launch *out = s->out;
    int nl = s->nl, exact = 0;
    const fl_plan *P = s->plan;
    int cached = plan_cycles_valid(s);
    if (cached)
        s->mca = P->mca, exact = P->mca_exact;
    else
        s->mca = pick_mca(f, s->cpu, &exact);
    if (s->mca) {     /* as snprintf "%s" would, without formatting */
        size_t len = cached ? (size_t)P->mca_len : strlen(s->mca);
        if (len > sizeof out->mca_target - 1)
            len = sizeof out->mca_target - 1;
        memcpy(out->mca_target, s->mca, len);
        out->mca_target[len] = '\0';
        out->mca_exact = exact;
    }
    double cycles = 0, flops = 0, insts = 0, recur = 0;
    for (int i = 0; i < f->nstmts; i++)
        s->sw[i] = f->stmts[i].conditional ? 0.5 : 1.0;
    /* the parallel loop's control is in its cycles when llvm-mca timed it
     * as a whole block (a nest's loop with no inner loop); a region's
     * kernel roots are inner loops of the step loop, whose cycles carry
     * their control either way (llvm-mca's block, or the 1 cycle added to
     * their statements' estimates) */
    int ctl = f->region;
    for (int k = 0; k < nl; k++) {
        int mca = 0;
        double rec = 0;
        double body = cached ? (mca = P->body_mca[k], rec = P->rec[k], P->body[k])
                             : rt_loop_body_cycles(f, k, s->sw, k != 0, s->mca, &mca, s->cpu,
                                                   &rec);
        cycles += s->cpu_it[k] * body;
        recur += s->cpu_it[k] * rec;
        if (k == 0 && !f->region)
            ctl = mca;
        if (k != 0 && !f->loops[k].thread && !f->loops[k].kroot)
            insts += 2 * s->gpu_it[k] * scale(s, k);    /* GPU loop overhead: add + branch */
    }
    for (int i = 0; i < f->nstmts; i++) {
        const fl_stmt *st = &f->stmts[i];
        flops += s->cpu_it[st->loop] * s->sw[i] * st->flops;
        insts += s->gpu_it[st->loop] * s->sw[i] * st->gpu_insts * scale(s, st->loop);
    }
    out->steps = f->region ? s->trip[0] : 1;
    out->kernels = s->kernels > 0 ? s->kernels : 1;
    out->par_iters = f->region ? s->par_max : s->trip[0];
    out->cycles_per_iter = f->region ? (s->par_max > 0 ? cycles / s->par_max : 0) : cycles;
    out->recur_cycles = f->region ? (s->par_max > 0 ? recur / s->par_max : 0) : recur;
    out->loop_ctl_in_cycles = ctl;
    out->work_items = s->items_max;
    out->comp_insts = insts;
    out->flops = flops * s->trip[0];
    out->not_parallel = !f->region && !f->loops[0].parallel;
    out->host_sequential = 1;
    if (P)
        out->host_sequential = P->host_seq;
    else
        for (int k = 0; k < nl; k++)
            if (f->loops[k].gpu_map)   /* an OpenMP loop construct: the host runs it in parallel */
                out->host_sequential = 0;
    /* the kernels are `target` regions: the launch loop's (or each kernel
     * root's) own OpenMP pragma names the construct */
    out->omp_target = f->omp_target;    /* keelcc's launches.omp_target */
    out->target_host_code = f->target_host_code;
}

static void bind_spans(bind_scratch *s, int a);

/* Linearised strides along every loop of each access's path, elements
 * (-1: irregular, i.e. unknown), and the differences of its subscripts
 * along the same loops (evaluated once here; the footprints read them at
 * every level). */
static void bind_strides(bind_scratch *s)
{
    const rt_facts *f = s->f;
    int nl = s->nl;
    const fl_plan *P = s->plan;
    if (P && P->lin_t) {      /* the plan's constants, then what the values change */
        memcpy(s->lin, P->lin_t, sizeof *s->lin * (size_t)s->na * (size_t)nl);
        memcpy(s->dv, P->dv_t, sizeof *s->dv * (size_t)P->ndv);
        memcpy(s->dvs, P->dvs_t, (size_t)P->ndv);
        for (int i = 0; i < P->nvar; i++) {
            const struct fl_var *x = &P->var[i];
            int64_t v;
            char e2[64];
            int bad = cx_eval(x->x, &s->c, x->li, x->e, &v, e2, sizeof e2);
            if (x->lin)
                s->lin[x->at] = bad ? -1 : fabs((double)v);
            else if (bad)
                s->dvs[x->at] = DV_FAIL;
            else
                s->dvs[x->at] = DV_OK, s->dv[x->at] = fabs((double)v);
        }
        for (int a = 0; a < s->na; a++)
            bind_spans(s, a);
        return;
    }
    for (int a = 0; a < s->na; a++) {
        const fl_acc *ac = &f->accs[a];
        int li = f->stmts[ac->stmt].loop;
        for (int k = li; k >= 0; k = f->loops[k].parent) {
            int64_t v;
            char e2[64];
            if (!f->loops[k].iv)
                continue;
            if (!ac->lin || !ac->lin[k] ||
                cx_eval(s->plan ? &s->plan->lin[a * nl + k] : NULL, &s->c, li, ac->lin[k], &v, e2,
                        sizeof e2))
                s->lin[a * nl + k] = -1;
            else
                s->lin[a * nl + k] = fabs((double)v);
        }
        if (s->reference)
            continue;
        for (int j = 0; j < ac->ndims; j++)
            for (int k = li; k >= 0; k = f->loops[k].parent) {
                const kx_expr *d = ac->diff[j * nl + k];
                int at = s->dv0[a] + j * nl + k;
                int64_t dv;
                char e2[64];
                if (!d)
                    s->dvs[at] = DV_NONE;
                else if (cx_eval(s->plan ? &s->plan->diff[at] : NULL, &s->c, li, d, &dv, e2,
                                 sizeof e2))
                    s->dvs[at] = DV_FAIL;
                else
                    s->dvs[at] = DV_OK, s->dv[at] = fabs((double)dv);
            }
        bind_spans(s, a);
    }
}

/* Elements access a touches over loops li (its statement's loop) up to q
 * (inclusive) of its path, with q's ancestors fixed: the product over its
 * dimensions of 1 + sum_k |d_k| (trip_k - 1).  -1 when a difference is
 * unknown. */
static double span_elems(bind_scratch *s, int a, int q)
{
    const rt_facts *f = s->f;
    const fl_acc *ac = &f->accs[a];
    const double *trip = s->trip;
    int li = f->stmts[ac->stmt].loop, nl = s->nl;
    double elems = 1;
    for (int j = 0; j < ac->ndims; j++) {
        double span = 1;
        for (int k = li; k >= 0; k = f->loops[k].parent) {
            int state, at = s->dv0[a] + j * nl + k;
            double d = 0;
            if (s->reference) {
                const kx_expr *e = ac->diff[j * nl + k];
                int64_t dv;
                char e2[64];
                state = !e ? DV_NONE : eval_at(&s->c, li, e, &dv, e2, sizeof e2) ? DV_FAIL : DV_OK;
                if (state == DV_OK)
                    d = fabs((double)dv);
            } else {
                state = s->dvs[at];
                d = s->dv[at];
            }
            if (state == DV_NONE) {
                if (f->loops[k].iv)
                    return -1;
            } else if (state == DV_FAIL)
                return -1;
            else
                span += d * (trip[k] > 0 ? trip[k] - 1 : 0);
            if (k == q)
                break;
        }
        elems *= span;
    }
    return elems;
}

/* span_elems, the smallest stride and the executions of access a at every
 * loop q of its path at once: each is a running sum, minimum or product
 * going out from the statement's loop, so the value at q is the one
 * span_elems and footprint_bytes reach when they stop at q -- the same
 * operations in the same order, hence the same bits -- for the cost of one
 * walk instead of one per (q, granule). */
static void bind_spans_plan(bind_scratch *s, int a);

static void bind_spans(bind_scratch *s, int a)
{
    if (s->plan) {
        bind_spans_plan(s, a);
        return;
    }
    const rt_facts *f = s->f;
    const fl_loop *loops = f->loops;
    const fl_acc *ac = &f->accs[a];
    const double *trip = s->trip, *lin = s->lin + (size_t)a * (size_t)s->nl;
    const double *dv = s->dv + s->dv0[a];
    const unsigned char *dvs = s->dvs + s->dv0[a];
    int li = f->stmts[ac->stmt].loop, nl = s->nl, nd = ac->ndims;
    double *el = s->sp_elems + (size_t)a * (size_t)nl, *ml = s->sp_minlin + (size_t)a * (size_t)nl;
    double *ex = s->sp_execs + (size_t)a * (size_t)nl, *mv = s->sp_moving + (size_t)a * (size_t)nl;
    unsigned char *on = s->sp_on + (size_t)a * (size_t)nl;
    double minlin = INFINITY, execs = 1, moving = 1;
    for (int k = li; k >= 0; k = loops[k].parent) {
        double v = lin[k];
        if (v != 0)
            minlin = min_d(minlin, v < 0 ? INFINITY : v);
        if (v < 0)
            minlin = INFINITY;
        execs *= trip[k] > 0 ? trip[k] : 0;
        if (v != 0)
            moving *= trip[k] > 0 ? trip[k] : 0;
        el[k] = 1, ml[k] = minlin, ex[k] = execs, mv[k] = moving, on[k] = 1;
    }
    /* dimension by dimension, each span a running sum out from li; the
     * product over the dimensions in their order (a span is at least 1,
     * so -1 marks "unknown from this loop out") */
    for (int j = 0; j < nd; j++) {
        double span = 1;
        const double *d = dv + j * nl;
        const unsigned char *st = dvs + j * nl;
        for (int k = li; k >= 0 && el[k] >= 0; k = loops[k].parent) {
            if (st[k] == DV_NONE ? loops[k].iv != NULL : st[k] == DV_FAIL) {
                for (int q = k; q >= 0; q = loops[q].parent)
                    el[q] = -1;
                break;
            }
            if (st[k] != DV_NONE)
                span += d[k] * (trip[k] > 0 ? trip[k] - 1 : 0);
            el[k] *= span;
        }
    }
    /* footprint_bytes at every loop of the path, at the line and the
     * page: the same operations on the same numbers (the working sets,
     * the CPU bytes and the TLB read each several times) */
    double e = ac->elem > 0 ? ac->elem : 8, line = s->line, page = s->page;
    double *fl = s->sp_fpl + (size_t)a * (size_t)nl, *fg = s->sp_fpp + (size_t)a * (size_t)nl;
    for (int k = li; k >= 0; k = loops[k].parent) {
        if (el[k] < 0) {
            fl[k] = ex[k] * line;
            if (s->tlb)
                fg[k] = ex[k] * page;
            continue;
        }
        double elk = mv[k] >= 1 ? min_d(el[k], mv[k]) : el[k];
        fl[k] = elk * (isinf(ml[k]) ? line : min_d(line, e * ml[k]));
        if (s->tlb)
            fg[k] = elk * (isinf(ml[k]) ? page : min_d(page, e * ml[k]));
    }
}

/* bind_spans with the site's plan: the same operations on the same
 * numbers, walking the path the plan laid out, and for a flat access
 * (every difference a constant) its span program in place of the
 * difference states: a dimension's span is 1 plus its non-zero terms
 * d x (trip - 1) in path order, multiplied into el[] at every position
 * from its first term on (before it the span is 1, and x 1 changes
 * nothing); from the first unknown position u out el[] is -1, as the
 * walk leaves it.  A trip is never negative (bind_trips), so
 * `trip > 0 ? trip : 0` is the trip itself. */
static void bind_spans_plan(bind_scratch *s, int a)
{
    const fl_plan *P = s->plan;
    const struct fl_pacc *x = &P->pa[a];
    const fl_loop *loops = s->f->loops;
    const int *path = P->path + x->po;
    int nl = s->nl, np = x->np, top = x->top;
    size_t o = (size_t)a * (size_t)nl;
    const double *trip = s->trip, *lin = s->lin + o;
    double *el = s->sp_elems + o;
    int u = x->flat ? x->u : np;
    for (int q = 0; q < np; q++)
        el[path[q]] = q < u ? 1 : -1;
    if (x->flat) {
        const struct fl_term *t = P->term + x->to, *end = t + x->nt;
        while (t < end) {
            int j = t->j;
            double span = 1;
            for (int q = t->p; q < u; q++) {
                for (; t < end && t->j == j && t->p == q; t++)
                    span += t->d * (trip[path[q]] > 0 ? trip[path[q]] - 1 : 0);
                el[path[q]] *= span;
            }
        }
    } else {
        const double *dv = s->dv + s->dv0[a];
        const unsigned char *dvs = s->dvs + s->dv0[a];
        for (int j = 0; j < s->f->accs[a].ndims; j++) {
            double span = 1;
            const double *d = dv + j * nl;
            const unsigned char *st = dvs + j * nl;
            for (int q = 0; q < np && el[path[q]] >= 0; q++) {
                int k = path[q];
                if (st[k] == DV_NONE ? loops[k].iv != NULL : st[k] == DV_FAIL) {
                    for (int r = q; r < np; r++)
                        el[path[r]] = -1;
                    break;
                }
                if (st[k] != DV_NONE)
                    span += d[k] * (trip[k] > 0 ? trip[k] - 1 : 0);
                el[k] *= span;
            }
        }
    }
    /* the smallest stride, the executions and the moving product going
     * out, and the footprints at each loop from them: at the line and the
     * page, and at the GPU's sector at the loop bind_gpu_bytes asks for */
    double e = s->acc_e[a], line = s->line, page = s->page, sector = s->sector;
    double *fl = s->sp_fpl + o, *fg = s->sp_fpp + o;
    double minlin = INFINITY, execs = 1, moving = 1;
    int tlb = s->tlb;
    for (int q = 0; q < np; q++) {
        int k = path[q];
        double v = lin[k], t = trip[k];
        if (v != 0)
            minlin = min_d(minlin, v < 0 ? INFINITY : v);
        if (v < 0)
            minlin = INFINITY;
        execs *= t;
        if (v != 0)
            moving *= t;
        double elk = el[k];
        if (elk < 0) {
            fl[k] = execs * line;
            if (tlb)
                fg[k] = execs * page;
            if (k == top)
                s->fps[a] = execs * sector;
            continue;
        }
        if (moving >= 1)
            elk = min_d(elk, moving);
        int inf = isinf(minlin);
        fl[k] = elk * (inf ? line : min_d(line, e * minlin));
        if (tlb)
            fg[k] = elk * (inf ? page : min_d(page, e * minlin));
        if (k == top)
            s->fps[a] = elk * (inf ? sector : min_d(sector, e * minlin));
    }
}

/* The memory-traffic model shared by the CPU and GPU sides (README, "memory
 * traffic").  Footprint of access a over loops li..q in bytes moved at a
 * granule of `line` bytes (a CPU cache line, a GPU sector): elements times
 * min(line, elem x the smallest non-zero linearised stride among those
 * loops) -- a unit-stride walk moves its bytes, a column walk a line per
 * element, an access invariant in all of them one line.  The elements are
 * the bounding box of the differences, at most the product of the trips of
 * the loops that move the access: a diagonal A[j][j] over i and j touches
 * trip_j elements, not trip_j^2. */
static double footprint_walk(bind_scratch *s, int a, int q, double line);

static inline __attribute__((always_inline)) double footprint_bytes(bind_scratch *s, int a, int q,
                                                                    double line)
{
    int at = a * s->nl + q;
    if (!s->reference && s->sp_on[at]) {      /* bind_spans */
        if (s->sp_elems[at] < 0)
            return s->sp_execs[at] * line;
        double e = s->f->accs[a].elem > 0 ? s->f->accs[a].elem : 8, minlin = s->sp_minlin[at];
        double el = s->sp_moving[at] >= 1 ? min_d(s->sp_elems[at], s->sp_moving[at])
                                          : s->sp_elems[at];
        return el * (isinf(minlin) ? line : min_d(line, e * minlin));
    }
    return footprint_walk(s, a, q, line);
}

/* footprint_bytes from the differences themselves (the reference mode, or
 * a loop bind_spans did not reach). */
static double footprint_walk(bind_scratch *s, int a, int q, double line)
{
    const rt_facts *f = s->f;
    const fl_acc *ac = &f->accs[a];
    int nl = s->nl;
    double e = ac->elem > 0 ? ac->elem : 8, minlin = INFINITY, execs = 1, moving = 1;
    int li = f->stmts[ac->stmt].loop;
    for (int k = li; k >= 0; k = f->loops[k].parent) {
        double v = s->lin[a * nl + k];
        if (v != 0)
            minlin = min_d(minlin, v < 0 ? INFINITY : v);    /* < 0: irregular */
        if (v < 0)
            minlin = INFINITY;
        execs *= s->trip[k] > 0 ? s->trip[k] : 0;
        if (v != 0)
            moving *= s->trip[k] > 0 ? s->trip[k] : 0;
        if (k == q)
            break;
    }
    double gran = isinf(minlin) ? line : min_d(line, e * minlin);
    double elems = span_elems(s, a, q);
    if (elems < 0)
        return execs * line;
    if (moving >= 1)
        elems = min_d(elems, moving);
    return elems * gran;
}

/* footprint_bytes at the call's line (g 0) or page (g 1) granule: from
 * what bind_spans kept for the call (the working sets, the CPU bytes and
 * the TLB ask for the same (access, loop) pairs); the reference mode
 * computes it each time. */
/* Where access a's footprints at loops of its path are kept (line: g 0,
 * page: g 1), or NULL when they are not (the reference mode; the page's
 * without the TLB term): then footprint_at computes them. */
static inline const double *footprints(const bind_scratch *s, int a, int g)
{
    if (s->reference || (g && !s->tlb))
        return NULL;
    return (g ? s->sp_fpp : s->sp_fpl) + (size_t)a * (size_t)s->nl;
}

static inline double footprint_at(bind_scratch *s, int a, int q, int g)
{
    int at = a * s->nl + q;
    if (!s->reference && s->sp_on[at] && (!g || s->tlb))
        return g ? s->sp_fpp[at] : s->sp_fpl[at];
    return footprint_bytes(s, a, q, g ? s->page : s->line);
}

/* Bytes a loop moves from the level below a cache of `cap` bytes when
 * `rep` bytes are its accesses' references repeated over its iterations,
 * `fp` bytes the distinct data they touch, and `wset` bytes one
 * iteration's working set (the data a re-reference needs kept).  When the
 * working set fits, only the footprint moves.  When it does not, a share
 * h = cap / wset of the re-references hits: the independent reference
 * model with uniform references (Coffman & Denning, Operating Systems
 * Theory, 1973, sec. 6.3: every demand-replacement policy holds a random
 * cap-sized subset of the W pages, hit ratio C/W), which is also what a
 * thrash-resistant insertion policy keeps of a cyclic sweep larger than
 * the cache (Qureshi et al., "Adaptive insertion policies for high
 * performance caching", ISCA 2007: BIP retains ~C of a W > C loop, where
 * LRU keeps none).  So
 *     bytes = h x min(rep, fp) + (1 - h) x rep,   h = min(1, cap / wset),
 * continuous at wset = cap: no step at the cache's capacity. */
double rt_reuse_bytes(double rep, double fp, double wset, double cap)
{
    double lo = min_d(rep, fp);
    if (!(wset > cap))
        return lo;
    double h = cap > 0 ? cap / wset : 0;
    return h * lo + (1 - h) * rep;
}

static const char *pick_mca(const rt_facts *f, const rt_profile *cpu, int *exact)
{
    const char *want = cpu ? cpu->mca_cpu : NULL, *near = NULL, *any = NULL;
    *exact = 0;
    for (int k = 0; k < f->nloops; k++)
        for (int i = 0; i < f->loops[k].nmca; i++) {
            const char *t = f->loops[k].mca[i].target;
            if (want && !strcmp(t, want))
                return *exact = 1, t;
            if (want && !near && strncmp(t, want, 3) == 0)
                near = t;
            if (!any)
                any = t;
        }
    return near ? near : any;
}

/* The host's granules: its cache line and its page (and whether the TLB
 * term applies), which the footprints bind_spans keeps are taken at. */
static void host_granules(bind_scratch *s)
{
    const rt_profile *cpu = s->cpu;
    s->line = cpu->line > 0 ? cpu->line : 64;
    s->page = cpu->page;
    s->tlb = s->page > 0 && cpu->tlb_entries > 0;
    s->sector = s->gpu->sector > 0 ? s->gpu->sector : 32;     /* (bind_spans_plan's) */
}

/* CPU side of the traffic model: working set of one iteration of each
 * loop, the cache a thread has (and the TLB's reach), per loop. */
static void bind_wsets(bind_scratch *s, int threads)
{
    const rt_facts *f = s->f;
    const rt_profile *cpu = s->cpu;
    s->t = s->out->host_sequential ? 1 : threads > 0 ? threads : rt_profile_threads(cpu);
    int cores = cpu->cores > 0 ? cpu->cores : 1, cu = s->t < cores ? s->t : cores;
    /* the cache of a core is shared by the threads that run on it at
     * once: its hardware threads (smt); threads beyond those are
     * time-sliced by the OS and each runs with the whole cache in turn */
    double share = ceil((double)s->t / cu);
    if (cpu->smt > 0 && share > cpu->smt)
        share = cpu->smt;
    s->cap = (cpu->l2 + cpu->l3 / cores) / share;
    /* the levels above it, for the cache-level term: a core's L1 and L2,
     * shared the same way */
    s->cap1 = cpu->l1 > 0 ? cpu->l1 / share : 0;
    s->cap2 = cpu->l1 > 0 ? cpu->l2 / share : 0;
    /* the TLB: the same model at page granule, the reach a thread has of
     * its core's TLB (entries x page / SMT share) in place of the cache */
    s->reach = cpu->tlb_entries * cpu->page / share;
    const fl_loop *loops = f->loops;
    double *ws = s->wset, *wc = s->wset_c, *wp = s->wset_pg, line = s->line, page = s->page;
    int tlb = s->tlb;
    for (int a = 0; a < s->na; a++) {
        if (s->plan) {        /* the same sums along the plan's path */
            const fl_plan *P = s->plan;
            const struct fl_pacc *x = &P->pa[a];
            const int *path = P->path + x->po;
            const unsigned char *wa = P->wc_add + x->po;
            const double *fl = s->sp_fpl + (size_t)a * (size_t)s->nl;
            const double *fg = s->sp_fpp + (size_t)a * (size_t)s->nl;
            int l1 = s->cap1 > 0;
            for (int i = 0; i < x->np; i++) {
                int q = path[i];
                double fp = i == 0 ? line : fl[path[i - 1]];
                ws[q] += fp;
                if (!l1 || wa[i])
                    wc[q] += fp;
                if (tlb)
                    wp[q] += i == 0 ? page : fg[path[i - 1]];
            }
            continue;
        }
        int li = f->stmts[f->accs[a].stmt].loop;
        const double *fl = footprints(s, a, 0), *fg = footprints(s, a, 1);
        /* the cache levels' working set counts an element once: an earlier
         * access to the same element (the read and the write of A[i][j],
         * or A[i][j] in two loops of the same iteration) holds its lines
         * in every loop around both */
        int dup = -1;
        if (s->plan)
            dup = s->cap1 > 0 ? s->plan->pa[a].dup : -1;
        else
            for (int b = 0; b < a && s->cap1 > 0 && dup < 0; b++)
                if (f->accs[b].arr == f->accs[a].arr &&
                    nest_same_subscripts(&f->accs[b], &f->accs[a]))
                    dup = f->stmts[f->accs[b].stmt].loop;
        for (int q = li, ch = -1; q >= 0; ch = q, q = loops[q].parent) {
            double fp = ch < 0 ? line : fl ? fl[ch] : footprint_at(s, a, ch, 0);
            ws[q] += fp;
            while (dup >= 0 && dup != q && dup > q)     /* q around the earlier access? */
                dup = loops[dup].parent;
            if (dup != q)
                wc[q] += fp;
            if (tlb)
                wp[q] += ch < 0 ? page : fg ? fg[ch] : footprint_at(s, a, ch, 1);
        }
    }
}

/* 1 when loop li holds an access to another array than access a's. */
static int other_array_in(const rt_facts *f, int a, int li)
{
    for (int b = 0; b < f->naccs; b++)
        if (f->stmts[f->accs[b].stmt].loop == li && f->accs[b].arr != f->accs[a].arr)
            return 1;
    return 0;
}

/* Access a's GPU request (per work item) into the launch's table; the
 * loop its loads are counted in (register promotion) in *cl. */
static rt_access bind_gpu_access(bind_scratch *s, int a, int *cl)
{
    const rt_facts *f = s->f;
    const fl_acc *ac = &f->accs[a];
    int li = s->acc_li[a], nl = s->nl;
    rt_launch *out = s->out;
    double e = s->acc_e[a];
    /* register promotion: an access invariant in its innermost loop
     * (an accumulator such as C[i][j] in a k loop) is loaded before the
     * loop and stored after it by any optimising compiler */
    const struct fl_pacc *pa = s->plan ? &s->plan->pa[a] : NULL;
    *cl = li;
    if (pa) {                 /* the same tests, the facts' ones made once */
        if (pa->clp >= 0 && s->lin[a * nl + li] == 0)
            *cl = pa->clp;
    } else if (li > 0 && !f->loops[li].thread && !f->loops[li].kroot &&
               s->lin[a * nl + li] == 0 && !(ac->is_write && other_array_in(f, a, li)))
        *cl = f->loops[li].parent;
    int in_kernel = s->kr[li] >= 0;
    rt_access x = { .elem_size = (int)e,
                    .count = in_kernel ? s->gpu_it[*cl] * s->sw[ac->stmt] * scale(s, li) : 0 };
    int64_t k;
    char e2[64];
    if (pa && pa->cls >= 0)
        x.cls = (rt_stride_class)pa->cls, x.stride = pa->stride;
    else if (ac->no_thread)
        x.cls = RT_UNIFORM;
    else if (!ac->stride ||
             cx_eval(s->plan ? &s->plan->stride[a] : NULL, &s->c, li, ac->stride, &k, e2, sizeof e2))
        x.cls = RT_IRREGULAR;
    else {
        x.stride = k;
        x.cls = k == 0 ? RT_UNIFORM : (k == 1 || k == -1) ? RT_COALESCED : RT_STRIDED;
    }
    if (x.count > 0)
        s->has_mem[*cl] = 1;
    out->gpu_mem_insts += x.count;
    int slot = out->naccesses < RT_MAX_ACCESSES ? out->naccesses++ : RT_MAX_ACCESSES - 1;
    if (slot == RT_MAX_ACCESSES - 1 && out->naccesses == RT_MAX_ACCESSES && a >= RT_MAX_ACCESSES)
        out->acc[slot].count += x.count;   /* beyond the table: fold into the last */
    else
        out->acc[slot] = x;
    /* elements it touches in one launch: the bounding box of the stored
     * differences (span_elems over the whole nest); an unknown difference
     * counts every execution as a new element */
    double elems = s->reference ? span_elems(s, a, 0) : s->sp_elems[a * nl + 0];
    if (elems < 0)
        elems = s->cpu_it[li] * s->trip[0];
    double bytes = elems * x.elem_size;
    if (bytes > s->arr_bytes[a])
        s->arr_bytes[a] = bytes;
    return x;
}

/* 1 when an earlier access b of the same array in the same loop has the
 * same strides along every loop (and, with rw, the same direction). */
static int same_stream(const bind_scratch *s, int a, int rw)
{
    const rt_facts *f = s->f;
    const fl_acc *ac = &f->accs[a];
    if (s->plan && !s->plan->pa[a].cand[rw])
        return 0;             /* no earlier access of its array and loop */
    int li = s->acc_li[a], nl = s->nl;
    for (int b = 0; b < a; b++) {
        const fl_acc *o = &f->accs[b];
        if (f->stmts[o->stmt].loop != li || (rw && o->is_write != ac->is_write) ||
            o->arr != ac->arr)
            continue;
        int same = 1;
        for (int q = 0; q < nl && same; q++)
            same = s->lin[b * nl + q] == s->lin[a * nl + q];
        if (same)
            return 1;
    }
    return 0;
}

/* TLB misses (Liao-Chapman's Cache_c, model.c): pages touched, going out
 * loop by loop as for the lines, reused while one iteration's pages fit
 * the reach; one count per (array, loop, strides), a write to the page
 * just read being a hit. */
static void bind_tlb(bind_scratch *s, int a)
{
    const rt_facts *f = s->f;
    int li = s->acc_li[a];
    if (same_stream(s, a, 0))
        return;
    double P = s->page, reach = s->reach;
    const double *trip = s->trip, *wp = s->wset_pg, *fg = footprints(s, a, 1);
    for (int q = li; q >= 0; q = f->loops[q].parent) {
        double rep = trip[q] * P;
        P = rt_reuse_bytes(rep, fg ? fg[q] : footprint_at(s, a, q, 1), wp[q], reach);
    }
    s->out->tlb_misses += P / s->page / (s->out->steps > 0 ? s->out->steps : 1);
}

/* CPU bytes of access a (one stream): one cold touch is a line; going out
 * loop by loop, the bytes repeat per iteration unless one iteration's
 * working set fits the thread's cache, then they are the footprint. */
static void bind_cpu_bytes(bind_scratch *s, int a, double wf)
{
    const rt_facts *f = s->f;
    int li = s->acc_li[a], nl = s->nl;
    rt_launch *out = s->out;
    double e = s->acc_e[a], T = s->line;
    /* the same walk with the L1's and the L2's capacity: the lines that
     * leave L2 for L1 (T1) and L3 for L2 (T2), for the cache-level term.
     * These small caches keep the C/W share of a working set W over
     * their capacity C (rt_reuse_bytes: their replacement is no true LRU,
     * and a sweep a little over the L1 still hits in most of it), counted
     * on wset_c, where each element is counted once */
    double T1 = s->line, T2 = s->line;
    const double *trip = s->trip, *lin = s->lin + (size_t)a * (size_t)nl, *fl = footprints(s, a, 0);
    const double *wc = s->wset_c, *ws = s->wset;
    double cap = s->cap, cap1 = s->cap1, cap2 = s->cap2, line = s->line;
    int t = s->t, region = f->region;
    for (int q = li; q >= 0; q = f->loops[q].parent) {
        /* (each split-loop test as the loop below makes it) */
        int split = t > 1 && lin[q] == 0 && (region ? f->loops[q].kroot : q == 0);
        double fp = fl ? fl[q] : footprint_at(s, a, q, 0);
        if (cap1 > 0) {
            /* L1 and L2 are a core's own: each thread fills its own from
             * the level below, so the split loop's sharing (below) is the
             * shared cache's alone and these count every thread's lines */
            double r1 = trip[q] * T1, r2 = trip[q] * T2;
            T1 = rt_reuse_bytes(r1, fp, wc[q], cap1);
            T2 = rt_reuse_bytes(r2, fp, wc[q], cap2);
        }
        double rep = trip[q] * T;
        /* data invariant in the loop the threads split (B[k][j] of gemm
         * under a parallel i) is walked by all of them in step: the lines
         * one brings serve the others from the shared cache (constructive
         * sharing, Chen et al., "Scheduling threads for constructive cache
         * sharing on CMPs", SPAA 2007), so it is fetched once per round of
         * t concurrent iterations */
        if (split)
            rep = ceil(trip[q] / t) * T;
        /* a step at the cache's capacity (LRU keeps nothing of a cyclic
         * sweep larger than the cache): the C/W share of rt_reuse_bytes
         * made the CPU truth worse on this side (bench/cpu-truth.sh:
         * median 0.51 -> 0.44, within 2x 37 -> 33 of 112), so the CPU
         * keeps the step; the split-loop sharing and the hardware-thread
         * cache share keep it from cliffs */
        T = ws[q] <= cap ? min_d(rep, fp) : rep;
    }
    out->cpu_bytes += wf * T / (out->steps > 0 ? out->steps : 1);
    /* its reference type for a calibrated host (PMaC, model.c): the stride
     * along the innermost loop that moves it -- irregular: a gather; a
     * line or more apart: a column walk; 1: unit; else strided */
    int pat = RT_PAT_UNIT;
    for (int q = li; q >= 0; q = f->loops[q].parent) {
        double v = lin[q];
        if (v == 0)
            continue;
        pat = v < 0 ? RT_PAT_GATHER : v * e >= line ? RT_PAT_COLUMN
            : v == 1 ? RT_PAT_UNIT : RT_PAT_STRIDED;
        break;
    }
    out->cpu_bytes_pat[pat] += wf * T / (out->steps > 0 ? out->steps : 1);
    /* the cache-level term's lines: a column walk or a gather moves a
     * line per element, in an order no stream prefetcher follows, so the
     * lines it gets from L2 and from L3 cost what an independent load
     * served there costs (model.c); a level holds at least what the one
     * below it delivers, so the hits are the differences */
    if (s->cap1 > 0 && (pat == RT_PAT_COLUMN || pat == RT_PAT_GATHER)) {
        double st = out->steps > 0 ? out->steps : 1;
        T2 = max_d(T2, T), T1 = max_d(T1, T2);
        out->cpu_hit_bytes[0] += wf * (T1 - T2) / st;
        out->cpu_hit_bytes[1] += wf * (T2 - T) / st;
    }
}

/* GPU bytes of access a: 32-byte sectors per warp request.  A team-uniform
 * address is one request shared by every warp: its footprint.  Otherwise a
 * warp moves min(32, |stride| x elem / sector) sectors per thread group,
 * less when the thread's own inner loop walks the rest of the sector it
 * has just loaded. */
static void bind_gpu_bytes(bind_scratch *s, int a, const rt_access *x, int cl, double wf)
{
    const rt_facts *f = s->f;
    const fl_acc *ac = &f->accs[a];
    const rt_profile *gpu = s->gpu;
    int li = s->acc_li[a], nl = s->nl;
    double e = s->acc_e[a], sector = s->sector;
    int root = s->kr[li] >= 0 ? s->kr[li] : 0, top = root;
    while (f->region && top > 0 && f->loops[top].parent > 0)   /* all launches of a step */
        top = f->loops[top].parent;
    double fp = s->plan ? s->fps[a] : footprint_bytes(s, a, top, sector);
    s->gpu_minfp += fp;
    /* Hong-Kim's departure delays: a request that leaves the SM holds its
     * memory pipeline Departure_del_coal cycles when it is one
     * transaction, Departure_del_uncoal per transaction otherwise */
    double trans, wbytes;
    if (s->plan && s->plan->pa[a].cls >= 0)      /* the same access every call */
        trans = s->plan->pa[a].trans;
    else
        rt_warp_access(x, &trans, &wbytes);
    double dep = trans > 1 ? gpu->dep_uncoal * trans : gpu->dep_coal;
    if (x->cls == RT_UNIFORM) {
        s->gpu_sum += wf * fp;
        s->round_lat[cl] = max_d(s->round_lat[cl], gpu->l2_lat > 0 ? gpu->l2_lat : gpu->mem_lat);
        s->out->gpu_dep_cycles += x->count * dep;
        return;
    }
    double span = x->cls == RT_IRREGULAR ? 32 * sector : fabs((double)x->stride) * e * 32;
    double wb = min_d(32 * sector, max_d(sector, ceil(span / sector) * sector));
    double il = s->lin[a * nl + li];
    double miss = 1;
    if (cl == li && !f->loops[li].thread && il > 0 && il * e < sector && wb >= 32 * sector)
        miss = il * e / sector, wb *= miss;
    /* latency of this access in a round: the rounds that find their
     * sector already loaded by the thread's previous round hit L1; the
     * others go to DRAM, an uncoalesced request in Hong-Kim's
     * Mem_L_Uncoal = Mem_LD + (#Uncoal_per_mw - 1) x Departure_del_uncoal
     * (its last transaction leaves that much after the first); only
     * those leave the SM and pay the departure delays */
    double l1 = gpu->l1_lat > 0 ? gpu->l1_lat : gpu->mem_lat;
    double mem_l = gpu->mem_lat + (trans > 1 ? (trans - 1) * gpu->dep_uncoal : 0);
    s->round_lat[cl] = max_d(s->round_lat[cl], miss * mem_l + (1 - miss) * l1);
    s->out->gpu_dep_cycles += x->count * miss * dep;
    double warps = s->kwarps[root];    /* ceil(kitems[root] / 32) */
    s->gpu_sum += wf * warps * s->gpu_it[cl] * s->sw[ac->stmt] * wb * s->launches[root];
}

/* The chain latency of the work item whose thread-loop iv is v: the trips
 * below the thread loop tl evaluated again with iv = v (theirs at the
 * middle of their new ranges), the rounds' latencies kept.  The trips and
 * ivs are restored.  -1 when a trip does not evaluate. */
static double chain_at(bind_scratch *s, int tl, int64_t v)
{
    const rt_facts *f = s->f;
    int nl = s->nl;
    double it[nl > 0 ? nl : 1], lat = 0;
    int64_t saved_iv[nl > 0 ? nl : 1];
    memcpy(saved_iv, s->ivals, sizeof(int64_t) * (size_t)nl);
    s->ivals[tl] = v;
    it[tl] = s->gpu_it[tl];
    int rc = 0;
    for (int k = tl + 1; k < nl && f->loops[k].parent >= tl; k++) {
        const fl_loop *l = &f->loops[k];
        int p = l->parent;
        int64_t t = UNKNOWN_TRIP, lo = 0;
        char e2[64];
        if (l->trip && cx_eval(s->plan ? &s->plan->trip[k] : NULL, &s->c, p, l->trip, &t, e2,
                               sizeof e2))
            rc = -1;
        if (l->lower && cx_eval(s->plan ? &s->plan->lower[k] : NULL, &s->c, p, l->lower, &lo, e2,
                                sizeof e2))
            rc = -1;
        if (rc)
            break;
        if (t < 0)
            t = 0;
        s->ivals[k] = lo + (l->step ? l->step : 1) * (t > 0 ? (t - 1) / 2 : 0);
        it[k] = it[p] * (l->thread ? 1 : (double)t);
    }
    for (int k = tl; k < nl && !rc && (k == tl || f->loops[k].parent >= tl); k++)
        if (s->has_mem[k])
            lat += it[k] * scale(s, k) *
                   (s->round_lat[k] > 0 ? s->round_lat[k] : s->gpu->mem_lat);
    memcpy(s->ivals, saved_iv, sizeof(int64_t) * (size_t)nl);
    return rc ? -1 : lat;
}

/* The longest work item's chain (a triangular nest's first or last row,
 * whichever holds more rounds): a kernel whose warps run at once ends
 * with its slowest warp, not with the average the trips at the middle of
 * their ranges give.  Evaluated at both ends of the outermost thread
 * loop of a plain nest (the trips below it are linear in its iv in the
 * nests keelcc maps, so an end is the extreme); the rounds above it (and
 * a time-stepped region's kernels) keep the average. */
static void bind_longest_chain(bind_scratch *s)
{
    const rt_facts *f = s->f;
    rt_launch *out = s->out;
    int tl = -1;
    for (int k = 0; k < s->nl && tl < 0; k++)
        if (f->loops[k].thread)
            tl = k;
    if (f->region || tl < 0 || s->trip[tl] < 2 || (s->plan && s->plan->chain_flat))
        return;
    double here = chain_at(s, tl, s->ivals[tl]);
    if (here < 0)
        return;
    const fl_loop *l = &f->loops[tl];
    int64_t lo = s->ivals[tl] - (l->step ? l->step : 1) * (int64_t)((s->trip[tl] - 1) / 2);
    int64_t hi = lo + (l->step ? l->step : 1) * (int64_t)(s->trip[tl] - 1);
    double a = chain_at(s, tl, lo), b = chain_at(s, tl, hi), m = max_d(a, b);
    /* the rest of the chain (rounds outside the thread loop) as bound */
    if (m > here)
        out->gpu_lat_max_cycles = out->gpu_lat_cycles + (m - here);
}

/* Cycles of one iteration of the parallel loop (loops[0]) whose variable
 * is v: the inner loops' trips evaluated again with iv = v (theirs at the
 * middle of their new ranges) times their bodies' cycles, as bind_compute
 * sums them.  The ivs are restored.  -1 when a trip does not evaluate. */
static double cpu_cycles_at(bind_scratch *s, int64_t v)
{
    const rt_facts *f = s->f;
    int nl = s->nl, rc = 0, mca = 0;
    double it[nl > 0 ? nl : 1], cycles = 0;
    int64_t saved_iv[nl > 0 ? nl : 1];
    memcpy(saved_iv, s->ivals, sizeof(int64_t) * (size_t)nl);
    s->ivals[0] = v;
    it[0] = 1;
    for (int k = 1; k < nl && !rc; k++) {
        const fl_loop *l = &f->loops[k];
        int p = l->parent;
        int64_t t = UNKNOWN_TRIP, lo = 0;
        char e2[64];
        if ((l->trip && cx_eval(s->plan ? &s->plan->trip[k] : NULL, &s->c, p, l->trip, &t, e2,
                                sizeof e2)) ||
            (l->lower && cx_eval(s->plan ? &s->plan->lower[k] : NULL, &s->c, p, l->lower, &lo, e2,
                                 sizeof e2)))
            rc = -1;
        if (t < 0)
            t = 0;
        s->ivals[k] = lo + (l->step ? l->step : 1) * (t > 0 ? (t - 1) / 2 : 0);
        it[k] = (p >= 0 ? it[p] : 1) * (double)t;
    }
    int cached = plan_cycles_valid(s);
    for (int k = 0; k < nl && !rc; k++) {
        double rec;
        cycles += it[k] * (cached ? s->plan->body[k]
                                  : rt_loop_body_cycles(f, k, s->sw, k != 0, s->mca, &mca, s->cpu,
                                                        &rec));
    }
    memcpy(s->ivals, saved_iv, sizeof(int64_t) * (size_t)nl);
    return rc ? -1 : cycles;
}

/* The heaviest chunk of the host's static schedule (Liao-Chapman's
 * Loop_chunk_c is the slowest thread's): the cycles of the parallel
 * loop's first and last iteration, and rt_static_heaviest_chunk over the
 * s->t threads.  A plain nest whose inner trips depend on the parallel
 * loop's variable only (f->uneven, found at load; in a time-stepped region
 * the average stays). */
static void bind_heaviest_chunk(bind_scratch *s)
{
    const rt_facts *f = s->f;
    rt_launch *out = s->out;
    if (f->region || !f->uneven || s->nl < 2 || s->trip[0] < 2 || s->t < 2)
        return;
    const fl_loop *l = &f->loops[0];
    int64_t step = l->step ? l->step : 1;
    int64_t lo = s->ivals[0] - step * (int64_t)((s->trip[0] - 1) / 2);
    int64_t hi = lo + step * (int64_t)(s->trip[0] - 1);
    double w0 = cpu_cycles_at(s, lo), w1 = cpu_cycles_at(s, hi);
    if (w0 < 0 || w1 < 0)
        return;
    out->chunk_cycles_max = rt_static_heaviest_chunk(s->trip[0], s->t, w0, w1);
    out->chunk_threads = s->t;
}

/* Every access: its GPU request, TLB misses, CPU and GPU bytes (one
 * stream per (array, loop, strides): a stencil's neighbours and repeated
 * reads share their lines); then what stays in the GPU's L2 and the
 * latency chain. */
static void bind_accesses(bind_scratch *s)
{
    const rt_facts *f = s->f;
    rt_launch *out = s->out;
    s->sector = s->gpu->sector > 0 ? s->gpu->sector : 32;
    for (int a = 0; a < s->na; a++) {
        int cl;
        rt_access x = bind_gpu_access(s, a, &cl);
        if (s->tlb)
            bind_tlb(s, a);
        if (same_stream(s, a, 1))
            continue;
        /* a write with no read of the same element first reads the line
         * (write-allocate) and writes it back: twice the bytes */
        double wf = f->accs[a].is_write ? (f->accs[a].read_first ? 1 : 2) : 1;
        bind_cpu_bytes(s, a, wf);
        if (x.count > 0)
            bind_gpu_bytes(s, a, &x, cl, wf);
    }
    /* what stays in L2: everything when the footprint fits, else the
     * share of it L2 holds (rt_reuse_bytes: C / W of the re-reads hit) */
    out->gpu_bytes = rt_reuse_bytes(max_d(s->gpu_minfp, s->gpu_sum), s->gpu_minfp, s->gpu_minfp,
                                    s->gpu->gpu_l2);
    for (int k = 0; k < s->nl; k++)
        if (s->has_mem[k]) {
            out->gpu_chain += s->gpu_it[k] * scale(s, k);
            out->gpu_lat_cycles += s->gpu_it[k] * scale(s, k) *
                                   (s->round_lat[k] > 0 ? s->round_lat[k] : s->gpu->mem_lat);
        }
    out->gpu_lat_max_cycles = out->gpu_lat_cycles;
    bind_longest_chain(s);
}

/* Per array: the largest footprint among its accesses, counted in when
 * read, out when written. */
static void bind_arrays(bind_scratch *s)
{
    const rt_facts *f = s->f;
    const fl_plan *P = s->plan;
    if (P) {                  /* the same walk, its structure from the plan */
        for (int i = 0; i < P->narr; i++) {
            const struct fl_parr *r = &P->arr[i];
            double b = 0;
            for (int m = r->first; m < r->first + r->n; m++)
                if (s->arr_bytes[P->mem[m]] > b)
                    b = s->arr_bytes[P->mem[m]];
            if (r->rd)
                s->out->bytes_in += b;
            if (r->wr)
                s->out->bytes_out += b;
        }
        return;
    }
    for (int a = 0; a < s->na; a++) {
        if (f->accs[a].arr != a)       /* counted at the array's first access */
            continue;
        int rd = 0, wr = 0;
        double b = 0;
        for (int q = a; q < s->na; q++) {
            if (f->accs[q].arr != a)
                continue;
            if (s->arr_bytes[q] > b)
                b = s->arr_bytes[q];
            if (f->accs[q].is_write)
                wr = 1;
            else
                rd = 1;
        }
        if (rd)
            s->out->bytes_in += b;
        if (wr)
            s->out->bytes_out += b;
    }
}

int rt_facts_bind(const rt_facts *f, int n, const char *const *names,
                  const long long *values, rt_launch *out, char *err, size_t errlen)
{
    return rt_facts_bind_on(f, NULL, NULL, 0, n, names, values, out, err, errlen);
}

static int bind_call(const rt_facts *f, const rt_profile *cpu, const rt_profile *gpu, int threads,
                     int n, const char *const *names, const long long *values, int reference,
                     int fixed, rt_launch *out, char *err, size_t errlen)
{
    double buf[SCRATCH_STACK / sizeof(double)];
    /* member by member, not `= { ... }`, which clears the whole struct
     * (some fifty stores a call): scratch_init sets every array, the
     * phases the host's figures (host_granules, bind_wsets) before any
     * reads them; what they sum into starts at 0 here */
    bind_scratch s;
    s.f = f, s.out = out, s.reference = reference, s.nl = f->nloops, s.na = f->naccs;
    s.cpu = cpu ? cpu : rt_profile_host_default();
    s.gpu = gpu ? gpu : rt_profile_find("h100");
    s.items_max = s.par_max = s.kernels = s.gpu_sum = s.gpu_minfp = 0;
    s.mca = NULL, s.t = 1, s.tlb = 0;
    s.line = s.cap = s.page = s.reach = s.sector = s.cap1 = s.cap2 = 0;
    s.c = (bind_ctx){ .f = f, .n = n, .names = names, .values = values };
    /* everything but the access table, whose first naccesses entries are
     * written as the accesses are bound (3 KiB less to clear per call) */
    memset(out, 0, offsetof(rt_launch, acc));
    memset((char *)out + offsetof(rt_launch, acc) + sizeof out->acc, 0,
           sizeof *out - offsetof(rt_launch, acc) - sizeof out->acc);
    s.plan = reference ? NULL : plan_for(f, n, names, s.cpu, fixed);
    if (scratch_init(&s, buf)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    s.c.ivals = s.ivals;
    int rc = -1;
    if (bind_trips(&s, err, errlen))
        goto done;
    bind_kernels(&s);
    bind_compute(&s);
    host_granules(&s);
    bind_strides(&s);
    bind_wsets(&s, threads);
    bind_heaviest_chunk(&s);
    bind_accesses(&s);
    bind_arrays(&s);
    if (!isfinite(out->cycles_per_iter) || !isfinite(out->work_items) ||
        !isfinite(out->bytes_in + out->bytes_out) || !isfinite(out->comp_insts) ||
        !isfinite(out->cpu_bytes) || !isfinite(out->gpu_bytes) || !isfinite(out->tlb_misses) ||
        !isfinite(out->cpu_hit_bytes[0] + out->cpu_hit_bytes[1])) {
        snprintf(err, errlen, "a model term overflows");
        goto done;
    }
    rc = 0;
done:
    return rc;
}

int rt_facts_bind_mode(const rt_facts *f, const rt_profile *cpu, const rt_profile *gpu,
                       int threads, int n, const char *const *names, const long long *values,
                       int reference, rt_launch *out, char *err, size_t errlen)
{
    return bind_call(f, cpu, gpu, threads, n, names, values, reference, 0, out, err, errlen);
}

int rt_facts_bind_on(const rt_facts *f, const rt_profile *cpu, const rt_profile *gpu, int threads,
                     int n, const char *const *names, const long long *values, rt_launch *out,
                     char *err, size_t errlen)
{
    return bind_call(f, cpu, gpu, threads, n, names, values, 0, 0, out, err, errlen);
}

int rt_facts_bind_site(const rt_facts *f, const rt_profile *cpu, const rt_profile *gpu,
                       int threads, int n, const char *const *names, const long long *values,
                       rt_launch *out, char *err, size_t errlen)
{
    return bind_call(f, cpu, gpu, threads, n, names, values, 0, 1, out, err, errlen);
}

/* ---- evaluability (once per site) ---------------------------------------- */

typedef struct {
    const rt_facts *f;
    int loop;                 /* ivs of this loop and its ancestors are known */
    int n;
    const char *const *names;
    const char *missing;      /* first name neither an iv nor passed */
} check_ctx;

/* Every known name evaluates to 1: what fails then is the structure of the
 * expression (an opaque atom) or a name nobody binds, never a value. */
static int check_lookup(void *vctx, const char *name, int64_t *value)
{
    check_ctx *c = vctx;
    *value = 1;
    for (int k = c->loop; k >= 0; k = c->f->loops[k].parent)
        if (c->f->loops[k].iv && !strcmp(c->f->loops[k].iv, name))
            return 1;
    for (int i = 0; i < c->n; i++)
        if (c->names[i] && !strcmp(c->names[i], name))
            return 1;
    if (!c->missing)
        c->missing = name;
    return 0;
}

/* 0 when e evaluates structurally, else -1 with a message.  The evaluator
 * says "cannot evaluate" only for atoms it has no rule for (calls, loads,
 * ?"text"); any other failure under all-ones values is arithmetic and left
 * to the values of a real launch. */
static int check_expr(check_ctx *c, int loop, const kx_expr *e, char *err, size_t errlen)
{
    char msg[256];
    int64_t v;
    if (!e)
        return 0;
    c->loop = loop;
    c->missing = NULL;
    if (kx_eval(e, check_lookup, c, &v, msg, sizeof msg) == 0)
        return 0;
    if (c->missing)
        return snprintf(err, errlen, "the call does not pass '%s'", c->missing), -1;
    if (strncmp(msg, "cannot evaluate", 15) == 0)
        return snprintf(err, errlen, "%s", msg), -1;
    return 0;
}

int rt_facts_check(const rt_facts *f, int n, const char *const *names, char *err, size_t errlen)
{
    check_ctx c = { .f = f, .n = n > 0 ? n : 0, .names = names };
    for (int k = 0; k < f->nloops; k++) {
        int p = f->loops[k].parent;
        if (check_expr(&c, p, f->loops[k].trip, err, errlen) ||
            check_expr(&c, p, f->loops[k].lower, err, errlen))
            return -1;
    }
    return 0;
}

const rt_overlap *rt_facts_overlap(const rt_facts *f)
{
    return f->nov > 0 ? &f->spec : NULL;
}

const char *rt_facts_serial_label(const rt_facts *f)
{
    static const char *const labels[] = { "reduction", "sequential", "unknown" };
    const char *v = f ? rt_facts_fact(f, DB_LOOP_FACT_parallel) : NULL;
    for (size_t k = 0; v && k < sizeof labels / sizeof labels[0]; k++)
        if (strcmp(v, labels[k]) == 0)
            return labels[k];
    return "not parallel";
}

int rt_facts_parallel(const rt_facts *f)
{
    /* a time-stepped region's launch loop is sequential, its kernels are
     * not: the model decides it (as explain does), not "not parallel" */
    return f->nloops > 0 && (f->loops[0].parallel || f->region);
}

/* ---- queries ------------------------------------------------------------- */

int rt_facts_symbols(const rt_facts *f, const char *const **names)
{
    *names = (const char *const *)f->syms;
    return f->nsyms;
}

const char *rt_facts_fact(const rt_facts *f, int k)
{
    return k >= 0 && k < DB_NLOOP_FACTS ? f->fact[k] : NULL;
}

const char *rt_facts_file(const rt_facts *f) { return f->file; }
const char *rt_facts_source_hash(const rt_facts *f) { return f->hash ? f->hash : ""; }
int64_t rt_facts_loop_id(const rt_facts *f) { return f->loop_id; }
int rt_facts_line(const rt_facts *f) { return f->line; }
const char *rt_facts_function(const rt_facts *f) { return f->function ? f->function : "?"; }
const char *rt_facts_label(const rt_facts *f) { return f->label ? f->label : ""; }

int rt_facts_nloops(const rt_facts *f) { return f->nloops; }
int rt_facts_naccesses(const rt_facts *f) { return f->naccs; }

int rt_facts_loop_view(const rt_facts *f, int k, rt_loop_view *out)
{
    memset(out, 0, sizeof *out);
    if (k < 0 || k >= f->nloops)
        return -1;
    const fl_loop *l = &f->loops[k];
    out->id = l->id;
    out->line = l->line;
    out->col = l->col;
    for (int p = l->parent; p >= 0; p = f->loops[p].parent)
        out->depth++;
    out->parallel = l->parallel;
    out->thread = l->thread;
    out->kernel = l->kroot;
    if (l->trip && !(out->trip = kx_print(l->trip)))
        return -1;
    return 0;
}

const char *rt_facts_loop_iv(const rt_facts *f, int k)
{
    return k >= 0 && k < f->nloops ? f->loops[k].iv : NULL;
}

/* Another GPU mapping of a freshly loaded nest (`keel explain`'s best
 * mapping): the thread loops, each loop's thread loop and each access's
 * stride along it, as analyse() derives them at load. */
int rt_facts_remap(rt_facts *f, const unsigned char *thread, char *err, size_t errlen)
{
    if (f->plan || f->region) {
        snprintf(err, errlen, f->region ? "a time-stepped region is not remapped"
                                        : "the facts were bound already");
        return -1;
    }
    for (int k = 0; k < f->nloops; k++) {
        int p = f->loops[k].parent;
        f->loops[k].thread = (thread[k] & RT_REMAP_THREAD) != 0;
        f->loops[k].spread = f->loops[k].thread && p >= 0;
        f->loops[k].thread_on_path = f->loops[k].thread ? k : p >= 0 ? f->loops[p].thread_on_path : -1;
    }
    /* the fastest index of a collapsed space, where one is named: the
     * loops inside it see their neighbouring threads along it */
    for (int k = 0; k < f->nloops; k++)
        for (int q = k; q >= 0; q = f->loops[q].parent)
            if (thread[q] & RT_REMAP_FASTEST) {
                f->loops[k].thread_on_path = q;
                break;
            }
    for (int a = 0; a < f->naccs; a++) {
        fl_acc *ac = &f->accs[a];
        int t = f->loops[f->stmts[ac->stmt].loop].thread_on_path;
        kx_free(ac->stride);
        ac->stride = NULL;
        ac->no_thread = t < 0;
        if (t >= 0 && ac->lin[t] && !(ac->stride = kx_copy(ac->lin[t]))) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* Is loop l loop k or inside it? */
static int fl_within(const rt_facts *f, int l, int k)
{
    for (; l >= 0; l = f->loops[l].parent)
        if (l == k)
            return 1;
    return 0;
}

int rt_facts_scratch_arrays(const rt_facts *f, int k, char *buf, size_t len)
{
    int n = 0;
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    if (k < 0 || k >= f->nloops)
        return 0;
    for (int a = 0; a < f->naccs; a++) {
        const fl_acc *ac = &f->accs[a];
        if (ac->arr != a)                 /* each array once, at its first access */
            continue;
        int written = 0, ok = 1, first = -1, first_line = 0;
        for (int b = a; b < f->naccs && ok; b++) {
            const fl_acc *x = &f->accs[b];
            if (x->arr != a)
                continue;
            const fl_stmt *st = &f->stmts[x->stmt];
            /* only inside loop k, and the same elements in every iteration
             * of k: no subscript moves with k or a loop around it */
            ok = fl_within(f, st->loop, k);
            for (int j = 0; j < x->ndims && ok; j++)
                for (int q = k; q >= 0 && ok; q = f->loops[q].parent)
                    ok = x->diff && x->diff[j * f->nloops + q] && kx_is_zero(x->diff[j * f->nloops + q]);
            written |= x->is_write;
            if (ok && (first < 0 || st->line < first_line || (st->line == first_line && !x->is_write)))
                first = b, first_line = st->line;
        }
        /* written first: the earliest access by line is an unconditional
         * write, and no read shares its statement's line */
        if (!ok || !written || first < 0 || !f->accs[first].is_write
            || f->stmts[f->accs[first].stmt].conditional)
            continue;
        int n0 = snprintf(buf + used, used < len ? len - used : 0, "%s%s", n ? ", " : "", ac->array);
        if (n0 > 0)
            used += (size_t)n0;
        n++;
    }
    return n;
}

int rt_facts_access_view(const rt_facts *f, int a, rt_access_view *out)
{
    memset(out, 0, sizeof *out);
    if (a < 0 || a >= f->naccs)
        return -1;
    const fl_acc *ac = &f->accs[a];
    const fl_stmt *st = &f->stmts[ac->stmt];
    int t = f->loops[st->loop].thread_on_path;
    out->id = ac->id;
    out->stmt_id = st->id;
    out->is_write = ac->is_write;
    out->thread_line = t >= 0 ? f->loops[t].line : 0;
    out->stmt_flops = st->flops;
    if (ac->stride && !(out->stride = kx_print(ac->stride)))
        return -1;
    return 0;
}

void rt_facts_view_free(rt_loop_view *l, rt_access_view *a)
{
    if (l)
        free(l->trip), l->trip = NULL;
    if (a)
        free(a->stride), a->stride = NULL;
}

void rt_facts_print(const rt_facts *f, const rt_launch *l, FILE *out)
{
    fprintf(out, "loops (preorder; parallel: OpenMP loop construct, else IPDA verdict; map: GPU mapping)\n");
    for (int k = 0; k < f->nloops; k++) {
        const fl_loop *lp = &f->loops[k];
        int depth = 0;
        for (int p = lp->parent; p >= 0; p = f->loops[p].parent)
            depth++;
        char *trip = lp->trip ? kx_print(lp->trip) : NULL;
        fprintf(out, "  %*s%d:%d  %s  trip %s%s  %s  %s%s%s%s\n", 2 * depth, "", lp->line, lp->col,
                lp->iv ? lp->iv : "?", trip ? trip : "? (128)",
                lp->bounded ? " (at most its largest value over the enclosing loops)" : "",
                lp->parallel ? "parallel" : "sequential",
                lp->thread ? "map threads" : k == 0 && lp->parallel ? "map teams" : "",
                lp->gpu_map ? " (OpenMP offload: " : "", lp->gpu_map ? lp->gpu_map : "",
                lp->gpu_map ? ")" : "");
        free(trip);
    }
    fprintf(out, "accesses (stride: iteration-point difference along the thread loop, elements)\n");
    for (int a = 0; a < f->naccs; a++) {
        const fl_acc *ac = &f->accs[a];
        char *s = ac->stride ? kx_print(ac->stride) : NULL;
        fprintf(out, "  %c %-24s elem %d  stride %s", ac->is_write ? 'W' : 'R', ac->text,
                ac->elem, ac->no_thread ? "0 (team-uniform)" : s ? s : "? (irregular)");
        free(s);
        if (l && a < l->naccesses) {
            const rt_access *x = &l->acc[a];
            if (x->cls == RT_STRIDED)
                fprintf(out, "  -> strided(%lld)", (long long)x->stride);
            else
                fprintf(out, "  -> %s", rt_stride_name(x->cls));
            fprintf(out, "  x %.6g per work item", x->count);
        }
        fputc('\n', out);
    }
}
