/*
 * db_launch.c -- rows of launches, launch_loops, access_loop_strides,
 * launch_overlap and the statements' cost columns (db_launch.h).
 *
 * The writer prepares its four statements once per translation unit (a
 * deep nest has thousands of rows); readers prepare per call, as db_mca.c
 * does: the runtime reads a nest once per site.
 */
#include "db_launch.h"
#include "db_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int prepare(db *d, const char *sql, sqlite3_stmt **st, char *err, size_t errlen)
{
    if (sqlite3_prepare_v2(db_sqlite_(d), sql, -1, st, NULL) != SQLITE_OK)
        return db_fail_sql_(d, "launch facts", err, errlen);
    return 0;
}

struct db_launch_writer {
    db *d;
    sqlite3_stmt *st[5];      /* launches, launch_loops, access_loop_strides, costs, overlap */
};

static const char *const writer_sql[5] = {
    "INSERT INTO launches(loop_id, region, omp_target) VALUES (?1, ?2, ?3)",
    "INSERT INTO launch_loops(launch_id, loop_id, parallel, thread, kernel)"
    " VALUES (?1, ?2, ?3, ?4, ?5)",
    "INSERT INTO access_loop_strides(access_id, loop_id, dim, stride) VALUES (?1, ?2, ?3, ?4)",
    "UPDATE statements SET est_cycles = ?2, est_gpu_insts = ?3, flops = ?4 WHERE id = ?1",
    "INSERT INTO launch_overlap(launch_id, access_id, base, offset, checkable)"
    " VALUES (?1, ?2, ?3, ?4, ?5)",
};

int db_launch_writer_open(db *d, db_launch_writer **out, char *err, size_t errlen)
{
    db_launch_writer *w = calloc(1, sizeof *w);
    *out = NULL;
    if (!w)
        return snprintf(err, errlen, "%s: out of memory", db_path_(d)), -1;
    w->d = d;
    for (int i = 0; i < 5; i++)
        if (prepare(d, writer_sql[i], &w->st[i], err, errlen)) {
            db_launch_writer_close(w);
            return -1;
        }
    *out = w;
    return 0;
}

void db_launch_writer_close(db_launch_writer *w)
{
    if (!w)
        return;
    for (int i = 0; i < 5; i++)
        sqlite3_finalize(w->st[i]);
    free(w);
}

/* Step one of the writer's statements and reset it for the next row. */
static int step(db_launch_writer *w, sqlite3_stmt *st, char *err, size_t errlen)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE ? 0 : db_fail_sql_(w->d, "launch facts", err, errlen);
}

int db_launch_add(db_launch_writer *w, int64_t loop_id, int region, int omp_target,
                  char *err, size_t errlen)
{
    sqlite3_stmt *st = w->st[0];
    sqlite3_bind_int64(st, 1, loop_id);
    sqlite3_bind_int(st, 2, region);
    sqlite3_bind_int(st, 3, omp_target);
    return step(w, st, err, errlen);
}

int db_launch_add_loop(db_launch_writer *w, int64_t launch_id, int64_t loop_id, int parallel,
                       int thread, int kernel, char *err, size_t errlen)
{
    sqlite3_stmt *st = w->st[1];
    sqlite3_bind_int64(st, 1, launch_id);
    sqlite3_bind_int64(st, 2, loop_id);
    sqlite3_bind_int(st, 3, parallel);
    sqlite3_bind_int(st, 4, thread);
    sqlite3_bind_int(st, 5, kernel);
    return step(w, st, err, errlen);
}

int db_launch_add_stride(db_launch_writer *w, int64_t access_id, int64_t loop_id, int dim,
                         const char *stride, char *err, size_t errlen)
{
    sqlite3_stmt *st = w->st[2];
    sqlite3_bind_int64(st, 1, access_id);
    sqlite3_bind_int64(st, 2, loop_id);
    sqlite3_bind_int(st, 3, dim);
    db_bind_text_(st, 4, stride);
    return step(w, st, err, errlen);
}

int db_launch_set_stmt_cost(db_launch_writer *w, int64_t stmt_id, double cycles,
                            double gpu_insts, double flops, char *err, size_t errlen)
{
    sqlite3_stmt *st = w->st[3];
    sqlite3_bind_int64(st, 1, stmt_id);
    sqlite3_bind_double(st, 2, cycles);
    sqlite3_bind_double(st, 3, gpu_insts);
    sqlite3_bind_double(st, 4, flops);
    return step(w, st, err, errlen);
}

int db_launch_add_overlap(db_launch_writer *w, int64_t launch_id, int64_t access_id,
                          const char *base, const char *offset, int checkable, char *err,
                          size_t errlen)
{
    sqlite3_stmt *st = w->st[4];
    sqlite3_bind_int64(st, 1, launch_id);
    sqlite3_bind_int64(st, 2, access_id);
    db_bind_text_(st, 3, base);
    db_bind_text_(st, 4, offset);
    sqlite3_bind_int(st, 5, checkable);
    return step(w, st, err, errlen);
}

int db_launch_get(db *d, int64_t loop_id, int *region, int *omp_target, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (prepare(d, "SELECT region, omp_target FROM launches WHERE loop_id = ?1", &st, err, errlen))
        return -1;
    sqlite3_bind_int64(st, 1, loop_id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *region = sqlite3_column_int(st, 0);
        *omp_target = sqlite3_column_int(st, 1);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return 0;
    return rc == SQLITE_DONE ? 1 : db_fail_sql_(d, "launch facts", err, errlen);
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
    sqlite3_finalize(st);
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
    return each(d, "SELECT loop_id, parallel, thread, kernel FROM launch_loops"
                   " WHERE launch_id = ?1", launch_id, loop_row, &fn, ctx, err, errlen);
}

int db_launch_each_stride(db *d, int64_t launch_id, db_launch_stride_fn fn, void *ctx,
                          char *err, size_t errlen)
{
    return each(d, "SELECT s.access_id, s.loop_id, s.dim, s.stride FROM access_loop_strides s"
                   " JOIN launch_loops l ON l.loop_id = s.loop_id AND l.launch_id = ?1",
                launch_id, stride_row, &fn, ctx, err, errlen);
}

int db_launch_each_cost(db *d, int64_t launch_id, db_launch_cost_fn fn, void *ctx,
                        char *err, size_t errlen)
{
    return each(d, "SELECT s.id, s.est_cycles, s.est_gpu_insts, s.flops FROM statements s"
                   " JOIN launch_loops l ON l.loop_id = s.loop_id AND l.launch_id = ?1"
                   " WHERE s.est_cycles IS NOT NULL",
                launch_id, cost_row, &fn, ctx, err, errlen);
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
    return each(d, "SELECT access_id, base, offset, checkable FROM launch_overlap"
                   " WHERE launch_id = ?1 ORDER BY access_id", launch_id, overlap_row, &fn, ctx,
                err, errlen);
}
