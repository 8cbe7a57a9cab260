/*
 * db_report.c -- the keel tool's reads of the run-time tables for its
 * reports (db_report.h): logged decisions, the launch sizes they carry (the
 * sizes `keel report` ranks nests at) and the measured history.
 * Statements are prepared per call with bound parameters; a report makes a
 * few per nest.  The history table may be missing (created on first
 * write): its readers say so with 1 instead of failing.
 */
#include "db_report.h"
#include "db_private.h"

#include <assert.h>

long long db_report_decision_count(db *d, int64_t loop_id, const char *device)
{
    assert(d);
    sqlite3_stmt *q;
    long long n = 0;
    /* one text per case, so that each can use the loop_id index */
    const char *sql = !loop_id ? "SELECT count(*) FROM decisions WHERE ?2 IS NULL OR device = ?2"
                    : device ? "SELECT count(*) FROM decisions WHERE loop_id = ?1 AND device = ?2"
                    : "SELECT count(*) FROM decisions WHERE loop_id = ?1";
    if (sqlite3_prepare_v2(db_sqlite_(d), sql, -1, &q, NULL) != SQLITE_OK)
        return 0;
    if (loop_id)
        sqlite3_bind_int64(q, 1, loop_id);
    if (device)
        sqlite3_bind_text(q, 2, device, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
        n = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return n;
}

int db_report_decisions(db *d, int64_t loop_id, int limit, db_decision_fn fn, void *ctx)
{
    assert(d && fn);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db_sqlite_(d), "SELECT bindings, device, threads, cpu_s, gpu_s,"
                           " xfer_s, verdict, decided_at FROM decisions WHERE loop_id = ?1"
                           " ORDER BY id DESC LIMIT ?2", -1, &q, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(q, 1, loop_id);
    sqlite3_bind_int(q, 2, limit);
    int n = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        db_decision_row r = {
            .bindings = (const char *)sqlite3_column_text(q, 0),
            .device = (const char *)sqlite3_column_text(q, 1),
            .threads = sqlite3_column_int(q, 2),
            .cpu_s = sqlite3_column_double(q, 3),
            .gpu_s = sqlite3_column_double(q, 4),
            .xfer_s = sqlite3_column_double(q, 5),
            .verdict = (const char *)sqlite3_column_text(q, 6),
            .decided_at = (const char *)sqlite3_column_text(q, 7),
        };
        n++;
        if (fn(ctx, &r))
            break;
    }
    sqlite3_finalize(q);
    return n;
}

int db_report_decision_points(db *d, int64_t loop_id, const char *device, int limit,
                              db_decision_point_fn fn, void *ctx)
{
    assert(d && fn);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db_sqlite_(d), "SELECT bindings, cpu_s, gpu_s + xfer_s FROM decisions"
                           " WHERE loop_id = ?1 AND device = ?2 ORDER BY id DESC LIMIT ?3",
                           -1, &q, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(q, 1, loop_id);
    db_bind_text_(q, 2, device);
    sqlite3_bind_int(q, 3, limit);
    while (sqlite3_step(q) == SQLITE_ROW
           && fn(ctx, (const char *)sqlite3_column_text(q, 0), sqlite3_column_double(q, 1),
                 sqlite3_column_double(q, 2)) == 0)
        ;
    sqlite3_finalize(q);
    return 0;
}

int db_report_launch_sizes(db *d, int64_t loop_id, int limit, db_launch_size_fn fn, void *ctx)
{
    assert(d && fn);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db_sqlite_(d), "SELECT bindings, count(*) AS c, max(id) AS newest"
                           " FROM decisions WHERE loop_id = ?1 AND bindings IS NOT NULL"
                           " GROUP BY bindings ORDER BY c DESC, newest DESC LIMIT ?2",
                           -1, &q, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(q, 1, loop_id);
    sqlite3_bind_int(q, 2, limit);
    int n = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        n++;
        if (fn(ctx, (const char *)sqlite3_column_text(q, 0), sqlite3_column_int64(q, 1)))
            break;
    }
    sqlite3_finalize(q);
    return n;
}

/* Rows of a history query (columns as db_history_row's, file and line
 * first and the other device's samples last when with_loop) to fn; 1 when
 * the table is missing. */
static int each_history(db *d, const char *sql, int64_t loop_id, int with_loop,
                        db_history_fn fn, void *ctx)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db_sqlite_(d), sql, -1, &q, NULL) != SQLITE_OK)
        return 1;                   /* no history table: nothing measured */
    if (!with_loop)
        sqlite3_bind_int64(q, 1, loop_id);
    int k = with_loop ? 2 : 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        db_history_row r = {
            .file = with_loop ? (const char *)sqlite3_column_text(q, 0) : NULL,
            .line = with_loop ? sqlite3_column_int(q, 1) : 0,
            .size_key = (const char *)sqlite3_column_text(q, k),
            .device = (const char *)sqlite3_column_text(q, k + 1),
            .samples = sqlite3_column_int(q, k + 2),
            .mean_s = sqlite3_column_double(q, k + 3),
            .m2 = sqlite3_column_double(q, k + 4),
            .n = sqlite3_column_double(q, k + 5),
            .other_samples = with_loop ? sqlite3_column_int(q, k + 6) : 0,
        };
        if (fn(ctx, &r))
            break;
    }
    sqlite3_finalize(q);
    return 0;
}

int db_report_history(db *d, int64_t loop_id, db_history_fn fn, void *ctx)
{
    assert(d && fn);
    return each_history(d, "SELECT size_key, device, samples, mean_s, m2, n FROM history"
                           " WHERE loop_id = ?1 ORDER BY size_key, device", loop_id, 0, fn, ctx);
}

int db_report_history_all(db *d, db_history_fn fn, void *ctx)
{
    assert(d && fn);
    return each_history(d, "SELECT l.file, l.line, h.size_key, h.device, h.samples, h.mean_s,"
                            " h.m2, h.n, coalesce((SELECT sum(o.samples) FROM history o"
                           " WHERE o.loop_id = h.loop_id AND o.size_key = h.size_key"
                           " AND o.device <> h.device), 0)"
                           " FROM history h JOIN loops l ON l.id = h.loop_id"
                           " ORDER BY l.file, l.line, h.n, h.device", 0, 1, fn, ctx);
}

int db_report_has_history(db *d)
{
    assert(d);
    sqlite3_stmt *q;
    int has = 0;
    if (sqlite3_prepare_v2(db_sqlite_(d), "SELECT 1 FROM sqlite_master WHERE type = 'table'"
                           " AND name = 'history'", -1, &q, NULL) != SQLITE_OK)
        return 0;
    has = sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
    return has;
}

int db_report_failed_units(db *d, const char *file, db_failed_unit_fn fn, void *ctx)
{
    assert(d && fn);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db_sqlite_(d), "SELECT path, variant, message FROM translation_units"
                           " WHERE status = 'error' AND (?1 IS NULL OR path = ?1"
                           " OR substr(path, -length(?1) - 1) = '/' || ?1)"
                           " ORDER BY path, variant", -1, &q, NULL) != SQLITE_OK)
        return -1;
    db_bind_text_(q, 1, file && *file ? file : NULL);
    int n = 0, rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *variant = (const char *)sqlite3_column_text(q, 1);
        n++;
        if (fn(ctx, (const char *)sqlite3_column_text(q, 0), variant && *variant ? variant : NULL,
               (const char *)sqlite3_column_text(q, 2)))
            break;
    }
    sqlite3_finalize(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? n : -1;
}
