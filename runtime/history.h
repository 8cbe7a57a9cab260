/*
 * history.h -- measured times per (loop, size key, device) and the
 * StarPU-style models built from them (starpu-history-models.txt):
 *
 *   - a history table: every measurement of a loop at one set of values
 *     (the size key, "n=1100") on one device ("cpu" | "gpu") updates the
 *     running mean and variance (Welford) in one UPSERT, safe from many
 *     threads and processes (SQLite WAL, busy timeout);
 *   - a size with RT_HISTORY_TRUST samples on both devices is trusted and
 *     its means decide instead of the analytic models (rt_history_trusted:
 *     the one rule of `keel explain`, the database's history and the
 *     in-run learning below);
 *   - otherwise, where the models' times are known, each device's models'
 *     time carried through its two nearest measured sizes (rt_shape_fit,
 *     below) predicts unseen sizes once 2 are measured on each device;
 *     without the models' times, a per-loop, per-device regression
 *     t = a n^b + c over the sizes seen (n: the nest's footprint in bytes,
 *     StarPU's data size) once 3 distinct sizes are known on both.
 *
 * The table `history` is created on first write (db/SCHEMA.md); its SQL
 * is db/'s run-time log (db_log.h), over whose connections the *_h
 * functions here read.
 */
#ifndef KEEL_RUNTIME_HISTORY_H
#define KEEL_RUNTIME_HISTORY_H

#include <stddef.h>
#include <stdint.h>

/* One measurement on each device decides, as in libkeelrt's in-run
 * learning.  StarPU calibrates with 10 samples to average out timing
 * noise; here the analytic models' own error on measured rows is 2-15x (on
 * the 39 H100 rows of bench/measured-h100.txt predicted / measured has
 * median 0.41-0.45 and fewer than half within 2x), so one measured pair of
 * the real devices is the better guide.  KEEL_CALIBRATE, which asks for
 * samples explicitly, still collects RT_CALIBRATE_SAMPLES per device
 * (StarPU's 10). */
#define RT_HISTORY_TRUST 1
#define RT_CALIBRATE_SAMPLES 10

/* 1 when measurements at a size decide over the models: RT_HISTORY_TRUST
 * samples on each device. */
static inline int rt_history_trusted(long long cpu_samples, long long gpu_samples)
{
    return cpu_samples >= RT_HISTORY_TRUST && gpu_samples >= RT_HISTORY_TRUST;
}

typedef struct {
    double a, b, c;             /* t = a * n^b + c */
} rt_fit;

/* Least-squares fit of t = a n^b + c to k points (relative error; c from
 * {0, 0.1, ..., 0.9} x min t, a and b by log-log regression for each).
 * 0, or -1 when fewer than 3 distinct sizes. */
int rt_history_fit(int k, const double *n, const double *t, rt_fit *out);
double rt_fit_eval(const rt_fit *f, double n);

/* ---- the models' time carried to the measured one -----------------------
 * Two measured sizes cannot fit t = a n^b + c (three unknowns), and a
 * power law in the size through two sizes cannot see a fixed cost: it
 * bends a launch, a fork-join or a transfer latency into the exponent.
 * The models already know how a nest's time grows with its sizes (every
 * loop's trip count, the footprint, the cache level, the launch and
 * transfer terms); what they get wrong is their error, measured / model,
 * which drifts slowly with the size (a rate off across a cache level,
 * fixed costs they miss weighing less as the work grows).  So a device's
 * measured time is carried from the models' time m on it, the error a
 * power law in m through the measured errors:
 *
 *     t = m * r(m),  r(m) = r1 (m / m1)^(g - 1),  i.e.  t = t1 (m / m1)^g
 *
 * two unknowns, so two measured sizes determine it; no constant in it.
 * Through the two measured sizes nearest the asked one (by the models'
 * time, as a ratio: one below and one above where there are, else the two
 * nearest on one side -- near sizes say more of the error there).  g >= 0:
 * where two sizes give g < 0 (measured time falling while the models'
 * rises: timing noise, or a regime the models do not see), the least
 * squares on that bound, g = 0, t = sqrt(t1 t2).  Beyond the measured
 * sizes the error may change from the nearest one's by at most the band's
 * factor (RT_LEARN_BAND below) where it moves with the models' time (g >
 * 1): g <= 1 + log(band) / |log(m / m_near)|, through the nearest size
 * (two sizes close in the models' time turn timing noise into any
 * exponent).  One measured size: its error alone,
 * t = (t1 / m1) m.
 *
 * The form was chosen among four by leave-one-program-out on the H100 rows
 * (bench/replay.sh prints each one's score; the affine t = c + beta m,
 * c, beta >= 0, was the first candidate): no constant is fitted.  The
 * cost is a pass over the points, a log and a pow: nothing to cache. */
typedef struct {
    double m1, t1, g;           /* t = t1 (m / m1)^g */
    int points;                 /* measured sizes it went through: 1 or 2 */
} rt_shape;
/* The fit for the models' time `at` from k points (m_i > 0 the models'
 * time, t_i > 0 the measured mean; others are skipped).  0, or -1 when no
 * point is usable. */
int rt_shape_fit(int k, const double *m, const double *t, double at, rt_shape *out);
double rt_shape_eval(const rt_shape *s, double m);

/* Add one measurement (after db_log_check: nothing is written into a
 * database that fails its integrity check).  0, or -1 with a message. */
int rt_history_add(const char *dbpath, int64_t loop_id, const char *key, double n,
                   const char *device, double seconds, char *err, size_t errlen);

typedef struct {
    int decides;                /* 1: history gives both devices' times */
    const char *how;            /* "measured" (calibrated size) | "regression" */
    double cpu_s, gpu_s;
    int cpu_samples, gpu_samples;   /* at this size */
    rt_fit cpu_fit, gpu_fit;
    int cpu_sizes, gpu_sizes;       /* distinct sizes seen */
    int shaped;                     /* 1: the regression is the models' time carried
                                       through 2 measured sizes per device (cpu_fit
                                       and gpu_fit unused) */
} rt_history_pred;

/* What history says for one loop at one size.  0 (see out->decides), or
 * -1 with a message; a database without the table is "nothing known". */
int rt_history_lookup(const char *dbpath, int64_t loop_id, const char *key, double n,
                      rt_history_pred *out, char *err, size_t errlen);

struct db_log;
/* One loop's history rows in memory (libkeelrt reads them once per loop
 * and process: a memo miss must not open the database), with each
 * device's regression fitted when they are read, not at every lookup. */
typedef struct {
    int n, cap;
    char **key;
    int *gpu, *samples;
    double *size, *mean;
    double *model;              /* the models' time at each row's size on its
                                   device, 0 unknown (rt_history_rows_model) */
    const void *model_for;      /* what they were computed for (the caller's) */
    int fitted;                 /* 1: fit and fit_ok hold each device's a n^b + c */
    int fit_ok[2];              /* [cpu, gpu]: 3 distinct sizes or more */
    rt_fit fit[2];
} rt_history_rows;
/* 0 (no table: no rows) or -1 (out of memory: no rows). */
int rt_history_rows_load_h(struct db_log *l, int64_t loop_id, rt_history_rows *out);
void rt_history_rows_free(rt_history_rows *r);
/* 1 when no size can be decided from r, whatever is asked: every row is
 * on one device (or there is none).  Measured times need both devices at
 * the size asked, and each regression both devices' rows, so rows of one
 * device decide nothing until a row of the other comes. */
int rt_history_rows_one_device(const rt_history_rows *r);
/* What the rows say at one size (rt_history_lookup's answer). */
void rt_history_predict(const rt_history_rows *r, const char *key, double n, rt_history_pred *out);

/* The models' times at one set of sizes: 0 and *cpu_s, *gpu_s (the GPU's
 * with its transfer), or -1.  names/values: a size key's, parsed. */
typedef int (*rt_history_model_fn)(void *ctx, int n, const char *const *names,
                                   const long long *values, double *cpu_s, double *gpu_s);
/* Fill r->model from each row's key through fn, once for `model_for` (a
 * second call with the same does nothing; another computes them again).
 * 0, or -1 out of memory (r->model NULL: not known). */
int rt_history_rows_model(rt_history_rows *r, rt_history_model_fn fn, void *ctx,
                          const void *model_for);
/* rt_history_predict where the models' times at n are known (mc, mg > 0,
 * the GPU's with its transfer) and r->model is filled: short of a trusted
 * size, each device's time is the models' time carried through its two
 * measured sizes nearest (rt_shape_fit; how "regression", shaped 1) once
 * 2 sizes with the models' times known are measured on each device, one
 * of them within RT_LEARN_REACH of n (the in-run learning's rule); else
 * rt_history_predict's answer. */
void rt_history_predict_at(const rt_history_rows *r, const char *key, double n, double mc,
                           double mg, rt_history_pred *out);
/* rt_history_lookup with the models: the rows of the loop, their models'
 * times through fn, rt_history_predict_at. */
int rt_history_lookup_at(const char *dbpath, int64_t loop_id, const char *key, double n,
                         double mc, double mg, rt_history_model_fn fn, void *ctx,
                         rt_history_pred *out, char *err, size_t errlen);

/* rt_history_lookup on an open connection (libkeelrt's log connection;
 * measurements are added with db_history_add / db_history_merge). */
int rt_history_lookup_h(struct db_log *l, int64_t loop_id, const char *key, double n,
                        rt_history_pred *out);
/* The size key of a launch: "name=value" for each symbol, sorted by name,
 * comma-separated.  -1 when it does not fit. */
int rt_history_key(int n, const char *const *names, const long long *values, char *buf,
                   size_t len);

/* ---- learning in the process (libkeelrt, offload builds) ------------------
 * One site's own measurements of this run, in fixed arrays (no allocation,
 * no database): the mean time per size (the footprint n) and device.  When
 * the models' predicted speedup lies inside [1/band, band] (RT_LEARN_BAND)
 * and the site launches again at a size it has measured on the models'
 * device only, the launch may run once on the other device -- if that
 * exploration's expected cost fits the budget (below); from then on the
 * faster measured device decides at that size, and once 2 sizes are
 * measured on each device a regression decides at sizes within a factor
 * of RT_LEARN_REACH of a measured one: each device's models' time carried
 * through its 2 nearest measured sizes (rt_shape_fit above), or where the
 * models' times are not known, once 3 sizes are measured on both devices,
 * t = a n^b + c of each (StarPU's history-based model, Augonnet et al.,
 * "StarPU: a unified platform for task scheduling on heterogeneous
 * multicore architectures", section 4: a per-task performance model
 * fitted to measured sizes; fitted once per added sample).  Not
 * thread-safe: the caller locks.
 *
 * The budget bounds what exploring costs by construction.  An exploration
 * at size n is expected to cost  max(0, r * m_other - t_chosen):  t_chosen
 * the mean measured at n on the device the site uses, m_other the models'
 * time on the other device, r the models' measured error on that device
 * (the largest measured / predicted over the site's other sizes measured
 * there; where there is none, the chosen device's own t_chosen / m_chosen
 * at n times the band: the models' speedup may be off by the band's
 * factor, which is why the band explores at all).  Where the regression
 * decided, its time on the other device stands for r * m_other.
 * It runs only when that expected cost fits into
 *     budget * (the site's measured time so far) - (what explorations cost
 *     so far: measured where both devices are measured, else expected),
 * so the cost of all explorations stays within the budget fraction of the
 * site's own time, give or take the models' error on the last one. */
/* The band: the 1/4..4.  A band taken from the models' own error
 * (the 90th percentile of the factor between predicted and measured
 * speedup over the other programs' rows of bench/measured-h100.txt, the
 * models' development set) was tried; bench/replay.sh prints its result
 * beside this one's.  Without the budget it reached millisecond rows and
 * paid for it with explorations of second-long rows the models had right;
 * with the budget the two give the same replay.  Not the default. */
#define RT_LEARN_BAND 4.0
#define RT_LEARN_REACH 4.0
/* The budget fraction, chosen before any replay: learning may cost a site
 * what keel may cost a program at all -- an instrumented program is meant
 * to run within 1.02x of the plain build -- so 2% of the site's time.
 * Not fitted to bench/replay.sh's table (which reports it). */
#define RT_LEARN_BUDGET 0.02
enum { RT_LEARN_SIZES = 32, RT_LEARN_EXPLORE = 8 };

typedef struct {
    int n;                              /* sizes known */
    double size[RT_LEARN_SIZES];
    int launches[RT_LEARN_SIZES];       /* decisions taken at this size */
    int samples[RT_LEARN_SIZES][2];     /* [cpu, gpu] */
    double mean[RT_LEARN_SIZES][2];
    double model[RT_LEARN_SIZES][2];    /* the models' times there (0: not asked) */
    double expect[RT_LEARN_SIZES];      /* the expected cost of its exploration */
    signed char explored[RT_LEARN_SIZES];   /* the device explored there, or -1 */
    int explorations;
    double run_s;                       /* every measured launch's time, summed */
    int fit_state;                      /* a n^b + c over sizes measured on both:
                                           0 not fitted since the last sample,
                                           1 fitted, -1 none */
    rt_fit fit[2];
    int fit_k;                          /* the sizes it was fitted over */
    double band;                        /* RT_LEARN_BAND unless set after init */
    double budget;                      /* RT_LEARN_BUDGET unless set after init */
} rt_learn;

typedef struct {
    int device;             /* 1 GPU, 0 CPU */
    int explore;            /* 1: this launch explores the other device */
    const char *how;        /* NULL (the models), "history: measured",
                               "history: regression", "history: exploring" */
    int samples;            /* measurements behind it (both devices, this size;
                               for a regression: the measured sizes behind
                               it, the two devices' added) */
    int settled;            /* 1: nothing more to learn at this size (memoise) */
    double cpu_s, gpu_s;    /* the times that decided */
    double expect_s;        /* an exploration's expected cost (explore, or held back) */
    int held_back;          /* 1: exploring was due but did not fit the budget */
} rt_learn_choice;

void rt_learn_init(rt_learn *l);
/* The device for one launch at size n, given the models' times (the GPU's
 * with its transfer) and the models' verdict: rt_estimate_all's, which
 * keeps a saving smaller than the launch and transfer on the CPU ("too
 * small"); where nothing measured decides, that verdict stands. */
void rt_learn_decide(rt_learn *l, double n, double model_cpu_s, double model_gpu_s,
                     int model_device, rt_learn_choice *out);
/* rt_learn_decide with the verdict the times give alone (GPU when faster). */
void rt_learn_choose(rt_learn *l, double n, double model_cpu_s, double model_gpu_s,
                     rt_learn_choice *out);
/* One measured launch (seconds > 0 and finite; else ignored). */
void rt_learn_add(rt_learn *l, double n, int device, double seconds);
/* What exploring cost so far: the explored device's mean time minus the
 * faster device's, summed over explored sizes measured on both (seconds;
 * 0 when exploring found the faster device). */
double rt_learn_cost(const rt_learn *l);
/* What explorations count against the budget: rt_learn_cost, plus the
 * expected cost of explorations not yet measured on both devices. */
double rt_learn_spent(const rt_learn *l);

#endif
