/*
 * db_report.h -- what the keel tool's reports read of the run-time tables:
 * the decisions libkeelrt logged (table decisions) and the measured
 * history (table history, which exists only once something was measured;
 * a database without it reads as "nothing measured").  `keel report
 * --html` draws them per nest; `keel history` lists the history.
 *
 * Rows go to a callback; their strings belong to the reader and are valid
 * only during the call.  A callback returns 0 to go on, anything else to
 * stop.  Do not call other db_ functions from a callback.
 */
#ifndef KEEL_DB_REPORT_H
#define KEEL_DB_REPORT_H

#include <stdint.h>

#include "db.h"

/* Decisions logged for loop_id (0: for every loop) on device (NULL: any
 * device); 0 when there are none or they cannot be read. */
long long db_report_decision_count(db *d, int64_t loop_id, const char *device);

/* One logged decision (SCHEMA.md, decisions). */
typedef struct {
    const char *bindings, *device;
    int threads;
    double cpu_s, gpu_s, xfer_s;   /* 0 when NULL */
    const char *verdict, *decided_at;
} db_decision_row;
typedef int (*db_decision_fn)(void *ctx, const db_decision_row *row);
/* The newest `limit` decisions of loop_id, newest first.  Returns the rows
 * visited; -1 when they cannot be read. */
int db_report_decisions(db *d, int64_t loop_id, int limit, db_decision_fn fn, void *ctx);

/* One logged decision of a device as a point: its bindings ("n=2000,m=5"),
 * the predicted CPU time and GPU time with transfers (gpu_s + xfer_s; 0
 * when either is NULL). */
typedef int (*db_decision_point_fn)(void *ctx, const char *bindings, double cpu_s,
                                    double gpu_xfer_s);
/* The newest `limit` decisions of loop_id on device, newest first, until
 * fn stops.  0, or -1 when they cannot be read. */
int db_report_decision_points(db *d, int64_t loop_id, const char *device, int limit,
                              db_decision_point_fn fn, void *ctx);

/* The launch sizes of loop_id's logged decisions: each distinct bindings
 * text ("n=2000,m=5") with how many rows carry it, the most frequent first
 * (ties: the newest first), at most `limit` of them, until fn stops.
 * Returns the sizes visited; -1 when they cannot be read. */
typedef int (*db_launch_size_fn)(void *ctx, const char *bindings, long long count);
int db_report_launch_sizes(db *d, int64_t loop_id, int limit, db_launch_size_fn fn, void *ctx);

/* One row of the measured history: per loop, size key and device, the
 * samples, their mean and Welford's m2 (SCHEMA.md, history); file and
 * line of the loop and the other device's samples at the same size key
 * (db_report_history_all only; 0 elsewhere), n the launch's size. */
typedef struct {
    const char *file;
    int line;
    const char *size_key, *device;
    int samples, other_samples;
    double mean_s, m2, n;
} db_history_row;
typedef int (*db_history_fn)(void *ctx, const db_history_row *row);
/* The history of loop_id by size key and device.  0, or 1 when there is
 * no history table (nothing was measured). */
int db_report_history(db *d, int64_t loop_id, db_history_fn fn, void *ctx);
/* 1 when the database has a history table, else 0. */
int db_report_has_history(db *d);
/* The whole history by file, line, size and device, with each loop's
 * file:line and the other device's samples at the same size key.  0, or 1
 * when there is no history table. */
int db_report_history_all(db *d, db_history_fn fn, void *ctx);

/* A translation unit keelcc compiled but could not analyse (status
 * `error`: none of its loops is in the database): its path as stored, its
 * build variant (NULL when it has none) and why. */
typedef int (*db_failed_unit_fn)(void *ctx, const char *path, const char *variant,
                                 const char *message);
/* The units of file (NULL: every file; a stored path, or its last path
 * components) whose analysis failed, by path.  Returns the rows visited;
 * -1 when they cannot be read. */
int db_report_failed_units(db *d, const char *file, db_failed_unit_fn fn, void *ctx);

#endif
