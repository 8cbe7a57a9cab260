/*
 * db_direct.c -- rows of direct_cache (db_direct.h).
 *
 * Statements are prepared per call: a keelcc run makes one or two lookups
 * per source, one write per recorded build and one per build it reused
 * from another command.
 */
#include "db_direct.h"
#include "db_private.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

int db_direct_each(db *d, const char *key, db_direct_fn fn, void *ctx, char *err,
                   size_t errlen)
{
    sqlite3_stmt *st = NULL;
    /* an entry whose build is gone is gone too (ON DELETE CASCADE); the
     * join also keeps a database edited by hand honest */
    if (sqlite3_prepare_v2(db_sqlite_(d),
                           "SELECT c.inputs, c.text, c.warnings, c.search, c.tu_id, t.variant"
                           " FROM direct_cache c"
                           " JOIN translation_units t ON t.id = c.tu_id"
                           " WHERE c.key = ?1 ORDER BY c.tu_id DESC", -1, &st, NULL) != SQLITE_OK) {
        const char *m = sqlite3_errmsg(db_sqlite_(d));
        if (strstr(m, "no such table") || strstr(m, "no such column"))
            return 0;       /* a database from before direct mode (or this form of it) */
        return db_fail_sql_(d, "direct cache", err, errlen);
    }
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    int rc = 0, step;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *inputs = (const char *)sqlite3_column_text(st, 0);
        const void *text = sqlite3_column_blob(st, 1);
        size_t len = (size_t)sqlite3_column_bytes(st, 1);
        const char *warnings = (const char *)sqlite3_column_text(st, 2);
        const char *search = (const char *)sqlite3_column_text(st, 3);
        db_direct_entry e = { .inputs = (char *)(inputs ? inputs : ""),
                              .text = (char *)text, .text_len = text ? len : 0,
                              .warnings = (char *)(warnings ? warnings : ""),
                              .search = (char *)(search ? search : ""),
                              .tu_id = sqlite3_column_int64(st, 4),
                              .variant = (const char *)sqlite3_column_text(st, 5) };
        rc = fn(ctx, &e);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = db_fail_sql_(d, "direct cache", err, errlen);
    sqlite3_finalize(st);
    return rc;
}

int db_direct_put(db *d, int64_t tu_id, const char *key, const db_direct_entry *e, char *err,
                  size_t errlen)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db_sqlite_(d),
                           "INSERT OR REPLACE INTO direct_cache(tu_id, key, inputs, text, warnings,"
                           " search) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", -1, &st, NULL) != SQLITE_OK)
        return db_fail_sql_(d, "direct cache", err, errlen);
    sqlite3_bind_int64(st, 1, tu_id);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, e->inputs, -1, SQLITE_TRANSIENT);
    if (e->text)
        sqlite3_bind_blob(st, 4, e->text, (int)e->text_len, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, 4);
    sqlite3_bind_text(st, 5, e->warnings ? e->warnings : "", -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, e->search ? e->search : "", -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_fail_sql_(d, "direct cache", err, errlen);
    sqlite3_finalize(st);
    return rc;
}

/* Run one statement of the refresh (binding ?1 tu_id, ?2 object, ?3 args,
 * ?4 search where the text names them); 0 or -1 with a message. */
static int refresh_step(db *d, const char *sql, int64_t tu_id, const char *object,
                        const char *args, const char *search, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db_sqlite_(d), sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail_sql_(d, "direct cache refresh", err, errlen);
    int np = sqlite3_bind_parameter_count(st);
    if (np >= 1)
        sqlite3_bind_int64(st, 1, tu_id);
    if (np >= 2)
        db_bind_text_(st, 2, object);
    if (np >= 3)
        db_bind_text_(st, 3, args);
    if (np >= 4)
        db_bind_text_(st, 4, search);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0
           : db_fail_sql_(d, "direct cache refresh", err, errlen);
    sqlite3_finalize(st);
    return rc;
}

int db_direct_refresh(db *d, int64_t tu_id, const char *object, const char *args,
                      const char *search, char *err, size_t errlen)
{
    if (!db_writable_(d))
        return ku_fail(err, errlen, "%s: direct cache refresh: database is open read-only",
                       db_path_(d));
    /* as a fresh compile of this command would leave them (db_begin_tu's
     * delete, then the row), less the row's id */
    static const char *const steps[] = {
        "DELETE FROM translation_units WHERE id <> ?1"
        " AND path = (SELECT path FROM translation_units WHERE id = ?1)"
        " AND (variant IS NULL OR object = ?2)",
        "UPDATE translation_units SET object = ?2, args = ?3,"
        " compiled_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1",
        "UPDATE direct_cache SET search = coalesce(search, '') || ?4"
        " WHERE tu_id = ?1 AND ?4 IS NOT NULL"
        " AND instr(coalesce(search, ''), ?4) = 0 AND length(coalesce(search, '')) < 4096",
    };
    if (refresh_step(d, "BEGIN IMMEDIATE", 0, NULL, NULL, NULL, err, errlen) != 0)
        return -1;
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++)
        if (refresh_step(d, steps[k], tu_id, object, args, search, err, errlen) != 0) {
            char e2[64];
            refresh_step(d, "ROLLBACK", 0, NULL, NULL, NULL, e2, sizeof e2);
            return -1;
        }
    return refresh_step(d, "COMMIT", 0, NULL, NULL, NULL, err, errlen);
}
