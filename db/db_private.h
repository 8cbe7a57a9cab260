/*
 * db_private.h -- what modules of db/ beside db.c may see of a db: the
 * SQLite connection (owned by the db; never closed through this), whether
 * it is open for writing, and its path for messages.
 */
#ifndef KEEL_DB_PRIVATE_H
#define KEEL_DB_PRIVATE_H

#include <sqlite3.h>

#include "db.h"

sqlite3 *db_sqlite_(db *d);
int db_writable_(db *d);
const char *db_path_(db *d);

#endif
