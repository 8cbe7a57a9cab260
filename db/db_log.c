/*
 * db_log.c -- the run-time log's SQL (db_log.h): decisions, history and
 * host calibration rows, over a connection of their own (not a db: the
 * runtime opens it for one read or write and closes it at once, with a
 * busy timeout of the caller's choosing, and it never migrates anything),
 * or, for reads while a db is open anyway, over that db's connection
 * (db_log_borrow).
 *
 * The history statements are the ones StarPU's models need: Welford's
 * running mean and variance in one UPSERT per measurement, Chan et al.'s
 * pairwise combination in one UPSERT per run; the table is created on
 * first write from db_history_schema (db/SCHEMA.md).
 */
#include "db_log.h"
#include "db_private.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct db_log {
    sqlite3 *h;
    sqlite3_stmt *ins;          /* the decisions INSERT between begin and end */
    sqlite3_stmt *known;        /* db_decisions_known's SELECT, prepared once */
    char *path;
    int borrowed;               /* h is a db's connection (db_log_borrow): not closed here */
};

/* 0 when l's file is a keel database of this schema version (what db_open
 * accepts read-only: the log reads and writes without migrating), else -1
 * with one line. */
static int schema_check(db_log *l, char *err, size_t errlen)
{
    int version;
    int kind = db_classify_h_(l->h, &version);
    if (kind < 0)
        return ku_fail(err, errlen, "%s: %s", l->path, sqlite3_errmsg(l->h));
    return db_check_version_(l->path, 1, kind, version, err, errlen);
}

int db_log_open(const char *path, int mode, int busy_ms, db_log **out, char *err, size_t errlen)
{
    db_log *l = calloc(1, sizeof *l);
    *out = NULL;
    if (!l || !(l->path = strdup(path))) {
        free(l);
        return ku_fail(err, errlen, "%s: out of memory", path);
    }
    /* (one thread at a time, db_log.h: no per-call connection mutex) */
    if (sqlite3_open_v2(path, &l->h, (mode == DB_LOG_WRITE ? SQLITE_OPEN_READWRITE
                                                           : SQLITE_OPEN_READONLY) |
                                         SQLITE_OPEN_NOMUTEX, NULL)
        != SQLITE_OK) {
        ku_fail(err, errlen, "%s: %s", path, l->h ? sqlite3_errmsg(l->h) : "cannot open");
        db_log_close(l);
        return -1;
    }
    sqlite3_busy_timeout(l->h, busy_ms);
    /* A writer neither checkpoints when it closes nor syncs at commit: the
     * WAL keeps this run's frames (a killed program keeps what it wrote:
     * the OS has them), and SQLite checkpoints it when a commit finds
     * wal_autocheckpoint (1000) pages in it, or when a connection of
     * keelcc or keel closes last.  In WAL mode synchronous = NORMAL keeps
     * the database consistent; a power loss may take back the last
     * commits, never corrupt the file.  So most program runs write with
     * no fsync at all: the checkpoint at close cost two fdatasync, the
     * WAL's unlink and, at the next run's first commit, a new WAL's header
     * and directory syncs. */
    if (mode == DB_LOG_WRITE &&
        (sqlite3_db_config(l->h, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL) != SQLITE_OK ||
         sqlite3_exec(l->h, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL) != SQLITE_OK)) {
        ku_fail(err, errlen, "%s: %s", path, sqlite3_errmsg(l->h));
        db_log_close(l);
        return -1;
    }
    if (schema_check(l, err, errlen) != 0) {
        db_log_close(l);
        return -2;
    }
    *out = l;
    return 0;
}

/* A db_log over d's connection, for reads while d is open anyway (the
 * runtime reads the calibration and whether history exists with the
 * connection that loads a site's facts: one open, one schema read). */
int db_log_borrow(db *d, db_log **out, char *err, size_t errlen)
{
    db_log *l = calloc(1, sizeof *l);
    *out = NULL;
    if (!l || !(l->path = strdup(db_path_(d)))) {
        free(l);
        return ku_fail(err, errlen, "%s: out of memory", db_path_(d));
    }
    l->h = db_sqlite_(d);
    l->borrowed = 1;
    *out = l;
    return 0;
}

int db_log_checkpoint(db_log *l)
{
    int log_frames = 0, done = 0;
    if (sqlite3_wal_checkpoint_v2(l->h, NULL, SQLITE_CHECKPOINT_TRUNCATE, &log_frames, &done)
        != SQLITE_OK)
        return -1;
    return done == log_frames ? 0 : -1;
}

void db_log_close(db_log *l)
{
    if (!l)
        return;
    sqlite3_finalize(l->ins);
    sqlite3_finalize(l->known);
    if (!l->borrowed)
        sqlite3_close(l->h);
    free(l->path);
    free(l);
}

const char *db_log_errmsg(db_log *l)
{
    return sqlite3_errmsg(l->h);
}

/* The tables the log writes, each checked with its indexes (a partial
 * integrity_check: the table's b-trees, their records, and that every index
 * holds the table's rows).  sqlite_schema comes first: its check (the tree
 * on page 1) also walks the freelist, where new rows take their pages.  A
 * table the database does not have is skipped. */
static const char *const log_tables[][2] = {
    { "sqlite_schema", "PRAGMA integrity_check(sqlite_schema)" },
    { "decisions", "PRAGMA integrity_check(decisions)" },
    { "history", "PRAGMA integrity_check(history)" },
    { "host_calibration", "PRAGMA integrity_check(host_calibration)" },
    { "host_bandwidth", "PRAGMA integrity_check(host_bandwidth)" },
};

/* 1 when the database has table name, 0 when not, -1 on an error */
static int has_table(sqlite3 *h, const char *name)
{
    sqlite3_stmt *st;
    if (!strcmp(name, "sqlite_schema"))
        return 1;
    if (sqlite3_prepare_v2(h, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1", -1,
                           &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int db_log_check(db_log *l, char *err, size_t errlen)
{
    for (size_t t = 0; t < sizeof log_tables / sizeof *log_tables; t++) {
        sqlite3_stmt *st;
        int has = has_table(l->h, log_tables[t][0]);
        if (has == 0)
            continue;
        if (has < 0 || sqlite3_prepare_v2(l->h, log_tables[t][1], -1, &st, NULL) != SQLITE_OK) {
            ku_fail(err, errlen, "%s: %s", l->path, sqlite3_errmsg(l->h));
            return 1;
        }
        int rc = sqlite3_step(st), out = 0;
        const char *r = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
        if (!r) {
            ku_fail(err, errlen, "%s: %s", l->path, sqlite3_errmsg(l->h));
            out = 1;
        } else if (strcmp(r, "ok") != 0) {
            /* the first complaint, on one line: a b-tree's complaints
             * come after a line "*** in database main ***" */
            const char *hdr = strstr(r, "***\n");
            if (hdr)
                r = hdr + 4;
            out = ku_fail(err, errlen,
                          "%s: database fails its integrity check (%.*s); not written", l->path,
                          (int)strcspn(r, "\n") < 200 ? (int)strcspn(r, "\n") : 200, r);
        }
        sqlite3_finalize(st);
        if (out)
            return out;
    }
    return 0;
}

int db_log_begin(db_log *l)
{
    return sqlite3_exec(l->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

int db_log_end(db_log *l, int commit)
{
    if (commit && !sqlite3_get_autocommit(l->h) &&
        sqlite3_exec(l->h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    sqlite3_exec(l->h, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

/* ---- decisions ------------------------------------------------------------ */

int db_decisions_begin(db_log *l)
{
    if (sqlite3_exec(l->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v2(l->h, "INSERT INTO decisions(loop_id, bindings, threads, device,"
                                 " cpu_s, gpu_s, xfer_s, verdict, reason)"
                                 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                           -1, &l->ins, NULL) != SQLITE_OK) {
        sqlite3_finalize(l->ins);
        l->ins = NULL;
        if (!sqlite3_get_autocommit(l->h))
            sqlite3_exec(l->h, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    return 0;
}

/* Bind a decision row's nine columns, in the order both the insert and
 * the lookup of an equal row number them (?1 loop_id ... ?9 reason);
 * times left NULL when the row has none.  The strings stay the caller's
 * (SQLITE_STATIC) until the statement is reset. */
static void bind_decision(sqlite3_stmt *q, const db_decision_row *r)
{
    sqlite3_bind_int64(q, 1, r->loop_id);
    sqlite3_bind_text(q, 2, r->bindings, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 3, r->threads);
    sqlite3_bind_text(q, 4, r->device, -1, SQLITE_STATIC);
    if (r->have_times) {
        sqlite3_bind_double(q, 5, r->cpu_s);
        sqlite3_bind_double(q, 6, r->gpu_s);
        sqlite3_bind_double(q, 7, r->xfer_s);
    }
    sqlite3_bind_text(q, 8, r->gpu ? "GPU" : "CPU", -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 9, r->reason, -1, SQLITE_STATIC);
}

int db_decisions_known(db_log *l, const db_decision_row *r)
{
    if (!l->known &&
        sqlite3_prepare_v2(l->h, "SELECT 1 FROM decisions WHERE loop_id = ?1 AND bindings IS ?2"
                                 " AND threads IS ?3 AND device IS ?4 AND cpu_s IS ?5"
                                 " AND gpu_s IS ?6 AND xfer_s IS ?7 AND verdict IS ?8"
                                 " AND reason IS ?9 LIMIT 1",
                           -1, &l->known, NULL) != SQLITE_OK)
        return -1;
    sqlite3_stmt *q = l->known;
    bind_decision(q, r);
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int db_decisions_add(db_log *l, const db_decision_row *r)
{
    sqlite3_stmt *q = l->ins;
    if (!q)
        return -1;
    bind_decision(q, r);
    int ok = sqlite3_step(q) == SQLITE_DONE;
    sqlite3_reset(q);
    sqlite3_clear_bindings(q);
    return ok ? 0 : -1;
}

int db_decisions_end(db_log *l, int commit)
{
    int began = l->ins != NULL;
    sqlite3_finalize(l->ins);
    l->ins = NULL;
    return began ? db_log_end(l, commit) : -1;
}

/* ---- history -------------------------------------------------------------- */

const char db_history_schema[] =
    "CREATE TABLE IF NOT EXISTS history(\n"
    "  loop_id INTEGER NOT NULL,\n"
    "  size_key TEXT NOT NULL,\n"
    "  n REAL NOT NULL,\n"
    "  device TEXT NOT NULL CHECK (device IN ('cpu', 'gpu')),\n"
    "  samples INTEGER NOT NULL,\n"
    "  mean_s REAL NOT NULL,\n"
    "  m2 REAL NOT NULL,\n"
    "  PRIMARY KEY (loop_id, size_key, device))";

/* Welford's update in one statement: every right-hand side reads the old
 * row, so the new mean is mean + (x - mean) / (samples + 1) and m2 grows
 * by (x - mean) * (x - new mean). */
static const char upsert_sql[] =
    "INSERT INTO history(loop_id, size_key, n, device, samples, mean_s, m2)"
    " VALUES (?1, ?2, ?3, ?4, 1, ?5, 0)"
    " ON CONFLICT(loop_id, size_key, device) DO UPDATE SET"
    "  samples = samples + 1,"
    "  mean_s = mean_s + (excluded.mean_s - mean_s) / (samples + 1),"
    "  m2 = m2 + (excluded.mean_s - mean_s) *"
    "       (excluded.mean_s - (mean_s + (excluded.mean_s - mean_s) / (samples + 1))),"
    "  n = excluded.n";

/* k samples with mean m and sum of squared deviations q added to a row
 * (Chan, Golub & LeVeque's pairwise combination; every right-hand side
 * reads the old row):  N = n + k,  mean' = mean + (m - mean) k / N,
 * m2' = m2 + q + (m - mean)^2 n k / N. */
static const char merge_sql[] =
    "INSERT INTO history(loop_id, size_key, n, device, samples, mean_s, m2)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
    " ON CONFLICT(loop_id, size_key, device) DO UPDATE SET"
    "  samples = samples + excluded.samples,"
    "  mean_s = mean_s + (excluded.mean_s - mean_s) * excluded.samples"
    "           / (samples + excluded.samples),"
    "  m2 = m2 + excluded.m2 + (excluded.mean_s - mean_s) * (excluded.mean_s - mean_s)"
    "       * samples * excluded.samples / (samples + excluded.samples),"
    "  n = excluded.n";

/* upsert_sql or merge_sql for one (loop, size key, device) row: the device
 * checked, the table created, the statement prepared with the row's key
 * bound (?1-?4); NULL when any of it fails. */
static sqlite3_stmt *prepare_row(sqlite3 *h, const char *sql, int64_t loop_id, const char *key,
                                 double n, const char *device)
{
    sqlite3_stmt *st = NULL;
    if ((strcmp(device, "cpu") && strcmp(device, "gpu")) ||
        sqlite3_exec(h, db_history_schema, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
        return NULL;
    sqlite3_bind_int64(st, 1, loop_id);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 3, n);
    sqlite3_bind_text(st, 4, device, -1, SQLITE_STATIC);
    return st;
}

/* Step and finalize st: 0 when it ran. */
static int step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

int db_history_add(db_log *l, int64_t loop_id, const char *key, double n, const char *device,
                   double seconds)
{
    sqlite3_stmt *st;
    if (!(seconds > 0) || !isfinite(seconds) ||
        !(st = prepare_row(l->h, upsert_sql, loop_id, key, n, device)))
        return -1;
    sqlite3_bind_double(st, 5, seconds);
    return step_done(st);
}

int db_history_merge(db_log *l, int64_t loop_id, const char *key, double n, const char *device,
                     long long samples, double mean, double m2)
{
    sqlite3_stmt *st;
    if (samples < 1 || !(mean > 0) || !isfinite(mean) || !(m2 >= 0) || !isfinite(m2) ||
        !(st = prepare_row(l->h, merge_sql, loop_id, key, n, device)))
        return -1;
    sqlite3_bind_int64(st, 5, samples);
    sqlite3_bind_double(st, 6, mean);
    sqlite3_bind_double(st, 7, m2);
    return step_done(st);
}

int db_history_exists(db_log *l)
{
    sqlite3_stmt *q = NULL;
    int yes = sqlite3_prepare_v2(l->h, "SELECT 1 FROM sqlite_master WHERE name = 'history'", -1,
                                 &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
    return yes;
}

int db_history_loops(db_log *l, int64_t **ids, int *n)
{
    sqlite3_stmt *q = NULL;
    int rc = SQLITE_ERROR;
    if (sqlite3_prepare_v2(l->h, "SELECT DISTINCT loop_id FROM history ORDER BY loop_id", -1,
                           &q, NULL) == SQLITE_OK)
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            int64_t *x = ku_push(ids, n, sizeof **ids);
            if (!x)
                break;
            *x = sqlite3_column_int64(q, 0);
        }
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? 0 : -1;
}

int db_history_each(db_log *l, int64_t loop_id, db_history_fn fn, void *ctx)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(l->h, "SELECT device, size_key, n, samples, mean_s FROM history"
                                 " WHERE loop_id = ?1 ORDER BY n", -1, &st, NULL) != SQLITE_OK)
        return 0;                 /* no table: nothing measured yet */
    sqlite3_bind_int64(st, 1, loop_id);
    int rc = 0;
    while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
        const char *dev = (const char *)sqlite3_column_text(st, 0);
        const char *sk = (const char *)sqlite3_column_text(st, 1);
        db_history_row r = {
            .device = dev ? dev : "",
            .size_key = sk ? sk : "",
            .n = sqlite3_column_double(st, 2),
            .samples = sqlite3_column_int(st, 3),
            .mean_s = sqlite3_column_double(st, 4),
        };
        rc = fn(ctx, &r);
    }
    sqlite3_finalize(st);
    return rc;
}

/* ---- host calibration ----------------------------------------------------- */

int db_calib_add(db_log *l, const char *host, const db_calib_row *c, int64_t *id)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(l->h, "INSERT INTO host_calibration(host, cores, freq_hz,"
                                 " mem_bw, peak_flops, fork_ns, join_ns, sched_ns,"
                                 " target_fallback_ns, page_bytes, tlb_entries, tlb_miss_ns,"
                                 " latencies, l1_bytes, l2_bytes, l3_bytes, thread_curve)"
                                 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
                                 " ?14, ?15, ?16, ?17)",
                           -1, &q, NULL)
        != SQLITE_OK)
        return -1;
    sqlite3_bind_text(q, 1, host, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(q, 2, c->cores);
    sqlite3_bind_double(q, 3, c->freq_hz);
    sqlite3_bind_double(q, 4, c->mem_bw);
    sqlite3_bind_double(q, 5, c->peak_flops);
    sqlite3_bind_double(q, 6, c->fork_ns);
    sqlite3_bind_double(q, 7, c->join_ns);
    sqlite3_bind_double(q, 8, c->sched_ns);
    sqlite3_bind_double(q, 9, c->target_fallback_ns);
    sqlite3_bind_double(q, 10, c->page_bytes);
    sqlite3_bind_double(q, 11, c->tlb_entries);
    sqlite3_bind_double(q, 12, c->tlb_miss_ns);
    if (c->latencies[0])
        sqlite3_bind_text(q, 13, c->latencies, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, 13);
    sqlite3_bind_double(q, 14, c->l1_bytes);
    sqlite3_bind_double(q, 15, c->l2_bytes);
    sqlite3_bind_double(q, 16, c->l3_bytes);
    if (c->thread_curve[0])
        sqlite3_bind_text(q, 17, c->thread_curve, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(q, 17);
    int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : -1;
    if (rc == 0)
        *id = sqlite3_last_insert_rowid(l->h);
    sqlite3_finalize(q);
    return rc;
}

int db_calib_add_bandwidth(db_log *l, int64_t id, const db_bw_row *r)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(l->h, "INSERT INTO host_bandwidth(calibration_id, pattern, footprint,"
                                 " threads, bytes_per_s) VALUES (?1, ?2, ?3, ?4, ?5)", -1, &q,
                           NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(q, 1, id);
    sqlite3_bind_text(q, 2, r->pattern, -1, SQLITE_STATIC);
    sqlite3_bind_double(q, 3, r->footprint);
    sqlite3_bind_int(q, 4, r->threads);
    sqlite3_bind_double(q, 5, r->bytes_per_s);
    int rc = sqlite3_step(q) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(q);
    return rc;
}

int db_calib_newest(db_log *l, const char *host, db_calib_row *c, int64_t *id)
{
    sqlite3_stmt *q = NULL;
    memset(c, 0, sizeof *c);
    /* (every db_log is of this keel's schema: db_log_open refuses another
     * version, and a borrowed db was opened by db_open, which does too) */
    if (sqlite3_prepare_v2(l->h, "SELECT cores, freq_hz, mem_bw, peak_flops, fork_ns,"
                                 " join_ns, sched_ns, id, target_fallback_ns, page_bytes,"
                                 " tlb_entries, tlb_miss_ns, latencies, l1_bytes, l2_bytes,"
                                 " l3_bytes, thread_curve FROM host_calibration"
                                 " WHERE host = ?1 ORDER BY id DESC LIMIT 1", -1, &q, NULL)
        != SQLITE_OK)
        return -1;
    sqlite3_bind_text(q, 1, host, -1, SQLITE_TRANSIENT);
    int s = sqlite3_step(q), rc = s == SQLITE_ROW ? 0 : s == SQLITE_DONE ? 1 : -1;
    if (rc == 0) {
        c->cores = sqlite3_column_int(q, 0);
        c->freq_hz = sqlite3_column_double(q, 1);
        c->mem_bw = sqlite3_column_double(q, 2);
        c->peak_flops = sqlite3_column_double(q, 3);
        c->fork_ns = sqlite3_column_double(q, 4);
        c->join_ns = sqlite3_column_double(q, 5);
        c->sched_ns = sqlite3_column_double(q, 6);
        *id = sqlite3_column_int64(q, 7);
        c->target_fallback_ns = sqlite3_column_double(q, 8);   /* NULL: 0 */
        c->page_bytes = sqlite3_column_double(q, 9);
        c->tlb_entries = sqlite3_column_double(q, 10);
        c->tlb_miss_ns = sqlite3_column_double(q, 11);
        const unsigned char *lt = sqlite3_column_text(q, 12);
        if (lt)
            snprintf(c->latencies, sizeof c->latencies, "%s", (const char *)lt);
        c->l1_bytes = sqlite3_column_double(q, 13);    /* NULL: 0 */
        c->l2_bytes = sqlite3_column_double(q, 14);
        c->l3_bytes = sqlite3_column_double(q, 15);
        const unsigned char *tc = sqlite3_column_text(q, 16);
        if (tc)
            snprintf(c->thread_curve, sizeof c->thread_curve, "%s", (const char *)tc);
    }
    if (rc < 0) {
        /* keep SQLite's message for db_log_errmsg past the finalize */
        sqlite3_reset(q);
    }
    sqlite3_finalize(q);
    return rc;
}

int db_calib_footprints(db_log *l, int64_t id, double *fp, int max)
{
    sqlite3_stmt *q = NULL;
    int n = 0;
    if (sqlite3_prepare_v2(l->h, "SELECT DISTINCT footprint FROM host_bandwidth"
                                 " WHERE calibration_id = ?1 ORDER BY footprint", -1, &q, NULL)
        != SQLITE_OK)
        return 0;
    sqlite3_bind_int64(q, 1, id);
    while (n < max && sqlite3_step(q) == SQLITE_ROW)
        fp[n++] = sqlite3_column_double(q, 0);
    sqlite3_finalize(q);
    return n;
}

void db_calib_each_bandwidth(db_log *l, int64_t id, db_bw_fn fn, void *ctx)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(l->h, "SELECT pattern, footprint, threads, bytes_per_s"
                                 " FROM host_bandwidth WHERE calibration_id = ?1"
                                 " ORDER BY threads", -1, &q, NULL) != SQLITE_OK)
        return;
    sqlite3_bind_int64(q, 1, id);
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *pat = (const char *)sqlite3_column_text(q, 0);
        db_bw_row r = {
            .pattern = pat,
            .footprint = sqlite3_column_double(q, 1),
            .threads = sqlite3_column_int(q, 2),
            .bytes_per_s = sqlite3_column_double(q, 3),
        };
        fn(ctx, &r);
    }
    sqlite3_finalize(q);
}
