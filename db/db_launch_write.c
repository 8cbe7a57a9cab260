/*
 * db_launch_write.c -- keelcc's writer of launches, launch_loops,
 * access_loop_strides, launch_overlap and the statements' cost columns
 * (db_launch.h); part of the writer library.  It prepares its five statements once per
 * translation unit (a deep nest has thousands of rows).
 */
#include "db_launch.h"
#include "db_private.h"
#include "util.h"

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
        return ku_fail(err, errlen, "%s: out of memory", db_path_(d));
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

/* Run one of the writer's inserts (db_run_: a text that could not be
 * bound fails it instead of storing NULL). */
static int step(db_launch_writer *w, sqlite3_stmt *st, char *err, size_t errlen)
{
    return db_run_(w->d, st, "launch facts", err, errlen);
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
