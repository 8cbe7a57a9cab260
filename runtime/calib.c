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
 * descheduling does not count), the fastest of several batches.
 */
#include "calib.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

static double thread_cpu_s(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
        return -1;
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* One addition of the chain; the empty asm makes x a register the
 * compiler cannot see through, so the additions are neither folded nor
 * reassociated (no instruction is emitted for it). */
#define CHAIN1(x, i) do { (x) += (i); __asm__ volatile("" : "+r"(x)); } while (0)
#define CHAIN8(x, i) do { CHAIN1(x, i); CHAIN1(x, i); CHAIN1(x, i); CHAIN1(x, i); \
                          CHAIN1(x, i); CHAIN1(x, i); CHAIN1(x, i); CHAIN1(x, i); } while (0)

double rt_clock_hz(double adds, const double *seconds, int n)
{
    double best = 0;
    for (int k = 0; k < n; k++)
        if (seconds[k] > 0 && (best == 0 || seconds[k] < best))
            best = seconds[k];
    return best > 0 ? adds / best : 0;
}

double rt_calibrate_clock(void)
{
    enum { BATCHES = 7 };
    const unsigned long iters = 4UL << 20;        /* x 32 additions: ~30 ms at 4 GHz */
    double sec[BATCHES];
    unsigned long x = 1;
    for (int b = 0; b <= BATCHES; b++) {          /* batch 0 warms the clock up */
        double t0 = thread_cpu_s();
        for (unsigned long i = 0; i < iters; i++) {
            CHAIN8(x, i);
            CHAIN8(x, i);
            CHAIN8(x, i);
            CHAIN8(x, i);
        }
        double t1 = thread_cpu_s();
        if (b > 0)
            sec[b - 1] = t0 >= 0 && t1 > t0 ? t1 - t0 : 0;
    }
    clock_sink = x;
    /* the loop's own increment, compare and branch run beside the chain
     * (independent of it), so the chain's 32 additions are the cycles */
    return rt_clock_hz(32.0 * (double)iters, sec, BATCHES);
}

int rt_calibrate(rt_calibration *out, char *err, size_t errlen)
{
    return rt_calibrate_steps(out, NULL, NULL, err, errlen);
}

/* Tell the caller which measurement starts (k of n), when it asked. */
static void step(rt_calibrate_step_fn fn, void *arg, int k, const char *what)
{
    if (fn)
        fn(arg, k, 4, what);
}

int rt_calibrate_steps(rt_calibration *out, rt_calibrate_step_fn fn, void *arg,
                       char *err, size_t errlen)
{
    double fork_ns = 0, sched_ns = 0, barrier_ns = 0;
    int threads = 0;
    memset(out, 0, sizeof *out);
    out->freq_hz = rt_calibrate_clock();
    if (out->freq_hz <= 0)                   /* no thread CPU clock: the nominal one */
        out->freq_hz = cpuinfo_hz();
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    out->cores = c > 0 ? (int)c : 1;
    step(fn, arg, 1, "memory bandwidth (STREAM triad, 3 x 64 MiB, best of 5)");
    out->mem_bw = rt_calibrate_triad(8L << 20, 5);     /* 3 x 64 MiB */
    step(fn, arg, 2, "peak flop rate (multiply-add chains)");
    out->peak_flops = rt_calibrate_flops(20L << 20);
    step(fn, arg, 3, "OpenMP overheads (EPCC: parallel, for schedule(static), barrier)");
    if (rt_calibrate_omp(&fork_ns, &sched_ns, &barrier_ns, &threads) == 0) {
        out->fork_ns = fork_ns;
        out->sched_ns = sched_ns;
        out->join_ns = barrier_ns;
    }
    double fb_ns = 0;
    if (rt_calibrate_target(&fb_ns) == 0)
        out->target_fallback_ns = fb_ns;
    /* PMaC: bandwidth per access pattern and footprint; bytes counted in
     * the lines of the host defaults' profile, as the traffic model will */
    step(fn, arg, 4, "bandwidth per access pattern and footprint (PMaC; one thread, all threads)");
    if (out->mem_bw > 0)
        rt_calibrate_patterns(out, rt_profile_host_default()->line);
    if (out->mem_bw <= 0) {
        snprintf(err, errlen, "cannot allocate the triad arrays");
        return -1;
    }
    return 0;
}
