/*
 * calib_omp.c -- the measuring kernels of `keel calibrate`, compiled with
 * OpenMP (linked into the keel tool only, never into libkeelrt, so that a
 * host program keeps its own OpenMP runtime).
 *
 * Overheads follow the EPCC syncbench method (Bull, "Measuring
 * synchronisation and scheduling overheads in OpenMP", EWOMP 1999): time
 * a construct around a small delay, subtract the time of the delay alone,
 * divide by the repetitions (the smallest of 10 batches of 200, so that a
 * batch the system deschedules a thread in does not count).  Bandwidth is
 * a STREAM triad a[i] = b[i] +
 * s*c[i] (McCalpin) counted as 24 bytes per element; peak is independent
 * multiply-add chains on every thread.
 */
#include "calib.h"
#include "calib_chain.h"

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
    /* each figure the smallest of BATCHES batches of REPS (a batch in
     * which the system deschedules a thread only lengthens its time: on a
     * shared machine one long batch measures the other work) */
    enum { REPS = 200, BATCHES = 10, D = 100 };
    double ref = 0, fork = 0, sched = 0, bar = 0;
    *threads = omp_get_max_threads();
    #pragma omp parallel
    delay(D);                    /* warm the thread pool */
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now();
        for (int r = 0; r < REPS; r++)
            delay(D);
        double t = (now() - t0) / REPS;
        ref = b == 0 || t < ref ? t : ref;
        t0 = now();
        for (int r = 0; r < REPS; r++) {
            #pragma omp parallel
            delay(D);
        }
        t = (now() - t0) / REPS;
        fork = b == 0 || t < fork ? t : fork;
        t0 = now();
        #pragma omp parallel
        for (int r = 0; r < REPS; r++) {
            #pragma omp for schedule(static)
            for (int i = 0; i < *threads; i++)
                delay(D);
        }
        t = (now() - t0) / REPS;
        sched = b == 0 || t < sched ? t : sched;
        t0 = now();
        #pragma omp parallel
        for (int r = 0; r < REPS; r++) {
            delay(D);
            #pragma omp barrier
        }
        t = (now() - t0) / REPS;
        bar = b == 0 || t < bar ? t : bar;
    }
    *fork_ns = (fork - ref) * 1e9;
    *sched_ns = (sched - ref) * 1e9;
    *barrier_ns = (bar - ref) * 1e9;
    if (*fork_ns < 0) *fork_ns = 0;
    if (*sched_ns < 0) *sched_ns = 0;
    if (*barrier_ns < 0) *barrier_ns = 0;
    return 0;
#else
    (void)fork_ns, (void)sched_ns, (void)barrier_ns, (void)threads;
    return -1;
#endif
}

/* The host fallback of an OpenMP `target` region (chikin III: the CPU
 * alternative of an offload region is "the host execution time of the same
 * target region"): with no device (or OMP_TARGET_OFFLOAD=DISABLED) the
 * OpenMP runtime runs the region's host version -- for `target teams
 * distribute parallel for` a league of teams on the host, with its map()
 * clauses resolved against host memory.  Its cost beyond the loop's own is
 * measured EPCC-style: the same small loop as a `target teams distribute
 * parallel for` region and as a plain `parallel for`, the smallest of 5
 * batches of REPS regions each (a descheduled batch only lengthens a
 * time), the difference per region.  What this measures is the fallback of
 * the OpenMP runtime keel was built with (libgomp's GOMP_target_ext, or
 * clang's host teams); a program whose toolchain loads an offload runtime
 * (libomptarget) with the device disabled may pay more: a profile file
 * can state its own `target_fallback`.  0 when built without OpenMP. */
int rt_calibrate_target(double *fallback_ns)
{
#ifdef _OPENMP
    enum { REPS = 200, N = 1024, BATCHES = 5 };
    static double v[N];
    double best_t = 0, best_p = 0;
    for (int b = 0; b <= BATCHES; b++) {      /* batch 0 warms both */
        double t0 = now();
        for (int r = 0; r < REPS; r++) {
            #pragma omp target teams distribute parallel for map(tofrom: v[0:N])
            for (int i = 0; i < N; i++)
                v[i] = v[i] * 0.5 + 1.0;
        }
        double t = (now() - t0) / REPS;
        t0 = now();
        for (int r = 0; r < REPS; r++) {
            #pragma omp parallel for schedule(static)
            for (int i = 0; i < N; i++)
                v[i] = v[i] * 0.5 + 1.0;
        }
        double p = (now() - t0) / REPS;
        if (b > 0 && (best_t == 0 || t < best_t))
            best_t = t;
        if (b > 0 && (best_p == 0 || p < best_p))
            best_p = p;
    }
    sink = v[N / 2];
    *fallback_ns = best_t > best_p ? (best_t - best_p) * 1e9 : 0;
    return 0;
#else
    *fallback_ns = 0;
    return -1;
#endif
}

/* STREAM triad over n doubles on `threads` threads (0: OpenMP's
 * default), best of reps; bytes/s.  The arrays are first touched by the
 * same static split, so each thread's pages lie near it. */
static double triad_on(long n, int reps, int threads)
{
    double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n),
           *c = malloc(sizeof *c * (size_t)n), best = 0;
    int t = threads;
#ifdef _OPENMP
    if (t <= 0)
        t = omp_get_max_threads();
#else
    t = 1;
#endif
    if (!a || !b || !c) {
        free(a), free(b), free(c);
        return 0;
    }
    #pragma omp parallel for schedule(static) num_threads(t)
    for (long i = 0; i < n; i++)
        a[i] = 0, b[i] = 1, c[i] = 2;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        #pragma omp parallel for schedule(static) num_threads(t)
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

/* The same on t threads, each timed on its own CPU clock and the slowest
 * one's time taken (as the pattern table's: a thread the system
 * deschedules does not count its wait), best of reps; bytes/s. */
static double triad_cpu(long n, int reps, int t)
{
    double *a = malloc(sizeof *a * (size_t)n), *b = malloc(sizeof *b * (size_t)n),
           *c = malloc(sizeof *c * (size_t)n), best = 0;
    if (!a || !b || !c) {
        free(a), free(b), free(c);
        return 0;
    }
    #pragma omp parallel for schedule(static) num_threads(t)
    for (long i = 0; i < n; i++)
        a[i] = 0, b[i] = 1, c[i] = 2;
    for (int r = 0; r <= reps; r++) {         /* r = 0 warms */
        double slowest = 0;
        #pragma omp parallel num_threads(t) reduction(max : slowest)
        {
            double t0 = rt_thread_cpu_s();
            #pragma omp for schedule(static) nowait
            for (long i = 0; i < n; i++)
                a[i] = b[i] + 3.0 * c[i];
            slowest = rt_thread_cpu_s() - t0;
        }
        if (r > 0 && slowest > 0 && 24.0 * n / slowest > best)
            best = 24.0 * n / slowest;
    }
    sink = a[n / 2];
    free(a), free(b), free(c);
    return best;
}

/* STREAM triad over n doubles on all of OpenMP's threads, best of reps. */
double rt_calibrate_triad(long n, int reps)
{
    return triad_on(n, reps, 0);
}

/* ---- what many threads get ----------------------------------------------
 * The dependent chain is calib.c's (CHAIN8, calib_chain.h); beside it,
 * eight independent chains, one addition each. */
#define TCI(i) do { CHAIN1(y[0], i); CHAIN1(y[1], i); CHAIN1(y[2], i); CHAIN1(y[3], i); \
                    CHAIN1(y[4], i); CHAIN1(y[5], i); CHAIN1(y[6], i); CHAIN1(y[7], i); } while (0)

static volatile unsigned long tc_sink;

static int median_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double rt_median(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, median_cmp);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A round's batches, ~8-12 ms each (x 32 additions). */
#define TC_ITERS (1UL << 20)

/* One thread's dependent-chain and independent-addition batches: the
 * seconds of each on its own CPU clock (0 where the clock failed). */
static void tc_batch(unsigned long seed, double *chain_s, double *work_s)
{
    unsigned long x = seed, y[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    double t0 = rt_thread_cpu_s();
    for (unsigned long i = 0; i < TC_ITERS; i++) {
        CHAIN8(x, i);
        CHAIN8(x, i);
        CHAIN8(x, i);
        CHAIN8(x, i);
    }
    double t1 = rt_thread_cpu_s();
    for (unsigned long i = 0; i < TC_ITERS; i++) {
        TCI(i);
        TCI(i);
        TCI(i);
        TCI(i);
    }
    double t2 = rt_thread_cpu_s();
    *chain_s = t0 >= 0 && t1 > t0 ? t1 - t0 : 0;
    *work_s = t1 > 0 && t2 > t1 ? t2 - t1 : 0;
    tc_sink = x + y[0] + y[1] + y[2] + y[3] + y[4] + y[5] + y[6] + y[7];
}

/* With t threads busy at once: each thread's dependent-chain clock and
 * independent additions per second in one batch, started together (a
 * barrier) so that every thread runs beside t - 1 others, each timed on
 * its own CPU clock (a thread the system deschedules does not count its
 * wait); the median thread's of each into *clock_hz and *work. */
static void rates_on(int t, double *clock_hz, double *work)
{
    int n = t > 0 ? t : 1, got = 0;
    double ck[n], wk[n];
    for (int k = 0; k < n; k++)
        ck[k] = wk[k] = 0;
    #pragma omp parallel num_threads(t)
    {
        int me = 0;
#ifdef _OPENMP
        me = omp_get_thread_num();
#endif
        double cs = 0, ws = 0;
        #pragma omp barrier
        tc_batch((unsigned long)me + 1, &cs, &ws);      /* warms every core's clock up */
        #pragma omp barrier
        tc_batch((unsigned long)me + 1, &cs, &ws);
        if (me < t) {
            ck[me] = cs > 0 ? 32.0 * (double)TC_ITERS / cs : 0;
            wk[me] = ws > 0 ? 32.0 * (double)TC_ITERS / ws : 0;
        }
    }
    /* the threads that ran (a runtime may start fewer than asked) */
    for (int k = 0; k < n; k++)
        if (ck[k] > 0 && wk[k] > 0)
            ck[got] = ck[k], wk[got] = wk[k], got++;
    *clock_hz = rt_median(ck, got);
    *work = rt_median(wk, got);
}

/* The rate of one thread alone, in the calling thread outside any
 * parallel region, after a pause long enough for the OpenMP runtime's
 * idle threads to stop spinning (libgomp spins GOMP_SPINCOUNT, 300,000
 * turns, after a region before it sleeps: a spinning thread on the same
 * core would slow this one). */
static void rate_alone(double *clock_hz, double *work)
{
    struct timespec pause = { 0, 20 * 1000 * 1000 };
    nanosleep(&pause, NULL);
    double cs = 0, ws = 0;
    tc_batch(1, &cs, &ws);                          /* warms the clock up */
    tc_batch(1, &cs, &ws);
    *clock_hz = cs > 0 ? 32.0 * (double)TC_ITERS / cs : 0;
    *work = ws > 0 ? 32.0 * (double)TC_ITERS / ws : 0;
}

double rt_rate_ratio(const double *alone, const double *busy, int rounds)
{
    double r[RT_TC_ROUNDS];
    int n = 0;
    for (int k = 0; k < rounds && n < RT_TC_ROUNDS; k++)
        if (alone[k] > 0 && busy[k] > 0)
            r[n++] = busy[k] / alone[k];
    return n > 0 ? rt_median(r, n) : 0;
}

/* A thread's rate with T busy is a ratio of two rates the host's other
 * work moves from one moment to the next (a shared cloud host's
 * neighbours on the other hardware thread of a core, its turbo budget):
 * measured in RT_TC_ROUNDS rounds, each one thread alone right before T
 * together, the median of the rounds' ratios; the clock and the rate
 * alone are the medians of their rounds.  tc_work holds the rate alone
 * times that ratio, so tc_work[k] / tc_work[0] is the median ratio. */
int rt_calibrate_threads(rt_calibration *c, long dram_doubles)
{
    int all = 1;
#ifdef _OPENMP
    all = omp_get_max_threads();
#endif
    double wk1[RT_TC_ROUNDS], ckt[RT_TC_POINTS][RT_TC_ROUNDS],
        wa[RT_TC_POINTS][RT_TC_ROUNDS], wt[RT_TC_POINTS][RT_TC_ROUNDS];
    c->tc_points = 0;
    for (int t = 1; c->tc_points < RT_TC_POINTS; t = t * 2 < all && t * 2 > t ? t * 2 : all) {
        c->tc_threads[c->tc_points++] = t;
        if (t >= all)
            break;
    }
    int rounds = 0;
    for (int r = 0; r < RT_TC_ROUNDS; r++, rounds++)
        for (int k = 0; k < c->tc_points; k++) {
            double ca = 0, a = 0, ct = 0, w = 0;
            rate_alone(&ca, &a);
            if (k == 0)
                wk1[r] = a;
            if (c->tc_threads[k] > 1)
                rates_on((int)c->tc_threads[k], &ct, &w);
            else
                ct = ca, w = a;
            ckt[k][r] = ct, wa[k][r] = a, wt[k][r] = w;
        }
    double alone = rt_median(wk1, rounds);
    for (int k = 0; k < c->tc_points; k++) {
        c->tc_clock[k] = rt_median(ckt[k], rounds);
        c->tc_work[k] = k == 0 ? alone : alone * rt_rate_ratio(wa[k], wt[k], rounds);
        c->tc_bw[k] = triad_cpu(dram_doubles, 3, (int)c->tc_threads[k]);   /* mem_bw's arrays */
    }
    return c->tc_points > 0 && c->tc_clock[0] > 0 && c->tc_work[0] > 0 ? 0 : -1;
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

/* ---- bandwidth per access pattern (PMaC machine profile) -----------------
 * pmac-idioms-accelerators.txt, sections V-VI: a machine profile is the
 * bandwidth each type of reference achieves as a function of the data size
 * ("Mem BW_j", eq. 1).  Four reference types, the ones keel's traffic model
 * tells apart (facts.c), each over an array of `fp` bytes of doubles:
 *   unit     a[i]                    sum of every element in order
 *   strided  a[4i]                   every 4th element (32 bytes apart)
 *   column   a[i*512 + j], i inner   down the columns of 4 KiB rows
 *   gather   a[idx[i]]               a random permutation of the elements
 * Bytes are counted as the traffic model counts them: elements x min(line,
 * 8 x stride) -- a column walk or a gather moves a line per element.  Each
 * figure is the best of 3 timings of enough passes to take ~5 ms, each
 * timed on the threads' own CPU clocks (CLOCK_THREAD_CPUTIME_ID, the
 * slowest thread's: on a shared machine a descheduled thread's wait is
 * not the memory's time) (the
 * first pass warms the caches: a footprint that fits a cache is measured
 * in it), with one thread and with all of OpenMP's threads sharing the
 * array (static split of the outer loop). */
/* `passes` walks of pattern p in one parallel region (no fork per pass:
 * small footprints measure the cache, not the runtime); each thread walks
 * its static share of the outer loop, nowait (the walks only read).  Each
 * walk sums into ACC independent partial sums: one running sum is a chain
 * of dependent floating-point additions (no reassociation without
 * -ffast-math), which times the adder's latency -- a few cycles per
 * element, far below what a cache delivers -- and not the memory; STREAM's
 * kernels (McCalpin) have no loop-carried dependence for the same reason.
 * n is a multiple of 4 x 512 x ACC (the footprints are powers of two). */
enum { ACC = 8 };

#define SUM8(s, e) do { s[0] += e(0); s[1] += e(1); s[2] += e(2); s[3] += e(3); \
                        s[4] += e(4); s[5] += e(5); s[6] += e(6); s[7] += e(7); } while (0)

static double pattern_run(const double *a, const int *idx, long n, int p, int threads, int passes,
                          double *secs)
{
    double s = 0, slowest = 0;
    long rows = n / 512;
    (void)threads, (void)rows;
    #pragma omp parallel num_threads(threads) reduction(+ : s) reduction(max : slowest)
    {
        double acc[ACC] = { 0 };
        double t0 = rt_thread_cpu_s();
        for (int k = 0; k < passes; k++) {
            switch (p) {
            case RT_PAT_UNIT:
                #pragma omp for schedule(static) nowait
                for (long i = 0; i < n; i += ACC) {
#define E(q) a[i + (q)]
                    SUM8(acc, E);
#undef E
                }
                break;
            case RT_PAT_STRIDED:
                #pragma omp for schedule(static) nowait
                for (long i = 0; i < n / 4; i += ACC) {
#define E(q) a[4 * (i + (q))]
                    SUM8(acc, E);
#undef E
                }
                break;
            case RT_PAT_COLUMN:
                #pragma omp for schedule(static) nowait
                for (long j = 0; j < 512; j++)
                    for (long i = 0; i < rows; i += ACC) {
#define E(q) a[(i + (q)) * 512 + j]
                        SUM8(acc, E);
#undef E
                    }
                break;
            default:
                #pragma omp for schedule(static) nowait
                for (long i = 0; i < n; i += ACC) {
#define E(q) a[idx[i + (q)]]
                    SUM8(acc, E);
#undef E
                }
                break;
            }
        }
        slowest = rt_thread_cpu_s() - t0;
        for (int q = 0; q < ACC; q++)
            s += acc[q];
    }
    *secs = slowest;
    return s;
}

static double pattern_bw(const double *a, const int *idx, long n, int p, int threads, double line)
{
    double per_elem = p == RT_PAT_UNIT ? 8 : p == RT_PAT_STRIDED ? 32 : line;
    double elems = p == RT_PAT_STRIDED ? (double)(n / 4) : p == RT_PAT_COLUMN ? (double)(n / 512) * 512
                                                                                : (double)n;
    double best = 0, one = 0, t = 0;
    sink = pattern_run(a, idx, n, p, threads, 1, &t);       /* warm */
    sink += pattern_run(a, idx, n, p, threads, 1, &one);
    int passes = one > 0 && one < 0.005 ? (int)(0.005 / one) + 1 : 1;
    for (int r = 0; r < 3; r++) {
        sink += pattern_run(a, idx, n, p, threads, passes, &t);
        if (t > 0 && elems * per_elem * passes / t > best)
            best = elems * per_elem * passes / t;
    }
    return best;
}

int rt_calibrate_patterns(rt_calibration *c, double line, long dram_doubles)
{
    double fps[RT_BW_POINTS] = { 32768.0, 1048576.0, 16777216.0, 134217728.0 };
    if (8.0 * (double)dram_doubles > fps[RT_BW_POINTS - 1])
        fps[RT_BW_POINTS - 1] = 8.0 * (double)dram_doubles;
    long nmax = (long)(fps[RT_BW_POINTS - 1] / 8);
    double *a = malloc(sizeof *a * (size_t)nmax);
    int *idx = malloc(sizeof *idx * (size_t)nmax);
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    if (!a || !idx) {
        free(a), free(idx);
        return -1;
    }
    for (long i = 0; i < nmax; i++)
        a[i] = 1.0 / (double)(i + 1);
    unsigned long long x = 88172645463325252ull;     /* xorshift64 */
    for (int f = 0; f < RT_BW_POINTS; f++) {
        long n = (long)(fps[f] / 8);
        for (long i = 0; i < n; i++)
            idx[i] = (int)i;
        for (long i = n - 1; i > 0; i--) {            /* Fisher-Yates */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            long j = (long)(x % (unsigned long long)(i + 1));
            int t = idx[i];
            idx[i] = idx[j], idx[j] = t;
        }
        c->bw_fp[f] = fps[f];
        for (int p = 0; p < RT_PATTERNS; p++) {
            c->bw_one[p][f] = pattern_bw(a, idx, n, p, 1, line);
            c->bw_all[p][f] = pattern_bw(a, idx, n, p, threads, line);
        }
    }
    c->bw_points = RT_BW_POINTS;
    c->bw_threads = threads;
    free(a), free(idx);
    return 0;
}
