/*
 * calib.c -- rt_calibrate: run the measuring kernels of calib_omp.c and
 * measure the clock the cores run at.  Part of the keel tool only.
 *
 * The clock is measured, not read: /proc/cpuinfo's "cpu MHz" is the
 * nominal (often the TSC's) frequency, which a boosting core or a virtual
 * machine does not run at -- and llvm-mca's cycles are core cycles.  The
 * measurement is lmbench's (McVoy and Staelin, "lmbench: portable tools
 * for performance analysis", USENIX 1996, `mhz`): a chain of dependent
 * integer additions, one cycle each on every core keel targets, timed on
 * the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID, so a shared machine's
 * descheduling does not count), the fastest of several batches; sampled
 * before every measuring step and at the end, the median of the samples.
 *
 * The latencies of dependent chains (double add, multiply, divide;
 * integer add, multiply, divide; a store-to-load round trip), which the
 * CPU model's recurrence bound counts, are measured the same way.
 *
 * What many threads get (the clock and a thread's rate of independent
 * work with T threads busy, the triad on T threads) is calib_omp.c's.
 *
 * The host fallback of an OpenMP `target` region is measured in a probe
 * that the programs' compiler (KEEL_CC's, else clang-19) builds with
 * offload to this host and runs with OMP_TARGET_OFFLOAD=DISABLED; a
 * compiler that cannot build offload code leaves it unset, and says so.
 */
#include "calib.h"
#include "calib_chain.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

double rt_calibrate_triad(long n, int reps);
double rt_calibrate_flops(long iters);

static volatile unsigned long clock_sink;

static double cpuinfo_hz(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    double mhz = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "cpu MHz", 7) == 0) {
            char *c = strchr(line, ':');
            if (c && sscanf(c + 1, "%lf", &mhz) == 1)
                break;
        }
    fclose(f);
    return mhz * 1e6;
}

double rt_thread_cpu_s(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
        return -1;
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}


double rt_clock_hz(double adds, const double *seconds, int n)
{
    double best = 0;
    for (int k = 0; k < n; k++)
        if (seconds[k] > 0 && (best == 0 || seconds[k] < best))
            best = seconds[k];
    return best > 0 ? adds / best : 0;
}

/* The fastest of `batches` batches (after one that warms the clock up). */
static double clock_batches(int batches)
{
    enum { MAX_BATCHES = 7 };
    const unsigned long iters = 4UL << 20;        /* x 32 additions: ~30 ms at 4 GHz */
    double sec[MAX_BATCHES];
    unsigned long x = 1;
    if (batches > MAX_BATCHES)
        batches = MAX_BATCHES;
    for (int b = 0; b <= batches; b++) {          /* batch 0 warms the clock up */
        double t0 = rt_thread_cpu_s();
        for (unsigned long i = 0; i < iters; i++) {
            CHAIN8(x, i);
            CHAIN8(x, i);
            CHAIN8(x, i);
            CHAIN8(x, i);
        }
        double t1 = rt_thread_cpu_s();
        if (b > 0)
            sec[b - 1] = t0 >= 0 && t1 > t0 ? t1 - t0 : 0;
    }
    clock_sink = x;
    /* the loop's own increment, compare and branch run beside the chain
     * (independent of it), so the chain's 32 additions are the cycles */
    return rt_clock_hz(32.0 * (double)iters, sec, batches);
}

double rt_calibrate_clock(void)
{
    return clock_batches(7);
}

/* ---- latencies of dependent chains --------------------------------------
 * The same method as the clock (lmbench's: a chain whose every operation
 * waits for the one before, on the thread's CPU clock, the fastest of
 * several batches), one chain per operation the recurrence bound counts
 * (model.h RT_LAT_*).  Floating-point chains need no barrier: without
 * -ffast-math the compiler may neither reassociate nor fold them; the
 * integer ones go through the same empty asm as the clock's.  A select is
 * `x = x > y ? x : y`, a max (MAXSD; CMP and CMOV as gcc builds it: the
 * instructions clang gives nussinov's max), behind an empty asm too.  The
 * store-to-load round trip is a double read, added to and written back to
 * one volatile location, less the add's measured latency.  The integer
 * divide divides a 2^40 dividend by 1 (its latency depends on the operands
 * on some cores: this is one case of it). */
static volatile double lat_dsink;
static volatile long lat_isink;
static volatile double lat_one_d = 1.0000001;
static volatile long lat_one_i = 1;

#define REP8(s) do { s; s; s; s; s; s; s; s; } while (0)
/* The empty asm for a double in a vector register: a max of the same two
 * values again is otherwise folded away (max is idempotent). */
#if defined(__x86_64__) || defined(__i386__)
#define FBARRIER(x) __asm__ volatile("" : "+x"(x))
#elif defined(__aarch64__)
#define FBARRIER(x) __asm__ volatile("" : "+w"(x))
#else
#define FBARRIER(x) ((void)0)
#endif
#define LAT_ITERS (1L << 18)        /* x 8 operations: ~2M, a few ms for a divide chain */

/* Seconds of the fastest of 5 batches (after one warm-up) of kernel k. */
static double lat_batch(int k)
{
    double best = 0;
    for (int b = 0; b <= 5; b++) {
        double x = 1.5, y = lat_one_d;
        long xi = 1L << 40, yi = lat_one_i | 1;
        volatile double *m = &lat_dsink;
        *m = 1.0;
        double t0 = rt_thread_cpu_s();
        for (long i = 0; i < LAT_ITERS; i++) {
            switch (k) {
            case RT_LAT_FADD: REP8(x = x + y); break;
            case RT_LAT_FMUL: REP8(x = x * y); break;
            case RT_LAT_FDIV: REP8(x = x / y); break;
            case RT_LAT_IADD: REP8(CHAIN1(xi, yi)); break;
            case RT_LAT_IMUL: REP8(xi *= yi; __asm__ volatile("" : "+r"(xi))); break;
            case RT_LAT_IDIV: REP8(xi /= yi; __asm__ volatile("" : "+r"(xi))); break;
            case RT_LAT_FSEL: REP8(x = x > y ? x : y; FBARRIER(x)); break;
            case RT_LAT_ISEL: REP8(xi = xi > yi ? xi : yi; __asm__ volatile("" : "+r"(xi))); break;
            default: REP8(*m = *m + y); break;     /* store, load, add */
            }
        }
        double t1 = rt_thread_cpu_s();
        lat_dsink = x, lat_isink = xi;
        double sec = t0 >= 0 && t1 > t0 ? t1 - t0 : 0;
        if (b > 0 && sec > 0 && (best == 0 || sec < best))
            best = sec;
    }
    return best;
}

void rt_calibrate_latencies(double freq_hz, double lat[RT_NLAT])
{
    for (int k = 0; k < RT_NLAT; k++) {
        double sec = lat_batch(k);
        lat[k] = sec > 0 && freq_hz > 0 ? sec * freq_hz / (8.0 * LAT_ITERS) : 0;
    }
    /* the round trip without its add */
    if (lat[RT_LAT_STLF] > 0 && lat[RT_LAT_FADD] > 0)
        lat[RT_LAT_STLF] = lat[RT_LAT_STLF] > lat[RT_LAT_FADD] ? lat[RT_LAT_STLF] - lat[RT_LAT_FADD]
                                                               : 0;
}

/* ---- the host fallback of a `target` region, as the compiler builds it --
 * The programs keel decides for are built by clang (keelcc's compiler),
 * whose OpenMP runtime is not the one this tool was linked with: the
 * fallback is measured in a probe that compiler builds.  The probe times
 * the same small loop as a `target teams distribute parallel for` region
 * (offload disabled: the host version runs) and as a `parallel for`,
 * EPCC-style: the smallest of 5 batches of 200 regions each, the
 * difference per region, in ns, on stdout. */
static const char probe_src[] =
    "#include <stdio.h>\n#include <time.h>\n"
    "static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);\n"
    "  return t.tv_sec + t.tv_nsec * 1e-9; }\n"
    "static double v[1024];\n"
    "int main(void) {\n"
    "  double bt = 0, bp = 0;\n"
    "  for (int b = 0; b <= 5; b++) {\n"
    "    double t0 = now();\n"
    "    for (int r = 0; r < 200; r++) {\n"
    "      #pragma omp target teams distribute parallel for map(tofrom: v[0:1024])\n"
    "      for (int i = 0; i < 1024; i++) v[i] = v[i] * 0.5 + 1.0;\n"
    "    }\n"
    "    double t = (now() - t0) / 200; t0 = now();\n"
    "    for (int r = 0; r < 200; r++) {\n"
    "      #pragma omp parallel for schedule(static)\n"
    "      for (int i = 0; i < 1024; i++) v[i] = v[i] * 0.5 + 1.0;\n"
    "    }\n"
    "    double p = (now() - t0) / 200;\n"
    "    if (b > 0 && (bt == 0 || t < bt)) bt = t;\n"
    "    if (b > 0 && (bp == 0 || p < bp)) bp = p;\n"
    "  }\n"
    "  printf(\"%.1f %g\\n\", bt > bp ? (bt - bp) * 1e9 : 0.0, v[7]);\n"
    "  return 0;\n"
    "}\n";

/* The load average against the cores online (calib.h). */
int rt_calibrate_load_note(const char *loadavg, long cores, char *msg, size_t msglen)
{
    double load;
    if (!loadavg || sscanf(loadavg, "%lf", &load) != 1 || cores <= 0 || load <= (double)cores)
        return 0;
    snprintf(msg, msglen, "load average %.1f on %ld cores: other work shares the cores being "
             "measured, so the figures will be off; calibrate on a quiet machine", load, cores);
    return 1;
}

/* Run argv (PATH searched) with stdin and stderr on /dev/null, stdout into
 * out (NUL-terminated, cut at outlen - 1), environment plus `extra`
 * (NAME=VALUE or NULL).  The exit status, or -1 when it could not run. */
static int run_capture(char *const argv[], const char *extra, char *out, size_t outlen)
{
    int fd[2];
    if (outlen)
        out[0] = '\0';
    if (pipe(fd))
        return -1;
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **env = malloc((n + 2) * sizeof *env);
    if (!env) {
        close(fd[0]), close(fd[1]);
        return -1;
    }
    memcpy(env, environ, n * sizeof *env);
    env[n] = (char *)extra;
    env[n + (extra != NULL)] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(fd[1]);
    if (rc) {
        close(fd[0]);
        return -1;
    }
    size_t got = 0;
    char buf[256];
    ssize_t r;
    while ((r = read(fd[0], buf, sizeof buf)) != 0) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (ssize_t i = 0; i < r && got + 1 < outlen; i++)
            out[got++] = buf[i];
    }
    if (outlen)
        out[got] = '\0';
    close(fd[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int rt_calibrate_target_cc(const char *cc, double *fallback_ns, char *note, size_t notelen)
{
    char dir[4096], src[4200], exe[4200], triple[128], flag[160], out[256];
    const char *tmp = getenv("TMPDIR");
    *fallback_ns = 0;
    /* the compiler's own target: the fallback of an offload to this host */
    char *tv[] = { (char *)cc, "-print-target-triple", NULL };
    if (run_capture(tv, NULL, triple, sizeof triple) != 0 || !*triple) {
        snprintf(note, notelen, "not measured: %s does not run", cc);
        return 1;
    }
    triple[strcspn(triple, "\r\n")] = '\0';
    snprintf(dir, sizeof dir, "%s/keel-calib-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        snprintf(note, notelen, "not measured: no temporary folder (%s)", strerror(errno));
        return -1;
    }
    snprintf(src, sizeof src, "%s/probe.c", dir);
    snprintf(exe, sizeof exe, "%s/probe", dir);
    snprintf(flag, sizeof flag, "-fopenmp-targets=%s", triple);
    int rc = -1;
    FILE *f = fopen(src, "w");
    if (!f || fputs(probe_src, f) == EOF) {
        snprintf(note, notelen, "not measured: cannot write the probe in %s", dir);
    } else {
        fclose(f), f = NULL;
        char *cv[] = { (char *)cc, "-O2", "-fopenmp", flag, src, "-o", exe, NULL };
        char *pv[] = { exe, NULL };
        double ns;
        if (run_capture(cv, NULL, out, sizeof out) != 0) {
            snprintf(note, notelen, "not set: %s cannot build OpenMP offload code (%s), so a "
                     "target region compiles to host code with no fallback to pay", cc, flag);
            rc = 1;
        } else if (run_capture(pv, "OMP_TARGET_OFFLOAD=DISABLED", out, sizeof out) != 0 ||
                   sscanf(out, "%lf", &ns) != 1) {
            snprintf(note, notelen, "not measured: the probe built by %s %s did not run", cc, flag);
            rc = 1;
        } else {
            *fallback_ns = ns;
            snprintf(note, notelen, "%s %s, OMP_TARGET_OFFLOAD=DISABLED", cc, flag);
            rc = 0;
        }
    }
    if (f)
        fclose(f);
    unlink(exe), unlink(src), rmdir(dir);
    return rc;
}

long rt_dram_doubles(double l3, double avail)
{
    const double mib = 1048576.0;
    double bytes = 4.0 * l3;
    if (bytes < 64 * mib)
        bytes = 64 * mib;
    if (avail > 0 && bytes > avail / 8)
        bytes = avail / 8 < 64 * mib ? 64 * mib : avail / 8;
    long m = (long)(bytes / (8 * mib) + 0.999999);   /* whole 2^20-double blocks */
    return (m < 8 ? 8 : m) << 20;
}

double rt_mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    double kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    if (kb > 0)
        return kb * 1024;
    long pages = sysconf(_SC_AVPHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    return pages > 0 && psz > 0 ? (double)pages * (double)psz : 0;
}

int rt_calibrate(rt_calibration *out, char *err, size_t errlen)
{
    return rt_calibrate_steps(out, NULL, NULL, err, errlen);
}

/* The clock samples of one calibration: a boosting core's clock moves
 * with what the rest of the machine does (a shared host's neighbours take
 * its power budget), so the clock is sampled before every step and at the
 * end, and the median kept (runs on the lent H100 host a few minutes
 * apart measured 2.45 to 2.97 GHz). */
enum { CLOCK_SAMPLES = 8 };
static double clock_sample[CLOCK_SAMPLES];
static int clock_samples;

/* Tell the caller which measurement starts (k of n), when it asked; a
 * clock sample first. */
static void step(rt_calibrate_step_fn fn, void *arg, int k, const char *what)
{
    if (clock_samples < CLOCK_SAMPLES)
        clock_sample[clock_samples++] = clock_batches(3);
    if (fn)
        fn(arg, k, 6, what);
}

int rt_calibrate_steps(rt_calibration *out, rt_calibrate_step_fn fn, void *arg,
                       char *err, size_t errlen)
{
    double fork_ns = 0, sched_ns = 0, barrier_ns = 0;
    int threads = 0;
    memset(out, 0, sizeof *out);
    out->freq_hz = rt_calibrate_clock();
    clock_samples = 0;
    if (out->freq_hz <= 0)                   /* no thread CPU clock: the nominal one */
        out->freq_hz = cpuinfo_hz();
    else
        clock_sample[clock_samples++] = out->freq_hz;
    /* the latencies in cycles of the clock measured right before them */
    rt_calibrate_latencies(out->freq_hz, out->lat);
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    out->cores = c > 0 ? (int)c : 1;
    /* the caches the traffic model's levels take (read, not timed), first:
     * the DRAM measurements' arrays are sized beyond the last level */
    rt_calibrate_caches(NULL, out->cores, &out->l1, &out->l2, &out->l3, out->cache_note,
                        sizeof out->cache_note);
    long dram = rt_dram_doubles(out->l3, rt_mem_available());
    char what[96];
    snprintf(what, sizeof what, "memory bandwidth (STREAM triad, 3 x %ld MiB, best of 5)",
             dram >> 17);
    step(fn, arg, 1, what);
    out->mem_bw = rt_calibrate_triad(dram, 5);
    step(fn, arg, 2, "peak flop rate (multiply-add chains)");
    out->peak_flops = rt_calibrate_flops(20L << 20);
    step(fn, arg, 3, "OpenMP overheads (EPCC: parallel, for schedule(static), barrier)");
    if (rt_calibrate_omp(&fork_ns, &sched_ns, &barrier_ns, &threads) == 0) {
        out->fork_ns = fork_ns;
        out->sched_ns = sched_ns;
        out->join_ns = barrier_ns;
    }
    /* the fallback of the programs' compiler (KEEL_CC's, else clang-19, as
     * keelcc); only where that compiler cannot be run at all, this tool's
     * own OpenMP runtime's */
    double fb_ns = 0;
    const char *cc = getenv("KEEL_CC");
    if (!cc || !*cc || strchr(cc, ' '))      /* a launcher and a compiler: the default */
        cc = "clang-19";
    int t = rt_calibrate_target_cc(cc, &fb_ns, out->target_note, sizeof out->target_note);
    if (t == 0)
        out->target_fallback_ns = fb_ns;
    else if (strstr(out->target_note, "does not run") && rt_calibrate_target(&fb_ns) == 0) {
        out->target_fallback_ns = fb_ns;
        snprintf(out->target_note, sizeof out->target_note,
                 "%s does not run: this tool's OpenMP runtime's fallback", cc);
    }
    /* PMaC: bandwidth per access pattern and footprint; bytes counted in
     * the lines of the host defaults' profile, as the traffic model will */
    step(fn, arg, 4, "bandwidth per access pattern and footprint (PMaC; one thread, all threads)");
    if (out->mem_bw > 0)
        rt_calibrate_patterns(out, rt_profile_host_default()->line, dram);
    if (out->mem_bw <= 0) {
        snprintf(err, errlen, "cannot allocate the triad arrays");
        return -1;
    }
    step(fn, arg, 5, "last-level TLB (one load per page over 256 to 32768 pages, Saavedra-Smith)");
    rt_calibrate_tlb(NULL, &out->page, &out->tlb_entries, &out->tlb_miss_ns, out->tlb_note,
                     sizeof out->tlb_note);
    /* what many threads get: the clock and independent work per thread with
     * T threads busy, the triad on T threads (the CPU model at T threads) */
    step(fn, arg, 6, "many threads (clock, independent work per thread, triad at 1, 2, 4 ... all)");
    rt_calibrate_threads(out, dram);
    if (clock_samples > 0 && clock_samples < CLOCK_SAMPLES)
        clock_sample[clock_samples++] = clock_batches(3);
    if (clock_samples > 0)
        out->freq_hz = rt_clock_median(clock_sample, clock_samples);
    return 0;
}

double rt_clock_median(const double *samples, int n)
{
    double v[CLOCK_SAMPLES];
    int m = 0;
    for (int k = 0; k < n && m < CLOCK_SAMPLES; k++)
        if (samples[k] > 0)
            v[m++] = samples[k];
    return rt_median(v, m);
}
