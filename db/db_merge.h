/*
 * db_merge.h -- merge keel databases: the engine of `keel merge OUT.db
 * IN.db...` (db_merge.c says what wins and what is appended).
 *
 * OUT is a db open for writing (db_open DB_WRITE: it has keel's current
 * schema); each input a path to a keel database of the same schema version
 * (check it with db_open DB_READONLY first).  The merger reads OUT's
 * schema once and merges the inputs one at a time, each in its own
 * transaction: a failed input leaves OUT as it was.  Nothing read from an
 * input is executed as SQL.  The merger belongs to the caller (free it with
 * db_merge_end before closing OUT); errors are values: 0 or -1 with a
 * one-line message.
 */
#ifndef KEEL_DB_MERGE_H
#define KEEL_DB_MERGE_H

#include <stddef.h>

#include "db.h"

typedef struct db_merger db_merger;

/* Read OUT's tables and foreign keys into a new merger, *m (the caller's:
 * free it with db_merge_end before closing OUT, which it borrows).  -1
 * with the reason (without OUT's path: the caller adds it), *m NULL. */
int db_merge_begin(db *out, db_merger **m, char *err, size_t errlen);

typedef struct {
    int taken;                  /* input TUs that replaced or joined OUT's */
    int kept;                   /* input TUs not newer than OUT's: kept out */
    long long decisions;        /* decisions added to OUT */
    long long history_samples;  /* measured samples added to OUT's history */
} db_merge_stats;
/* The shift one input's ids get in OUT, per table (statements and
 * accesses by their own). */
typedef struct {
    long long loops, statements, accesses;
} db_merge_shift;
/* A stored model (table nest_packs) names its nest's loops, statements and
 * accesses by id, inside bytes db/ does not read: a merge that shifts
 * those ids asks fn to write the model again for the shifted ids.  fn
 * returns 0 with *out, *outn (malloc'd; the merger frees it), or -1: the
 * model is dropped and readers take the nest's rows.  Without fn (the
 * default) every copied model is dropped: a model naming ids it no longer
 * has is never kept. */
typedef int (*db_merge_model_fn)(void *ctx, const void *bytes, size_t n,
                                 const db_merge_shift *shift, void **out, size_t *outn);
void db_merge_set_model_fn(db_merger *m, db_merge_model_fn fn, void *ctx);

/* Merge the database at path `in` into OUT (in is only read; nothing of
 * it is kept after the call), its counts in *st.  -1 with "IN: reason". */
int db_merge_input(db_merger *m, const char *in, db_merge_stats *st, char *err, size_t errlen);
/* OUT's translation units and loops now. */
void db_merge_totals(db_merger *m, long long *sources, long long *loops);
void db_merge_end(db_merger *m);            /* NULL is fine */

#endif
