/*
 * db_private.h -- what the files of db/ share about a db and nothing
 * outside db/ may include: the connection itself (struct db), its
 * statement cache, db.c's helpers for stepping statements, SQLite error
 * messages and text binding (so that every file words failures alike),
 * and the reader's half of opening, which the writer (db_write.c) goes on
 * from.  The reader library (keel_db_reader: db.c, db_mca.c, db_launch.c,
 * db_log.c) defines all of it; the writer library (keel_db) only uses it.
 */
#ifndef KEEL_DB_PRIVATE_H
#define KEEL_DB_PRIVATE_H

#include <sqlite3.h>

#include "db.h"

/* Prepared statements one connection keeps (every file of db/ together). */
#define DB_STMT_CACHE 64

struct db {
    sqlite3 *h;
    char *path;             /* as given to db_open, for messages */
    int mode;               /* DB_READONLY | DB_WRITE */
    int version;            /* schema version */
    int in_tu;              /* between db_begin_tu and commit/rollback */
    int64_t tu_id;          /* the TU being written */
    int nstmt;
    struct {
        const char *sql;    /* the key: the address of a file's SQL text */
        sqlite3_stmt *st;
    } stmt[DB_STMT_CACHE];
    char *loop_sql;         /* db_get_loop's SELECT for this file's fact columns */
    int fact_cols_read;     /* fact_cols holds which fact columns this file has */
    unsigned char fact_cols[DB_NLOOP_FACTS];
    char *loops_sql;        /* db_each_loop's, the same way */
};

sqlite3 *db_sqlite_(db *d);
/* Which per-loop fact columns (loop_facts.h) the file's loops table has:
 * have[k] 1 or 0; 0, or -1 with a message. */
int db_loop_fact_columns_(db *d, unsigned char *have, char *err, size_t errlen);
int db_writable_(db *d);
const char *db_path_(db *d);
/* "<path>: <what>: <SQLite's message>" (plainer words for a file that is
 * not a database, corrupt or read-only) into err; returns -1. */
int db_fail_sql_(db *d, const char *what, char *err, size_t errlen);
/* Bind text s at i, NULL binding NULL. */
void db_bind_text_(sqlite3_stmt *st, int i, const char *s);
/* Bind an id, 0 meaning NULL. */
void db_bind_id_(sqlite3_stmt *st, int i, int64_t id);

/* The statement of sql (a string constant of the calling file: the cache
 * is keyed by its address), prepared on first use and finalized by
 * db_close; NULL with a message.  Reset it with db_done_ after use. */
sqlite3_stmt *db_stmt_(db *d, const char *sql, char *err, size_t errlen);
/* Reset st and drop its bindings so it holds no locks or copies. */
void db_done_(sqlite3_stmt *st);
/* Step a statement that returns no rows; reset it either way. */
int db_run_(db *d, sqlite3_stmt *st, const char *what, char *err, size_t errlen);
/* db_run_, then the new row's id into *id (when id is not NULL). */
int db_insert_(db *d, sqlite3_stmt *st, const char *what, int64_t *id, char *err,
               size_t errlen);
/* Step a statement that returns at most one row: 0 on that row (read it,
 * then db_done_), 1 when there is none and -1 with a message, st reset. */
int db_step_row_(db *d, sqlite3_stmt *st, const char *what, char *err, size_t errlen);
/* Run constant SQL (no values in it) outside the statement cache. */
int db_exec_(db *d, const char *sql, const char *what, char *err, size_t errlen);
/* Reset every cached statement and roll back an open transaction. */
void db_rollback_(db *d);

/* ---- opening (db.c), for db_open in db_write.c ---- */
enum { FILE_FRESH, FILE_KEEL, FILE_FOREIGN };
/* Classify the open file: FILE_FRESH, FILE_KEEL with its *version, or
 * FILE_FOREIGN; -1 with a message when it cannot be read.  db_classify_h_:
 * the same over a bare connection (the run-time log's), -1 with SQLite's
 * message on h. */
int db_classify_(db *d, int *version, char *err, size_t errlen);
int db_classify_h_(sqlite3 *h, int *version);
/* Refuse what a connection in d->mode cannot use (a foreign file, a newer
 * schema, an older one read-only); 0 or -1 with a message.
 * db_check_version_: the same for the file at path, read-only or not. */
int db_check_kind_(db *d, int kind, int version, char *err, size_t errlen);
int db_check_version_(const char *path, int readonly, int kind, int version, char *err,
                      size_t errlen);
/* Everything of db_open but what only a writer does: checks the path,
 * opens the file in mode, classifies and checks it; 0 with *out and its
 * FILE_* kind, or -1 with a message. */
int db_open_file_(const char *path, int mode, db **out, int *kind, char *err, size_t errlen);
double db_now_s_(void);
void db_nap_ms_(int ms);

#endif
