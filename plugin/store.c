/*
 * store.c -- the last two steps of keelcc's pipeline (parse -> analyse ->
 * store): run every analysis over a translation unit's loop IR, then write
 * the IR and the results into the attribute database.
 *
 * store_analyse runs IPDA (analysis/parallel.c), idioms, boat-hull classes,
 * counts and the runtime's launch facts (analysis/launch.c) with no
 * database open; store_tu_with then writes everything in one IMMEDIATE
 * transaction per translation unit, so the write lock is held only for the
 * inserts.  It maps the IR (analysis/) to the database rows (db/): it
 * prints every expression in ipda's text form and hands plain rows to the
 * writer; the SQL is db/'s.  Last, in the same transaction, it builds
 * each launch site's loop model from the IR (analysis/nest_build.h, with
 * llvm-mca's figures just stored), packs it (nest_pack.h) and has db/
 * store the bytes beside the rows: the form the runtime loads.
 */
#include "store.h"

#include "parallel.h"
#include "counts.h"
#include "recur.h"
#include "db_json.h"
#include "db_launch.h"
#include "db_nest.h"
#include "db_mca.h"
#include "nest_build.h"
#include "nest_pack.h"
#include "idioms.h"
#include "instrument.h"
#include "launch.h"
#include "omp_pragmas.h"
#include "species.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Lists (calls, pragmas, compile arguments) are stored as JSON arrays of
 * strings, written by db/'s one JSON helper. */
char *store_json_array(int n, char *const *items)
{
    return db_json_array_of(n, items);
}

static char *print_or_null(const kx_expr *e)
{
    return e ? kx_print(e) : NULL;
}

static int store_stmt(db *d, int64_t loop_id, const ir_stmt *s, int64_t *stmt_id_out,
                      int64_t *acc_ids, char *err, size_t errlen)
{
    char *calls = s->ncalls ? store_json_array(s->ncalls, s->calls) : NULL;
    db_stmt_row row = {
        .line = s->line, .col = s->col, .text = s->text ? s->text : "",
        .conditional = s->conditional,
        .fadd = s->ops.fadd, .fmul = s->ops.fmul, .fdiv = s->ops.fdiv,
        .ffma = s->ops.ffma, .fmath = s->ops.fmath,
        .iadd = s->ops.iadd, .imul = s->ops.imul, .idiv = s->ops.idiv, .cmp = s->ops.cmp,
        .calls = calls,
    };
    int64_t stmt_id;
    int rc = db_add_stmt(d, loop_id, &row, &stmt_id, err, errlen);
    *stmt_id_out = stmt_id;
    free(calls);
    for (int a = 0; a < s->nacc && rc == 0; a++) {
        const ir_access *ac = &s->acc[a];
        char **idx = calloc((size_t)ac->ndims + 1, sizeof *idx);
        char **ext = calloc((size_t)ac->nextents + 1, sizeof *ext);
        if (!idx || !ext) {
            rc = ku_fail(err, errlen, "out of memory");
        } else {
            for (int k = 0; k < ac->ndims; k++)
                idx[k] = print_or_null(ac->index[k]);
            for (int k = 0; k < ac->nextents; k++)
                ext[k] = print_or_null(ac->extent[k]);
            db_access_row ar = {
                .array = ac->array, .elem_size = ac->elem_size, .is_write = ac->is_write,
                .ndims = ac->ndims, .index = (const char *const *)idx,
                .nextents = ac->nextents, .extent = (const char *const *)ext,
                .affine = ac->affine, .line = ac->line, .col = ac->col,
            };
            int64_t id = 0;
            rc = db_add_access(d, stmt_id, &ar, &id, err, errlen);
            acc_ids[a] = id;
            for (int k = 0; k < ac->ndims; k++)
                free(idx[k]);
            for (int k = 0; k < ac->nextents; k++)
                free(ext[k]);
        }
        free(idx);
        free(ext);
    }
    for (int v = 0; v < s->nscalars && rc == 0; v++) {
        db_scalar_row sr = { .name = s->scalars[v].name, .is_write = s->scalars[v].is_write,
                             .line = s->scalars[v].line, .col = s->scalars[v].col };
        rc = db_add_scalar(d, stmt_id, &sr, err, errlen);
    }
    return rc;
}

/* ---- analyse: no database open ------------------------------------------ */

struct store_analysis {
    int nloops;
    par_result *par;            /* IPDA verdicts, thread loops, strides */
    int par_failed;             /* par is par_unknown's: IPDA failed */
    idiom_result idioms;
    species_class *cls;         /* per loop; valid where has_cls */
    unsigned char *has_cls;
    counts_loop *counts;        /* per loop: [2l] one iteration, [2l + 1] all */
    launch_result *launch;      /* the runtime's facts */
    int nnotes;                 /* analyses that failed in part (store_analysis_note) */
    char **notes;
    char **no_answer;           /* per loop: why keel cannot answer for the nest, NULL: it can */
    const char **site;          /* per loop: "call", "clause", "none"; NULL: not told */
    char **site_why;            /* per loop, site "none": why */
    const char *offload;        /* every loop's fact `offload`, NULL unknown */
};

/* Record a note: one warning for keelcc, and part of the translation
 * unit's message in the database.  -1 when it cannot be recorded. */
static int add_note(store_analysis *a, const char *text)
{
    char *t = strdup(text);
    if (!t || ku_push_ptr(&a->notes, &a->nnotes, t) != 0) {
        free(t);
        return -1;
    }
    return 0;
}

int store_analysis_nnotes(const store_analysis *a)
{
    return a ? a->nnotes : 0;
}

const char *store_analysis_note(const store_analysis *a, int k)
{
    return a && k >= 0 && k < a->nnotes ? a->notes[k] : NULL;
}

/* When IPDA itself fails: every loop `unknown`, the reason saying why (it
 * is stored as each loop's dependence reason), no strides.  NULL when even
 * this cannot be allocated. */
static par_result *par_unknown(const ir_tu *tu, const char *why)
{
    par_result *r = calloc(1, sizeof *r);
    if (!r || !(r->loops = calloc((size_t)tu->nloops + 1, sizeof *r->loops))) {
        free(r);
        return NULL;
    }
    r->nloops = tu->nloops;
    for (int l = 0; l < tu->nloops; l++) {
        r->loops[l].verdict = PAR_UNKNOWN;
        snprintf(r->loops[l].reason, sizeof r->loops[l].reason, "not analysed: IPDA failed (%s)",
                 why);
    }
    return r;
}

void store_analysis_free(store_analysis *a)
{
    if (!a)
        return;
    for (int l = 0; l < a->nloops; l++) {
        if (a->has_cls && a->has_cls[l])
            species_class_free(&a->cls[l]);
        if (a->counts) {
            counts_loop_free(&a->counts[2 * l]);
            counts_loop_free(&a->counts[2 * l + 1]);
        }
    }
    for (int k = 0; k < a->nnotes; k++)
        free(a->notes[k]);
    free(a->notes);
    for (int l = 0; l < a->nloops; l++) {
        free(a->no_answer ? a->no_answer[l] : NULL);
        free(a->site_why ? a->site_why[l] : NULL);
    }
    free(a->no_answer);
    free(a->site);
    free(a->site_why);
    free(a->cls);
    free(a->has_cls);
    free(a->counts);
    idiom_result_free(&a->idioms);
    par_free(a->par);
    launch_free(a->launch);
    free(a);
}

const par_result *store_analysis_par(const store_analysis *a)
{
    return a && !a->par_failed ? a->par : NULL;
}

int store_analysis_set_site(store_analysis *a, int loop, const char *site, const char *why)
{
    if (!a || loop < 0 || loop >= a->nloops)
        return 0;
    if (!a->site && !(a->site = calloc((size_t)a->nloops, sizeof *a->site)))
        return -1;
    if (!a->site_why && !(a->site_why = calloc((size_t)a->nloops, sizeof *a->site_why)))
        return -1;
    char *w = why && *why ? strdup(why) : NULL;
    if (why && *why && !w)
        return -1;
    free(a->site_why[loop]);
    a->site[loop] = site;
    a->site_why[loop] = w;
    return 0;
}

void store_analysis_set_offload(store_analysis *a, const char *offload)
{
    if (a)
        a->offload = offload;
}

int store_analysis_no_sites(store_analysis *a, const char *why)
{
    int rc = 0;
    for (int l = 0; a && l < a->nloops && rc == 0; l++)
        rc = store_analysis_set_site(a, l, "off", why);
    return rc;
}

const char *store_analysis_no_answer(const store_analysis *a, int loop)
{
    return a && a->no_answer && loop >= 0 && loop < a->nloops ? a->no_answer[loop] : NULL;
}

/* Every name evaluates to 1: what fails is an atom the evaluator has no
 * rule for (a call, a load, a member `v->n`), as the runtime's check
 * (rt_facts_check) finds it when every symbol is given. */
static int any_name(void *ctx, const char *name, int64_t *value)
{
    (void)ctx;
    (void)name;
    *value = 1;
    return 1;
}

/* Why the runtime (and keel explain) cannot evaluate e: "" when it can. */
static void opaque_why(const kx_expr *e, const char *what, int line, char *why, size_t wl)
{
    char msg[256];
    int64_t v;
    why[0] = '\0';
    if (e && kx_eval(e, any_name, NULL, &v, msg, sizeof msg) != 0
        && strncmp(msg, "cannot evaluate ", 16) == 0) {
        char t[200];
        instrument_term_text(msg + 16, t, sizeof t);
        snprintf(why, wl, "the %s of the loop at line %d holds %s, which keel cannot evaluate",
                 what, line, t);
    }
}

/* Why keel gives no CPU/GPU verdict that follows the sizes of the nest
 * rooted at loop r, in one line; NULL when it gives one.  In this order:
 * a bound the runtime cannot evaluate (keel explain stops there), a
 * launch loop the runtime takes as not parallel (neither parallel nor a
 * time-stepped region: rt_facts_parallel) whose dependence verdict is
 * "unknown" (the verdict is then CPU by default, not an answer: an
 * unknown callee, a call that may write anything), a trip count that is
 * not known (the models assume 128 iterations). */
static char *nest_no_answer(const ir_tu *tu, const par_result *par, const launch_result *lr,
                            int r)
{
    char why[640] = "";
    int last = r;
    while (last + 1 < tu->nloops && tu->loops[last + 1].depth > tu->loops[r].depth)
        last++;
    for (int k = r; k <= last && !why[0]; k++) {
        opaque_why(tu->loops[k].trip, "trip count", tu->loops[k].line, why, sizeof why);
        if (!why[0])
            opaque_why(tu->loops[k].lower, "start", tu->loops[k].line, why, sizeof why);
    }
    int launches = lr && (lr->parallel[r] || lr->nests[r].region);
    if (!why[0] && par && !launches && par->loops[r].verdict == PAR_UNKNOWN)
        snprintf(why, sizeof why, "dependence unknown (%s): CPU by default",
                 par->loops[r].reason[0] ? par->loops[r].reason : "no reason given");
    for (int k = r; k <= last && !why[0]; k++)
        if (!tu->loops[k].trip)
            snprintf(why, sizeof why, "the trip count of the loop at line %d is not known"
                     " (the models assume 128 iterations)", tu->loops[k].line);
    return why[0] ? strdup(why) : NULL;
}

int store_analyse(const ir_tu *tu, store_analysis **out, char *err, size_t errlen)
{
    *out = NULL;
    kx_oom_take();       /* an expression that failed to grow is not "unknown" */
    store_analysis *a = calloc(1, sizeof *a);
    if (!a)
        return ku_fail(err, errlen, "out of memory");
    int n = tu->nloops;
    a->nloops = n;
    a->cls = calloc((size_t)n + 1, sizeof *a->cls);
    a->has_cls = calloc((size_t)n + 1, 1);
    a->counts = calloc(2 * (size_t)n + 1, sizeof *a->counts);
    int rc = !a->cls || !a->has_cls || !a->counts
                 ? ku_fail(err, errlen, "out of memory") : 0;
    /* IPDA failing leaves every loop `unknown` with the reason (one note);
     * the other analyses go on. */
    char perr[256], note[320];
    if (rc == 0 && par_analyze(tu, &a->par, perr, sizeof perr) != 0) {
        a->par = par_unknown(tu, perr);
        a->par_failed = 1;
        snprintf(note, sizeof note, "IPDA failed (%s): every loop stored as unknown", perr);
        if (!a->par || add_note(a, note) != 0)
            rc = ku_fail(err, errlen, "out of memory");
    }
    if (rc == 0)
        rc = launch_analyze(tu, a->par, &a->launch, err, errlen);
    if (rc == 0)
        rc = idiom_analyze(tu, &a->idioms, err, errlen);
    if (rc == 0 && !(a->no_answer = calloc((size_t)n + 1, sizeof *a->no_answer)))
        rc = (snprintf(err, errlen, "out of memory"), -1);
    for (int l = 0; l < n && rc == 0; l++)
        if (tu->loops[l].parent < 0)
            a->no_answer[l] = nest_no_answer(tu, a->par, a->launch, l);
    counts_memo memo = { 0 };   /* loop totals, each computed once */
    for (int l = 0; l < n && rc == 0; l++) {
        if (tu->loops[l].parent < 0) {
            /* a nest that cannot be classified keeps no class (one note) */
            int c = species_classify(tu, l, &a->cls[l]);
            if (c < 0) {
                snprintf(note, sizeof note, "line %d: the nest's algorithm class was not"
                         " computed (out of memory)", tu->loops[l].line);
                if (add_note(a, note) != 0)
                    rc = ku_fail(err, errlen, "out of memory");
            }
            a->has_cls[l] = c == 0;
        }
        for (int total = 0; total <= 1 && rc == 0; total++)
            if (counts_loop_compute_memo(tu, l, total, &a->counts[2 * l + total], &memo) != 0)
                rc = ku_fail(err, errlen, "out of memory");
    }
    counts_memo_free(&memo);
    if (kx_oom_take() && rc == 0)
        rc = ku_fail(err, errlen, "out of memory");
    if (rc != 0) {
        store_analysis_free(a);
        return -1;
    }
    *out = a;
    return 0;
}

/* ---- store: inside the TU's transaction ---------------------------------- */

/* Counts of loop l, one iteration and all iterations, and bytes per array
 * over all iterations. */
static int store_counts(db *d, const store_analysis *an, int l, int64_t loop_id,
                        char *err, size_t errlen)
{
    int rc = 0;
    for (int total = 0; total <= 1 && rc == 0; total++) {
        const counts_loop *c = &an->counts[2 * l + total];
        char *t[CNT_NFIXED];
        for (int k = 0; k < CNT_NFIXED; k++)
            t[k] = counts_q_print(&c->v[k]);
        char *intensity = counts_intensity(c);
        db_counts_row row = {
            .scope = total ? "total" : "iteration",
            .fadd = t[CNT_FADD], .fmul = t[CNT_FMUL], .fdiv = t[CNT_FDIV],
            .ffma = t[CNT_FFMA], .fmath = t[CNT_FMATH], .flops = t[CNT_FLOPS],
            .iops = t[CNT_IOPS], .loads = t[CNT_LOADS], .stores = t[CNT_STORES],
            .bytes_read = t[CNT_BYTES_READ], .bytes_written = t[CNT_BYTES_WRITTEN],
            .intensity = intensity,
            .reason = c->reason[0] ? c->reason : NULL,
        };
        rc = db_add_counts(d, loop_id, &row, err, errlen);
        for (int a = 0; total && rc == 0 && a < c->narrays; a++) {
            char *r = counts_q_print(&c->read[a]), *w = counts_q_print(&c->written[a]);
            db_footprint_row fr = { .array = c->arrays[a], .bytes_read = r, .bytes_written = w };
            rc = db_add_footprint(d, loop_id, &fr, err, errlen);
            free(r);
            free(w);
        }
        for (int k = 0; k < CNT_NFIXED; k++)
            free(t[k]);
        free(intensity);
    }
    return rc;
}

/* Idioms, classes and counts of every loop (analysis/idioms.c, species.c,
 * counts.c) into their tables and the loops' idioms / algorithm_class. */
static int store_analyses(db *d, const ir_tu *tu, const store_analysis *an,
                          const int64_t *loop_ids, char *err, size_t errlen)
{
    const idiom_result *ir = &an->idioms;
    int rc = 0;
    for (int i = 0; i < ir->n && rc == 0; i++) {
        const idiom_instance *in = &ir->v[i];
        const ir_stmt *st = &tu->loops[in->stmt_loop].stmts[in->stmt];
        char detail[96] = "";
        size_t len = 0;
        for (int k = 0; k < in->ndims && len < sizeof detail; k++)
            len += (size_t)snprintf(detail + len, sizeof detail - len, "%s%d",
                                    k ? "," : "radius=", in->radius[k]);
        db_idiom_row row = { .idiom = idiom_name(in->kind), .line = st->line, .col = st->col,
                             .code = st->text, .evidence = in->evidence,
                             .detail = in->ndims ? detail : NULL };
        rc = db_add_idiom(d, loop_ids[in->loop], &row, err, errlen);
    }
    for (int l = 0; l < tu->nloops && rc == 0; l++) {
        char *list = idiom_loop_list(ir, l);
        const species_class *sc = an->has_cls[l] ? &an->cls[l] : NULL;
        int oom = 0;
        char *rec = recur_loop_fact(tu, l, &oom);   /* recurrences carried (recur.h) */
        db_loop_facts f = { .recurrence = rec,
                            .idioms = list ? list : "",
                            .algorithm_class = sc ? sc->text : NULL,
                            .no_answer = an->no_answer ? an->no_answer[l] : NULL,
                            .site = an->site ? an->site[l] : NULL,
                            .site_why = an->site_why ? an->site_why[l] : NULL,
                            .offload = an->offload };
        rc = db_set_loop_facts(d, loop_ids[l], &f, err, errlen);
        if (rc == 0 && sc) {
            db_class_row cr = { .class_text = sc->text, .w = sc->w, .m = sc->m, .d = sc->d,
                                .c = sc->c, .u = sc->u, .f_complexity = sc->f_complexity };
            rc = db_set_class(d, loop_ids[l], &cr, err, errlen);
        }
        free(list);
        free(rec);
        if (rc == 0 && oom)
            rc = -1, snprintf(err, errlen, "out of memory");
        if (rc == 0)
            rc = store_counts(d, an, l, loop_ids[l], err, errlen);
    }
    return rc;
}

/* The runtime's launch facts (analysis/launch.h, db/db_launch.h): per loop
 * as a launch root its nest's mapping, per access its strides along every
 * enclosing loop, per statement its cost estimates.  stmt_ids / acc_ids in
 * IR order. */
static int store_launch(db *d, const launch_result *lr, const int64_t *loop_ids,
                        const int64_t *stmt_ids, const int64_t *acc_ids, char *err, size_t errlen)
{
    db_launch_writer *w;
    if (db_launch_writer_open(d, &w, err, errlen) != 0)
        return -1;
    int rc = 0;
    for (int root = 0; root < lr->nloops && rc == 0; root++) {
        const launch_nest *n = &lr->nests[root];
        rc = db_launch_add(w, loop_ids[root], n->region, n->omp_target, err, errlen);
        for (int i = 0; i < n->nroles && rc == 0; i++) {
            const launch_role *r = &n->roles[i];
            rc = db_launch_add_loop(w, loop_ids[root], loop_ids[r->loop], lr->parallel[r->loop],
                                    r->thread, r->kernel, err, errlen);
        }
    }
    for (int a = 0; a < lr->naccs && rc == 0; a++)
        for (int i = 0; i < lr->nstrides[a] && rc == 0; i++) {
            const launch_stride *s = &lr->strides[a][i];
            rc = db_launch_add_stride(w, acc_ids[a], loop_ids[s->loop], s->dim, s->stride,
                                      err, errlen);
        }
    for (int root = 0; root < lr->nloops && rc == 0; root++)
        for (int i = 0; i < lr->noverlap[root] && rc == 0; i++) {
            const launch_overlap *o = &lr->overlap[root][i];
            rc = db_launch_add_overlap(w, loop_ids[root], acc_ids[o->acc], o->base, o->offset,
                                       o->checkable, err, errlen);
        }
    for (int s = 0; s < lr->nstmts && rc == 0; s++)
        rc = db_launch_set_stmt_cost(w, stmt_ids[s], lr->costs[s].cycles, lr->costs[s].gpu_insts,
                                     lr->costs[s].flops, err, errlen);
    db_launch_writer_close(w);
    return rc;
}

static const char *kind_name(ir_loop_kind k)
{
    return k == IR_FOR ? "for" : k == IR_WHILE ? "while" : "do";
}

/* IPDA's verdicts (loop_dependences, loops.parallel), thread-loop
 * coalescing summaries (loops.coalescing) and per-access strides
 * (access_strides).  loop_ids / acc_ids are the database ids of the IR's
 * loops and of its accesses in IR order. */
static int store_parallel(db *d, const ir_tu *tu, const par_result *r, const int64_t *loop_ids,
                          const int64_t *acc_ids, char *err, size_t errlen)
{
    int rc = 0;
    for (int l = 0; l < r->nloops && rc == 0; l++) {
        const char *v = par_verdict_name(r->loops[l].verdict);
        db_loop_facts f = { .parallel = v, .coalescing = r->loops[l].coalescing,
                            .serial_why = r->loops[l].verdict == PAR_PARALLEL ? NULL
                                                                  : r->loops[l].reason };
        rc = db_set_loop_facts(d, loop_ids[l], &f, err, errlen);
        if (rc == 0)
            rc = db_add_dependence(d, loop_ids[l], v, r->loops[l].reason, err, errlen);
    }
    /* flat index of the first access of each loop's statements */
    int *first = calloc((size_t)tu->nloops + 1, sizeof *first);
    for (int l = 0, n = 0; first && l < tu->nloops; l++) {
        first[l] = n;
        for (int s = 0; s < tu->loops[l].nstmts; s++)
            n += tu->loops[l].stmts[s].nacc;
    }
    for (int i = 0; first && i < r->nstrides && rc == 0; i++) {
        const par_stride *ps = &r->strides[i];
        int flat = first[ps->loop];
        for (int s = 0; s < ps->stmt; s++)
            flat += tu->loops[ps->loop].stmts[s].nacc;
        flat += ps->acc;
        char *st = print_or_null(ps->stride), *in = print_or_null(ps->inner_stride);
        char *cls = par_class_text(ps->cls, ps->stride);
        char *icls = par_class_text(ps->inner_cls, ps->inner_stride);
        db_stride_row row = { .stride = st, .cls = cls ? cls : "irregular", .inner_stride = in,
                              .inner_cls = icls ? icls : "irregular",
                              .false_sharing = ps->false_sharing };
        rc = db_add_stride(d, acc_ids[flat], loop_ids[ps->thread_loop], &row, err, errlen);
        free(st);
        free(in);
        free(cls);
        free(icls);
    }
    if (!first && rc == 0)
        rc = ku_fail(err, errlen, "out of memory");
    free(first);
    return rc;
}

/* db/ copies only models of the format it names as current */
_Static_assert(NEST_PACK_VERSION == DB_NEST_MODEL_VERSION, "db/ and the model disagree");

/* llvm-mca's figures of one loop (db_mca_each) into its model loop. */
static int pack_mca(void *ctx, const db_mca_row *r)
{
    return nest_add_mca(ctx, r->target, r->ok, r->has_cycles_per_src_iter,
                        r->cycles_per_src_iter, r->src_iters_per_asm_iter,
                        r->figs.block_rthroughput) ? 1 : 0;
}

/* The head of the nest launched at loop_id: the launch loop's row as
 * stored (file, function, build hash, per-loop facts) and the nest's
 * idioms. */
static int pack_head(db *d, const nest_model *m, char *const *idioms, const int *ir_of,
                     nest_head *h, char *err, size_t errlen)
{
    db_loop_info *l = NULL;
    int r = db_get_loop(d, m->loops[0].id, &l, err, errlen);
    if (r != 0)
        return r < 0 ? -1 : ku_fail(err, errlen, "loop %lld vanished",
                                    (long long)m->loops[0].id);
    h->root = l->id;
    h->line = l->line;
    int oom = (l->file && !(h->file = strdup(l->file))) ||
              (l->function && !(h->function = strdup(l->function))) ||
              (l->tu_hash && !(h->hash = strdup(l->tu_hash)));
    h->fact_name = calloc(DB_NLOOP_FACTS, sizeof *h->fact_name);
    h->fact = calloc(DB_NLOOP_FACTS, sizeof *h->fact);
    oom |= !h->fact_name || !h->fact;
    for (int k = 0; !oom && k < DB_NLOOP_FACTS; k++)
        if (db_loop_fact(l, k)) {
            h->fact_name[h->nfacts] = strdup(db_loop_fact_names[k]);
            h->fact[h->nfacts] = strdup(db_loop_fact(l, k));
            oom |= !h->fact_name[h->nfacts] || !h->fact[h->nfacts];
            h->nfacts++;
        }
    db_free_loop(l);
    for (int k = 0; !oom && k < m->nloops; k++)
        oom |= nest_label_add(&h->label, idioms[ir_of[k]]) != 0;
    return oom ? ku_fail(err, errlen, "out of memory") : 0;
}

/* The model of the nest launched at IR loop `root` (nest_build.h), with
 * llvm-mca's figures just stored, as bytes in the database (table
 * nest_packs): what libkeelrt's database route and the link step load. */
static int pack_nest(db *d, const nest_build_in *in, char *const *idioms, int root,
                     char *err, size_t errlen)
{
    nest_model m;
    nest_head h = { 0 };
    ku_buf b = { 0 };
    int *ir_of = NULL;
    int rc = nest_build(in, root, &m, err, errlen);
    if (rc > 0) {             /* no model: the runtime reads the rows, and refuses them */
        nest_free(&m);
        return 0;
    }
    if (rc == 0 && !(ir_of = calloc((size_t)m.nloops + 1, sizeof *ir_of)))
        rc = ku_fail(err, errlen, "out of memory");
    for (int l = 0, k = 0; rc == 0 && l < in->tu->nloops && k < m.nloops; l++)
        for (int q = 0; q < m.nloops; q++)
            if (m.loops[q].id == in->loop_ids[l])
                ir_of[q] = l, k++;
    for (int k = 0; rc == 0 && k < m.nloops; k++) {
        int r = db_mca_each(d, m.loops[k].id, pack_mca, &m.loops[k], err, errlen);
        if (r != 0)
            rc = r < 0 ? -1 : ku_fail(err, errlen, "out of memory");
    }
    if (rc == 0)
        rc = pack_head(d, &m, idioms, ir_of, &h, err, errlen);
    if (rc == 0) {
        nest_encode(&h, &m, &b);
        rc = b.oom ? ku_fail(err, errlen, "out of memory")
                   : db_nest_put(d, in->loop_ids[root], b.s, b.len, err, errlen);
    }
    ku_buf_free(&b);
    free(ir_of);
    nest_head_free(&h);
    nest_free(&m);
    return rc;
}

/* The packed model of each launch site's nest (nest_pack.h, table
 * nest_packs: the outermost loops and the loops instrumented as sites),
 * built from the IR and the launch facts, llvm-mca's figures included. */
static int store_packs(db *d, const ir_tu *tu, const store_analysis *an,
                       const int64_t *loop_ids, const int64_t *stmt_ids,
                       const int64_t *acc_ids, char *err, size_t errlen)
{
    int n = tu->nloops, oom = 0, rc = 0;
    char **rec = calloc((size_t)n + 1, sizeof *rec);
    char **idioms = calloc((size_t)n + 1, sizeof *idioms);
    for (int l = 0; rec && idioms && l < n && !oom; l++) {
        rec[l] = recur_loop_fact(tu, l, &oom);
        idioms[l] = idiom_loop_list(&an->idioms, l);
        oom |= !idioms[l];
    }
    if (!rec || !idioms || oom)
        rc = ku_fail(err, errlen, "out of memory");
    nest_build_in in = { tu, an->launch, loop_ids, stmt_ids, acc_ids, (const char *const *)rec };
    for (int l = 0; l < n && rc == 0; l++) {
        const char *site = an->site ? an->site[l] : NULL;
        int is_site = site && (!strcmp(site, "call") || !strcmp(site, "clause"));
        if (tu->loops[l].parent < 0 || is_site)
            rc = pack_nest(d, &in, idioms, l, err, errlen);
    }
    for (int l = 0; l < n; l++) {
        if (rec)
            free(rec[l]);
        if (idioms)
            free(idioms[l]);
    }
    free(rec);
    free(idioms);
    return rc;
}

int store_tu(db *d, const ir_tu *tu, const db_tu_row *row, char *err, size_t errlen)
{
    store_analysis *an = NULL;
    if (tu && store_analyse(tu, &an, err, errlen) != 0)
        return -1;
    int rc = store_tu_with(d, tu, an, row, NULL, NULL, err, errlen);
    store_analysis_free(an);
    return rc;
}

int store_tu_with(db *d, const ir_tu *tu, const store_analysis *an, const db_tu_row *row,
                  store_hook hook, void *ctx, char *err, size_t errlen)
{
    /* the analyses that failed in part are the unit's message (status ok) */
    db_tu_row with = *row;
    ku_buf msg = { 0 };
    for (int k = 0; an && !row->message && k < an->nnotes; k++)
        ku_buf_printf(&msg, "%s%s", k ? "; " : "", an->notes[k]);
    if (msg.s)
        with.message = msg.s;
    int64_t tu_id;
    int begun = db_begin_tu(d, &with, &tu_id, err, errlen);
    ku_buf_free(&msg);
    if (begun != 0)
        return -1;
    int rc = 0;
    int64_t *func_ids = calloc((size_t)(tu ? tu->nfuncs : 0) + 1, sizeof *func_ids);
    int64_t *loop_ids = calloc((size_t)(tu ? tu->nloops : 0) + 1, sizeof *loop_ids);
    int nacc = 0, nstmt = 0;
    for (int i = 0; tu && i < tu->nloops; i++)
        for (int s = 0; s < tu->loops[i].nstmts; s++) {
            nacc += tu->loops[i].stmts[s].nacc;
            nstmt++;
        }
    int64_t *acc_ids = calloc((size_t)nacc + 1, sizeof *acc_ids);     /* IR order */
    int64_t *stmt_ids = calloc((size_t)nstmt + 1, sizeof *stmt_ids);  /* IR order */
    nacc = nstmt = 0;
    if (!func_ids || !loop_ids || !acc_ids || !stmt_ids) {
        rc = ku_fail(err, errlen, "out of memory");
    }
    for (int f = 0; tu && rc == 0 && f < tu->nfuncs; f++) {
        db_function_row fr = { .name = tu->funcs[f].name, .file = tu->funcs[f].file,
                               .line = tu->funcs[f].line, .col = tu->funcs[f].col };
        rc = db_add_function(d, tu_id, &fr, &func_ids[f], err, errlen);
    }
    for (int i = 0; tu && rc == 0 && i < tu->nloops; i++) {
        const ir_loop *l = &tu->loops[i];
        char *lower = print_or_null(l->lower), *upper = print_or_null(l->upper);
        char *trip = print_or_null(l->trip);
        char *pragmas = store_json_array(l->npragmas, l->pragmas);
        db_loop_row lr = {
            .parent_id = l->parent >= 0 ? loop_ids[l->parent] : 0,
            .file = l->file, .line = l->line, .col = l->col, .end_line = l->end_line,
            .depth = l->depth, .kind = kind_name(l->kind), .canonical = l->canonical,
            .iv = l->iv, .lower = lower, .upper = upper, .step = l->step, .trip = trip,
            .pragmas = pragmas,
            .gpu_map = l->gpu_map ? omp_map_role_name(l->gpu_map) : NULL,
            .gpu_collapse = l->gpu_collapse,
            .gpu_teams = l->gpu_teams,
            .gpu_threads = l->gpu_threads,
            .region_line = l->region_line,
            .n_if = l->n_if, .n_break = l->n_break, .n_continue = l->n_continue,
            .n_goto = l->n_goto, .n_return = l->n_return,
        };
        rc = db_add_loop(d, func_ids[l->function], &lr, &loop_ids[i], err, errlen);
        free(lower);
        free(upper);
        free(trip);
        free(pragmas);
        for (int s = 0; rc == 0 && s < l->nstmts; s++) {
            rc = store_stmt(d, loop_ids[i], &l->stmts[s], &stmt_ids[nstmt++], acc_ids + nacc,
                            err, errlen);
            nacc += l->stmts[s].nacc;
        }
    }
    if (tu && an && rc == 0)
        rc = store_parallel(d, tu, an->par, loop_ids, acc_ids, err, errlen);
    if (tu && an && rc == 0)
        rc = store_analyses(d, tu, an, loop_ids, err, errlen);
    if (tu && an && rc == 0)
        rc = store_launch(d, an->launch, loop_ids, stmt_ids, acc_ids, err, errlen);
    if (rc == 0 && hook)
        rc = hook(ctx, d, tu_id, loop_ids, err, errlen);
    if (tu && an && rc == 0)
        rc = store_packs(d, tu, an, loop_ids, stmt_ids, acc_ids, err, errlen);
    free(func_ids);
    free(loop_ids);
    free(acc_ids);
    free(stmt_ids);
    /* an expression that could not be printed would be stored as unknown */
    if (kx_oom_take() && rc == 0)
        rc = ku_fail(err, errlen, "out of memory");
    if (rc == 0)
        return db_commit_tu(d, err, errlen);
    db_rollback_tu(d);
    return -1;
}
