/*
 * cli.c -- `keel devices`, `keel calibrate`, `keel explain` (cli.h).
 *
 * explain evaluates exactly what keel_decide evaluates -- rt_facts_bind
 * then rt_estimate_all -- with the values of --set, and prints every term;
 * it runs nothing and writes nothing.
 */
#define _XOPEN_SOURCE 700   /* realpath */

#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib.h"
#include "db.h"
#include "facts.h"
#include "model.h"
#include "rt.h"
#include "sweep.h"

static int say(int code, const char *fmt, ...)
{
    va_list ap;
    fputs("keel: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

int rt_cmd_devices(int argc, char **argv)
{
    (void)argv;
    if (argc > 0)
        return say(2, "devices takes no arguments");
    printf("%-8s %-4s %s\n", "NAME", "KIND", "KEY NUMBERS");
    for (int i = -1; i < rt_profile_count(); i++) {
        const rt_profile *p = i < 0 ? rt_profile_host_default() : rt_profile_at(i);
        if (p->kind == RT_CPU)
            printf("%-8s cpu  %.2f GHz, %d threads, %.1f GB/s, %.0f GFLOP/s, fork %.0f / join %.0f"
                   " / static %.0f / iter %.0f cycles\n",
                   p->name, p->freq_hz / 1e9, p->cores, p->mem_bw / 1e9, p->peak_flops / 1e9,
                   p->fork_cycles, p->join_cycles, p->sched_cycles, p->loop_overhead);
        else
            printf("%-8s gpu  %d SMs, %.3f GHz, %.0f GB/s, bus %.1f GB/s, %d warps/SM, latency"
                   " %.0f cycles, launch %.0f us\n",
                   p->name, p->sms, p->gpu_hz / 1e9, p->gpu_bw / 1e9, p->bus_bw / 1e9,
                   p->max_warps_sm, p->mem_lat, p->launch_s * 1e6);
        printf("         %s\n         source: %s\n", p->desc, p->source);
    }
    return 0;
}

int rt_cmd_calibrate(int argc, char **argv, const char *default_db)
{
    char err[512];
    const char *path = default_db;
    db *d;
    if (argc > 1)
        return say(2, "calibrate takes at most one argument, DB");
    if (argc == 1)
        path = argv[0];
    /* open for writing first: migrates an old keel database to v2 */
    if (db_open(path, DB_WRITE, &d, err, sizeof err))
        return say(1, "%s", err);
    db_close(d);
    rt_calibration c;
    if (rt_calibrate(&c, err, sizeof err))
        return say(1, "%s", err);
    printf("cores        %d\n", c.cores);
    printf("clock        %.2f GHz%s\n", c.freq_hz / 1e9, c.freq_hz > 0 ? "" : " (unknown: default)");
    printf("bandwidth    %.2f GB/s (STREAM triad)\n", c.mem_bw / 1e9);
    printf("peak         %.1f GFLOP/s (multiply-add chains)\n", c.peak_flops / 1e9);
    printf("fork/join    %.0f ns (EPCC parallel)\n", c.fork_ns);
    printf("static for   %.0f ns (EPCC for schedule(static))\n", c.sched_ns);
    printf("barrier      %.0f ns (EPCC barrier)\n", c.join_ns);
    if (rt_calibration_store(path, &c, err, sizeof err))
        return say(1, "%s", err);
    printf("stored in    %s\n", path);
    return 0;
}

/* Parse "a=1,b=2" into parallel arrays (appending). */
static int parse_set(const char *s, char ***names, long long **values, int *n)
{
    char *copy = strdup(s), *save = NULL;
    if (!copy)
        return -1;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '='), *end;
        if (!eq || eq == tok) {
            free(copy);
            return -1;
        }
        *eq = 0;
        errno = 0;
        long long v = strtoll(eq + 1, &end, 0);
        if (*end || end == eq + 1 || errno == ERANGE) {   /* no silent INT64_MAX */
            free(copy);
            return -1;
        }
        char **nn = realloc(*names, sizeof **names * (size_t)(*n + 1));
        long long *vv = realloc(*values, sizeof **values * (size_t)(*n + 1));
        if (nn) *names = nn;
        if (vv) *values = vv;
        if (!nn || !vv || !((*names)[*n] = strdup(tok))) {
            free(copy);
            return -1;
        }
        (*values)[(*n)++] = v;
    }
    free(copy);
    return 0;
}

static void t(const char *label, double s)
{
    char b[32];
    rt_format_time(b, sizeof b, s);
    printf("  %-22s %s\n", label, b);
}

static void print_estimate(const rt_profile *cpu, const rt_profile *gpu, const rt_launch *in,
                           const rt_estimate *e)
{
    printf("launch (bound facts)\n");
    printf("  parallel iterations    %.0f\n", in->par_iters);
    printf("  cycles per iteration   %.6g (Machine_c_per_iter, inner loops included)\n",
           in->cycles_per_iter);
    printf("  GPU work items         %.0f\n", in->work_items);
    printf("  compute insts / item   %.6g\n", in->comp_insts);
    printf("  flops                  %.6g\n", in->flops);
    printf("  bytes in / out         %.0f / %.0f\n", in->bytes_in, in->bytes_out);
    printf("CPU  %s: Liao-Chapman (chikin Fig. 3) + roofline\n", cpu->name);
    printf("  threads                %d%s\n", e->threads,
           in->host_sequential ? " (no OpenMP pragma: runs as compiled, no parallel region)" : "");
    printf("  Chunk_size             %.0f (static: ceil(iters / threads)), Schedule_times %.0f\n",
           e->chunk, e->schedule_times);
    printf("  Fork_c                 %.0f cycles\n", e->fork_c);
    printf("  Schedule_c             %.0f cycles\n", e->schedule_c);
    printf("  Loop_overhead_c        %.0f cycles (%.0f x chunk)\n", e->loop_overhead_c,
           cpu->loop_overhead);
    printf("  Loop_chunk_c           %.6g cycles\n", e->loop_chunk_c);
    printf("  Parallel_for_c         %.6g cycles\n", e->parallel_for_c);
    printf("  Join_c                 %.0f cycles\n", e->join_c);
    printf("  Parallel_Region_c      %.6g cycles at %.2f GHz\n", e->region_c, cpu->freq_hz / 1e9);
    t("compute time", e->cpu_compute_s);
    t("memory time (roofline)", e->cpu_mem_s);
    t("flop floor (info)", e->cpu_flop_s);
    t("CPU time", e->cpu_s);
    printf("GPU  %s: Hong-Kim MWP/CWP (chikin Figs. 4-5)\n", gpu->name);
    printf("  threads/block          %d, blocks %.0f, active SMs %.0f, blocks/SM %.0f\n", e->tpb,
           e->blocks, e->active_sms, e->active_blocks_sm);
    printf("  N (warps/SM)           %.0f\n", e->n_warps);
    printf("  #Rep, #OMP_Rep         %.0f, %.0f\n", e->rep, e->omp_rep);
    printf("  #Coal / #Uncoal insts  %.6g / %.6g (per thread), #Uncoal_per_mw %.3g\n",
           e->coal_insts, e->uncoal_insts, e->uncoal_per_mw);
    printf("  #total_insts           %.6g\n", e->total_insts);
    printf("  Mem_L_Coal / Uncoal    %.0f / %.0f cycles, Mem_L %.1f\n", e->mem_l_coal,
           e->mem_l_uncoal, e->mem_l);
    printf("  Departure_delay        %.3g cycles\n", e->departure_delay);
    printf("  Mem_cycles             %.6g\n", e->mem_cycles);
    printf("  Comp_cycles            %.6g\n", e->comp_cycles);
    printf("  Load_bytes_per_warp    %.1f, BW_per_warp %.4g B/s\n", e->load_bytes_per_warp,
           e->bw_per_warp);
    printf("  MWP_Without_BW         %.4g\n", e->mwp_without_bw);
    printf("  MWP_peak_BW            %.4g\n", e->mwp_peak_bw);
    printf("  MWP                    %.4g\n", e->mwp);
    printf("  CWP_full / CWP         %.4g / %.4g\n", e->cwp_full, e->cwp);
    printf("  case                   %d (%s)\n", e->hk_case,
           e->hk_case == 1 ? "MWP == N == CWP" : e->hk_case == 2 ? "memory bound" : "compute bound");
    printf("  Exec_cycles            %.6g at %.3f GHz\n", e->exec_cycles, gpu->gpu_hz / 1e9);
    t("kernel time", e->kernel_s);
    t("launch overhead", e->launch_s);
    t("GPU time", e->gpu_s);
    printf("transfer (boat hull t0 = d / B_bus)\n");
    printf("  d                      %.0f bytes\n", e->xfer_bytes);
    printf("  B_bus                  %.1f GB/s\n", gpu->bus_bw / 1e9);
    t("transfer time", e->xfer_s);
}

/* A thread count: digits only, 1 to 2^20 (atoi wrapped 99999999999 to
 * 1215752191); 0 when it is not one. */
static int parse_threads(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno == ERANGE || v < 1 || v > 1 << 20)
        return 0;
    return (int)v;
}

int rt_cmd_explain(int argc, char **argv, const char *default_db)
{
    const char *loc = NULL, *path = NULL, *dev = getenv("KEEL_DEVICE"), *hostname = NULL;
    char **names = NULL, err[512], real[PATH_MAX];
    long long *values = NULL;
    int n = 0, threads = 0, rc = 0;
    const char *sweep = NULL;     /* --sweep SYM=LO:HI (runtime/sweep.c) */
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        const char *opts[] = { "--set", "--device", "--threads", "--host", "--sweep" };
        int which = -1;
        for (int k = 0; k < 5; k++) {
            size_t l = strlen(opts[k]);
            if (strncmp(a, opts[k], l) == 0 && (a[l] == 0 || a[l] == '=')) {
                which = k;
                if (a[l] == '=')
                    v = a + l + 1;
                else if (i + 1 < argc)
                    v = argv[++i];
                else
                    return say(2, "%s needs a value", opts[k]);
            }
        }
        if (which == 0 && parse_set(v, &names, &values, &n))
            return say(2, "bad --set '%s' (want SYM=INT,SYM=INT)", v);
        else if (which == 1)
            dev = v;
        else if (which == 2 && (threads = parse_threads(v)) <= 0)
            return say(2, "bad --threads '%s' (want 1 to %d)", v, 1 << 20);
        else if (which == 3)
            hostname = v;
        else if (which == 4)
            sweep = v;
        else if (which < 0 && a[0] == '-' && a[1])
            return say(2, "unknown option '%s' for explain", a);
        else if (which < 0 && !loc)
            loc = a;
        else if (which < 0 && !path)
            path = a;
        else if (which < 0)
            return say(2, "too many arguments for explain");
    }
    if (!loc)
        return say(2, "explain needs FILE:LINE (see keel --help)");
    if (!path)
        path = default_db;
    char *file = strdup(loc), *c1 = file ? strchr(file, ':') : NULL;
    if (!c1)
        return free(file), say(2, "bad location '%s' (want FILE:LINE[:COL])", loc);
    *c1 = 0;
    int line = atoi(c1 + 1), col = 0;
    char *c2 = strchr(c1 + 1, ':');
    if (c2)
        col = atoi(c2 + 1);
    const char *f0 = strncmp(file, "./", 2) == 0 ? file + 2 : file;

    rt_profile host = *rt_profile_host_default(), gpu;
    const rt_profile *hp = hostname ? rt_profile_find(hostname) : NULL, *gp = NULL;
    int have_gpu = 0;
    char gname[128] = "";
    if (hostname && (!hp || hp->kind != RT_CPU))
        return free(file), say(2, "no CPU profile '%s' (see keel devices)", hostname);
    if (dev && *dev) {
        if (!(gp = rt_profile_find(dev)) || gp->kind != RT_GPU)
            return free(file), say(2, "no GPU profile '%s' (see keel devices)", dev);
        gpu = *gp;
        have_gpu = 1;
    } else if (rt_cuda_detect(&gpu, gname, sizeof gname))
        have_gpu = 1;
    else
        gpu = *rt_profile_find("h100");

    db *d = NULL;
    rt_facts *f = NULL;
    if (db_open(path, DB_READONLY, &d, err, sizeof err)) {
        free(file);
        return say(1, "%s", err);
    }
    int r = rt_facts_load(d, f0, line, col, &f, err, sizeof err);
    if (r == 1 && realpath(f0, real))
        r = rt_facts_load(d, real, line, col, &f, err, sizeof err);
    if (r < 0)
        rc = say(1, "%s", err);
    else if (r == 1)
        rc = say(1, "no loop at %s in %s", loc, path);
    if (rc)
        goto done;
    if (hp)
        host = *hp;
    else {
        rt_calibration cal;
        if (rt_calibration_load(path, &cal, err, sizeof err) == 0)
            rt_profile_from_calibration(&cal, &host);
    }
    /* --threads asks what the host would do running the nest with that many
     * threads, even when the program runs it sequentially as compiled. */
    int threads_given = threads > 0;
    if (threads <= 0)
        threads = hp ? hp->cores : rt_default_threads();

    const char *const *need;
    int nneed = rt_facts_symbols(f, &need);
    printf("loop        %s:%d %s%s%s%s\n", rt_facts_file(f), rt_facts_line(f), rt_facts_function(f),
           *rt_facts_label(f) ? " [" : "", rt_facts_label(f), *rt_facts_label(f) ? "]" : "");
    printf("needs       ");
    for (int i = 0; i < nneed; i++)
        printf("%s%s", i ? "," : "", need[i]);
    printf("%s\nvalues      ", nneed ? "" : "-");
    for (int i = 0; i < n; i++)
        printf("%s%s=%lld", i ? "," : "", names[i], values[i]);
    printf("%s\nhost        %s (%s)\n", n ? "" : "-", host.name, host.desc);
    printf("device      %s%s%s\n", gpu.name, gname[0] ? " = " : "", gname);
    if (sweep) {
        rt_sweep sw = { .host = &host, .gpu = &gpu, .threads = threads,
                        .threads_given = threads_given, .nfixed = n,
                        .names = (const char *const *)names, .values = values };
        if ((rc = rt_sweep_print(f, &sw, sweep, stdout, err, sizeof err)) != 0)
            say(rc, "%s", err);
        goto done;
    }
    rt_launch in;
    rt_estimate e;
    if (rt_facts_bind(f, n, (const char *const *)names, values, &in, err, sizeof err)) {
        rt_facts_print(f, NULL, stdout);
        rc = say(1, "%s (give it with --set)", err);
        goto done;
    }
    if (threads_given)
        in.host_sequential = 0;
    rt_facts_print(f, &in, stdout);
    int verdict = rt_estimate_all(&host, threads, &gpu, &in, &e);
    print_estimate(&host, &gpu, &in, &e);
    char cs[32], gs[32], xs[32];
    rt_format_time(cs, sizeof cs, e.cpu_s);
    rt_format_time(gs, sizeof gs, e.gpu_s);
    rt_format_time(xs, sizeof xs, e.xfer_s);
    const char *why = in.not_parallel ? " (not parallel)" : !have_gpu ? " (no device)" : "";
    if (in.not_parallel || !have_gpu)
        verdict = 0;
    printf("verdict     cpu %s | gpu %s + xfer %s -> %s%s\n", cs, gs, xs, verdict ? "GPU" : "CPU",
           why);
done:
    rt_facts_free(f);
    db_close(d);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(values);
    free(file);
    return rc;
}
