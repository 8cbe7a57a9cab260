/*
 * calib_store.c -- host_calibration rows: store (keel calibrate) and read
 * (libkeelrt at its first launch).  Raw SQLite with bound parameters; the
 * table belongs to schema v2 (db/schema.c).
 */
#include "calib.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int rt_calibration_store(const char *dbpath, const rt_calibration *c, char *err, size_t errlen)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *q = NULL;
    char host[256] = "?";
    int rc = -1;
    gethostname(host, sizeof host - 1);
    if (sqlite3_open_v2(dbpath, &h, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: cannot open for writing", dbpath);
        goto done;
    }
    sqlite3_busy_timeout(h, 30000);
    if (sqlite3_prepare_v2(h, "INSERT INTO host_calibration(host, cores, freq_hz, mem_bw,"
                              " peak_flops, fork_ns, join_ns, sched_ns)"
                              " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", -1, &q, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", dbpath, sqlite3_errmsg(h));
        goto done;
    }
    sqlite3_bind_text(q, 1, host, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(q, 2, c->cores);
    sqlite3_bind_double(q, 3, c->freq_hz);
    sqlite3_bind_double(q, 4, c->mem_bw);
    sqlite3_bind_double(q, 5, c->peak_flops);
    sqlite3_bind_double(q, 6, c->fork_ns);
    sqlite3_bind_double(q, 7, c->join_ns);
    sqlite3_bind_double(q, 8, c->sched_ns);
    if (sqlite3_step(q) != SQLITE_DONE) {
        snprintf(err, errlen, "%s: %s", dbpath, sqlite3_errmsg(h));
        goto done;
    }
    rc = 0;
done:
    sqlite3_finalize(q);
    sqlite3_close(h);
    return rc;
}

int rt_calibration_load(const char *dbpath, rt_calibration *c, char *err, size_t errlen)
{
    sqlite3 *h = NULL;
    sqlite3_stmt *q = NULL;
    char host[256] = "?";
    int rc = -1;
    memset(c, 0, sizeof *c);
    gethostname(host, sizeof host - 1);
    if (sqlite3_open_v2(dbpath, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: cannot open", dbpath);
        goto done;
    }
    sqlite3_busy_timeout(h, 5);
    /* this host's newest row; another host's is better than nothing? no:
     * a database copied between machines must not carry its calibration */
    if (sqlite3_prepare_v2(h, "SELECT cores, freq_hz, mem_bw, peak_flops, fork_ns, join_ns,"
                              " sched_ns FROM host_calibration WHERE host = ?1"
                              " ORDER BY id DESC LIMIT 1", -1, &q, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", dbpath, sqlite3_errmsg(h));
        goto done;
    }
    sqlite3_bind_text(q, 1, host, -1, SQLITE_TRANSIENT);
    int s = sqlite3_step(q);
    if (s == SQLITE_DONE) {
        rc = 1;
        goto done;
    }
    if (s != SQLITE_ROW) {
        snprintf(err, errlen, "%s: %s", dbpath, sqlite3_errmsg(h));
        goto done;
    }
    c->cores = sqlite3_column_int(q, 0);
    c->freq_hz = sqlite3_column_double(q, 1);
    c->mem_bw = sqlite3_column_double(q, 2);
    c->peak_flops = sqlite3_column_double(q, 3);
    c->fork_ns = sqlite3_column_double(q, 4);
    c->join_ns = sqlite3_column_double(q, 5);
    c->sched_ns = sqlite3_column_double(q, 6);
    rc = 0;
done:
    sqlite3_finalize(q);
    sqlite3_close(h);
    return rc;
}
