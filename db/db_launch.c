/*
 * db_launch.c -- the readers of launches, launch_loops, access_loop_strides,
 * launch_overlap and the statements' cost columns (db_launch.h), for
 * libkeelrt: one call per table per nest, each statement prepared once per
 * connection (db.c's statement cache, keyed by the address of its SQL: a
 * connection that reads several nests parses each SQL text once).  The
 * writer is db_launch_write.c (keelcc's side).
 */
#include "db_launch.h"
#include "db_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The connection's statement for sql (prepared at its first use); the
 * caller resets it with db_done_.  A table an older database lacks fails
 * here, as "launch facts: no such table". */
static int prepare(db *d, const char *sql, sqlite3_stmt **st, char *err, size_t errlen)
{
    char e2[8];
    if (!(*st = db_stmt_(d, sql, e2, sizeof e2)))
        return db_fail_sql_(d, "launch facts", err, errlen);
    return 0;
}

static const char sql_get[] = "SELECT region, omp_target FROM launches WHERE loop_id = ?1";
static const char sql_loops[] =
    "SELECT loop_id, parallel, thread, kernel FROM launch_loops WHERE launch_id = ?1";
static const char sql_strides[] =
    "SELECT s.access_id, s.loop_id, s.dim, s.stride FROM access_loop_strides s"
    " JOIN launch_loops l ON l.loop_id = s.loop_id AND l.launch_id = ?1";
static const char sql_costs[] =
    "SELECT s.id, s.est_cycles, s.est_gpu_insts, s.flops FROM statements s"
    " JOIN launch_loops l ON l.loop_id = s.loop_id AND l.launch_id = ?1"
    " WHERE s.est_cycles IS NOT NULL";
static const char sql_overlap[] =
    "SELECT access_id, base, offset, checkable FROM launch_overlap"
    " WHERE launch_id = ?1 ORDER BY access_id";

int db_launch_get(db *d, int64_t loop_id, int *region, int *omp_target, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (prepare(d, sql_get, &st, err, errlen))
        return -1;
    sqlite3_bind_int64(st, 1, loop_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *region = sqlite3_column_int(st, 0);
        *omp_target = sqlite3_column_int(st, 1);
    }
    int r = rc == SQLITE_ROW ? 0 : rc == SQLITE_DONE ? 1 : db_fail_sql_(d, "launch facts", err,
                                                                          errlen);
    db_done_(st);
    return r;
}

/* Run a read of rows for one launch id; row() turns the current row into a
 * callback's value (0 go on). */
static int each(db *d, const char *sql, int64_t launch_id, int (*row)(sqlite3_stmt *, const void *, void *),
                const void *fn, void *ctx, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (prepare(d, sql, &st, err, errlen))
        return -1;
    sqlite3_bind_int64(st, 1, launch_id);
    int rc, r = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if ((r = row(st, fn, ctx)) != 0)
            break;
    if (r == 0 && rc != SQLITE_DONE) {
        db_fail_sql_(d, "launch facts", err, errlen);
        r = -1;
    }
    db_done_(st);
    return r;
}

static int loop_row(sqlite3_stmt *st, const void *fn, void *ctx)
{
    db_launch_loop r = { sqlite3_column_int64(st, 0), sqlite3_column_int(st, 1),
                         sqlite3_column_int(st, 2), sqlite3_column_int(st, 3) };
    return (*(const db_launch_loop_fn *)fn)(ctx, &r);
}

static int stride_row(sqlite3_stmt *st, const void *fn, void *ctx)
{
    db_launch_stride r = { sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
                           sqlite3_column_int(st, 2), (const char *)sqlite3_column_text(st, 3) };
    return (*(const db_launch_stride_fn *)fn)(ctx, &r);
}

static int cost_row(sqlite3_stmt *st, const void *fn, void *ctx)
{
    db_launch_cost r = { sqlite3_column_int64(st, 0), sqlite3_column_double(st, 1),
                         sqlite3_column_double(st, 2), sqlite3_column_double(st, 3) };
    return (*(const db_launch_cost_fn *)fn)(ctx, &r);
}

/* The callback travels to each() as the address of the caller's pointer. */
int db_launch_each_loop(db *d, int64_t launch_id, db_launch_loop_fn fn, void *ctx,
                        char *err, size_t errlen)
{
    return each(d, sql_loops, launch_id, loop_row, &fn, ctx, err, errlen);
}

int db_launch_each_stride(db *d, int64_t launch_id, db_launch_stride_fn fn, void *ctx,
                          char *err, size_t errlen)
{
    return each(d, sql_strides, launch_id, stride_row, &fn, ctx, err, errlen);
}

int db_launch_each_cost(db *d, int64_t launch_id, db_launch_cost_fn fn, void *ctx,
                        char *err, size_t errlen)
{
    return each(d, sql_costs, launch_id, cost_row, &fn, ctx, err, errlen);
}

static int overlap_row(sqlite3_stmt *st, const void *fn, void *ctx)
{
    db_launch_overlap r = { sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1),
                            (const char *)sqlite3_column_text(st, 2), sqlite3_column_int(st, 3) };
    return (*(const db_launch_overlap_fn *)fn)(ctx, &r);
}

int db_launch_each_overlap(db *d, int64_t launch_id, db_launch_overlap_fn fn, void *ctx,
                           char *err, size_t errlen)
{
    return each(d, sql_overlap, launch_id, overlap_row, &fn, ctx, err, errlen);
}
