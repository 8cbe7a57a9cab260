/*
 * json.c -- the keel tool's one JSON writer (keel.h), built on SQLite's
 * JSON functions instead of a hand-written printer: no escaping rule of
 * our own, and every document is valid JSON by construction.
 *
 * A document lives in a private in-memory database.  Each member of an
 * open object or array is one row of
 *
 *     m(c, s, k, v)    container, sequence number, key, JSON text
 *
 * where v comes from json_quote(?) for a scalar (bound with its SQLite
 * type: integer, real, text or NULL), from json(?) for stored JSON text,
 * and from json_group_object / json_group_array over a container's rows
 * (in sequence order: the primary key) when the container is closed.  The
 * root's text is the document.  Stored lists are read with json_each.
 */
#include "keel.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

enum { MAXDEPTH = 32 };

enum {
    Q_SCALAR,      /* a bound value through json_quote */
    Q_JSON,        /* text that is JSON already (a closed container) */
    Q_LIST,        /* stored list text: its array, null, or [text] */
    Q_CLOSE_OBJ,
    Q_CLOSE_ARR,
    Q_DELETE,
    NQ
};

static const char *const sql[NQ] = {
    [Q_SCALAR] = "INSERT INTO m VALUES (?1, ?2, ?3, json_quote(?4))",
    [Q_JSON] = "INSERT INTO m VALUES (?1, ?2, ?3, json(?4))",
    [Q_LIST] = "INSERT INTO m VALUES (?1, ?2, ?3, CASE WHEN ?4 IS NULL THEN 'null'"
               " WHEN json_valid(?4) AND json_type(?4) = 'array' THEN json(?4)"
               " ELSE json_array(?4) END)",
    [Q_CLOSE_OBJ] = "SELECT json_group_object(k, json(v)) FROM m WHERE c = ?1",
    [Q_CLOSE_ARR] = "SELECT json_group_array(json(v)) FROM m WHERE c = ?1",
    [Q_DELETE] = "DELETE FROM m WHERE c = ?1",
};

struct keel_json {
    sqlite3 *h;
    sqlite3_stmt *q[NQ];
    int depth;
    struct {
        long long id, next;     /* container id, next member's sequence */
        int is_obj;
        char *key;              /* its key in the parent */
    } open[MAXDEPTH];
    long long ids;
    char *doc;                  /* the root, once closed */
    char err[256];
};

static void fail(keel_json *j, const char *what)
{
    if (!j->err[0])
        keel_fmtn(j->err, sizeof j->err, "JSON: %s", what ? what : "out of memory");
}

keel_json *keel_json_new(void)
{
    keel_json *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    if (sqlite3_open_v2(":memory:", &j->h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
            SQLITE_OK ||
        sqlite3_exec(j->h, "CREATE TABLE m (c INTEGER, s INTEGER, k TEXT, v TEXT NOT NULL,"
                           " PRIMARY KEY (c, s)) WITHOUT ROWID", NULL, NULL, NULL) != SQLITE_OK) {
        fail(j, sqlite3_errmsg(j->h));
        return j;
    }
    for (int i = 0; i < NQ; i++)
        if (sqlite3_prepare_v2(j->h, sql[i], -1, &j->q[i], NULL) != SQLITE_OK) {
            fail(j, sqlite3_errmsg(j->h));
            break;
        }
    return j;
}

void keel_json_free(keel_json *j)
{
    if (!j)
        return;
    for (int i = 0; i < NQ; i++)
        sqlite3_finalize(j->q[i]);
    for (int i = 0; i < j->depth; i++)
        free(j->open[i].key);
    sqlite3_close(j->h);
    free(j->doc);
    free(j);
}

/* Run statement q (an INSERT of one member into the innermost container),
 * its value ?4 already bound. */
static void add(keel_json *j, int q, const char *key)
{
    sqlite3_stmt *st = j->q[q];
    if (j->err[0] || !st) {
        fail(j, "not open");
        return;
    }
    if (j->depth == 0) {
        fail(j, "a value outside any object or array");
        sqlite3_reset(st);
        return;
    }
    int obj = j->open[j->depth - 1].is_obj;
    if (obj && !key) {
        fail(j, "a member without a key");
        sqlite3_reset(st);
        return;
    }
    sqlite3_bind_int64(st, 1, j->open[j->depth - 1].id);
    sqlite3_bind_int64(st, 2, j->open[j->depth - 1].next++);
    if (obj)
        sqlite3_bind_text(st, 3, key, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, 3);
    if (sqlite3_step(st) != SQLITE_DONE)
        fail(j, sqlite3_errmsg(j->h));
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

static sqlite3_stmt *value_stmt(keel_json *j, int q)
{
    return j->err[0] ? NULL : j->q[q];
}

void keel_json_str(keel_json *j, const char *key, const char *s)
{
    sqlite3_stmt *st = value_stmt(j, Q_SCALAR);
    if (st && s)
        sqlite3_bind_text(st, 4, s, -1, SQLITE_TRANSIENT);
    add(j, Q_SCALAR, key);
}

void keel_json_int(keel_json *j, const char *key, long long v)
{
    sqlite3_stmt *st = value_stmt(j, Q_SCALAR);
    if (st)
        sqlite3_bind_int64(st, 4, v);
    add(j, Q_SCALAR, key);
}

void keel_json_num(keel_json *j, const char *key, double v)
{
    sqlite3_stmt *st = value_stmt(j, Q_SCALAR);
    if (st && isfinite(v))
        sqlite3_bind_double(st, 4, v);
    add(j, Q_SCALAR, key);
}

void keel_json_null(keel_json *j, const char *key)
{
    add(j, Q_SCALAR, key);
}

void keel_json_bool(keel_json *j, const char *key, int v)
{
    sqlite3_stmt *st = value_stmt(j, Q_JSON);
    if (st)
        sqlite3_bind_text(st, 4, v ? "true" : "false", -1, SQLITE_STATIC);
    add(j, Q_JSON, key);
}

void keel_json_list(keel_json *j, const char *key, const char *text)
{
    sqlite3_stmt *st = value_stmt(j, Q_LIST);
    if (st && text)
        sqlite3_bind_text(st, 4, text, -1, SQLITE_TRANSIENT);
    add(j, Q_LIST, key);
}

void keel_json_csv(keel_json *j, const char *key, const char *text)
{
    if (!text || text[0] == '[') {
        keel_json_list(j, key, text);
        return;
    }
    keel_json_array(j, key);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, ",");
        char *item = strndup(p, n);
        if (!item)
            fail(j, NULL);
        keel_json_str(j, NULL, item ? item : "");
        free(item);
        p += n + (p[n] == ',');
    }
    keel_json_end(j);
}

static void open_container(keel_json *j, const char *key, int is_obj)
{
    if (j->err[0])
        return;
    if (j->depth == MAXDEPTH || (j->depth == 0 && j->doc)) {
        fail(j, "nested too deep");
        return;
    }
    if (j->depth > 0 && j->open[j->depth - 1].is_obj && !key) {
        fail(j, "a member without a key");
        return;
    }
    char *k = key ? strdup(key) : NULL;
    if (key && !k) {
        fail(j, NULL);
        return;
    }
    j->open[j->depth].id = ++j->ids;
    j->open[j->depth].next = 0;
    j->open[j->depth].is_obj = is_obj;
    j->open[j->depth].key = k;
    j->depth++;
}

void keel_json_object(keel_json *j, const char *key)
{
    open_container(j, key, 1);
}

void keel_json_array(keel_json *j, const char *key)
{
    open_container(j, key, 0);
}

void keel_json_end(keel_json *j)
{
    if (j->err[0])
        return;
    if (j->depth == 0) {
        fail(j, "end without an open object or array");
        return;
    }
    j->depth--;
    long long id = j->open[j->depth].id;
    char *key = j->open[j->depth].key, *text = NULL;
    sqlite3_stmt *st = j->q[j->open[j->depth].is_obj ? Q_CLOSE_OBJ : Q_CLOSE_ARR];
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        if (!(text = strdup(t ? t : "null")))
            fail(j, NULL);
    } else
        fail(j, sqlite3_errmsg(j->h));
    sqlite3_reset(st);
    st = j->q[Q_DELETE];
    sqlite3_bind_int64(st, 1, id);
    if (sqlite3_step(st) != SQLITE_DONE)
        fail(j, sqlite3_errmsg(j->h));
    sqlite3_reset(st);
    if (text && j->depth == 0) {
        j->doc = text;
        text = NULL;
    } else if (text) {
        sqlite3_bind_text(j->q[Q_JSON], 4, text, -1, SQLITE_TRANSIENT);
        add(j, Q_JSON, key);
    }
    free(text);
    free(key);
    j->open[j->depth].key = NULL;
}

int keel_json_print(keel_json *j, FILE *out)
{
    if (!j)
        return keel_say(KEEL_EXIT_DB, "out of memory");
    if (!j->err[0] && (j->depth || !j->doc))
        fail(j, "unfinished document");
    if (j->err[0])
        return keel_say(KEEL_EXIT_DB, "%s", j->err);
    fputs(j->doc, out);
    fputc('\n', out);
    return 0;
}

/* One connection and statement for every keel_list_text call of the
 * process (the tool is short-lived; they are not closed). */
char *keel_list_text(const char *text, const char *sep)
{
    static sqlite3 *h;
    static sqlite3_stmt *st;
    if (!text)
        return strdup("-");
    if (!st && (sqlite3_open_v2(":memory:", &h, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
                sqlite3_prepare_v2(h, "SELECT CASE WHEN NOT json_valid(?1) OR"
                                      " json_type(?1) <> 'array' THEN ?1 ELSE (SELECT"
                                      " coalesce(group_concat(CASE WHEN type IN ('object',"
                                      " 'array') THEN json(value) ELSE value END, ?2), '-')"
                                      " FROM json_each(?1)) END", -1, &st, NULL) != SQLITE_OK)) {
        sqlite3_finalize(st);
        sqlite3_close(h);
        st = NULL, h = NULL;
        return NULL;
    }
    char *out = NULL;
    sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, sep, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(st, 0);
        out = strdup(t && *t ? t : "-");
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return out;
}
