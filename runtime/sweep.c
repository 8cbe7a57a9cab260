/*
 * sweep.c -- predictions of one nest over a range of problem sizes and its
 * CPU/GPU crossover (sweep.h).  The verdict rule is Chikin et al. IV.D:
 * the GPU wins when it is worth it, as in rt_estimate_all (gpu + transfer
 * below cpu by more than the launch and transfer time; "too small" when the
 * GPU is faster by less); a nest
 * without a parallel loop never goes to the GPU (keel_decide's rule).
 * A sweep of every symbol (`*`) scales the extents the trip counts grow
 * with; offsets keep their values (sweep_is_offset).
 */
#include "sweep.h"

#include "rt.h"   /* rt_format_time: the units of keel explain and KEEL_VERBOSE */
#include "expr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runtime binds facts for a chosen host, GPU and thread count where it
 * has rt_facts_bind_on (the traffic model of issue 12 needs their line,
 * sector and cache sizes; keel explain calls it); elsewhere rt_facts_bind.
 * Declared weak so that this file builds and agrees with keel explain on
 * either side of that change (facts.o, which defines both, is linked in
 * either way, for rt_facts_load). */
int rt_facts_bind_on(const rt_facts *f, const rt_profile *cpu, const rt_profile *gpu, int threads,
                     int n, const char *const *names, const long long *values, rt_launch *out,
                     char *err, size_t errlen) __attribute__((weak));

/* What `*` does not scale: an offset -- a symbol a trip count falls as it
 * grows (`ist` in `iend - ist + 1`, `lo` in `hi - lo`, `k` in `n - k`):
 * it keeps the value --set gives it, else SWEEP_OFFSET, so that sweeping
 * the extents never empties a loop.  Read from the trip counts' printed
 * form: a symbol with a negative coefficient in a term of degree one. */
enum { SWEEP_OFFSET = 1 };

static int sweep_is_offset(const rt_facts *f, const char *name)
{
    int nl = rt_facts_nloops(f), offset = 0;
    for (int k = 0; k < nl && !offset; k++) {
        rt_loop_view v;
        if (rt_facts_loop_view(f, k, &v) != 0)
            continue;
        char err[64];
        kx_expr *t = v.trip ? kx_parse(v.trip, err, sizeof err) : NULL;
        kx_expr *c = t && kx_degree(t, name) == 1 ? kx_coeff(t, name) : NULL;
        int64_t cv;
        offset = c && kx_is_const(c, &cv) && cv < 0;
        kx_free(c);
        kx_free(t);
        rt_facts_view_free(&v, NULL);
    }
    return offset;
}

int rt_sweep_at(const rt_facts *f, const rt_sweep *s, long long n, rt_sweep_point *out,
                char *err, size_t errlen)
{
    const char *const *need;
    int nneed = rt_facts_symbols(f, &need);
    int cap = s->nfixed + nneed + 1, k = 0;
    const char **names = calloc((size_t)cap, sizeof *names);
    long long *values = calloc((size_t)cap, sizeof *values);
    if (!names || !values) {
        free(names);
        free(values);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int all = strcmp(s->sym, "*") == 0;
    /* The fixed values first when sweeping every symbol (an offset given
     * with --set keeps its value), the swept ones first otherwise:
     * rt_facts_bind takes the first binding of a name. */
    if (all) {
        for (int i = 0; i < s->nfixed; i++) {
            names[k] = s->names[i];
            values[k++] = s->values[i];
        }
        for (int i = 0; i < nneed; i++) {
            names[k] = need[i];
            values[k++] = sweep_is_offset(f, need[i]) ? SWEEP_OFFSET : n;
        }
    } else {
        names[k] = s->sym;
        values[k++] = n;
    }
    for (int i = 0; i < s->nfixed && !all; i++) {
        names[k] = s->names[i];
        values[k++] = s->values[i];
    }
    rt_launch in;
    rt_estimate e;
    int rc = rt_facts_bind_on
           ? rt_facts_bind_on(f, s->host, s->gpu, s->threads, k, names, values, &in, err, errlen)
           : rt_facts_bind(f, k, names, values, &in, err, errlen);
    free(names);
    free(values);
    if (rc)
        return -1;
    if (s->threads_given)
        in.host_sequential = 0;
    if (s->offload)
        in.target_host_code = s->offload == 2;
    int wins = rt_estimate_all(s->host, s->threads, s->gpu, &in, &e);
    memset(out, 0, sizeof *out);
    out->n = n;
    out->cpu_s = e.cpu_s;
    out->gpu_s = e.gpu_s;
    out->xfer_s = e.xfer_s;
    out->flops = in.flops;
    out->bytes = in.bytes_in + in.bytes_out;
    out->items = in.work_items;
    out->not_parallel = in.not_parallel;
    out->serial = in.not_parallel ? rt_facts_serial_label(f) : NULL;
    out->gpu_wins = wins && !in.not_parallel;
    out->too_small = e.too_small && !in.not_parallel;
    return 0;
}

const char *rt_sweep_label(const rt_sweep_point *p)
{
    if (p->not_parallel) {
        const char *s = p->serial ? p->serial : "not parallel";
        return !strcmp(s, "reduction") ? "CPU (reduction)"
               : !strcmp(s, "sequential") ? "CPU (sequential)"
               : !strcmp(s, "unknown") ? "CPU (unknown)" : "CPU (not parallel)";
    }
    return p->gpu_wins ? "GPU"
           : p->too_small ? "CPU (too small)" : "CPU";
}

int rt_sweep_crossover(const rt_facts *f, const rt_sweep *s, long long lo, long long hi,
                       long long *n, char *err, size_t errlen)
{
    rt_sweep_point p;
    if (lo < 1)
        lo = 1;
    if (rt_sweep_at(f, s, lo, &p, err, errlen))
        return -1;
    *n = lo;
    if (p.gpu_wins)
        return 1;
    long long lose = lo, win = 0;
    for (long long v = lo; v < hi;) {
        v = v > hi / 2 ? hi : v * 2;
        char e2[256];
        if (rt_sweep_at(f, s, v, &p, e2, sizeof e2))
            break;          /* overflow: the last size evaluated stands */
        if (p.gpu_wins) {
            win = v;
            break;
        }
        lose = v;
    }
    if (!win) {
        *n = lose;
        return 0;
    }
    while (win - lose > 1) {        /* lose loses, win wins */
        long long mid = lose + (win - lose) / 2;
        char e2[256];
        if (rt_sweep_at(f, s, mid, &p, e2, sizeof e2) || !p.gpu_wins)
            lose = mid;
        else
            win = mid;
    }
    *n = win;
    return 1;
}

int rt_sweep_print(const rt_facts *f, rt_sweep *s, const char *spec, FILE *out,
                   char *err, size_t errlen)
{
    static char sym[128];
    const char *eq = strchr(spec, '='), *colon = eq ? strchr(eq, ':') : NULL;
    char *end1, *end2;
    long long lo = 0, hi = 0;
    if (eq && colon && eq > spec && (size_t)(eq - spec) < sizeof sym) {
        lo = strtoll(eq + 1, &end1, 0);
        hi = strtoll(colon + 1, &end2, 0);
        if (end1 != colon || *end2 || end2 == colon + 1)
            eq = NULL;
    }
    if (!eq || !colon || lo < 1 || hi < lo) {
        snprintf(err, errlen, "bad --sweep '%s' (want SYM=LO:HI, 1 <= LO <= HI; SYM * for every"
                 " symbol)", spec);
        return 2;
    }
    memcpy(sym, spec, (size_t)(eq - spec));
    sym[eq - spec] = 0;
    s->sym = sym;
    fprintf(out, "sweep       %s from %lld to %lld (%s)\n", sym, lo, hi,
            strcmp(sym, "*") == 0 ? "every needed symbol" : "other symbols as --set");
    fprintf(out, "%12s  %12s  %12s  %12s  %12s  %s\n", "N", "cpu", "gpu", "xfer", "gpu+xfer",
            "faster");
    for (long long v = lo;; v = v > hi / 2 ? hi : v * 2) {
        rt_sweep_point p;
        char c[32], g[32], x[32], t[32];
        if (rt_sweep_at(f, s, v, &p, err, errlen))
            return v == lo ? 1 : (fprintf(out, "%12lld  (%s)\n", v, err), 0);
        rt_format_time(c, sizeof c, p.cpu_s);
        rt_format_time(g, sizeof g, p.gpu_s);
        rt_format_time(x, sizeof x, p.xfer_s);
        rt_format_time(t, sizeof t, p.gpu_s + p.xfer_s);
        fprintf(out, "%12lld  %12s  %12s  %12s  %12s  %s\n", v, c, g, x, t,
                rt_sweep_label(&p));
        if (v >= hi)
            break;
    }
    long long n;
    int r = rt_sweep_crossover(f, s, lo, hi, &n, err, errlen);
    if (r < 0)
        return 1;
    if (r)
        fprintf(out, "crossover   %s = %lld: the smallest size in %lld:%lld at which %s (with"
                " transfers) beats %s\n", sym, n, lo, hi, s->gpu->name, s->host->name);
    else
        fprintf(out, "crossover   never in %lld:%lld (%s stays faster than %s)\n", lo, hi,
                s->host->name, s->gpu->name);
    return 0;
}
