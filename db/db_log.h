/*
 * db_log.h -- the run-time log: the rows libkeelrt (and the keel tool's
 * `calibrate` and `history` commands) read and write beside keelcc's:
 *
 *   decisions         one row per new verdict of a run (schema v3);
 *   history           measured times per (loop, size key, device): running
 *                     mean and Welford sum of squares (created on first
 *                     write from db_history_schema, not by a migration);
 *   host_calibration  `keel calibrate`'s figures per host (schema v3) and
 *   host_bandwidth    their bandwidth per access pattern (schema v7).
 *
 * A db_log is one SQLite connection opened for one read or one write and
 * closed again at once (a user program keeps no database open).  A
 * writer commits without syncing (synchronous = NORMAL, which WAL mode
 * keeps consistent) and does not checkpoint when it closes: its frames
 * stay in the WAL beside the database (FILE-wal, FILE-shm) until a commit
 * finds 1000 pages there (SQLite's auto-checkpoint) or a keelcc or keel
 * connection closes last.  It never
 * creates the file and never migrates a schema: a table that is missing is
 * "nothing known" to a reader and a failed write to a writer.  Only
 * prepared statements with bound parameters.  Use a db_log from one thread
 * at a time.  This file and db_log.c are part of the reader library
 * (keel_db_reader), which libkeelrt links.
 */
#ifndef KEEL_DB_LOG_H
#define KEEL_DB_LOG_H

#include <stddef.h>
#include <stdint.h>

typedef struct db_log db_log;
typedef struct db db;

enum {
    DB_LOG_READ  = 0,   /* read-only */
    DB_LOG_WRITE = 1    /* read-write; the file must exist */
};

/* Open the database at path, waiting up to busy_ms on its locks.  0, or -1
 * with "<path>: <SQLite's message>" in err (*out NULL).  Only a keel
 * database of this keel's schema version is opened: another version (a
 * newer keel's, or an older one keelcc has not migrated yet) or a file
 * that is not a keel database is refused with one message and -2, so
 * that the log never reads or writes tables whose columns it does not
 * know. */
int db_log_open(const char *path, int mode, int busy_ms, db_log **out, char *err,
                size_t errlen);
/* A db_log that reads through d's connection (d stays the owner: close
 * the db_log before d; db_log_close leaves the connection open).  For
 * reads only; 0, or -1 with a message. */
int db_log_borrow(db *d, db_log **out, char *err, size_t errlen);
void db_log_close(db_log *l);                  /* NULL is fine */
/* Copy the WAL's committed frames into the database file and empty the
 * WAL (a TRUNCATE checkpoint), so that the database file alone holds
 * what was written: for the tools' rare writes (`keel calibrate`, `keel
 * history add`), whose database a user may copy without its -wal file.
 * A program's log does not call it (db_log_open: no checkpoint at close).
 * 0, or -1 when a reader kept part of the WAL (nothing is lost: the
 * frames stay in the WAL, which SQLite checkpoints later). */
int db_log_checkpoint(db_log *l);
/* SQLite's message for the connection's last failure. */
const char *db_log_errmsg(db_log *l);
/* The tables the log writes checked, before anything is written into
 * them: sqlite_schema (page 1, the schema and the freelist, where new rows
 * take their pages), then decisions, history, host_calibration and
 * host_bandwidth where present, each with its indexes (PRAGMA
 * integrity_check(TABLE): pages, records and that every index holds its
 * table's rows).  keelcc's tables are not read, so the cost grows with the
 * log's tables, not with the file; damage confined to keelcc's tables (or
 * a page two tables share) is not seen here -- keelcc's own writer checks
 * the whole file.  0 when sound; -1 when damaged, with "<path>: database
 * fails its integrity check (<first complaint>); not written"; 1 when the
 * check could not run (a lock, say), with SQLite's message. */
int db_log_check(db_log *l, char *err, size_t errlen);
/* BEGIN IMMEDIATE; 0 or -1. */
int db_log_begin(db_log *l);
/* COMMIT when commit and the transaction still stands, else ROLLBACK; 0
 * when committed. */
int db_log_end(db_log *l, int commit);

/* ---- decisions ------------------------------------------------------------ */

typedef struct {
    int64_t loop_id;
    const char *bindings;       /* "n=1000,m=20" */
    int threads;
    const char *device;         /* the GPU compared with, or "none" */
    int have_times;             /* 0: the three times are NULL */
    double cpu_s, gpu_s, xfer_s;
    int gpu;                    /* the verdict: 1 GPU, 0 CPU */
    const char *reason;         /* NULL when the models decided */
} db_decision_row;

/* Append decisions in one transaction: db_decisions_begin (BEGIN
 * IMMEDIATE, the INSERT prepared), db_decisions_add per row,
 * db_decisions_end (commit when every row went in and commit is set, else
 * roll back).  0 or -1 each. */
int db_decisions_begin(db_log *l);
/* 1 when decisions already holds a row equal to r in every column but id
 * and decided_at (an earlier run made the same decision: the same loop,
 * values, threads, device, predicted times, verdict and reason), 0 when
 * not, -1 on an error (a missing table, a damaged file: then write it). */
int db_decisions_known(db_log *l, const db_decision_row *r);
int db_decisions_add(db_log *l, const db_decision_row *r);
int db_decisions_end(db_log *l, int commit);

/* ---- history -------------------------------------------------------------- */

/* The CREATE TABLE statement of history (IF NOT EXISTS), for every writer
 * of the table. */
extern const char db_history_schema[];

/* 1 when the database has a history table, else 0. */
int db_history_exists(db_log *l);
/* Every loop that has history rows, ascending, into *ids (malloc'd, grown
 * with ku_push; the caller frees it) and *n.  0 when all were read, -1
 * (no table, an error, out of memory) with what was read so far. */
int db_history_loops(db_log *l, int64_t **ids, int *n);

typedef struct {
    const char *device;         /* "cpu" | "gpu" */
    const char *size_key;       /* "n=1100" */
    double n;                   /* the regression size (footprint, bytes) */
    int samples;
    double mean_s;
} db_history_row;
/* Call fn with each history row of loop_id by ascending n; the texts live
 * until fn returns.  fn returns 0 to go on, non-zero to stop (that value
 * is returned).  0 after the last row, also when there is no table. */
typedef int (*db_history_fn)(void *ctx, const db_history_row *r);
int db_history_each(db_log *l, int64_t loop_id, db_history_fn fn, void *ctx);
/* One measurement added to its row (Welford, one UPSERT; the table is
 * created when missing).  device "cpu" | "gpu", seconds > 0 and finite.
 * 0 or -1. */
int db_history_add(db_log *l, int64_t loop_id, const char *key, double n, const char *device,
                   double seconds);
/* `samples` measurements with mean `mean` and sum of squared deviations
 * `m2` combined into the row (Chan, Golub & LeVeque), the table created
 * when missing.  0 or -1. */
int db_history_merge(db_log *l, int64_t loop_id, const char *key, double n, const char *device,
                     long long samples, double mean, double m2);

/* ---- host calibration ----------------------------------------------------- */

typedef struct {
    int cores;
    double freq_hz, mem_bw, peak_flops, fork_ns, join_ns, sched_ns;
    double target_fallback_ns;  /* 0: not measured (rows before schema 14) */
    double page_bytes, tlb_entries, tlb_miss_ns;   /* 0: not measured (before schema 15) */
    double l1_bytes, l2_bytes, l3_bytes;   /* the host's caches (0: not read, before schema 16) */
    char latencies[256];        /* dependent-chain latencies, "fadd=2.01 fmul=3 ..." in
                                 * cycles ("": not measured, before schema 15) */
    char thread_curve[512];     /* what T threads busy at once get, "T:clock:work:triad ..."
                                 * (Hz, additions/s per thread, bytes/s; "": not measured,
                                 * before schema 17) */
} db_calib_row;

typedef struct {
    const char *pattern;        /* "unit", "strided", ... */
    double footprint;           /* bytes */
    int threads;
    double bytes_per_s;
} db_bw_row;

/* Inside db_log_begin .. db_log_end: a new host_calibration row of host,
 * its id in *id; then its bandwidth rows.  0 or -1 (db_log_errmsg). */
int db_calib_add(db_log *l, const char *host, const db_calib_row *c, int64_t *id);
int db_calib_add_bandwidth(db_log *l, int64_t id, const db_bw_row *r);
/* The newest calibration of host: 0 with *c and *id, 1 when there is none,
 * -1 (db_log_errmsg; also when the table is missing). */
int db_calib_newest(db_log *l, const char *host, db_calib_row *c, int64_t *id);
/* The first max distinct footprints of calibration id, ascending, into fp:
 * their count (0 also when host_bandwidth is missing). */
int db_calib_footprints(db_log *l, int64_t id, double *fp, int max);
/* Call fn with each bandwidth row of calibration id by ascending threads
 * (the texts live until fn returns); nothing when the table is missing. */
typedef void (*db_bw_fn)(void *ctx, const db_bw_row *r);
void db_calib_each_bandwidth(db_log *l, int64_t id, db_bw_fn fn, void *ctx);

#endif
