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
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "calib.h"
#include "db.h"
#include "facts.h"
#include "history.h"
#include "model.h"
#include "rt.h"
#include "sweep.h"


static void device_line(const rt_profile *p)
{
    if (p->kind == RT_CPU)
        printf("%-10s cpu  %.2f GHz, %d cores x %d = %d threads, %.1f GB/s, line %.0f B, "
               "L2 %.0f KiB/core, L3 %.0f MiB, %.0f ns, mlp %.0f, mca %s\n",
               p->name, p->freq_hz / 1e9, p->cores, p->smt, rt_profile_threads(p),
               p->mem_bw / 1e9, p->line, p->l2 / 1024, p->l3 / 1048576, p->cpu_mem_lat * 1e9,
               p->mlp, p->mca_cpu ? p->mca_cpu : "-");
    else
        printf("%-10s gpu  %d SMs, %.3f GHz, %.0f GB/s, bus %.1f GB/s, %d warps/SM, latency"
               " %.0f cycles, sector %.0f B, L2 %.1f MiB, launch %.0f us\n",
               p->name, p->sms, p->gpu_hz / 1e9, p->gpu_bw / 1e9, p->bus_bw / 1e9,
               p->max_warps_sm, p->mem_lat, p->sector, p->gpu_l2 / 1048576, p->launch_s * 1e6);
    printf("           %s\n           source: %s\n", p->desc, p->source);
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
    else
        printf("%-10s %-4s %s\n", "NAME", "KIND", "KEY NUMBERS");
    j ? device_json(j, rt_profile_host_default()) : device_line(rt_profile_host_default());
    for (int i = 0; i < rt_profile_count(); i++)
        j ? device_json(j, rt_profile_at(i)) : device_line(rt_profile_at(i));
    /* the user's own profiles */
    DIR *d = rt_machines_dir(dir, sizeof dir) == 0 ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 8 && !strcmp(e->d_name + n - 8, ".machine")) {
            char path[4400];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            const rt_profile *p = rt_profile_load(path, err, sizeof err);
            if (p)
                j ? device_json(j, p) : device_line(p);
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
    rt_calibration cal;
    if (rt_calibrate(&cal, err, sizeof err))
        return keel_say(1, "%s", err);
    if (rt_calibration_store(path, &cal, err, sizeof err))
        return keel_say(1, "%s", err);
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
        keel_json_str(j, "stored_in", path);
        keel_json_end(j);
        int rc = keel_json_print(j, stdout);
        keel_json_free(j);
        return rc;
    }
    printf("cores        %d\n", cal.cores);
    printf("clock        %.2f GHz%s\n", cal.freq_hz / 1e9,
           cal.freq_hz > 0 ? "" : " (unknown: default)");
    printf("bandwidth    %.2f GB/s (STREAM triad)\n", cal.mem_bw / 1e9);
    printf("peak         %.1f GFLOP/s (multiply-add chains)\n", cal.peak_flops / 1e9);
    printf("fork/join    %.0f ns (EPCC parallel)\n", cal.fork_ns);
    printf("static for   %.0f ns (EPCC for schedule(static))\n", cal.sched_ns);
    printf("barrier      %.0f ns (EPCC barrier)\n", cal.join_ns);
    for (int f = 0; f < cal.bw_points; f++) {      /* PMaC: bandwidth per pattern */
        printf("%-12s", f ? "" : "patterns");
        printf(" %7.0f KiB:", cal.bw_fp[f] / 1024);
        for (int p = 0; p < RT_PATTERNS; p++)
            printf(" %s %.1f/%.1f", rt_pattern_name(p), cal.bw_one[p][f] / 1e9,
                   cal.bw_all[p][f] / 1e9);
        printf(" GB/s (1/%d threads)\n", cal.bw_threads);
    }
    printf("stored in    %s\n", path);
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
    printf("machines    host %s, device %s\n", cpu->name, gpu->name);
    printf("launch (bound facts)\n");
    printf("  parallel iterations    %.0f\n", in->par_iters);
    printf("  cycles per iteration   %.6g (Machine_c_per_iter, inner loops included)\n",
           in->cycles_per_iter);
    printf("  GPU work items         %.0f\n", in->work_items);
    printf("  compute insts / item   %.6g\n", in->comp_insts);
    printf("  flops                  %.6g\n", in->flops);
    printf("  bytes in / out         %.0f / %.0f (footprint; what a transfer moves)\n",
           in->bytes_in, in->bytes_out);
    printf("  CPU DRAM traffic       %.0f bytes per step (%.0f-byte lines, reuse in cache)\n",
           in->cpu_bytes, cpu->line);
    printf("  GPU DRAM traffic       %.0f bytes per step (%.0f-byte sectors per warp)\n",
           in->gpu_bytes, gpu->sector);
    printf("  GPU latency chain      %.6g dependent memory rounds per work item, %.6g cycles "
           "(DRAM %.0f, L2 hit %.0f, L1 hit %.0f)\n", in->gpu_chain, in->gpu_lat_cycles,
           gpu->mem_lat, gpu->l2_lat, gpu->l1_lat);
    if (cpu->tlb_entries > 0 && cpu->page > 0)
        printf("  TLB misses             %.6g per step (%.0f-byte pages, %.0f entries)\n",
               in->tlb_misses, cpu->page, cpu->tlb_entries);
    if (in->steps > 1 || in->kernels > 1)
        printf("  region                 %.0f steps x %.0f kernels, data resident "
               "(transfers once)\n", in->steps, in->kernels);
    printf("  llvm-mca figures       %s%s\n", in->mca_target[0] ? in->mca_target : "none stored",
           !in->mca_target[0] ? "" : in->mca_exact ? " (the host's CPU)"
           : cpu->mca_cpu ? " (nearest stored: the host's CPU has none)" : "");
    printf("CPU  %s: Liao-Chapman (chikin Fig. 3) + memory traffic\n", cpu->name);
    printf("  threads                %d%s\n", e->threads,
           in->host_sequential ? " (no OpenMP pragma: runs as compiled, no parallel region)" : "");
    printf("  cores used, SMT share  %d, %.0f thread(s) per core run one after another\n",
           e->cores_used, e->smt_share);
    printf("  Chunk_size             %.0f (static: ceil(iters / threads)), Schedule_times %.0f\n",
           e->chunk, e->schedule_times);
    printf("  Fork_c                 %.0f cycles\n", e->fork_c);
    printf("  Schedule_c             %.0f cycles\n", e->schedule_c);
    printf("  Loop_overhead_c        %.0f cycles (%.0f x chunk)\n", e->loop_overhead_c,
           cpu->loop_overhead);
    printf("  Tlb_c                  %.6g cycles (%s)\n", e->tlb_c,
           cpu->tlb_miss_cycles > 0 ? "chunk's TLB misses x miss cycles" : "no TLB figures");
    printf("  Loop_chunk_c           %.6g cycles\n", e->loop_chunk_c);
    printf("  Parallel_for_c         %.6g cycles\n", e->parallel_for_c);
    printf("  Join_c                 %.0f cycles\n", e->join_c);
    printf("  Parallel_Region_c      %.6g cycles at %.2f GHz\n", e->region_c, cpu->freq_hz / 1e9);
    t("compute time", e->cpu_compute_s);
    if (e->cpu_bw_calibrated) {          /* keel calibrate's table (PMaC) */
        printf("  bandwidth              %.1f GB/s (calibrated per pattern at %.3g bytes, "
               "PMaC):", e->cpu_bw / 1e9, in->bytes_in + in->bytes_out);
        for (int p = 0; p < RT_PATTERNS; p++)
            if (in->cpu_bytes_pat[p] > 0)
                printf(" %s %.6g B at %.2f GB/s", rt_pattern_name(p), in->cpu_bytes_pat[p],
                       e->cpu_pat_bw[p] / 1e9);
        printf("\n");
    } else
        printf("  bandwidth              %.1f GB/s = min(%.1f GB/s%s, %d cores x %.2f GB/s "
               "(Little: %.0f lines x %.0f B / %.0f ns))\n",
               e->cpu_bw / 1e9, e->node_bw / 1e9,
               cpu->sockets > 1 ? " (one node of the host's: data first touched by one thread)"
                                : "",
               e->cores_used, e->core_bw / 1e9, cpu->mlp, cpu->line, cpu->cpu_mem_lat * 1e9);
    t("memory time", e->cpu_mem_s);
    if (in->omp_target && e->fallback_s > 0)
        t("target host fallback", e->fallback_s);
    else if (in->omp_target)
        printf("  target host fallback   0 (not measured for %s: profile key target_fallback)\n",
               cpu->name);
    t("flop floor (info)", e->cpu_flop_s);
    if (e->steps > 1)
        printf("  x steps                %.0f\n", e->steps);
    t("CPU time", e->cpu_s);
    printf("GPU  %s: Hong-Kim MWP/CWP (chikin Figs. 4-5), the reference\n", gpu->name);
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
    t("Hong-Kim kernel time", e->hk_kernel_s);
    printf("GPU  %s: bounds (what the verdict uses)\n", gpu->name);
    t("bandwidth bound", e->gpu_bw_s);
    char lb[32];
    rt_format_time(lb, sizeof lb, e->gpu_lat_s);
    printf("  latency bound          %s (Little: %.0f waves x %.6g cycles of %.6g rounds; "
           "%.0f warps)\n", lb, e->waves,
           in->gpu_lat_cycles > 0 ? in->gpu_lat_cycles : in->gpu_chain * gpu->mem_lat,
           in->gpu_chain, e->warps_total);
    t("issue bound", e->gpu_issue_s);
    printf("  bound by               %s\n", e->gpu_bound ? e->gpu_bound : "-");
    t("kernel time", e->kernel_s);
    if (e->steps > 1 || e->kernels > 1)
        printf("  x steps, kernels       %.0f, %.0f\n", e->steps, e->kernels);
    t("launch overhead", e->launch_s);
    t("GPU time", e->gpu_s);
    printf("transfer (boat hull t0 = d / B_bus)\n");
    printf("  d                      %.0f bytes\n", e->xfer_bytes);
    printf("  B_bus                  %.1f GB/s\n", gpu->bus_bw / 1e9);
    t("transfer time", e->xfer_s);
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
    int rc = 0;
    if (add) {
        /* FILE:LINE SYM=V,... cpu|gpu SECONDS, one measurement a line */
        FILE *in = strcmp(add, "-") ? fopen(add, "r") : stdin;
        if (!in) {
            db_close(d);
            return keel_say(1, "%s: %s", add, strerror(errno));
        }
        char line[1024];
        int lineno = 0, added = 0;
        while (rc == 0 && fgets(line, sizeof line, in)) {
            lineno++;
            char *hash = strchr(line, '#');
            if (hash)
                *hash = 0;
            char loc[512], set[512], dev[16], num[64], *end = NULL, extra[2];
            double secs = 0;
            int got = sscanf(line, "%511s %511s %15s %63s %1s", loc, set, dev, num, extra);
            if (got == 4)       /* SECONDS: a whole positive finite number */
                secs = strtod(num, &end);
            if (got != 4 || *end || !(secs > 0) || !isfinite(secs)) {
                if (strspn(line, " \t\r\n") != strlen(line))
                    rc = keel_say(1, "%s:%d: want FILE:LINE SYM=V,... cpu|gpu SECONDS", add, lineno);
                continue;
            }
            char *lfile = NULL, **names = NULL;
            long long *values = NULL;
            int lno, lcol, n = 0;
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
            else if (rt_facts_bind(f, n, (const char *const *)names, values, &l, err, sizeof err) ||
                     size_key(f, &l, n, names, values, key, sizeof key, &size))
                rc = keel_say(1, "%s:%d: %s", add, lineno, err);
            else if (rt_history_add(path, rt_facts_loop_id(f), key, size, dev, secs, err,
                                    sizeof err))
                rc = keel_say(1, "%s:%d: %s", add, lineno, err);
            else
                added++;
            rt_facts_free(f);
            free(lfile);
            for (int i = 0; i < n; i++)
                free(names[i]);
            free(names);
            free(values);
        }
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
        db_close(d);
        return rc;
    }
    db_close(d);
    sqlite3 *h = NULL;
    sqlite3_stmt *st = NULL;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(h, "SELECT l.file, l.line, h.size_key, h.device, h.samples, h.mean_s,"
                              " h.m2, h.n FROM history h JOIN loops l ON l.id = h.loop_id"
                              " ORDER BY l.file, l.line, h.n, h.device", -1, &st, NULL) != SQLITE_OK) {
        sqlite3_close(h);
        if (json) {         /* no history table yet: an empty array */
            keel_json *j = keel_json_new();
            if (j) {
                keel_json_array(j, NULL);
                keel_json_end(j);
            }
            int rc = keel_json_print(j, stdout);
            keel_json_free(j);
            return rc;
        }
        printf("no measurements yet (keel history --add FILE, or libkeelrt's records)\n");
        return 0;
    }
    keel_json *j = json ? keel_json_new() : NULL;
    if (json && !j) {
        sqlite3_finalize(st);
        sqlite3_close(h);
        return keel_say(1, "out of memory");
    }
    if (j)
        keel_json_array(j, NULL);
    else
        printf("%-40s %-24s %-4s %7s %12s %12s %s\n", "LOOP", "SIZE KEY", "DEV", "SAMPLES",
               "MEAN", "STDDEV", "TRUSTED");
    while (sqlite3_step(st) == SQLITE_ROW) {
        char where[600], mean[32], sd[32];
        int samples = sqlite3_column_int(st, 4);
        double m2 = sqlite3_column_double(st, 6), sds = samples > 1 ? sqrt(m2 / (samples - 1)) : 0;
        if (j) {
            keel_json_object(j, NULL);
            keel_json_str(j, "file", (const char *)sqlite3_column_text(st, 0));
            keel_json_int(j, "line", sqlite3_column_int(st, 1));
            keel_json_str(j, "size_key", (const char *)sqlite3_column_text(st, 2));
            keel_json_str(j, "device", (const char *)sqlite3_column_text(st, 3));
            keel_json_int(j, "samples", samples);
            keel_json_num(j, "mean_s", sqlite3_column_double(st, 5));
            keel_json_num(j, "stddev_s", sds);
            keel_json_bool(j, "trusted", samples >= RT_HISTORY_TRUST);
            keel_json_end(j);
            continue;
        }
        snprintf(where, sizeof where, "%s:%d", sqlite3_column_text(st, 0), sqlite3_column_int(st, 1));
        rt_format_time(mean, sizeof mean, sqlite3_column_double(st, 5));
        rt_format_time(sd, sizeof sd, sds);
        printf("%-40s %-24s %-4s %7d %12s %12s %s\n", where, sqlite3_column_text(st, 2),
               sqlite3_column_text(st, 3), samples, mean, sd,
               samples >= RT_HISTORY_TRUST ? "yes" : "no");
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    if (j) {
        keel_json_end(j);
        rc = keel_json_print(j, stdout);
        keel_json_free(j);
    }
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

/* Every term print_estimate prints, as members of the open object. */
static void estimate_json(keel_json *j, const rt_profile *cpu, const rt_profile *gpu,
                          const rt_launch *in, const rt_estimate *e)
{
    keel_json_object(j, "launch");
    keel_json_num(j, "parallel_iterations", in->par_iters);
    keel_json_num(j, "cycles_per_iteration", in->cycles_per_iter);
    keel_json_num(j, "gpu_work_items", in->work_items);
    keel_json_num(j, "compute_insts_per_item", in->comp_insts);
    keel_json_num(j, "flops", in->flops);
    keel_json_num(j, "bytes_in", in->bytes_in);
    keel_json_num(j, "bytes_out", in->bytes_out);
    keel_json_num(j, "cpu_dram_bytes", in->cpu_bytes);
    keel_json_num(j, "gpu_dram_bytes", in->gpu_bytes);
    keel_json_num(j, "gpu_chain", in->gpu_chain);
    keel_json_num(j, "gpu_latency_cycles", in->gpu_lat_cycles);
    keel_json_num(j, "tlb_misses", in->tlb_misses);
    keel_json_num(j, "steps", in->steps);
    keel_json_num(j, "kernels", in->kernels);
    keel_json_str(j, "mca_target", in->mca_target[0] ? in->mca_target : NULL);
    keel_json_bool(j, "mca_exact", in->mca_target[0] && in->mca_exact);
    keel_json_bool(j, "host_sequential", in->host_sequential);
    keel_json_bool(j, "not_parallel", in->not_parallel);
    keel_json_bool(j, "omp_target", in->omp_target);
    keel_json_end(j);

    keel_json_object(j, "cpu");
    keel_json_str(j, "profile", cpu->name);
    keel_json_int(j, "threads", e->threads);
    keel_json_int(j, "cores_used", e->cores_used);
    keel_json_num(j, "smt_share", e->smt_share);
    keel_json_num(j, "chunk_size", e->chunk);
    keel_json_num(j, "schedule_times", e->schedule_times);
    keel_json_num(j, "fork_c", e->fork_c);
    keel_json_num(j, "schedule_c", e->schedule_c);
    keel_json_num(j, "loop_overhead_c", e->loop_overhead_c);
    keel_json_num(j, "tlb_c", e->tlb_c);
    keel_json_num(j, "loop_chunk_c", e->loop_chunk_c);
    keel_json_num(j, "parallel_for_c", e->parallel_for_c);
    keel_json_num(j, "join_c", e->join_c);
    keel_json_num(j, "parallel_region_c", e->region_c);
    keel_json_num(j, "freq_hz", cpu->freq_hz);
    keel_json_num(j, "compute_s", e->cpu_compute_s);
    keel_json_num(j, "bandwidth", e->cpu_bw);
    keel_json_num(j, "node_bandwidth", e->node_bw);
    keel_json_num(j, "core_bandwidth", e->core_bw);
    keel_json_num(j, "memory_s", e->cpu_mem_s);
    if (in->omp_target)
        keel_json_num(j, "target_fallback_s", e->fallback_s);
    else
        keel_json_null(j, "target_fallback_s");
    keel_json_num(j, "flop_floor_s", e->cpu_flop_s);
    keel_json_num(j, "steps", e->steps);
    keel_json_num(j, "time_s", e->cpu_s);
    keel_json_end(j);

    keel_json_object(j, "gpu");
    keel_json_str(j, "profile", gpu->name);
    keel_json_int(j, "threads_per_block", e->tpb);
    keel_json_num(j, "blocks", e->blocks);
    keel_json_num(j, "active_sms", e->active_sms);
    keel_json_num(j, "blocks_per_sm", e->active_blocks_sm);
    keel_json_num(j, "n_warps", e->n_warps);
    keel_json_num(j, "rep", e->rep);
    keel_json_num(j, "omp_rep", e->omp_rep);
    keel_json_num(j, "coal_insts", e->coal_insts);
    keel_json_num(j, "uncoal_insts", e->uncoal_insts);
    keel_json_num(j, "uncoal_per_mw", e->uncoal_per_mw);
    keel_json_num(j, "total_insts", e->total_insts);
    keel_json_num(j, "mem_l_coal", e->mem_l_coal);
    keel_json_num(j, "mem_l_uncoal", e->mem_l_uncoal);
    keel_json_num(j, "mem_l", e->mem_l);
    keel_json_num(j, "departure_delay", e->departure_delay);
    keel_json_num(j, "mem_cycles", e->mem_cycles);
    keel_json_num(j, "comp_cycles", e->comp_cycles);
    keel_json_num(j, "load_bytes_per_warp", e->load_bytes_per_warp);
    keel_json_num(j, "bw_per_warp", e->bw_per_warp);
    keel_json_num(j, "mwp_without_bw", e->mwp_without_bw);
    keel_json_num(j, "mwp_peak_bw", e->mwp_peak_bw);
    keel_json_num(j, "mwp", e->mwp);
    keel_json_num(j, "cwp_full", e->cwp_full);
    keel_json_num(j, "cwp", e->cwp);
    keel_json_int(j, "case", e->hk_case);
    keel_json_num(j, "exec_cycles", e->exec_cycles);
    keel_json_num(j, "freq_hz", gpu->gpu_hz);
    keel_json_num(j, "hong_kim_kernel_s", e->hk_kernel_s);
    keel_json_num(j, "bandwidth_bound_s", e->gpu_bw_s);
    keel_json_num(j, "latency_bound_s", e->gpu_lat_s);
    keel_json_num(j, "waves", e->waves);
    keel_json_num(j, "warps", e->warps_total);
    keel_json_num(j, "issue_bound_s", e->gpu_issue_s);
    keel_json_str(j, "bound_by", e->gpu_bound);
    keel_json_num(j, "kernel_s", e->kernel_s);
    keel_json_num(j, "steps", e->steps);
    keel_json_num(j, "kernels", e->kernels);
    keel_json_num(j, "launch_s", e->launch_s);
    keel_json_num(j, "time_s", e->gpu_s);
    keel_json_end(j);

    keel_json_object(j, "transfer");
    keel_json_num(j, "bytes", e->xfer_bytes);
    keel_json_num(j, "bus_bw", gpu->bus_bw);
    keel_json_num(j, "time_s", e->xfer_s);
    keel_json_end(j);
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
            keel_json_str(j, "faster", p.gpu_wins && !p.not_parallel ? "GPU" : "CPU");
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

/* keel explain FILE:LINE[:COL] [--set ...] [--device] [--host] [--threads]
 * [--sweep] [--json] [DB] */
int keel_cmd_explain(int argc, char **argv)
{
    const char *loc = NULL, *path = NULL, *dev = getenv("KEEL_DEVICE"), *hostname = getenv("KEEL_HOST");
    char err[512], real[PATH_MAX], *file = NULL, **pos = NULL;
    int threads = 0, rc = 0, json = 0, npos = 0, line, col;
    const char *sweep = NULL;     /* --sweep SYM=LO:HI (runtime/sweep.c) */
    set_list sets = { 0 };
    const keel_opt opts[] = {
        KEEL_OPT_FLAG("json", &json),
        KEEL_OPT_CALL("set", &sets, add_set),
        KEEL_OPT_TEXT("device", &dev),
        KEEL_OPT_TEXT("host", &hostname),
        KEEL_OPT_INT("threads", &threads, 1, 1 << 20),
        KEEL_OPT_TEXT("sweep", &sweep),
        KEEL_OPT_LAST,
    };
    int got = keel_getopts("explain", NULL, opts, argc, argv, 2, &pos, &npos);
    char **names = sets.names;
    long long *values = sets.values;
    int n = sets.n;
    if (got >= 0)
        rc = got ? got : -1;
    else if (npos == 0)
        rc = keel_say(2, "explain needs FILE:LINE (see keel explain --help)");
    else if (keel_parse_site(pos[0], &file, &line, &col))
        rc = 2;
    char sym[128];
    long long lo = 0, hi = 0;
    if (rc == 0 && sweep)
        rc = parse_sweep(sweep, sym, sizeof sym, &lo, &hi);
    if (rc) {
        free(file);
        for (int i = 0; i < n; i++)
            free(names[i]);
        free(names);
        free(values);
        return rc < 0 ? 0 : rc;
    }
    loc = pos[0];
    path = npos == 2 ? pos[1] : keel_default_db();
    const char *f0 = file;
    keel_json *j = NULL;
    db *d = NULL;
    rt_facts *f = NULL;

    rt_profile host = *rt_profile_host_default(), gpu;
    const rt_profile *hp = hostname ? rt_profile_find(hostname) : NULL, *gp = NULL;
    int have_gpu = 0;
    char gname[128] = "";
    if ((hostname && !*hostname) || (dev && !*dev)) {
        rc = keel_say(2, "--%s wants a profile name (see keel devices)", dev && !*dev ? "device" : "host");
        goto done;
    }
    if (hostname && (!hp || hp->kind != RT_CPU)) {
        rc = keel_say(2, "no CPU profile '%s' (see keel devices)", hostname);
        goto done;
    }
    if (dev && *dev) {
        if (!(gp = rt_profile_find(dev)) || gp->kind != RT_GPU) {
            rc = keel_say(2, "no GPU profile '%s' (see keel devices)", dev);
            goto done;
        }
        gpu = *gp;
        have_gpu = 1;
    } else if (rt_cuda_detect(&gpu, gname, sizeof gname))
        have_gpu = 1;
    else
        gpu = *rt_profile_find("h100");

    if (db_open(path, DB_READONLY, &d, err, sizeof err)) {
        rc = keel_say(1, "%s", err);
        goto done;
    }
    int r = rt_facts_load(d, f0, line, col, &f, err, sizeof err);
    if (r == 1 && realpath(f0, real))
        r = rt_facts_load(d, real, line, col, &f, err, sizeof err);
    if (r < 0)
        rc = keel_say(1, "%s", err);
    else if (r == 1)
        rc = keel_say(1, "no loop at %s in %s", loc, path);
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
        threads = hp ? rt_profile_threads(hp) : rt_default_threads();

    const char *const *need;
    int nneed = rt_facts_symbols(f, &need);
    if (json && !(j = keel_json_new())) {
        rc = keel_say(1, "out of memory");
        goto done;
    }
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
            keel_json_int(j, names[i], values[i]);
        keel_json_end(j);
        keel_json_object(j, "host");
        keel_json_str(j, "name", host.name);
        keel_json_str(j, "desc", host.desc);
        keel_json_end(j);
        keel_json_object(j, "device");
        keel_json_str(j, "name", gpu.name);
        keel_json_str(j, "detected", gname[0] ? gname : NULL);
        keel_json_end(j);
    } else {
        printf("loop        %s:%d %s%s%s%s\n", rt_facts_file(f), rt_facts_line(f),
               rt_facts_function(f), *rt_facts_label(f) ? " [" : "", rt_facts_label(f),
               *rt_facts_label(f) ? "]" : "");
        printf("needs       ");
        for (int i = 0; i < nneed; i++)
            printf("%s%s", i ? "," : "", need[i]);
        printf("%s\nvalues      ", nneed ? "" : "-");
        for (int i = 0; i < n; i++)
            printf("%s%s=%lld", i ? "," : "", names[i], values[i]);
        printf("%s\nhost        %s (%s)\n", n ? "" : "-", host.name, host.desc);
        printf("device      %s%s%s\n", gpu.name, gname[0] ? " = " : "", gname);
    }
    if (sweep) {
        rt_sweep sw = { .host = &host, .gpu = &gpu, .threads = threads,
                        .threads_given = threads_given, .nfixed = n,
                        .names = (const char *const *)names, .values = values };
        if (j) {
            if ((rc = sweep_json(j, f, &sw, sym, lo, hi)) == 0) {
                keel_json_end(j);
                rc = keel_json_print(j, stdout);
            }
        } else if ((rc = rt_sweep_print(f, &sw, sweep, stdout, err, sizeof err)) != 0)
            keel_say(rc, "%s", err);
        goto done;
    }
    rt_launch in;
    rt_estimate e;
    if (rt_facts_bind_on(f, &host, &gpu, threads, n,
                         (const char *const *)names, values, &in, err, sizeof err)) {
        if (!j)
            rt_facts_print(f, NULL, stdout);
        rc = keel_say(1, "%s (give it with --set)", err);
        goto done;
    }
    if (threads_given)
        in.host_sequential = 0;
    int verdict = rt_estimate_all(&host, threads, &gpu, &in, &e);
    if (j) {
        facts_json(j, f, &in);
        estimate_json(j, &host, &gpu, &in, &e);
    } else {
        rt_facts_print(f, &in, stdout);
        print_estimate(&host, &gpu, &in, &e);
    }
    double model_cpu_s = e.cpu_s, model_gpu_s = e.gpu_s, model_xfer_s = e.xfer_s;
    const char *why = in.not_parallel ? "not parallel" : !have_gpu ? "no device" : NULL;
    if (in.not_parallel || !have_gpu)
        verdict = 0;
    int model_verdict = verdict;
    char key[512] = "";
    double size = 0;
    rt_history_pred hp_;
    int hist = size_key(f, &in, n, names, values, key, sizeof key, &size) == 0 &&
               rt_history_lookup(path, rt_facts_loop_id(f), key, size, &hp_, err, sizeof err) == 0 &&
               hp_.decides;
    if (hist) {
        verdict = hp_.gpu_s < hp_.cpu_s && !in.not_parallel && have_gpu;
        e.cpu_s = hp_.cpu_s, e.gpu_s = hp_.gpu_s, e.xfer_s = 0;
    }
    if (j) {
        keel_json_str(j, "size_key", key);
        if (hist) {
            keel_json_object(j, "history");
            keel_json_str(j, "how", hp_.how);
            keel_json_num(j, "cpu_s", hp_.cpu_s);
            keel_json_int(j, "cpu_samples", hp_.cpu_samples);
            keel_json_int(j, "cpu_sizes", hp_.cpu_sizes);
            keel_json_num(j, "gpu_s", hp_.gpu_s);
            keel_json_int(j, "gpu_samples", hp_.gpu_samples);
            keel_json_int(j, "gpu_sizes", hp_.gpu_sizes);
            keel_json_str(j, "model_said", model_verdict ? "GPU" : "CPU");
            keel_json_end(j);
        } else
            keel_json_null(j, "history");
        keel_json_str(j, "decided_by", hist ? "history" : "model");
        keel_json_str(j, "verdict", verdict ? "GPU" : "CPU");
        keel_json_str(j, "why", why);
        keel_json_object(j, "seconds");
        keel_json_num(j, "cpu", e.cpu_s);
        keel_json_num(j, "gpu", e.gpu_s);
        keel_json_num(j, "xfer", e.xfer_s);
        keel_json_num(j, "hk", e.hk_kernel_s);
        keel_json_end(j);
        keel_json_object(j, "model_seconds");
        keel_json_num(j, "cpu", model_cpu_s);
        keel_json_num(j, "gpu", model_gpu_s);
        keel_json_num(j, "xfer", model_xfer_s);
        keel_json_end(j);
        keel_json_end(j);
        rc = keel_json_print(j, stdout);
        goto done;
    }
    if (hist) {
        char hc[32], hg[32];
        rt_format_time(hc, sizeof hc, hp_.cpu_s);
        rt_format_time(hg, sizeof hg, hp_.gpu_s);
        printf("history     key %s: cpu %s (%d samples, %d sizes) | gpu %s (%d samples, %d sizes)"
               " %s\n", key, hc, hp_.cpu_samples, hp_.cpu_sizes, hg, hp_.gpu_samples,
               hp_.gpu_sizes, !strcmp(hp_.how, "measured") ? "(calibrated: >= 10 samples each)"
               : "(regression a*n^b+c over the sizes seen)");
        printf("            model said %s\n", model_verdict ? "GPU" : "CPU");
        printf("decided by  history (%s)\n", hp_.how);
    } else
        printf("decided by  model (no trusted history for key %s)\n", key);
    char cs[32], gs[32], xs[32];
    rt_format_time(cs, sizeof cs, e.cpu_s);
    rt_format_time(gs, sizeof gs, e.gpu_s);
    rt_format_time(xs, sizeof xs, e.xfer_s);
    printf("verdict     cpu %s | gpu %s + xfer %s -> %s%s%s%s\n", cs, gs, xs,
           verdict ? "GPU" : "CPU", why ? " (" : "", why ? why : "", why ? ")" : "");
    printf("seconds     cpu %.9g gpu %.9g xfer %.9g hk %.9g\n", e.cpu_s, e.gpu_s, e.xfer_s,
           e.hk_kernel_s);
done:
    keel_json_free(j);
    rt_facts_free(f);
    db_close(d);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(values);
    free(file);
    return rc;
}
