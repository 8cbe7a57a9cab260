/*
 * rank.c -- the ranking of nests by the time porting them would save
 * (rank.h), shared by `keel report` and `keel report --html`.
 *
 * Per nest: load its facts (runtime/facts.h), evaluate the models at the
 * logged launch sizes (db_report_launch_sizes) or at the given size
 * (runtime/sweep.h), find its crossover, and name the reason when the GPU
 * does not win (keel_why).  The reasons are checked in a fixed order: a
 * reason keelcc stored (stored_reason, the hook for unknown callees,
 * synchronisation, skipped nests), no launch facts, not parallel, a size
 * that cannot be evaluated, then the models' answer (CPU faster at every
 * size, or the sizes are below the crossover).  Beside it, for a parallel
 * nest, the best legal mapping keel sees at N and what to change to get it
 * (bestmap.h).
 */
#define _XOPEN_SOURCE 700

#include "rank.h"

#include "keel.h"

#include "bestmap.h"

#include "calib.h"
#include "db_report.h"
#include "facts.h"
#include "rt.h"
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define XOVER_HI (1LL << 20)
#define MAXSIZES 64             /* distinct launch sizes evaluated per nest */

static const char *const why_names[KEEL_WHY_COUNT] = {
    [KEEL_WHY_NONE] = "gpu-wins",
    [KEEL_WHY_CPU_FASTER] = "cpu-faster",
    [KEEL_WHY_TOO_SMALL] = "too-small",
    [KEEL_WHY_NOT_PARALLEL] = "not-parallel",
    [KEEL_WHY_NOT_EVALUABLE] = "not-evaluable",
    [KEEL_WHY_NO_FACTS] = "no-facts",
    [KEEL_WHY_UNKNOWN_CALLEE] = "unknown-callee",
    [KEEL_WHY_SYNC] = "synchronisation",
    [KEEL_WHY_SKIPPED] = "skipped",
};

static const char *const why_texts[KEEL_WHY_COUNT] = {
    [KEEL_WHY_NONE] = "",
    [KEEL_WHY_CPU_FASTER] = "the CPU is faster at every size up to 2^20",
    [KEEL_WHY_TOO_SMALL] = "too small",
    [KEEL_WHY_NOT_PARALLEL] = "not parallel",
    [KEEL_WHY_NOT_EVALUABLE] = "size not evaluable",
    [KEEL_WHY_NO_FACTS] = "no GPU verdict possible",
    [KEEL_WHY_UNKNOWN_CALLEE] = "unknown callee",
    [KEEL_WHY_SYNC] = "synchronisation",
    [KEEL_WHY_SKIPPED] = "skipped",
};

const char *keel_why_name(keel_why w)
{
    return w >= 0 && w < KEEL_WHY_COUNT ? why_names[w] : "?";
}

void keel_why_text(const keel_rank_nest *n, char *buf, size_t len)
{
    const char *t = n->why >= 0 && n->why < KEEL_WHY_COUNT ? why_texts[n->why] : "?";
    if (n->why == KEEL_WHY_NONE)
        keel_fmtn(buf, len, "%s", "");
    else if (n->detail[0])
        keel_fmtn(buf, len, "%s: %s", t, n->detail);
    else
        keel_fmtn(buf, len, "%s", t);
}

const char *keel_rank_verdict(const keel_rank_nest *n)
{
    if (n->why == KEEL_WHY_NONE)
        return "GPU";
    int known_cpu = n->why == KEEL_WHY_NOT_PARALLEL || n->why == KEEL_WHY_SYNC
                    || n->why == KEEL_WHY_UNKNOWN_CALLEE;
    return n->evaluated || known_cpu ? "CPU" : "unknown";
}

/* The hook for reasons keelcc stores with a nest (an unknown callee, a
 * synchronisation, a nest too small to launch, a nest it skipped): set
 * *detail and return the reason, or KEEL_WHY_NONE when none is stored.
  * Unknown callees and synchronisation arrive as the dependence reason of a
 * nest that is not parallel (why_of_dependence); a table of reasons of
 * their own (too small at compile time, skipped nests) would plug in here,
 * and the rest of the ranking (order, text, JSON, HTML) follows. */
static keel_why stored_reason(db *d, int64_t loop_id, char *detail, size_t len)
{
    (void)d, (void)loop_id, (void)detail, (void)len;
    return KEEL_WHY_NONE;
}

/* ---- nests ---------------------------------------------------------------- */

typedef struct {
    keel_ranking *r;
    int failed;
} collect_ctx;

static char *dupz(const char *s)
{
    return strdup(s ? s : "");
}

/* An outermost loop starts a nest; deeper rows belong to the one before
 * (html.c numbers its nest tables the same way). */
static int collect(void *ctx, const db_loop_summary *s)
{
    collect_ctx *c = ctx;
    keel_ranking *r = c->r;
    if (s->depth == 0 || r->n == 0) {
        keel_rank_nest *n = ku_push(&r->v, &r->n, sizeof *r->v);
        if (!n || !(n->file = dupz(s->file)) || !(n->function = dupz(s->function))
            || !(n->idioms = dupz(s->idioms))) {
            c->failed = 1;
            return 1;
        }
        const char *f[3] = { s->fact[DB_LOOP_FACT_site], s->fact[DB_LOOP_FACT_site_why],
                             s->fact[DB_LOOP_FACT_no_answer] };
        char **to[3] = { &n->site, &n->site_why, &n->no_answer };
        for (int k = 0; k < 3; k++)
            if (f[k] && !(*to[k] = strdup(f[k]))) {
                c->failed = 1;
                return 1;
            }
        n->num = r->n;
        n->loop_id = s->loop_id;
        n->line = s->line;
        n->col = s->col;
        n->xover_status = -1;
        n->why = KEEL_WHY_NO_FACTS;
    } else if (s->idioms && s->idioms[0]) {   /* the nest's idioms, each once */
        keel_rank_nest *n = &r->v[r->n - 1];
        const char *p = s->idioms;
        while (*p) {
            size_t k = strcspn(p, ",");
            int seen = 0;
            for (const char *q = n->idioms; !seen && *q;) {
                size_t m = strcspn(q, ",");
                seen = m == k && strncmp(q, p, k) == 0;
                q += m + (q[m] == ',');
            }
            if (!seen) {
                size_t old = strlen(n->idioms);
                char *w = realloc(n->idioms, old + k + 2);
                if (!w) {
                    c->failed = 1;
                    return 1;
                }
                keel_fmtn(w + old, k + 2, "%s%.*s", old ? "," : "", (int)k, p);
                n->idioms = w;
            }
            p += k + (p[k] == ',');
        }
    }
    r->v[r->n - 1].nloops++;
    return 0;
}

/* ---- evaluation ----------------------------------------------------------- */

typedef struct {
    const rt_facts *f;
    const rt_sweep *s;
    keel_rank_nest *n;
    int failed;                 /* a size could not be evaluated: n->detail says */
} launch_ctx;

/* "n=2000,m=5" into names and values (at most 32); the count, -1 when the
 * text is not such a list. */
static int split_bindings(const char *b, char *buf, size_t len, const char **names,
                          long long *values)
{
    keel_fmtn(buf, len, "%s", b ? b : "");
    int k = 0;
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(t, '='), *end;
        if (!eq || eq == t || k == 32)
            return -1;
        *eq = 0;
        values[k] = strtoll(eq + 1, &end, 10);
        if (*end || end == eq + 1)
            return -1;
        names[k++] = t;
    }
    return k;
}

static int launch_size(void *ctx, const char *bindings, long long count)
{
    launch_ctx *c = ctx;
    char buf[1024], err[256];
    const char *names[32];
    long long values[32];
    int k = split_bindings(bindings, buf, sizeof buf, names, values);
    if (k < 1) {
        keel_fmtn(c->n->detail, sizeof c->n->detail, "logged sizes '%s' unreadable",
                  keel_printable(bindings ? bindings : ""));
        c->failed = 1;
        return 1;
    }
    rt_sweep s = *c->s;
    s.sym = names[0];
    s.nfixed = k - 1;
    s.names = names + 1;
    s.values = values + 1;
    rt_sweep_point p;
    if (rt_sweep_at(c->f, &s, values[0], &p, err, sizeof err)) {
        keel_fmtn(c->n->detail, sizeof c->n->detail, "%s (at %s)", err, bindings);
        c->failed = 1;
        return 1;
    }
    keel_rank_nest *n = c->n;
    n->launches += (int)count;
    n->cpu_s += count * p.cpu_s;
    n->gpu_s += count * p.gpu_s;
    n->xfer_s += count * p.xfer_s;
    if (p.gpu_wins) {
        n->gpu_launches += (int)count;
        n->save_s += count * (p.cpu_s - p.gpu_s - p.xfer_s);
    }
    return 0;
}

/* The first dependence reason stored for a loop of the nest that is not
 * parallel, the outermost first. */
static void dependence_detail(db *d, const keel_rank_nest *n, const rt_facts *f, char *buf,
                              size_t len)
{
    buf[0] = 0;
    int nl = rt_facts_nloops(f);
    for (int k = 0; k < nl && !buf[0]; k++) {
        rt_loop_view v;
        if (rt_facts_loop_view(f, k, &v))
            continue;
        char *verdict = NULL, *reason = NULL, err[128];
        if (db_get_dependence(d, v.id, &verdict, &reason, err, sizeof err) == 0 && verdict
            && strcmp(verdict, "parallel") && strcmp(verdict, "reduction") && reason && reason[0])
            keel_fmtn(buf, len, "line %d: %s", v.line, reason);
        free(verdict);
        free(reason);
        rt_facts_view_free(&v, NULL);
    }
    if (!buf[0])
        keel_fmtn(buf, len, "no loop of the nest at line %d is proven parallel", n->line);
}

/* What keeps a nest that is not parallel off the GPU, from the dependence
 * reason keelcc stored (analysis/sync.c, analysis/parallel.c write them:
 * "synchronisation: omp flush(flag) (line 229)", "calls f (line 12)",
 * "cost of callee f (line 12) unknown: not defined in this source"). */
static keel_why why_of_dependence(const char *detail)
{
    if (strstr(detail, ": synchronisation: "))
        return KEEL_WHY_SYNC;
    if (strstr(detail, ": calls ") || strstr(detail, ": cost of callee "))
        return KEEL_WHY_UNKNOWN_CALLEE;
    return KEEL_WHY_NOT_PARALLEL;
}

static void evaluate(db *d, const keel_rank_opts *o, keel_rank_nest *n)
{
    char err[256];
    rt_facts *f = NULL;
    int rc = rt_facts_load(d, n->file, n->line, n->col, &f, err, sizeof err);
    keel_why stored = stored_reason(d, n->loop_id, n->detail, sizeof n->detail);
    if (rc != 0) {
        if (stored == KEEL_WHY_NONE) {
            n->why = KEEL_WHY_NO_FACTS;
            keel_fmtn(n->detail, sizeof n->detail, "%s", rc == 1 ? "no launch facts" : err);
        } else
            n->why = stored;
        rt_facts_free(f);
        return;
    }
    const char *const *need;
    n->nneed = rt_facts_symbols(f, &need);
    rt_sweep s = { .host = o->host, .gpu = o->gpu, .threads = o->threads,
                   .threads_given = o->threads_given, .sym = "*" };
    int64_t launch_id = rt_facts_loop_id(f);
    n->logged = db_report_decision_count(d, launch_id, NULL);
    launch_ctx c = { .f = f, .s = &s, .n = n };
    if (n->logged > 0)
        db_report_launch_sizes(d, launch_id, MAXSIZES, launch_size, &c);
    if (c.failed || n->launches == 0) {
        /* nothing logged (or a logged size the models cannot take): at N */
        int failed = c.failed;
        n->launches = n->gpu_launches = 0;
        n->cpu_s = n->gpu_s = n->xfer_s = n->save_s = 0;
        rt_sweep_point p;
        if (rt_sweep_at(f, &s, o->size, &p, err, sizeof err) == 0) {
            n->size = o->size;
            n->cpu_s = p.cpu_s;
            n->gpu_s = p.gpu_s;
            n->xfer_s = p.xfer_s;
            n->gpu_launches = p.gpu_wins;
            n->save_s = p.gpu_wins ? p.cpu_s - p.gpu_s - p.xfer_s : 0;
            n->evaluated = !failed;
        } else if (!failed)
            keel_fmtn(n->detail, sizeof n->detail, "%s", err);
        if (failed)
            n->evaluated = 0;
    } else
        n->evaluated = 1;
    n->xover_status = rt_sweep_crossover(f, &s, 1, XOVER_HI, &n->xover, err, sizeof err);
    /* what a good port would give, at N (bestmap.h) */
    keel_bestmap bm;
    if (stored == KEEL_WHY_NONE && rt_facts_parallel(f)
        && keel_bestmap_find(d, f, &s, o->size, &bm, err, sizeof err) == 0 && bm.searched) {
        n->port_better = bm.better;
        n->port_gpu_s = bm.gpu_best_s;
        if (bm.better)
            keel_fmtn(n->port, sizeof n->port, "%s", bm.change);
    }

    if (stored != KEEL_WHY_NONE) {
        n->why = stored;
        n->save_s = 0;
    } else if (!rt_facts_parallel(f)) {
        n->save_s = 0;
        dependence_detail(d, n, f, n->detail, sizeof n->detail);
        n->why = why_of_dependence(n->detail);
    } else if (!n->evaluated) {
        n->why = KEEL_WHY_NOT_EVALUABLE;     /* detail: the models' message */
        n->save_s = 0;
    } else if (n->save_s > 0) {
        n->why = KEEL_WHY_NONE;
        n->detail[0] = 0;
    } else if (n->xover_status == 1) {
        n->why = KEEL_WHY_TOO_SMALL;
        if (n->nneed == 0)
            keel_fmtn(n->detail, sizeof n->detail, "fixed sizes");
        else
            keel_fmtn(n->detail, sizeof n->detail, "the GPU wins from N=%lld%s", n->xover,
                      n->launches ? ", above the logged sizes" : "");
    } else {
        n->why = KEEL_WHY_CPU_FASTER;
        if (n->nneed == 0)
            keel_fmtn(n->detail, sizeof n->detail, "fixed sizes");
    }
    rt_facts_free(f);
}

void keel_rank_xover_text(const keel_rank_nest *n, char *b, size_t len)
{
    if (n->why == KEEL_WHY_NOT_PARALLEL)
        keel_fmtn(b, len, "never");
    else if (n->xover_status < 0)
        keel_fmtn(b, len, "-");
    else if (n->nneed == 0)
        keel_fmtn(b, len, n->xover_status ? "GPU" : "never");
    else if (n->xover_status == 1)
        keel_fmtn(b, len, "%lld", n->xover);
    else
        keel_fmtn(b, len, "never");
}

void keel_rank_basis_text(const keel_rank_nest *n, char *b, size_t len)
{
    if (n->launches)
        keel_fmtn(b, len, "%d launch%s", n->launches, n->launches == 1 ? "" : "es");
    else if (!n->size)
        keel_fmtn(b, len, "-");
    else if (n->nneed == 0)
        keel_fmtn(b, len, "fixed sizes");
    else
        keel_fmtn(b, len, "N=%lld", n->size);
}

/* The predicted times of a nest as text ("-" where there are none). */
void keel_rank_times_text(const keel_rank_nest *n, char *cpu, char *gpu, char *save, size_t len)
{
    int have = n->launches || n->size;
    if (have && (n->evaluated || n->cpu_s > 0))
        rt_format_time(cpu, len, n->cpu_s);
    else
        keel_fmtn(cpu, len, "-");
    if (have && (n->evaluated || n->cpu_s > 0) && n->why != KEEL_WHY_NOT_PARALLEL)
        rt_format_time(gpu, len, n->gpu_s + n->xfer_s);
    else
        keel_fmtn(gpu, len, "-");
    if (n->save_s > 0)
        rt_format_time(save, len, n->save_s);
    else
        keel_fmtn(save, len, "-");
}

static int by_rank(const void *a, const void *b)
{
    const keel_rank_nest *x = a, *y = b;
    if ((x->launches > 0) != (y->launches > 0))
        return x->launches > 0 ? -1 : 1;
    if (x->save_s != y->save_s)
        return x->save_s > y->save_s ? -1 : 1;
    if (x->evaluated != y->evaluated)
        return x->evaluated ? -1 : 1;
    if (x->cpu_s != y->cpu_s)
        return x->cpu_s > y->cpu_s ? -1 : 1;
    return x->num - y->num;
}

int keel_rank(db *d, const keel_rank_opts *o, keel_ranking *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    collect_ctx c = { .r = out };
    db_loop_filter flt = { .file = o->file, .file_match = DB_FILE_SUFFIX };
    err[0] = 0;
    if (db_each_loop(d, &flt, collect, &c, err, errlen) != 0 || c.failed) {
        if (!err[0])
            keel_fmtn(err, errlen, "out of memory");
        keel_ranking_free(out);
        return -1;
    }
    for (int k = 0; k < out->n; k++) {
        evaluate(d, o, &out->v[k]);
        out->with_launches += out->v[k].launches > 0;
    }
    if (out->n > 1)
        qsort(out->v, (size_t)out->n, sizeof *out->v, by_rank);
    return 0;
}

void keel_ranking_free(keel_ranking *r)
{
    for (int k = 0; k < r->n; k++) {
        free(r->v[k].file);
        free(r->v[k].function);
        free(r->v[k].idioms);
        free(r->v[k].site);
        free(r->v[k].site_why);
        free(r->v[k].no_answer);
    }
    free(r->v);
    memset(r, 0, sizeof *r);
}

/* ---- profiles --------------------------------------------------------------- */

int keel_machines_pick(const char *dbpath, const char *devlist, const char *hostname,
                       int threads, keel_machines *m)
{
    memset(m, 0, sizeof *m);
    char *dl = strdup(devlist), *save = NULL;
    if (!dl)
        return keel_say(1, "out of memory");
    for (char *t = strtok_r(dl, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const rt_profile *p = rt_profile_find(t);
        if (!p || p->kind != RT_GPU) {
            keel_say(2, "no GPU profile '%s' (see keel devices)", keel_printable(t));
            free(dl);
            return 2;
        }
        if (m->ndev == KEEL_MAXDEV) {    /* one column each: a cap, said rather than cut */
            keel_say(2, "--device takes at most %d GPU profiles", KEEL_MAXDEV);
            free(dl);
            return 2;
        }
        m->gpus[m->ndev++] = p;
    }
    free(dl);
    if (m->ndev == 0)
        return keel_say(2, "--device needs at least one GPU profile");
    m->host = *rt_profile_host_default();
    if (hostname) {
        const rt_profile *hp = rt_profile_find(hostname);
        if (!hp || hp->kind != RT_CPU)
            return keel_say(2, "no CPU profile '%s' (see keel devices)", keel_printable(hostname));
        m->host = *hp;
        m->host_named = hp != rt_profile_host_default();  /* "host": calibrated, as no --host */
    }
    if (!m->host_named) {
        rt_calibration cal;
        char err[256];
        if (rt_calibration_load(dbpath, &cal, err, sizeof err) == 0)
            rt_profile_from_calibration(&cal, &m->host);
    }
    m->threads_given = threads > 0;
    m->threads = threads > 0 ? threads : m->host_named ? m->host.cores : rt_default_threads();
    return -1;
}
