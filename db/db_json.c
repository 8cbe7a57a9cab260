/*
 * db_json.c -- keel's one JSON helper (db_json.h): the --json document
 * writer, stored lists of strings, and the readers of compile databases
 * and llvm-mca reports, all on SQLite's JSON functions.
 *
 * The writer.  A document lives in a private in-memory database.  Each
 * member of an open object or array is one row of
 *
 *     m(c, s, k, v)    container, sequence number, key, JSON text
 *
 * where v comes from json_quote(?) for a scalar (bound with its SQLite
 * type: integer, real, text or NULL), from json(?) for stored JSON text,
 * and from json_group_object / json_group_array over a container's rows
 * (in sequence order: the primary key) when the container is closed.  The
 * root's text is the document.  Every text bound (keys, strings, stored
 * lists) passes db_json_utf8 first, so the document is UTF-8 whatever
 * bytes the database holds.
 *
 * Lists and list texts share one in-memory connection for the process,
 * opened at the first call and never closed (keelcc and keel are
 * short-lived and use one thread).  The readers open a connection per call.
 */
#define _XOPEN_SOURCE 700   /* strdup, strndup */

#include "db_json.h"

#include "util.h"

#include <assert.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- UTF-8 ------------------------------------------------------------------ */

/* Length of the well-formed UTF-8 sequence at p (Unicode's table 3-7), 0
 * when the byte at p does not start one. */
static size_t utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80)
        return 1;
    unsigned lo = 0x80, hi = 0xBF;
    size_t n;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if (p[k] < 0x80 || p[k] > 0xBF)
            return 0;
    return n;
}

char *db_json_utf8(const char *s, int *oom)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t bad = 0, len = 0;
    *oom = 0;
    while (p[len]) {
        size_t n = utf8_len(p + len);
        bad += n == 0;
        len += n ? n : 1;
    }
    if (!bad)
        return NULL;
    char *out = malloc(len + 2 * bad + 1), *o = out;
    if (!out) {
        *oom = 1;
        return NULL;
    }
    for (size_t i = 0; i < len;) {
        size_t n = utf8_len(p + i);
        if (n) {
            memcpy(o, p + i, n);
            o += n, i += n;
        } else {
            memcpy(o, "\xEF\xBF\xBD", 3);
            o += 3, i++;
        }
    }
    *o = 0;
    return out;
}

/* ---- the document writer ------------------------------------------------------ */

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

struct db_json {
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

static void fail(db_json *j, const char *what)
{
    if (!j->err[0])
        snprintf(j->err, sizeof j->err, "JSON: %s", what ? what : "out of memory");
}

/* Bind text s (NULL: leave ?i NULL) at i as UTF-8 (db_json_utf8). */
static void bind_utf8(db_json *j, sqlite3_stmt *st, int i, const char *s)
{
    int oom;
    char *fixed = s ? db_json_utf8(s, &oom) : NULL;
    if (s && oom)
        fail(j, NULL);
    else if (s)
        sqlite3_bind_text(st, i, fixed ? fixed : s, -1, SQLITE_TRANSIENT);
    free(fixed);
}

db_json *db_json_new(void)
{
    db_json *j = calloc(1, sizeof *j);
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

void db_json_free(db_json *j)
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
static void add(db_json *j, int q, const char *key)
{
    sqlite3_stmt *st = j->q[q];
    if (j->err[0] || !st) {
        fail(j, "not open");
        if (st) {
            sqlite3_reset(st);
            sqlite3_clear_bindings(st);
        }
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
        bind_utf8(j, st, 3, key);
    else
        sqlite3_bind_null(st, 3);
    if (!j->err[0] && sqlite3_step(st) != SQLITE_DONE)
        fail(j, sqlite3_errmsg(j->h));
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

static sqlite3_stmt *value_stmt(db_json *j, int q)
{
    return j->err[0] ? NULL : j->q[q];
}

void db_json_str(db_json *j, const char *key, const char *s)
{
    assert(j);
    sqlite3_stmt *st = value_stmt(j, Q_SCALAR);
    if (st)
        bind_utf8(j, st, 4, s);
    add(j, Q_SCALAR, key);
}

void db_json_int(db_json *j, const char *key, long long v)
{
    assert(j);
    sqlite3_stmt *st = value_stmt(j, Q_SCALAR);
    if (st)
        sqlite3_bind_int64(st, 4, v);
    add(j, Q_SCALAR, key);
}

void db_json_num(db_json *j, const char *key, double v)
{
    assert(j);
    sqlite3_stmt *st = value_stmt(j, Q_SCALAR);
    if (st && isfinite(v))
        sqlite3_bind_double(st, 4, v);
    add(j, Q_SCALAR, key);
}

void db_json_null(db_json *j, const char *key)
{
    assert(j);
    add(j, Q_SCALAR, key);
}

void db_json_bool(db_json *j, const char *key, int v)
{
    assert(j);
    sqlite3_stmt *st = value_stmt(j, Q_JSON);
    if (st)
        sqlite3_bind_text(st, 4, v ? "true" : "false", -1, SQLITE_STATIC);
    add(j, Q_JSON, key);
}

void db_json_list(db_json *j, const char *key, const char *text)
{
    assert(j);
    sqlite3_stmt *st = value_stmt(j, Q_LIST);
    if (st)
        bind_utf8(j, st, 4, text);
    add(j, Q_LIST, key);
}

void db_json_csv(db_json *j, const char *key, const char *text)
{
    assert(j);
    if (!text || text[0] == '[') {
        db_json_list(j, key, text);
        return;
    }
    db_json_array(j, key);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, ",");
        char *item = strndup(p, n);
        if (!item)
            fail(j, NULL);
        db_json_str(j, NULL, item ? item : "");
        free(item);
        p += n + (p[n] == ',');
    }
    db_json_end(j);
}

static void open_container(db_json *j, const char *key, int is_obj)
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

void db_json_object(db_json *j, const char *key)
{
    assert(j);
    open_container(j, key, 1);
}

void db_json_array(db_json *j, const char *key)
{
    assert(j);
    open_container(j, key, 0);
}

void db_json_end(db_json *j)
{
    assert(j);
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

const char *db_json_doc(db_json *j, const char **why)
{
    assert(j);
    if (!j->err[0] && (j->depth || !j->doc))
        fail(j, "unfinished document");
    *why = j->err[0] ? j->err : NULL;
    return j->err[0] ? NULL : j->doc;
}

/* ---- lists of strings: one connection for the process -------------------------- */

static sqlite3 *list_h;
static sqlite3_stmt *list_clear, *list_add, *list_get, *list_text;

static int list_open(void)
{
    if (list_text)
        return 0;
    if (!list_h && sqlite3_open_v2(":memory:", &list_h,
                                   SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY,
                                   NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_exec(list_h, "CREATE TABLE IF NOT EXISTS items(i INTEGER PRIMARY KEY, v TEXT)",
                     NULL, NULL, NULL) != SQLITE_OK
        || (!list_clear && sqlite3_prepare_v2(list_h, "DELETE FROM items", -1, &list_clear,
                                              NULL) != SQLITE_OK)
        || (!list_add && sqlite3_prepare_v2(list_h, "INSERT INTO items(v) VALUES (?1)", -1,
                                            &list_add, NULL) != SQLITE_OK)
        || (!list_get && sqlite3_prepare_v2(list_h, "SELECT json_group_array(v) FROM"
                                            " (SELECT v FROM items ORDER BY i)", -1, &list_get,
                                            NULL) != SQLITE_OK)
        || sqlite3_prepare_v2(list_h, "SELECT CASE WHEN NOT json_valid(?1) OR"
                              " json_type(?1) <> 'array' THEN ?1 ELSE (SELECT"
                              " coalesce(group_concat(CASE WHEN type IN ('object',"
                              " 'array') THEN json(value) ELSE value END, ?2), '-')"
                              " FROM json_each(?1)) END", -1, &list_text, NULL) != SQLITE_OK)
        return -1;
    return 0;
}

void db_json_lists_close(void)
{
    sqlite3_finalize(list_clear);
    sqlite3_finalize(list_add);
    sqlite3_finalize(list_get);
    sqlite3_finalize(list_text);
    sqlite3_close(list_h);
    list_clear = list_add = list_get = list_text = NULL;
    list_h = NULL;
}

char *db_json_array_of(int n, char *const *items)
{
    assert(n >= 0 && (items || n == 0));
    if (list_open() != 0)
        return NULL;
    int ok = sqlite3_step(list_clear) == SQLITE_DONE;
    sqlite3_reset(list_clear);
    for (int i = 0; i < n && ok; i++) {
        ok = sqlite3_bind_text(list_add, 1, items[i], -1, SQLITE_STATIC) == SQLITE_OK
          && sqlite3_step(list_add) == SQLITE_DONE;
        sqlite3_reset(list_add);
    }
    sqlite3_clear_bindings(list_add);
    char *out = NULL;
    if (ok && sqlite3_step(list_get) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(list_get, 0);
        out = t ? strdup((const char *)t) : NULL;
    }
    sqlite3_reset(list_get);
    return out;
}

char *db_json_list_text(const char *text, const char *sep)
{
    if (!text)
        return strdup("-");
    if (list_open() != 0)
        return NULL;
    char *out = NULL;
    sqlite3_bind_text(list_text, 1, text, -1, SQLITE_STATIC);
    sqlite3_bind_text(list_text, 2, sep, -1, SQLITE_STATIC);
    if (sqlite3_step(list_text) == SQLITE_ROW) {
        const char *t = (const char *)sqlite3_column_text(list_text, 0);
        out = strdup(t && *t ? t : "-");
    }
    sqlite3_reset(list_text);
    sqlite3_clear_bindings(list_text);
    return out;
}

/* ---- a compile database ------------------------------------------------------ */

int db_json_compdb_each(const char *text, const char *path, db_json_compdb_fn fn, void *ctx,
                        char *err, size_t errlen)
{
    assert(text && fn);
    sqlite3 *m = NULL;
    sqlite3_stmt *q = NULL, *qa = NULL;
    char **args = NULL;
    int nargs = 0, rc = -1;
    if (sqlite3_open(":memory:", &m) != SQLITE_OK)
        goto sqlerr;
    if (sqlite3_prepare_v2(m, "SELECT json_valid(?1) AND json_type(?1) = 'array'", -1, &q, NULL)
        != SQLITE_OK)
        goto sqlerr;
    sqlite3_bind_text(q, 1, text, -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_ROW || sqlite3_column_int(q, 0) != 1) {
        ku_fail(err, errlen, "%s: not a compile database (want a JSON array)", path);
        goto done;
    }
    sqlite3_finalize(q);
    q = NULL;
    if (sqlite3_prepare_v2(m,
            "SELECT json_extract(value, '$.directory'), json_extract(value, '$.file'),"
            "       json_extract(value, '$.command'), json_extract(value, '$.arguments'),"
            "       json_type(value, '$.arguments'), key"
            "  FROM json_each(?1) ORDER BY key", -1, &q, NULL) != SQLITE_OK
        || sqlite3_prepare_v2(m, "SELECT value FROM json_each(?1) ORDER BY key", -1, &qa, NULL)
           != SQLITE_OK)
        goto sqlerr;
    sqlite3_bind_text(q, 1, text, -1, SQLITE_STATIC);
    int r;
    while ((r = sqlite3_step(q)) == SQLITE_ROW) {
        const char *atype = (const char *)sqlite3_column_text(q, 4);
        db_json_compdb_entry e = {
            .index = sqlite3_column_int(q, 5),
            .directory = (const char *)sqlite3_column_text(q, 0),
            .file = (const char *)sqlite3_column_text(q, 1),
            .command = (const char *)sqlite3_column_text(q, 2),
            .has_args = atype && strcmp(atype, "array") == 0,
        };
        for (int k = 0; k < nargs; k++)
            free(args[k]);
        nargs = 0;
        if (e.has_args) {
            sqlite3_reset(qa);
            sqlite3_bind_text(qa, 1, (const char *)sqlite3_column_text(q, 3), -1,
                              SQLITE_TRANSIENT);
            while (sqlite3_step(qa) == SQLITE_ROW) {
                const char *a = (const char *)sqlite3_column_text(qa, 0);
                char *c = a ? strdup(a) : NULL;
                if ((a && !c) || ku_push_ptr(&args, &nargs, c)) {
                    free(c);
                    ku_fail(err, errlen, "out of memory");
                    goto done;
                }
            }
        }
        e.nargs = nargs;
        e.args = (const char *const *)args;
        int stop = fn(ctx, &e);
        if (stop) {
            rc = stop;
            goto done;
        }
    }
    if (r != SQLITE_DONE)
        goto sqlerr;
    rc = 0;
    goto done;
sqlerr:
    ku_fail(err, errlen, "%s: %s", path, m ? sqlite3_errmsg(m) : "out of memory");
done:
    for (int k = 0; k < nargs; k++)
        free(args[k]);
    free(args);
    sqlite3_finalize(q);
    sqlite3_finalize(qa);
    sqlite3_close(m);
    return rc;
}

/* ---- llvm-mca's report -------------------------------------------------------- */

/* The queries read one code region: ?1 the JSON text holding it, ?2 the
 * region's path in it ('$.CodeRegions[N]' in llvm-mca's whole output, '$'
 * in a region's own text), ?3/?4 the text and path of
 * TargetInfo.Resources.  A batch's output is split into its regions once
 * (json_each), so that each region's queries parse that region only. */

/* Is it JSON, with a summary view in the region?  Then the summary's
 * figures (SQL NULL for a missing member). */
static const char mca_summary_sql[] =
    "SELECT json_valid(?1),"
    "       CASE WHEN json_valid(?1)"
    "            THEN json_type(?1, ?2 || '.SummaryView') IS 'object' ELSE 0 END";

static const char mca_figures_sql[] =
    "SELECT json_extract(?1, ?2 || '.SummaryView.Iterations'),"
    "       json_extract(?1, ?2 || '.SummaryView.TotalCycles'),"
    "       json_extract(?1, ?2 || '.SummaryView.BlockRThroughput'),"
    "       json_extract(?1, ?2 || '.SummaryView.IPC'),"
    "       json_extract(?1, ?2 || '.SummaryView.TotaluOps')";

/* The busiest resource: ResourceUsage summed per ResourceIndex over the
 * block, named by TargetInfo.Resources; ties go to the lower index. */
static const char mca_pressure_sql[] =
    "WITH p AS (SELECT json_extract(value, '$.ResourceIndex') AS ri,"
    "                  json_extract(value, '$.ResourceUsage') AS u"
    "           FROM json_each(?1, ?2 || '.ResourcePressureView.ResourcePressureInfo')"
    "           WHERE typeof(json_extract(value, '$.ResourceUsage')) IN ('integer', 'real'))"
    " SELECT r.value, SUM(p.u) AS s"
    " FROM p JOIN json_each(?3, ?4) AS r ON r.key = p.ri"
    " WHERE r.type = 'text'"
    " GROUP BY p.ri HAVING s > 0 ORDER BY s DESC, p.ri LIMIT 1";

/* Column k as a number, dflt when it is not one. */
static double num_col(sqlite3_stmt *st, int k, double dflt)
{
    int t = sqlite3_column_type(st, k);
    return t == SQLITE_INTEGER || t == SQLITE_FLOAT ? sqlite3_column_double(st, k) : dflt;
}

typedef struct {
    const char *json, *path;      /* ?1, ?2 */
    const char *res, *res_path;   /* ?3, ?4 */
} mca_region;

/* Run sql over region r on h; SQLITE_ROW or SQLITE_DONE with *st
 * (finalized first when set), else -1 with a message. */
static int mca_query(sqlite3 *h, const char *sql, const mca_region *r, sqlite3_stmt **st,
                     char *err, size_t errlen)
{
    sqlite3_finalize(*st);
    *st = NULL;
    int step = -1;
    if (sqlite3_prepare_v2(h, sql, -1, st, NULL) == SQLITE_OK
        && sqlite3_bind_text(*st, 1, r->json, -1, SQLITE_STATIC) == SQLITE_OK
        && sqlite3_bind_text(*st, 2, r->path, -1, SQLITE_STATIC) == SQLITE_OK
        && (sqlite3_bind_parameter_count(*st) < 3
            || (sqlite3_bind_text(*st, 3, r->res, -1, SQLITE_STATIC) == SQLITE_OK
                && sqlite3_bind_text(*st, 4, r->res_path, -1, SQLITE_STATIC) == SQLITE_OK)))
        step = sqlite3_step(*st);
    if (step == SQLITE_ROW || step == SQLITE_DONE)
        return step;
    return ku_fail(err, errlen, "json: %s", sqlite3_errmsg(h));
}

/* The figures of region r. */
static int mca_parse(sqlite3 *h, const mca_region *r, db_json_mca *out, char *err,
                     size_t errlen)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st = NULL;
    int rc = -1, step;
    if (mca_query(h, mca_summary_sql, r, &st, err, errlen) != SQLITE_ROW)
        goto done;
    if (sqlite3_column_int(st, 0) != 1) {
        ku_fail(err, errlen, "llvm-mca output is not valid JSON");
        goto done;
    }
    if (sqlite3_column_int(st, 1) != 1
        || mca_query(h, mca_figures_sql, r, &st, err, errlen) != SQLITE_ROW
        || num_col(st, 0, 0) <= 0 || num_col(st, 1, -1) < 0) {
        ku_fail(err, errlen, "llvm-mca output has no summary view");
        goto done;
    }
    double iters = num_col(st, 0, 0);
    out->cycles_per_iter = num_col(st, 1, -1) / iters;
    out->block_rthroughput = num_col(st, 2, 0);
    out->ipc = num_col(st, 3, 0);
    out->uops_per_iter = num_col(st, 4, 0) / iters;
    if ((step = mca_query(h, mca_pressure_sql, r, &st, err, errlen)) < 0)
        goto done;
    if (step == SQLITE_ROW) {
        snprintf(out->resource, sizeof out->resource, "%s",
                 (const char *)sqlite3_column_text(st, 0));
        out->resource_cycles = sqlite3_column_double(st, 1);
    }
    rc = 0;
done:
    sqlite3_finalize(st);
    return rc;
}

static sqlite3 *memory_db(char *err, size_t errlen)
{
    sqlite3 *h = NULL;
    if (sqlite3_open_v2(":memory:", &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL)
        != SQLITE_OK) {
        sqlite3_close(h);
        ku_fail(err, errlen, "json: cannot open an in-memory database");
        return NULL;
    }
    return h;
}

int db_json_mca_region(const char *json, int region, db_json_mca *out, char *err,
                       size_t errlen)
{
    assert(out);
    memset(out, 0, sizeof *out);
    sqlite3 *h = memory_db(err, errlen);
    if (!h)
        return -1;
    char path[64];
    snprintf(path, sizeof path, "$.CodeRegions[%d]", region);
    mca_region r = { json, path, json, "$.TargetInfo.Resources" };
    int rc = mca_parse(h, &r, out, err, errlen);
    sqlite3_close(h);
    return rc;
}

int db_json_mca_regions(const char *json, int nregions, db_json_mca *out, char *err,
                        size_t errlen)
{
    assert(out && nregions >= 0);
    sqlite3 *h = memory_db(err, errlen);
    if (!h)
        return -1;
    sqlite3_stmt *st = NULL;
    char **text = calloc((size_t)nregions + 1, sizeof *text);
    char *res = NULL;
    int rc = -1, n = 0;
    if (!text) {
        ku_fail(err, errlen, "out of memory");
        goto done;
    }
    if (sqlite3_prepare_v2(h, "SELECT json_valid(?1), json_extract(?1, '$.TargetInfo.Resources')",
                           -1, &st, NULL) != SQLITE_OK
        || sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC) != SQLITE_OK
        || sqlite3_step(st) != SQLITE_ROW || sqlite3_column_int(st, 0) != 1) {
        ku_fail(err, errlen, "llvm-mca output is not valid JSON");
        goto done;
    }
    if (sqlite3_column_type(st, 1) == SQLITE_TEXT
        && !(res = strdup((const char *)sqlite3_column_text(st, 1))))
        goto done;
    sqlite3_finalize(st);
    st = NULL;
    if (sqlite3_prepare_v2(h, "SELECT value FROM json_each(?1, '$.CodeRegions')"
                              " ORDER BY key", -1, &st, NULL) != SQLITE_OK
        || sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC) != SQLITE_OK) {
        ku_fail(err, errlen, "json: %s", sqlite3_errmsg(h));
        goto done;
    }
    while (n < nregions && sqlite3_step(st) == SQLITE_ROW)
        if (!(text[n++] = strdup((const char *)sqlite3_column_text(st, 0))))
            goto done;
    if (n < nregions) {
        ku_fail(err, errlen, "llvm-mca output has %d code regions, not %d", n, nregions);
        goto done;
    }
    rc = 0;
    for (int k = 0; k < nregions && rc == 0; k++) {
        mca_region r = { text[k], "$", res, "$" };
        rc = mca_parse(h, &r, &out[k], err, errlen);
    }
done:
    sqlite3_finalize(st);
    for (int k = 0; text && k < n; k++)
        free(text[k]);
    free(text);
    free(res);
    sqlite3_close(h);
    return rc;
}
