/*
 * db_mca.h -- llvm-mca results per (loop, target CPU) and the llvm-mca cache
 * (tables mca_results and mca_cache, db/SCHEMA.md).
 *
 * Writers call these inside the translation unit's transaction
 * (db_begin_tu .. db_commit_tu), so the rows are replaced with the TU's.
 * The cache is read before that transaction replaces the old rows; a
 * writer re-inserts every entry it used under the new TU, so a rebuild of
 * unchanged code finds all its blocks.  Errors as in db.h.
 */
#ifndef KEEL_DB_MCA_H
#define KEEL_DB_MCA_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

/* What one llvm-mca run said about one block (or why it failed). */
typedef struct {
    int ok;                      /* 1: figures valid; 0: reason */
    char reason[256];            /* "" when ok */
    double cycles_per_iter, block_rthroughput, ipc, uops_per_iter;
    char top_resource[64];       /* "" when none */
    double top_resource_cycles;
} db_mca_figs;

/* Look `key` up in the cache.  Returns 1 and fills *f, 0 when absent, -1
 * with a message. */
int db_mca_cache_get(db *d, const char *key, db_mca_figs *f, char *err, size_t errlen);
int db_mca_cache_put(db *d, int64_t tu_id, const char *key, const char *target,
                     const char *mca_version, const db_mca_figs *f, char *err, size_t errlen);

typedef struct {
    const char *target;          /* CPU name given to llvm-mca -mcpu */
    const char *triple;          /* -mtriple, NULL: the compile's own target */
    int ok;                      /* 1 figures, 0 reason */
    const char *reason;
    const char *asm_label;       /* header label of the primary assembly copy */
    int asm_copies, asm_innermost, vector;
    db_mca_figs figs;            /* of the primary copy's block */
    int vf, ic, unroll, src_iters_per_asm_iter;
    int has_cycles_per_src_iter;
    double cycles_per_src_iter;
    const char *whole_iter_millicycles;  /* expression text or NULL */
} db_mca_row;

int db_mca_add_result(db *d, int64_t loop_id, const db_mca_row *r, char *err, size_t errlen);

/* Every result of one loop, by target name; rows valid during the call.
 * Returns 0, the callback's positive value, or -1. */
typedef int (*db_mca_fn)(void *ctx, const db_mca_row *r);
int db_mca_each(db *d, int64_t loop_id, db_mca_fn fn, void *ctx, char *err, size_t errlen);

#endif
