/*
 * mcarun.h -- keelcc's llvm-mca stage: compile a source to assembly per
 * target CPU, run llvm-mca on its loops (in parallel, through the cache in
 * the attribute database), and hand back per (loop, target) figures or
 * reasons, ready for db_mca_add_result.
 *
 * Targets: a list of CPU names as llvm-mca's -mcpu takes them, each
 * optionally `CPU@TRIPLE`.  CPUs of another architecture than the compile's
 * (pwr*, power* -> powerpc64le-linux-gnu; neoverse-*, cortex-*, apple-*,
 * a64fx, ampere*, thunderx* -> aarch64-linux-gnu) are compiled for that
 * triple with -mcpu; the others analyse the code the user's own compile
 * produces (same flags, same target), one assembly for all of them.
 *
 * Failure is a value: every loop gets figures or a reason; warnings go
 * through the caller's function, one line per kind of failure.
 */
#ifndef KEEL_PLUGIN_MCARUN_H
#define KEEL_PLUGIN_MCARUN_H

#include <stdint.h>

#include "db.h"
#include "db_mca.h"
#include "ir.h"
#include "mca.h"

typedef struct {
    char *cpu;          /* -mcpu */
    char *triple;       /* NULL: the compile's own target */
    int vscale;         /* SVE vector length / 128 bits, 1 elsewhere */
    char *skip;         /* why it cannot run (no backend), NULL */
} mcr_target;

/* Instruction lines per llvm-mca process before a target's blocks are
 * split over several (measured on a 2-core VM with llvm-mca 19: about
 * 0.12 ms of simulation per line, 13 ms of start-up per process, so a
 * chunk of 1,000 lines pays about 10% more CPU for its own process). */
#define MCR_BATCH_LINES 1000

typedef struct {
    char *mca;          /* llvm-mca program */
    char *error;        /* NULL, or why llvm-mca cannot run at all */
    char version[64];   /* "19.1.7" */
    char host_cpu[64];
    int ntargets;
    mcr_target *t;
    int host_target;    /* index of the first own-target CPU, -1 none */
    int jobs;           /* llvm-mca processes at once */
    int batch_lines;    /* a target's blocks go to one llvm-mca process per
                         * this many instruction lines, at most `jobs` */
} mcr_config;

/* The assembly compile records the remarks of the two passes whose
 * remarks the mapping reads (analysis/mca.c: loop-vectorize's
 * "Vectorized", loop-unroll's unroll remarks) and no others: the same
 * assembly, a remarks file about a tenth the size (7.7 MB -> 0.55 MB on a
 * generated 5,000-line source) to write and to read. */
#define MCR_REMARK_PASSES "-foptimization-record-passes=^loop-(vectorize|unroll)$"

typedef void (*mcr_warn_fn)(void *ctx, const char *line);

/* Ask llvm-mca (`mca --version`) for its version, host CPU and backends and
 * set up the targets of `list` (comma-separated; NULL or "": the host CPU).
 * Never fails: a missing llvm-mca is cfg->error.  Free with mcr_config_free. */
/* Read the figures of code region `region` (0: the first) of llvm-mca's
 * --json output, through db/'s one JSON helper (db_json_mca_region:
 * SQLite's JSON functions on an in-memory database).  0, or -1 with a
 * message when the text is not such output. */
int mcr_parse_json(const char *json, int region, mca_figures *out, char *err, size_t errlen);
/* The same for regions 0..nregions-1 at once, into out[0..nregions-1]
 * (the output is split into its regions once, so each is parsed once):
 * 0, or -1 with the first failure's message. */
int mcr_parse_json_all(const char *json, int nregions, mca_figures *out, char *err,
                       size_t errlen);

void mcr_config_init(mcr_config *cfg, const char *list, const char *mca);
void mcr_config_free(mcr_config *cfg);

typedef struct {
    db_mca_row row;     /* strings point into the owning mcr_result */
} mcr_loop;

typedef struct {
    int ntargets, nloops;
    mcr_loop *r;        /* [t * nloops + l] */
    int has_host_cycles;   /* per loop: cycles for loops.cycles_per_iter */
    double *host_cycles;   /* nloops; NaN when none */
    int ncache;
    char **cache_key;   /* entries used (hits and runs), to write back */
    int *cache_target;
    db_mca_figs *cache_figs;
    int mca_runs;       /* llvm-mca processes started */
    char **strings;     /* owned strings */
    int nstrings;
} mcr_result;

/* Run the stage for one source.  cc: the compiler command (cc[0] the
 * compiler, then the user's arguments, NULL-terminated); cache: a database
 * to look results up in, or NULL.  Returns a result (NULL only when out of
 * memory). */
mcr_result *mcr_run_tu(const mcr_config *cfg, const ir_tu *tu, int ncc, char *const *cc,
                       const char *source, db *cache, mcr_warn_fn warn, void *wctx);
/* The same for n sources at once (tus[i] NULL: skipped, out[i] NULL):
 * their assembly compiles run together and their llvm-mca blocks share one
 * process per target.  out[i] NULL also when out of memory. */
void mcr_run_tus(const mcr_config *cfg, int n, const ir_tu *const *tus, int ncc, char *const *cc,
                 const char *const *sources, db *cache, mcr_warn_fn warn, void *const *wctx,
                 mcr_result **out);
void mcr_result_free(mcr_result *r);

/* The assembly compiles of sources whose IR is not known yet, started
 * early so that they run beside the parse (want[i]: start source i's).
 * Hand the handle to mcr_run_tus_early, which takes over the compiles of
 * the sources it runs and stops the others (a source that turns out to
 * have no site), then free it with mcr_early_free (which stops any left).
 * NULL when nothing was started (llvm-mca cannot run, out of memory). */
typedef struct mcr_early mcr_early;
mcr_early *mcr_early_start(const mcr_config *cfg, int n, const int *want, int ncc,
                           char *const *cc, const char *const *sources, mcr_warn_fn warn,
                           void *const *wctx);
void mcr_run_tus_early(const mcr_config *cfg, int n, const ir_tu *const *tus, int ncc,
                       char *const *cc, const char *const *sources, db *cache, mcr_warn_fn warn,
                       void *const *wctx, mcr_result **out, mcr_early *early);
void mcr_early_free(mcr_early *e);

/* The stage with the own target's assembly given (asm_text[i], yaml[i]:
 * source i's assembly and remarks, as mcr_object_asm makes it of the
 * user's own object) in place of its assembly compile; cross targets are
 * compiled as in mcr_run_tus. */
void mcr_run_tus_given(const mcr_config *cfg, int n, const ir_tu *const *tus, int ncc,
                       char *const *cc, const char *const *sources, db *cache, mcr_warn_fn warn,
                       void *const *wctx, mcr_result **out, const char *const *asm_text,
                       const char *const *yaml);

/* The assembly text of the user's object (built with debug line tables):
 * `llvm-objdump -d -r` (the one beside cfg->mca) and plugin/mcaobj.c.
 * 0 with *asm_text (malloc'd), or -1 with why. */
int mcr_object_asm(const mcr_config *cfg, const char *object, char **asm_text, char *err,
                   size_t errlen);

/* Write r's rows for the TU being written (tu_id, loop ids by IR index):
 * mca_results, the cache entries, loops.cycles_per_iter. */
int mcr_store(const mcr_config *cfg, const mcr_result *r, db *d, int64_t tu_id,
              const int64_t *loop_ids, char *err, size_t errlen);

#endif
