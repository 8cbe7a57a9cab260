/*
 * db_launch.h -- launch facts (schema v8, db/SCHEMA.md "Launch facts"):
 * what libkeelrt's models read about a nest launched at a loop, as keelcc
 * stored it (analysis/launch.h): per launch root the GPU mapping of its
 * nest, per access the iteration-point differences along every enclosing
 * loop, per statement the static cost estimates.
 *
 * Writers use a db_launch_writer inside the translation unit's transaction
 * (db_begin_tu .. db_commit_tu).  Readers: one call per table per nest.
 * Errors as in db.h.
 */
#ifndef KEEL_DB_LAUNCH_H
#define KEEL_DB_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

/* ---- writer -------------------------------------------------------------- */

/* Inside the TU's transaction: open a writer (its statements prepared
 * once), add rows, close it before the commit. */
typedef struct db_launch_writer db_launch_writer;
int db_launch_writer_open(db *d, db_launch_writer **w, char *err, size_t errlen);
void db_launch_writer_close(db_launch_writer *w);     /* NULL is fine */
int db_launch_add(db_launch_writer *w, int64_t loop_id, int region, int omp_target,
                  char *err, size_t errlen);
int db_launch_add_loop(db_launch_writer *w, int64_t launch_id, int64_t loop_id, int parallel,
                       int thread, int kernel, char *err, size_t errlen);
/* dim -1: the linearised address; stride NULL: unknown. */
int db_launch_add_stride(db_launch_writer *w, int64_t access_id, int64_t loop_id, int dim,
                         const char *stride, char *err, size_t errlen);
int db_launch_set_stmt_cost(db_launch_writer *w, int64_t stmt_id, double cycles,
                            double gpu_insts, double flops, char *err, size_t errlen);
/* One entry of the launch's run-time overlap condition (schema v13,
 * launch_overlap): the access, its base's name, its element offset from
 * the base (NULL: unbounded) and whether the call passes the base. */
int db_launch_add_overlap(db_launch_writer *w, int64_t launch_id, int64_t access_id,
                          const char *base, const char *offset, int checkable, char *err,
                          size_t errlen);

/* ---- reader -------------------------------------------------------------- */

typedef struct {
    int64_t loop_id;
    int parallel, thread, kernel;
} db_launch_loop;

typedef struct {
    int64_t access_id, loop_id;
    int dim;
    const char *stride;          /* NULL: unknown; valid during the callback */
} db_launch_stride;

typedef struct {
    int64_t stmt_id;
    double cycles, gpu_insts, flops;
} db_launch_cost;

typedef struct {
    int64_t access_id;
    const char *base;            /* valid during the callback */
    const char *offset;          /* NULL: unbounded */
    int checkable;
} db_launch_overlap;

/* The launch row of loop_id: 0 with *region and *omp_target, 1 when keelcc
 * stored none (the TU was written by a keelcc older than schema v8), -1. */
int db_launch_get(db *d, int64_t loop_id, int *region, int *omp_target, char *err, size_t errlen);

/* Every loop of the nest launched at launch_id, every stride of its
 * accesses along its loops, every statement cost of its statements.
 * Return 0, the callback's positive value, or -1. */
typedef int (*db_launch_loop_fn)(void *ctx, const db_launch_loop *r);
typedef int (*db_launch_stride_fn)(void *ctx, const db_launch_stride *r);
typedef int (*db_launch_cost_fn)(void *ctx, const db_launch_cost *r);
int db_launch_each_loop(db *d, int64_t launch_id, db_launch_loop_fn fn, void *ctx,
                        char *err, size_t errlen);
int db_launch_each_stride(db *d, int64_t launch_id, db_launch_stride_fn fn, void *ctx,
                          char *err, size_t errlen);
int db_launch_each_cost(db *d, int64_t launch_id, db_launch_cost_fn fn, void *ctx,
                        char *err, size_t errlen);
/* The overlap condition of the nest launched at launch_id, by access id
 * (none: no condition, or a TU written before schema v13). */
typedef int (*db_launch_overlap_fn)(void *ctx, const db_launch_overlap *r);
int db_launch_each_overlap(db *d, int64_t launch_id, db_launch_overlap_fn fn, void *ctx,
                           char *err, size_t errlen);

#endif
