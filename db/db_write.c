/*
 * db_write.c -- keelcc's store of the program attribute database: open for
 * writing (checks, WAL, migrations), translation units and their rows (the
 * writer library, keel_db, which keelcc and the keel tool link; libkeelrt
 * does not).
 *
 * Opening for writing.  db_open goes through the reader's db_open_file_
 * (db.c), then checks a keel file (quick_check: never write into a
 * damaged one), switches the file to WAL (retrying while another process
 * holds a lock) and, when the schema is missing or old, runs the
 * migrations of schema.c inside BEGIN IMMEDIATE after classifying again
 * under the lock, so concurrent first opens create the schema exactly
 * once.
 *
 * Writing.  db_begin_tu takes the write lock (BEGIN IMMEDIATE), deletes
 * the row of the same path (ON DELETE CASCADE removes everything under
 * it) and inserts the new one; the db_add_* calls insert child rows and
 * db_commit_tu / db_rollback_tu end it.  Expressions are interned per TU:
 * the same text within one TU is stored once.  Statements go through the
 * connection's cache (db_stmt_), values are always bound.
 */
#include "db.h"
#include "db_private.h"
#include "util.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef KEEL_VERSION
#define KEEL_VERSION "unknown"
#endif

extern const char *const db_migrations[];
extern const int db_nmigrations;

enum {
    ST_BEGIN, ST_COMMIT, ST_ROLLBACK,
    ST_DEL_TU, ST_PRUNE_TU, ST_INS_TU, ST_INS_FUNC, ST_INS_LOOP, ST_SEL_EXPR, ST_INS_EXPR,
    ST_INS_STMT, ST_INS_ACCESS, ST_INS_SUB, ST_INS_EXT, ST_INS_SCALAR,
    ST_SET_FACTS,
    ST_INS_STRIDE, ST_INS_DEP,   /* IPDA, schema v2 */
    ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    /* the same build variant, or rows from before variants; a row
     * without a variant replaces them all.  Another variant written to the
     * same object is kept: a program linked from the object before it was
     * rewritten (one build class after another into one object name) still
     * finds its build's rows */
    [ST_DEL_TU] = "DELETE FROM translation_units WHERE path = ?1"
                  " AND (?2 IS NULL OR variant IS NULL OR variant = ?2)",
    [ST_PRUNE_TU] = "DELETE FROM translation_units WHERE id IN (SELECT id FROM translation_units"
                    " WHERE path = ?1 ORDER BY id DESC LIMIT -1 OFFSET ?2)",
    [ST_INS_TU] =
        "INSERT INTO translation_units(path, hash, args, compiler, directory, status, message,"
        " variant, object)"
        " VALUES (?1, ?2, ?3, ?4, ?5, coalesce(?6, 'ok'), ?7, ?8, ?9)",
    [ST_INS_FUNC] = "INSERT INTO functions(tu_id, name, file, line, col) VALUES (?1, ?2, ?3, ?4, ?5)",
    [ST_INS_LOOP] =
        "INSERT INTO loops(tu_id, function_id, parent_id, file, line, col, end_line, depth,"
        " kind, canonical, iv, lower_id, upper_id, step, trip_id, pragmas,"
        " n_if, n_break, n_continue, n_goto, n_return,"
        " gpu_map, gpu_collapse, gpu_teams, gpu_threads, region_line)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,"
        " ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)",
    [ST_SEL_EXPR] = "SELECT id FROM expressions WHERE tu_id = ?1 AND text = ?2",
    [ST_INS_EXPR] = "INSERT INTO expressions(tu_id, text, affine) VALUES (?1, ?2, ?3)",
    [ST_INS_STMT] =
        "INSERT INTO statements(loop_id, line, col, text, conditional, fadd, fmul, fdiv,"
        " ffma, fmath, iadd, imul, idiv, cmp, calls)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    [ST_INS_ACCESS] =
        "INSERT INTO accesses(stmt_id, array, elem_size, is_write, ndims, nextents, affine,"
        " line, col) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    [ST_INS_SUB] = "INSERT INTO access_subscripts(access_id, dim, expr_id) VALUES (?1, ?2, ?3)",
    [ST_INS_EXT] = "INSERT INTO access_extents(access_id, dim, expr_id) VALUES (?1, ?2, ?3)",
    [ST_INS_SCALAR] =
        "INSERT INTO scalars(stmt_id, name, is_write, line, col) VALUES (?1, ?2, ?3, ?4, ?5)",
    /* ?1 the loop, ?2 cycles_per_iter, ?3... the facts in list order */
#define SET_FACT_(name, show) ", " #name " = coalesce(?, " #name ")"
    [ST_SET_FACTS] =
        "UPDATE loops SET cycles_per_iter = coalesce(?2, cycles_per_iter)"
        DB_LOOP_FACTS(SET_FACT_) " WHERE id = ?1",
#undef SET_FACT_
    [ST_INS_STRIDE] =
        "INSERT INTO access_strides(access_id, thread_loop_id, stride, class, inner_stride,"
        " inner_class, false_sharing) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    [ST_INS_DEP] = "INSERT INTO loop_dependences(loop_id, verdict, reason) VALUES (?1, ?2, ?3)",
};

/* The cached statement `which` of this file's table. */
static sqlite3_stmt *get(db *d, int which, char *err, size_t errlen)
{
    return db_stmt_(d, stmt_sql[which], err, errlen);
}

/* The cached statement `which` with ?1 bound to id; NULL with a message. */
static sqlite3_stmt *get_id(db *d, int which, int64_t id, char *err, size_t errlen)
{
    sqlite3_stmt *st = get(d, which, err, errlen);
    if (st)
        sqlite3_bind_int64(st, 1, id);
    return st;
}

/* ---- open for writing ------------------------------------------------------ */

/* Switch to WAL.  Changing the journal mode needs an exclusive lock, which
 * other processes may hold; retry on SQLITE_BUSY for up to 30 s. */
static int set_wal(db *d, char *err, size_t errlen)
{
    double deadline = db_now_s_() + 30;
    for (;;) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(d->h, "PRAGMA journal_mode = WAL", -1, &st, NULL) != SQLITE_OK)
            return db_fail_sql_(d, "set WAL mode", err, errlen);
        int rc = sqlite3_step(st);
        int wal = rc == SQLITE_ROW &&
                  sqlite3_stricmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
        if (rc != SQLITE_ROW && rc != SQLITE_BUSY && rc != SQLITE_LOCKED) {
            sqlite3_finalize(st);
            return db_fail_sql_(d, "set WAL mode", err, errlen);
        }
        sqlite3_finalize(st);
        if (wal)
            return 0;
        if (db_now_s_() > deadline)
            return ku_fail(err, errlen, "%s: cannot switch to WAL mode: database is locked", d->path);
        db_nap_ms_(10);
    }
}

/* BEGIN IMMEDIATE.  The busy timeout covers most waits; a few lock paths
 * return SQLITE_BUSY at once, so retry those too. */
static int begin(db *d, char *err, size_t errlen)
{
    double deadline = db_now_s_() + 30;
    sqlite3_stmt *st = get(d, ST_BEGIN, err, errlen);
    if (!st)
        return -1;
    for (;;) {
        int rc = sqlite3_step(st);
        db_done_(st);
        if (rc == SQLITE_DONE)
            return 0;
        if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || db_now_s_() > deadline)
            return db_fail_sql_(d, "begin transaction", err, errlen);
        db_nap_ms_(10);
    }
}

static int migrate_locked(db *d, char *err, size_t errlen);

/* Create or migrate the schema under the write lock, with foreign keys off
 * (a migration may rebuild a parent table, SQLite's 12-step procedure: a
 * DROP with foreign keys on would cascade into its children; the pragma
 * is a no-op inside a transaction, hence here). */
static int migrate(db *d, char *err, size_t errlen)
{
    if (db_exec_(d, "PRAGMA foreign_keys = OFF", "migrate schema", err, errlen))
        return -1;
    int r = migrate_locked(d, err, errlen);
    if (db_exec_(d, "PRAGMA foreign_keys = ON", "migrate schema", r ? NULL : err, errlen))
        r = -1;
    return r;
}

static int migrate_locked(db *d, char *err, size_t errlen)
{
    int version, kind;
    if (begin(d, err, errlen))
        return -1;
    kind = db_classify_(d, &version, err, errlen);   /* again: someone may have been first */
    if (kind < 0 || db_check_kind_(d, kind, version, err, errlen))
        goto fail;
    if (kind == FILE_FRESH)
        version = 0;
    if (version < DB_SCHEMA_VERSION) {
        for (int v = version; v < db_nmigrations; v++)
            if (db_exec_(d, db_migrations[v], "migrate schema", err, errlen))
                goto fail;
        sqlite3_stmt *st;
        static const char meta[] = "INSERT INTO keel_meta(key, value) VALUES (?1, ?2)"
                                   " ON CONFLICT(key) DO UPDATE SET value = excluded.value"
                                   " WHERE ?3";
        if (sqlite3_prepare_v2(d->h, meta, -1, &st, NULL) != SQLITE_OK) {
            db_fail_sql_(d, "migrate schema", err, errlen);
            goto fail;
        }
        char vbuf[16];
        snprintf(vbuf, sizeof vbuf, "%d", DB_SCHEMA_VERSION);
        struct { const char *k, *v; int replace; } rows[] = {
            { "schema_version", vbuf, 1 },
            { "created_by", "keel " KEEL_VERSION, 0 },
            { "migrated_by", "keel " KEEL_VERSION, 1 },
        };
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            if (i == 2 && version == 0)
                continue;
            sqlite3_bind_text(st, 1, rows[i].k, -1, SQLITE_STATIC);
            sqlite3_bind_text(st, 2, rows[i].v, -1, SQLITE_STATIC);
            sqlite3_bind_int(st, 3, rows[i].replace);
            if (sqlite3_step(st) != SQLITE_DONE) {
                db_fail_sql_(d, "migrate schema", err, errlen);
                sqlite3_finalize(st);
                goto fail;
            }
            sqlite3_reset(st);
        }
        sqlite3_finalize(st);
    }
    /* the rebuilt tables must still satisfy every reference */
    if (version < DB_SCHEMA_VERSION && kind != FILE_FRESH) {
        sqlite3_stmt *fk;
        if (sqlite3_prepare_v2(d->h, "PRAGMA foreign_key_check", -1, &fk, NULL) != SQLITE_OK) {
            db_fail_sql_(d, "migrate schema", err, errlen);
            goto fail;
        }
        int rc = sqlite3_step(fk);
        sqlite3_finalize(fk);
        if (rc != SQLITE_DONE) {
            ku_fail(err, errlen, "%s: migrate schema: %s", d->path,
                 rc == SQLITE_ROW ? "a foreign key no longer holds" : sqlite3_errmsg(d->h));
            goto fail;
        }
    }
    if (db_exec_(d, "COMMIT", "migrate schema", err, errlen))
        goto fail;
    d->version = DB_SCHEMA_VERSION;
    return 0;
fail:
    db_rollback_(d);
    return -1;
}

/* PRAGMA quick_check (every page and record, not the index contents):
 * 0 when the file is sound, else -1 with its first complaint. */
static int quick_check(db *d, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(d->h, "PRAGMA quick_check(1)", -1, &st, NULL) != SQLITE_OK)
        return db_fail_sql_(d, "check integrity", err, errlen);
    int rc = sqlite3_step(st);
    const char *r = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
    int bad = !r || strcmp(r, "ok") != 0;
    if (bad && r) {
        char first[201];
        snprintf(first, sizeof first, "%s", r);
        for (char *c = first; *c; c++)
            if (*c == '\n' || *c == '\r')
                *c = ' ';
        ku_fail(err, errlen, "%s: database fails its integrity check (%s); not written", d->path,
             first);
    }
    else if (bad)
        db_fail_sql_(d, "check integrity", err, errlen);
    sqlite3_finalize(st);
    return bad ? -1 : 0;
}

/* The per-loop fact columns (loop_facts.h) a database lacks, added: a
 * fact needs no schema version of its own.  Another writer may add the
 * same column at the same moment; its "duplicate column" is no error. */
static int add_fact_columns(db *d, char *err, size_t errlen)
{
    unsigned char have[DB_NLOOP_FACTS];
    if (db_loop_fact_columns_(d, have, err, errlen))
        return -1;
    for (int k = 0; k < DB_NLOOP_FACTS; k++) {
        if (have[k])
            continue;
        char sql[128];
        snprintf(sql, sizeof sql, "ALTER TABLE loops ADD COLUMN %s TEXT", db_loop_fact_names[k]);
        if (sqlite3_exec(d->h, sql, NULL, NULL, NULL) != SQLITE_OK &&
            !strstr(sqlite3_errmsg(d->h), "duplicate column"))
            return db_fail_sql_(d, "add a loop fact column", err, errlen);
    }
    return 0;
}

int db_open(const char *path, int mode, db **out, char *err, size_t errlen)
{
    db *d;
    int kind;
    if (db_open_file_(path, mode, &d, &kind, err, errlen))
        return -1;
    int version = d->version;
    /* never write into a damaged file: SQLite notices a bad page only when
     * it reads it, so a write elsewhere would go through and bury it */
    if (mode == DB_WRITE && kind == FILE_KEEL && quick_check(d, err, errlen))
        goto fail;
    if (mode == DB_WRITE) {
        if (set_wal(d, err, errlen))
            goto fail;
        if ((kind == FILE_FRESH || version < DB_SCHEMA_VERSION) && migrate(d, err, errlen))
            goto fail;
        /* the runtime's site lookup (ST_FIND_LOOP) by file, line and
         * column: an index outside the versioned schema, so any database a
         * writer opens gets it and older keels simply ignore it */
        if (db_exec_(d, "CREATE INDEX IF NOT EXISTS loops_file_line_col ON loops(file, line, col)",
                 "create index", err, errlen))
            goto fail;
        if (add_fact_columns(d, err, errlen))
            goto fail;
    }
    *out = d;
    return 0;
fail:
    db_close(d);
    *out = NULL;
    return -1;
}

/* ---- writer -------------------------------------------------------------- */

static int need_tu(db *d, const char *what, char *err, size_t errlen)
{
    if (d->mode != DB_WRITE)
        return ku_fail(err, errlen, "%s: %s: database is open read-only", d->path, what);
    if (!d->in_tu)
        return ku_fail(err, errlen, "%s: %s: no translation unit open (db_begin_tu)", d->path, what);
    return 0;
}

/* The cached insert `which` of a TU's child row, ?1 bound to its parent's
 * id; NULL with a message when no TU is open for writing. */
static sqlite3_stmt *child_row(db *d, int which, const char *what, int64_t parent_id,
                               char *err, size_t errlen)
{
    return need_tu(d, what, err, errlen) ? NULL : get_id(d, which, parent_id, err, errlen);
}

int db_begin_tu(db *d, const db_tu_row *tu, int64_t *tu_id, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (d->mode != DB_WRITE)
        return ku_fail(err, errlen, "%s: begin translation unit: database is open read-only", d->path);
    if (d->in_tu)
        return ku_fail(err, errlen, "%s: begin translation unit: one is already open", d->path);
    if (!tu || !tu->path)
        return ku_fail(err, errlen, "%s: begin translation unit: no path", d->path);
    if (begin(d, err, errlen))
        return -1;
    if (!(st = get(d, ST_DEL_TU, err, errlen)))
        goto fail;
    db_bind_text_(st, 1, tu->path);
    db_bind_text_(st, 2, tu->variant);
    if (db_run_(d, st, "delete old translation unit", err, errlen))
        goto fail;
    if (!(st = get(d, ST_PRUNE_TU, err, errlen)))
        goto fail;
    db_bind_text_(st, 1, tu->path);
    sqlite3_bind_int(st, 2, DB_VARIANTS_PER_PATH - 1);
    if (db_run_(d, st, "delete old variants", err, errlen))
        goto fail;
    if (!(st = get(d, ST_INS_TU, err, errlen)))
        goto fail;
    db_bind_text_(st, 1, tu->path);
    db_bind_text_(st, 2, tu->hash);
    db_bind_text_(st, 3, tu->args);
    db_bind_text_(st, 4, tu->compiler);
    db_bind_text_(st, 5, tu->directory);
    db_bind_text_(st, 6, tu->status);
    db_bind_text_(st, 7, tu->message);
    db_bind_text_(st, 8, tu->variant);
    db_bind_text_(st, 9, tu->object);
    if (db_insert_(d, st, "insert translation unit", &d->tu_id, err, errlen))
        goto fail;
    d->in_tu = 1;
    if (tu_id)
        *tu_id = d->tu_id;
    return 0;
fail:
    db_rollback_(d);
    return -1;
}

int db_add_function(db *d, int64_t tu_id, const db_function_row *f, int64_t *id,
                    char *err, size_t errlen)
{
    sqlite3_stmt *st = child_row(d, ST_INS_FUNC, "add function", tu_id, err, errlen);
    if (!st)
        return -1;
    db_bind_text_(st, 2, f->name);
    db_bind_text_(st, 3, f->file);
    sqlite3_bind_int(st, 4, f->line);
    sqlite3_bind_int(st, 5, f->col);
    return db_insert_(d, st, "insert function", id, err, errlen);
}

/* Affine by the text form of expr.h: no opaque atom (they all contain '('
 * or '?'), no power, and at most one symbol per term.  Canonical text has
 * no other parentheses, so '(' anywhere means "not provably affine". */
static int text_is_affine(const char *s)
{
    int syms = 0;
    for (const char *p = s; *p; ) {
        if (*p == '(' || *p == '?' || *p == '^' || *p == '.' || *p == '/' || *p == '%')
            return 0;
        if (*p == '+' || *p == '-') {
            syms = 0;
            p++;
        } else if (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
            if (++syms > 1)
                return 0;
            while (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                   (*p >= '0' && *p <= '9'))
                p++;
        } else
            p++;
    }
    return 1;
}

/* The id of text in the current TU's expressions, inserting it when new;
 * *id = 0 for a NULL text. */
static int intern(db *d, const char *text, int64_t *id, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    *id = 0;
    if (!text)
        return 0;
    if (!(st = get_id(d, ST_SEL_EXPR, d->tu_id, err, errlen)))
        return -1;
    db_bind_text_(st, 2, text);
    int r = db_step_row_(d, st, "find expression", err, errlen);
    if (r < 0)
        return -1;
    if (r == 0) {
        *id = sqlite3_column_int64(st, 0);
        db_done_(st);
        return 0;
    }
    if (!(st = get_id(d, ST_INS_EXPR, d->tu_id, err, errlen)))
        return -1;
    db_bind_text_(st, 2, text);
    sqlite3_bind_int(st, 3, text_is_affine(text));
    return db_insert_(d, st, "insert expression", id, err, errlen);
}

int db_add_loop(db *d, int64_t function_id, const db_loop_row *l, int64_t *id,
                char *err, size_t errlen)
{
    sqlite3_stmt *st;
    int64_t lo, up, trip;
    if (need_tu(d, "add loop", err, errlen) ||
        intern(d, l->lower, &lo, err, errlen) || intern(d, l->upper, &up, err, errlen) ||
        intern(d, l->trip, &trip, err, errlen) ||
        !(st = child_row(d, ST_INS_LOOP, "add loop", d->tu_id, err, errlen)))
        return -1;
    sqlite3_bind_int64(st, 2, function_id);
    db_bind_id_(st, 3, l->parent_id);
    db_bind_text_(st, 4, l->file);
    sqlite3_bind_int(st, 5, l->line);
    sqlite3_bind_int(st, 6, l->col);
    sqlite3_bind_int(st, 7, l->end_line);
    sqlite3_bind_int(st, 8, l->depth);
    db_bind_text_(st, 9, l->kind);
    sqlite3_bind_int(st, 10, l->canonical);
    db_bind_text_(st, 11, l->iv);
    db_bind_id_(st, 12, lo);
    db_bind_id_(st, 13, up);
    sqlite3_bind_int64(st, 14, l->step);
    db_bind_id_(st, 15, trip);
    db_bind_text_(st, 16, l->pragmas);
    sqlite3_bind_int(st, 17, l->n_if);
    sqlite3_bind_int(st, 18, l->n_break);
    sqlite3_bind_int(st, 19, l->n_continue);
    sqlite3_bind_int(st, 20, l->n_goto);
    sqlite3_bind_int(st, 21, l->n_return);
    db_bind_text_(st, 22, l->gpu_map);
    sqlite3_bind_int(st, 23, l->gpu_collapse);
    db_bind_text_(st, 24, l->gpu_teams);
    db_bind_text_(st, 25, l->gpu_threads);
    sqlite3_bind_int(st, 26, l->region_line);
    return db_insert_(d, st, "insert loop", id, err, errlen);
}

int db_add_stmt(db *d, int64_t loop_id, const db_stmt_row *s, int64_t *id,
                char *err, size_t errlen)
{
    sqlite3_stmt *st = child_row(d, ST_INS_STMT, "add statement", loop_id, err, errlen);
    if (!st)
        return -1;
    sqlite3_bind_int(st, 2, s->line);
    sqlite3_bind_int(st, 3, s->col);
    db_bind_text_(st, 4, s->text);
    sqlite3_bind_int(st, 5, s->conditional);
    int ops[] = { s->fadd, s->fmul, s->fdiv, s->ffma, s->fmath, s->iadd, s->imul, s->idiv, s->cmp };
    for (int i = 0; i < 9; i++)
        sqlite3_bind_int(st, 6 + i, ops[i]);
    db_bind_text_(st, 15, s->calls);
    return db_insert_(d, st, "insert statement", id, err, errlen);
}

/* Insert the rows of access_subscripts or access_extents for one access. */
static int add_dims(db *d, int which, int64_t access_id, int n, const char *const *texts,
                    char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        int64_t eid;
        sqlite3_stmt *st;
        if (intern(d, texts ? texts[i] : NULL, &eid, err, errlen) ||
            !(st = get(d, which, err, errlen)))
            return -1;
        sqlite3_bind_int64(st, 1, access_id);
        sqlite3_bind_int(st, 2, i);
        db_bind_id_(st, 3, eid);
        if (db_run_(d, st, "insert access dimension", err, errlen))
            return -1;
    }
    return 0;
}

int db_add_access(db *d, int64_t stmt_id, const db_access_row *a, int64_t *id,
                  char *err, size_t errlen)
{
    int ndims = a->ndims > 0 ? a->ndims : 0, next = a->nextents > 0 ? a->nextents : 0;
    sqlite3_stmt *st = child_row(d, ST_INS_ACCESS, "add access", stmt_id, err, errlen);
    if (!st)
        return -1;
    db_bind_text_(st, 2, a->array);
    sqlite3_bind_int(st, 3, a->elem_size);
    sqlite3_bind_int(st, 4, a->is_write);
    sqlite3_bind_int(st, 5, ndims);
    sqlite3_bind_int(st, 6, next);
    sqlite3_bind_int(st, 7, a->affine);
    sqlite3_bind_int(st, 8, a->line);
    sqlite3_bind_int(st, 9, a->col);
    int64_t aid;
    if (db_insert_(d, st, "insert access", &aid, err, errlen))
        return -1;
    if (add_dims(d, ST_INS_SUB, aid, ndims, a->index, err, errlen) ||
        add_dims(d, ST_INS_EXT, aid, next, a->extent, err, errlen))
        return -1;
    if (id)
        *id = aid;
    return 0;
}

int db_add_scalar(db *d, int64_t stmt_id, const db_scalar_row *s, char *err, size_t errlen)
{
    sqlite3_stmt *st = child_row(d, ST_INS_SCALAR, "add scalar", stmt_id, err, errlen);
    if (!st)
        return -1;
    db_bind_text_(st, 2, s->name);
    sqlite3_bind_int(st, 3, s->is_write);
    sqlite3_bind_int(st, 4, s->line);
    sqlite3_bind_int(st, 5, s->col);
    return db_run_(d, st, "insert scalar", err, errlen);
}

int db_commit_tu(db *d, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (need_tu(d, "commit", err, errlen))
        return -1;
    if (!(st = get(d, ST_COMMIT, err, errlen)) || db_run_(d, st, "commit", err, errlen)) {
        db_rollback_tu(d);
        return -1;
    }
    d->in_tu = 0;
    d->tu_id = 0;
    return 0;
}

void db_rollback_tu(db *d)
{
    if (!d || !d->h)
        return;
    db_rollback_(d);
    d->in_tu = 0;
    d->tu_id = 0;
}

int db_set_loop_facts(db *d, int64_t loop_id, const db_loop_facts *f, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (d->mode != DB_WRITE)
        return ku_fail(err, errlen, "%s: set loop facts: database is open read-only", d->path);
    if (!(st = get_id(d, ST_SET_FACTS, loop_id, err, errlen)))
        return -1;
    if (f->has_cycles)
        sqlite3_bind_double(st, 2, f->cycles_per_iter);
    else
        sqlite3_bind_null(st, 2);
    int i = 3;
#define BIND_FACT_(name, show) db_bind_text_(st, i++, f->name);
    DB_LOOP_FACTS(BIND_FACT_)
#undef BIND_FACT_
    if (db_run_(d, st, "set loop facts", err, errlen))
        return -1;
    if (sqlite3_changes(d->h) != 1)
        return ku_fail(err, errlen, "%s: set loop facts: no loop %lld", d->path, (long long)loop_id);
    return 0;
}

int db_add_stride(db *d, int64_t access_id, int64_t thread_loop_id, const db_stride_row *s,
                  char *err, size_t errlen)
{
    sqlite3_stmt *st = child_row(d, ST_INS_STRIDE, "add stride", access_id, err, errlen);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 2, thread_loop_id);
    db_bind_text_(st, 3, s->stride);
    db_bind_text_(st, 4, s->cls);
    db_bind_text_(st, 5, s->inner_stride);
    db_bind_text_(st, 6, s->inner_cls);
    sqlite3_bind_int(st, 7, s->false_sharing);
    return db_run_(d, st, "insert stride", err, errlen);
}

int db_add_dependence(db *d, int64_t loop_id, const char *verdict, const char *reason,
                      char *err, size_t errlen)
{
    sqlite3_stmt *st = child_row(d, ST_INS_DEP, "add dependence", loop_id, err, errlen);
    if (!st)
        return -1;
    db_bind_text_(st, 2, verdict);
    db_bind_text_(st, 3, reason);
    return db_run_(d, st, "insert dependence", err, errlen);
}

/* ---- idioms, algorithm classes, counts (schema v2) -----------------------
 * Prepared per call (a few hundred rows per translation unit); every value
 * is a bound parameter. */

/* Prepare sql, bind n texts (NULL binds NULL) after an int64 at ?1, run. */
static int exec_texts(db *d, const char *sql, const char *what, int64_t id,
                      int n, const char *const *texts, int nints, const int *ints,
                      char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (d->mode != DB_WRITE)
        return ku_fail(err, errlen, "%s: %s: database is open read-only", d->path, what);
    if (sqlite3_prepare_v2(d->h, sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail_sql_(d, what, err, errlen);
    sqlite3_bind_int64(st, 1, id);
    for (int i = 0; i < n; i++)
        db_bind_text_(st, 2 + i, texts[i]);
    for (int i = 0; i < nints; i++)
        sqlite3_bind_int(st, 2 + n + i, ints[i]);
    int r = db_run_(d, st, what, err, errlen);
    sqlite3_finalize(st);
    return r;
}

int db_add_idiom(db *d, int64_t loop_id, const db_idiom_row *r, char *err, size_t errlen)
{
    const char *t[] = { r->idiom, r->code, r->evidence, r->detail };
    int n[] = { r->line, r->col };
    return exec_texts(d, "INSERT INTO idiom_instances(loop_id, idiom, code, evidence, detail,"
                         " line, col) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                      "add idiom", loop_id, 4, t, 2, n, err, errlen);
}

int db_set_class(db *d, int64_t loop_id, const db_class_row *r, char *err, size_t errlen)
{
    const char *t[] = { r->class_text, r->w, r->m, r->d, r->c, r->u, r->f_complexity };
    return exec_texts(d, "INSERT OR REPLACE INTO loop_classes(loop_id, class, w, m, d, c, u,"
                         " f_complexity) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                      "set class", loop_id, 7, t, 0, NULL, err, errlen);
}

int db_add_counts(db *d, int64_t loop_id, const db_counts_row *r, char *err, size_t errlen)
{
    const char *t[] = { r->scope, r->fadd, r->fmul, r->fdiv, r->ffma, r->fmath, r->flops,
                        r->iops, r->loads, r->stores, r->bytes_read, r->bytes_written,
                        r->intensity, r->reason };
    return exec_texts(d, "INSERT OR REPLACE INTO loop_counts(loop_id, scope, fadd, fmul, fdiv,"
                         " ffma, fmath, flops, iops, loads, stores, bytes_read, bytes_written,"
                         " intensity, reason) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                         " ?11, ?12, ?13, ?14, ?15)",
                      "add counts", loop_id, 14, t, 0, NULL, err, errlen);
}

int db_add_footprint(db *d, int64_t loop_id, const db_footprint_row *r,
                     char *err, size_t errlen)
{
    const char *t[] = { r->array, r->bytes_read, r->bytes_written };
    return exec_texts(d, "INSERT OR REPLACE INTO loop_footprints(loop_id, array, bytes_read,"
                         " bytes_written) VALUES (?1, ?2, ?3, ?4)",
                      "add footprint", loop_id, 3, t, 0, NULL, err, errlen);
}
