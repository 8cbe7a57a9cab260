/*
 * keelrt.h -- libkeelrt's public interface: the CPU/GPU verdict at launch.
 *
 * keelcc's instrumentation calls keel_decide just before a loop nest runs,
 * with the nest's key (the database, file, line and column of its `for`)
 * and the run-time values of the symbols the
 * models need (loop bounds, array extents, stride symbols).  The runtime
 * opens the program attribute database once (lazily, thread-safe), reads
 * and pre-parses the nest's facts once per site, evaluates the CPU, GPU
 * and transfer models with the values and returns where the nest should
 * run.  It never aborts, never exits and never blocks the host for long:
 * anything wrong (missing, corrupt or old-schema database, unknown loop,
 * a value that overflows) is one warning on stderr per cause and the
 * verdict CPU.
 *
 * Environment, read once at the first call:
 *   KEEL_DB=path            database (overrides site->db)
 *   KEEL_PREFIX_MAP=NEW=OLD names of a build with -ffile-prefix-map=OLD=NEW
 *                           (site->db, site->file) turned back
 *   KEEL_VERBOSE=1          warnings, and at exit one line per site on stderr
 *                           (launches, how many on CPU / GPU, predicted time)
 *   KEEL_VERBOSE=2          warnings and one line per launch on stderr
 *   KEEL_FORCE=cpu|gpu      force the verdict
 *   OMP_TARGET_OFFLOAD=DISABLED|MANDATORY   as OpenMP: CPU | GPU
 *   KEEL_DEVICE=name        what-if verdict against a device profile
 *                           (see `keel devices`) when no GPU is present
 *   OMP_NUM_THREADS=n       host threads of the CPU model (else the cores)
 *   KEEL_LOG=0              do not append decisions (nor launch times) to the database
 *   KEEL_CALIBRATE=1        alternate devices until a size has 10 timed launches
 *                           on each (keel_begin / keel_done, StarPU)
 */
#ifndef KEEL_RUNTIME_KEELRT_H
#define KEEL_RUNTIME_KEELRT_H

#ifdef __cplusplus
extern "C" {
#endif

/* One launch site.  Static storage in the instrumented program; `state`
 * starts NULL and belongs to the runtime (its per-site cache).
 *
 * keelcc's sites use a packed form of the same struct, so that they hold
 * no pointer a position-independent program must relocate when it starts
 * (each pointer in static data is one relative relocation and dirties its
 * page): nsyms is -1 - n for n names, syms is NULL, and the file, the n
 * names and the database ("" when `db` gives it) follow one another as
 * NUL-terminated strings -- at `file` where it is not NULL, else in the
 * bytes right after the struct (sizeof (keel_site) from its start).  A site
 * compiled with an absolute database has all of it after the struct and no
 * pointer at all; one that names the linked program's database
 * (keel_link_db) has two, db and file.  A site written by hand uses the
 * plain form (nsyms >= 0). */
typedef struct keel_site {
    const char *db;               /* database: the absolute path given at compile
                                   * time, else the one keelcc's link step wrote
                                   * into the program or library (keel_link_db),
                                   * NULL when linked otherwise (KEEL_DB needed) */
    const char *file;             /* source file of the loop as the compiler was
                                   * given it (or its stored path), then "#h=" and
                                   * the build hash that picks its database rows */
    int line, col;                /* position of the loop's `for` keyword */
    int nsyms;                    /* the number of names, or -1 - n (packed) */
    const char *const *syms;      /* names of the symbols in values[] (packed: NULL) */
    void *state;                  /* runtime cache, set once by compare-and-swap */
} keel_site;

/* 0 = run on the CPU, 1 = run on the GPU.  values[i] is the value of
 * syms[i].  Thread-safe; never fails (a problem means 0). */
int keel_decide(keel_site *site, const long long *values);

/* keel_decide under the names report-mode instrumentation declares pure
 * and const (the decision has no effect the program can see). */
int keel_decide_report(keel_site *site, const long long *values);
int keel_decide_report_const(keel_site *site, const long long *values);

/* Record that the launch with these values took `seconds` on the CPU
 * (device 0) or on the GPU, transfers included (device 1): the history
 * `keel history` shows and keel_decide trusts once a size has 10 samples
 * per device (StarPU).  Never fails visibly; needs KEEL_LOG not 0. */
void keel_record(keel_site *site, const long long *values, int device, double seconds);

/* Timing of a launch for the history, called by offload-mode
 * instrumentation right after keel_decide and right after the nest:
 *     int v = keel_decide(&site, values);  long long t = keel_begin(&site, v);
 *     ... the nest ...
 *     keel_done(&site, t);
 * keel_begin takes the values of this thread's last keel_decide at the
 * site and the verdict; the device recorded is the GPU only when the
 * region could offload (libomptarget loaded, a CUDA GPU, OMP_TARGET_OFFLOAD
 * not DISABLED).  Times are kept in memory and written to the database's
 * history at exit (KEEL_LOG=0: not recorded).  KEEL_CALIBRATE=1 makes
 * keel_decide alternate devices for a size until both have 10 samples
 * (StarPU).  Token 0 means "not timed"; both never fail visibly. */
long long keel_begin(keel_site *site, int device);
void keel_done(keel_site *site, long long token);

#ifdef __cplusplus
}
#endif

#endif
