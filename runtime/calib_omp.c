/*
 * calib_omp.c -- the measuring kernels of `keel calibrate`, compiled with
 * OpenMP (linked into the keel tool only, never into libkeelrt, so that a
 * host program keeps its own OpenMP runtime).
 *
 * Overheads follow the EPCC syncbench method (Bull, "Measuring
 * synchronisation and scheduling overheads in OpenMP", EWOMP 1999): time
 * a construct around a small delay, subtract the time of the delay alone,
 * divide by the repetitions.  Bandwidth is a STREAM triad a[i] = b[i] +
 * s*c[i] (McCalpin) counted as 24 bytes per element; peak is independent
 * multiply-add chains on every thread.
 */
#include "calib.h"

#include <stdlib.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile double sink;

static void delay(int n)
{
    double a = 0;
    for (int i = 0; i < n; i++)
        a += i * 0.5;
    sink = a;
}

int rt_calibrate_omp(double *fork_ns, double *sched_ns, double *barrier_ns, int *threads)
{
#ifdef _OPENMP
    enum { REPS = 2000, D = 100 };
    double t0 = now();
    for (int r = 0; r < REPS; r++)
        delay(D);
    double ref = (now() - t0) / REPS;
    *threads = omp_get_max_threads();
    #pragma omp parallel
    delay(D);                    /* warm the thread pool */
    t0 = now();
    for (int r = 0; r < REPS; r++) {
        #pragma omp parallel
        delay(D);
    }
    *fork_ns = ((now() - t0) / REPS - ref) * 1e9;
    t0 = now();
    #pragma omp parallel
    for (int r = 0; r < REPS; r++) {
        #pragma omp for schedule(static)
        for (int i = 0; i < *threads; i++)
            delay(D);
    }
    *sched_ns = ((now() - t0) / REPS - ref) * 1e9;
    t0 = now();
    #pragma omp parallel
    for (int r = 0; r < REPS; r++) {
        delay(D);
        #pragma omp barrier
    }
    *barrier_ns = ((now() - t0) / REPS - ref) * 1e9;
    if (*fork_ns < 0) *fork_ns = 0;
    if (*sched_ns < 0) *sched_ns = 0;
    if (*barrier_ns < 0) *barrier_ns = 0;
    return 0;
#else
    (void)fork_ns, (void)sched_ns, (void)barrier_ns, (void)threads;
    return -1;
#endif
}

/* STREAM triad over n doubles, best of reps; bytes/s. */
double rt_calibrate_triad(long n, int reps)
{
    double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n),
           *c = malloc(sizeof *c * (size_t)n), best = 0;
    if (!a || !b || !c) {
        free(a), free(b), free(c);
        return 0;
    }
    #pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        a[i] = 0, b[i] = 1, c[i] = 2;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        #pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            a[i] = b[i] + 3.0 * c[i];
        double t = now() - t0;
        if (t > 0 && 24.0 * n / t > best)
            best = 24.0 * n / t;
    }
    sink = a[n / 2];
    free(a), free(b), free(c);
    return best;
}

/* Multiply-add chains on every thread; flop/s. */
double rt_calibrate_flops(long iters)
{
    double t0 = now();
    double total = 0;
    #pragma omp parallel reduction(+ : total)
    {
        double x[16];
        for (int k = 0; k < 16; k++)
            x[k] = 1.0 + k * 1e-3;
        for (long i = 0; i < iters; i++)
            for (int k = 0; k < 16; k++)
                x[k] = x[k] * 0.999999 + 1e-6;
        double keep = 0;         /* the chains' results stay observable */
        for (int k = 0; k < 16; k++)
            keep += x[k];
        total = 32.0 * iters + (keep > 1e300 ? 1 : 0);   /* 16 chains x (mul + add) */
    }
    double t = now() - t0;
    return t > 0 ? total / t : 0;
}
