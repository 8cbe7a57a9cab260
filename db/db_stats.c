/*
 * db_stats.c -- the counts of db_stats.h.  Each figure is one prepared
 * COUNT query with no parameters; a missing table (no such table/column)
 * gives -1 and the next query runs.
 */
#include "db_stats.h"
#include "db_private.h"

#include <assert.h>
#include <string.h>

/* The first column of sql's first row into *out (-1 when the table or
 * column is missing).  0, or -1 with a message. */
static int count(db *d, const char *sql, long long *out, char *err, size_t errlen)
{
    sqlite3_stmt *st = NULL;
    *out = -1;
    if (sqlite3_prepare_v2(db_sqlite_(d), sql, -1, &st, NULL) != SQLITE_OK) {
        const char *m = sqlite3_errmsg(db_sqlite_(d));
        if (strstr(m, "no such table") || strstr(m, "no such column"))
            return 0;
        return db_fail_sql_(d, "statistics", err, errlen);
    }
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        *out = sqlite3_column_type(st, 0) == SQLITE_NULL ? 0 : sqlite3_column_int64(st, 0);
    else if (step != SQLITE_DONE) {
        sqlite3_finalize(st);
        return db_fail_sql_(d, "statistics", err, errlen);
    }
    sqlite3_finalize(st);
    return 0;
}

int db_stats_read(db *d, db_stats *s, char *err, size_t errlen)
{
    assert(d && s);
    static const char *const verdict_sql[DB_VERDICTS] = {
        "SELECT count(*) FROM loop_dependences WHERE verdict = 'parallel'",
        "SELECT count(*) FROM loop_dependences WHERE verdict = 'reduction'",
        "SELECT count(*) FROM loop_dependences WHERE verdict = 'sequential'",
        "SELECT count(*) FROM loop_dependences WHERE verdict NOT IN"
        " ('parallel', 'reduction', 'sequential')",
        "SELECT count(*) FROM loops l WHERE NOT EXISTS"
        " (SELECT 1 FROM loop_dependences d WHERE d.loop_id = l.id)",
    };
    const struct { long long *out; const char *sql; } q[] = {
        { &s->sources, "SELECT count(DISTINCT path) FROM translation_units" },
        { &s->builds, "SELECT count(*) FROM translation_units" },
        { &s->failed, "SELECT count(*) FROM translation_units WHERE status <> 'ok'" },
        { &s->functions, "SELECT count(*) FROM functions" },
        { &s->loops, "SELECT count(*) FROM loops" },
        { &s->nests, "SELECT count(*) FROM loops WHERE depth = 0" },
        { &s->with_idioms, "SELECT count(*) FROM loops WHERE idioms IS NOT NULL AND idioms <> ''" },
        { &s->mca_targets, "SELECT count(DISTINCT target) FROM mca_results" },
        { &s->mca_ok, "SELECT count(*) FROM mca_results WHERE status = 'ok'" },
        { &s->mca_failed, "SELECT count(*) FROM mca_results WHERE status <> 'ok'" },
        { &s->mca_cache, "SELECT count(*) FROM mca_cache" },
        { &s->direct, "SELECT count(*) FROM direct_cache" },
        { &s->scanned, "SELECT count(*) FROM scan_state" },
        { &s->scan_failed, "SELECT count(*) FROM scan_state WHERE status <> 'ok'" },
        { &s->decisions, "SELECT count(*) FROM decisions" },
        { &s->decisions_gpu, "SELECT count(*) FROM decisions WHERE upper(verdict) = 'GPU'" },
        { &s->history_rows, "SELECT count(*) FROM history" },
        { &s->history_samples, "SELECT sum(samples) FROM history" },
        { &s->calibrations, "SELECT count(*) FROM host_calibration" },
    };
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        if (count(d, q[i].sql, q[i].out, err, errlen))
            return -1;
    for (int v = 0; v < DB_VERDICTS; v++)
        if (count(d, verdict_sql[v], &s->verdict[v], err, errlen))
            return -1;
    return 0;
}

int db_stats_reasons(db *d, db_stats_reason_fn fn, void *ctx, char *err, size_t errlen)
{
    assert(d && fn);
    static const struct { const char *kind, *sql; } q[] = {
        { "build", "SELECT path, coalesce(message, ''), 1 FROM translation_units"
                   " WHERE status <> 'ok' ORDER BY path" },
        { "scan", "SELECT path, coalesce(message, ''), 1 FROM scan_state"
                  " WHERE status <> 'ok' ORDER BY path" },
        { "mca", "SELECT NULL, coalesce(reason, ''), count(*) FROM mca_results"
                 " WHERE status <> 'ok' GROUP BY 2 ORDER BY 3 DESC, 2" },
    };
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        sqlite3_stmt *st = NULL;
        if (sqlite3_prepare_v2(db_sqlite_(d), q[i].sql, -1, &st, NULL) != SQLITE_OK) {
            const char *m = sqlite3_errmsg(db_sqlite_(d));
            if (strstr(m, "no such table") || strstr(m, "no such column"))
                continue;
            return db_fail_sql_(d, "statistics", err, errlen);
        }
        int step, stop = 0;
        while (!stop && (step = sqlite3_step(st)) == SQLITE_ROW)
            stop = fn(ctx, q[i].kind, (const char *)sqlite3_column_text(st, 0),
                      (const char *)sqlite3_column_text(st, 1), sqlite3_column_int64(st, 2));
        if (!stop && step != SQLITE_DONE) {
            sqlite3_finalize(st);
            return db_fail_sql_(d, "statistics", err, errlen);
        }
        sqlite3_finalize(st);
        if (stop)
            break;
    }
    return 0;
}
