/*
 * bestmap.c -- the best legal GPU mapping of a nest keel can see (see
 * bestmap.h): the chain of parallel loops under the launch loop, each of
 * them tried as the thread index, the first three collapsed with each one
 * innermost (the interchange that decides coalescing), and, where the
 * chain ends at a sequential loop whose scratch arrays carry its
 * dependences, the collapse a privatisation would allow, named as a
 * change; all through the runtime's own models, the fastest one described
 * as the change a port would make.
 */
#define _XOPEN_SOURCE 700

#include "bestmap.h"

#include "keel.h"
#include "loop_facts.h"
#include "rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BESTMAP_CHAIN 16
#define BESTMAP_GAIN 0.95     /* "better": at most 95% of the compiled mapping's time */

/* 65536 -> "65,536" */
static void group(char *b, size_t len, double v)
{
    char t[48];
    snprintf(t, sizeof t, "%.0f", v);
    size_t n = strlen(t), o = 0;
    for (size_t i = 0; i < n && o + 2 < len; i++) {
        b[o++] = t[i];
        if (t[i] != '-' && (n - 1 - i) % 3 == 0 && i + 1 < n)
            b[o++] = ',';
    }
    b[o] = '\0';
}

static const char *iv_name(const rt_facts *f, int k, char *buf, size_t len)
{
    const char *iv = rt_facts_loop_iv(f, k);
    rt_loop_view v;
    if (iv)
        snprintf(buf, len, "%s", iv);
    else if (rt_facts_loop_view(f, k, &v) == 0) {
        snprintf(buf, len, "line %d", v.line);
        rt_facts_view_free(&v, NULL);
    } else
        snprintf(buf, len, "?");
    return buf;
}

/* The nest's loops: depth, parallel, thread (views), -1 on failure. */
typedef struct {
    int n;
    int depth[64], parallel[64], thread[64], kernel[64], line[64], col[64];
} shape_t;

static int shape_of(const rt_facts *f, shape_t *s)
{
    s->n = rt_facts_nloops(f);
    if (s->n > 64)
        return -1;
    for (int k = 0; k < s->n; k++) {
        rt_loop_view v;
        if (rt_facts_loop_view(f, k, &v))
            return -1;
        s->depth[k] = v.depth;
        s->parallel[k] = v.parallel;
        s->thread[k] = v.thread;
        s->kernel[k] = v.kernel;
        s->line[k] = v.line;
        s->col[k] = v.col;
        rt_facts_view_free(&v, NULL);
    }
    return 0;
}

/* The chain: loop 0, then the only loop directly inside the last one while
 * it is parallel. */
static int chain_of(const shape_t *s, int *c)
{
    int m = 0, k = 0;
    c[m++] = 0;
    while (m < BESTMAP_CHAIN) {
        int child = -1, nchild = 0;
        for (int j = k + 1; j < s->n && s->depth[j] > s->depth[k]; j++)
            if (s->depth[j] == s->depth[k] + 1) {
                child = j;
                nchild++;
            }
        if (nchild != 1 || !s->parallel[child])
            break;
        c[m++] = k = child;
    }
    return m;
}

/* One candidate mapping of the chain c[0..]: the loops c[0..g-1] collapsed
 * (g = 1: c[0] alone; g = 2 with `moved` > 1: c[0] and c[moved], the loop
 * moved out first), the fastest-varying index c[fast] of the space (the
 * innermost collapsed loop as written, or another after an interchange).
 * Every loop of the chain is parallel, so every such order is legal. */
typedef struct {
    int g, moved, fast;
    int priv;                 /* c[g-1] is sequential: its scratch arrays privatised first */
} cand_t;

static int cand_list(int nc, cand_t *v, int cap)
{
    int n = 0;
    for (int m = 0; m < nc && n < cap; m++)          /* c[0] with c[m] (m = 0: alone) */
        v[n++] = (cand_t){ m == 0 ? 1 : 2, m, m, 0 };
    if (nc >= 2 && n < cap)                          /* collapse(2), c[0] fastest */
        v[n++] = (cand_t){ 2, 1, 0, 0 };
    for (int f = 2; nc >= 3 && f >= 0 && n < cap; f--) /* collapse(3), each one fastest */
        v[n++] = (cand_t){ 3, 0, f, 0 };
    return n;
}

static void cand_threads(const cand_t *cd, const int *c, unsigned char *thread)
{
    if (cd->g == 1)
        thread[c[0]] = RT_REMAP_THREAD;
    else if (cd->g == 2)
        thread[c[cd->moved]] = RT_REMAP_THREAD;
    else
        for (int m = 1; m < cd->g; m++)
            thread[c[m]] = RT_REMAP_THREAD;
    /* an interchange: the fastest index is not the innermost as written */
    int inner = cd->g == 1 ? 0 : cd->g == 2 ? cd->moved : cd->g - 1;
    if (cd->fast != inner)
        thread[c[cd->fast]] |= RT_REMAP_FASTEST;
}

/* The change, in words. */
static void cand_words(const rt_facts *f, const int *c, const cand_t *cd,
                       const char *scratch_names, char *what, size_t len)
{
    char a[64], b[64], m1[64], fa[64];
    iv_name(f, c[0], a, sizeof a);
    iv_name(f, c[cd->fast], fa, sizeof fa);
    if (cd->g == 1) {
        keel_fmtn(what, len, "map only the %s loop to GPU threads, the loops inside it "
                 "sequential in each thread", a);
        return;
    }
    iv_name(f, c[1], m1, sizeof m1);
    if (cd->priv) {
        char l[64], head[200];
        iv_name(f, c[cd->g - 1], l, sizeof l);
        if (cd->g == 2)
            keel_fmtn(head, sizeof head, "collapse(2) the %s and %s loops", a, l);
        else
            keel_fmtn(head, sizeof head, "collapse(%d) the loops from %s to %s", cd->g, a, l);
        keel_fmtn(what, len, "privatise %s per %s iteration (written first in every iteration, "
                 "at subscripts that do not move with %s: declare them inside the %s loop), "
                 "then, if keel finds %s parallel, %s", scratch_names, l, l, l, l, head);
        return;
    }
    if (cd->g == 2 && cd->moved == 1 && cd->fast == 1)
        keel_fmtn(what, len, "collapse(2) the %s and %s loops", a, m1);
    else if (cd->g == 2 && cd->moved == 1)
        keel_fmtn(what, len, "interchange the %s and %s loops, then collapse(2) them "
                 "(%s innermost: consecutive threads step along it)", a, m1, fa);
    else if (cd->g == 2) {
        iv_name(f, c[cd->moved], b, sizeof b);
        keel_fmtn(what, len, "move the %s loop out to just inside %s (past %s%s), "
                 "then collapse(2) the %s and %s loops", b, a, m1, cd->moved > 2 ? " ..." : "",
                 a, b);
    } else {
        iv_name(f, c[2], b, sizeof b);
        if (cd->fast == 2)
            keel_fmtn(what, len, "collapse(3) the %s, %s and %s loops", a, m1, b);
        else
            keel_fmtn(what, len, "reorder the %s, %s and %s loops so that %s is innermost "
                     "(consecutive threads step along it), then collapse(3) them", a, m1, b, fa);
    }
}

int keel_bestmap_find(db *d, const rt_facts *f, const rt_sweep *s, long long n,
                      keel_bestmap *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    rt_sweep_point p0;
    if (rt_sweep_at(f, s, n, &p0, err, errlen))
        return -1;
    out->cpu_s = p0.cpu_s;
    out->xfer_s = p0.xfer_s;
    out->items_as = out->items_best = p0.items;
    out->gpu_as_s = out->gpu_best_s = p0.gpu_s;
    shape_t sh = { 0 };
    if (shape_of(f, &sh)) {
        keel_fmtn(out->change, sizeof out->change, "not searched (more than 64 loops)");
        return 0;
    }
    int region = 0;
    for (int k = 0; k < sh.n; k++)
        region |= sh.kernel[k];
    if (p0.not_parallel || !sh.parallel[0] || region) {
        keel_fmtn(out->change, sizeof out->change, "not searched (%s)",
                 region ? "a time-stepped region" : "the launch loop is not parallel");
        return 0;
    }
    int c[BESTMAP_CHAIN + 1], nc = chain_of(&sh, c), best = -1;
    cand_t cands[BESTMAP_CHAIN + 5];
    int ncand = cand_list(nc, cands, BESTMAP_CHAIN + 4);
    /* the chain ends at a sequential loop L, the only one inside its last
     * loop, whose scratch arrays (written first in every iteration of L,
     * at subscripts that do not move with it) carry dependences across
     * L's iterations: privatising them is a change to name, with what
     * the collapse would give if L is then parallel -- not assumed */
    char scratch[160] = "", why[200] = "";
    int L = -1;
    if (nc < BESTMAP_CHAIN) {
        int e = c[nc - 1], nchild = 0;
        for (int j = e + 1; j < sh.n && sh.depth[j] > sh.depth[e]; j++)
            if (sh.depth[j] == sh.depth[e] + 1)
                L = j, nchild++;
        if (nchild != 1 || sh.parallel[L] || rt_facts_scratch_arrays(f, L, scratch, sizeof scratch) == 0)
            L = -1;
    }
    if (L >= 0) {
        rt_facts *g = NULL;
        char e2[128];
        if (rt_facts_load(d, rt_facts_file(f), sh.line[L], sh.col[L], &g, e2, sizeof e2) == 0) {
            const char *w = rt_facts_fact(g, DB_LOOP_FACT_serial_why);
            keel_fmtn(why, sizeof why, "%s", w ? w : "");
        }
        rt_facts_free(g);
        c[nc] = L;
        cands[ncand++] = (cand_t){ nc + 1, nc == 1 ? 1 : 0, nc, 1 };
    }
    out->searched = 1;
    out->candidates = 1;
    for (int m = 0; m < ncand; m++) {
        unsigned char thread[64] = { 0 };
        cand_threads(&cands[m], c, thread);
        int same = 1;
        for (int k = 0; k < sh.n; k++)
            same &= (thread[k] == RT_REMAP_THREAD) == (sh.thread[k] != 0)
                    && !(thread[k] & RT_REMAP_FASTEST);
        if (same)
            continue;
        rt_facts *g = NULL;
        char e2[256];
        if (rt_facts_load(d, rt_facts_file(f), sh.line[0], sh.col[0], &g, e2, sizeof e2) != 0
            || rt_facts_remap(g, thread, e2, sizeof e2) != 0) {
            rt_facts_free(g);
            continue;
        }
        rt_sweep_point p;
        if (rt_sweep_at(g, s, n, &p, e2, sizeof e2) == 0) {
            out->candidates++;
            if (p.gpu_s < out->gpu_best_s) {
                out->gpu_best_s = p.gpu_s;
                out->items_best = p.items;
                best = m;
            }
        }
        rt_facts_free(g);
    }
    if (best < 0 || out->gpu_best_s > BESTMAP_GAIN * out->gpu_as_s) {
        out->gpu_best_s = out->gpu_as_s;
        out->items_best = out->items_as;
        keel_fmtn(out->change, sizeof out->change, "as compiled (%d legal mapping%s seen, "
                 "none faster)", out->candidates, out->candidates == 1 ? "" : "s");
        return 0;
    }
    out->better = 1;
    const cand_t *cb = &cands[best];
    out->line = sh.line[c[cb->g == 2 ? cb->moved : cb->g == 1 ? 0 : cb->g - 1]];
    out->collapse = cb->g;
    out->fast_line = sh.line[c[cb->fast]];
    char what[400], ia[48], ib[48], ta[32], tb[32], tc[32];
    cand_words(f, c, cb, scratch, what, sizeof what);
    if (cb->priv) {
        keel_fmtn(out->privatise, sizeof out->privatise, "%s", scratch);
        keel_fmtn(out->serial_why, sizeof out->serial_why, "%s", why);
    }
    group(ia, sizeof ia, out->items_best);
    group(ib, sizeof ib, out->items_as);
    rt_format_time(ta, sizeof ta, out->gpu_best_s);
    rt_format_time(tb, sizeof tb, out->gpu_as_s);
    rt_format_time(tc, sizeof tc, out->cpu_s);
    int wins = out->gpu_best_s + out->xfer_s < out->cpu_s
               && out->gpu_as_s + out->xfer_s >= out->cpu_s;
    keel_fmtn(out->change, sizeof out->change, "%s: %s threads instead of %s; GPU %s instead "
             "of %s%s%s%s", what, ia, ib, ta, tb, wins ? " (then the GPU wins: cpu " : "",
             wins ? tc : "", wins ? ")" : "");
    return 0;
}
