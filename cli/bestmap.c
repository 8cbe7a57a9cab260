/*
 * bestmap.c -- the best legal GPU mapping of a nest keel can see (see
 * bestmap.h): the chain of parallel loops under the launch loop, each of
 * them tried as the thread index through the runtime's own models, the
 * fastest one described as the change a port would make.
 */
#define _XOPEN_SOURCE 700

#include "bestmap.h"

#include "keel.h"
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
    int c[BESTMAP_CHAIN], nc = chain_of(&sh, c), best = -1;
    out->searched = 1;
    out->candidates = 1;
    for (int m = 0; m < nc; m++) {
        unsigned char thread[64] = { 0 };
        thread[c[m]] = 1;
        int same = 1;
        for (int k = 0; k < sh.n; k++)
            same &= (thread[k] != 0) == (sh.thread[k] != 0);
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
    out->line = sh.line[c[best]];
    char a[64], b[64], what[200], ia[48], ib[48], ta[32], tb[32], tc[32];
    iv_name(f, c[0], a, sizeof a);
    iv_name(f, c[best], b, sizeof b);
    if (best == 0)
        keel_fmtn(what, sizeof what, "map only the %s loop to GPU threads, the loops inside "
                 "it sequential in each thread", a);
    else if (best == 1)
        keel_fmtn(what, sizeof what, "collapse(2) the %s and %s loops", a, b);
    else {
        char mid[64];
        iv_name(f, c[1], mid, sizeof mid);
        keel_fmtn(what, sizeof what, "move the %s loop out to just inside %s (past %s%s), "
                 "then collapse(2) the %s and %s loops", b, a, mid, best > 2 ? " ..." : "",
                 a, b);
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
