/*
 * db_stats.h -- what a database holds, in counts (`keel stats`).
 *
 * One read-only pass of COUNT queries over the tables keelcc, keel scan and
 * libkeelrt write: sources and builds (analysed or failed), functions,
 * loops and nests, dependence verdicts, llvm-mca results and cache,
 * direct-mode entries, keel scan's state, logged decisions, measured
 * history and host calibrations.  A table the database does not have (an
 * older schema; no scan, no history yet) gives -1, not an error.
 */
#ifndef KEEL_DB_STATS_H
#define KEEL_DB_STATS_H

#include "db.h"

enum { DB_VERDICT_PARALLEL, DB_VERDICT_REDUCTION, DB_VERDICT_SEQUENTIAL,
       DB_VERDICT_UNKNOWN, DB_VERDICT_NONE, DB_VERDICTS };

typedef struct {
    long long sources;            /* distinct source paths */
    long long builds;             /* translation_units rows (a path per build variant) */
    long long failed;             /* builds whose analysis failed (status not ok) */
    long long functions, loops, nests;        /* nests: outermost loops */
    long long verdict[DB_VERDICTS];            /* loops per dependence verdict; NONE: no row */
    long long with_idioms;        /* loops carrying at least one idiom */
    long long mca_targets, mca_ok, mca_failed; /* mca_results: CPUs, rows with and without figures */
    long long mca_cache;          /* cached llvm-mca block results */
    long long direct;             /* direct-mode entries (builds a rebuild can reuse) */
    long long scanned, scan_failed;            /* keel scan's files; -1: never scanned */
    long long decisions, decisions_gpu;        /* libkeelrt's decision log */
    long long history_rows, history_samples;   /* -1: no history table */
    long long calibrations;       /* keel calibrate runs stored */
} db_stats;

/* Fill *s from d (open for reading).  0, or -1 with a message. */
int db_stats_read(db *d, db_stats *s, char *err, size_t errlen);

/* Why things failed, most frequent first: kind "build" (a source whose
 * analysis failed: its path and message), "scan" (a file keel scan could
 * not analyse) and "mca" (llvm-mca gave no figures: reason and how many
 * loops, path NULL).  fn returns nonzero to stop.  0, or -1 with a message. */
typedef int (*db_stats_reason_fn)(void *ctx, const char *kind, const char *path,
                                  const char *reason, long long count);
int db_stats_reasons(db *d, db_stats_reason_fn fn, void *ctx, char *err, size_t errlen);

#endif
