/*
 * facts.h -- what the models need about one loop nest, read from the
 * program attribute database once and bound to run-time values per launch.
 *
 * rt_facts_load reads the nest rooted at a loop (file, line, col): the
 * loop model keelcc built and stored for it (analysis/nest.h, packed by
 * nest_pack.h; table nest_packs), decoded straight into the model's types
 * as a linked program's is -- its loops, statements, accesses, launch
 * facts (parallel verdicts, the GPU mapping, per access the
 * iteration-point differences of its linearised address and subscripts
 * along every enclosing loop, statement cost estimates) and llvm-mca's
 * cycles per target CPU, derived fields included.  Only a nest with no
 * model of the current format stored (a database written by an older
 * keelcc, ids `keel merge` moved) is built from its rows (db reader,
 * expressions parsed, nest_derive): a database whose translation unit
 * was written before schema v8 has no launch facts and the load fails
 * with "recompile it with keelcc".  rt_facts_bind evaluates the expressions with the
 * symbol values of one launch and fills an rt_launch for the models.
 * rt_facts_load_packed decodes the packed model itself (what keelcc's
 * link step puts into the program).  The
 * facts object is immutable after loading, so any number of threads may
 * bind it at once.
 */
#ifndef KEEL_RUNTIME_FACTS_H
#define KEEL_RUNTIME_FACTS_H

#include <stddef.h>
#include <stdio.h>

#include "db.h"
#include "model.h"
#include "overlap.h"

typedef struct rt_facts rt_facts;

/* Load the nest whose loop keyword is at file:line:col (col 0: any column;
 * file matches a stored path exactly or as its last components).  Returns
 * 0 with *out, 1 when there is no such loop, -1 with a message. */
int rt_facts_load(db *d, const char *file, int line, int col, rt_facts **out,
                  char *err, size_t errlen);
/* rt_facts_load for a site of one build: of several build variants of the
 * source with a loop at file:line:col, the one whose translation_units.hash
 * is hash (NULL: rt_facts_load); another variant's when none is (the
 * caller compares rt_facts_source_hash: a stale database).  file may name
 * the source as the compiler was given it (relative, "../", prefix-mapped):
 * the hash then picks, of the stored paths ending in its last components,
 * this build's, even when several sources share a name. */
int rt_facts_load_build(db *d, const char *file, int line, int col, const char *hash,
                        rt_facts **out, char *err, size_t errlen);
/* The nest of a packed model (analysis/nest_pack.h): 0 with *out, or -1
 * with one message when the form is truncated, corrupt or of another
 * version (an older keelcc's: "format version 2 ..."). */
int rt_facts_load_packed(const void *bytes, size_t n, rt_facts **out, char *err,
                         size_t errlen);
/* The nest of the site at file:line:col of build hash `hash` in a link
 * table (db_link_table: what keelcc's link step puts into a program):
 * 0 with *out, 1 when the table has no such site, -1 with a message when
 * its packed form is refused. */
int rt_facts_load_linked(const unsigned char *table, const char *file, int line, int col,
                         const char *hash, rt_facts **out, char *err, size_t errlen);
void rt_facts_free(rt_facts *f);     /* NULL is fine */
/* How many expression texts loading f parsed (kx_parse) rather than
 * decoded from a packed form's pool: 0 for a nest keelcc stored packed
 * (schema 18) or linked into the program; the nest's expressions when it
 * was read from rows (a database migrated from an older schema). */
int rt_facts_parsed(const rt_facts *f);
/* The nest launched at loop `root` of d built from its rows, whatever model
 * is stored (the route of older databases; tests compare the two): 0 with
 * *out, -1 with a message. */
int rt_facts_load_rows(db *d, int64_t root, rt_facts **out, char *err, size_t errlen);
/* The loop model f evaluates (analysis/nest.h), f's to keep. */
const struct nest_model *rt_facts_model(const rt_facts *f);

/* Bind names[i] = values[i] and fill *out (of its access table, the first
 * naccesses entries).  Returns 0, or -1 with a message when a needed
 * symbol is missing or a value overflows. */
int rt_facts_bind(const rt_facts *f, int n, const char *const *names,
                  const long long *values, rt_launch *out, char *err, size_t errlen);
/* The same for a chosen host and GPU and host thread count (the traffic
 * model needs their line/sector and cache sizes, the llvm-mca figures the
 * host's CPU).  NULL profiles: the host defaults and h100; threads <= 0:
 * the host profile's cores x smt.  rt_facts_bind is this with NULL, NULL, 0. */
int rt_facts_bind_on(const rt_facts *f, const rt_profile *cpu, const rt_profile *gpu, int threads,
                     int n, const char *const *names, const long long *values, rt_launch *out,
                     char *err, size_t errlen);
/* rt_facts_bind_on for a caller that passes the same names array, holding
 * the same strings, at every call for f's life (a keel_site's symbols):
 * the names are compared with those the per-call plan was compiled for
 * once, not at every call.  The same launch bit for bit. */
int rt_facts_bind_site(const rt_facts *f, const rt_profile *cpu, const rt_profile *gpu,
                       int threads, int n, const char *const *names, const long long *values,
                       rt_launch *out, char *err, size_t errlen);
/* rt_facts_bind_on with `reference` 1: every difference of an access's
 * subscripts is evaluated again wherever the traffic model reads it (the
 * plain evaluation), instead of once per call.  Both give the same launch
 * bit for bit; the tests compare them. */
int rt_facts_bind_mode(const rt_facts *f, const rt_profile *cpu, const rt_profile *gpu,
                       int threads, int n, const char *const *names, const long long *values,
                       int reference, rt_launch *out, char *err, size_t errlen);

/* The traffic model's reuse across a cache of `cap` bytes: bytes a loop
 * moves given its repeated references `rep`, distinct data `fp` and one
 * iteration's working set `wset` -- min(rep, fp) when wset fits, else a
 * share cap / wset of the re-references hits (facts.c cites the form). */
double rt_reuse_bytes(double rep, double fp, double wset, double cap);

/* Whether the launch can ever be evaluated with the symbols a site passes
 * (names[0..n-1]), whatever their values: 0, or -1 with a message when a
 * trip count or lower bound holds something the runtime cannot evaluate
 * (a member `v->length`, a call, a load, `sizeof` left as text) or a
 * symbol the site does not pass.  A site checks this once and caches the
 * outcome, so a failing evaluation is never redone per call.  Failures
 * that depend on the values (overflow, division by zero) are left to
 * rt_facts_bind. */
int rt_facts_check(const rt_facts *f, int n, const char *const *names, char *err, size_t errlen);
/* 1 when the launch loop is parallel, or is a sequential loop around
 * parallel nests decided as one offload region (the GPU can run the nest
 * at all). */
int rt_facts_parallel(const rt_facts *f);
/* Why a nest whose launch loop is not parallel stays on the CPU, as one
 * label everywhere (libkeelrt, keel explain, sweeps, the reports): the
 * loop's verdict as `keel loops` shows it, "reduction", "sequential" or
 * "unknown"; "not parallel" where that verdict says parallel (an OpenMP
 * construct keeps the loop sequential) or a database older than the
 * column holds none.  A static string. */
const char *rt_facts_serial_label(const rt_facts *f);

/* The nest's run-time overlap condition (overlap.h), NULL when its
 * verdict relies on no two bases being apart (or keelcc stored none: a
 * translation unit written before schema v13).  Owned by f. */
const rt_overlap *rt_facts_overlap(const rt_facts *f);

/* The free symbols the nest needs (not its own induction variables),
 * sorted; *names is owned by f.  Returns the count. */
int rt_facts_symbols(const rt_facts *f, const char *const **names);

/* The launch loop's per-loop fact k (DB_LOOP_FACT_*, db/loop_facts.h) as
 * keelcc stored it; NULL when unknown or not stored. */
const char *rt_facts_fact(const rt_facts *f, int k);
const char *rt_facts_file(const rt_facts *f);       /* as stored */
int64_t rt_facts_loop_id(const rt_facts *f);         /* loops.id of the launch loop */
/* translation_units.hash of the launch loop's source, as loaded ("" none) */
const char *rt_facts_source_hash(const rt_facts *f);
int rt_facts_line(const rt_facts *f);
const char *rt_facts_function(const rt_facts *f);
const char *rt_facts_label(const rt_facts *f);      /* "matmul", class, or "" */

/* The static facts one by one, as rt_facts_print shows them (tests compare
 * them with what `keel show` reads).  Loops in preorder (0: the launch
 * loop), accesses and statements in the order loaded.  Text members are
 * malloc'd: free them with rt_facts_view_free. */
typedef struct {
    int64_t id;                 /* loops.id */
    int line, col, depth;       /* depth below the launch loop */
    int parallel;               /* keelcc's offload verdict */
    int thread, kernel;         /* GPU threads take it; a region's kernel root */
    char *trip;                 /* trip count text, NULL: unknown */
} rt_loop_view;
typedef struct {
    int64_t id;                 /* accesses.id */
    int64_t stmt_id;            /* statements.id */
    int is_write;
    int thread_line;            /* line of the thread loop of its path, 0: none */
    char *stride;               /* along that loop, NULL: none / irregular */
    double stmt_flops;          /* its statement's flops per execution */
} rt_access_view;
int rt_facts_nloops(const rt_facts *f);
int rt_facts_naccesses(const rt_facts *f);
/* 0, or -1 when out of range or out of memory. */
int rt_facts_loop_view(const rt_facts *f, int k, rt_loop_view *out);
int rt_facts_access_view(const rt_facts *f, int a, rt_access_view *out);
void rt_facts_view_free(rt_loop_view *l, rt_access_view *a);   /* either may be NULL */

/* Loop k's induction variable (preorder, 0: the launch loop), NULL: none. */
const char *rt_facts_loop_iv(const rt_facts *f, int k);
/* Map a nest that was loaded and not yet bound with other thread loops
 * (thread[k] per loop in preorder, RT_REMAP_ bits): each access's
 * inter-thread stride becomes its linearised difference along the new
 * thread loop of its path, or along the loop marked fastest above it.
 * Several thread loops on one path are one collapsed space (collapse(3)
 * of the launch loop and two thread loops): its items are the product of
 * their trip counts.  For `keel explain`'s best mapping; a time-stepped region is not
 * remapped.  0, or -1 with a message. */
#define RT_REMAP_THREAD  1   /* thread[k]: loop k's iterations go to GPU threads */
#define RT_REMAP_FASTEST 2   /* thread[k]: loop k is the fastest-varying index of a
                              * collapsed space (the innermost after an interchange) */
int rt_facts_remap(rt_facts *f, const unsigned char *thread, char *err, size_t errlen);
/* Scratch arrays of loop k (preorder): arrays the nest touches only inside
 * loop k, at subscripts that move with neither k nor any loop around it
 * (every iteration of k touches the same elements), and whose first access
 * by source line is an unconditional write.  Privatising them per
 * iteration of k (one copy per iteration, or per GPU thread) removes the
 * dependences they carry across k's iterations.  Their names, ", "
 * separated, into buf (cut to len bytes); returns how many. */
int rt_facts_scratch_arrays(const rt_facts *f, int k, char *buf, size_t len);

/* Print the static facts (loops, parallel verdicts, mapping, accesses with
 * their stride expressions) and, when l is not NULL, the bound accesses
 * with their classes; for `keel explain`. */
void rt_facts_print(const rt_facts *f, const rt_launch *l, FILE *out);

#endif
