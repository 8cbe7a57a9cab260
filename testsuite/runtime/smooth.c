/*
 * smooth.c -- predicted times have no cliffs: a property over sizes and
 * thread counts, on nests keelcc stored (smooth.sh builds them).
 *
 * For each nest (FILE-SUFFIX:LINE), each host profile (the built-ins and
 * two with a calibration's per-pattern table, which brings in the
 * cache-level term, one of them with a thread curve) and each GPU profile, the CPU time and the GPU time (+ transfer) are evaluated with
 * every needed symbol at n (rt_sweep_at, as `keel explain --sweep '*=..'`),
 * and the GPU kernel time alone,
 * on a grid of four points per octave, n = 16 .. 8192, and compared with
 * the value at 2n:
 *   - the time per unit of work (the launch's flops; its footprint when it
 *     has none) grows by at most 4x: a doubling of the size may not cost
 *     more than 4 times what the work alone explains (a cache or L2
 *     capacity taken as a step shows as 5-40x);
 *   - the time itself never drops below a quarter (more work is not less
 *     time).
 * Over thread counts 1, 2, 4 .. 256 (host run in parallel whatever the
 * pragmas, as `keel explain --threads`) at fixed sizes, the CPU time of T
 * and 2T threads are within 4x of each other either way.
 * Every violation is printed with its numbers; exit 1 on any.  Nothing is
 * timed: the values are the models' own, exact for the stored facts.
 *
 *   smooth DB [--quiet]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "facts.h"
#include "model.h"
#include "sweep.h"

typedef struct {
    char file[4096];
    int line;
    const char *suffix;
    int want_line;
} find_ctx;

static int find_row(void *vctx, const db_loop_summary *r)
{
    find_ctx *c = vctx;
    size_t n = strlen(r->file), m = strlen(c->suffix);
    if (r->depth == 0 && r->line == c->want_line && n >= m && !strcmp(r->file + n - m, c->suffix)) {
        snprintf(c->file, sizeof c->file, "%s", r->file);
        c->line = r->line;
    }
    return 0;
}

static int bad;

static void fail(const char *what, const char *nest, const char *host, const char *gpu,
                 double a, double b, double va, double vb)
{
    printf("CLIFF %s %s host %s gpu %s: %.6g -> %.6g (%.6g s -> %.6g s)\n", what, nest, host, gpu,
           a, b, va, vb);
    bad++;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: smooth DB\n");
        return 2;
    }
    static const struct { const char *suffix; int line; } nests[] = {
        { "/blas/gemm/gemm.c", 42 },              /* matmul, sequential as compiled */
        { "/omp-target/GEMM/gemm.c", 45 },        /* matmul, a target region */
        { "/kernels/mvt/mvt.c", 41 },             /* matvec, row walk */
        { "/kernels/mvt/mvt.c", 44 },             /* matvec, column walk */
        { "/stencils/jacobi-2d/jacobi-2d.c", 34 },   /* time-stepped 2-D stencil */
        { "/stencils/heat-3d/heat-3d.c", 39 },       /* time-stepped 3-D stencil */
        { "/covariance/covariance.c", 45 },          /* two column walks, triangular */
    };
    static const char *const hosts[] = { "host", "power9", "power8", "xeon-8480", "i7-930",
                                         "calibrated", "calibrated-16" };
    /* "calibrated": a host keel calibrate measured (the per-pattern table
     * and with it the cache-level term), figures of the order a 2-core
     * Zen 5 VM measured, one thread / two (GB/s at 32 KiB, 1, 16, 128 MiB) */
    static rt_profile calibrated;
    {
        static const double one[RT_PATTERNS][RT_BW_POINTS] = {
            { 103, 100, 79, 29 }, { 150, 125, 86, 33 }, { 299, 28, 8.8, 8 }, { 309, 191, 34, 17 } };
        rt_calibration c = { .freq_hz = 4.25e9, .cores = 2, .mem_bw = 12.6e9, .bw_points = 4,
                             .bw_threads = 2, .bw_fp = { 32768, 1048576, 16777216, 134217728 } };
        for (int p = 0; p < RT_PATTERNS; p++)
            for (int k = 0; k < RT_BW_POINTS; k++)
                c.bw_one[p][k] = one[p][k] * 1e9, c.bw_all[p][k] = 2 * one[p][k] * 1e9;
        rt_profile_from_calibration(&c, &calibrated);
        calibrated.name = "calibrated";
    }
    /* "calibrated-16": the same table on 16 cores (all threads 8x one
     * thread's), with a thread curve: a thread's rate of work 1, 0.98,
     * 0.9, 0.8, 0.7 of one alone with 1, 2, 4, 8, 16 busy, the triad 12,
     * 22, 38, 55, 60 GB/s (a bandwidth that saturates) */
    static rt_profile calibrated16;
    {
        rt_calibration c;
        memset(&c, 0, sizeof c);
        c.freq_hz = 2.5e9, c.cores = 16, c.mem_bw = 60e9, c.bw_points = 4, c.bw_threads = 16;
        for (int k = 0; k < RT_BW_POINTS; k++)
            c.bw_fp[k] = calibrated.bw_fp[k];
        for (int p = 0; p < RT_PATTERNS; p++)
            for (int k = 0; k < RT_BW_POINTS; k++)
                c.bw_one[p][k] = calibrated.bw_one[p][k], c.bw_all[p][k] = 8 * calibrated.bw_one[p][k];
        static const double rate[5] = { 1, 0.98, 0.9, 0.8, 0.7 }, tri[5] = { 12, 22, 38, 55, 60 };
        c.tc_points = 5;
        for (int k = 0; k < 5; k++)
            c.tc_threads[k] = 1 << k, c.tc_clock[k] = 2.5e9, c.tc_work[k] = 10e9 * rate[k],
            c.tc_bw[k] = tri[k] * 1e9;
        rt_profile_from_calibration(&c, &calibrated16);
        calibrated16.name = "calibrated-16";
    }
    static const char *const gpus[] = { "h100", "v100", "k80" };
    char err[512];
    db *d;
    if (db_open(argv[1], DB_READONLY, &d, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    int checked = 0;
    for (size_t ni = 0; ni < sizeof nests / sizeof nests[0]; ni++) {
        find_ctx fc = { .suffix = nests[ni].suffix, .want_line = nests[ni].line };
        if (db_each_loop(d, NULL, find_row, &fc, err, sizeof err) || !fc.file[0]) {
            printf("MISSING %s:%d\n", nests[ni].suffix, nests[ni].line);
            bad++;
            continue;
        }
        rt_facts *f = NULL;
        if (rt_facts_load(d, fc.file, fc.line, 0, &f, err, sizeof err) != 0) {
            printf("MISSING %s:%d: %s\n", nests[ni].suffix, nests[ni].line, err);
            bad++;
            continue;
        }
        char nest[256];
        snprintf(nest, sizeof nest, "%s:%d", nests[ni].suffix + 1, nests[ni].line);
        for (size_t hi = 0; hi < sizeof hosts / sizeof hosts[0]; hi++)
            for (size_t gi = 0; gi < sizeof gpus / sizeof gpus[0]; gi++) {
                const rt_profile *hp = !strcmp(hosts[hi], "calibrated")      ? &calibrated
                                       : !strcmp(hosts[hi], "calibrated-16") ? &calibrated16
                                                                             : rt_profile_find(hosts[hi]);
                const rt_profile *gp = rt_profile_find(gpus[gi]);
                rt_sweep s = { .host = hp, .gpu = gp, .threads = rt_profile_threads(hp),
                               .sym = "*" };
                /* sizes: 16 x 2^(k/4), k = 0 .. 36 (16 .. 8192) */
                enum { K = 37 };
                rt_sweep_point p[K];
                int ok[K];
                for (int k = 0; k < K; k++) {
                    long long n = llround(16 * pow(2, k / 4.0));
                    ok[k] = rt_sweep_at(f, &s, n, &p[k], err, sizeof err) == 0;
                }
                for (int k = 0; k + 4 < K; k++) {
                    if (!ok[k] || !ok[k + 4])
                        continue;
                    rt_sweep_point *a = &p[k], *b = &p[k + 4];
                    double wa = a->flops > 0 ? a->flops : a->bytes;
                    double wb = b->flops > 0 ? b->flops : b->bytes;
                    if (!(wa > 0 && wb > 0))
                        continue;
                    static const char *const sname[3] = { "cpu", "gpu", "gpu+xfer" };
                    const double ta[3] = { a->cpu_s, a->gpu_s, a->gpu_s + a->xfer_s },
                                 tb[3] = { b->cpu_s, b->gpu_s, b->gpu_s + b->xfer_s };
                    for (int side = 0; side < 3; side++) {
                        char what[64];
                        double g = (tb[side] / wb) / (ta[side] / wa);
                        checked++;
                        snprintf(what, sizeof what, "%s time/work n=%lld->%lld",
                                 sname[side], a->n, b->n);
                        if (!(g <= 4))
                            fail(what, nest, hosts[hi], gpus[gi], ta[side] / wa, tb[side] / wb,
                                 ta[side], tb[side]);
                        snprintf(what, sizeof what, "%s time n=%lld->%lld", sname[side],
                                 a->n, b->n);
                        if (!(tb[side] >= ta[side] / 4))
                            fail(what, nest, hosts[hi], gpus[gi], ta[side], tb[side], ta[side],
                                 tb[side]);
                    }
                }
                /* threads 1 .. 256 at two sizes */
                static const long long sizes[] = { 1000, 2000 };
                for (size_t si = 0; si < 2 && gi == 0; si++) {
                    rt_sweep_point prev;
                    int have = 0;
                    for (int t = 1; t <= 256; t *= 2) {
                        rt_sweep st = s;
                        st.threads = t, st.threads_given = 1;
                        rt_sweep_point q;
                        if (rt_sweep_at(f, &st, sizes[si], &q, err, sizeof err)) {
                            have = 0;
                            continue;
                        }
                        if (have) {
                            char what[64];
                            double r = q.cpu_s / prev.cpu_s;
                            checked++;
                            snprintf(what, sizeof what, "cpu time threads=%d->%d n=%lld", t / 2,
                                     t, sizes[si]);
                            if (!(r <= 4 && r >= 0.25))
                                fail(what, nest, hosts[hi], "-", prev.cpu_s, q.cpu_s, prev.cpu_s,
                                     q.cpu_s);
                        }
                        prev = q, have = 1;
                    }
                }
            }
        rt_facts_free(f);
    }
    db_close(d);
    printf("smooth: %d comparisons, %d cliffs\n", checked, bad);
    return bad ? 1 : 0;
}
