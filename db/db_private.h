/*
 * db_private.h -- what modules of db/ beside db.c may see of a db: the
 * SQLite connection (owned by the db; never closed through this), whether
 * it is open for writing, its path for messages, and db.c's SQLite error
 * message and text binding, so that every module words failures alike.
 */
#ifndef KEEL_DB_PRIVATE_H
#define KEEL_DB_PRIVATE_H

#include <sqlite3.h>

#include "db.h"

sqlite3 *db_sqlite_(db *d);
int db_writable_(db *d);
const char *db_path_(db *d);
/* "<path>: <what>: <SQLite's message>" (plainer words for a file that is
 * not a database, corrupt or read-only) into err; returns -1. */
int db_fail_sql_(db *d, const char *what, char *err, size_t errlen);
/* Bind text s at i, NULL binding NULL. */
void db_bind_text_(sqlite3_stmt *st, int i, const char *s);

#endif
