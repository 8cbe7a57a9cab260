/*
 * db_scan.c -- keel scan's resume table and its reads of keelcc's rows
 * (db_scan.h).  Statements are prepared per call with bound parameters:
 * these run a few times per scanned source, next to a keelcc process.
 */
#define _XOPEN_SOURCE 700   /* strdup */

#include "db_scan.h"
#include "db_private.h"
#include "util.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* keel's schema text of the table (db/SCHEMA.md, "keel scan's resume table") */
static const char scan_table[] =
    "CREATE TABLE IF NOT EXISTS scan_state ("
    " path TEXT PRIMARY KEY,"
    " key TEXT NOT NULL,"
    " status TEXT NOT NULL,"
    " message TEXT,"
    " scanned_at TEXT NOT NULL)";

int db_scan_init(db *d, char *err, size_t errlen)
{
    assert(d);
    char *emsg = NULL;
    if (sqlite3_exec(db_sqlite_(d), scan_table, NULL, NULL, &emsg) != SQLITE_OK) {
        ku_fail(err, errlen, "%s", emsg ? emsg : "cannot create scan_state");
        sqlite3_free(emsg);
        return -1;
    }
    return 0;
}

/* The first row's (status, message) of sql with ?1 = p1 and ?2 = p2 (when
 * not NULL): 1 with malloc'd *status (dflt when NULL) and *message, 0 when
 * there is none. */
static int status_row(db *d, const char *sql, const char *p1, const char *p2,
                      const char *dflt, char **status, char **message)
{
    sqlite3_stmt *q;
    int found = 0;
    if (sqlite3_prepare_v2(db_sqlite_(d), sql, -1, &q, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(q, 1, p1, -1, SQLITE_STATIC);
    if (p2)
        sqlite3_bind_text(q, 2, p2, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW) {
        const char *s = (const char *)sqlite3_column_text(q, 0);
        const char *m = (const char *)sqlite3_column_text(q, 1);
        *status = strdup(s ? s : dflt);
        *message = m ? strdup(m) : NULL;
        found = 1;
    }
    sqlite3_finalize(q);
    return found;
}

int db_scan_stored(db *d, const char *path, const char *key, char **status, char **message)
{
    assert(d && path && key && status && message);
    return status_row(d, "SELECT s.status, s.message FROM scan_state s"
                         " WHERE s.path = ?1 AND s.key = ?2"
                         "   AND EXISTS (SELECT 1 FROM translation_units t WHERE t.path = ?1)",
                      path, key, "ok", status, message);
}

int db_scan_tu_status(db *d, const char *path, char **status, char **message)
{
    assert(d && path && status && message);
    return status_row(d, "SELECT status, message FROM translation_units WHERE path = ?1"
                         " ORDER BY id DESC LIMIT 1", path, NULL, "?", status, message);
}

void db_scan_save(db *d, const char *path, const char *key, const char *status,
                  const char *message, const char *now)
{
    assert(d && path && key && status && now);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db_sqlite_(d),
            "INSERT INTO scan_state(path, key, status, message, scanned_at)"
            " VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(path) DO UPDATE SET"
            " key = excluded.key, status = excluded.status, message = excluded.message,"
            " scanned_at = excluded.scanned_at", -1, &q, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_text(q, 1, path, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, status, -1, SQLITE_STATIC);
    db_bind_text_(q, 4, message);
    sqlite3_bind_text(q, 5, now, -1, SQLITE_STATIC);
    sqlite3_step(q);
    sqlite3_finalize(q);
}

void db_scan_count_loops(db *d, const char *path, long *loops, long *nests)
{
    assert(d && path && loops && nests);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db_sqlite_(d),
            "SELECT count(*), count(*) FILTER (WHERE l.depth = 0) FROM loops l"
            " JOIN translation_units t ON t.id = l.tu_id WHERE t.path = ?1",
            -1, &q, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_text(q, 1, path, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW) {
        *loops += sqlite3_column_int64(q, 0);
        *nests += sqlite3_column_int64(q, 1);
    }
    sqlite3_finalize(q);
}
