/*
 * keelrt.c -- keel_decide: the run-time CPU/GPU verdict (keelrt.h).
 *
 * Global state is set up once at the first call (init_once): the
 * environment (one pass over it), the device (a CUDA GPU found through
 * libcuda.so.1 loaded with dlopen where an NVIDIA driver node exists, or
 * the KEEL_DEVICE what-if profile, copied from its built-in image) and the
 * host profile (KEEL_HOST, else the newest `keel calibrate` row: the one
 * keelcc's link step packed into the program, replaced by the database's
 * newest when the database is first opened; else the defaults of
 * model.c).  A site
 * finds its facts packed into the program by keelcc's link step (see
 * "facts linked into the program") or reads them from the database.
 *
 * The runtime leaves the host program's file descriptors as they were: the
 * database is opened only while a site loads its facts (read-only, db.h;
 * never for facts linked into the program) or while the run-time log
 * reads or writes history and decisions
 * (db_log.h), under facts_lock, and closed again at once; all SQL is db/'s.
 * While it is open, descriptors 0-2 the program has closed are held on
 * /dev/null so that SQLite never takes them (it would park /dev/null there
 * for good), and SQLite opens with O_CLOEXEC.  A database that is not a
 * regular file is refused before it is opened (db_open_read, log_open), so
 * a FIFO never blocks the program.
 *
 * Per site, site->state points to a site_state published with an atomic
 * compare-and-swap: the loser of a race frees its copy and uses the
 * winner's.  A state knows, from its first call, whether the answer
 * depends on the values at all: a policy (KEEL_FORCE, OMP_TARGET_OFFLOAD),
 * no facts, no device, a loop that is not parallel or a bound the runtime
 * cannot evaluate (`v->length`, `sizeof a / sizeof a[0]`) fix the verdict
 * for the life of the process, and every later call is one load and one
 * compare.  Otherwise the state holds the pre-parsed facts and a memo of
 * the launches it saw (values -> verdict; a hashed table of sets of ways
 * that grows from 8 to at most 512 launches, see "the memo" below), each
 * way guarded by a sequence counter so that readers never lock: a warm
 * call with values the site saw lately is a hash and a few loads and
 * compares.  A call with new values evaluates the models (no lock) and
 * stores them in a way if no other thread is storing; a launch
 * whose values fail (an overflow) is memoised as CPU too.  New decisions
 * are kept in memory (at most LOG_CAP per site) and appended to the
 * database's `decisions` table in batches, never inside a site's first
 * call (see "the run-time log" below for what a killed program leaves);
 * the rest go at exit.  The first write of a process checks the tables the
 * log writes (not keelcc's): nothing is written into a database whose
 * log tables fail their integrity check.
 *
 * Offload builds on a real GPU learn (rt_learn, history.h): where the
 * models' speedup lies within 1/4..4, a size launched again after one
 * timed launch runs once on the other device (at most RT_LEARN_EXPLORE
 * sizes per site), and the faster measured device decides from then on;
 * such a size is memoised only once it is settled.  keel_done feeds the
 * measurements (under time_lock); KEEL_LEARN=0 turns it off.
 *
 * KEEL_VERBOSE=1 counts each site's launches (relaxed atomic adds on the
 * fast path) and prints one line per site at exit; KEEL_VERBOSE=2 prints
 * one line per launch instead.
 *
 * Signals: everything after the first call of a site is lock-free and
 * allocation-free.  The slow paths (a site's first call, a launch with new
 * values) run under a per-thread guard: a signal handler that interrupts
 * them and launches a nest of its own gets CPU at once, never a deadlock
 * on facts_lock or a re-entered malloc.
 *
 * Nothing here aborts, exits or writes to stderr unless KEEL_VERBOSE is
 * set: every failure is a verdict CPU (and, verbose, one warning per cause).
 */
#include "keelrt.h"

#include <dlfcn.h>
/* Weak: a -static link then leaves glibc's dlopen out (the linker would
 * warn that it needs glibc's shared libraries at run time); there dlopen
 * is NULL and the program has no CUDA device and no offload run time. */
#pragma weak dlopen
#pragma weak dlsym
#pragma weak dlclose
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calib.h"
#include "db.h"
#include "db_calib_pack.h"
#include "db_log.h"
#include "facts.h"
#include "history.h"
#include "model.h"
#include "rt.h"
#include "util.h"

enum { W_DB, W_LOOP, W_VALUE, W_DEVICE, W_MEM, W_COUNT };

/* At most LOG_CAP decisions are kept per site and run: a nest launched
 * with ever new sizes must not turn into a database writer.  Decisions
 * wait in memory and are appended in one transaction when a decision that
 * is not its site's first call finds LOG_BATCH rows waiting or the oldest
 * waiting row LOG_AGE seconds old, and at exit (see log_decision). */
enum { LOG_CAP = 100, LOG_BATCH = 64 };
#define LOG_AGE 1.0

static struct {
    int verbose, log;
    int force;                 /* -1 none, 0 cpu, 1 gpu */
    int offload;               /* -1 default, 0 DISABLED, 1 MANDATORY */
    int threads;
    const char *dbpath;        /* a copy of KEEL_DB, or NULL */
    const char *prefix_map;    /* a copy of KEEL_PREFIX_MAP, or NULL */
    int facts_db;              /* KEEL_FACTS=db: sites read the database, not the program */
    int have_gpu;              /* a GPU profile to compare with */
    char gpu_name[128];        /* what CUDA reported, or the what-if name */
    rt_profile gpu, host;
    int db_failed, db_seen;    /* under facts_lock */
    const char *db_used;       /* the database the facts came from (set under
                                * facts_lock, never freed), or NULL */
    int host_set;              /* KEEL_HOST chose the host profile: no calibration over it */
    int history;               /* -1 unknown, 0 no history table, 1 measured times exist */
    int db_sound;              /* 0 unchecked, 1 passed its integrity check, -1 failed it */
    int real_gpu;              /* a CUDA GPU was found (not a KEEL_DEVICE what-if) */
    int calibrate;             /* KEEL_CALIBRATE=1: alternate devices (keel_begin) */
    int learn;                 /* sites explore and learn (rt_learn): set up at init */
    int offload_rt;            /* libomptarget is in the process: target regions can offload
                                * (looked up only when real_gpu) */
    double t_base;             /* CLOCK_MONOTONIC at init, seconds (launch timing) */
    atomic_int init_state;     /* init_once: 0 not begun, 1 running, 2 done */
    atomic_int init_pid;       /* the process that began it (a forked child is not) */
    _Atomic(const rt_profile *) host_now;     /* host_profile(): NULL is &G.host */
    pthread_mutex_t facts_lock;
    /* every site with a state (site_init), the nests read ahead (pf_take,
     * under facts_lock) */
    _Atomic(struct site_state *) all_sites;
    struct pf_entry **pf_table;
    int pf_opens;
} G __attribute__((aligned(4096))) = { .facts_lock = PTHREAD_MUTEX_INITIALIZER };
/* (G on a page of its own, the set-up's state in it: a program's first
 * decision touches one page of the runtime's state, not two) */

/* decisions waiting to be appended (under log_lock) */
typedef struct {
    int64_t loop_id;
    char *bind, *reason;
    int threads, verdict, have_e;
    int known;                 /* log_flush: the table holds it already */
    double cpu_s, gpu_s, xfer_s;
} log_row;
static struct {
    log_row *rows;          /* grown by ku_push */
    int n;
    double t_oldest;        /* when the oldest waiting row came (coarse_now) */
} L;

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t time_lock = PTHREAD_MUTEX_INITIALIZER;   /* launch timing, rt_learn */
static atomic_uint warned;
/* 1 while this thread runs a slow path of the runtime (see the top). */
static _Thread_local int in_runtime __attribute__((tls_model("initial-exec")));

/* One warning per cause for the life of the process, KEEL_VERBOSE only. */
static void warn_once(int cause, const char *fmt, ...)
{
    unsigned bit = 1u << cause;
    if (!G.verbose || (atomic_fetch_or(&warned, bit) & bit))
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

/* Whether this system can show CUDA a device at all: the NVIDIA kernel
 * driver's control node or its /proc directory, or the GPU node of WSL 2's
 * driver.  Without any of them libcuda finds no device, and looking for
 * libcuda.so.1 along the loader's whole search path (some 40 failing
 * system calls) cost a CPU-only host's first decision about 90 us. */
static int cuda_possible(void)
{
    return access("/dev/nvidiactl", F_OK) == 0 || access("/proc/driver/nvidia", F_OK) == 0 ||
           access("/dev/dxg", F_OK) == 0;
}

int rt_cuda_detect(rt_profile *out, char *name, size_t namelen)
{
    void *h = dlopen && cuda_possible() ? dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL) : NULL;
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
        /* what the driver reports (an attribute it does not know, as an
         * old driver does 106, stays unreported); the profile from the
         * name and these (gpu_attrs.c) */
        rt_cuda_attrs a;
        rt_cuda_attrs_none(&a);
        for (int k = 0; attr && k < RT_CU_NATTR; k++)
            if (attr(&a.v[k], rt_cu_attr_id[k], dev) != 0)
                a.v[k] = -1;
        static const size_t srclen = 1536;
        char *src = malloc(srclen);     /* a derived profile's source: never freed */
        found = src && rt_profile_for_cuda(name, &a, out, src, srclen) >= 0;
        if (found && out->source != src)
            free(src);
    }
    /* libcuda stays loaded: unloading a driver library is not safe */
    return found;
}

/* ---- set-up -------------------------------------------------------------- */

static void log_forget(void);
static void time_forget(void);
static void history_probe(db_log *h);
static void host_linked(void);
static void child_forget(void);
static void time_lock_take(void);

static double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* dst = a followed by b, cut to fit n bytes (as snprintf "%s%s" would,
 * without pulling printf's formatting into a program's first decision). */
static void text_cat(char *dst, size_t n, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (!n)
        return;
    if (la > n - 1)
        la = n - 1;
    if (lb > n - 1 - la)
        lb = n - 1 - la;
    memcpy(dst, a, la);
    memcpy(dst + la, b, lb);
    dst[la + lb] = '\0';
}

/* A malloc'd copy of s (NULL out of memory), as strdup makes it but with
 * the strlen and memcpy a first decision calls anyway: each libc function
 * a program calls first costs its lazy binding, some 800 instructions. */
static char *text_copy(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    return c ? memcpy(c, s, n) : NULL;
}

/* Under facts_lock: the database the log and history open from now on
 * (G.db_used); a copy of path unless it is G.dbpath's. */
static void db_used_set(const char *path)
{
    char *c = NULL;
    if (path != G.dbpath && !(c = text_copy(path))) {
        warn_once(W_MEM, "out of memory");
        return;
    }
    G.db_used = c ? c : G.dbpath;   /* a replaced copy stays: a reader may hold it */
}

/* The variables the runtime reads, found in one pass over the environment
 * at set-up (env_read; each as getenv would find it: the first entry of
 * its name), NULL when unset; init keeps what it needs later (copies).
 * Like every setting, they are read once: a program that changes its
 * environment later changes nothing here. */
extern char **environ;
enum { E_VERBOSE, E_LOG, E_FORCE, E_OFFLOAD, E_THREADS, E_DB, E_HOST, E_DEVICE, E_CALIBRATE,
       E_LEARN, E_PREFIX_MAP, E_FACTS, E_COUNT };
static void env_read(const char *E[E_COUNT])
{
    static const char *const names[E_COUNT] = {
        [E_VERBOSE] = "KEEL_VERBOSE", [E_LOG] = "KEEL_LOG", [E_FORCE] = "KEEL_FORCE",
        [E_OFFLOAD] = "OMP_TARGET_OFFLOAD", [E_THREADS] = "OMP_NUM_THREADS",
        [E_DB] = "KEEL_DB", [E_HOST] = "KEEL_HOST", [E_DEVICE] = "KEEL_DEVICE",
        [E_CALIBRATE] = "KEEL_CALIBRATE", [E_LEARN] = "KEEL_LEARN",
        [E_PREFIX_MAP] = "KEEL_PREFIX_MAP", [E_FACTS] = "KEEL_FACTS",
    };
    for (char **e = environ; e && *e; e++) {
        const char *v = *e;
        /* (every name above starts "KEEL_" or "OMP_") */
        if (v[0] != 'K' && v[0] != 'O')
            continue;
        for (int k = 0; k < E_COUNT; k++) {
            const char *n = names[k], *c = v;
            while (*n && *c == *n)
                n++, c++;
            if (!*n && *c == '=') {
                if (!E[k])
                    E[k] = c + 1;
                break;
            }
        }
    }
}

static void init(void)
{
    const char *s, *E[E_COUNT] = { 0 };
    env_read(E);
    /* 1 (or any text but "0"): warnings and a line per site at exit; 2 or
     * more: also a line per launch */
    if ((s = E[E_VERBOSE]) && *s && strcmp(s, "0") != 0)
        G.verbose = atoi(s) >= 2 ? 2 : 1;
    G.log = !((s = E[E_LOG]) && strcmp(s, "0") == 0);
    G.force = -1;
    if ((s = E[E_FORCE]) && *s)
        G.force = strcasecmp(s, "gpu") == 0 ? 1 : strcasecmp(s, "cpu") == 0 ? 0 : -1;
    G.offload = -1;
    if ((s = E[E_OFFLOAD]) && *s)
        G.offload = strcasecmp(s, "DISABLED") == 0 ? 0 : strcasecmp(s, "MANDATORY") == 0 ? 1 : -1;
    G.threads = rt_threads_for(E[E_THREADS]);
    /* (copies: the texts used later; out of memory, the environment's own) */
    if ((s = E[E_DB]) && *s)
        G.dbpath = (G.dbpath = text_copy(s)) ? G.dbpath : s;
    if ((s = E[E_PREFIX_MAP]))
        G.prefix_map = (G.prefix_map = text_copy(s)) ? G.prefix_map : s;
    G.facts_db = (s = E[E_FACTS]) && !strcmp(s, "db");
    /* the built-in profiles are copied from their images straight into G
     * (rt_profile_builtin_into): no copy of their own is made and published */
    if (!rt_profile_builtin_into("host", RT_CPU, &G.host))
        G.host = *rt_profile_host_default();
    G.history = -1;
    if ((s = E[E_HOST]) && *s) {     /* a host profile name or file (models) */
        const rt_profile *p = rt_profile_find(s);
        if (p && p->kind == RT_CPU)     /* "host": this host, calibrated when stored */
            G.host = *p, G.host_set = p != rt_profile_host_default();
        else
            warn_once(W_DEVICE, "KEEL_HOST=%s is no CPU profile (see keel devices)", s);
    }
    if ((s = E[E_DEVICE]) && *s) {
        const rt_profile *p = rt_profile_builtin_into(s, RT_GPU, &G.gpu) ? &G.gpu
                                                                         : rt_profile_find(s);
        if (p && p->kind == RT_GPU) {
            if (p != &G.gpu)
                G.gpu = *p;
            G.have_gpu = 1;
            text_cat(G.gpu_name, sizeof G.gpu_name, p->name, " (KEEL_DEVICE)");
        } else
            warn_once(W_DEVICE, "KEEL_DEVICE=%s is no GPU profile (see keel devices)", s);
    }
    if (!G.have_gpu)
        G.have_gpu = G.real_gpu = rt_cuda_detect(&G.gpu, G.gpu_name, sizeof G.gpu_name);
    G.calibrate = (s = E[E_CALIBRATE]) && *s && strcmp(s, "0") != 0;
    /* an offload build links libomptarget: only then does if(target: 1)
     * run a target region on the GPU.  Only a process with a real GPU asks
     * (every use of offload_rt needs real_gpu too): the failing lookup
     * walks every loaded library's symbols: microseconds of a first call
     * on a host without one */
    void *self = G.real_gpu && dlopen ? dlopen(NULL, RTLD_LAZY) : NULL;
    if (self) {
        G.offload_rt = dlsym(self, "__tgt_target_kernel") != NULL;
        dlclose(self);
    }
    /* learning needs launches that really run where the verdict says, timed */
    G.learn = G.offload_rt && G.real_gpu && G.offload != 0 && G.force < 0 && G.log &&
              !G.calibrate;
    if ((s = E[E_LEARN]) && *s)
        G.learn = G.learn && strcmp(s, "0") != 0;
    host_linked();
    G.t_base = mono_now();
}

/* init, once per process; 0 when it has not run (then the caller answers
 * CPU).  Not pthread_once: a program's first decision would pay its lazy
 * binding (some 800 instructions), and init_once's own fast path is one
 * load.  A thread that finds init running in another waits for it,
 * yielding, for at most about a second (a CUDA driver's set-up can take
 * that long): past that it decides CPU without, and asks again at the
 * next call.  A child forked while another thread of its parent ran init,
 * where nothing will finish it, decides CPU at once (its pid is not the
 * one that began init), so that it does not wait a second at every call. */
static int init_once(void)
{
    int s = atomic_load_explicit(&G.init_state, memory_order_acquire);
    if (s == 2)
        return 1;
    if (s == 0 && atomic_compare_exchange_strong_explicit(&G.init_state, &s, 1,
                                                          memory_order_acq_rel,
                                                          memory_order_acquire)) {
        atomic_store_explicit(&G.init_pid, (int)getpid(), memory_order_release);
        init();
        atomic_store_explicit(&G.init_state, 2, memory_order_release);
        return 1;
    }
    for (long k = 0; k < 1000000; k++) {
        if (atomic_load_explicit(&G.init_state, memory_order_acquire) == 2)
            return 1;
        int by = atomic_load_explicit(&G.init_pid, memory_order_acquire);
        if (by != 0 && by != (int)getpid())
            return 0;
        sched_yield();
    }
    return 0;
}

/* A forked child forgets its parent's waiting decisions and launch times
 * (child_forget), registered with pthread_atfork before the first of them
 * is kept, or time_lock first taken: a program that keeps none (KEEL_LOG=0,
 * no timed launch) never registers, and its first decision pays neither
 * pthread_atfork's lazy binding nor its allocation. */
static atomic_int atfork_set;

static void forget_in_children(void)
{
    if (!atomic_exchange_explicit(&atfork_set, 1, memory_order_acq_rel))
        pthread_atfork(NULL, NULL, child_forget);
}

/* ---- the host profile ------------------------------------------------------
 * Decisions use host_profile(): G.host as init set it (KEEL_HOST's
 * profile, else the calibration keelcc's link step packed into the program
 * for this host -- keel_link_calib -- else model.c's defaults), or the
 * newest `keel calibrate` row of the database, adopted when the process
 * first opens the database for anything (a site's facts, history, the
 * log): a calibration made after the link reaches the program from then
 * on, and a program that never opens its database decides with what it
 * carries.  An adopted profile is published with one atomic store and
 * never freed (a reader may hold it); at most one per process. */
extern const unsigned char keel_link_calib[] __attribute__((weak, visibility("hidden")));

static inline const rt_profile *host_profile(void)
{
    const rt_profile *p = atomic_load_explicit(&G.host_now, memory_order_acquire);
    return p ? p : &G.host;
}

/* Under facts_lock (or in init): decisions from now on use cal. */
static void host_adopt(const rt_calibration *cal)
{
    rt_profile *p = malloc(sizeof *p);
    if (!p) {
        warn_once(W_MEM, "out of memory");
        return;
    }
    rt_profile_from_calibration(cal, p);
    atomic_store_explicit(&G.host_now, p, memory_order_release);
}

/* In init: the calibration the link packed, when it is this host's. */
static void host_linked(void)
{
    rt_calibration cal;
    char err[256];
    if (G.host_set || !keel_link_calib)
        return;
    int r = rt_calibration_read_packed(keel_link_calib, db_calib_packed_size(keel_link_calib),
                                       &cal, err, sizeof err);
    if (r == 0)
        rt_profile_from_calibration(&cal, &G.host);
    else if (r < 0)
        warn_once(W_DB, "%s", err);
}

/* The first open of the database, whatever opened it (under facts_lock):
 * this host's newest calibration and whether history exists. */
static void db_first_seen(db_log *l, const char *path)
{
    rt_calibration cal;
    char err[256];
    G.db_seen = 1;
    if (!G.host_set && rt_calibration_read_log(l, path, &cal, err, sizeof err) == 0)
        host_adopt(&cal);
    history_probe(l);
}

/* ---- the database: open, read, close ------------------------------------- */

/* Hold each of descriptors 0-2 the program has closed on /dev/null, so
 * that SQLite's files get descriptors above 2 (SQLite would otherwise park
 * /dev/null on the freed slot and keep it).  held[fd] is -1 or the
 * placeholder to close with fds_release. */
static void fds_hold(int held[3])
{
    for (int fd = 0; fd < 3; fd++) {
        held[fd] = -1;
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        int h = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (h == fd)
            held[fd] = h;
        else if (h >= 0)
            close(h);   /* someone else filled the slot meanwhile */
    }
}

static void fds_release(const int held[3])
{
    for (int fd = 0; fd < 3; fd++)
        if (held[fd] >= 0)
            close(held[fd]);
}

/* The database for a site, opened read-only for this load only (caller
 * holds facts_lock and calls db_close + fds_release).  A database that
 * failed once is not tried again. */
static db *db_acquire(const char *site_db, int held[3])
{
    char err[512];
    const char *path = G.dbpath ? G.dbpath : site_db;
    db *d = NULL;
    held[0] = held[1] = held[2] = -1;
    if (G.db_failed)
        return NULL;
    if (!path || !*path) {
        G.db_failed = 1;
        warn_once(W_DB, "no database: the program was linked without keelcc (set KEEL_DB)");
        return NULL;
    }
    fds_hold(held);
    if (db_open_read(path, &d, err, sizeof err)) {
        G.db_failed = 1;
        warn_once(W_DB, "%s", err);
        fds_release(held);
        return NULL;
    }
    /* what only the first open reads, through the same connection (no
     * second open and schema read): this host's calibration, and whether
     * the history table exists (a database without it is never opened
     * again for history) */
    if (!G.db_seen) {
        if (!G.db_used || strcmp(G.db_used, path) != 0)
            db_used_set(path);
        db_log *h;
        if (db_log_borrow(d, &h, err, sizeof err) == 0) {
            db_first_seen(h, path);
            db_log_close(h);
        }
    }
    return d;
}

/* ---- nests read ahead ------------------------------------------------------
 * Opening the database costs far more than reading one nest, so while it is
 * open for one site the runtime also reads the next outermost nests of the
 * same file (sites tend to run in source order); a later site takes its
 * facts from here without opening anything.  Reading a nest on an open
 * connection costs about a fifth of opening the database (some 120 us
 * against 600 us), and a program may have one hot nest only, so the
 * read-ahead grows with the opens a run has needed (pf_depth): none at the
 * first (such a program pays for its nest only), then 4, 16 and PREFETCH.
 * Under facts_lock. */

enum { PREFETCH = 64, PF_BUCKETS = 1024 };

/* G.pf_opens: databases opened for a site's facts so far; G.pf_table:
 * PF_BUCKETS lists, allocated by the first read-ahead. */

/* How many nests the open after `opens` earlier ones reads ahead. */
static int pf_depth(int opens)
{
    return opens <= 0 ? 0 : opens == 1 ? 4 : opens == 2 ? 16 : PREFETCH;
}

typedef struct pf_entry {
    struct pf_entry *next;
    int line, col;
    rt_facts *facts;
    char hash[17];            /* the build hash of the sites it is for ("" any) */
    char file[];
} pf_entry;

static unsigned pf_hash(const char *file, int line, int col)
{
    unsigned h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)file; *p; p++)
        h = (h ^ *p) * 16777619u;
    return (h ^ (unsigned)line * 2654435761u ^ (unsigned)col * 40503u) % PF_BUCKETS;
}

/* hash: the sites' build hash, "" for sites without one (one source
 * compiled with other flags has other loops at the same positions) */
static pf_entry **pf_find(const char *file, int line, int col, const char *hash)
{
    pf_entry **e = &G.pf_table[pf_hash(file, line, col)];
    while (*e && ((*e)->line != line || (*e)->col != col || strcmp((*e)->file, file) != 0
                  || strcmp((*e)->hash, hash) != 0))
        e = &(*e)->next;
    return e;
}

/* The read-ahead facts of file:line:col for sites of build hash hash ("":
 * none), now the caller's, or NULL; have gets their source hash (the
 * sites', as they were read for it). */
static rt_facts *pf_take(const char *file, int line, int col, const char *hash, char have[17])
{
    if (!G.pf_table)
        return NULL;
    pf_entry **e = pf_find(file, line, col, hash), *x = *e;
    if (!x)
        return NULL;
    rt_facts *f = x->facts;
    memcpy(have, x->hash, 17);
    *e = x->next;
    free(x);
    return f;
}

/* Read the next `depth` (<= PREFETCH) outermost nests of the stored file
 * after line:col that are not read yet, with d open, for the sites that
 * name it `file` (as the compiler was given it, or as stored): for sites
 * of build hash hash, only that build's nests (for sites without one, "",
 * any). */
static void pf_read_ahead(db *d, const char *stored, const char *file, int line, int col,
                          const char *hash, int depth)
{
    int lines[PREFETCH], cols[PREFETCH];
    char err[256];
    const char *build = hash[0] ? hash : NULL;
    if (depth <= 0 || (!G.pf_table && !(G.pf_table = calloc(PF_BUCKETS, sizeof *G.pf_table))))
        return;
    int n = db_next_roots(d, stored, line, col, build, depth < PREFETCH ? depth : PREFETCH,
                          lines, cols, err, sizeof err);
    for (int i = 0; i < n; i++) {
        pf_entry **e = pf_find(file, lines[i], cols[i], hash);
        rt_facts *f;
        if (*e || rt_facts_load_build(d, stored, lines[i], cols[i], build, &f, err,
                                      sizeof err) != 0)
            continue;
        pf_entry *x = malloc(sizeof *x + strlen(file) + 1);
        if (!x) {
            rt_facts_free(f);
            return;
        }
        x->next = NULL;
        x->line = lines[i];
        x->col = cols[i];
        x->facts = f;
        snprintf(x->hash, sizeof x->hash, "%s", hash);
        strcpy(x->file, file);
        *e = x;
    }
}

/* ---- per-site state ------------------------------------------------------ */

/* The memo: per site, a table of the launches it saw (values -> verdict
 * and predicted time), keyed on all the values (the base addresses "&p"
 * included).  A hash of the values picks a set of MEMO_ASSOC ways; each
 * way is a sequence-counted record so that readers never lock.  A table
 * starts with MEMO_SETS0 sets (8 launches) and, when a new launch would
 * push a remembered one out of a full set, is replaced by one MEMO_GROW
 * times larger, up to MEMO_SETS_MAX sets (512 launches): a nest called in
 * turn with the sizes of an FFT's stages, a multigrid's levels or the
 * three dimensions of a transform hits every time after the first round,
 * and a nest launched with ever new sizes stops growing at 512 (about
 * 20 KiB for 5 values) and then overwrites, set by set, round robin.  A
 * replaced table stays allocated (a reader may still be in it), so a site
 * holds at most three tables. */
enum { MEMO_ASSOC = 4, MEMO_SETS0 = 2, MEMO_GROW = 8, MEMO_SETS_MAX = 128 };
typedef struct {
    atomic_uint seq;           /* 0: never written; odd while written */
    atomic_int verdict;
    atomic_llong pred_ns;      /* the predicted time of the verdict's device, ns */
} memo_way;

typedef struct memo_tab {
    struct memo_tab *prev;     /* the smaller table this one replaced */
    unsigned nsets;            /* a power of two */
    int nsyms;
    memo_way *way;             /* nsets x MEMO_ASSOC */
    unsigned char *next;       /* per set: the way to overwrite next (the writer's) */
    _Atomic long long *vals;   /* nsets x MEMO_ASSOC x nsyms */
} memo_tab;
static memo_tab *memo_new(unsigned nsets, int nsyms);
static void memo_free(memo_tab *t);

typedef struct site_state {
    char *path;                /* the site's file without its "#h=" suffix, or NULL */
    char hash[17];             /* the suffix's source hash, or "" */
    int fixed;                 /* the verdict whatever the values, or -1 */
    const char *fixed_why;     /* its reason (static text or why[]) */
    char why[160];
    int ok;                    /* facts loaded */
    int stale;                 /* facts of another version of the source */
    int linked;                /* facts from the program's own table (keel_link_facts) */
    rt_facts *facts;
    /* the site's key as keel_site_unpack reads it (its own texts, not copies) */
    const char *file, *db;
    int nsyms;
    const char *const *syms;
    atomic_flag writing;       /* a thread is storing into the memo */
    atomic_int logged;         /* decisions kept for this site */
    atomic_int no_history;     /* its loop has no measured history (history_decides) */
    _Atomic(memo_tab *) memo;  /* the current table (see above) */
    atomic_uint memo_last[2];  /* its ways of the last two hits (hints) */
    rt_ov_plan *ov_plan;       /* the overlap condition's slots (overlap.h), checked by name */
    _Atomic(rt_ov_plan *) ov_full;   /* ... and compiled, from the second check on */
    atomic_int ov_checks;      /* checks run by name so far (overlap_plan) */
    /* the history key's layout (site_key; under facts_lock): 0 not yet
     * known, 1 hkey_ord[] lists the sizes' indices in the key's order,
     * -1 rt_history_key formats it */
    int hkey_state, hkey_n;
    unsigned char hkey_ord[16];
    rt_learn *learn;           /* this run's measurements (G.learn; under time_lock) */
    /* KEEL_VERBOSE=1's summary (relaxed counters) and the list of sites */
    atomic_llong launches, on_gpu, pred_ns, evaluated, explored;
    char where[96];            /* "file.c:LINE" (the site may be gone at exit) */
    struct site_state *next_site;
    const char *names[];       /* syms of a packed site (site_unpack) */
} site_state;

static const char *site_file(const keel_site *site)
{
    const site_state *st = site->state;
    if (!st)
        return site->file ? site->file : "?";
    return st->path ? st->path : st->file ? st->file : "?";
}

/* The number of names of a site: keelcc's packed form (keelrt.h) counts
 * them as -1 - nsyms. */
static int site_nsyms(const keel_site *site)
{
    return site->nsyms >= 0 ? site->nsyms : -1 - site->nsyms;
}

/* st's key from site: in keelcc's packed form (nsyms < 0) the texts after
 * the struct or at site->file -- the file, the names (into st->names,
 * room for site_nsyms), the database ("" when site->db gives it) -- are
 * read in place, since they are static like the site; a hand-written
 * site's fields as they are. */
static void site_unpack(site_state *st, const keel_site *site)
{
    st->nsyms = site_nsyms(site);
    st->db = site->db;
    if (site->nsyms >= 0) {
        st->file = site->file;
        st->syms = site->syms;
        return;
    }
    const char *t = site->file ? site->file : (const char *)(site + 1);
    st->file = t;
    for (int i = 0; i < st->nsyms; i++)
        st->names[i] = t += strlen(t) + 1;
    t += strlen(t) + 1;
    if (!st->db && *t)
        st->db = t;
    st->syms = st->names;
}

/* A site's file may end in "#h=" and the 16 hex digits of its source's
 * hash as keelcc recorded it (translation_units.hash): then the facts must
 * come from that version of the source.  Without it (older
 * instrumentation) nothing is checked. */
static void split_hash(site_state *st, const char *file)
{
    size_t n = file ? strlen(file) : 0;
    if (n <= 19 || memcmp(file + n - 19, "#h=", 3) != 0)
        return;
    for (const char *h = file + n - 16; *h; h++)   /* (as strspn would, inline) */
        if (!((*h >= '0' && *h <= '9') || (*h >= 'a' && *h <= 'f')))
            return;
    if (!(st->path = malloc(n - 18)))
        return;
    memcpy(st->path, file, n - 19);
    st->path[n - 19] = '\0';
    memcpy(st->hash, file + n - 16, 16);
    st->hash[16] = '\0';
}

/* KEEL_PREFIX_MAP=NEW=OLD: a program built with -ffile-prefix-map=OLD=NEW
 * (or -fmacro-/-fdebug-prefix-map) names its sources and database NEW...;
 * the database stores them under OLD...  The map given at run time turns a
 * name back (malloc'd), or NULL when it does not apply. */
static char *unmap_path(const char *p)
{
    const char *m = G.prefix_map, *eq;
    if (!p || !m || !(eq = strchr(m, '=')) || eq == m || strncmp(p, m, (size_t)(eq - m)) != 0)
        return NULL;
    size_t nl = (size_t)(eq - m), ol = strlen(eq + 1), rest = strlen(p + nl);
    char *r = malloc(ol + rest + 1);
    if (r) {
        memcpy(r, eq + 1, ol);
        memcpy(r + ol, p + nl, rest + 1);
    }
    return r;
}

/* After p's last '/' (as strrchr would find it, inline: see text_copy). */
static const char *base_name(const char *p)
{
    const char *s = NULL;
    for (const char *c = p; c && *c; c++)
        if (*c == '/')
            s = c;
    return s ? s + 1 : p ? p : "?";
}

/* Why a site whose launch loop is not parallel stays on the CPU: the
 * loop's one label (rt_facts_serial_label). */
static const char *not_parallel_why(const rt_facts *f)
{
    return rt_facts_serial_label(f);
}

/* The verdict of a site that does not depend on its values, or -1. */
static int fixed_verdict(site_state *st, const keel_site *site)
{
    char err[128];
    if (G.offload == 0)
        return st->fixed_why = "OMP_TARGET_OFFLOAD=DISABLED", 0;
    if (G.force >= 0)
        return st->fixed_why = G.force ? "KEEL_FORCE=gpu" : "KEEL_FORCE=cpu", G.force;
    if (G.offload == 1)
        return st->fixed_why = "OMP_TARGET_OFFLOAD=MANDATORY", 1;
    if (!G.have_gpu)
        return st->fixed_why = "no device", 0;
    if (!st->ok)
        return st->fixed_why = st->stale ? "stale database" : "no facts", 0;
    if (rt_facts_check(st->facts, st->nsyms, st->syms, err, sizeof err)) {
        warn_once(W_VALUE, "%s:%d: %s", base_name(site_file(site)), site->line, err);
        snprintf(st->why, sizeof st->why, "%s", err);
        return st->fixed_why = st->why, 0;
    }
    if (!rt_facts_parallel(st->facts))
        return st->fixed_why = not_parallel_why(st->facts), 0;
    /* a verdict that relies on bases being apart, with no way to check */
    const rt_overlap *ov = rt_facts_overlap(st->facts);
    if (ov && rt_overlap_prepare_slots(ov, st->nsyms, st->syms, &st->ov_plan, st->why,
                                       sizeof st->why))
        return st->fixed_why = st->why, 0;
    return -1;
}

/* ---- facts linked into the program -----------------------------------------
 * keelcc's link step puts the packed facts of the launch sites a program
 * links (db_link_table) into a weak hidden keel_link_facts: a site of a
 * build found there loads its facts from the program itself, without
 * opening the database (rt_facts_load_linked); a program or library linked
 * otherwise has none (the weak reference is NULL) and its sites read the
 * database.  The linked facts are the facts of the site's own build (its
 * hash is the key), so a database rebuilt or removed since the link
 * changes nothing.  KEEL_FACTS=db reads the database all the same.  A
 * packed form that is refused (truncated, corrupt) is warned about once
 * and the site reads the database. */
extern const unsigned char keel_link_facts[] __attribute__((weak, visibility("hidden")));

/* Under facts_lock: st's facts from the program's own table; 1 when found
 * (st->facts set, have its build hash). */
static int linked_facts(site_state *st, const char *file, const keel_site *site, char have[17])
{
    char err[256];
    if (!keel_link_facts || !st->hash[0] || site->col <= 0 || G.facts_db)
        return 0;
    int r = rt_facts_load_linked(keel_link_facts, file, site->line, site->col, st->hash,
                                 &st->facts, err, sizeof err);
    if (r < 0)
        warn_once(W_LOOP, "%s:%d: %s: reading the database instead", base_name(file),
                  site->line, err);
    if (r != 0)
        return 0;
    memcpy(have, st->hash, 17);      /* (st->hash: 16 hex digits and a NUL) */
    st->linked = 1;
    return 1;
}

/* Under facts_lock: the database a site names, for the run-time log and
 * history to open when they need it (never opened here). */
static void note_db(const char *site_db)
{
    const char *path = G.dbpath ? G.dbpath : site_db;
    if (!G.db_used && path && *path)
        db_used_set(path);
}

/* G.all_sites: every site that has a state, newest first (pushed with a
 * compare-and-swap; never unlinked): KEEL_VERBOSE=1's summary walks it. */
static site_state *site_init(keel_site *site)
{
    char err[512];
    int n = site_nsyms(site);
    site_state *st = n <= (1 << 20) ? calloc(1, sizeof *st + (site->nsyms < 0 ? (size_t)n : 0)
                                                                  * sizeof *st->names)
                                    : NULL;
    if (!st) {
        warn_once(W_MEM, "out of memory");
        return NULL;
    }
    atomic_flag_clear(&st->writing);
    site_unpack(st, site);
    split_hash(st, st->file);
    char *unmapped = unmap_path(st->path ? st->path : st->file);
    if (unmapped) {
        free(st->path);
        st->path = unmapped;
    }
    char *site_db = unmap_path(st->db);
    keel_site view = *site;    /* site_file() of a state not yet published */
    view.state = st;
    const char *file = site_file(&view);
    atomic_init(&st->memo, memo_new(MEMO_SETS0, st->nsyms));
    char num[16], *d = num + sizeof num;   /* ":LINE", as "%s:%d" would print it */
    unsigned long long line = site->line < 0 ? 0ULL - (unsigned long long)site->line
                                             : (unsigned long long)site->line;
    *--d = '\0';
    do
        *--d = (char)('0' + line % 10);
    while (line /= 10);
    if (site->line < 0)
        *--d = '-';
    *--d = ':';
    text_cat(st->where, sizeof st->where, base_name(file), d);
    /* policies that need no facts: no database opened at all */
    /* (KEEL_VERBOSE reads them anyway: its lines name the function) */
    int need_facts = G.verbose || (G.offload != 0 && G.force < 0 && G.offload != 1 && G.have_gpu);
    if (need_facts && st->memo) {
        int held[3];
        char have[17] = "";
        pthread_mutex_lock(&G.facts_lock);
        st->facts = site->col > 0 ? pf_take(file, site->line, site->col, st->hash, have) : NULL;
        if (!st->facts && linked_facts(st, file, site, have))
            note_db(site_db ? site_db : st->db);
        db *d = st->facts ? NULL : db_acquire(site_db ? site_db : st->db, held);
        if (st->facts)
            st->ok = 1;
        if (d) {
            /* of several build variants of the source, this site's */
            int r = rt_facts_load_build(d, file, site->line, site->col,
                                        st->hash[0] ? st->hash : NULL, &st->facts, err,
                                        sizeof err);
            if (r == 0) {
                st->ok = 1;
                snprintf(have, sizeof have, "%s", rt_facts_source_hash(st->facts));
                /* its neighbours: the stored file's next nests, for sites
                 * that name the file as this one does */
                if (site->col > 0 && rt_facts_file(st->facts))
                    pf_read_ahead(d, rt_facts_file(st->facts), file, site->line, site->col,
                                  st->hash, pf_depth(G.pf_opens));
            }
            else if (r == 1)
                warn_once(W_LOOP, "no loop at %s:%d in the database", file, site->line);
            else
                warn_once(W_DB, "%s", err);
            db_close(d);
            fds_release(held);
            G.pf_opens++;
        }
        pthread_mutex_unlock(&G.facts_lock);
        free(site_db);
        site_db = NULL;
        /* a database from another version of the source: the loop now at
         * file:line:col is not this site's */
        if (st->ok && st->hash[0] && have[0] && strcmp(st->hash, have) != 0) {
            warn_once(W_LOOP, "%s:%d: the database describes another version of %s"
                      " (edited and recompiled, or compiled with other flags, since this"
                      " program was built)", base_name(file), site->line, base_name(file));
            rt_facts_free(st->facts);
            st->facts = NULL;
            st->ok = 0;
            st->stale = 1;
        }
    }
    free(site_db);
    /* history needs the database: a site with linked facts opens it for
     * history only where history can decide its verdicts -- a process
     * whose launches can run on a real GPU (and so be timed) or that
     * calibrates (KEEL_CALIBRATE=1); keel_record's own rows count too */
    if (st->linked && !G.real_gpu && !G.calibrate)
        atomic_store_explicit(&st->no_history, 1, memory_order_relaxed);
    st->fixed = st->memo ? fixed_verdict(st, &view) : 0;
    if (st->fixed < 0 && G.learn && (st->learn = malloc(sizeof *st->learn)))
        rt_learn_init(st->learn);
    if (!st->memo)
        st->fixed_why = "out of memory";
    void *expected = NULL;
    if (!__atomic_compare_exchange_n(&site->state, &expected, st, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
        rt_facts_free(st->facts);
        memo_free(atomic_load(&st->memo));
        rt_overlap_plan_free(st->ov_plan);
        rt_overlap_plan_free(atomic_load(&st->ov_full));
        free(st->learn);
        free(st->path);
        free(st);
        return expected;
    }
    site_state *head = atomic_load_explicit(&G.all_sites, memory_order_relaxed);
    do
        st->next_site = head;
    while (!atomic_compare_exchange_weak_explicit(&G.all_sites, &head, st, memory_order_release,
                                                  memory_order_relaxed));
    return st;
}

/* The set of a table with nsets sets for these values: a multiply-add
 * over the values (independent products, so a hit costs a few cycles
 * more than comparing the values) and one mixing step. */
static unsigned memo_set(const long long *values, int n, unsigned nsets)
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < n; i++)
        h += (uint64_t)values[i] * (0xff51afd7ed558ccdu + 2u * (uint64_t)i);
    h ^= h >> 29;
    h *= 0xc4ceb9fe1a85ec53u;
    return (unsigned)(h >> 40) & (nsets - 1);
}

/* A table of nsets sets for nsyms values, in one block, or NULL. */
static memo_tab *memo_new(unsigned nsets, int nsyms)
{
    size_t ways = (size_t)nsets * MEMO_ASSOC;
    size_t bytes = sizeof(memo_tab) + ways * sizeof(memo_way) +
                   ways * (size_t)nsyms * sizeof(_Atomic long long) + nsets;
    memo_tab *t = calloc(1, bytes);
    if (!t)
        return NULL;
    t->nsets = nsets, t->nsyms = nsyms;
    t->way = (memo_way *)(t + 1);
    t->vals = (_Atomic long long *)(t->way + ways);
    t->next = (unsigned char *)(t->vals + ways * (size_t)nsyms);
    return t;
}

static void memo_free(memo_tab *t)
{
    while (t) {
        memo_tab *p = t->prev;
        free(t);
        t = p;
    }
}

/* Way w of t's verdict when it holds exactly these values, else -1. */
static inline int memo_way_get(const memo_tab *t, unsigned w, const long long *values,
                               long long *pred_ns)
{
    int n = t->nsyms;
    memo_way *m = &t->way[w];
    const _Atomic long long *mv = t->vals + (size_t)w * (size_t)n;
    unsigned s1 = atomic_load_explicit(&m->seq, memory_order_acquire);
    if (s1 == 0 || (s1 & 1))
        return -1;
    int i = 0;
    while (i < n && atomic_load_explicit(&mv[i], memory_order_relaxed) == values[i])
        i++;
    if (i < n)
        return -1;
    int v = atomic_load_explicit(&m->verdict, memory_order_relaxed);
    long long p = atomic_load_explicit(&m->pred_ns, memory_order_relaxed);
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&m->seq, memory_order_relaxed) != s1)
        return -1;
    *pred_ns = p;
    return v;
}

/* The memo's verdict when one of its ways holds exactly these values
 * (its predicted time in *pred_ns), else -1.  The ways of the site's last
 * two hits are tried first (a nest launched again with the same sizes, or
 * with two sets in turn, costs no hash), then the set of the values'
 * hash; a hit there becomes the newest of the two. */
static int memo_get(site_state *st, const long long *values, long long *pred_ns)
{
    const memo_tab *t = atomic_load_explicit(&st->memo, memory_order_acquire);
    unsigned n = t->nsets * MEMO_ASSOC;
    unsigned h0 = atomic_load_explicit(&st->memo_last[0], memory_order_relaxed);
    unsigned h1 = atomic_load_explicit(&st->memo_last[1], memory_order_relaxed);
    int v;
    if (h0 < n && (v = memo_way_get(t, h0, values, pred_ns)) >= 0)
        return v;
    if (h1 < n && h1 != h0 && (v = memo_way_get(t, h1, values, pred_ns)) >= 0)
        return v;
    unsigned w0 = memo_set(values, t->nsyms, t->nsets) * MEMO_ASSOC;
    for (unsigned w = w0; w < w0 + MEMO_ASSOC; w++)
        if (w != h0 && w != h1 && (v = memo_way_get(t, w, values, pred_ns)) >= 0) {
            atomic_store_explicit(&st->memo_last[1], h0, memory_order_relaxed);
            atomic_store_explicit(&st->memo_last[0], w, memory_order_relaxed);
            return v;
        }
    return -1;
}

/* Store a launch into table t (the caller is its only writer): a free way
 * of its set, else, with `evict`, the set's next way round robin.
 * Returns 0, or 1 when the set is full and evict is 0. */
static int memo_store(memo_tab *t, const long long *values, int verdict, long long pred_ns,
                      int evict)
{
    int n = t->nsyms;
    unsigned set = memo_set(values, n, t->nsets), w0 = set * MEMO_ASSOC, w = w0;
    while (w < w0 + MEMO_ASSOC && atomic_load_explicit(&t->way[w].seq, memory_order_relaxed))
        w++;
    if (w == w0 + MEMO_ASSOC) {
        if (!evict)
            return 1;
        w = w0 + t->next[set];
        t->next[set] = (unsigned char)((t->next[set] + 1) % MEMO_ASSOC);
    }
    memo_way *m = &t->way[w];
    _Atomic long long *mv = t->vals + (size_t)w * (size_t)n;
    /* the only writer: plain stores of the sequence, no locked add */
    unsigned q = atomic_load_explicit(&m->seq, memory_order_relaxed);
    atomic_store_explicit(&m->seq, q + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    for (int i = 0; i < n; i++)
        atomic_store_explicit(&mv[i], values[i], memory_order_relaxed);
    atomic_store_explicit(&m->verdict, verdict, memory_order_relaxed);
    atomic_store_explicit(&m->pred_ns, pred_ns, memory_order_relaxed);
    atomic_store_explicit(&m->seq, q + 2, memory_order_release);
    return 0;
}

/* Store values in the memo; a full set of a table that may still grow
 * moves the memo to a larger table (every launch it holds copied over)
 * first.  Skipped, never waited for, while another thread stores. */
static void memo_put(site_state *st, const long long *values, int verdict, long long pred_ns)
{
    if (atomic_flag_test_and_set_explicit(&st->writing, memory_order_acquire))
        return;
    memo_tab *t = atomic_load_explicit(&st->memo, memory_order_relaxed);
    if (memo_store(t, values, verdict, pred_ns, t->nsets >= MEMO_SETS_MAX) != 0) {
        unsigned ns = t->nsets * MEMO_GROW < MEMO_SETS_MAX ? t->nsets * MEMO_GROW : MEMO_SETS_MAX;
        memo_tab *g = memo_new(ns, t->nsyms);
        if (g) {
            int n = t->nsyms;
            for (size_t w = 0; w < (size_t)t->nsets * MEMO_ASSOC; w++) {
                const memo_way *m = &t->way[w];
                long long v[n > 0 ? n : 1];
                if (!atomic_load_explicit(&m->seq, memory_order_relaxed))
                    continue;
                for (int i = 0; i < n; i++)
                    v[i] = atomic_load_explicit(&t->vals[w * (size_t)n + (size_t)i],
                                                memory_order_relaxed);
                memo_store(g, v, atomic_load_explicit(&m->verdict, memory_order_relaxed),
                           atomic_load_explicit(&m->pred_ns, memory_order_relaxed), 1);
            }
            memo_store(g, values, verdict, pred_ns, 1);
            g->prev = t;
            atomic_store_explicit(&st->memo, g, memory_order_release);
        } else
            memo_store(t, values, verdict, pred_ns, 1);     /* no memory: overwrite */
    }
    atomic_flag_clear_explicit(&st->writing, memory_order_release);
}

/* ---- output -------------------------------------------------------------- */

void rt_format_time(char *buf, size_t n, double s)
{
    if (s >= 1e6)              /* short enough for any buffer of 16: no lost unit */
        snprintf(buf, n, "%.3g s", s);
    else if (s >= 1)
        snprintf(buf, n, "%.2f s", s);
    else if (s >= 1e-3)
        snprintf(buf, n, "%.1f ms", s * 1e3);
    else
        snprintf(buf, n, "%.1f us", s * 1e6);
}

/* Append to buf (size n, *used bytes so far), truncating: *used never
 * passes n - 1, however long the text. */
static void append(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
    if (*used + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *used, n - *used, fmt, ap);
    va_end(ap);
    if (w < 0)
        buf[*used] = 0;
    else
        *used = (size_t)w < n - *used ? *used + (size_t)w : n - 1;
}

static void bindings_text(const site_state *st, const long long *values, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < st->nsyms; i++)
        if (!st->syms[i] || st->syms[i][0] != '&')    /* not the base addresses */
            append(buf, n, &used, "%s%s=%lld", used ? "," : "",
                   st->syms[i] ? st->syms[i] : "?", values ? values[i] : 0);
}

/* ---- the run-time log: decisions and history ----------------------------
 * The first write of a process checks the log's tables (below); 0 when
 * the database may be written. */
static int log_check(db_log *l)
{
    char err[512];
    if (G.db_sound != 0)
        return G.db_sound > 0 ? 0 : -1;
    int rc = db_log_check(l, err, sizeof err);
    if (rc != 0) {               /* damaged: never again; not checked: not now */
        G.db_sound = rc < 0 ? -1 : 0;
        warn_once(W_DB, "%s", err);
        return -1;
    }
    G.db_sound = 1;
    return 0;
}

/*
 * Open the facts' database for one read or write of the run-time log
 * (db_log.h), with the program's descriptors 0-2 held (see fds_hold) and
 * a 5 ms busy timeout (the log is a record, never worth a stall); caller
 * holds facts_lock and calls log_close.  Nothing is written into a
 * database whose log tables fail their integrity check: the first write
 * of a process checks them (db_log_check: the schema page and freelist,
 * decisions, history and the calibration tables with their indexes, not
 * keelcc's tables, so the cost does not grow with keelcc's part of the
 * file) and a damaged file closes the log for the rest of the run (a check
 * that cannot run, on a lock, skips this write only).  So does a database
 * of another schema version (db_log_open refuses it): a site with linked
 * facts decides without the database, and its log must not write into a
 * newer keel's tables.  check 0: the caller checks (log_check) before it
 * writes, if it writes at all. */
static db_log *log_open_as(int mode, int check, int held[3])
{
    char err[512];
    db_log *l = NULL;
    struct stat sb;
    held[0] = held[1] = held[2] = -1;
    if (!G.db_used || (mode == DB_LOG_WRITE && G.db_sound < 0) || stat(G.db_used, &sb) != 0 ||
        !S_ISREG(sb.st_mode))
        return NULL;
    fds_hold(held);
    int orc = db_log_open(G.db_used, mode, 5, &l, err, sizeof err);
    if (orc != 0) {
        if (orc == -2) {             /* another keel's schema, or not keel's: never again */
            G.db_sound = -1;
            warn_once(W_DB, "%s; not written", err);
        }
        fds_release(held);
        return NULL;
    }
    if (mode == DB_LOG_WRITE && check && log_check(l) != 0) {
        db_log_close(l);
        fds_release(held);
        return NULL;
    }
    if (!G.db_seen)          /* linked facts: the first open of the database */
        db_first_seen(l, G.db_used);
    return l;
}

static db_log *log_open(int mode, int held[3])
{
    return log_open_as(mode, 1, held);
}

static void log_close(db_log *l, const int held[3])
{
    db_log_close(l);
    fds_release(held);
}

/* In a forked child: the decisions waiting and the launches being timed
 * are its parent's. */
static void child_forget(void)
{
    log_forget();
    time_forget();
}

/* Forget the decisions waiting (a forked child: they are its parent's). */
static void log_forget(void)
{
    for (int i = 0; i < L.n; i++)
        free(L.rows[i].bind), free(L.rows[i].reason);
    L.n = 0;
}

static db_decision_row decision_row(const log_row *r)
{
    db_decision_row row = {
        .loop_id = r->loop_id, .bindings = r->bind, .threads = r->threads,
        .device = G.have_gpu ? G.gpu.name : "none", .have_times = r->have_e,
        .cpu_s = r->cpu_s, .gpu_s = r->gpu_s, .xfer_s = r->xfer_s,
        .gpu = r->verdict, .reason = r->reason,
    };
    return row;
}

/* Append the waiting decisions to the database in one transaction and
 * forget them; caller holds log_lock.  A decision the table already holds
 * from an earlier run (db_decisions_known: equal in every column but id
 * and decided_at) is not written again, so a program run again as before
 * only reads: no check, no transaction, the table stops growing.  A busy
 * database (5 ms) or any other failure drops them: the log is a record,
 * never worth a stall. */
static void log_flush(void)
{
    int held[3];
    if (L.n == 0)
        return;
    pthread_mutex_lock(&G.facts_lock);
    db_log *l = log_open_as(DB_LOG_WRITE, 0, held);
    int fresh = 0;
    for (int i = 0; l && i < L.n; i++) {
        db_decision_row row = decision_row(&L.rows[i]);
        L.rows[i].known = db_decisions_known(l, &row) == 1;
        fresh += !L.rows[i].known;
    }
    if (l && fresh && log_check(l) == 0 && db_decisions_begin(l) == 0) {
        int ok = 1;
        for (int i = 0; i < L.n && ok; i++) {
            db_decision_row row = decision_row(&L.rows[i]);
            ok = L.rows[i].known || db_decisions_add(l, &row) == 0;
        }
        db_decisions_end(l, ok);
    }
    if (l)
        log_close(l, held);
    pthread_mutex_unlock(&G.facts_lock);
    log_forget();
}

/* At exit (or dlclose): the decisions of this run go to the database. */
__attribute__((destructor)) static void log_at_exit(void)
{
    if (pthread_mutex_trylock(&log_lock) != 0)
        return;
    log_flush();
    free(L.rows);
    L.rows = NULL;
    pthread_mutex_unlock(&log_lock);
}

/* text_copy that takes NULL (NULL). */
static char *dup_text(const char *s)
{
    return s ? text_copy(s) : NULL;
}

/* CLOCK_MONOTONIC_COARSE, seconds: the age of the waiting rows only needs
 * the tick (a few ms against LOG_AGE's second) and reads no hardware counter */
static double coarse_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Keep one new decision of st for the log.  first_call: this is the
 * site's first call -- it only adds its row, never opens the database (a
 * program pays no database write for its first launch of a nest).  Any
 * other decision that finds LOG_BATCH rows waiting, or the oldest waiting
 * row LOG_AGE seconds old, appends all of them in one transaction.  So a
 * program that aborts or is killed leaves every decision that such a later
 * decision found waiting; the rows made after its last write, and all of a
 * run whose only decisions were first calls, are lost with it (exit and
 * dlclose write them). */
static void log_decision(site_state *st, const char *bind, const rt_estimate *e,
                         int verdict, const char *reason, int first_call)
{
    if (!G.log || !st->ok ||
        atomic_load_explicit(&st->logged, memory_order_relaxed) >= LOG_CAP ||
        pthread_mutex_trylock(&log_lock) != 0)
        return;
    forget_in_children();
    log_row *r = ku_push(&L.rows, &L.n, sizeof *L.rows);
    if (!r) {
        pthread_mutex_unlock(&log_lock);
        return;
    }
    atomic_fetch_add_explicit(&st->logged, 1, memory_order_relaxed);
    double now = coarse_now();
    if (L.n == 1)
        L.t_oldest = now;
    r->loop_id = rt_facts_loop_id(st->facts);
    r->bind = dup_text(bind);
    r->reason = dup_text(reason);
    r->threads = e ? e->threads : G.threads;
    r->verdict = verdict;
    if (e) {
        r->have_e = 1;
        r->cpu_s = e->cpu_s;
        r->gpu_s = e->gpu_s;
        r->xfer_s = e->xfer_s;
    }
    if (!first_call && (L.n >= LOG_BATCH || now - L.t_oldest >= LOG_AGE))
        log_flush();
    pthread_mutex_unlock(&log_lock);
}

static void verbose_line(const keel_site *site, const site_state *st, const char *bind,
                         const rt_estimate *e, int verdict, const char *reason)
{
    char line[1024], c[32], g[32], x[32];
    size_t n = 0;
    append(line, sizeof line, &n, "keel: %s:%d", base_name(site_file(site)), site->line);
    if (st && st->ok) {
        const char *lab = rt_facts_label(st->facts);
        append(line, sizeof line, &n, " %s", rt_facts_function(st->facts));
        if (*lab)
            append(line, sizeof line, &n, " [%s]", lab);
    }
    append(line, sizeof line, &n, " %s:", bind);
    if (e) {
        rt_format_time(c, sizeof c, e->cpu_s);
        rt_format_time(g, sizeof g, e->gpu_s);
        rt_format_time(x, sizeof x, e->xfer_s);
        append(line, sizeof line, &n, " cpu %s | gpu %s + xfer %s -> %s%s%s%s", c, g, x,
               verdict ? "GPU" : "CPU", reason ? " (" : "", reason ? reason : "",
               reason ? ")" : "");
    } else
        append(line, sizeof line, &n, " -> %s (%s)", verdict ? "GPU" : "CPU",
               reason ? reason : "?");
    fprintf(stderr, "%s\n", line);
}

/* KEEL_VERBOSE=1: at exit, one line per site that launched, the most
 * predicted time first, then one line of totals. */
static int cmp_summary(const void *a, const void *b)
{
    const site_state *x = *(site_state *const *)a, *y = *(site_state *const *)b;
    long long tx = atomic_load_explicit(&x->pred_ns, memory_order_relaxed);
    long long ty = atomic_load_explicit(&y->pred_ns, memory_order_relaxed);
    long long lx = atomic_load_explicit(&x->launches, memory_order_relaxed);
    long long ly = atomic_load_explicit(&y->launches, memory_order_relaxed);
    if (tx != ty)
        return tx < ty ? 1 : -1;
    if (lx != ly)
        return lx < ly ? 1 : -1;
    return strcmp(x->where, y->where);
}

__attribute__((destructor)) static void verbose_summary(void)
{
    if (G.verbose != 1 || in_runtime)
        return;
    int n = 0, k = 0;
    for (site_state *st = atomic_load(&G.all_sites); st; st = st->next_site)
        n++;
    site_state **v = n ? malloc(sizeof *v * (size_t)n) : NULL;
    if (!v)
        return;
    for (site_state *st = atomic_load(&G.all_sites); st; st = st->next_site)
        if (atomic_load_explicit(&st->launches, memory_order_relaxed) > 0)
            v[k++] = st;
    qsort(v, (size_t)k, sizeof *v, cmp_summary);
    long long all = 0, gpu = 0;
    for (int i = 0; i < k; i++) {
        const site_state *st = v[i];
        long long l = atomic_load_explicit(&st->launches, memory_order_relaxed);
        long long g = atomic_load_explicit(&st->on_gpu, memory_order_relaxed);
        long long t = atomic_load_explicit(&st->pred_ns, memory_order_relaxed);
        long long ev = atomic_load_explicit(&st->evaluated, memory_order_relaxed);
        char line[1024], tt[32];
        size_t u = 0;
        all += l, gpu += g;
        append(line, sizeof line, &u, "keel: %s", st->where);
        if (st->ok) {
            const char *lab = rt_facts_label(st->facts);
            append(line, sizeof line, &u, " %s", rt_facts_function(st->facts));
            if (*lab)
                append(line, sizeof line, &u, " [%s]", lab);
        }
        append(line, sizeof line, &u, ": %lld launch%s, CPU %lld, GPU %lld", l,
               l == 1 ? "" : "es", l - g, g);
        if (st->fixed >= 0)
            append(line, sizeof line, &u, " (%s)", st->fixed_why ? st->fixed_why : "?");
        if (st->fixed >= 0 && st->ok && !rt_facts_parallel(st->facts) &&
            st->fixed_why == not_parallel_why(st->facts) &&
            rt_facts_fact(st->facts, DB_LOOP_FACT_serial_why))
            append(line, sizeof line, &u, ", why: %s",
                   rt_facts_fact(st->facts, DB_LOOP_FACT_serial_why));
        if (st->fixed < 0)
            append(line, sizeof line, &u, ", models evaluated %lld", ev);
        long long ex = atomic_load_explicit(&st->explored, memory_order_relaxed);
        if (ex && st->learn) {
            time_lock_take();
            rt_format_time(tt, sizeof tt, rt_learn_cost(st->learn));
            pthread_mutex_unlock(&time_lock);
            append(line, sizeof line, &u, ", explored the other device %lld time%s (cost %s)",
                   ex, ex == 1 ? "" : "s", tt);
        }
        if (t > 0) {
            rt_format_time(tt, sizeof tt, (double)t * 1e-9);
            append(line, sizeof line, &u, ", predicted %s", tt);
        }
        fprintf(stderr, "%s\n", line);
    }
    if (k)
        fprintf(stderr, "keel: %d site%s, %lld launch%s, CPU %lld, GPU %lld\n", k,
                k == 1 ? "" : "s", all, all == 1 ? "" : "es", all - gpu, gpu);
    free(v);
}

/* ---- measured history (history.c, models) -------------------------------
 * Trusted history (a measurement on each device at this size) or its
 * regression (the models' times carried through two measured sizes per
 * device, else a*n^b+c) overrides the models; times come from keel_record
 * or `keel history --add`, through the log connection. */
/* Each loop's history rows, read once per process (under facts_lock): a
 * launch with new values must not open the database (the run's own times
 * reach it at exit).  keel_record drops its loop's entry. */
enum { HCACHE = 256 };
static struct {
    int64_t loop_id;
    int used;
    rt_history_rows rows;
} H[HCACHE];
static int hcache_next;
/* The loops that have history rows, read with the first history read
 * (sorted; hloops_ok 0: unknown, so every loop is looked up): a loop
 * without any is answered without opening the database, so a table of a
 * few measured loops does not cost every other site an open. */
static int64_t *hloops;
static int nhloops, hloops_ok;

static int cmp_id(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* A loop that now has history rows (this process recorded one). */
static void hloops_add(int64_t loop_id)
{
    if (!hloops_ok || bsearch(&loop_id, hloops, (size_t)nhloops, sizeof *hloops, cmp_id))
        return;
    if (!ku_push(&hloops, &nhloops, sizeof *hloops)) {
        hloops_ok = 0;       /* unknown again: every loop is looked up */
        return;
    }
    int i = nhloops - 1;
    for (; i > 0 && hloops[i - 1] > loop_id; i--)
        hloops[i] = hloops[i - 1];
    hloops[i] = loop_id;
}

/* Whether the history table exists, and which loops it holds, once per
 * process (under facts_lock): at the first open of the database. */
static void history_probe(db_log *h)
{
    if (G.history < 0) {
        G.history = db_history_exists(h);
        if (G.history > 0)
            hloops_ok = db_history_loops(h, &hloops, &nhloops) == 0;
    }
}

static rt_history_rows *hcache_get(int64_t loop_id)
{
    int held[3];
    for (int i = 0; i < HCACHE; i++)
        if (H[i].used && H[i].loop_id == loop_id)
            return &H[i].rows;
    if (hloops_ok && !bsearch(&loop_id, hloops, (size_t)nhloops, sizeof *hloops, cmp_id))
        return NULL;
    db_log *h = G.history != 0 ? log_open(DB_LOG_READ, held) : NULL;
    if (!h)
        return NULL;
    history_probe(h);
    int k = hcache_next;
    hcache_next = (hcache_next + 1) % HCACHE;
    if (H[k].used)
        rt_history_rows_free(&H[k].rows);
    H[k].used = 0;
    if (G.history > 0 && rt_history_rows_load_h(h, loop_id, &H[k].rows) == 0)
        H[k].used = 1, H[k].loop_id = loop_id;
    log_close(h, held);
    return H[k].used ? &H[k].rows : NULL;
}

static void hcache_drop(int64_t loop_id)
{
    for (int i = 0; i < HCACHE; i++)
        if (H[i].used && H[i].loop_id == loop_id) {
            rt_history_rows_free(&H[i].rows);
            H[i].used = 0;
        }
}

/* rt_history_key's text for the site's values, without its sort and
 * snprintf on every miss: the site passes the same names at every call,
 * so the order of its sizes (not the "&p" bases) by name is found once;
 * the values are then written as %lld writes them.  Sites whose key
 * rt_history_key would build differently (a missing name, two equal
 * names, more than 16 sizes) and keys that do not fit go to
 * rt_history_key itself, which gives the answer.  Under facts_lock. */
static int site_key(site_state *st, const long long *values, char *buf, size_t len)
{
    int n = st->nsyms;
    const char *const *nm = st->syms;
    if (st->hkey_state == 0) {
        int m = 0, ok = 1;
        for (int i = 0; i < n && ok; i++) {
            if (!nm[i])
                ok = 0;
            else if (nm[i][0] != '&') {
                if (m == 16)
                    ok = 0;
                else {      /* insertion by name; equal names go to rt_history_key */
                    int at = m;
                    while (at > 0 && strcmp(nm[st->hkey_ord[at - 1]], nm[i]) > 0)
                        st->hkey_ord[at] = st->hkey_ord[at - 1], at--;
                    if (at > 0 && !strcmp(nm[st->hkey_ord[at - 1]], nm[i]))
                        ok = 0;
                    st->hkey_ord[at] = (unsigned char)i, m++;
                }
            }
        }
        st->hkey_state = ok ? 1 : -1, st->hkey_n = m;
    }
    if (st->hkey_state < 0)
        return rt_history_key(n, nm, values, buf, len);
    size_t used = 0;
    for (int k = 0; k < st->hkey_n; k++) {
        const char *name = nm[st->hkey_ord[k]];
        long long v = values[st->hkey_ord[k]];
        char digits[24];
        int nd = 0;
        unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
        do
            digits[nd++] = (char)('0' + u % 10), u /= 10;
        while (u);
        size_t nl = strlen(name), need = (k > 0) + nl + 1 + (v < 0) + (size_t)nd;
        if (used + need >= len)
            return rt_history_key(n, nm, values, buf, len);
        if (k > 0)
            buf[used++] = ',';
        memcpy(buf + used, name, nl), used += nl;
        buf[used++] = '=';
        if (v < 0)
            buf[used++] = '-';
        while (nd > 0)
            buf[used++] = digits[--nd];
    }
    buf[used] = '\0';
    return 0;
}

/* The models' times at a history row's sizes (rt_history_rows_model; ctx
 * the site's facts): what the regression carries to the launch's. */
static int history_model(void *ctx, int n, const char *const *names, const long long *values,
                         double *cpu_s, double *gpu_s)
{
    rt_launch in;
    rt_estimate e;
    char err[128];
    const rt_profile *host = host_profile();
    /* by name (the reference evaluation, the same launch bit for bit): a
     * bind with the history key's names must not become the facts' second
     * bind, which compiles the per-site plan for the names it is given --
     * the site's own calls, with the site's names, would then never match
     * it and evaluate by name at every miss */
    if (rt_facts_bind_mode(ctx, host, &G.gpu, G.threads, n, names, values, 1, &in, err,
                           sizeof err))
        return -1;
    rt_estimate_all(host, G.threads, &G.gpu, &in, &e);
    *cpu_s = e.cpu_s, *gpu_s = e.gpu_s + e.xfer_s;
    return 0;
}

/* With no history for the site's loop that can decide (no history table,
 * a table without its loop, or its rows all on one device),
 * st->no_history is set: later launches skip the lock and the rows
 * (keel_record, which adds a row, clears it).  mc, mg: the models' times
 * at this launch (the GPU's with its transfer). */
__attribute__((noinline))   /* (a part of its own in bench/decision-latency.sh's profile) */
static int history_decides(site_state *st, const long long *values,
                           const rt_launch *in, double mc, double mg, int *verdict,
                           const char **reason)
{
    char key[512];
    rt_history_pred hp;
    int ok = 0;
    int64_t id = rt_facts_loop_id(st->facts);
    pthread_mutex_lock(&G.facts_lock);
    rt_history_rows *rows = G.history != 0 ? hcache_get(id) : NULL;
    int can_decide = rows && !rt_history_rows_one_device(rows);
    if (G.history == 0 ||
        (!rows && hloops_ok && !bsearch(&id, hloops, (size_t)nhloops, sizeof *hloops, cmp_id)) ||
        (rows && !can_decide))
        atomic_store_explicit(&st->no_history, 1, memory_order_relaxed);
    if (can_decide && site_key(st, values, key, sizeof key) == 0) {
        /* the rows' models' times once per read of the rows and host profile */
        rt_history_rows_model(rows, history_model, (void *)st->facts, host_profile());
        rt_history_predict_at(rows, key, in->bytes_in + in->bytes_out, mc, mg, &hp);
        ok = hp.decides;
    }
    pthread_mutex_unlock(&G.facts_lock);
    if (ok) {
        *verdict = hp.gpu_s < hp.cpu_s;
        *reason = !strcmp(hp.how, "measured") ? "history: measured" : "history: regression";
    }
    return ok;
}

void keel_record(keel_site *site, const long long *values, int device, double seconds)
{
    if (!site || in_runtime)
        return;
    in_runtime = 1;
    if (!init_once()) {
        in_runtime = 0;
        return;
    }
    site_state *st = __atomic_load_n(&site->state, __ATOMIC_ACQUIRE);
    rt_launch in;
    char err[128], key[512];
    int held[3];
    if ((st || (st = site_init(site))) && st->ok && !(st->nsyms > 0 && !values) &&
        rt_facts_bind_on(st->facts, host_profile(), &G.gpu, G.threads, st->nsyms, st->syms,
                         values, &in, err, sizeof err) == 0 &&
        rt_history_key(st->nsyms, st->syms, values, key, sizeof key) == 0) {
        pthread_mutex_lock(&G.facts_lock);
        db_log *h = log_open(DB_LOG_WRITE, held);
        if (h) {
            if (db_history_add(h, rt_facts_loop_id(st->facts), key, in.bytes_in + in.bytes_out,
                               device ? "gpu" : "cpu", seconds) == 0) {
                G.history = 1;
                hloops_add(rt_facts_loop_id(st->facts));
                atomic_store_explicit(&st->no_history, 0, memory_order_relaxed);
            }
            log_close(h, held);
            hcache_drop(rt_facts_loop_id(st->facts));
        }
        pthread_mutex_unlock(&G.facts_lock);
    }
    in_runtime = 0;
}

/* ---- launch timing: history from real runs (issue 12 item 4) ------------
 * Offload-mode instrumentation brackets each instrumented target region:
 *     int v = keel_decide(&site, values);  long long t = keel_begin(&site, v);
 *     ...the region...
 *     keel_done(&site, t);
 * keel_decide leaves (site, values) in thread-local storage; keel_begin
 * finds the timing slot of that (site, values) -- a table of TSLOTS slots,
 * hashed, under time_lock, created at the first launch of a size (the size
 * key, the footprint and, with KEEL_CALIBRATE, the samples the database
 * already has) -- and returns a token: the start time in ns since init,
 * the slot and the device.  keel_done adds the elapsed time to the slot
 * (Welford).  At exit the slots go to the history table in one transaction
 * (db_history_merge: Chan et al.'s combination of means and variances),
 * so a run costs the program two clock reads and two short critical
 * sections per launch, and one database write at exit.  Which device ran:
 * the verdict's, when the region could offload at all (libomptarget in the
 * process, a CUDA GPU, OMP_TARGET_OFFLOAD not DISABLED), else the CPU.
 * KEEL_LOG=0 records nothing.  A signal handler that interrupts the
 * runtime gets token 0 (not timed); every failure drops a sample, never
 * the program. */
enum { TSLOTS = 4096, TSYMS = 16, KEYLEN = 256 };
typedef struct {
    const keel_site *site;
    int used, nsyms;
    long long values[TSYMS];
    int64_t loop_id;
    double n;                        /* footprint (regression size) */
    char key[KEYLEN];
    long long count[2];
    double mean[2], m2[2];
    int db_samples[2];               /* samples the database had (KEEL_CALIBRATE) */
} tslot;
static struct {
    tslot *slots;
    int nused;
} T;
static _Thread_local const keel_site *last_site __attribute__((tls_model("initial-exec")));
static _Thread_local const long long *last_values __attribute__((tls_model("initial-exec")));

/* time_lock, taken: a child forgets what it guards (forget_in_children). */
static void time_lock_take(void)
{
    forget_in_children();
    pthread_mutex_lock(&time_lock);
}

static void time_forget(void)
{
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    time_lock = fresh;               /* the child has one thread: nobody holds it */
    free(T.slots);
    T.slots = NULL;
    T.nused = 0;
}

static unsigned slot_hash(const keel_site *site, int n, const long long *v)
{
    uint64_t h = KU_FNV_KEEL_START ^ (uint64_t)(uintptr_t)site;
    for (int i = 0; i < n; i++)
        h = ku_fnv1a64_word(h, (uint64_t)v[i]);
    return (unsigned)(h ^ (h >> 29)) % TSLOTS;
}

/* The slot of (site, values) or -1; creates it when `st` is given (the
 * caller holds time_lock and runs under in_runtime). */
static int slot_find(keel_site *site, site_state *st, const long long *values)
{
    int n = st->nsyms;
    if (n > TSYMS || (n > 0 && !values))
        return -1;
    if (!T.slots && !(T.slots = calloc(TSLOTS, sizeof *T.slots)))
        return -1;
    unsigned h = slot_hash(site, n, values);
    for (int probe = 0; probe < TSLOTS; probe++, h = (h + 1) % TSLOTS) {
        tslot *x = &T.slots[h];
        if (!x->used)
            break;
        if (x->site == site && x->nsyms == n &&
            (n == 0 || memcmp(x->values, values, sizeof *values * (size_t)n) == 0))
            return (int)h;
    }
    if (!st || T.nused >= TSLOTS * 3 / 4)
        return -1;
    rt_launch in;
    char err[128];
    tslot x = { .site = site, .used = 1, .nsyms = n };
    if (n > 0)
        memcpy(x.values, values, sizeof *values * (size_t)n);
    if (!st->ok || rt_facts_bind_on(st->facts, host_profile(), &G.gpu, G.threads, n, st->syms, values,
                                    &in, err, sizeof err) ||
        rt_history_key(n, st->syms, values, x.key, sizeof x.key))
        return -1;
    x.loop_id = rt_facts_loop_id(st->facts);
    x.n = in.bytes_in + in.bytes_out;
    if (G.calibrate) {               /* what the database has measured already */
        rt_history_pred hp;
        int held[3];
        pthread_mutex_lock(&G.facts_lock);
        db_log *db = log_open(DB_LOG_READ, held);
        if (db && rt_history_lookup_h(db, x.loop_id, x.key, x.n, &hp) == 0)
            x.db_samples[0] = hp.cpu_samples, x.db_samples[1] = hp.gpu_samples;
        if (db)
            log_close(db, held);
        pthread_mutex_unlock(&G.facts_lock);
    }
    for (int probe = 0; probe < TSLOTS; probe++, h = (h + 1) % TSLOTS)
        if (!T.slots[h].used) {
            T.slots[h] = x;
            T.nused++;
            return (int)h;
        }
    return -1;
}

/* KEEL_CALIBRATE: the device this launch should run on while its size has
 * fewer than RT_CALIBRATE_SAMPLES samples on either device (StarPU), or -1. */
static int calibrate_pick(keel_site *site, site_state *st, const long long *values)
{
    int pick = -1;
    time_lock_take();
    int k = slot_find(site, st, values);
    if (k >= 0) {
        const tslot *x = &T.slots[k];
        long long c0 = x->count[0] + x->db_samples[0], c1 = x->count[1] + x->db_samples[1];
        if (c0 < RT_CALIBRATE_SAMPLES || c1 < RT_CALIBRATE_SAMPLES)
            pick = c1 < c0 ? 1 : 0;  /* the device with fewer samples; CPU first */
    }
    pthread_mutex_unlock(&time_lock);
    return pick;
}

long long keel_begin(keel_site *site, int device)
{
    if (!site || in_runtime || last_site != site)
        return 0;
    site_state *st = __atomic_load_n(&site->state, __ATOMIC_ACQUIRE);
    if (!st || !st->ok || !G.log)
        return 0;
    in_runtime = 1;
    time_lock_take();
    int k = slot_find(site, st, last_values);
    pthread_mutex_unlock(&time_lock);
    in_runtime = 0;
    if (k < 0)
        return 0;
    int dev = device && G.offload_rt && G.real_gpu && G.offload != 0;
    double t = mono_now() - G.t_base;
    if (!(t >= 0) || t > 1e6)        /* 2^50 ns is 13 days; a week is plenty */
        return 0;
    return (((long long)(t * 1e9) + 1) << 13) | ((long long)k << 1) | dev;
}

void keel_done(keel_site *site, long long token)
{
    if (!site || token <= 0 || in_runtime)
        return;
    double t1 = mono_now() - G.t_base, t0 = (double)((token >> 13) - 1) * 1e-9;
    int k = (int)((token >> 1) & (TSLOTS - 1)), dev = (int)(token & 1);
    double dt = t1 - t0;
    if (!(dt > 0))
        return;
    in_runtime = 1;
    time_lock_take();
    if (T.slots && T.slots[k].used && T.slots[k].site == site) {
        tslot *x = &T.slots[k];
        long long c = ++x->count[dev];
        double d = dt - x->mean[dev];
        x->mean[dev] += d / (double)c;
        x->m2[dev] += d * (dt - x->mean[dev]);
        site_state *st = __atomic_load_n(&site->state, __ATOMIC_ACQUIRE);
        if (st && st->learn)
            rt_learn_add(st->learn, x->n, dev, dt);
    }
    pthread_mutex_unlock(&time_lock);
    in_runtime = 0;
}

/* At exit: the measured launches go to the history table in one
 * transaction (5 ms busy timeout: a locked database loses this run's
 * samples, never the program's time). */
static void time_flush(void)
{
    int held[3];
    if (!T.slots)
        return;
    pthread_mutex_lock(&G.facts_lock);
    db_log *h = log_open(DB_LOG_WRITE, held);
    if (h) {
        if (db_log_begin(h) == 0) {
            int ok = 1;
            for (int i = 0; i < TSLOTS && ok; i++)
                for (int d = 0; d < 2 && ok; d++)
                    if (T.slots[i].used && T.slots[i].count[d] > 0)
                        ok = db_history_merge(h, T.slots[i].loop_id, T.slots[i].key,
                                              T.slots[i].n, d ? "gpu" : "cpu",
                                              T.slots[i].count[d], T.slots[i].mean[d],
                                              T.slots[i].m2[d]) == 0;
            db_log_end(h, ok);
        }
        log_close(h, held);
    }
    pthread_mutex_unlock(&G.facts_lock);
}

__attribute__((destructor)) static void time_at_exit(void)
{
    if (pthread_mutex_trylock(&time_lock) != 0)
        return;
    time_flush();
    free(T.slots);
    T.slots = NULL;
    T.nused = 0;
    pthread_mutex_unlock(&time_lock);
}

/* ---- the entry point ----------------------------------------------------- */

/* The predicted time of the device a verdict chose, in ns (0 unknown). */
static long long pred_ns_of(const rt_estimate *e, int verdict)
{
    double t = verdict ? e->gpu_s + e->xfer_s : e->cpu_s;
    return t > 0 && t < 9e9 ? (long long)(t * 1e9 + 0.5) : 0;
}

/* The plan a site's overlap check runs with.  The first check runs by
 * name on the slots fixed_verdict found (most sites check once or a few
 * times: compiling the condition would cost more than it saves); the
 * second compiles the condition (rt_overlap_prepare, which cannot fail
 * where the slots did not but for memory: then by name again) and
 * publishes it for every later check.  The results are the same either
 * way (overlap.c). */
static const rt_ov_plan *overlap_plan(site_state *st, const rt_overlap *ov)
{
    rt_ov_plan *p = atomic_load_explicit(&st->ov_full, memory_order_acquire), *none = NULL;
    char why[160];
    if (p || atomic_fetch_add_explicit(&st->ov_checks, 1, memory_order_relaxed) == 0)
        return p ? p : st->ov_plan;
    if (rt_overlap_prepare(ov, st->nsyms, st->syms, &p, why, sizeof why) != 0)
        return st->ov_plan;
    if (!atomic_compare_exchange_strong_explicit(&st->ov_full, &none, p, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        rt_overlap_plan_free(p);       /* another thread's is there */
        return none;
    }
    return p;
}

/* Everything but the fast paths of keel_decide; runs under in_runtime.
 * *pred_ns: the predicted time of the launch on the chosen device; missed:
 * keel_decide asked the memo already (no second lookup). */
static int decide_slow(keel_site *site, site_state *st, const long long *values,
                       long long *pred_ns, int missed)
{
    char bind[512];
    int first_call = !st;       /* (the log writes nothing in a first call) */
    *pred_ns = 0;
    if (!st) {
        if (!init_once() ||
            (!(st = __atomic_load_n(&site->state, __ATOMIC_ACQUIRE)) && !(st = site_init(site))))
            return 0;
    }
    if (st->nsyms > 0 && !values)
        return 0;
    if (st->fixed >= 0) {
        if (G.verbose >= 2) {
            bindings_text(st, values, bind, sizeof bind);
            verbose_line(site, st, bind, NULL, st->fixed, st->fixed_why);
        }
        return st->fixed;
    }

    int hit = missed ? -1 : memo_get(st, values, pred_ns);
    if (hit >= 0 && G.verbose < 2 && !G.calibrate)
        return hit;
    if (hit >= 0 && G.verbose < 2) {      /* KEEL_CALIBRATE: a decided size */
        int pick = calibrate_pick(site, st, values);
        return pick >= 0 ? pick : hit;
    }

    rt_launch in;
    rt_estimate e;
    char err[256];
    const char *reason = NULL;
    bind[0] = '\0';
    /* only the log (while it takes this site's decisions) and verbose
     * lines print it: no formatting on a miss otherwise */
    if (G.verbose >= 2 || (hit < 0 && G.log && st->ok &&
                           atomic_load_explicit(&st->logged, memory_order_relaxed) < LOG_CAP))
        bindings_text(st, values, bind, sizeof bind);
    const rt_profile *host = host_profile();
    if (rt_facts_bind_site(st->facts, host, &G.gpu, G.threads, st->nsyms, st->syms,
                           values, &in, err, sizeof err)) {
        warn_once(W_VALUE, "%s:%d: %s", base_name(site_file(site)), site->line, err);
        if (hit < 0)
            memo_put(st, values, 0, 0);    /* these values fail: CPU, once */
        if (G.verbose >= 2)
            verbose_line(site, st, bind, NULL, 0, err);
        return 0;
    }
    if (G.verbose)              /* only KEEL_VERBOSE's summary reads it */
        atomic_fetch_add_explicit(&st->evaluated, 1, memory_order_relaxed);
    int verdict = rt_estimate_all(host, G.threads, &G.gpu, &in, &e), pick, settled = 1;
    if (e.too_small)
        reason = "too small";
    if (in.not_parallel)
        verdict = 0, reason = not_parallel_why(st->facts);
    else if (G.calibrate && (pick = calibrate_pick(site, st, values)) >= 0)
        verdict = pick, reason = "calibrating: fewer than 10 samples on a device";
    else if (hit < 0 && !atomic_load_explicit(&st->no_history, memory_order_relaxed) &&
             history_decides(st, values, &in, e.cpu_s, e.gpu_s + e.xfer_s, &verdict,
                             &reason))
        e.cpu_s = e.gpu_s = e.xfer_s = 0;   /* (times: `keel history`) */
    else if (st->learn) {                   /* this run's own measurements */
        rt_learn_choice ch;
        time_lock_take();
        rt_learn_decide(st->learn, in.bytes_in + in.bytes_out, e.cpu_s, e.gpu_s + e.xfer_s,
                        verdict, &ch);
        pthread_mutex_unlock(&time_lock);
        verdict = ch.device, reason = ch.how, settled = ch.settled;
        if (ch.explore)
            atomic_fetch_add_explicit(&st->explored, 1, memory_order_relaxed);
    }
    /* the GPU only when the ranges the nest touches through its bases are
     * apart (overlap.c); a memo hit never gets here, and the memo holds
     * the base addresses with the sizes */
    char ovwhy[160];
    const rt_overlap *ov = verdict ? rt_facts_overlap(st->facts) : NULL;
    if (ov && rt_overlap_check(ov, overlap_plan(st, ov), st->nsyms, st->syms, values,
                               ovwhy, sizeof ovwhy) != 0)
        verdict = 0, reason = ovwhy;
    *pred_ns = pred_ns_of(&e, verdict);
    if (hit < 0) {
        if (settled && !(reason && !strncmp(reason, "calibrating", 11)))
            memo_put(st, values, verdict, *pred_ns);
        log_decision(st, bind, &e, verdict, reason, first_call);
    }
    if (G.verbose >= 2)
        verbose_line(site, st, bind, &e, verdict, reason);
    return verdict;
}

/* KEEL_VERBOSE=1: count one launch of st (relaxed: a summary). */
static void tally(site_state *st, int verdict, long long pred_ns)
{
    atomic_fetch_add_explicit(&st->launches, 1, memory_order_relaxed);
    if (verdict)
        atomic_fetch_add_explicit(&st->on_gpu, 1, memory_order_relaxed);
    if (pred_ns)
        atomic_fetch_add_explicit(&st->pred_ns, pred_ns, memory_order_relaxed);
}

int keel_decide(keel_site *site, const long long *values)
{
    if (!site)
        return 0;
    last_site = site, last_values = values;     /* for keel_begin */
    /* fast paths: lock-free, allocation-free, no system call */
    site_state *st = __atomic_load_n(&site->state, __ATOMIC_ACQUIRE);
    long long pred_ns = 0;
    int missed = 0;            /* the memo was asked and had no answer */
    if (st && G.verbose < 2 && !G.calibrate) {
        if (st->fixed >= 0) {
            if (G.verbose)
                tally(st, st->fixed, 0);
            return st->fixed;
        }
        if (values || st->nsyms <= 0) {
            int hit = memo_get(st, values, &pred_ns);
            if (hit >= 0) {
                if (G.verbose)
                    tally(st, hit, pred_ns);
                return hit;
            }
            missed = 1;
        }
    }
    /* a signal handler that interrupted this thread inside the runtime */
    if (in_runtime)
        return 0;
    in_runtime = 1;
    int v = decide_slow(site, st, values, &pred_ns, missed);
    if (G.verbose == 1 && (st = __atomic_load_n(&site->state, __ATOMIC_ACQUIRE)))
        tally(st, v, pred_ns);
    in_runtime = 0;
    return v;
}

/* The entry points of report-mode instrumentation (plugin/instrument.c):
 * keel_decide itself, under names of their own so that the instrumented
 * copy can declare them pure and const without those attributes reaching
 * the plain keel_decide calls of offload mode (one IR function per symbol:
 * attributes on one declaration would let the compiler drop every call
 * whose value a host-only build ignores). */
int keel_decide_report(keel_site *site, const long long *values)
{
    return keel_decide(site, values);
}

int keel_decide_report_const(keel_site *site, const long long *values)
{
    return keel_decide(site, values);
}
