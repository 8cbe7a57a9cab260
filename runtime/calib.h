/*
 * calib.h -- measuring this host (`keel calibrate`) and storing / reading
 * the result in the database's host_calibration table (schema v3, one row
 * per measurement, keyed by hostname: a copied database does not carry
 * one host's figures to another).
 *
 * rt_calibrate measures the core clock (a dependent-add chain), runs a
 * STREAM-triad style kernel (sustained bandwidth), an
 * FMA kernel (peak flop rate) and EPCC-style OpenMP micro-benchmarks
 * (fork/join of an empty parallel region, the static schedule of a
 * parallel for, a barrier), the host fallback of an OpenMP `target`
 * region, the last-level TLB (calib_tlb.c: entries, miss cost, the page
 * the programs' arrays get), what T threads busy at once get (the clock,
 * independent work per thread, the triad: calib_omp.c), and fills an
 * rt_calibration.  It takes a few
 * seconds and is never called by keel_decide.
 */
#ifndef KEEL_RUNTIME_CALIB_H
#define KEEL_RUNTIME_CALIB_H

#include <stddef.h>

#include "model.h"

int rt_calibrate(rt_calibration *out, char *err, size_t errlen);
/* The same, calling fn(arg, k, n, what) as measurement k of n starts
 * (`keel calibrate` prints them: the whole run takes seconds). */
typedef void (*rt_calibrate_step_fn)(void *arg, int k, int n, const char *what);
int rt_calibrate_steps(rt_calibration *out, rt_calibrate_step_fn fn, void *arg,
                       char *err, size_t errlen);
/* Whether other work shares the cores being measured: loadavg is
 * /proc/loadavg's text, cores the cores online.  A 1-minute load average
 * above the cores means some probe waits for a core, and the clock, the
 * overheads and the TLB fit come out wrong.  1 with the warning (one line)
 * in msg, else 0 (unreadable text included). */
int rt_calibrate_load_note(const char *loadavg, long cores, char *msg, size_t msglen);
/* Store *c as the newest calibration of this host (db must be writable,
 * schema >= 3).  0 or -1 with a message. */
int rt_calibration_store(const char *dbpath, const rt_calibration *c, char *err, size_t errlen);
/* Read this host's (gethostname) newest calibration; 0 found, 1 none,
 * -1 error. */
int rt_calibration_load(const char *dbpath, rt_calibration *c, char *err, size_t errlen);
/* The same through d, a database open anyway (no connection of its own;
 * dbpath, d's path, names it in messages). */
typedef struct db db;
int rt_calibration_read(db *d, const char *dbpath, rt_calibration *c, char *err, size_t errlen);
/* The same through a run-time log open anyway. */
typedef struct db_log db_log;
int rt_calibration_read_log(db_log *l, const char *dbpath, rt_calibration *c, char *err,
                            size_t errlen);
/* This host's calibration from a packed form (db_calib_pack: keelcc's link
 * step packs the newest of the host it links on): 0 found, 1 the form is
 * another host's, -1 refused (truncated, corrupt) with a message. */
int rt_calibration_read_packed(const void *bytes, size_t n, rt_calibration *c, char *err,
                               size_t errlen);

/* The clock the cores run at, Hz: a chain of dependent integer additions
 * (one cycle each) on the thread's CPU clock, the fastest of several
 * batches (calib.c, after lmbench's mhz).  0 when there is no thread CPU
 * clock. */
double rt_calibrate_clock(void);
/* adds / the smallest positive of seconds[0..n-1]: the clock of the least
 * disturbed batch; 0 when none is positive. */
double rt_clock_hz(double adds, const double *seconds, int n);
/* The median of the clock samples > 0 of samples[0..n-1] (at most 8
 * taken); 0 when none. */
double rt_clock_median(const double *samples, int n);

/* Cycles of one operation of each dependent chain RT_LAT_* (model.h) at
 * clock freq_hz, into lat (0 where not measured): calib.c. */
void rt_calibrate_latencies(double freq_hz, double lat[RT_NLAT]);

/* EPCC-style overheads, measured in calib_omp.c (compiled with OpenMP):
 * ns per empty `parallel` region (fork + join), per `for schedule(static)`
 * beyond the work, per barrier; threads the runtime used.  Returns -1 when
 * built without OpenMP. */
int rt_calibrate_omp(double *fork_ns, double *sched_ns, double *barrier_ns, int *threads);
/* ns an OpenMP `target teams distribute parallel for` region costs on the
 * host (no device / offload disabled) beyond the same loop under
 * `parallel for` (calib_omp.c).  -1 (and 0) when built without OpenMP. */
int rt_calibrate_target(double *fallback_ns);
/* The host fallback of a `target` region as the programs' compiler builds
 * it: cc (KEEL_CC's compiler, clang-19 by default) compiles a probe with
 * -fopenmp -fopenmp-targets=<its own triple> and runs it with
 * OMP_TARGET_OFFLOAD=DISABLED; the probe prints ns per `target teams
 * distribute parallel for` region beyond the same loop as `parallel for`.
 * 0 measured; 1 not measured (cc cannot build offload code: a `target`
 * region then compiles to plain host code, with no fallback to pay), with
 * the reason in note; -1 on a system error, with the reason in note. */
int rt_calibrate_target_cc(const char *cc, double *fallback_ns, char *note, size_t notelen);

/* Bandwidth per access pattern (unit, strided, column, gather) at
 * RT_BW_POINTS footprints, one thread and all threads (PMaC machine
 * profile; calib_omp.c); `line` is the cache line the bytes are counted in.
 * The footprints are 32 KiB, 1 MiB, 16 MiB and the larger of 128 MiB and
 * an array of dram_doubles (rt_dram_doubles: beyond the last-level cache).
 * Fills c->bw_*; -1 when the arrays cannot be allocated. */
int rt_calibrate_patterns(rt_calibration *c, double line, long dram_doubles);

/* How many doubles an array of a DRAM measurement holds (the triad's
 * three arrays, the patterns' largest footprint): STREAM's rule, each array
 * at least 4 times the last-level cache (l3 bytes, the host's whole L3;
 * McCalpin, "STREAM: Sustainable Memory Bandwidth", run rules), and at
 * least 64 MiB; at most avail / 8 bytes (avail: the memory available, so
 * the triad's three arrays take at most 3/8 of it; 0: no limit).  A
 * multiple of 2^20 doubles.  A host whose L3 is 300 MiB measured its
 * caches with 64 MiB arrays. */
long rt_dram_doubles(double l3, double avail);
/* The memory available to a new allocation, bytes (/proc/meminfo's
 * MemAvailable, else free pages); 0 when unknown. */
double rt_mem_available(void);

/* What many threads get (calib_omp.c): with T = 1, 2, 4, ... and all of
 * OpenMP's threads busy at once, each thread's dependent-chain clock and
 * rate of independent additions (the median thread's, each on its own CPU
 * clock; the clock the median of RT_TC_ROUNDS rounds, the rate one
 * thread alone's median times the median of the rounds' ratios, T busy
 * over one alone measured right before) and the STREAM triad on T threads.
 * The triad's arrays hold dram_doubles each (rt_dram_doubles).
 * Fills c->tc_*; -1 when nothing was measured. */
int rt_calibrate_threads(rt_calibration *c, long dram_doubles);
/* Rounds of the thread curve: each measures one thread alone, then T
 * threads busy together (calib_omp.c). */
#define RT_TC_ROUNDS 5
/* The median over rounds of busy[k] / alone[k] (the rounds where both
 * were measured, > 0); 0 when none. */
double rt_rate_ratio(const double *alone, const double *busy, int rounds);
/* The thread curve as text, "T:clock:work:triad ..." (what
 * host_calibration.thread_curve stores; calib_store.c), and back: the
 * points read into c->tc_* (at most RT_TC_POINTS, ascending T; an entry
 * that does not parse ends the list). */
void rt_thread_curve_format(const rt_calibration *c, char *buf, size_t len);
int rt_thread_curve_parse(const char *text, rt_calibration *c);
/* The median of v[0..n-1] (v is sorted in place); 0 when n is 0. */
double rt_median(double *v, int n);
/* The calling thread's CPU time, seconds (CLOCK_THREAD_CPUTIME_ID, what
 * the calibration kernels time themselves on); -1 when unavailable. */
double rt_thread_cpu_s(void);

/* The TLB probe (calib_tlb.c, Saavedra-Smith / lmbench): ns per load of a
 * walk with one load per base page over P pages and of the same loads on P
 * consecutive lines, at each P tried. */
#define RT_TLB_POINTS 32
typedef struct {
    int n;
    double pages[RT_TLB_POINTS], page_ns[RT_TLB_POINTS], line_ns[RT_TLB_POINTS];
} rt_tlb_curve;
/* Measure this core's last-level TLB: *entries (pages it maps), *miss_ns
 * (what one miss adds to a walk of independent loads), *page (the page the
 * programs' arrays get: the huge page when transparent huge pages are
 * "always", else the base page); the curve into *curve when not NULL.
 * 0 measured; 1 no step found (note says so); -1 no memory. */
int rt_calibrate_tlb(rt_tlb_curve *curve, double *page, double *entries, double *miss_ns,
                     char *note, size_t notelen);
/* The probe's fit: of n points (pages ascending, diff_ns the page walk's
 * ns per load minus the line walk's), diff = lo + miss x max(0, 1 - C/P)
 * by least squares (lo, miss) at each C = 2^(k/16) within the pages
 * walked, the C with the least squared error: *entries = C, *miss_ns =
 * miss.  0; 1 when the best miss is not positive (no rise: the TLB holds
 * every size tried); -1 when n < 4. */
int rt_tlb_fit(const double *pages, const double *diff_ns, int n, double *entries, double *miss_ns);

/* This host's caches (calib_cache.c), read from the Linux cache listing
 * under root (NULL: /sys/devices/system/cpu) for cpu0: *l1 the L1 data
 * cache and *l2 the L2 of one core, *l3 the L3 of the whole host (an
 * instance times the instances `cpus` online CPUs share), bytes, 0 where
 * the listing has none.  0 read (note names the source); 1 no L1 data
 * cache or no L2 listed (note says which). */
int rt_calibrate_caches(const char *root, int cpus, double *l1, double *l2, double *l3,
                        char *note, size_t notelen);
/* "48K", "1024K", "32M" or bytes -> bytes; 0 when not a size. */
double rt_cache_size_parse(const char *s);
/* CPUs in a list such as "0-3,8"; 0 when it does not parse. */
int rt_cpu_list_count(const char *s);

#endif
