/*
 * cli.c -- `keel devices`, `keel calibrate`, `keel explain` (cli.h).
 *
 * explain evaluates exactly what keel_decide evaluates -- rt_facts_bind
 * then rt_estimate_all -- with the values of --set, and prints every term;
 * it runs nothing and writes nothing.
 */
#define _XOPEN_SOURCE 700   /* realpath */

#include "cli.h"

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

/* keel devices [--add FILE | --export NAME] */
int rt_cmd_devices(int argc, char **argv)
{
    char err[512], dir[4096];
    if (argc == 2 && !strcmp(argv[0], "--export")) {
        const rt_profile *p = rt_profile_find(argv[1]);
        if (!p)
            return say(1, "no profile '%s' (see keel devices)", argv[1]);
        rt_profile_write(p, stdout);
        return 0;
    }
    if (argc == 2 && !strcmp(argv[0], "--add")) {
        const rt_profile *p = rt_profile_load(argv[1], err, sizeof err);
        if (!p)
            return say(1, "%s", err);
        if (rt_machines_dir(dir, sizeof dir))
            return say(1, "no folder for profiles: set KEEL_MACHINES or HOME");
        /* mkdir -p */
        for (char *c = dir + 1;; c++) {
            if (*c == '/' || !*c) {
                char keep = *c;
                *c = 0;
                if (mkdir(dir, 0777) && errno != EEXIST)
                    return say(1, "%s: %s", dir, strerror(errno));
                *c = keep;
                if (!keep)
                    break;
            }
        }
        char path[4200];
        snprintf(path, sizeof path, "%s/%s.machine", dir, p->name);
        FILE *f = fopen(path, "w");
        if (!f)
            return say(1, "%s: %s", path, strerror(errno));
        rt_profile_write(p, f);
        if (fclose(f))
            return say(1, "%s: %s", path, strerror(errno));
        printf("added %s (%s) as %s\n", p->name, p->kind == RT_CPU ? "cpu" : "gpu", path);
        return 0;
    }
    if (argc > 0)
        return say(2, "devices takes no arguments, or --add FILE, or --export NAME");
    printf("%-10s %-4s %s\n", "NAME", "KIND", "KEY NUMBERS");
    device_line(rt_profile_host_default());
    for (int i = 0; i < rt_profile_count(); i++)
        device_line(rt_profile_at(i));
    /* the user's own profiles */
    DIR *d = rt_machines_dir(dir, sizeof dir) == 0 ? opendir(dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 8 && !strcmp(e->d_name + n - 8, ".machine")) {
            char path[4400];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            const rt_profile *p = rt_profile_load(path, err, sizeof err);
            if (p)
                device_line(p);
            else
                fprintf(stderr, "keel: warning: %s\n", err);
        }
    }
    if (d)
        closedir(d);
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
    printf("  Loop_chunk_c           %.6g cycles\n", e->loop_chunk_c);
    printf("  Parallel_for_c         %.6g cycles\n", e->parallel_for_c);
    printf("  Join_c                 %.0f cycles\n", e->join_c);
    printf("  Parallel_Region_c      %.6g cycles at %.2f GHz\n", e->region_c, cpu->freq_hz / 1e9);
    t("compute time", e->cpu_compute_s);
    printf("  bandwidth              %.1f GB/s = min(%.1f GB/s, %d cores x %.2f GB/s "
           "(Little: %.0f lines x %.0f B / %.0f ns))\n",
           e->cpu_bw / 1e9, cpu->mem_bw / 1e9, e->cores_used, e->core_bw / 1e9, cpu->mlp,
           cpu->line, cpu->cpu_mem_lat * 1e9);
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

/* The size key of a launch: the nest's symbols (sorted) with their
 * values, "ni=20,nj=25"; and its size for the regressions: the footprint
 * in bytes (StarPU's data size). */
static int size_key(const rt_facts *f, const rt_launch *in, int n, char **names,
                    const long long *values, char *key, size_t keylen, double *size)
{
    const char *const *need;
    int nneed = rt_facts_symbols(f, &need), k = 0;
    const char *kn[64];
    long long kv[64];
    for (int i = 0; i < nneed && k < 64; i++)
        for (int j = 0; j < n; j++)
            if (!strcmp(need[i], names[j])) {
                kn[k] = need[i], kv[k++] = values[j];
                break;
            }
    *size = in->bytes_in + in->bytes_out;
    return rt_history_key(k, kn, kv, key, keylen);
}

/* keel history [--add FILE] [DB] */
int rt_cmd_history(int argc, char **argv, const char *default_db)
{
    char err[512];
    const char *path = default_db, *add = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--add") && i + 1 < argc)
            add = argv[++i];
        else if (argv[i][0] == '-')
            return say(2, "unknown option '%s' for history", argv[i]);
        else
            path = argv[i];
    }
    db *d = NULL;
    if (db_open(path, DB_READONLY, &d, err, sizeof err))
        return say(1, "%s", err);
    int rc = 0;
    if (add) {
        /* FILE:LINE SYM=V,... cpu|gpu SECONDS, one measurement a line */
        FILE *in = strcmp(add, "-") ? fopen(add, "r") : stdin;
        if (!in) {
            db_close(d);
            return say(1, "%s: %s", add, strerror(errno));
        }
        char line[1024];
        int lineno = 0, added = 0;
        while (rc == 0 && fgets(line, sizeof line, in)) {
            lineno++;
            char *hash = strchr(line, '#');
            if (hash)
                *hash = 0;
            char loc[512], set[512], dev[16];
            double secs;
            if (sscanf(line, "%511s %511s %15s %lf", loc, set, dev, &secs) != 4) {
                if (strspn(line, " \t\r\n") != strlen(line))
                    rc = say(1, "%s:%d: want FILE:LINE SYM=V,... cpu|gpu SECONDS", add, lineno);
                continue;
            }
            char *c1 = strrchr(loc, ':');
            int lno = c1 ? atoi(c1 + 1) : 0;
            if (c1)
                *c1 = 0;
            char **names = NULL;
            long long *values = NULL;
            int n = 0;
            rt_facts *f = NULL;
            rt_launch l;
            char key[512];
            double size;
            if (parse_set(set, &names, &values, &n))
                rc = say(1, "%s:%d: bad values '%s'", add, lineno, set);
            else if (rt_facts_load(d, loc, lno, 0, &f, err, sizeof err) != 0)
                rc = say(1, "%s:%d: no loop at %s:%d", add, lineno, loc, lno);
            else if (rt_facts_bind(f, n, (const char *const *)names, values, &l, err, sizeof err) ||
                     size_key(f, &l, n, names, values, key, sizeof key, &size))
                rc = say(1, "%s:%d: %s", add, lineno, err);
            else if (rt_history_add(path, rt_facts_loop_id(f), key, size, dev, secs, err,
                                    sizeof err))
                rc = say(1, "%s:%d: %s", add, lineno, err);
            else
                added++;
            rt_facts_free(f);
            for (int i = 0; i < n; i++)
                free(names[i]);
            free(names);
            free(values);
        }
        if (in != stdin)
            fclose(in);
        if (rc == 0)
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
        printf("no measurements yet (keel history --add FILE, or libkeelrt's records)\n");
        sqlite3_close(h);
        return 0;
    }
    printf("%-40s %-24s %-4s %7s %12s %12s %s\n", "LOOP", "SIZE KEY", "DEV", "SAMPLES", "MEAN",
           "STDDEV", "TRUSTED");
    while (sqlite3_step(st) == SQLITE_ROW) {
        char where[600], mean[32], sd[32];
        int samples = sqlite3_column_int(st, 4);
        double m2 = sqlite3_column_double(st, 6);
        snprintf(where, sizeof where, "%s:%d", sqlite3_column_text(st, 0), sqlite3_column_int(st, 1));
        rt_format_time(mean, sizeof mean, sqlite3_column_double(st, 5));
        rt_format_time(sd, sizeof sd, samples > 1 ? sqrt(m2 / (samples - 1)) : 0);
        printf("%-40s %-24s %-4s %7d %12s %12s %s\n", where, sqlite3_column_text(st, 2),
               sqlite3_column_text(st, 3), samples, mean, sd,
               samples >= RT_HISTORY_TRUST ? "yes" : "no");
    }
    sqlite3_finalize(st);
    sqlite3_close(h);
    return 0;
}

int rt_cmd_explain(int argc, char **argv, const char *default_db)
{
    const char *loc = NULL, *path = NULL, *dev = getenv("KEEL_DEVICE"), *hostname = getenv("KEEL_HOST");
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
    if (hostname && !*hostname)
        hostname = NULL, hp = NULL;
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
        threads = hp ? rt_profile_threads(hp) : rt_default_threads();

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
    if (rt_facts_bind_on(f, &host, &gpu, threads, n,
                         (const char *const *)names, values, &in, err, sizeof err)) {
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
    char key[512];
    double size = 0;
    rt_history_pred hp_;
    int hist = size_key(f, &in, n, names, values, key, sizeof key, &size) == 0 &&
               rt_history_lookup(path, rt_facts_loop_id(f), key, size, &hp_, err, sizeof err) == 0 &&
               hp_.decides;
    if (hist) {
        char hc[32], hg[32];
        rt_format_time(hc, sizeof hc, hp_.cpu_s);
        rt_format_time(hg, sizeof hg, hp_.gpu_s);
        printf("history     key %s: cpu %s (%d samples, %d sizes) | gpu %s (%d samples, %d sizes)"
               " %s\n", key, hc, hp_.cpu_samples, hp_.cpu_sizes, hg, hp_.gpu_samples,
               hp_.gpu_sizes, !strcmp(hp_.how, "measured") ? "(calibrated: >= 10 samples each)"
               : "(regression a*n^b+c over the sizes seen)");
        printf("            model said %s\n", verdict ? "GPU" : "CPU");
        verdict = hp_.gpu_s < hp_.cpu_s && !in.not_parallel && have_gpu;
        printf("decided by  history (%s)\n", hp_.how);
        e.cpu_s = hp_.cpu_s, e.gpu_s = hp_.gpu_s, e.xfer_s = 0;
        rt_format_time(cs, sizeof cs, e.cpu_s);
        rt_format_time(gs, sizeof gs, e.gpu_s);
        rt_format_time(xs, sizeof xs, e.xfer_s);
    } else
        printf("decided by  model (no trusted history for key %s)\n", key);
    printf("verdict     cpu %s | gpu %s + xfer %s -> %s%s\n", cs, gs, xs, verdict ? "GPU" : "CPU",
           why);
    printf("seconds     cpu %.9g gpu %.9g xfer %.9g hk %.9g\n", e.cpu_s, e.gpu_s, e.xfer_s,
           e.hk_kernel_s);
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
