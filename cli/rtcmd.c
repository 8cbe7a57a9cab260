/*
 * rtcmd.c -- the keel tool's commands on libkeelrt's side (keel.h):
 * `keel devices`, `keel calibrate`, `keel explain`, `keel history`.
 *
 * explain evaluates exactly what keel_decide evaluates -- rt_facts_bind
 * then rt_estimate_all -- with the values of --set, and prints every term
 * (--json: the same terms as one object); it runs nothing and writes
 * nothing.  Options, numbers and FILE:LINE go through common.c, JSON
 * through json.c, like every other command.
 */
#define _XOPEN_SOURCE 700   /* realpath */

#include "keel.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bestmap.h"
#include "calib.h"
#include "db.h"
#include "db_report.h"
#include "facts.h"
#include "history.h"
#include "model.h"
#include "overlap.h"
#include "rt.h"
#include "sweep.h"


/* One profile as text: its name padded to w, the kind, the key numbers;
 * then its description and source, indented under the kind. */
static void device_line(const rt_profile *p, int w)
{
    if (p->kind == RT_CPU)
        printf("%-*s cpu  %.2f GHz, %d cores x %d = %d threads, %.1f GB/s, line %.0f B, "
               "L2 %.0f KiB/core, L3 %.0f MiB, %.0f ns, mlp %.0f, mca %s\n",
               w, p->name, p->freq_hz / 1e9, p->cores, p->smt, rt_profile_threads(p),
               p->mem_bw / 1e9, p->line, p->l2 / 1024, p->l3 / 1048576, p->cpu_mem_lat * 1e9,
               p->mlp, p->mca_cpu ? p->mca_cpu : "-");
    else
        printf("%-*s gpu  %d SMs, %.3f GHz, %.0f GB/s, bus %.1f GB/s, %d warps/SM, latency"
               " %.0f cycles, sector %.0f B, L2 %.1f MiB, launch %.0f us\n",
               w, p->name, p->sms, p->gpu_hz / 1e9, p->gpu_bw / 1e9, p->bus_bw / 1e9,
               p->max_warps_sm, p->mem_lat, p->sector, p->gpu_l2 / 1048576, p->launch_s * 1e6);
    printf("%*s %s\n%*s source: %s\n", w, "", p->desc, w, "", p->source);
}

/* One profile as a JSON object: the numbers of its text line in SI units
 * (Hz, bytes, bytes/s, seconds). */
static void device_json(keel_json *j, const rt_profile *p)
{
    keel_json_object(j, NULL);
    keel_json_str(j, "name", p->name);
    keel_json_str(j, "kind", p->kind == RT_CPU ? "cpu" : "gpu");
    if (p->kind == RT_CPU) {
        keel_json_num(j, "freq_hz", p->freq_hz);
        keel_json_int(j, "cores", p->cores);
        keel_json_int(j, "smt", p->smt);
        keel_json_int(j, "threads", rt_profile_threads(p));
        keel_json_num(j, "mem_bw", p->mem_bw);
        keel_json_num(j, "line", p->line);
        keel_json_num(j, "l2_per_core", p->l2);
        keel_json_num(j, "l3", p->l3);
        keel_json_num(j, "mem_latency_s", p->cpu_mem_lat);
        keel_json_num(j, "mlp", p->mlp);
        keel_json_str(j, "mca_cpu", p->mca_cpu);
    } else {
        keel_json_int(j, "sms", p->sms);
        keel_json_num(j, "freq_hz", p->gpu_hz);
        keel_json_num(j, "mem_bw", p->gpu_bw);
        keel_json_num(j, "bus_bw", p->bus_bw);
        keel_json_int(j, "max_warps_sm", p->max_warps_sm);
        keel_json_num(j, "mem_latency_cycles", p->mem_lat);
        keel_json_num(j, "sector", p->sector);
        keel_json_num(j, "l2", p->gpu_l2);
        keel_json_num(j, "launch_s", p->launch_s);
    }
    keel_json_str(j, "desc", p->desc);
    keel_json_str(j, "source", p->source);
    keel_json_end(j);
}


/* keel devices [--json] | --add FILE | --export NAME */
int keel_cmd_devices(int argc, char **argv)
{
    const char *add = NULL, *export = NULL;
    int json = 0, npos;
    const keel_opt opts[] = {
        KEEL_OPT_FLAG("json", &json),
        KEEL_OPT_TEXT("add", &add),
        KEEL_OPT_TEXT("export", &export),
        KEEL_OPT_LAST,
    };
    char **pos;
    int r = keel_getopts("devices", NULL, opts, argc, argv, -1, &pos, &npos);
    if (r >= 0)
        return r;
    if (npos > 0 || (add && export) || ((add || export) && json))
        return keel_say(2, "devices takes no arguments, or --add FILE, or --export NAME"
                           " (see keel devices --help)");
    char err[512], dir[4096];
    if (export) {
        const rt_profile *p = rt_profile_find(export);
        if (!p)
            return keel_say(1, "no profile '%s' (see keel devices)", export);
        rt_profile_write(p, stdout);
        return 0;
    }
    if (add) {
        const rt_profile *p = rt_profile_load(add, err, sizeof err);
        if (!p)
            return keel_say(1, "%s", err);
        if (rt_machines_dir(dir, sizeof dir))
            return keel_say(1, "no folder for profiles: set KEEL_MACHINES or HOME");
        /* mkdir -p */
        for (char *c = dir + 1;; c++) {
            if (*c == '/' || !*c) {
                char keep = *c;
                *c = 0;
                if (mkdir(dir, 0777) && errno != EEXIST)
                    return keel_say(1, "%s: %s", dir, strerror(errno));
                *c = keep;
                if (!keep)
                    break;
            }
        }
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.machine", dir, p->name);
        FILE *f = fopen(path, "w");
        if (!f)
            return keel_say(1, "%s: %s", path, strerror(errno));
        rt_profile_write(p, f);
        if (fclose(f))
            return keel_say(1, "%s: %s", path, strerror(errno));
        printf("added %s (%s) as %s\n", p->name, p->kind == RT_CPU ? "cpu" : "gpu", path);
        return 0;
    }
    keel_json *j = json ? keel_json_new() : NULL;
    if (json && !j)
        return keel_say(1, "out of memory");
    if (j)
        keel_json_array(j, NULL);
    int w = 10;                         /* the widest built-in name */
    for (int i = 0; i < rt_profile_count(); i++)
        if ((int)strlen(rt_profile_at(i)->name) > w)
            w = (int)strlen(rt_profile_at(i)->name);
    if (!j)
        printf("%-*s %-4s %s\n", w, "NAME", "KIND", "KEY NUMBERS");
    j ? device_json(j, rt_profile_host_default()) : device_line(rt_profile_host_default(), w);
    for (int i = 0; i < rt_profile_count(); i++)
        j ? device_json(j, rt_profile_at(i)) : device_line(rt_profile_at(i), w);
    /* the user's own profiles */
    DIR *d = rt_machines_dir(dir, sizeof dir) == 0 ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 8 && !strcmp(e->d_name + n - 8, ".machine")) {
            char path[4400];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            const rt_profile *p = rt_profile_load(path, err, sizeof err);
            if (p)
                j ? device_json(j, p) : device_line(p, w);
            else
                keel_say(0, "warning: %s", err);
        }
    }
    if (d)
        closedir(d);
    int rc = 0;
    if (j) {
        keel_json_end(j);
        rc = keel_json_print(j, stdout);
        keel_json_free(j);
    }
    return rc;
}

/* keel calibrate's steps on stderr, each with the time since the start. */
static void calibrate_step(void *arg, int k, int n, const char *what)
{
    const struct timespec *t0 = arg;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    double s = (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
    if (k > 0)
        fprintf(stderr, "keel calibrate: [%d/%d] %s (at %.1f s)\n", k, n, what, s);
    else
        fprintf(stderr, "keel calibrate: %s in %.1f s\n", what, s);
}

/* One warning line when other work shares the cores being measured
 * (rt_calibrate_load_note; seen on a 2-core VM at load 28: a 4.1 GHz
 * clock, 1.3 ms fork/join). */
static void calibrate_load_warning(void)
{
    char text[128] = "", msg[256];
    FILE *f = fopen("/proc/loadavg", "r");
    if (!f)
        return;
    if (!fgets(text, sizeof text, f))
        text[0] = '\0';
    fclose(f);
    if (rt_calibrate_load_note(text, sysconf(_SC_NPROCESSORS_ONLN), msg, sizeof msg))
        keel_say(0, "warning: %s", msg);
}

int keel_cmd_calibrate(int argc, char **argv)
{
    int json = 0, npos;
    const keel_opt opts[] = { KEEL_OPT_FLAG("json", &json), KEEL_OPT_LAST };
    char **pos;
    int r = keel_getopts("calibrate", NULL, opts, argc, argv, -1, &pos, &npos);
    if (r >= 0)
        return r;
    if (npos > 1)
        return keel_say(2, "calibrate takes at most one argument, DB");
    char err[512];
    const char *path = npos ? pos[0] : keel_default_db();
    db *d;
    /* open for writing first: migrates an old keel database */
    if (db_open(path, DB_WRITE, &d, err, sizeof err))
        return keel_say(1, "%s", err);
    db_close(d);
    calibrate_load_warning();
    rt_calibration cal;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (rt_calibrate_steps(&cal, calibrate_step, &t0, err, sizeof err))
        return keel_say(1, "%s", err);
    if (rt_calibration_store(path, &cal, err, sizeof err))
        return keel_say(1, "%s", err);
    calibrate_step(&t0, 0, 0, "done");
    if (json) {
        keel_json *j = keel_json_new();
        if (!j)
            return keel_say(1, "out of memory");
        keel_json_object(j, NULL);
        keel_json_int(j, "cores", cal.cores);
        if (cal.freq_hz > 0)
            keel_json_num(j, "freq_hz", cal.freq_hz);
        else
            keel_json_null(j, "freq_hz");
        keel_json_num(j, "mem_bw", cal.mem_bw);
        keel_json_num(j, "peak_flops", cal.peak_flops);
        keel_json_num(j, "fork_ns", cal.fork_ns);
        keel_json_num(j, "sched_ns", cal.sched_ns);
        keel_json_num(j, "barrier_ns", cal.join_ns);
        keel_json_num(j, "target_fallback_ns", cal.target_fallback_ns);
        keel_json_str(j, "target_fallback_source", cal.target_note);
        keel_json_num(j, "page", cal.page);
        keel_json_num(j, "tlb_entries", cal.tlb_entries);
        keel_json_num(j, "tlb_miss_ns", cal.tlb_miss_ns);
        keel_json_str(j, "tlb_source", cal.tlb_note);
        keel_json_num(j, "l1_bytes", cal.l1);
        keel_json_num(j, "l2_bytes", cal.l2);
        keel_json_num(j, "l3_bytes", cal.l3);
        keel_json_str(j, "cache_source", cal.cache_note);
        for (int k = 0; k < RT_NLAT; k++) {
            char key[32];
            snprintf(key, sizeof key, "latency_%s_cycles", rt_lat_name(k));
            keel_json_num(j, key, cal.lat[k]);
        }
        keel_json_array(j, "threads_curve");
        for (int k = 0; k < cal.tc_points; k++) {
            keel_json_object(j, NULL);
            keel_json_int(j, "threads", (int)cal.tc_threads[k]);
            keel_json_num(j, "clock_hz", cal.tc_clock[k]);
            keel_json_num(j, "adds_per_s", cal.tc_work[k]);
            keel_json_num(j, "triad_bytes_per_s", cal.tc_bw[k]);
            keel_json_end(j);
        }
        keel_json_end(j);
        keel_json_str(j, "stored_in", path);
        keel_json_end(j);
        int rc = keel_json_print(j, stdout);
        keel_json_free(j);
        return rc;
    }
    printf("cores        %d\n", cal.cores);
    printf("clock        %.2f GHz%s\n", cal.freq_hz / 1e9,
           cal.freq_hz > 0 ? " (dependent-add chain, thread CPU time)" : " (unknown: default)");
    printf("bandwidth    %.2f GB/s (STREAM triad)\n", cal.mem_bw / 1e9);
    printf("peak         %.1f GFLOP/s (multiply-add chains)\n", cal.peak_flops / 1e9);
    printf("fork/join    %.0f ns (EPCC parallel)\n", cal.fork_ns);
    printf("static for   %.0f ns (EPCC for schedule(static))\n", cal.sched_ns);
    printf("barrier      %.0f ns (EPCC barrier)\n", cal.join_ns);
    printf("latencies   ");                      /* the recurrence bound's, model.h */
    for (int k = 0; k < RT_NLAT; k++)
        printf(" %s %.3g", rt_lat_name(k), cal.lat[k]);
    printf(" cycles (dependent chains)\n");
    if (cal.target_fallback_ns > 0 || !cal.target_note[0])
        printf("target       %.0f ns (host fallback of a target region, beyond parallel for%s%s)\n",
               cal.target_fallback_ns, cal.target_note[0] ? "; " : "", cal.target_note);
    else
        printf("target       %s\n", cal.target_note);
    if (cal.tlb_entries > 0)
        printf("TLB          %.0f entries, a miss %.2f ns (%.1f cycles) on a walk of independent "
               "loads; %s\n", cal.tlb_entries, cal.tlb_miss_ns, cal.tlb_miss_ns * cal.freq_hz * 1e-9,
               cal.tlb_note);
    else
        printf("TLB          %s\n", cal.tlb_note);
    if (cal.l1 > 0 && cal.l2 > 0)
        printf("caches       L1d %.0f KiB, L2 %.0f KiB per core, L3 %.0f KiB (%s)\n",
               cal.l1 / 1024, cal.l2 / 1024, cal.l3 / 1024, cal.cache_note);
    else
        printf("caches       %s\n", cal.cache_note);
    for (int f = 0; f < cal.bw_points; f++) {      /* PMaC: bandwidth per pattern */
        printf("%-12s", f ? "" : "patterns");
        printf(" %7.0f KiB:", cal.bw_fp[f] / 1024);
        for (int p = 0; p < RT_PATTERNS; p++)
            printf(" %s %.1f/%.1f", rt_pattern_name(p), cal.bw_one[p][f] / 1e9,
                   cal.bw_all[p][f] / 1e9);
        printf(" GB/s (1/%d threads)\n", cal.bw_threads);
    }
    for (int k = 0; k < cal.tc_points; k++)       /* what T threads busy at once get */
        printf("%-12s %3.0f threads: clock %.2f GHz, independent adds %.2f G/s per thread "
               "(%.2f of one alone), triad %.1f GB/s\n", k ? "" : "many threads", cal.tc_threads[k],
               cal.tc_clock[k] / 1e9, cal.tc_work[k] / 1e9,
               cal.tc_work[0] > 0 ? cal.tc_work[k] / cal.tc_work[0] : 0, cal.tc_bw[k] / 1e9);
    printf("stored in    %s\n", path);
    return 0;
}


/* The terms of one estimate, one row each, walked in order by both
 * print_estimate (text) and estimate_json (--json): a new model term is
 * one row here.  A row is one JSON member (json: its name; NULL: text
 * only) and a piece of a text line: label starts a line "  %-22s "
 * ("" a line with no label, NULL continues the line), fmt prints the value
 * divided by scale (NULL: JSON only; "T": a time as rt_format_time
 * writes it), when says whether the text shows it at all, and text, where
 * set, prints the row's text itself.  Type: 'n' number, 'i' integer,
 * 's' string, 'b' boolean, '{' opens an object named json, '}' closes it.
 * jfix, where set, decides the JSON member instead of the field: a number
 * is null where it says nonzero, a boolean is what it says. */
typedef struct {
    const rt_profile *cpu, *gpu;
    const rt_launch *in;
    const rt_estimate *e;
} ex_ctx;

enum { EX_IN, EX_E, EX_CPU, EX_GPU };

typedef struct {
    char type;
    const char *json;
    int src;
    size_t off;
    const char *label, *fmt;
    double scale;
    int (*when)(const ex_ctx *);
    void (*text)(const ex_ctx *);
    int (*jfix)(const ex_ctx *);
} ex_row;

static const void *ex_base(const ex_ctx *c, int src)
{
    return src == EX_IN ? (const void *)c->in : src == EX_E ? (const void *)c->e
         : src == EX_CPU ? (const void *)c->cpu : (const void *)c->gpu;
}
static double ex_num(const ex_ctx *c, const ex_row *r)
{
    const char *p = (const char *)ex_base(c, r->src) + r->off;
    if (r->type == 'n')
        return *(const double *)(const void *)p;
    return *(const int *)(const void *)p;
}
static const char *ex_str(const ex_ctx *c, const ex_row *r)
{
    const char *p = (const char *)ex_base(c, r->src) + r->off;
    if (r->src == EX_IN)                         /* rt_launch's strings are arrays */
        return p[0] ? p : NULL;
    return *(const char *const *)(const void *)p;
}

static int ex_tlb(const ex_ctx *c) { return c->cpu->tlb_entries > 0 && c->cpu->page > 0; }
static int ex_recur(const ex_ctx *c) { return c->in->recur_cycles != 0; }
static int ex_region(const ex_ctx *c) { return c->in->steps > 1 || c->in->kernels > 1; }
static int ex_esteps(const ex_ctx *c) { return c->e->steps > 1; }
static int ex_eregion(const ex_ctx *c) { return c->e->steps > 1 || c->e->kernels > 1; }
static int ex_target(const ex_ctx *c) { return c->in->omp_target; }
static int ex_no_target(const ex_ctx *c) { return !c->in->omp_target; }

static int ex_mca_exact(const ex_ctx *c) { return c->in->mca_target[0] && c->in->mca_exact; }
static int ex_bounded(const ex_ctx *c) { return c->in->trip_bounds > 0; }
static void ex_bounds(const ex_ctx *c)
{
    printf("%d loop%s counted at %s largest trip count over the enclosing loops' ranges "
           "(a bound, not an exact count: the work modelled is at most this)",
           c->in->trip_bounds, c->in->trip_bounds == 1 ? "" : "s",
           c->in->trip_bounds == 1 ? "its" : "their");
}

static void ex_machines(const ex_ctx *c)
{
    printf("machines    host %s, device %s\n", c->cpu->name, c->gpu->name);
    printf("launch (bound facts)");
}
static void ex_mca(const ex_ctx *c)
{
    const rt_launch *in = c->in;
    printf("%s%s", in->mca_target[0] ? in->mca_target : "none stored",
           !in->mca_target[0] ? "" : in->mca_exact ? " (the host's CPU)"
           : c->cpu->mca_cpu ? " (nearest stored: the host's CPU has none)" : "");
}
static void ex_threads(const ex_ctx *c)
{
    printf("%d%s", c->e->threads,
           c->in->host_sequential ? " (no OpenMP pragma: runs as compiled, no parallel region)"
                                  : "");
}
static void ex_loop_overhead(const ex_ctx *c)
{
    if (c->in->loop_ctl_in_cycles)
        printf("%.0f cycles (the loop's control is in its cycles)", c->e->loop_overhead_c);
    else
        printf("%.0f cycles (%.0f x chunk)", c->e->loop_overhead_c, c->cpu->loop_overhead);
}
static void ex_tlb_c(const ex_ctx *c)
{
    printf("%.6g cycles (%s)", c->e->tlb_c, c->cpu->tlb_miss_cycles > 0
           ? "chunk's TLB misses x miss cycles" : "no TLB figures");
}
static void ex_loop_chunk(const ex_ctx *c)
{
    printf("%.6g cycles", c->e->loop_chunk_c);
    if (c->e->heaviest_chunk)
        printf(" (the heaviest chunk: %.6g cycles of work, the average chunk %.6g)",
               c->e->machine_c, c->in->cycles_per_iter * c->e->chunk);
}
static void ex_bandwidth(const ex_ctx *c)
{
    const rt_estimate *e = c->e;
    const rt_launch *in = c->in;
    const rt_profile *cpu = c->cpu;
    if (e->cpu_bw_calibrated) {          /* keel calibrate's table (PMaC) */
        printf("%.1f GB/s (calibrated per pattern at %.3g bytes, PMaC):", e->cpu_bw / 1e9,
               in->bytes_in + in->bytes_out);
        for (int p = 0; p < RT_PATTERNS; p++)
            if (in->cpu_bytes_pat[p] > 0)
                printf(" %s %.6g B at %.2f GB/s", rt_pattern_name(p), in->cpu_bytes_pat[p],
                       e->cpu_pat_bw[p] / 1e9);
    } else
        printf("%.1f GB/s = min(%.1f GB/s%s, %d cores x %.2f GB/s "
               "(Little: %.0f lines x %.0f B / %.0f ns))",
               e->cpu_bw / 1e9, e->node_bw / 1e9,
               cpu->sockets > 1 ? " (one node of the host's: data first touched by one thread)"
                                : "",
               e->cores_used, e->core_bw / 1e9, cpu->mlp, cpu->line, cpu->cpu_mem_lat * 1e9);
}
static void ex_fallback(const ex_ctx *c)
{
    char b[32];
    if (!c->in->omp_target)
        return;
    if (c->e->fallback_s > 0) {
        rt_format_time(b, sizeof b, c->e->fallback_s);
        printf("  %-22s %s", "target host fallback", b);
    } else if (c->in->target_host_code)
        printf("  target host fallback   0 (built with no offload image: a target region is "
               "host code)");
    else
        printf("  target host fallback   0 (not measured for %s: `keel calibrate` on the host, "
               "or profile key target_fallback)", c->cpu->name);
}
static void ex_case(const ex_ctx *c)
{
    int k = c->e->hk_case;
    printf("%d (%s)", k, k == 1 ? "MWP == N == CWP" : k == 2 ? "memory bound" : "compute bound");
}
static void ex_latency(const ex_ctx *c)
{
    const rt_estimate *e = c->e;
    const rt_launch *in = c->in;
    char lb[32];
    rt_format_time(lb, sizeof lb, e->gpu_lat_s);
    printf("%s (%.0f waves x %.6g cycles of %.6g rounds", lb, e->waves, e->gpu_lat_cycles,
           in->gpu_chain > 0 ? in->gpu_chain : e->mem_insts);
    if (in->gpu_lat_cycles > 0 && in->gpu_lat_max_cycles > e->waves * e->gpu_lat_cycles)
        printf(", longest item %.6g cycles", in->gpu_lat_max_cycles);
    printf(" x N/MWP %.4g; %.0f warps)", e->lat_mwp > 0 ? e->n_warps / e->lat_mwp : 0,
           e->warps_total);
}
static int ex_cache_lines(const ex_ctx *c) { return c->cpu->l1 > 0; }
static int ex_cache(const ex_ctx *c) { return c->cpu->l1 > 0 && c->cpu->bw_points > 0; }
static void ex_cache_hits(const ex_ctx *c)
{
    printf("%.6g B from L2, %.6g B from L3 (column walks and gathers, %.0f-byte L1)",
           c->in->cpu_hit_bytes[0], c->in->cpu_hit_bytes[1], c->cpu->l1);
}
static void ex_cache_time(const ex_ctx *c)
{
    char b[32];
    rt_format_time(b, sizeof b, c->e->cpu_cache_s);
    printf("%s (L2 hits at %.2f GB/s, L3 hits at %.2f GB/s: calibrated gather)", b,
           c->e->cache_bw[0] / 1e9, c->e->cache_bw[1] / 1e9);
}
static void ex_bound(const ex_ctx *c) { printf("%s", c->e->gpu_bound ? c->e->gpu_bound : "-"); }

#define IN(f) EX_IN, offsetof(rt_launch, f)
#define E(f) EX_E, offsetof(rt_estimate, f)
#define CPU(f) EX_CPU, offsetof(rt_profile, f)
#define GPU(f) EX_GPU, offsetof(rt_profile, f)
#define NOF 0, 0
static const ex_row ex_rows[] = {
    { '{', "launch", NOF, "", NULL, 0, NULL, ex_machines, NULL },
    { 'n', "parallel_iterations", IN(par_iters), "parallel iterations", "%.0f", 0, 0, 0, 0 },
    { 'i', "trip_bounds", IN(trip_bounds), "trip counts", NULL, 0, ex_bounded, ex_bounds, 0 },
    { 'n', "cycles_per_iteration", IN(cycles_per_iter), "cycles per iteration",
      "%.6g (Machine_c_per_iter, inner loops included)", 0, 0, 0, 0 },
    { 'n', "recurrence_cycles", IN(recur_cycles), "recurrence bound",
      "%+.6g cycles of them: loop-carried chains (Rau's MII)", 0, ex_recur, 0, 0 },
    { 'n', "gpu_work_items", IN(work_items), "GPU work items", "%.0f", 0, 0, 0, 0 },
    { 'n', "compute_insts_per_item", IN(comp_insts), "compute insts / item", "%.6g", 0, 0, 0, 0 },
    { 'n', "flops", IN(flops), "flops", "%.6g", 0, 0, 0, 0 },
    { 'n', "bytes_in", IN(bytes_in), "bytes in / out", "%.0f", 0, 0, 0, 0 },
    { 'n', "bytes_out", IN(bytes_out), NULL, " / %.0f (footprint; what a transfer moves)",
      0, 0, 0, 0 },
    { 'n', "cpu_dram_bytes", IN(cpu_bytes), "CPU DRAM traffic", "%.0f bytes per step (",
      0, 0, 0, 0 },
    { 'n', NULL, CPU(line), NULL, "%.0f-byte lines, reuse in cache)", 0, 0, 0, 0 },
    { 'n', "gpu_dram_bytes", IN(gpu_bytes), "GPU DRAM traffic", "%.0f bytes per step (",
      0, 0, 0, 0 },
    { 'n', NULL, GPU(sector), NULL, "%.0f-byte sectors per warp)", 0, 0, 0, 0 },
    { 'n', "gpu_chain", IN(gpu_chain), "GPU latency chain",
      "%.6g dependent memory rounds per work item, ", 0, 0, 0, 0 },
    { 'n', "gpu_latency_cycles", IN(gpu_lat_cycles), NULL, "%.6g cycles ", 0, 0, 0, 0 },
    { 'n', NULL, GPU(mem_lat), NULL, "(DRAM %.0f, ", 0, 0, 0, 0 },
    { 'n', NULL, GPU(l2_lat), NULL, "L2 hit %.0f, ", 0, 0, 0, 0 },
    { 'n', NULL, GPU(l1_lat), NULL, "L1 hit %.0f)", 0, 0, 0, 0 },
    { 'n', "cache_hit_bytes_l2", IN(cpu_hit_bytes[0]), "CPU cache hits", NULL, 0, ex_cache_lines,
      ex_cache_hits, 0 },
    { 'n', "cache_hit_bytes_l3", IN(cpu_hit_bytes[1]), NULL, NULL, 0, 0, 0, 0 },
    { 'n', "tlb_misses", IN(tlb_misses), "TLB misses", "%.6g per step (", 0, ex_tlb, 0, 0 },
    { 'n', NULL, CPU(page), NULL, "%.0f-byte pages, ", 0, ex_tlb, 0, 0 },
    { 'n', NULL, CPU(tlb_entries), NULL, "%.0f entries)", 0, ex_tlb, 0, 0 },
    { 'n', "steps", IN(steps), "region", "%.0f steps x ", 0, ex_region, 0, 0 },
    { 'n', "kernels", IN(kernels), NULL, "%.0f kernels, data resident (transfers once)",
      0, ex_region, 0, 0 },
    { 's', "mca_target", IN(mca_target), "llvm-mca figures", NULL, 0, NULL, ex_mca, 0 },
    { 'b', "mca_exact", IN(mca_exact), NULL, NULL, 0, 0, 0, ex_mca_exact },
    { 'b', "host_sequential", IN(host_sequential), NULL, NULL, 0, 0, 0, 0 },
    { 'b', "not_parallel", IN(not_parallel), NULL, NULL, 0, 0, 0, 0 },
    { 'b', "omp_target", IN(omp_target), NULL, NULL, 0, 0, 0, 0 },
    { '}', NULL, NOF, NULL, NULL, 0, 0, 0, 0 },

    { '{', "cpu", NOF, NULL, NULL, 0, 0, 0, 0 },
    { 's', "profile", CPU(name), "", "CPU  %s: Liao-Chapman (chikin Fig. 3) + memory traffic",
      0, 0, 0, 0 },
    { 'i', "threads", E(threads), "threads", NULL, 0, NULL, ex_threads, 0 },
    { 'i', "cores_used", E(cores_used), "cores used, SMT share", "%d", 0, 0, 0, 0 },
    { 'n', "smt_share", E(smt_share), NULL,
      ", %.0f thread(s) per core run one after another", 0, 0, 0, 0 },
    { 'n', "chunk_size", E(chunk), "Chunk_size", "%.0f (static: ceil(iters / threads))",
      0, 0, 0, 0 },
    { 'n', "schedule_times", E(schedule_times), NULL, ", Schedule_times %.0f", 0, 0, 0, 0 },
    { 'n', "fork_c", E(fork_c), "Fork_c", "%.0f cycles", 0, 0, 0, 0 },
    { 'n', "schedule_c", E(schedule_c), "Schedule_c", "%.0f cycles", 0, 0, 0, 0 },
    { 'n', "loop_overhead_c", E(loop_overhead_c), "Loop_overhead_c", NULL, 0, NULL,
      ex_loop_overhead, 0 },
    { 'n', "tlb_c", E(tlb_c), "Tlb_c", NULL, 0, NULL, ex_tlb_c, 0 },
    { 'n', "loop_chunk_c", E(loop_chunk_c), "Loop_chunk_c", NULL, 0, NULL, ex_loop_chunk, 0 },
    { 'n', "parallel_for_c", E(parallel_for_c), "Parallel_for_c", "%.6g cycles", 0, 0, 0, 0 },
    { 'n', "join_c", E(join_c), "Join_c", "%.0f cycles", 0, 0, 0, 0 },
    { 'n', "parallel_region_c", E(region_c), "Parallel_Region_c", "%.6g cycles at ", 0, 0, 0, 0 },
    { 'n', "freq_hz", CPU(freq_hz), NULL, "%.2f GHz", 1e9, 0, 0, 0 },
    { 'n', "thread_rate", E(thread_rate), "thread rate",
      "%.3g of one thread alone (keel calibrate, the cores used busy)", 0, 0, 0, 0 },
    { 'n', "imbalance", E(imbalance), "heaviest / average",
      "%.3g (the heaviest chunk's TLB and cache-level share)", 0, 0, 0, 0 },
    { 'n', "compute_s", E(cpu_compute_s), "compute time", "T", 0, 0, 0, 0 },
    { 'n', "bandwidth", E(cpu_bw), "bandwidth", NULL, 0, NULL, ex_bandwidth, 0 },
    { 'n', "node_bandwidth", E(node_bw), NULL, NULL, 0, 0, 0, 0 },
    { 'n', "core_bandwidth", E(core_bw), NULL, NULL, 0, 0, 0, 0 },
    { 'n', "memory_s", E(cpu_mem_s), "memory time", "T", 0, 0, 0, 0 },
    { 'n', "cache_s", E(cpu_cache_s), "cache-level time", NULL, 0, ex_cache, ex_cache_time, 0 },
    { 'n', "target_fallback_s", E(fallback_s), "", NULL, 0, ex_target, ex_fallback, ex_no_target },
    { 'n', "flop_floor_s", E(cpu_flop_s), "flop floor (info)", "T", 0, 0, 0, 0 },
    { 'n', "steps", E(steps), "x steps", "%.0f", 0, ex_esteps, 0, 0 },
    { 'n', "time_s", E(cpu_s), "CPU time", "T", 0, 0, 0, 0 },
    { '}', NULL, NOF, NULL, NULL, 0, 0, 0, 0 },

    { '{', "gpu", NOF, NULL, NULL, 0, 0, 0, 0 },
    { 's', "profile", GPU(name), "", "GPU  %s: Hong-Kim MWP/CWP (chikin Figs. 4-5), the reference",
      0, 0, 0, 0 },
    { 'i', "threads_per_block", E(tpb), "threads/block", "%d", 0, 0, 0, 0 },
    { 'n', "blocks", E(blocks), NULL, ", blocks %.0f", 0, 0, 0, 0 },
    { 'n', "active_sms", E(active_sms), NULL, ", active SMs %.0f", 0, 0, 0, 0 },
    { 'n', "blocks_per_sm", E(active_blocks_sm), NULL, ", blocks/SM %.0f", 0, 0, 0, 0 },
    { 'n', "n_warps", E(n_warps), "N (warps/SM)", "%.0f", 0, 0, 0, 0 },
    { 'n', "rep", E(rep), "#Rep, #OMP_Rep", "%.0f", 0, 0, 0, 0 },
    { 'n', "omp_rep", E(omp_rep), NULL, ", %.0f", 0, 0, 0, 0 },
    { 'n', "coal_insts", E(coal_insts), "#Coal / #Uncoal insts", "%.6g", 0, 0, 0, 0 },
    { 'n', "uncoal_insts", E(uncoal_insts), NULL, " / %.6g (per thread)", 0, 0, 0, 0 },
    { 'n', "uncoal_per_mw", E(uncoal_per_mw), NULL, ", #Uncoal_per_mw %.3g", 0, 0, 0, 0 },
    { 'n', "total_insts", E(total_insts), "#total_insts", "%.6g", 0, 0, 0, 0 },
    { 'n', "mem_l_coal", E(mem_l_coal), "Mem_L_Coal / Uncoal", "%.0f", 0, 0, 0, 0 },
    { 'n', "mem_l_uncoal", E(mem_l_uncoal), NULL, " / %.0f cycles", 0, 0, 0, 0 },
    { 'n', "mem_l", E(mem_l), NULL, ", Mem_L %.1f", 0, 0, 0, 0 },
    { 'n', "departure_delay", E(departure_delay), "Departure_delay", "%.3g cycles", 0, 0, 0, 0 },
    { 'n', "mem_cycles", E(mem_cycles), "Mem_cycles", "%.6g", 0, 0, 0, 0 },
    { 'n', "comp_cycles", E(comp_cycles), "Comp_cycles", "%.6g", 0, 0, 0, 0 },
    { 'n', "load_bytes_per_warp", E(load_bytes_per_warp), "Load_bytes_per_warp", "%.1f",
      0, 0, 0, 0 },
    { 'n', "bw_per_warp", E(bw_per_warp), NULL, ", BW_per_warp %.4g B/s", 0, 0, 0, 0 },
    { 'n', "mwp_without_bw", E(mwp_without_bw), "MWP_Without_BW", "%.4g", 0, 0, 0, 0 },
    { 'n', "mwp_peak_bw", E(mwp_peak_bw), "MWP_peak_BW", "%.4g", 0, 0, 0, 0 },
    { 'n', "mwp", E(mwp), "MWP", "%.4g", 0, 0, 0, 0 },
    { 'n', "cwp_full", E(cwp_full), "CWP_full / CWP", "%.4g", 0, 0, 0, 0 },
    { 'n', "cwp", E(cwp), NULL, " / %.4g", 0, 0, 0, 0 },
    { 'i', "case", E(hk_case), "case", NULL, 0, NULL, ex_case, 0 },
    { 'n', "exec_cycles", E(exec_cycles), "Exec_cycles", "%.6g at ", 0, 0, 0, 0 },
    { 'n', "freq_hz", GPU(gpu_hz), NULL, "%.3f GHz", 1e9, 0, 0, 0 },
    { 'n', "hong_kim_kernel_s", E(hk_kernel_s), "Hong-Kim kernel time", "T", 0, 0, 0, 0 },
    { 's', NULL, GPU(name), "", "GPU  %s: bounds (what the verdict uses)", 0, 0, 0, 0 },
    { 'n', "bandwidth_bound_s", E(gpu_bw_s), "bandwidth bound", "T", 0, 0, 0, 0 },
    { 'n', "latency_bound_s", E(gpu_lat_s), "latency bound", NULL, 0, NULL, ex_latency, 0 },
    { 'n', "departure_cycles", E(gpu_dep_cycles), "chain departures", "%.6g cycles", 0, 0, 0, 0 },
    { 'n', "mwp_without_bw_chain", E(lat_mwp_without_bw), "MWP_Without_BW", "%.4g", 0, 0, 0, 0 },
    { 'n', "mwp_peak_bw_chain", E(lat_mwp_peak_bw), NULL, ", MWP_peak_BW %.4g", 0, 0, 0, 0 },
    { 'n', "mwp_chain", E(lat_mwp), NULL, ", MWP %.4g", 0, 0, 0, 0 },
    { 'n', "waves", E(waves), NULL, NULL, 0, 0, 0, 0 },
    { 'n', "warps", E(warps_total), NULL, NULL, 0, 0, 0, 0 },
    { 'n', "issue_bound_s", E(gpu_issue_s), "issue bound", "T", 0, 0, 0, 0 },
    { 's', "bound_by", E(gpu_bound), "bound by", NULL, 0, NULL, ex_bound, 0 },
    { 'n', "kernel_s", E(kernel_s), "kernel time", "T", 0, 0, 0, 0 },
    { 'n', "steps", E(steps), "x steps, kernels", "%.0f", 0, ex_eregion, 0, 0 },
    { 'n', "kernels", E(kernels), NULL, ", %.0f", 0, ex_eregion, 0, 0 },
    { 'n', "launch_s", E(launch_s), "launch overhead", "T", 0, 0, 0, 0 },
    { 'n', "time_s", E(gpu_s), "GPU time", "T", 0, 0, 0, 0 },
    { '}', NULL, NOF, NULL, NULL, 0, 0, 0, 0 },

    { '{', "transfer", NOF, "", "transfer (boat hull t0 = d / B_bus)", 0, 0, 0, 0 },
    { 'n', "bytes", E(xfer_bytes), "d", "%.0f bytes", 0, 0, 0, 0 },
    { 'n', "bus_bw", GPU(bus_bw), "B_bus", "%.1f GB/s", 1e9, 0, 0, 0 },
    { 'n', "time_s", E(xfer_s), "transfer time", "T", 0, 0, 0, 0 },
    { '}', NULL, NOF, NULL, NULL, 0, 0, 0, 0 },
};
#undef IN
#undef E
#undef CPU
#undef GPU
#undef NOF

static void print_estimate(const rt_profile *cpu, const rt_profile *gpu, const rt_launch *in,
                           const rt_estimate *e)
{
    const ex_ctx c = { cpu, gpu, in, e };
    int open = 0;                          /* a line is started */
    for (size_t i = 0; i < sizeof ex_rows / sizeof *ex_rows; i++) {
        const ex_row *r = &ex_rows[i];
        if ((!r->fmt && !r->text) || (r->when && !r->when(&c)))
            continue;
        if (r->label) {
            if (open)
                putchar('\n');
            if (r->label[0])
                printf("  %-22s ", r->label);
            open = 1;
        }
        if (r->text)
            r->text(&c);
        else if (!strcmp(r->fmt, "T")) {
            char b[32];
            rt_format_time(b, sizeof b, ex_num(&c, r));
            printf("%s", b);
        } else if (r->type == 's')
            printf(r->fmt, ex_str(&c, r));
        else if (r->type == 'i')
            printf(r->fmt, (int)ex_num(&c, r));
        else
            printf(r->fmt, ex_num(&c, r) / (r->scale ? r->scale : 1));
    }
    if (open)
        putchar('\n');
}


/* The size key of a launch: the nest's symbols (sorted) with their
 * values, "ni=20,nj=25"; and its size for the regressions: the footprint
 * in bytes (StarPU's data size). */
static int size_key(const rt_facts *f, const rt_launch *in, int n, char **names,
                    const long long *values, char *key, size_t keylen, double *size)
{
    const char *const *need;
    int nneed = rt_facts_symbols(f, &need), k = 0;
    const char **kn = malloc(sizeof *kn * (size_t)(nneed > 0 ? nneed : 1));
    long long *kv = malloc(sizeof *kv * (size_t)(nneed > 0 ? nneed : 1));
    for (int i = 0; kn && kv && i < nneed; i++)
        for (int j = 0; j < n; j++)
            if (!strcmp(need[i], names[j])) {
                kn[k] = need[i], kv[k++] = values[j];
                break;
            }
    *size = in->bytes_in + in->bytes_out;
    int r = kn && kv ? rt_history_key(k, kn, kv, key, keylen) : -1;
    free(kn);
    free(kv);
    return r;
}

/* keel history's listing, one measured row at a time (db_report_history_all):
 * a line or a JSON object each. */
static int history_line(void *ctx, const db_history_row *r)
{
    keel_json *j = ctx;
    char where[600], mean[32], sd[32];
    int samples = r->samples;
    /* the rule keel explain and libkeelrt follow: measured on both devices
     * at this size, the measurements decide over the models */
    int decides = r->device && !strcmp(r->device, "cpu")
                      ? rt_history_trusted(samples, r->other_samples)
                      : rt_history_trusted(r->other_samples, samples);
    double sds = samples > 1 ? sqrt(r->m2 / (samples - 1)) : 0;
    if (j) {
        keel_json_object(j, NULL);
        keel_json_str(j, "file", r->file);
        keel_json_int(j, "line", r->line);
        keel_json_str(j, "size_key", r->size_key);
        keel_json_str(j, "device", r->device);
        keel_json_int(j, "samples", samples);
        keel_json_num(j, "mean_s", r->mean_s);
        keel_json_num(j, "stddev_s", sds);
        keel_json_bool(j, "trusted", decides);
        keel_json_end(j);
        return 0;
    }
    snprintf(where, sizeof where, "%s:%d", r->file, r->line);
    rt_format_time(mean, sizeof mean, r->mean_s);
    rt_format_time(sd, sizeof sd, sds);
    printf("%-40s %-24s %-4s %7d %12s %12s %s\n", where, r->size_key, r->device, samples, mean,
           sd, decides ? "yes" : "no");
    return 0;
}

/* keel history --add: one line "FILE:LINE SYM=V,... cpu|gpu SECONDS" (a
 * comment after '#'); blank lines are skipped.  0 (*added counts it), or
 * the exit status with the message said. */
static int history_add_line(db *d, const char *path, const char *add, int lineno, char *line,
                            int *added)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    char loc[512], set[512], dev[16], num[64], *end = NULL, extra[2], err[512];
    double secs = 0;
    int got = sscanf(line, "%511s %511s %15s %63s %1s", loc, set, dev, num, extra);
    if (got == 4)       /* SECONDS: a whole positive finite number */
        secs = strtod(num, &end);
    if (got != 4 || *end || !(secs > 0) || !isfinite(secs))
        return strspn(line, " \t\r\n") != strlen(line)
               ? keel_say(1, "%s:%d: want FILE:LINE SYM=V,... cpu|gpu SECONDS", add, lineno)
               : 0;
    char *lfile = NULL, **names = NULL;
    long long *values = NULL;
    int lno, lcol, n = 0, rc = 0;
    rt_facts *f = NULL;
    rt_launch l;
    char key[512];
    double size;
    if (keel_site(loc, &lfile, &lno, &lcol, 0))
        rc = keel_say(1, "%s:%d: bad location '%s' (want FILE:LINE or FILE:LINE:COL)",
                      add, lineno, loc);
    else if (keel_parse_set(set, &names, &values, &n))
        rc = keel_say(1, "%s:%d: bad values '%s'", add, lineno, set);
    else if (rt_facts_load(d, lfile, lno, lcol, &f, err, sizeof err) != 0)
        rc = keel_say(1, "%s:%d: no loop at %s", add, lineno, loc);
    else if (rt_facts_bind(f, n, (const char *const *)names, values, &l, err, sizeof err))
        rc = keel_say(1, "%s:%d: %s", add, lineno, err);
    else if (size_key(f, &l, n, names, values, key, sizeof key, &size))
        rc = keel_say(1, "%s:%d: size key of '%s' longer than %zu bytes, or out of memory",
                      add, lineno, set, sizeof key - 1);
    else if (rt_history_add(path, rt_facts_loop_id(f), key, size, dev, secs, err, sizeof err))
        rc = keel_say(1, "%s:%d: %s", add, lineno, err);
    else
        (*added)++;
    rt_facts_free(f);
    free(lfile);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(values);
    return rc;
}

/* keel history --add FILE ("-": stdin): every line, then the count. */
static int history_add(db *d, const char *path, const char *add, int json)
{
    FILE *in = strcmp(add, "-") ? fopen(add, "r") : stdin;
    if (!in)
        return keel_say(1, "%s: %s", add, strerror(errno));
    char line[1024];
    int lineno = 0, added = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, in))
        rc = history_add_line(d, path, add, ++lineno, line, &added);
    if (rc == 0 && ferror(in))     /* a folder reads as an error, not as no lines */
        rc = keel_say(1, "%s: %s", add, strerror(errno));
    if (in != stdin)
        fclose(in);
    if (rc == 0 && json) {
        keel_json *j = keel_json_new();
        if (j) {
            keel_json_object(j, NULL);
            keel_json_int(j, "added", added);
            keel_json_end(j);
        }
        rc = keel_json_print(j, stdout);
        keel_json_free(j);
    } else if (rc == 0)
        printf("added %d measurement%s\n", added, added == 1 ? "" : "s");
    return rc;
}

/* keel history's listing: every measured row, a table or a JSON array. */
static int history_list(db *d, int json)
{
    keel_json *j = json ? keel_json_new() : NULL;
    int rc = 0;
    if (json && !j)
        return keel_say(1, "out of memory");
    if (!db_report_has_history(d)) {
        if (json) {         /* no history table yet: an empty array */
            keel_json_array(j, NULL);
            keel_json_end(j);
            rc = keel_json_print(j, stdout);
            keel_json_free(j);
            return rc;
        }
        printf("no measurements yet (keel history --add FILE, or libkeelrt's records)\n");
        return 0;
    }
    if (j)
        keel_json_array(j, NULL);
    else
        printf("%-40s %-24s %-4s %7s %12s %12s %s\n", "LOOP", "SIZE KEY", "DEV", "SAMPLES",
               "MEAN", "STDDEV", "TRUSTED");
    db_report_history_all(d, history_line, j);
    if (j) {
        keel_json_end(j);
        rc = keel_json_print(j, stdout);
        keel_json_free(j);
    }
    return rc;
}

/* keel history [--add FILE] [--json] [DB] */
int keel_cmd_history(int argc, char **argv)
{
    const char *add = NULL;
    int json = 0, npos;
    const keel_opt opts[] = {
        KEEL_OPT_FLAG("json", &json),
        KEEL_OPT_TEXT("add", &add),
        KEEL_OPT_LAST,
    };
    char **pos;
    int r = keel_getopts("history", NULL, opts, argc, argv, 1, &pos, &npos);
    if (r >= 0)
        return r;
    const char *path = npos ? pos[0] : keel_default_db();
    char err[512];
    db *d = NULL;
    if (db_open(path, DB_READONLY, &d, err, sizeof err))
        return keel_say(1, "%s", err);
    int rc = add ? history_add(d, path, add, json) : history_list(d, json);
    db_close(d);
    return rc;
}

/* The bound facts as rt_facts_print prints them, one string a line (their
 * structure is libkeelrt's). */
static void facts_json(keel_json *j, const rt_facts *f, const rt_launch *in)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    keel_json_array(j, "facts");
    if (m) {
        rt_facts_print(f, in, m);
        fclose(m);
        for (char *p = buf, *nl; p && *p; p = nl + 1) {
            if (!(nl = strchr(p, '\n')))
                nl = p + strlen(p) - 1;
            else
                *nl = 0;
            keel_json_str(j, NULL, p);
        }
    }
    free(buf);
    keel_json_end(j);
}

/* Every term print_estimate prints, as members of the open object: the
 * rows of ex_rows that have a JSON name. */
static void estimate_json(keel_json *j, const rt_profile *cpu, const rt_profile *gpu,
                          const rt_launch *in, const rt_estimate *e)
{
    const ex_ctx c = { cpu, gpu, in, e };
    for (size_t i = 0; i < sizeof ex_rows / sizeof *ex_rows; i++) {
        const ex_row *r = &ex_rows[i];
        if (r->type == '{')
            keel_json_object(j, r->json);
        else if (r->type == '}')
            keel_json_end(j);
        else if (!r->json)
            continue;
        else if (r->type == 'b')
            keel_json_bool(j, r->json, r->jfix ? r->jfix(&c) : (int)ex_num(&c, r));
        else if (r->jfix && r->jfix(&c))
            keel_json_null(j, r->json);
        else if (r->type == 's')
            keel_json_str(j, r->json, ex_str(&c, r));
        else if (r->type == 'i')
            keel_json_int(j, r->json, (long long)ex_num(&c, r));
        else
            keel_json_num(j, r->json, ex_num(&c, r));
    }
}

/* --sweep SYM=LO:HI through the one number parser: 0, or 2 after the
 * message.  sym gets SYM ("*": every needed symbol). */
static int parse_sweep(const char *spec, char *sym, size_t symlen, long long *lo, long long *hi)
{
    const char *eq = strchr(spec, '='), *colon = eq ? strchr(eq, ':') : NULL;
    char num[32];
    if (!eq || !colon || eq == spec || (size_t)(eq - spec) >= symlen ||
        (size_t)(colon - eq) > sizeof num ||
        keel_fmtn(num, sizeof num, "%.*s", (int)(colon - eq - 1), eq + 1) < 0 ||
        keel_parse_ll(num, 1, LLONG_MAX, lo) || keel_parse_ll(colon + 1, 1, LLONG_MAX, hi) ||
        *hi < *lo)
        return keel_say(2, "bad --sweep '%s' (want SYM=LO:HI, 1 <= LO <= HI; SYM * for every"
                           " symbol)", spec);
    keel_fmtn(sym, symlen, "%.*s", (int)(eq - spec), spec);
    return 0;
}

/* explain --sweep --json: the rows rt_sweep_print prints (one per power of
 * two from LO, and HI) and the crossover, as members of the open object.
 * 0, or 1 after the message when not even LO can be evaluated. */
static int sweep_json(keel_json *j, const rt_facts *f, rt_sweep *s, const char *sym,
                      long long lo, long long hi)
{
    char err[512];
    s->sym = sym;
    keel_json_object(j, "sweep");
    keel_json_str(j, "symbol", sym);
    keel_json_int(j, "lo", lo);
    keel_json_int(j, "hi", hi);
    keel_json_array(j, "rows");
    for (long long v = lo;; v = v > hi / 2 ? hi : v * 2) {
        rt_sweep_point p;
        int bad = rt_sweep_at(f, s, v, &p, err, sizeof err);
        if (bad && v == lo)
            return keel_say(1, "%s", err);
        keel_json_object(j, NULL);
        keel_json_int(j, "n", v);
        if (bad) {
            const char *k[] = { "cpu_s", "gpu_s", "xfer_s", "gpu_xfer_s", "faster" };
            for (int i = 0; i < 5; i++)
                keel_json_null(j, k[i]);
            keel_json_bool(j, "not_parallel", 0);
            keel_json_str(j, "error", err);
        } else {
            keel_json_num(j, "cpu_s", p.cpu_s);
            keel_json_num(j, "gpu_s", p.gpu_s);
            keel_json_num(j, "xfer_s", p.xfer_s);
            keel_json_num(j, "gpu_xfer_s", p.gpu_s + p.xfer_s);
            keel_json_str(j, "faster", rt_sweep_label(&p));
            keel_json_bool(j, "not_parallel", p.not_parallel);
            keel_json_null(j, "error");
        }
        keel_json_end(j);
        if (bad || v >= hi)
            break;
    }
    keel_json_end(j);
    long long n;
    int r = rt_sweep_crossover(f, s, lo, hi, &n, err, sizeof err);
    if (r < 0)
        return keel_say(1, "%s", err);
    if (r)
        keel_json_int(j, "crossover", n);
    else
        keel_json_null(j, "crossover");
    keel_json_end(j);
    return 0;
}

/* explain --set SYM=INT,...: appended to the values so far. */
typedef struct {
    char **names;
    long long *values;
    int n;
} set_list;

static int add_set(void *dest, const char *arg)
{
    set_list *s = dest;
    if (keel_parse_set(arg, &s->names, &s->values, &s->n))
        return keel_say(2, "bad --set '%s' (want SYM=INT,SYM=INT)", arg);
    return 0;
}

/* Whether the run-time overlap check applies to a nest (overlap.h): 0 the
 * verdict relies on no bases being apart; 1 the call passes the bases'
 * addresses and libkeelrt offloads only when the written ranges are apart
 * (why: each base's element range at these values, where they bind); -1
 * no check is possible (why says why): never the GPU. */
static int explain_overlap(const rt_overlap *o, int n, const char *const *names,
                           const long long *values, char *why, size_t whylen)
{
    if (!o)
        return 0;
    /* the names the instrumentation passes: the values and every "&base" */
    int m = n + o->nbases;
    const char **nm = calloc((size_t)m + 1, sizeof *nm);
    long long *v = calloc((size_t)m + 1, sizeof *v);
    char (*amp)[80] = calloc((size_t)o->nbases + 1, sizeof *amp);
    rt_ov_plan *slot = NULL;
    int rc = 1;
    if (!nm || !v || !amp) {
        snprintf(why, whylen, "out of memory");
        rc = -1;
        goto out;
    }
    for (int i = 0; i < n; i++)
        nm[i] = names[i], v[i] = values[i];
    for (int b = 0; b < o->nbases; b++) {
        snprintf(amp[b], sizeof amp[b], "&%s", o->bases[b].name);
        nm[n + b] = amp[b];
    }
    if (rt_overlap_prepare(o, m, nm, &slot, why, whylen)) {
        rc = -1;
        goto out;
    }
    size_t len = (size_t)snprintf(why, whylen, "checked at launch on the bases' addresses");
    for (int b = 0; b < o->nbases && len < whylen; b++) {
        int64_t lo = 0, hi = 0;
        int have = 0, wrote = 0;
        char e2[160];
        for (int a = 0; a < o->naccs; a++) {
            int64_t l, h;
            if (o->accs[a].base != b || rt_overlap_elems(o, a, m, nm, v, &l, &h, e2, sizeof e2))
                continue;
            if (!have || l < lo) lo = l;
            if (!have || h > hi) hi = h;
            have = 1;
            wrote |= o->accs[a].is_write;
        }
        if (have)
            len += (size_t)snprintf(why + len, whylen - len, "%s %s[%lld..%lld]%s",
                                    b ? "," : ";", o->bases[b].name, (long long)lo,
                                    (long long)hi, wrote ? " written" : "");
    }
out:
    rt_overlap_plan_free(slot);
    free(nm);
    free(v);
    free(amp);
    return rc;
}

/* keel explain FILE:LINE[:COL] [--set ...] [--device] [--host] [--threads]
 * [--sweep] [--json] [DB] */
/* One `keel explain` run, passed from phase to phase. */
typedef struct {
    const char *loc, *path, *dev, *hostname, *sweep, *offload;
    int offload_mode;          /* --offload: 0 as recorded, 1 image, 2 host (rt_sweep) */
    char *file;
    int line, col, threads, threads_given, json;
    set_list sets;             /* --set values */
    char sym[128];             /* --sweep SYM=LO:HI */
    long long lo, hi;
    rt_profile host, gpu;
    const rt_profile *hp;      /* --host's profile, NULL: this host (calibrated) */
    int have_gpu;
    char gname[128];           /* the detected GPU's name, "" */
    db *d;
    rt_facts *f;
    keel_json *j;
} explain_run;

/* Options and the site.  0, or the exit status (-1: exit 0, e.g. --help). */
static int explain_args(int argc, char **argv, explain_run *x)
{
    char **pos = NULL;
    int npos = 0, rc = 0;
    const keel_opt opts[] = {
        KEEL_OPT_FLAG("json", &x->json),
        KEEL_OPT_CALL("set", &x->sets, add_set),
        KEEL_OPT_TEXT("device", &x->dev),
        KEEL_OPT_TEXT("host", &x->hostname),
        KEEL_OPT_INT("threads", &x->threads, 1, 1 << 20),
        KEEL_OPT_TEXT("sweep", &x->sweep),
        KEEL_OPT_TEXT("offload", &x->offload),
        KEEL_OPT_LAST,
    };
    int got = keel_getopts("explain", NULL, opts, argc, argv, 2, &pos, &npos);
    if (got >= 0)
        rc = got ? got : -1;
    else if (npos == 0)
        rc = keel_say(2, "explain needs FILE:LINE (see keel explain --help)");
    else if (keel_parse_site(pos[0], &x->file, &x->line, &x->col))
        rc = 2;
    if (rc == 0 && x->offload) {
        x->offload_mode = !strcmp(x->offload, "image") ? 1 : !strcmp(x->offload, "host") ? 2 : 0;
        if (!x->offload_mode)
            rc = keel_say(2, "--offload wants image or host, not '%s'", x->offload);
    }
    if (rc == 0 && x->sweep)
        rc = parse_sweep(x->sweep, x->sym, sizeof x->sym, &x->lo, &x->hi);
    if (rc == 0) {
        x->loc = pos[0];
        x->path = npos == 2 ? pos[1] : keel_default_db();
    }
    return rc;
}

/* The host and GPU profiles: --host / --device, else this host and the
 * detected GPU (else h100). */
static int explain_machines(explain_run *x)
{
    x->host = *rt_profile_host_default();
    if ((x->hostname && !*x->hostname) || (x->dev && !*x->dev))
        return keel_say(2, "--%s wants a profile name (see keel devices)",
                        x->dev && !*x->dev ? "device" : "host");
    x->hp = x->hostname ? rt_profile_find(x->hostname) : NULL;
    if (x->hostname && (!x->hp || x->hp->kind != RT_CPU))
        return keel_say(2, "no CPU profile '%s' (see keel devices)", x->hostname);
    if (x->dev && *x->dev) {
        const rt_profile *gp = rt_profile_find(x->dev);
        if (!gp || gp->kind != RT_GPU)
            return keel_say(2, "no GPU profile '%s' (see keel devices)", x->dev);
        x->gpu = *gp;
        x->have_gpu = 1;
    } else if (rt_cuda_detect(&x->gpu, x->gname, sizeof x->gname))
        x->have_gpu = 1;
    else
        x->gpu = *rt_profile_find("h100");
    return 0;
}

/* The database, the nest's facts, the host's calibration, the threads. */
static int explain_load(explain_run *x)
{
    char err[512], real[PATH_MAX];
    if (db_open(x->path, DB_READONLY, &x->d, err, sizeof err))
        return keel_say(1, "%s", err);
    int r = rt_facts_load(x->d, x->file, x->line, x->col, &x->f, err, sizeof err);
    if (r == 1 && realpath(x->file, real))
        r = rt_facts_load(x->d, real, x->line, x->col, &x->f, err, sizeof err);
    if (r < 0)
        return keel_say(1, "%s", err);
    if (r == 1)
        return keel_say(1, "no loop at %s in %s", x->loc, x->path);
    /* `--host host` names this host: its calibration when one is stored,
     * as with no --host at all; another name is that profile as written */
    if (x->hp == rt_profile_host_default())
        x->hp = NULL;
    if (x->hp)
        x->host = *x->hp;
    else {
        rt_calibration cal;
        if (rt_calibration_load(x->path, &cal, err, sizeof err) == 0)
            rt_profile_from_calibration(&cal, &x->host);
    }
    /* --threads asks what the host would do running the nest with that many
     * threads, even when the program runs it sequentially as compiled. */
    x->threads_given = x->threads > 0;
    if (x->threads <= 0)
        x->threads = x->hp ? rt_profile_threads(x->hp) : rt_default_threads();
    if (x->json && !(x->j = keel_json_new()))
        return keel_say(1, "out of memory");
    return 0;
}

/* The loop, the symbols it needs, the values given, the machines. */
static void explain_header(const explain_run *x)
{
    const rt_facts *f = x->f;
    keel_json *j = x->j;
    const char *const *need;
    int nneed = rt_facts_symbols(f, &need), n = x->sets.n;
    if (j) {
        keel_json_object(j, NULL);
        keel_json_object(j, "loop");
        keel_json_str(j, "file", rt_facts_file(f));
        keel_json_int(j, "line", rt_facts_line(f));
        keel_json_str(j, "function", rt_facts_function(f));
        keel_json_str(j, "label", *rt_facts_label(f) ? rt_facts_label(f) : NULL);
        keel_json_end(j);
        keel_json_array(j, "needs");
        for (int i = 0; i < nneed; i++)
            keel_json_str(j, NULL, need[i]);
        keel_json_end(j);
        keel_json_object(j, "values");
        for (int i = 0; i < n; i++)
            keel_json_int(j, x->sets.names[i], x->sets.values[i]);
        keel_json_end(j);
        keel_json_object(j, "host");
        keel_json_str(j, "name", x->host.name);
        keel_json_str(j, "desc", x->host.desc);
        keel_json_end(j);
        keel_json_object(j, "device");
        keel_json_str(j, "name", x->gpu.name);
        keel_json_str(j, "detected", x->gname[0] ? x->gname : NULL);
        keel_json_end(j);
        return;
    }
    printf("loop        %s:%d %s%s%s%s\n", rt_facts_file(f), rt_facts_line(f),
           rt_facts_function(f), *rt_facts_label(f) ? " [" : "", rt_facts_label(f),
           *rt_facts_label(f) ? "]" : "");
    printf("needs       ");
    for (int i = 0; i < nneed; i++)
        printf("%s%s", i ? "," : "", need[i]);
    printf("%s\nvalues      ", nneed ? "" : "-");
    for (int i = 0; i < n; i++)
        printf("%s%s=%lld", i ? "," : "", x->sets.names[i], x->sets.values[i]);
    printf("%s\nhost        %s (%s)\n", n ? "" : "-", x->host.name, x->host.desc);
    printf("device      %s%s%s\n", x->gpu.name, x->gname[0] ? " = " : "", x->gname);
}

/* --sweep: the table (or its JSON) instead of one verdict. */
static int explain_sweep(const explain_run *x)
{
    char err[512];
    int rc;
    rt_sweep sw = { .host = &x->host, .gpu = &x->gpu, .threads = x->threads,
                    .threads_given = x->threads_given, .offload = x->offload_mode,
                    .nfixed = x->sets.n,
                    .names = (const char *const *)x->sets.names, .values = x->sets.values };
    if (x->j) {
        if ((rc = sweep_json(x->j, x->f, &sw, x->sym, x->lo, x->hi)) == 0) {
            keel_json_end(x->j);
            rc = keel_json_print(x->j, stdout);
        }
    } else if ((rc = rt_sweep_print(x->f, &sw, x->sweep, stdout, err, sizeof err)) != 0)
        keel_say(rc, "%s", err);
    return rc;
}

/* The best legal mapping keel sees at the given values (bestmap.h);
 * *bm.searched 0 when it could not be evaluated. */
static void explain_bestmap(const explain_run *x, keel_bestmap *bm)
{
    char err[256];
    int n = x->sets.n;
    rt_sweep sw = { .host = &x->host, .gpu = &x->gpu, .threads = x->threads,
                    .threads_given = x->threads_given, .offload = x->offload_mode,
                    .sym = n ? x->sets.names[0] : "*",
                    .nfixed = n ? n - 1 : 0,
                    .names = (const char *const *)x->sets.names + (n ? 1 : 0),
                    .values = x->sets.values + (n ? 1 : 0) };
    if (keel_bestmap_find(x->d, x->f, &sw, n ? x->sets.values[0] : 1, bm, err, sizeof err)) {
        memset(bm, 0, sizeof *bm);
        keel_fmtn(bm->change, sizeof bm->change, "not searched (%s)", err);
    }
}

static void bestmap_json(keel_json *j, const keel_bestmap *bm)
{
    keel_json_object(j, "best_mapping");
    keel_json_bool(j, "searched", bm->searched);
    keel_json_int(j, "candidates", bm->candidates);
    keel_json_bool(j, "better", bm->better);
    if (bm->better) {
        keel_json_int(j, "thread_loop_line", bm->line);
        keel_json_int(j, "collapse", bm->collapse);
        keel_json_int(j, "fastest_loop_line", bm->fast_line);
        keel_json_str(j, "privatise", bm->privatise[0] ? bm->privatise : NULL);
    } else {
        keel_json_null(j, "thread_loop_line");
        keel_json_null(j, "collapse");
        keel_json_null(j, "fastest_loop_line");
        keel_json_null(j, "privatise");
    }
    keel_json_num(j, "items", bm->items_best);
    keel_json_num(j, "items_as_compiled", bm->items_as);
    keel_json_num(j, "gpu_s", bm->gpu_best_s);
    keel_json_num(j, "gpu_as_compiled_s", bm->gpu_as_s);
    keel_json_str(j, "change", bm->change);
    keel_json_end(j);
}

/* What explain decided at the given values. */
typedef struct {
    rt_launch in;
    rt_estimate e;             /* the times decided on (history's when it decides) */
    double model_cpu_s, model_gpu_s, model_xfer_s;
    int verdict, model_verdict;
    const char *why;           /* NULL, "not parallel", "no device", "too small", ovwhy */
    char key[512];             /* the size key */
    int hist;                  /* trusted history decided */
    rt_history_pred hp;
    int ov;                    /* overlap check: 1 at launch, -1 impossible, 0 none */
    char ovwhy[400];
    keel_bestmap bm;
} explain_out;

/* The models' times at one history row's sizes (rt_history_lookup_at;
 * ctx the explain run): the regression carries them to the asked ones. */
static int explain_model(void *ctx, int n, const char *const *names, const long long *values,
                         double *cpu_s, double *gpu_s)
{
    const explain_run *x = ctx;
    rt_launch in;
    rt_estimate e;
    char err[256];
    if (rt_facts_bind_on(x->f, &x->host, &x->gpu, x->threads, n, names, values, &in, err,
                         sizeof err))
        return -1;
    rt_estimate_all(&x->host, x->threads, &x->gpu, &in, &e);
    *cpu_s = e.cpu_s, *gpu_s = e.gpu_s + e.xfer_s;
    return 0;
}

/* Measured history and the run-time overlap check over the model's verdict. */
static void explain_decide(const explain_run *x, explain_out *o)
{
    char err[512];
    const rt_facts *f = x->f;
    int n = x->sets.n;
    double size = 0;
    o->model_cpu_s = o->e.cpu_s, o->model_gpu_s = o->e.gpu_s, o->model_xfer_s = o->e.xfer_s;
    o->why = o->in.not_parallel ? rt_facts_serial_label(f) : !x->have_gpu ? "no device"
             : o->e.too_small ? "too small" : NULL;
    if (o->in.not_parallel || !x->have_gpu)
        o->verdict = 0;
    o->model_verdict = o->verdict;
    memset(&o->hp, 0, sizeof o->hp);
    o->hist = size_key(f, &o->in, n, x->sets.names, x->sets.values, o->key, sizeof o->key,
                       &size) == 0 &&
              rt_history_lookup_at(x->path, rt_facts_loop_id(f), o->key, size, o->e.cpu_s,
                                   o->e.gpu_s + o->e.xfer_s, explain_model, (void *)x, &o->hp,
                                   err, sizeof err) == 0 &&
              o->hp.decides;
    if (o->hist) {
        o->verdict = o->hp.gpu_s < o->hp.cpu_s && !o->in.not_parallel && x->have_gpu;
        o->e.cpu_s = o->hp.cpu_s, o->e.gpu_s = o->hp.gpu_s, o->e.xfer_s = 0;
    }
    /* the run-time overlap check: no possible check is never the GPU */
    o->ov = explain_overlap(rt_facts_overlap(f), n, (const char *const *)x->sets.names,
                            x->sets.values, o->ovwhy, sizeof o->ovwhy);
    if (o->ov < 0 && o->verdict)
        o->verdict = 0, o->why = o->ovwhy;
}

static int explain_out_json(keel_json *j, const explain_out *o)
{
    keel_json_object(j, "overlap");
    keel_json_str(j, "check", o->ov > 0 ? "at launch" : o->ov < 0 ? "impossible" : "none");
    keel_json_str(j, "detail", o->ov ? o->ovwhy : NULL);
    keel_json_end(j);
    keel_json_str(j, "size_key", o->key);
    if (o->hist) {
        keel_json_object(j, "history");
        keel_json_str(j, "how", o->hp.how);
        keel_json_str(j, "regression", strcmp(o->hp.how, "regression") ? NULL
                                       : o->hp.shaped ? "models' times through 2 sizes"
                                       : "a*n^b+c");
        keel_json_num(j, "cpu_s", o->hp.cpu_s);
        keel_json_int(j, "cpu_samples", o->hp.cpu_samples);
        keel_json_int(j, "cpu_sizes", o->hp.cpu_sizes);
        keel_json_num(j, "gpu_s", o->hp.gpu_s);
        keel_json_int(j, "gpu_samples", o->hp.gpu_samples);
        keel_json_int(j, "gpu_sizes", o->hp.gpu_sizes);
        keel_json_str(j, "model_said", o->model_verdict ? "GPU" : "CPU");
        keel_json_end(j);
    } else
        keel_json_null(j, "history");
    keel_json_str(j, "decided_by", o->hist ? "history" : "model");
    keel_json_str(j, "verdict", o->verdict ? "GPU" : "CPU");
    keel_json_str(j, "why", o->why);
    keel_json_object(j, "seconds");
    keel_json_num(j, "cpu", o->e.cpu_s);
    keel_json_num(j, "gpu", o->e.gpu_s);
    keel_json_num(j, "xfer", o->e.xfer_s);
    keel_json_num(j, "hk", o->e.hk_kernel_s);
    keel_json_end(j);
    keel_json_object(j, "model_seconds");
    keel_json_num(j, "cpu", o->model_cpu_s);
    keel_json_num(j, "gpu", o->model_gpu_s);
    keel_json_num(j, "xfer", o->model_xfer_s);
    keel_json_end(j);
    bestmap_json(j, &o->bm);
    keel_json_end(j);
    return keel_json_print(j, stdout);
}

static void explain_out_text(const explain_out *o)
{
    if (o->hist) {
        char hc[32], hg[32];
        rt_format_time(hc, sizeof hc, o->hp.cpu_s);
        rt_format_time(hg, sizeof hg, o->hp.gpu_s);
        printf("history     key %s: cpu %s (%d samples, %d sizes) | gpu %s (%d samples, %d sizes)"
               " %s\n", o->key, hc, o->hp.cpu_samples, o->hp.cpu_sizes, hg, o->hp.gpu_samples,
               o->hp.gpu_sizes, !strcmp(o->hp.how, "measured") ? "(measured on both devices)"
               : o->hp.shaped ? "(regression: the models' times carried through the 2 nearest"
                                " measured sizes per device)"
               : "(regression a*n^b+c over the sizes seen)");
        printf("            model said %s\n", o->model_verdict ? "GPU" : "CPU");
        printf("decided by  history (%s)\n", o->hp.how);
    } else if (!o->hp.cpu_samples && !o->hp.gpu_samples)
        printf("decided by  model (no trusted history for key %s)\n", o->key);
    else
        printf("decided by  model (history at key %s: %d cpu, %d gpu samples; %d each decide)\n",
               o->key, o->hp.cpu_samples, o->hp.gpu_samples, RT_HISTORY_TRUST);
    char cs[32], gs[32], xs[32];
    rt_format_time(cs, sizeof cs, o->e.cpu_s);
    rt_format_time(gs, sizeof gs, o->e.gpu_s);
    rt_format_time(xs, sizeof xs, o->e.xfer_s);
    printf("verdict     cpu %s | gpu %s + xfer %s -> %s%s%s%s\n", cs, gs, xs,
           o->verdict ? "GPU" : "CPU", o->why ? " (" : "", o->why ? o->why : "",
           o->why ? ")" : "");
    if (o->ov > 0)
        printf("overlap     %s: the GPU only if the written ranges are apart\n", o->ovwhy);
    else if (o->ov < 0)
        printf("overlap     %s: never the GPU\n", o->ovwhy);
    else
        printf("overlap     none (the verdict relies on no two bases being apart)\n");
    printf("seconds     cpu %.9g gpu %.9g xfer %.9g hk %.9g\n", o->e.cpu_s, o->e.gpu_s,
           o->e.xfer_s, o->e.hk_kernel_s);
    printf("best map    %s\n", o->bm.change);
    if (o->bm.privatise[0] && o->bm.serial_why[0])
        printf("            sequential as written: %s\n", o->bm.serial_why);
}

/* One verdict at the given values: bind the facts, run the models, print
 * their terms, decide (history, overlap), the best mapping, the verdict. */
static int explain_verdict(explain_run *x)
{
    char err[512];
    explain_out *o = calloc(1, sizeof *o);
    if (!o)
        return keel_say(1, "out of memory");
    if (rt_facts_bind_on(x->f, &x->host, &x->gpu, x->threads, x->sets.n,
                         (const char *const *)x->sets.names, x->sets.values, &o->in, err,
                         sizeof err)) {
        if (!x->j)
            rt_facts_print(x->f, NULL, stdout);
        free(o);
        return keel_say(1, "%s (give it with --set)", err);
    }
    if (x->threads_given)
        o->in.host_sequential = 0;
    if (x->offload_mode)       /* as if built with (image) or without (host) an offload image */
        o->in.target_host_code = x->offload_mode == 2;
    o->verdict = rt_estimate_all(&x->host, x->threads, &x->gpu, &o->in, &o->e);
    if (x->j) {
        facts_json(x->j, x->f, &o->in);
        estimate_json(x->j, &x->host, &x->gpu, &o->in, &o->e);
    } else {
        rt_facts_print(x->f, &o->in, stdout);
        print_estimate(&x->host, &x->gpu, &o->in, &o->e);
    }
    explain_decide(x, o);
    explain_bestmap(x, &o->bm);
    int rc = 0;
    if (x->j)
        rc = explain_out_json(x->j, o);
    else
        explain_out_text(o);
    free(o);
    return rc;
}

int keel_cmd_explain(int argc, char **argv)
{
    explain_run x = { .dev = getenv("KEEL_DEVICE"), .hostname = getenv("KEEL_HOST") };
    int rc = explain_args(argc, argv, &x);
    if (rc == 0)
        rc = explain_machines(&x);
    if (rc == 0)
        rc = explain_load(&x);
    if (rc == 0) {
        explain_header(&x);
        rc = x.sweep ? explain_sweep(&x) : explain_verdict(&x);
    }
    keel_json_free(x.j);
    rt_facts_free(x.f);
    db_close(x.d);
    for (int i = 0; i < x.sets.n; i++)
        free(x.sets.names[i]);
    free(x.sets.names);
    free(x.sets.values);
    free(x.file);
    return rc < 0 ? 0 : rc;
}
