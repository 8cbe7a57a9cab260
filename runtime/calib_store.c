/*
 * calib_store.c -- host_calibration rows: store (keel calibrate) and read
 * (libkeelrt at its first launch).  Raw SQLite with bound parameters; the
 * table belongs to schema v3 (db/schema.c; target_fallback_ns: v13).  The bandwidth per access
 * pattern and footprint (PMaC) goes to host_bandwidth (schema v7), one row
 * per (pattern, footprint, threads) of the calibration; a database without
 * that table simply has no per-pattern figures.
 */
#include "calib.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* "DB: SQLite's message" into err; -1. */
static int sql_err(const char *dbpath, sqlite3 *h, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", dbpath, sqlite3_errmsg(h));
    return -1;
}

/* Open dbpath (for writing when write), wait up to busy_ms on its locks and
 * prepare sql into *q with ?1 bound to this machine's host name (the key of
 * its calibration rows).  0, or -1 with a message (*h, *q as far as they
 * got, for the caller to close). */
static int open_host_query(const char *dbpath, int write, int busy_ms, const char *sql,
                           sqlite3 **h, sqlite3_stmt **q, char *err, size_t errlen)
{
    char host[256] = "?";
    gethostname(host, sizeof host - 1);
    *q = NULL;
    if (sqlite3_open_v2(dbpath, h, write ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, NULL)
        != SQLITE_OK) {
        snprintf(err, errlen, "%s: cannot open%s", dbpath, write ? " for writing" : "");
        return -1;
    }
    sqlite3_busy_timeout(*h, busy_ms);
    if (sqlite3_prepare_v2(*h, sql, -1, q, NULL) != SQLITE_OK)
        return sql_err(dbpath, *h, err, errlen);
    sqlite3_bind_text(*q, 1, host, -1, SQLITE_TRANSIENT);
    return 0;
}

int rt_calibration_store(const char *dbpath, const rt_calibration *c, char *err, size_t errlen)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *q = NULL;
    int rc = -1;
    if (open_host_query(dbpath, 1, 30000, "INSERT INTO host_calibration(host, cores, freq_hz,"
                        " mem_bw, peak_flops, fork_ns, join_ns, sched_ns, target_fallback_ns)"
                        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", &h, &q, err, errlen))
        goto done;
    sqlite3_bind_int(q, 2, c->cores);
    sqlite3_bind_double(q, 3, c->freq_hz);
    sqlite3_bind_double(q, 4, c->mem_bw);
    sqlite3_bind_double(q, 5, c->peak_flops);
    sqlite3_bind_double(q, 6, c->fork_ns);
    sqlite3_bind_double(q, 7, c->join_ns);
    sqlite3_bind_double(q, 8, c->sched_ns);
    sqlite3_bind_double(q, 9, c->target_fallback_ns);
    if (sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_step(q) != SQLITE_DONE) {
        sql_err(dbpath, h, err, errlen);
        goto done;
    }
    sqlite3_int64 id = sqlite3_last_insert_rowid(h);
    sqlite3_finalize(q);
    q = NULL;
    if (c->bw_points > 0) {
        if (sqlite3_prepare_v2(h, "INSERT INTO host_bandwidth(calibration_id, pattern, footprint,"
                                  " threads, bytes_per_s) VALUES (?1, ?2, ?3, ?4, ?5)", -1, &q,
                               NULL) != SQLITE_OK) {
            sql_err(dbpath, h, err, errlen);
            goto done;
        }
        for (int f = 0; f < c->bw_points && f < RT_BW_POINTS; f++)
            for (int p = 0; p < RT_PATTERNS; p++)
                for (int w = 0; w < 2; w++) {
                    double v = w ? c->bw_all[p][f] : c->bw_one[p][f];
                    if (!(v > 0) || (w && c->bw_threads <= 1))
                        continue;    /* one thread only: the row is the same */
                    sqlite3_reset(q);
                    sqlite3_bind_int64(q, 1, id);
                    sqlite3_bind_text(q, 2, rt_pattern_name(p), -1, SQLITE_STATIC);
                    sqlite3_bind_double(q, 3, c->bw_fp[f]);
                    sqlite3_bind_int(q, 4, w ? c->bw_threads : 1);
                    sqlite3_bind_double(q, 5, v);
                    if (sqlite3_step(q) != SQLITE_DONE) {
                        sql_err(dbpath, h, err, errlen);
                        goto done;
                    }
                }
    }
    if (sqlite3_exec(h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        sql_err(dbpath, h, err, errlen);
        goto done;
    }
    rc = 0;
done:
    sqlite3_finalize(q);
    if (rc != 0)
        sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_close(h);
    return rc;
}

/* The per-pattern rows of calibration `id` into c (c->bw_points 0 when the
 * table is missing or holds no complete set: every pattern at every
 * footprint with one thread; the all-threads figures are those of the
 * largest thread count stored). */
static void bandwidth_load(sqlite3 *h, sqlite3_int64 id, rt_calibration *c)
{
    sqlite3_stmt *q = NULL;
    double fp[RT_BW_POINTS];
    int nfp = 0, have[RT_PATTERNS][RT_BW_POINTS] = { { 0 } };
    c->bw_points = 0;
    if (sqlite3_prepare_v2(h, "SELECT DISTINCT footprint FROM host_bandwidth"
                              " WHERE calibration_id = ?1 ORDER BY footprint", -1, &q, NULL)
        != SQLITE_OK)
        return;
    sqlite3_bind_int64(q, 1, id);
    while (sqlite3_step(q) == SQLITE_ROW && nfp < RT_BW_POINTS)
        fp[nfp++] = sqlite3_column_double(q, 0);
    sqlite3_finalize(q);
    q = NULL;
    if (nfp == 0 || sqlite3_prepare_v2(h, "SELECT pattern, footprint, threads, bytes_per_s"
                                          " FROM host_bandwidth WHERE calibration_id = ?1"
                                          " ORDER BY threads", -1, &q, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_int64(q, 1, id);
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *pat = (const char *)sqlite3_column_text(q, 0);
        double f = sqlite3_column_double(q, 1), v = sqlite3_column_double(q, 3);
        int threads = sqlite3_column_int(q, 2), p = -1, k = -1;
        for (int j = 0; j < RT_PATTERNS && pat; j++)
            if (!strcmp(pat, rt_pattern_name(j)))
                p = j;
        for (int j = 0; j < nfp; j++)
            if (fp[j] == f)
                k = j;
        if (p < 0 || k < 0 || !(v > 0))
            continue;
        if (threads == 1)
            c->bw_one[p][k] = v, have[p][k] = 1;
        if (threads >= c->bw_threads)          /* ORDER BY threads: the largest last */
            c->bw_all[p][k] = v, c->bw_threads = threads;
    }
    sqlite3_finalize(q);
    for (int p = 0; p < RT_PATTERNS; p++)
        for (int k = 0; k < nfp; k++)
            if (!have[p][k])
                return;
    memcpy(c->bw_fp, fp, sizeof fp);
    c->bw_points = nfp;
}

int rt_calibration_load(const char *dbpath, rt_calibration *c, char *err, size_t errlen)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *q = NULL;
    int rc = -1;
    memset(c, 0, sizeof *c);
    /* this host's newest row; another host's is better than nothing? no:
     * a database copied between machines must not carry its calibration */
    if (open_host_query(dbpath, 0, 5, "SELECT cores, freq_hz, mem_bw, peak_flops, fork_ns,"
                        " join_ns, sched_ns, id, target_fallback_ns FROM host_calibration WHERE host = ?1"
                        " ORDER BY id DESC LIMIT 1", &h, &q, err, errlen))
        goto done;
    int s = sqlite3_step(q);
    if (s == SQLITE_DONE) {
        rc = 1;
        goto done;
    }
    if (s != SQLITE_ROW) {
        sql_err(dbpath, h, err, errlen);
        goto done;
    }
    c->cores = sqlite3_column_int(q, 0);
    c->freq_hz = sqlite3_column_double(q, 1);
    c->mem_bw = sqlite3_column_double(q, 2);
    c->peak_flops = sqlite3_column_double(q, 3);
    c->fork_ns = sqlite3_column_double(q, 4);
    c->join_ns = sqlite3_column_double(q, 5);
    c->sched_ns = sqlite3_column_double(q, 6);
    c->target_fallback_ns = sqlite3_column_double(q, 8);      /* NULL: 0 */
    bandwidth_load(h, sqlite3_column_int64(q, 7), c);
    rc = 0;
done:
    sqlite3_finalize(q);
    sqlite3_close(h);
    return rc;
}
