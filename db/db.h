/*
 * db.h -- the program attribute database: open, migrate, write, read.
 *
 * One SQLite file holds what keelcc learned about every translation unit it
 * compiled (schema in db/SCHEMA.md).  Writers are keelcc processes, often
 * many at once under `make -j`: the database is in WAL mode with a busy
 * timeout, and each translation unit is written in one IMMEDIATE
 * transaction that first deletes the rows the same source path had before,
 * so recompiling a file replaces its rows and concurrent writers lose
 * nothing.  Readers are the `keel` tool and libkeelrt.
 *
 * db/ knows nothing of the loop IR: the writer takes plain rows whose
 * symbolic expressions are already printed in ipda's text form (expr.h).
 *
 * Errors are values: every function that can fail returns 0 on success or
 * -1 with a one-line message in err (NUL-terminated, at most errlen bytes);
 * messages start with the database path ("keel.db: no such file").  The
 * reader's two extra results are noted at db_each_loop and db_get_loop.
 *
 * A db is one SQLite connection: use it from one thread at a time.  Its
 * prepared statements are cached in it and finalized by db_close.  The
 * llvm-mca tables (db_mca.h) and the runtime's launch facts (db_launch.h)
 * have readers and writers of their own over the same connection, as have
 * the keel tool's jobs: merge (db_merge.h), the reports' reads of the
 * run-time tables (db_report.h), keel stats (db_stats.h) and keel scan's
 * resume table (db_scan.h); the run-time log (decisions, history,
 * calibration) has its own connection (db_log.h).  db_json.h is keel's one
 * JSON helper (no keel database involved).
 *
 * db/ is built as two libraries: keel_db_reader (opening for reading, the
 * readers, the run-time log), which libkeelrt links, and keel_db (the
 * writer below, the migrations, direct mode, the keel tool's jobs and the
 * JSON helper: keelcc and the keel tool), which links the reader.
 */
#ifndef KEEL_DB_DB_H
#define KEEL_DB_DB_H

#include <stddef.h>
#include <stdint.h>

#include "loop_facts.h"

#define DB_SCHEMA_VERSION 18  /* PRAGMA user_version of the current schema */

typedef struct db db;

enum {
    DB_READONLY = 0,   /* open an existing database for reading; never creates */
    DB_WRITE    = 1    /* open or create, migrate to the current schema */
};

/* Open the database at path.  Readonly: fails with a one-line message when
 * the file is missing, is not an SQLite database, is not a keel database, or
 * has another schema version.  Write: creates the file and the schema when
 * needed, migrates an older keel schema, refuses a newer one.  Part of the
 * writer library (keel_db); the reader library (keel_db_reader, linked into
 * libkeelrt) opens with db_open_read, which is db_open(path, DB_READONLY). */
int db_open(const char *path, int mode, db **out, char *err, size_t errlen);
int db_open_read(const char *path, db **out, char *err, size_t errlen);
void db_close(db *d);                      /* NULL is fine; rolls back an open TU */
int db_schema_version(db *d);

/* ---- writer -------------------------------------------------------------- */

typedef struct {
    const char *path;       /* absolute path of the main source file */
    const char *hash;       /* content hash of the source (hex) */
    const char *args;       /* compile arguments, JSON array text */
    const char *compiler;   /* the real compiler that was run, e.g. "clang-19" */
    const char *directory;  /* working directory of the compile */
    const char *status;     /* "ok" or "error" (analysis failed; no loops) */
    const char *message;    /* NULL or why the analysis failed */
    /* The build variant (schema 7): hash of the flags the source was parsed
     * with.  A TU replaces the rows of its path with the same variant or
     * with no variant; NULL replaces every row of the path (the behaviour
     * before variants). */
    const char *variant;
    const char *object;     /* absolute path of the file the compile wrote, or NULL */
} db_tu_row;

/* Variants kept per source path: the oldest beyond this go (db_begin_tu). */
#define DB_VARIANTS_PER_PATH 16

typedef struct {
    const char *name;
    const char *file;       /* file that holds the definition */
    int line, col;
} db_function_row;

typedef struct {
    int64_t parent_id;      /* id of the enclosing loop, 0 for an outermost loop */
    const char *file;
    int line, col;          /* of the `for` / `while` / `do` keyword */
    int end_line;
    int depth;              /* 0 for an outermost loop */
    const char *kind;       /* "for", "while", "do" */
    int canonical;          /* 1: for loop with recognised iv, bounds, constant step */
    const char *iv;         /* induction variable or NULL */
    const char *lower;      /* expressions (text form) or NULL when unknown */
    const char *upper;      /* exclusive bound in the direction of the step */
    int64_t step;           /* 0 when unknown */
    const char *trip;       /* trip count expression or NULL */
    const char *pragmas;    /* JSON array of pragma texts, e.g. ["omp parallel for"] */
    int n_if, n_break, n_continue, n_goto, n_return;
    /* GPU mapping of OpenMP offload (schema v6; analysis/omp_pragmas.h) */
    const char *gpu_map;    /* "grid", "teams", "threads", "collapsed", "seq", NULL */
    int gpu_collapse;       /* loops in the mapped space, on its outer loop (0: none) */
    const char *gpu_teams;  /* num_teams(...) text, NULL: clang's default */
    const char *gpu_threads;/* thread_limit / num_threads(...) text, NULL: default */
    int region_line;        /* first line of the enclosing target / target data, 0 */
} db_loop_row;

typedef struct {
    int line, col;
    const char *text;       /* source text of the statement */
    int conditional;        /* 1 when under an if/?: inside the loop */
    /* operation counts per execution of the statement */
    int fadd, fmul, fdiv, ffma, fmath;   /* float add/sub, mul, div, fma candidates, math calls */
    int iadd, imul, idiv, cmp;           /* integer ops (beyond addressing), comparisons */
    const char *calls;      /* JSON array of other called function names, or NULL */
} db_stmt_row;

typedef struct {
    const char *array;      /* name of the array or pointer */
    int elem_size;          /* bytes, 0 when unknown */
    int is_write;
    int ndims;              /* number of subscripts */
    const char *const *index;    /* ndims expressions, outermost first */
    int nextents;           /* declared dimensions (0 for a plain pointer) */
    const char *const *extent;   /* nextents expressions; NULL entry = unknown */
    int affine;             /* every index affine */
    int line, col;
} db_access_row;

typedef struct {
    const char *name;
    int is_write;
    int line, col;
} db_scalar_row;

/* Begin the transaction for one translation unit and replace its old rows. */
int db_begin_tu(db *d, const db_tu_row *tu, int64_t *tu_id, char *err, size_t errlen);
int db_add_function(db *d, int64_t tu_id, const db_function_row *f, int64_t *id,
                    char *err, size_t errlen);
int db_add_loop(db *d, int64_t function_id, const db_loop_row *l, int64_t *id,
                char *err, size_t errlen);
int db_add_stmt(db *d, int64_t loop_id, const db_stmt_row *s, int64_t *id,
                char *err, size_t errlen);
int db_add_access(db *d, int64_t stmt_id, const db_access_row *a, int64_t *id,
                  char *err, size_t errlen);
int db_add_scalar(db *d, int64_t stmt_id, const db_scalar_row *s,
                  char *err, size_t errlen);
/* Commit, or roll back everything since db_begin_tu (the old rows stay). */
int db_commit_tu(db *d, char *err, size_t errlen);
void db_rollback_tu(db *d);

/* Fill the analysis columns of a loop: the per-loop facts of loop_facts.h
 * (idioms, algorithm class, IPDA verdict, coalescing summary, ...) and
 * llvm-mca's cycles per iteration.  A NULL string, or has_cycles == 0,
 * leaves that column as it is.  Works inside a TU transaction or on its
 * own (then it is one autocommit statement). */
typedef struct {
#define DB_LOOP_FACT_IN_(name, show) const char *name;
    DB_LOOP_FACTS(DB_LOOP_FACT_IN_)
#undef DB_LOOP_FACT_IN_
    int has_cycles;
    double cycles_per_iter;
} db_loop_facts;
int db_set_loop_facts(db *d, int64_t loop_id, const db_loop_facts *f,
                      char *err, size_t errlen);

/* IPDA rows (schema v2): the stride of one access between adjacent threads
 * of its thread loop, and one loop's dependence verdict.  Inside a TU
 * transaction.  Strings are expression texts / class names (SCHEMA.md). */
typedef struct {
    const char *stride;        /* NULL: irregular */
    const char *cls;           /* "uniform", "coalesced", "strided(4)", ... */
    const char *inner_stride;  /* along the innermost enclosing loop, or NULL */
    const char *inner_cls;
    int false_sharing;
} db_stride_row;
int db_add_stride(db *d, int64_t access_id, int64_t thread_loop_id, const db_stride_row *s,
                  char *err, size_t errlen);
int db_add_dependence(db *d, int64_t loop_id, const char *verdict, const char *reason,
                      char *err, size_t errlen);

/* ---- reader -------------------------------------------------------------- */

/* One row of the view loop_summary.  Strings are NULL when unknown; they
 * belong to the reader and are valid only during the callback. */
typedef struct {
    int64_t loop_id;
    const char *file;
    int line, col;
    const char *function;
    int depth;
    int parent_line;            /* line of the enclosing loop, 0 when outermost */
    const char *iv;
    const char *trip;           /* trip count expression text */
    const char *pragmas;        /* JSON array text as written */
    const char *idioms, *algorithm_class, *parallel, *coalescing;
    int has_cycles;             /* cycles_per_iter is not NULL */
    double cycles_per_iter;
    const char *fact[DB_NLOOP_FACTS];   /* the per-loop facts (loop_facts.h), NULL: unknown */
} db_loop_summary;

enum {
    DB_FILE_EXACT  = 0,   /* file == filter */
    DB_FILE_SUFFIX = 1,   /* file == filter, or ends in "/" filter */
    DB_FILE_SUBSTR = 2    /* filter occurs anywhere in file */
};

/* Which loops db_each_loop visits.  NULL / 0 members match everything;
 * a zeroed filter (or a NULL pointer) visits every loop. */
typedef struct {
    const char *file;       /* path to match per file_match */
    int file_match;         /* DB_FILE_* */
    const char *function;   /* exact function name */
    int line, col;          /* exact source position of the loop keyword */
} db_loop_filter;

/* Return 0 to go on, a positive value to stop (-1 is kept for errors). */
typedef int (*db_loop_fn)(void *ctx, const db_loop_summary *row);

/* Call fn for every matching loop in order of file, line, col.  Returns 0
 * after the last row, the callback's value when it stopped early, or -1
 * with a message.  Do not call other db_ functions from the callback.
 * Inside an open TU transaction it sees the uncommitted rows. */
int db_each_loop(db *d, const db_loop_filter *filter, db_loop_fn fn, void *ctx,
                 char *err, size_t errlen);

/* The loop whose keyword is at exactly file (as stored), line and col (0:
 * the first column of the line) through the (file, line) index: the
 * runtime's fast path.  Returns 0 with *id, 1 when there is none, -1 with
 * a message. */
/* The source hash keelcc recorded for the translation unit of a loop
 * (translation_units.hash, "" when none): 0, 1 when there is no such
 * loop, -1 with a message. */
int db_loop_source_hash(db *d, int64_t loop_id, char *out, size_t n, char *err, size_t errlen);
/* Up to max outermost loops of file (as stored) after line:col, in source
 * order: their positions in lines[] and cols[]; the count, or -1 with a
 * message.  The runtime reads these nests while it has the database open
 * for one of them.  hash (NULL: any): only loops of the translation units
 * whose translation_units.hash it is (one build variant). */
int db_next_roots(db *d, const char *file, int line, int col, const char *hash, int max,
                  int *lines, int *cols, char *err, size_t errlen);
int db_find_loop(db *d, const char *file, int line, int col, int64_t *id,
                 char *err, size_t errlen);
/* db_find_loop preferring the loop of the translation unit whose hash is
 * `hash` (a site's "#h=" build hash) when several variants of the source
 * have a loop there; another variant's loop when none has (the caller
 * compares hashes: a stale database). */
int db_find_loop_build(db *d, const char *file, int line, int col, const char *hash,
                       int64_t *id, char *err, size_t errlen);
/* The loop at line:col (col 0: the first on the line) of a translation
 * unit whose hash is `hash` (a site's build hash), in a file named `tail`
 * or ending in "/" tail (a site names its source as the compiler was given
 * it, relative or prefix-mapped; the database stores resolved paths): of
 * several (one source copied to several folders, built alike) the first
 * recorded.  0 with *id, 1 when there is none, -1 with a message. */
int db_find_loop_hash(db *d, const char *tail, int line, int col, const char *hash,
                      int64_t *id, char *err, size_t errlen);

typedef struct {
    char *name;
    int is_write;
    int line, col;
} db_scalar_info;

typedef struct {
    int64_t id;
    char *array;
    int elem_size;
    int is_write;
    int ndims;
    char **index;           /* ndims expression texts, outermost first */
    int nextents;
    char **extent;          /* nextents texts; NULL entry = unknown */
    int affine;
    int line, col;
} db_access_info;

typedef struct {
    int64_t id;
    int line, col;
    char *text;
    int conditional;
    int fadd, fmul, fdiv, ffma, fmath;
    int iadd, imul, idiv, cmp;
    char *calls;            /* JSON array text or NULL */
    int naccesses;
    db_access_info *accesses;   /* in the order they were written */
    int nscalars;
    db_scalar_info *scalars;
} db_stmt_info;

typedef struct {
    int64_t id;
    int line, col;
} db_loop_ref;

/* Everything known about one loop.  One allocation owner: the caller frees
 * the whole tree with db_free_loop; no member may be freed on its own. */
typedef struct {
    int64_t id, tu_id, function_id, parent_id;   /* parent_id 0: outermost */
    char *tu_path;              /* translation unit's main file */
    char *tu_status;            /* "ok" / "error" */
    char *tu_variant, *tu_hash; /* the build (schema 9): its variant and hash, */
    char *tu_object;            /* and the object it was compiled into; NULL when unknown */
    char *function;
    char *function_file;
    int function_line;
    int parent_line, parent_col;    /* 0 when outermost */
    char *file;
    int line, col, end_line, depth;
    char *kind;
    int canonical;
    char *iv, *lower, *upper;   /* NULL when unknown */
    int64_t step;
    char *trip;
    char *pragmas;              /* JSON array text */
    int n_if, n_break, n_continue, n_goto, n_return;
#define DB_LOOP_FACT_OUT_(name, show) char *name;    /* loop_facts.h; NULL: unknown */
    DB_LOOP_FACTS(DB_LOOP_FACT_OUT_)
#undef DB_LOOP_FACT_OUT_
    int has_cycles;
    double cycles_per_iter;
    char *gpu_map, *gpu_teams, *gpu_threads;   /* schema v6, NULL when none */
    int gpu_collapse, region_line;
    int nchildren;
    db_loop_ref *children;      /* directly nested loops, by line, col */
    int nstmts;
    db_stmt_info *stmts;        /* statements directly in this loop, by line, col */
    void *mem_;                 /* private: the arena that holds all of it */
} db_loop_info;

/* Read loop loop_id with its statements, accesses and scalars into a new
 * db_loop_info (*out).  Returns 0, 1 when there is no such loop (*out is
 * NULL), or -1 with a message. */
int db_get_loop(db *d, int64_t loop_id, db_loop_info **out, char *err, size_t errlen);
void db_free_loop(db_loop_info *l);      /* NULL is fine */
/* Per-loop fact k (DB_LOOP_FACT_*) of a loaded loop, NULL when unknown. */
const char *db_loop_fact(const db_loop_info *l, int k);

/* IPDA reader.  db_get_stride: 0 and the row's texts as malloc'd strings in
 * *stride, *cls, *inner_stride, *inner_cls (caller frees; stride texts may
 * be NULL) and the thread loop's line; 1 when the access has no stride row;
 * -1 with a message.  db_get_dependence: 0 with malloc'd *verdict, *reason;
 * 1 when none; -1 on error. */
int db_get_stride(db *d, int64_t access_id, int *thread_line, char **stride, char **cls,
                  char **inner_stride, char **inner_cls, int *false_sharing,
                  char *err, size_t errlen);
int db_get_dependence(db *d, int64_t loop_id, char **verdict, char **reason,
                      char *err, size_t errlen);

/* ---- idioms, algorithm classes, counts (schema v4) ---------------------- */

/* One idiom instance of a loop, with PIR's evidence (statement position and
 * source text, the deciding accesses). */
typedef struct {
    const char *idiom;      /* "stream", "matmul", ... */
    int line, col;          /* of the statement */
    const char *code;       /* source text of the statement */
    const char *evidence;   /* accesses that decided */
    const char *detail;     /* NULL, or e.g. a stencil's "radius=1,1" */
} db_idiom_row;
int db_add_idiom(db *d, int64_t loop_id, const db_idiom_row *r, char *err, size_t errlen);

/* The boat-hull class of a nest and its parameters (expression texts). */
typedef struct {
    const char *class_text;
    const char *w, *m, *d, *c, *u, *f_complexity;
} db_class_row;
int db_set_class(db *d, int64_t loop_id, const db_class_row *r, char *err, size_t errlen);
/* Call fn with the class row of a loop (outermost loops have one, others
 * none); as db_each_counts. */
typedef int (*db_class_fn)(void *ctx, const db_class_row *row);
int db_each_class(db *d, int64_t loop_id, db_class_fn fn, void *ctx, char *err, size_t errlen);

/* Operation counts of a loop (expression texts); scope "iteration" (one
 * iteration of the loop's body, inner loops included) or "total". */
typedef struct {
    const char *scope;
    const char *fadd, *fmul, *fdiv, *ffma, *fmath, *flops;
    const char *iops, *loads, *stores, *bytes_read, *bytes_written, *intensity;
    const char *reason;     /* NULL: summed exactly; else why not */
} db_counts_row;
int db_add_counts(db *d, int64_t loop_id, const db_counts_row *r, char *err, size_t errlen);
/* Call fn with each counts row of a loop ("iteration" first, then
 * "total"); the texts live until fn returns.  0, fn's non-zero return, or
 * -1 with a message. */
typedef int (*db_counts_fn)(void *ctx, const db_counts_row *row);
int db_each_counts(db *d, int64_t loop_id, db_counts_fn fn, void *ctx, char *err, size_t errlen);

/* Bytes one array moves over all iterations of a loop (expression texts). */
typedef struct {
    const char *array, *bytes_read, *bytes_written;
} db_footprint_row;
int db_add_footprint(db *d, int64_t loop_id, const db_footprint_row *r,
                     char *err, size_t errlen);
/* Call fn with each footprint row of a loop, by array name; as
 * db_each_counts. */
typedef int (*db_footprint_fn)(void *ctx, const db_footprint_row *row);
int db_each_footprint(db *d, int64_t loop_id, db_footprint_fn fn, void *ctx, char *err,
                      size_t errlen);

/* One row of `keel report`: an idiom instance with its loop's file and
 * function.  Strings are valid only during the callback. */
typedef struct {
    const char *file;
    int line;               /* of the statement */
    const char *function;
    const char *idiom;
    const char *code;
    const char *evidence;
    int loop_line;          /* line of the loop the instance is attached to */
} db_idiom_info;
typedef int (*db_idiom_fn)(void *ctx, const db_idiom_info *row);
/* Every idiom instance (of files matching `file` per DB_FILE_SUFFIX, NULL:
 * all) ordered by file, line, idiom.  Returns as db_each_loop. */
int db_each_idiom(db *d, const char *file, db_idiom_fn fn, void *ctx,
                  char *err, size_t errlen);

#endif
