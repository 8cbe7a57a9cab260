/*
 * calib.c -- rt_calibrate: run the measuring kernels of calib_omp.c and
 * read the clock from /proc/cpuinfo.  Part of the keel tool only.
 */
#include "calib.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

double rt_calibrate_triad(long n, int reps);
double rt_calibrate_flops(long iters);

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
