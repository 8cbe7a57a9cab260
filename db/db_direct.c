/*
 * db_direct.c -- rows of direct_cache (db_direct.h).
 *
 * Statements are prepared per call: a keelcc run makes one lookup per
 * source and one write per recorded build.
 */
#include "db_direct.h"
#include "db_private.h"

#include <stdio.h>
#include <string.h>

static int sqlfail(db *d, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s: %s", db_path_(d), what, sqlite3_errmsg(db_sqlite_(d)));
    return -1;
}

int db_direct_each(db *d, const char *key, db_direct_fn fn, void *ctx, char *err,
                   size_t errlen)
{
    sqlite3_stmt *st = NULL;
    /* an entry whose build is gone is gone too (ON DELETE CASCADE); the
     * join also keeps a database edited by hand honest */
    if (sqlite3_prepare_v2(db_sqlite_(d),
                           "SELECT c.inputs, c.text, c.warnings FROM direct_cache c"
                           " JOIN translation_units t ON t.id = c.tu_id"
                           " WHERE c.key = ?1 ORDER BY c.tu_id DESC", -1, &st, NULL) != SQLITE_OK) {
        const char *m = sqlite3_errmsg(db_sqlite_(d));
        if (strstr(m, "no such table"))
            return 0;       /* a database from before direct mode */
        return sqlfail(d, "direct cache", err, errlen);
    }
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    int rc = 0, step;
    while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
        const char *inputs = (const char *)sqlite3_column_text(st, 0);
        const void *text = sqlite3_column_blob(st, 1);
        size_t len = (size_t)sqlite3_column_bytes(st, 1);
        const char *warnings = (const char *)sqlite3_column_text(st, 2);
        db_direct_entry e = { .inputs = (char *)(inputs ? inputs : ""),
                              .text = (char *)text, .text_len = text ? len : 0,
                              .warnings = (char *)(warnings ? warnings : "") };
        rc = fn(ctx, &e);
    }
    if (rc == 0 && step != SQLITE_DONE)
        rc = sqlfail(d, "direct cache", err, errlen);
    sqlite3_finalize(st);
    return rc;
}

int db_direct_put(db *d, int64_t tu_id, const char *key, const db_direct_entry *e, char *err,
                  size_t errlen)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db_sqlite_(d),
                           "INSERT OR REPLACE INTO direct_cache(tu_id, key, inputs, text, warnings)"
                           " VALUES (?1, ?2, ?3, ?4, ?5)", -1, &st, NULL) != SQLITE_OK)
        return sqlfail(d, "direct cache", err, errlen);
    sqlite3_bind_int64(st, 1, tu_id);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, e->inputs, -1, SQLITE_TRANSIENT);
    if (e->text)
        sqlite3_bind_blob(st, 4, e->text, (int)e->text_len, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, 4);
    sqlite3_bind_text(st, 5, e->warnings ? e->warnings : "", -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : sqlfail(d, "direct cache", err, errlen);
    sqlite3_finalize(st);
    return rc;
}
