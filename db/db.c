/*
 * db.c -- the connection and the reader of the program attribute database
 * (the reader library, keel_db_reader, which libkeelrt links; the writer
 * is db_write.c).
 *
 * Opening.  db_open_file_ stats the path first (so a missing file reads
 * "no such file" rather than SQLite's generic text), opens it, sets a 30 s
 * busy timeout (and, for a writer, foreign_keys=ON), then classifies the
 * file: SQLite refuses a corrupt one with SQLITE_NOTADB on the first read;
 * user_version
 * 0 with no tables is a fresh file; user_version 0 with tables, or a
 * version without our keel_meta table, is someone else's database.
 * db_open_read stops there; db_open (db_write.c) goes on to the checks,
 * WAL mode and migrations of a writer.
 *
 * Statements.  Every statement is prepared once per connection, kept in
 * the connection's cache (keyed by the address of its SQL text, so each
 * file of db/ keeps its own table of statements) and reset after each
 * use; values are always bound, never formatted into SQL.
 *
 * Reading.  db_each_loop streams loop_summary rows to a callback.
 * db_get_loop copies one loop and its statements, accesses and scalars
 * into memory owned by one arena, so db_free_loop frees it all at once.
 */
#include "db.h"
#include "db_private.h"
#include "util.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

enum {
    ST_LOOPS, ST_LOOPS_FROM, ST_LOOP, ST_CHILDREN, ST_STMTS, ST_ACCESSES, ST_DIMS,
    ST_SCALARS,
    ST_SEL_STRIDE, ST_SEL_DEP,   /* IPDA, schema v2 */
    ST_FIND_LOOP,
    ST_NEXT_ROOTS,
    ST_LOOP_HASH,
    ST_FIND_LOOP_HASH,
    ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
    [ST_LOOPS] =
        "SELECT s.loop_id, s.file, s.line, s.col, s.function, s.depth, s.parent_line, s.iv,"
        " s.trip, s.pragmas, s.idioms, s.algorithm_class, s.parallel, s.coalescing,"
        " s.cycles_per_iter",    /* then the facts: loops_stmt() */
    [ST_LOOPS_FROM] =
        " FROM loop_summary s JOIN loops l ON l.id = s.loop_id"
        " WHERE (?1 IS NULL OR CASE ?2"
        "   WHEN 0 THEN s.file = ?1"
        "   WHEN 1 THEN s.file = ?1 OR (length(s.file) > length(?1)"
        "     AND substr(s.file, -length(?1)) = ?1 AND substr(s.file, -length(?1) - 1, 1) = '/')"
        "   ELSE instr(s.file, ?1) > 0 END)"
        " AND (?3 IS NULL OR s.function = ?3)"
        " AND (?4 = 0 OR s.line = ?4) AND (?5 = 0 OR s.col = ?5)"
        " ORDER BY s.file, s.line, s.col, s.loop_id",
    [ST_LOOP] =
        "SELECT l.id, l.tu_id, t.path, t.status, l.function_id, f.name, f.file, f.line,"
        " l.parent_id, p.line, p.col, l.file, l.line, l.col, l.end_line, l.depth, l.kind,"
        " l.canonical, l.iv, el.text, eu.text, l.step, et.text, l.pragmas,"
        " l.n_if, l.n_break, l.n_continue, l.n_goto, l.n_return,"
        " l.cycles_per_iter,"
        " l.gpu_map, l.gpu_collapse, l.gpu_teams, l.gpu_threads, l.region_line,"
        " t.variant, t.hash, t.object",   /* then the facts: loop_sql() */
    [ST_CHILDREN] = "SELECT id, line, col FROM loops WHERE parent_id = ?1 ORDER BY line, col, id",
    [ST_STMTS] =
        "SELECT id, line, col, text, conditional, fadd, fmul, fdiv, ffma, fmath,"
        " iadd, imul, idiv, cmp, calls FROM statements WHERE loop_id = ?1"
        " ORDER BY line, col, id",
    [ST_ACCESSES] =
        "SELECT id, array, elem_size, is_write, ndims, nextents, affine, line, col"
        " FROM accesses WHERE stmt_id = ?1 ORDER BY id",
    [ST_DIMS] =          /* an access's subscripts (0) and extents (1) */
        "SELECT 0, s.dim, e.text FROM access_subscripts s"
        " LEFT JOIN expressions e ON e.id = s.expr_id WHERE s.access_id = ?1"
        " UNION ALL SELECT 1, s.dim, e.text FROM access_extents s"
        " LEFT JOIN expressions e ON e.id = s.expr_id WHERE s.access_id = ?1",
    [ST_SCALARS] = "SELECT name, is_write, line, col FROM scalars WHERE stmt_id = ?1 ORDER BY id",
    [ST_SEL_STRIDE] =
        "SELECT l.line, s.stride, s.class, s.inner_stride, s.inner_class, s.false_sharing"
        " FROM access_strides s JOIN loops l ON l.id = s.thread_loop_id"
        " WHERE s.access_id = ?1 ORDER BY l.line LIMIT 1",
    [ST_SEL_DEP] = "SELECT verdict, reason FROM loop_dependences WHERE loop_id = ?1",
    [ST_FIND_LOOP] =
        /* a range on col, not (?3 = 0 OR col = ?3): with the index
         * loops_file_line_col one seek, however many loops share the line */
        /* ... and of several build variants the one whose hash is ?4 */
        "SELECT l.id FROM loops l JOIN translation_units t ON t.id = l.tu_id"
        " WHERE l.file = ?1 AND l.line = ?2"
        " AND l.col BETWEEN ?3 AND CASE WHEN ?3 = 0 THEN 2147483647 ELSE ?3 END"
        " ORDER BY l.col, coalesce(t.hash = ?4, 0) DESC, l.id LIMIT 1",
    [ST_NEXT_ROOTS] =
        "SELECT l.line, l.col FROM loops l JOIN translation_units t ON t.id = l.tu_id"
        " WHERE l.file = ?1 AND l.parent_id IS NULL"
        " AND (l.line > ?2 OR (l.line = ?2 AND l.col > ?3)) AND (?5 IS NULL OR t.hash = ?5)"
        " ORDER BY l.line, l.col LIMIT ?4",
    [ST_LOOP_HASH] =
        "SELECT t.hash FROM loops l JOIN translation_units t ON t.id = l.tu_id WHERE l.id = ?1",
    [ST_FIND_LOOP_HASH] =
        /* the few translation units of one build hash, their loops by loops_tu */
        "SELECT l.id FROM translation_units t JOIN loops l ON l.tu_id = t.id"
        " WHERE t.hash = ?4 AND l.line = ?2"
        " AND l.col BETWEEN ?3 AND CASE WHEN ?3 = 0 THEN 2147483647 ELSE ?3 END"
        " AND (l.file = ?1 OR (length(l.file) > length(?1)"
        "   AND substr(l.file, -length(?1)) = ?1 AND substr(l.file, -length(?1) - 1, 1) = '/'))"
        " ORDER BY l.col, l.id LIMIT 1",
};

/* ---- errors -------------------------------------------------------------- */

/* "<path>: <what>: <sqlite message>" for an SQLite failure on d (for
 * every file of db/, through db_private.h). */
int db_fail_sql_(db *d, const char *what, char *err, size_t errlen)
{
    int rc = sqlite3_errcode(d->h);
    if (rc == SQLITE_NOTADB)
        return ku_fail(err, errlen, "%s: file is not a database", d->path);
    if (rc == SQLITE_CORRUPT)
        return ku_fail(err, errlen, "%s: database disk image is malformed", d->path);
    if (rc == SQLITE_READONLY)
        return ku_fail(err, errlen, "%s: %s: database is read-only", d->path, what);
    if (rc == SQLITE_CANTOPEN && sqlite3_system_errno(d->h))
        return ku_fail(err, errlen, "%s: %s: cannot open the database or its journal: %s",
                    d->path, what, strerror(sqlite3_system_errno(d->h)));
    return ku_fail(err, errlen, "%s: %s: %s", d->path, what, sqlite3_errmsg(d->h));
}

void db_nap_ms_(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

double db_now_s_(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- statements ---------------------------------------------------------- */

/* Set when db_bind_text_ could not copy its text (SQLITE_NOMEM): the
 * parameter then stays NULL, and a statement run with it would delete or
 * write the wrong rows.  db_stmt_ clears it as a statement is taken up,
 * db_run_ fails when it is set.  Per thread, as statements are used. */
static _Thread_local int bind_failed;

sqlite3_stmt *db_stmt_(db *d, const char *sql, char *err, size_t errlen)
{
    bind_failed = 0;     /* a new use of a statement: its binds come next */
    int i = 0;
    while (i < d->nstmt && d->stmt[i].sql != sql)
        i++;
    if (i < d->nstmt)
        return d->stmt[i].st;
    if (i == DB_STMT_CACHE) {
        ku_fail(err, errlen, "%s: prepare: statement cache full", d->path);
        return NULL;
    }
    if (sqlite3_prepare_v3(d->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &d->stmt[i].st, NULL)
        != SQLITE_OK) {
        db_fail_sql_(d, "prepare", err, errlen);
        sqlite3_finalize(d->stmt[i].st);
        d->stmt[i].st = NULL;
        return NULL;
    }
    d->stmt[i].sql = sql;
    d->nstmt++;
    return d->stmt[i].st;
}

/* The cached statement `which` of this file's table. */
static sqlite3_stmt *get(db *d, int which, char *err, size_t errlen)
{
    return db_stmt_(d, stmt_sql[which], err, errlen);
}

/* Reset st and drop its bindings so it holds no locks or copies. */
void db_done_(sqlite3_stmt *st)
{
    if (st) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
    }
}

/* Bind a text, NULL binding NULL. */
void db_bind_text_(sqlite3_stmt *st, int i, const char *s)
{
    int rc = s ? sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i);
    if (rc != SQLITE_OK)
        bind_failed = 1;
}

/* Bind an id, 0 meaning NULL. */
void db_bind_id_(sqlite3_stmt *st, int i, int64_t id)
{
    if (id)
        sqlite3_bind_int64(st, i, id);
    else
        sqlite3_bind_null(st, i);
}

/* Step a statement that returns no rows; reset it either way. */
int db_run_(db *d, sqlite3_stmt *st, const char *what, char *err, size_t errlen)
{
    if (bind_failed) {
        bind_failed = 0;
        db_done_(st);
        return ku_fail(err, errlen, "%s: %s: out of memory", d->path, what);
    }
    int rc = sqlite3_step(st);
    int r = 0;
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        r = db_fail_sql_(d, what, err, errlen);
    db_done_(st);
    return r;
}

/* db_run_(), then the new row's id into *id (when id is not NULL). */
int db_insert_(db *d, sqlite3_stmt *st, const char *what, int64_t *id, char *err,
               size_t errlen)
{
    if (db_run_(d, st, what, err, errlen))
        return -1;
    if (id)
        *id = sqlite3_last_insert_rowid(d->h);
    return 0;
}

/* The cached statement `which` with ?1 bound to id; NULL with a message. */
static sqlite3_stmt *get_id(db *d, int which, int64_t id, char *err, size_t errlen)
{
    sqlite3_stmt *st = get(d, which, err, errlen);
    if (st)
        sqlite3_bind_int64(st, 1, id);
    return st;
}

/* Step a statement that returns at most one row: 0 on that row (read it,
 * then db_done_(st)); 1 when there is none and -1 with a message, st reset. */
int db_step_row_(db *d, sqlite3_stmt *st, const char *what, char *err, size_t errlen)
{
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        return 0;
    int r = rc == SQLITE_DONE ? 1 : db_fail_sql_(d, what, err, errlen);
    db_done_(st);
    return r;
}

/* Run constant SQL (no values in it) outside the statement cache. */
int db_exec_(db *d, const char *sql, const char *what, char *err, size_t errlen)
{
    if (sqlite3_exec(d->h, sql, NULL, NULL, NULL) != SQLITE_OK)
        return db_fail_sql_(d, what, err, errlen);
    return 0;
}

/* ---- open ---------------------------------------------------------------- */

/* Classify the open file: FILE_FRESH (no schema at all), FILE_KEEL with its
 * *version, or FILE_FOREIGN.  -1 when it cannot be read.  One statement,
 * so one snapshot: separate queries could see another process's schema
 * creation half-way (user_version 0 but tables present). */
int db_classify_h_(sqlite3 *h, int *version)
{
    static const char sql[] =
        "SELECT (SELECT user_version FROM pragma_user_version),"
        " (SELECT count(*) FROM sqlite_master),"
        " (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'keel_meta')";
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_reset(st);       /* keep SQLite's message past the finalize */
        sqlite3_finalize(st);
        return -1;
    }
    int64_t v = sqlite3_column_int64(st, 0);
    int64_t ntables = sqlite3_column_int64(st, 1);
    int64_t has_meta = sqlite3_column_int64(st, 2);
    sqlite3_finalize(st);
    *version = (int)v;
    if (v == 0)
        return ntables == 0 ? FILE_FRESH : FILE_FOREIGN;
    return has_meta ? FILE_KEEL : FILE_FOREIGN;
}

int db_classify_(db *d, int *version, char *err, size_t errlen)
{
    int kind = db_classify_h_(d->h, version);
    return kind < 0 ? db_fail_sql_(d, "read schema", err, errlen) : kind;
}

int db_check_version_(const char *path, int readonly, int kind, int version, char *err,
                      size_t errlen)
{
    if (kind == FILE_FOREIGN || (kind == FILE_FRESH && readonly))
        return ku_fail(err, errlen, "%s: not a keel database", path);
    if (kind == FILE_KEEL && version > DB_SCHEMA_VERSION)
        return ku_fail(err, errlen, "%s: database schema version %d is newer than this keel (%d)",
                    path, version, DB_SCHEMA_VERSION);
    if (kind == FILE_KEEL && version < DB_SCHEMA_VERSION && readonly)
        return ku_fail(err, errlen, "%s: database schema version %d is older than this keel (%d);"
                    " recompile with keelcc to migrate it", path, version, DB_SCHEMA_VERSION);
    return 0;
}

int db_check_kind_(db *d, int kind, int version, char *err, size_t errlen)
{
    return db_check_version_(d->path, d->mode == DB_READONLY, kind, version, err, errlen);
}

void db_rollback_(db *d)
{
    for (int i = 0; i < d->nstmt; i++)
        sqlite3_reset(d->stmt[i].st);
    if (!sqlite3_get_autocommit(d->h))
        sqlite3_exec(d->h, "ROLLBACK", NULL, NULL, NULL);
}

/* Why a file cannot be created at path: the errno of access() on its
 * folder, or e when the folder looks fine. */
static int dir_errno(const char *path, int e)
{
    char *dir = strdup(path), *slash;
    if (!dir)
        return e;
    slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = 0;
    else
        *slash = 0;
    if (access(dir, W_OK | X_OK) != 0)
        e = errno;
    free(dir);
    return e;
}

/* Whether nobody can write beside path: a read-only filesystem, or a
 * folder this process cannot write.  A WAL database there cannot get the
 * -shm file a reader needs, but nothing can change it either. */
static int read_only_place(const char *path)
{
    struct statvfs fs;
    if (statvfs(path, &fs) == 0 && (fs.f_flag & ST_RDONLY))
        return 1;
    return dir_errno(path, 0) != 0;
}

/* Open path read-only as immutable (SQLite takes no locks and needs no
 * -shm): for databases on read-only media only.  The path goes in a URI,
 * with the characters a URI gives a meaning to escaped. */
static int open_immutable(const char *path, sqlite3 **h)
{
    size_t n = strlen(path);
    char *uri = malloc(3 * n + 32), *q = uri;
    if (!uri)
        return SQLITE_NOMEM;
    q += sprintf(q, "file:");
    for (const char *c = path; *c; c++)
        q += (*c == '%' || *c == '?' || *c == '#') ? sprintf(q, "%%%02X", (unsigned char)*c)
                                                  : (*q = *c, 1);
    strcpy(q, "?immutable=1");
    int rc = sqlite3_open_v2(uri, h, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                             NULL);
    free(uri);
    return rc;
}

int db_open_file_(const char *path, int mode, db **out, int *kind_out, char *err,
                  size_t errlen)
{
    struct stat sb;
    int exists, kind, version;
    db *d;

    *out = NULL;
    if (!path || !*path)
        return ku_fail(err, errlen, "empty database path");
    if (mode != DB_READONLY && mode != DB_WRITE)
        return ku_fail(err, errlen, "%s: bad open mode %d", path, mode);
    exists = stat(path, &sb) == 0;
    if (!exists && (errno != ENOENT || mode == DB_READONLY))
        return ku_fail(err, errlen, "%s: %s", path,
                    errno == ENOENT ? "no such file" : strerror(errno));
    if (exists && S_ISDIR(sb.st_mode))
        return ku_fail(err, errlen, "%s: is a directory", path);
    /* a FIFO would block the open for ever, a device node would get a
     * journal created beside it (/dev/null-journal) */
    if (exists && !S_ISREG(sb.st_mode))
        return ku_fail(err, errlen, "%s: not a regular file", path);

    d = calloc(1, sizeof *d);
    if (!d || !(d->path = strdup(path))) {
        free(d);
        return ku_fail(err, errlen, "%s: out of memory", path);
    }
    d->mode = mode;
    /* NOMUTEX: a db is used from one thread at a time (db.h), so SQLite
     * need not lock the connection around every call (a tenth of the
     * runtime's time reading a nest) */
    int flags = (mode == DB_WRITE ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                  : SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &d->h, flags, NULL) != SQLITE_OK) {
        int e = d->h ? sqlite3_system_errno(d->h) : 0;
        if (!exists)    /* SQLite's last errno may be from a fallback try */
            e = dir_errno(path, e);
        ku_fail(err, errlen, "%s: cannot %s: %s", path,
             exists ? "open" : "create database", e ? strerror(e) : "unable to open database file");
        goto fail;
    }
    /* A read-only file opened for writing silently opens read-only. */
    if (mode == DB_WRITE && sqlite3_db_readonly(d->h, "main") == 1) {
        ku_fail(err, errlen, "%s: cannot open for writing: file is read-only", path);
        goto fail;
    }
    sqlite3_busy_timeout(d->h, 30000);
    /* (a reader never writes: no foreign keys to enforce) */
    if (mode == DB_WRITE && db_exec_(d, "PRAGMA foreign_keys = ON", "open", err, errlen))
        goto fail;
    kind = db_classify_(d, &version, err, errlen);
    /* a WAL database on read-only media: SQLite cannot create its -shm */
    if (kind < 0 && mode == DB_READONLY && sqlite3_errcode(d->h) == SQLITE_CANTOPEN &&
        read_only_place(path)) {
        sqlite3_close_v2(d->h);
        d->h = NULL;
        if (open_immutable(path, &d->h) != SQLITE_OK) {
            ku_fail(err, errlen, "%s: cannot open on read-only media", path);
            goto fail;
        }
        kind = db_classify_(d, &version, err, errlen);
    }
    if (kind < 0 || db_check_kind_(d, kind, version, err, errlen))
        goto fail;
    d->version = version;
    *kind_out = kind;
    *out = d;
    return 0;
fail:
    db_close(d);
    return -1;
}

int db_open_read(const char *path, db **out, char *err, size_t errlen)
{
    int kind;
    return db_open_file_(path, DB_READONLY, out, &kind, err, errlen);
}

/* ---- the per-loop facts (loop_facts.h) --------------------------------- */

#define FACT_NAME_(name, show) #name,
const char *const db_loop_fact_names[DB_NLOOP_FACTS] = { DB_LOOP_FACTS(FACT_NAME_) };
#undef FACT_NAME_
#define FACT_SHOW_(name, show) show,
const char *const db_loop_fact_show[DB_NLOOP_FACTS] = { DB_LOOP_FACTS(FACT_SHOW_) };
#undef FACT_SHOW_

const char *db_loop_fact(const db_loop_info *l, int k)
{
    switch (k) {
#define FACT_CASE_(name, show) case DB_LOOP_FACT_##name: return l->name;
    DB_LOOP_FACTS(FACT_CASE_)
#undef FACT_CASE_
    }
    return NULL;
}

/* Which fact columns the loops table has, from the connection's parsed
 * schema (sqlite3_table_column_metadata: no statement to prepare, unlike
 * pragma_table_info, which cost a first call as much as a nest's rows).
 * A database without a loops table has none. */
int db_loop_fact_columns_(db *d, unsigned char *have, char *err, size_t errlen)
{
    memset(have, 0, DB_NLOOP_FACTS);
    for (int k = 0; k < DB_NLOOP_FACTS; k++) {
        int rc = sqlite3_table_column_metadata(d->h, "main", "loops", db_loop_fact_names[k],
                                               NULL, NULL, NULL, NULL, NULL);
        if (rc == SQLITE_OK)
            have[k] = 1;
        else if (rc != SQLITE_ERROR)     /* SQLITE_ERROR: no such table or column */
            return db_fail_sql_(d, "read the loops columns", err, errlen);
    }
    return 0;
}

void db_close(db *d)
{
    if (!d)
        return;
    if (d->h) {
        db_rollback_(d);
        for (int i = 0; i < d->nstmt; i++)
            sqlite3_finalize(d->stmt[i].st);
        sqlite3_close_v2(d->h);
    }
    free(d->loop_sql);
    free(d->loops_sql);
    free(d->path);
    free(d);
}

int db_schema_version(db *d)
{
    return d ? d->version : 0;
}

/* ---- reader -------------------------------------------------------------- */

static const char *col_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

int db_find_loop(db *d, const char *file, int line, int col, int64_t *id,
                 char *err, size_t errlen)
{
    return db_find_loop_build(d, file, line, col, NULL, id, err, errlen);
}

/* One row of statement `which` (ST_FIND_LOOP or ST_FIND_LOOP_HASH), whose
 * parameters are (path or tail, line, col, hash): the loop's id in *id. */
static int find_loop_with(db *d, int which, const char *file, int line, int col,
                          const char *hash, int64_t *id, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    int rc;
    *id = 0;
    if (!(st = get(d, which, err, errlen)))
        return -1;
    db_bind_text_(st, 1, file);
    sqlite3_bind_int(st, 2, line);
    sqlite3_bind_int(st, 3, col);
    db_bind_text_(st, 4, hash);
    if ((rc = db_step_row_(d, st, "read loops", err, errlen)) == 0) {
        *id = sqlite3_column_int64(st, 0);
        db_done_(st);
    }
    return rc;
}

int db_find_loop_build(db *d, const char *file, int line, int col, const char *hash,
                       int64_t *id, char *err, size_t errlen)
{
    return find_loop_with(d, ST_FIND_LOOP, file, line, col, hash, id, err, errlen);
}

int db_find_loop_hash(db *d, const char *tail, int line, int col, const char *hash,
                      int64_t *id, char *err, size_t errlen)
{
    return find_loop_with(d, ST_FIND_LOOP_HASH, tail, line, col, hash, id, err, errlen);
}

int db_loop_source_hash(db *d, int64_t loop_id, char *out, size_t n, char *err, size_t errlen)
{
    sqlite3_stmt *st = get_id(d, ST_LOOP_HASH, loop_id, err, errlen);
    int r = st ? db_step_row_(d, st, "read translation unit", err, errlen) : -1;
    if (r == 0) {
        const char *h = col_text(st, 0);
        snprintf(out, n, "%s", h ? h : "");
        db_done_(st);
    }
    return r;
}

int db_next_roots(db *d, const char *file, int line, int col, const char *hash, int max,
                  int *lines, int *cols, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    int n = 0, rc = SQLITE_DONE;
    if (!(st = get(d, ST_NEXT_ROOTS, err, errlen)))
        return -1;
    db_bind_text_(st, 1, file);
    sqlite3_bind_int(st, 2, line);
    sqlite3_bind_int(st, 3, col);
    sqlite3_bind_int(st, 4, max);
    db_bind_text_(st, 5, hash);
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        lines[n] = sqlite3_column_int(st, 0);
        cols[n++] = sqlite3_column_int(st, 1);
    }
    if (n < max && rc != SQLITE_DONE)
        n = db_fail_sql_(d, "read loops", err, errlen);
    db_done_(st);
    return n;
}

static int facts_sql(db *d, const char *head, const char *from, char **sql, char *err,
                     size_t errlen);

int db_each_loop(db *d, const db_loop_filter *filter, db_loop_fn fn, void *ctx,
                 char *err, size_t errlen)
{
    static const db_loop_filter all;
    sqlite3_stmt *st;
    int rc, r = 0;
    if (!filter)
        filter = &all;
    if (facts_sql(d, stmt_sql[ST_LOOPS], stmt_sql[ST_LOOPS_FROM], &d->loops_sql, err, errlen)
        || !(st = db_stmt_(d, d->loops_sql, err, errlen)))
        return -1;
    db_bind_text_(st, 1, filter->file && *filter->file ? filter->file : NULL);
    sqlite3_bind_int(st, 2, filter->file_match);
    db_bind_text_(st, 3, filter->function);
    sqlite3_bind_int(st, 4, filter->line);
    sqlite3_bind_int(st, 5, filter->col);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        db_loop_summary s = {
            .loop_id = sqlite3_column_int64(st, 0),
            .file = col_text(st, 1),
            .line = sqlite3_column_int(st, 2),
            .col = sqlite3_column_int(st, 3),
            .function = col_text(st, 4),
            .depth = sqlite3_column_int(st, 5),
            .parent_line = sqlite3_column_int(st, 6),
            .iv = col_text(st, 7),
            .trip = col_text(st, 8),
            .pragmas = col_text(st, 9),
            .idioms = col_text(st, 10),
            .algorithm_class = col_text(st, 11),
            .parallel = col_text(st, 12),
            .coalescing = col_text(st, 13),
            .has_cycles = sqlite3_column_type(st, 14) != SQLITE_NULL,
            .cycles_per_iter = sqlite3_column_double(st, 14),
        };
        for (int k = 0; k < DB_NLOOP_FACTS; k++)
            s.fact[k] = col_text(st, 15 + k);
        if ((r = fn(ctx, &s)) != 0)
            break;
    }
    if (r == 0 && rc != SQLITE_DONE)
        r = db_fail_sql_(d, "read loops", err, errlen);
    db_done_(st);
    return r;
}

/* The arena behind a db_loop_info: a chain of blocks freed together. */
typedef struct block {
    struct block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} block;

typedef struct {
    block *head;
    int oom;
} arena;

static void *arena_alloc(arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!a->head || a->head->cap - a->head->used < n) {
        size_t cap = n > 8192 ? n : 8192;
        block *b = malloc(sizeof *b + cap);
        if (!b) {
            a->oom = 1;
            return NULL;
        }
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += n;
    memset(p, 0, n);
    return p;
}

/* Copy column i of st as a string (NULL stays NULL). */
static char *arena_text(arena *a, sqlite3_stmt *st, int i)
{
    const char *s = col_text(st, i);
    if (!s)
        return NULL;
    size_t n = (size_t)sqlite3_column_bytes(st, i);
    char *p = arena_alloc(a, n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

static void arena_free(block *b)
{
    while (b) {
        block *next = b->next;
        free(b);
        b = next;
    }
}

/* Room for element *n of an array of `size`-byte elements at *v (room for
 * *cap), in the arena: doubled when full (the old copy stays in the arena
 * until it is freed), so each table is read in one pass, not counted
 * first.  NULL when out of memory (a->oom). */
static void *arena_push(arena *a, void *v, int *n, int *cap, size_t size)
{
    void **pv = v;
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 4;
        void *p = arena_alloc(a, (size_t)nc * size);
        if (!p)
            return NULL;
        if (*n)
            memcpy(p, *pv, (size_t)*n * size);
        *pv = p;
        *cap = nc;
    }
    return (char *)*pv + (size_t)(*n)++ * size;
}

/* An array that stayed empty: one zeroed element, as callers expect a
 * pointer whatever the count. */
static void arena_nonempty(arena *a, void *v, size_t size)
{
    void **pv = v;
    if (!*pv)
        *pv = arena_alloc(a, size);
}

/* Read the dimension texts of one access: its subscripts into index[ndims]
 * and its extents into extent[nextents], in one statement. */
static int read_dims(db *d, arena *a, db_access_info *x, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    int rc;
    x->index = x->ndims > 0 ? arena_alloc(a, x->ndims * sizeof(char *)) : NULL;
    x->extent = x->nextents > 0 ? arena_alloc(a, x->nextents * sizeof(char *)) : NULL;
    if (a->oom)
        return 0;
    if (!(st = get_id(d, ST_DIMS, x->id, err, errlen)))
        return -1;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int ext = sqlite3_column_int(st, 0), dim = sqlite3_column_int(st, 1);
        if (dim >= 0 && dim < (ext ? x->nextents : x->ndims))
            (ext ? x->extent : x->index)[dim] = arena_text(a, st, 2);
    }
    db_done_(st);
    return rc == SQLITE_DONE ? 0 : db_fail_sql_(d, "read access", err, errlen);
}

static int read_stmt_parts(db *d, arena *a, db_stmt_info *s, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    int rc, i, cap = 0;
    if (!(st = get_id(d, ST_ACCESSES, s->id, err, errlen)))
        return -1;
    s->naccesses = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        db_access_info *x = arena_push(a, &s->accesses, &s->naccesses, &cap, sizeof *x);
        if (!x)
            break;
        x->id = sqlite3_column_int64(st, 0);
        x->array = arena_text(a, st, 1);
        x->elem_size = sqlite3_column_int(st, 2);
        x->is_write = sqlite3_column_int(st, 3);
        x->ndims = sqlite3_column_int(st, 4);
        x->nextents = sqlite3_column_int(st, 5);
        x->affine = sqlite3_column_int(st, 6);
        x->line = sqlite3_column_int(st, 7);
        x->col = sqlite3_column_int(st, 8);
    }
    db_done_(st);
    if (a->oom)
        return 0;
    if (rc != SQLITE_DONE)
        return db_fail_sql_(d, "read loop", err, errlen);
    arena_nonempty(a, &s->accesses, sizeof *s->accesses);
    for (i = 0; i < s->naccesses; i++)
        if (read_dims(d, a, &s->accesses[i], err, errlen))
            return -1;
    if (!(st = get_id(d, ST_SCALARS, s->id, err, errlen)))
        return -1;
    cap = 0;
    s->nscalars = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        db_scalar_info *x = arena_push(a, &s->scalars, &s->nscalars, &cap, sizeof *x);
        if (!x)
            break;
        x->name = arena_text(a, st, 0);
        x->is_write = sqlite3_column_int(st, 1);
        x->line = sqlite3_column_int(st, 2);
        x->col = sqlite3_column_int(st, 3);
    }
    db_done_(st);
    if (a->oom)
        return 0;
    if (rc != SQLITE_DONE)
        return db_fail_sql_(d, "read loop", err, errlen);
    arena_nonempty(a, &s->scalars, sizeof *s->scalars);
    return 0;
}

/* Fill l (already holding its scalar fields) with children and statements. */
static int read_loop_parts(db *d, arena *a, db_loop_info *l, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    int rc, i, cap = 0;
    if (!(st = get_id(d, ST_CHILDREN, l->id, err, errlen)))
        return -1;
    l->nchildren = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        db_loop_ref *c = arena_push(a, &l->children, &l->nchildren, &cap, sizeof *c);
        if (!c)
            break;
        c->id = sqlite3_column_int64(st, 0);
        c->line = sqlite3_column_int(st, 1);
        c->col = sqlite3_column_int(st, 2);
    }
    db_done_(st);
    if (a->oom)
        return 0;
    if (rc != SQLITE_DONE)
        return db_fail_sql_(d, "read loop", err, errlen);
    arena_nonempty(a, &l->children, sizeof *l->children);
    if (!(st = get_id(d, ST_STMTS, l->id, err, errlen)))
        return -1;
    cap = 0;
    l->nstmts = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        db_stmt_info *s = arena_push(a, &l->stmts, &l->nstmts, &cap, sizeof *s);
        if (!s)
            break;
        s->id = sqlite3_column_int64(st, 0);
        s->line = sqlite3_column_int(st, 1);
        s->col = sqlite3_column_int(st, 2);
        s->text = arena_text(a, st, 3);
        s->conditional = sqlite3_column_int(st, 4);
        s->fadd = sqlite3_column_int(st, 5);
        s->fmul = sqlite3_column_int(st, 6);
        s->fdiv = sqlite3_column_int(st, 7);
        s->ffma = sqlite3_column_int(st, 8);
        s->fmath = sqlite3_column_int(st, 9);
        s->iadd = sqlite3_column_int(st, 10);
        s->imul = sqlite3_column_int(st, 11);
        s->idiv = sqlite3_column_int(st, 12);
        s->cmp = sqlite3_column_int(st, 13);
        s->calls = arena_text(a, st, 14);
    }
    db_done_(st);
    if (a->oom)
        return 0;
    if (rc != SQLITE_DONE)
        return db_fail_sql_(d, "read loop", err, errlen);
    arena_nonempty(a, &l->stmts, sizeof *l->stmts);
    for (i = 0; i < l->nstmts; i++)
        if (read_stmt_parts(d, a, &l->stmts[i], err, errlen))
            return -1;
    return 0;
}

/* ST_LOOP's columns, then the fact columns from LOOP_FACT_COL0 on in list
 * order: the file's own column, or NULL where a database written before
 * the fact lacks it.  Built once per connection (d->loop_sql, which keys
 * the statement cache). */
enum { LOOP_FACT_COL0 = 38 };

/* head, then `, l.FACT` for each fact column of this file (NULL where it
 * lacks one), then from: malloc'd in *sql once per connection. */
static int facts_sql(db *d, const char *head, const char *from, char **sql, char *err,
                     size_t errlen)
{
    if (*sql)
        return 0;
    /* one look at the loops table's columns per connection, for both SELECTs */
    if (!d->fact_cols_read && db_loop_fact_columns_(d, d->fact_cols, err, errlen))
        return -1;
    d->fact_cols_read = 1;
    const unsigned char *have = d->fact_cols;
    size_t n = strlen(head) + strlen(from) + 1;
    for (int k = 0; k < DB_NLOOP_FACTS; k++)
        n += strlen(db_loop_fact_names[k]) + 8;
    char *s = malloc(n);
    if (!s)
        return ku_fail(err, errlen, "%s: read loop: out of memory", d->path);
    size_t at = (size_t)snprintf(s, n, "%s", head);
    for (int k = 0; k < DB_NLOOP_FACTS; k++)
        at += (size_t)snprintf(s + at, n - at, have[k] ? ", l.%s" : ", NULL",
                               db_loop_fact_names[k]);
    snprintf(s + at, n - at, "%s", from);
    *sql = s;
    return 0;
}

static sqlite3_stmt *loop_stmt(db *d, int64_t loop_id, char *err, size_t errlen)
{
    static const char from[] =
        " FROM loops l"
        " JOIN translation_units t ON t.id = l.tu_id"
        " JOIN functions f ON f.id = l.function_id"
        " LEFT JOIN loops p ON p.id = l.parent_id"
        " LEFT JOIN expressions el ON el.id = l.lower_id"
        " LEFT JOIN expressions eu ON eu.id = l.upper_id"
        " LEFT JOIN expressions et ON et.id = l.trip_id"
        " WHERE l.id = ?1";
    if (facts_sql(d, stmt_sql[ST_LOOP], from, &d->loop_sql, err, errlen))
        return NULL;
    sqlite3_stmt *st = db_stmt_(d, d->loop_sql, err, errlen);
    if (st)
        sqlite3_bind_int64(st, 1, loop_id);
    return st;
}

int db_get_loop(db *d, int64_t loop_id, db_loop_info **out, char *err, size_t errlen)
{
    arena a = { 0 };
    sqlite3_stmt *st;
    db_loop_info *l;
    int rc;

    *out = NULL;
    if (!(st = loop_stmt(d, loop_id, err, errlen)))
        return -1;
    rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        db_done_(st);
        return rc == SQLITE_DONE ? 1 : db_fail_sql_(d, "read loop", err, errlen);
    }
    /* A read transaction keeps the loop and its parts consistent. */
    if (!(l = arena_alloc(&a, sizeof *l))) {
        db_done_(st);
        return ku_fail(err, errlen, "%s: read loop: out of memory", d->path);
    }
    l->id = sqlite3_column_int64(st, 0);
    l->tu_id = sqlite3_column_int64(st, 1);
    l->tu_path = arena_text(&a, st, 2);
    l->tu_status = arena_text(&a, st, 3);
    l->function_id = sqlite3_column_int64(st, 4);
    l->function = arena_text(&a, st, 5);
    l->function_file = arena_text(&a, st, 6);
    l->function_line = sqlite3_column_int(st, 7);
    l->parent_id = sqlite3_column_int64(st, 8);
    l->parent_line = sqlite3_column_int(st, 9);
    l->parent_col = sqlite3_column_int(st, 10);
    l->file = arena_text(&a, st, 11);
    l->line = sqlite3_column_int(st, 12);
    l->col = sqlite3_column_int(st, 13);
    l->end_line = sqlite3_column_int(st, 14);
    l->depth = sqlite3_column_int(st, 15);
    l->kind = arena_text(&a, st, 16);
    l->canonical = sqlite3_column_int(st, 17);
    l->iv = arena_text(&a, st, 18);
    l->lower = arena_text(&a, st, 19);
    l->upper = arena_text(&a, st, 20);
    l->step = sqlite3_column_int64(st, 21);
    l->trip = arena_text(&a, st, 22);
    l->pragmas = arena_text(&a, st, 23);
    l->n_if = sqlite3_column_int(st, 24);
    l->n_break = sqlite3_column_int(st, 25);
    l->n_continue = sqlite3_column_int(st, 26);
    l->n_goto = sqlite3_column_int(st, 27);
    l->n_return = sqlite3_column_int(st, 28);
    l->has_cycles = sqlite3_column_type(st, 29) != SQLITE_NULL;
    l->cycles_per_iter = sqlite3_column_double(st, 29);
    l->gpu_map = arena_text(&a, st, 30);
    l->gpu_collapse = sqlite3_column_int(st, 31);
    l->gpu_teams = arena_text(&a, st, 32);
    l->gpu_threads = arena_text(&a, st, 33);
    l->region_line = sqlite3_column_int(st, 34);
    l->tu_variant = arena_text(&a, st, 35);
    l->tu_hash = arena_text(&a, st, 36);
    l->tu_object = arena_text(&a, st, 37);
    int col = LOOP_FACT_COL0;
#define READ_FACT_(name, show) l->name = arena_text(&a, st, col++);
    DB_LOOP_FACTS(READ_FACT_)
#undef READ_FACT_
    /* Keep ST_LOOP stepped (not reset) while reading the parts: its open
     * read transaction makes all of them one consistent snapshot. */
    if (read_loop_parts(d, &a, l, err, errlen)) {
        db_done_(st);
        arena_free(a.head);
        return -1;
    }
    db_done_(st);
    if (a.oom) {
        arena_free(a.head);
        return ku_fail(err, errlen, "%s: read loop: out of memory", d->path);
    }
    l->mem_ = a.head;
    *out = l;
    return 0;
}

void db_free_loop(db_loop_info *l)
{
    if (l)
        arena_free(l->mem_);
}

/* ---- IPDA rows (schema v2) ------------------------------------------------- */

static char *col_dup(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? strdup((const char *)t) : NULL;
}

int db_get_stride(db *d, int64_t access_id, int *thread_line, char **stride, char **cls,
                  char **inner_stride, char **inner_cls, int *false_sharing,
                  char *err, size_t errlen)
{
    sqlite3_stmt *st = get_id(d, ST_SEL_STRIDE, access_id, err, errlen);
    *stride = *cls = *inner_stride = *inner_cls = NULL;
    int r = st ? db_step_row_(d, st, "read stride", err, errlen) : -1;
    if (r == 0) {
        *thread_line = sqlite3_column_int(st, 0);
        *stride = col_dup(st, 1);
        *cls = col_dup(st, 2);
        *inner_stride = col_dup(st, 3);
        *inner_cls = col_dup(st, 4);
        *false_sharing = sqlite3_column_int(st, 5);
        db_done_(st);
    }
    return r;
}

int db_get_dependence(db *d, int64_t loop_id, char **verdict, char **reason,
                      char *err, size_t errlen)
{
    sqlite3_stmt *st = get_id(d, ST_SEL_DEP, loop_id, err, errlen);
    *verdict = *reason = NULL;
    int r = st ? db_step_row_(d, st, "read dependence", err, errlen) : -1;
    if (r == 0) {
        *verdict = col_dup(st, 0);
        *reason = col_dup(st, 1);
        db_done_(st);
    }
    return r;
}

/* ---- idioms, algorithm classes, counts (schema v2) ---------------------- */

/* Prepare sql, bind an int64 at ?1, and call row(ctx, texts) with the
 * first ncols (at most 16) columns of each result row as texts until it
 * returns nonzero: that value, 0 at the end, -1 with a message.  The
 * texts live until row returns. */
static int each_texts(db *d, const char *sql, const char *what, int64_t id, int ncols,
                      int (*row)(void *ctx, const char *const *texts), void *ctx,
                      char *err, size_t errlen)
{
    sqlite3_stmt *st;
    const char *t[16];
    int rc, r = 0;
    if (ncols > 16 || sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail_sql_(d, what, err, errlen);
    sqlite3_bind_int64(st, 1, id);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < ncols; i++)
            t[i] = col_text(st, i);
        if ((r = row(ctx, t)) != 0)
            break;
    }
    if (r == 0 && rc != SQLITE_DONE)
        r = db_fail_sql_(d, what, err, errlen);
    sqlite3_finalize(st);
    return r;
}

/* each_texts' row callbacks: the texts as the caller's row struct. */
typedef struct {
    db_counts_fn counts;
    db_class_fn class_;
    db_footprint_fn footprint;
    void *ctx;
} each_ctx;

static int counts_texts(void *c, const char *const *t)
{
    const each_ctx *e = c;
    db_counts_row row = {
        .scope = t[0], .fadd = t[1], .fmul = t[2], .fdiv = t[3], .ffma = t[4], .fmath = t[5],
        .flops = t[6], .iops = t[7], .loads = t[8], .stores = t[9], .bytes_read = t[10],
        .bytes_written = t[11], .intensity = t[12], .reason = t[13],
    };
    return e->counts(e->ctx, &row);
}

int db_each_counts(db *d, int64_t loop_id, db_counts_fn fn, void *ctx, char *err, size_t errlen)
{
    each_ctx e = { .counts = fn, .ctx = ctx };
    return each_texts(d, "SELECT scope, fadd, fmul, fdiv, ffma, fmath, flops, iops, loads, stores,"
                         " bytes_read, bytes_written, intensity, reason FROM loop_counts"
                         " WHERE loop_id = ?1 ORDER BY scope",
                      "read counts", loop_id, 14, counts_texts, &e, err, errlen);
}

static int class_texts(void *c, const char *const *t)
{
    const each_ctx *e = c;
    db_class_row row = { .class_text = t[0], .w = t[1], .m = t[2], .d = t[3], .c = t[4],
                         .u = t[5], .f_complexity = t[6] };
    return e->class_(e->ctx, &row);
}

int db_each_class(db *d, int64_t loop_id, db_class_fn fn, void *ctx, char *err, size_t errlen)
{
    each_ctx e = { .class_ = fn, .ctx = ctx };
    return each_texts(d, "SELECT class, w, m, d, c, u, f_complexity FROM loop_classes"
                         " WHERE loop_id = ?1",
                      "read class", loop_id, 7, class_texts, &e, err, errlen);
}

static int footprint_texts(void *c, const char *const *t)
{
    const each_ctx *e = c;
    db_footprint_row row = { .array = t[0], .bytes_read = t[1], .bytes_written = t[2] };
    return e->footprint(e->ctx, &row);
}

int db_each_footprint(db *d, int64_t loop_id, db_footprint_fn fn, void *ctx, char *err,
                      size_t errlen)
{
    each_ctx e = { .footprint = fn, .ctx = ctx };
    return each_texts(d, "SELECT array, bytes_read, bytes_written FROM loop_footprints"
                         " WHERE loop_id = ?1 ORDER BY array",
                      "read footprints", loop_id, 3, footprint_texts, &e, err, errlen);
}

int db_each_idiom(db *d, const char *file, db_idiom_fn fn, void *ctx,
                  char *err, size_t errlen)
{
    sqlite3_stmt *st;
    int rc, r = 0;
    if (sqlite3_prepare_v2(d->h,
            "SELECT l.file, i.line, f.name, i.idiom, i.code, i.evidence, l.line"
            " FROM idiom_instances i JOIN loops l ON l.id = i.loop_id"
            " JOIN functions f ON f.id = l.function_id"
            " WHERE ?1 IS NULL OR l.file = ?1 OR (length(l.file) > length(?1)"
            "   AND substr(l.file, -length(?1)) = ?1 AND substr(l.file, -length(?1) - 1, 1) = '/')"
            " ORDER BY l.file, i.line, i.col, i.idiom, i.id", -1, &st, NULL) != SQLITE_OK)
        return db_fail_sql_(d, "report", err, errlen);
    db_bind_text_(st, 1, file && *file ? file : NULL);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        db_idiom_info row = {
            .file = col_text(st, 0), .line = sqlite3_column_int(st, 1),
            .function = col_text(st, 2), .idiom = col_text(st, 3),
            .code = col_text(st, 4), .evidence = col_text(st, 5),
            .loop_line = sqlite3_column_int(st, 6),
        };
        if ((r = fn(ctx, &row)) != 0)
            break;
    }
    if (r == 0 && rc != SQLITE_DONE)
        r = db_fail_sql_(d, "report", err, errlen);
    sqlite3_finalize(st);
    return r;
}

/* ---- for db/ modules beside this file (db_private.h) ---------------------- */

sqlite3 *db_sqlite_(db *d) { return d->h; }
int db_writable_(db *d) { return d->mode == DB_WRITE; }
const char *db_path_(db *d) { return d->path; }
