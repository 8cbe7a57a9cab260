/*
 * db_scan.h -- keel scan's resume table (scan_state, db/SCHEMA.md) and the
 * reads keel scan makes of what keelcc wrote: whether a source was scanned
 * with the same key and its rows are still there, a translation unit's
 * status after keelcc ran, and the loops and nests of a source.
 *
 * scan_state is not part of the migrations: db_scan_init creates it when
 * missing (a database without it is complete).  Errors are values: 0 or
 * -1 with a one-line message; the lookups say "not found" with 0.
 */
#ifndef KEEL_DB_SCAN_H
#define KEEL_DB_SCAN_H

#include <stddef.h>

#include "db.h"

/* Create scan_state when missing (d open for writing).  0, or -1 with
 * SQLite's message alone in err. */
int db_scan_init(db *d, char *err, size_t errlen);
/* Was path scanned with this key, and has it a translation_units row
 * still?  1 with malloc'd *status ("ok" when none was stored) and
 * *message (NULL when none), caller frees; 0 when not (or on error). */
int db_scan_stored(db *d, const char *path, const char *key, char **status, char **message);
/* The newest translation_units row of path: 1 with malloc'd *status ("?"
 * when NULL) and *message (or NULL); 0 when there is none. */
int db_scan_tu_status(db *d, const char *path, char **status, char **message);
/* Record that path was scanned with key, its TU's status and message, at
 * now (UTC, "YYYY-MM-DDTHH:MM:SSZ").  Best effort: a failure leaves the
 * source to be scanned again next time. */
void db_scan_save(db *d, const char *path, const char *key, const char *status,
                  const char *message, const char *now);
/* Add the loops and outermost loops (nests) of every TU of path to *loops
 * and *nests. */
void db_scan_count_loops(db *d, const char *path, long *loops, long *nests);

#endif
