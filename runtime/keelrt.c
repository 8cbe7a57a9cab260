/*
 * keelrt.c -- keel_decide: the run-time CPU/GPU verdict (keelrt.h).
 *
 * Global state is set up once by pthread_once at the first call: the
 * environment, the device (a CUDA GPU found through libcuda.so.1 loaded
 * with dlopen, or the KEEL_DEVICE what-if profile), the host profile (the
 * newest `keel calibrate` row, else the defaults of model.c), a read-only
 * db connection for facts and a second, read-write SQLite connection for
 * the decision log.  The facts connection is used only under facts_lock,
 * and only while a site loads its facts (once per site).
 *
 * Per site, site->state points to a site_state published with an atomic
 * compare-and-swap: the loser of a race frees its copy and uses the
 * winner's.  A state holds the pre-parsed facts and a memo of the last
 * launch (values, verdict), guarded by a sequence counter so that readers
 * never lock: a warm call with the same values as the previous one is a
 * few loads and compares.  A call with new values evaluates the models
 * (no lock), stores the memo if no other thread is storing it, and
 * appends one row to `decisions` -- through trylock and a 5 ms busy
 * timeout, skipped on contention -- so repeated launches with the same
 * sizes are logged once, and at most LOG_CAP rows per site and run.
 *
 * Nothing here aborts or exits: every failure is a warning (once per
 * cause) and the verdict CPU.
 */
#include "keelrt.h"

#include <dlfcn.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "calib.h"
#include "db.h"
#include "facts.h"
#include "history.h"
#include "model.h"
#include "rt.h"

enum { W_DB, W_LOOP, W_VALUE, W_DEVICE, W_MEM, W_COUNT };

/* At most this many decisions are appended per site and run: a nest
 * launched with ever new sizes must not turn into a database writer. */
enum { LOG_CAP = 100 };

static struct {
    int verbose, log;
    int force;                 /* -1 none, 0 cpu, 1 gpu */
    int offload;               /* -1 default, 0 DISABLED, 1 MANDATORY */
    int threads;
    const char *dbpath;        /* KEEL_DB or NULL */
    char dbpath_buf[4096];
    int have_gpu;              /* a GPU profile to compare with */
    char gpu_name[128];        /* what CUDA reported, or the what-if name */
    rt_profile gpu, host;
    int host_set;              /* KEEL_HOST chose the host profile: no calibration over it */
    int history;               /* -1 unknown, 0 no history table, 1 measured times exist */
    db *facts_db;
    int db_failed;
    sqlite3 *log_db;
    sqlite3_stmt *log_ins;
} G;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t facts_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint warned;

/* One warning per cause for the life of the process. */
static void warn_once(int cause, const char *fmt, ...)
{
    unsigned bit = 1u << cause;
    if (atomic_fetch_or(&warned, bit) & bit)
        return;
    va_list ap;
    fputs("keel: warning: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs(" (verdict CPU)\n", stderr);
}

/* ---- device detection ---------------------------------------------------- */

typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_count_fn)(int *);
typedef int (*cu_get_fn)(int *, int);
typedef int (*cu_name_fn)(char *, int, int);
typedef int (*cu_attr_fn)(int *, int, int);

int rt_cuda_detect(rt_profile *out, char *name, size_t namelen)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return 0;
    cu_init_fn init = (cu_init_fn)dlsym(h, "cuInit");
    cu_count_fn count = (cu_count_fn)dlsym(h, "cuDeviceGetCount");
    cu_get_fn get = (cu_get_fn)dlsym(h, "cuDeviceGet");
    cu_name_fn getname = (cu_name_fn)dlsym(h, "cuDeviceGetName");
    cu_attr_fn attr = (cu_attr_fn)dlsym(h, "cuDeviceGetAttribute");
    int n = 0, dev = 0, found = 0;
    if (init && count && get && getname && init(0) == 0 && count(&n) == 0 && n > 0 &&
        get(&dev, 0) == 0 && getname(name, (int)namelen, dev) == 0) {
        const rt_profile *p = rt_profile_match_gpu(name);
        /* an NVIDIA GPU we have no profile for: V100's latencies with the
         * device's own SM count and clock */
        *out = p ? *p : *rt_profile_find("v100");
        if (!p) {
            int sms = 0, khz = 0;
            out->name = "cuda";
            out->desc = "unprofiled CUDA device (V100 figures, its own SMs and clock)";
            if (attr && attr(&sms, 16 /* MULTIPROCESSOR_COUNT */, dev) == 0 && sms > 0)
                out->sms = sms;
            if (attr && attr(&khz, 13 /* CLOCK_RATE */, dev) == 0 && khz > 0)
                out->gpu_hz = khz * 1e3;
        }
        found = 1;
    }
    /* libcuda stays loaded: unloading a driver library is not safe */
    return found;
}

/* ---- set-up -------------------------------------------------------------- */

static void init(void)
{
    const char *s;
    G.verbose = (s = getenv("KEEL_VERBOSE")) && *s && strcmp(s, "0") != 0;
    G.log = !((s = getenv("KEEL_LOG")) && strcmp(s, "0") == 0);
    G.force = -1;
    if ((s = getenv("KEEL_FORCE")) && *s)
        G.force = strcasecmp(s, "gpu") == 0 ? 1 : strcasecmp(s, "cpu") == 0 ? 0 : -1;
    G.offload = -1;
    if ((s = getenv("OMP_TARGET_OFFLOAD")) && *s)
        G.offload = strcasecmp(s, "DISABLED") == 0 ? 0 : strcasecmp(s, "MANDATORY") == 0 ? 1 : -1;
    G.threads = rt_default_threads();
    if ((s = getenv("KEEL_DB")) && *s) {
        snprintf(G.dbpath_buf, sizeof G.dbpath_buf, "%s", s);
        G.dbpath = G.dbpath_buf;
    }
    G.host = *rt_profile_host_default();
    G.history = -1;
    if ((s = getenv("KEEL_HOST")) && *s) {     /* a host profile name or file (models) */
        const rt_profile *p = rt_profile_find(s);
        if (p && p->kind == RT_CPU)
            G.host = *p, G.host_set = 1;
        else
            warn_once(W_DEVICE, "KEEL_HOST=%s is no CPU profile (see keel devices)", s);
    }
    if ((s = getenv("KEEL_DEVICE")) && *s) {
        const rt_profile *p = rt_profile_find(s);
        if (p && p->kind == RT_GPU) {
            G.gpu = *p;
            G.have_gpu = 1;
            snprintf(G.gpu_name, sizeof G.gpu_name, "%s (KEEL_DEVICE)", p->name);
        } else
            warn_once(W_DEVICE, "KEEL_DEVICE=%s is no GPU profile (see keel devices)", s);
    }
    if (!G.have_gpu)
        G.have_gpu = rt_cuda_detect(&G.gpu, G.gpu_name, sizeof G.gpu_name);
}

/* Open the database (once, under facts_lock): facts connection read-only,
 * log connection read-write, host calibration. */
static int open_db(const char *site_db)
{
    char err[512];
    const char *path = G.dbpath ? G.dbpath : site_db;
    if (G.facts_db)
        return 0;
    if (G.db_failed)
        return -1;
    if (!path || !*path) {
        G.db_failed = 1;
        warn_once(W_DB, "no database path");
        return -1;
    }
    if (db_open(path, DB_READONLY, &G.facts_db, err, sizeof err)) {
        G.db_failed = 1;
        warn_once(W_DB, "%s", err);
        return -1;
    }
    rt_calibration cal;
    if (!G.host_set && rt_calibration_load(path, &cal, err, sizeof err) == 0)
        rt_profile_from_calibration(&cal, &G.host);
    if (G.log && sqlite3_open_v2(path, &G.log_db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK) {
        sqlite3_busy_timeout(G.log_db, 5);
        sqlite3_exec(G.log_db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
        if (sqlite3_prepare_v3(G.log_db,
                               "INSERT INTO decisions(loop_id, bindings, threads, device, cpu_s,"
                               " gpu_s, xfer_s, verdict, reason)"
                               " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                               -1, SQLITE_PREPARE_PERSISTENT, &G.log_ins, NULL) != SQLITE_OK)
            G.log_ins = NULL;
    }
    return 0;
}

/* ---- per-site state ------------------------------------------------------ */

typedef struct {
    int ok;                    /* facts loaded */
    rt_facts *facts;
    int nsyms;
    atomic_uint seq;           /* odd while the memo is written */
    atomic_flag writing;
    atomic_int have_memo;
    atomic_int logged;         /* decisions appended for this site */
    atomic_int memo_verdict;
    _Atomic long long *memo;   /* nsyms values */
} site_state;

static site_state *site_init(keel_site *site)
{
    char err[512];
    site_state *st = calloc(1, sizeof *st);
    if (!st) {
        warn_once(W_MEM, "out of memory");
        return NULL;
    }
    atomic_flag_clear(&st->writing);
    st->nsyms = site->nsyms > 0 ? site->nsyms : 0;
    st->memo = calloc((size_t)st->nsyms + 1, sizeof *st->memo);
    pthread_mutex_lock(&facts_lock);
    if (st->memo && open_db(site->db) == 0) {
        int r = rt_facts_load(G.facts_db, site->file ? site->file : "", site->line, site->col,
                              &st->facts, err, sizeof err);
        if (r == 0)
            st->ok = 1;
        else if (r == 1)
            warn_once(W_LOOP, "no loop at %s:%d in the database", site->file ? site->file : "?",
                      site->line);
        else
            warn_once(W_DB, "%s", err);
    }
    pthread_mutex_unlock(&facts_lock);
    void *expected = NULL;
    if (!__atomic_compare_exchange_n(&site->state, &expected, st, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        rt_facts_free(st->facts);
        free(st->memo);
        free(st);
        return expected;
    }
    return st;
}

/* The memo's verdict when it holds exactly these values, else -1. */
static int memo_get(site_state *st, const long long *values)
{
    unsigned s1 = atomic_load_explicit(&st->seq, memory_order_acquire);
    if ((s1 & 1) || !atomic_load_explicit(&st->have_memo, memory_order_relaxed))
        return -1;
    for (int i = 0; i < st->nsyms; i++)
        if (atomic_load_explicit(&st->memo[i], memory_order_relaxed) != values[i])
            return -1;
    int v = atomic_load_explicit(&st->memo_verdict, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(&st->seq, memory_order_relaxed) == s1 ? v : -1;
}

static void memo_put(site_state *st, const long long *values, int verdict)
{
    if (atomic_flag_test_and_set_explicit(&st->writing, memory_order_acquire))
        return;    /* another thread is storing: skip, never wait */
    atomic_fetch_add_explicit(&st->seq, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    for (int i = 0; i < st->nsyms; i++)
        atomic_store_explicit(&st->memo[i], values[i], memory_order_relaxed);
    atomic_store_explicit(&st->memo_verdict, verdict, memory_order_relaxed);
    atomic_store_explicit(&st->have_memo, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&st->seq, 1, memory_order_release);
    atomic_flag_clear_explicit(&st->writing, memory_order_release);
}

/* ---- output -------------------------------------------------------------- */

void rt_format_time(char *buf, size_t n, double s)
{
    if (s >= 1)
        snprintf(buf, n, "%.2f s", s);
    else if (s >= 1e-3)
        snprintf(buf, n, "%.1f ms", s * 1e3);
    else
        snprintf(buf, n, "%.1f us", s * 1e6);
}

static void bindings_text(const keel_site *site, const long long *values, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < site->nsyms && used + 1 < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%s=%lld", i ? "," : "",
                         site->syms[i] ? site->syms[i] : "?", values ? values[i] : 0);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    if (used >= n)
        buf[n - 1] = 0;
}

static void log_decision(site_state *st, const char *bind, const rt_estimate *e,
                         int verdict, const char *reason)
{
    if (!G.log_ins || !st->ok ||
        atomic_load_explicit(&st->logged, memory_order_relaxed) >= LOG_CAP ||
        pthread_mutex_trylock(&log_lock) != 0)
        return;
    atomic_fetch_add_explicit(&st->logged, 1, memory_order_relaxed);
    sqlite3_stmt *q = G.log_ins;
    sqlite3_bind_int64(q, 1, rt_facts_loop_id(st->facts));
    sqlite3_bind_text(q, 2, bind, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(q, 3, e ? e->threads : G.threads);
    sqlite3_bind_text(q, 4, G.have_gpu ? G.gpu.name : "none", -1, SQLITE_STATIC);
    if (e) {
        sqlite3_bind_double(q, 5, e->cpu_s);
        sqlite3_bind_double(q, 6, e->gpu_s);
        sqlite3_bind_double(q, 7, e->xfer_s);
    }
    sqlite3_bind_text(q, 8, verdict ? "GPU" : "CPU", -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 9, reason, -1, SQLITE_TRANSIENT);
    sqlite3_step(q);           /* SQLITE_BUSY etc.: the row is skipped */
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    pthread_mutex_unlock(&log_lock);
}

static const char *base_name(const char *p)
{
    const char *s = p ? strrchr(p, '/') : NULL;
    return s ? s + 1 : p ? p : "?";
}

static void verbose_line(const keel_site *site, const site_state *st, const char *bind,
                         const rt_estimate *e, int verdict, const char *reason)
{
    char line[1024], c[32], g[32], x[32];
    int n = snprintf(line, sizeof line, "keel: %s:%d", base_name(site->file), site->line);
    if (st && st->ok) {
        const char *lab = rt_facts_label(st->facts);
        n += snprintf(line + n, sizeof line - (size_t)n, " %s", rt_facts_function(st->facts));
        if (*lab)
            n += snprintf(line + n, sizeof line - (size_t)n, " [%s]", lab);
    }
    n += snprintf(line + n, sizeof line - (size_t)n, " %s:", bind);
    if (e) {
        rt_format_time(c, sizeof c, e->cpu_s);
        rt_format_time(g, sizeof g, e->gpu_s);
        rt_format_time(x, sizeof x, e->xfer_s);
        snprintf(line + n, sizeof line - (size_t)n, " cpu %s | gpu %s + xfer %s -> %s%s%s%s", c, g,
                 x, verdict ? "GPU" : "CPU", reason ? " (" : "", reason ? reason : "",
                 reason ? ")" : "");
    } else
        snprintf(line + n, sizeof line - (size_t)n, " -> %s (%s)", verdict ? "GPU" : "CPU",
                 reason ? reason : "?");
    fprintf(stderr, "%s\n", line);
}

/* ---- measured history (history.c, models) -------------------------------
 * Trusted history (StarPU: 10 samples per device at this size) or its
 * a*n^b+c regression overrides the models; times come from keel_record
 * or `keel history --add`, through the log connection. */
static int history_decides(const keel_site *site, const site_state *st, const long long *values,
                           const rt_launch *in, int *verdict, const char **reason)
{
    char key[512];
    rt_history_pred hp;
    int ok = 0;
    pthread_mutex_lock(&log_lock);
    if (G.history < 0) {
        sqlite3_stmt *q = NULL;
        G.history = sqlite3_prepare_v2(G.log_db, "SELECT 1 FROM sqlite_master WHERE name = 'history'",
                                       -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW;
        sqlite3_finalize(q);
    }
    if (G.history > 0)
        ok = rt_history_key(site->nsyms, site->syms, values, key, sizeof key) == 0 &&
             rt_history_lookup_h(G.log_db, rt_facts_loop_id(st->facts), key,
                                 in->bytes_in + in->bytes_out, &hp) == 0 && hp.decides;
    pthread_mutex_unlock(&log_lock);
    if (ok) {
        *verdict = hp.gpu_s < hp.cpu_s;
        *reason = !strcmp(hp.how, "measured") ? "history: measured" : "history: regression";
    }
    return ok;
}

void keel_record(keel_site *site, const long long *values, int device, double seconds)
{
    if (!site)
        return;
    pthread_once(&once, init);
    site_state *st = __atomic_load_n(&site->state, __ATOMIC_ACQUIRE);
    if (!st && !(st = site_init(site)))
        return;
    rt_launch in;
    char err[128], key[512];
    if (!st->ok || !G.log_db || (site->nsyms > 0 && !values) ||
        rt_facts_bind_on(st->facts, &G.host, &G.gpu, G.threads, site->nsyms, site->syms, values,
                         &in, err, sizeof err) ||
        rt_history_key(site->nsyms, site->syms, values, key, sizeof key))
        return;
    pthread_mutex_lock(&log_lock);
    if (rt_history_add_h(G.log_db, rt_facts_loop_id(st->facts), key, in.bytes_in + in.bytes_out,
                         device ? "gpu" : "cpu", seconds) == 0)
        G.history = 1;
    pthread_mutex_unlock(&log_lock);
}

/* ---- the entry point ----------------------------------------------------- */

int keel_decide(keel_site *site, const long long *values)
{
    if (!site)
        return 0;
    pthread_once(&once, init);
    site_state *st = __atomic_load_n(&site->state, __ATOMIC_ACQUIRE);
    if (!st && !(st = site_init(site)))
        return 0;
    if (site->nsyms > 0 && !values)
        return 0;

    const char *reason = NULL;
    int verdict = -1;
    if (G.offload == 0)
        verdict = 0, reason = "OMP_TARGET_OFFLOAD=DISABLED";
    else if (G.force >= 0)
        verdict = G.force, reason = G.force ? "KEEL_FORCE=gpu" : "KEEL_FORCE=cpu";
    else if (G.offload == 1)
        verdict = 1, reason = "OMP_TARGET_OFFLOAD=MANDATORY";
    else if (!st->ok)
        verdict = 0, reason = "no facts";
    else if (!G.have_gpu)
        verdict = 0, reason = "no device";
    if (verdict >= 0) {
        if (G.verbose) {
            char bind[512];
            bindings_text(site, values, bind, sizeof bind);
            verbose_line(site, st, bind, NULL, verdict, reason);
        }
        return verdict;
    }

    int hit = memo_get(st, values);
    if (hit >= 0 && !G.verbose)
        return hit;

    rt_launch in;
    rt_estimate e;
    char err[256], bind[512];
    bindings_text(site, values, bind, sizeof bind);
    if (rt_facts_bind_on(st->facts, &G.host, &G.gpu, G.threads, site->nsyms, site->syms, values,
                         &in, err, sizeof err)) {
        warn_once(W_VALUE, "%s:%d: %s", base_name(site->file), site->line, err);
        if (G.verbose)
            verbose_line(site, st, bind, NULL, 0, err);
        return 0;
    }
    verdict = rt_estimate_all(&G.host, G.threads, &G.gpu, &in, &e);
    if (in.not_parallel)
        verdict = 0, reason = "not parallel";
    else if (hit < 0 && G.log_db && history_decides(site, st, values, &in, &verdict, &reason))
        e.cpu_s = e.gpu_s = e.xfer_s = 0;   /* (times: `keel history`) */
    if (hit < 0) {
        memo_put(st, values, verdict);
        if (G.log)
            log_decision(st, bind, &e, verdict, reason);
    }
    if (G.verbose)
        verbose_line(site, st, bind, &e, verdict, reason);
    return verdict;
}

int rt_default_threads(void)
{
    const char *s = getenv("OMP_NUM_THREADS");
    if (s && *s) {
        long n = strtol(s, NULL, 10);   /* the first level of a list */
        if (n > 0 && n < 1 << 20)
            return (int)n;
    }
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? (int)c : 1;
}
