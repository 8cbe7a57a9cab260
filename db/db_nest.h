/*
 * db_nest.h -- one launch nest as it travels: its rows as one source, the
 * stored loop model, and the link table that carries models in a program.
 *
 * A db_nest is a row source over an open database (db_nest_from_db): each
 * loop of the nest with its statements and accesses (db_get_loop's
 * db_loop_info), its llvm-mca figures (db_mca_row), the launch row and the
 * launch facts (db_launch.h).  The runtime builds a nest from its rows
 * only where no model of the current format is stored for it (a database
 * an older keelcc wrote, a damaged blob; keel merge writes every copied
 * model again for the ids it moves).
 *
 * The stored model is the one keelcc built from its IR and packed
 * (analysis/nest_pack.h): db/ stores it per launch site (table nest_packs,
 * schema 18), reads it back and puts it into link tables as opaque bytes,
 * reading only its header's magic, version and launch loop id.
 *
 * The reader calls mirror db_get_loop, db_mca_each and db_launch_* (same
 * return values).  A loop from db_nest_loop is released with
 * db_nest_loop_free.  Ownership: a db_nest borrows the db, which must
 * outlive it.
 */
#ifndef KEEL_DB_NEST_H
#define KEEL_DB_NEST_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "db_launch.h"
#include "db_mca.h"

#define DB_NEST_MAGIC "KEELNEST"

typedef struct db_nest db_nest;

int db_nest_from_db(db *d, db_nest **out, char *err, size_t errlen);
void db_nest_close(db_nest *s);           /* NULL is fine */

int db_nest_loop(db_nest *s, int64_t loop_id, db_loop_info **out, char *err, size_t errlen);
void db_nest_loop_free(db_nest *s, db_loop_info *l);
int db_nest_mca_each(db_nest *s, int64_t loop_id, db_mca_fn fn, void *ctx, char *err,
                     size_t errlen);
int db_nest_launch_get(db_nest *s, int64_t loop_id, int *region, int *omp_target, char *err,
                       size_t errlen);
int db_nest_launch_each_loop(db_nest *s, int64_t launch_id, db_launch_loop_fn fn, void *ctx,
                             char *err, size_t errlen);
int db_nest_launch_each_stride(db_nest *s, int64_t launch_id, db_launch_stride_fn fn,
                               void *ctx, char *err, size_t errlen);
int db_nest_launch_each_cost(db_nest *s, int64_t launch_id, db_launch_cost_fn fn, void *ctx,
                             char *err, size_t errlen);
int db_nest_launch_each_overlap(db_nest *s, int64_t launch_id, db_launch_overlap_fn fn,
                                void *ctx, char *err, size_t errlen);

/* ---- the stored loop model (schema 18, table nest_packs) -----------------
 * keelcc stores each launch site's loop model as bytes (analysis/
 * nest_pack.h: format DB_NEST_MODEL_VERSION) beside its rows; readers load
 * one blob instead of rebuilding the nest from its rows.  db/ does not
 * read the bytes, save their header: "KEELNEST", u32 version at offset 8,
 * and the launch loop's id, u64 at offset 24 (little-endian).
 *
 * db_nest_put: store bytes[0..n) as the model of the nest launched at
 * `root`, replacing any; inside the translation unit's transaction.  0, -1
 * with a message.  Writer side.
 *
 * db_nest_current: 1 when bytes[0..n) carry the header of the current
 * model format (what the link step copies), else 0.
 *
 * db_nest_stored: the stored bytes of `root`: 0 with a new malloc'd *out
 * of *n bytes (the caller frees and checks them); 1 when there is none to
 * use -- no row (a translation unit written before version 18), or one
 * whose launch loop is not `root` (a model that names another): read
 * the rows then; -1 with a message.  Reader side. */
#define DB_NEST_MODEL_VERSION 3
int db_nest_put(db *d, int64_t root, const void *bytes, size_t n, char *err, size_t errlen);
int db_nest_current(const void *bytes, size_t n);
int db_nest_stored(db *d, int64_t root, unsigned char **out, size_t *n, char *err,
                   size_t errlen);

/* ---- the link table -------------------------------------------------------
 * keelcc's link step puts the stored models of every launch site a program
 * holds into one table: DB_LINK_MAGIC, u32 version, u32 length of the
 * whole, u32 entries, then the directory -- per entry (DB_LINK_ENTRY
 * bytes) i32 line, i32 col, the 16 hex digits of the build hash, u32
 * offset of the stored file's name (NUL-terminated), u32 offset and u32
 * length of the packed nest, u32 0 -- sorted by line, col and hash, then
 * the names and nests; little-endian, offsets from the table's start.  A
 * lookup is a binary search; nothing is decoded but the site's nest.
 *
 * db_link_table: the table for the launch sites (loops whose `site` fact
 * is "call" or "clause") of the translation units whose object or build
 * hash is one of objects[] (absolute paths; or 16 hex digits, or "#" and
 * a translation unit's id: a source compiled into several programs keeps
 * one row, whose object is the last program's), each once, in a new
 * malloc'd *out of *n bytes; 0 (with *n 0 when there is nothing to link),
 * -1 with a message.  A site's stored model (db_nest_stored) of the
 * current format is copied as it is; a site without one is left out (the
 * program reads the database for it).  Deterministic: the same rows give
 * the same bytes.  Writer side (keelcc only).
 *
 * db_link_find: in a table, the packed nest of the site at line:col of
 * build hash `hash` whose stored file is `tail` or ends in "/" tail (tail:
 * the site's name for its source, without "./" or "../"); 0 with *nest
 * and *len, 1 when the table has none (or is not a table). */
#define DB_LINK_MAGIC "KEELLINK"
#define DB_LINK_VERSION 1
#define DB_LINK_ENTRY 40
int db_link_table(db *d, const char *const *objects, int nobjects, unsigned char **out,
                  size_t *n, char *err, size_t errlen);
int db_link_find(const unsigned char *table, const char *tail, int line, int col,
                 const char *hash, const unsigned char **nest, size_t *len);

#endif
