/*
 * db_merge.c -- `keel merge OUT.db IN.db...` (db_merge.h): make one
 * database of several, e.g. the per-machine databases of a distributed
 * build (distcc, several build trees, CI shards).
 *
 * For every build of a source -- its path and variant, the hash of the
 * flags it was parsed with (translation_units.path, .variant; schema 9) --
 * the newest analysis wins: an input's TU replaces OUT's when OUT has none
 * for that path and variant or OUT's compiled_at is older; on a tie OUT
 * keeps its own.  Other builds of the same path are left alone.  A TU is
 * copied with everything that hangs off it.  Which tables those are is
 * read from OUT's schema (PRAGMA foreign_key_list on main): a table
 * belongs to a TU when a chain of foreign keys leads from it to
 * translation_units, so tables a later schema adds are merged without code
 * here.  Ids are shifted past OUT's largest id per table, and every
 * foreign key column by its target table's shift; one INSERT ... SELECT
 * per table, in foreign-key order, copies the rows whose parents were
 * copied.  A stored loop model (nest_packs) names its nest's ids inside
 * bytes db/ does not read: the caller's db_merge_model_fn writes each
 * copied one again for the shifted ids (keel merge: cli/merge.c), or it
 * is dropped, and readers take that nest's rows.
 *
 * History is appended, never dropped: the run-time decisions logged for a
 * build are kept whichever analysis wins -- a losing side's decisions are
 * moved to the winning TU's loop of the same build (path and variant) at
 * the same file:line:col (decisions of a loop that no longer exists are
 * dropped, as recompiling drops them), and identical rows are not
 * duplicated.  host_calibration rows are appended unless the same (host,
 * measured_at) is there.  The measured history (table history, when either
 * side has one) is combined per (loop, size, device) -- its samples add
 * up, so merge an input once.  scan_state (keel scan's resume table)
 * describes one machine's files and is not merged.
 *
 * The input is data, never code.  Every table of OUT is created from
 * keel's own schema text (db_open's migrations; the history table from
 * db_history_schema, the text libkeelrt creates it from); no SQL text is
 * read from an input's sqlite_master, and an input whose table merge reads
 * is a view or a virtual table is refused before anything is read.
 * Statements are ours: identifiers come from OUT's schema (quoted), the id
 * shifts are bound parameters, every value from an input moves by
 * INSERT ... SELECT.
 *
 * Each input is merged in its own transaction; the inputs must have OUT's
 * schema version (the caller opens each with db_open, which refuses
 * others with its message).
 */
#define _XOPEN_SOURCE 700   /* strdup */

#include "db_merge.h"
#include "db_log.h"
#include "db_private.h"
#include "util.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The measured-history table in OUT, when it is missing, from keel's own
 * schema text: the one libkeelrt creates on its first write
 * (db_history_schema, db_log.c). */
static int history_create(sqlite3 *h, char *err, size_t errlen)
{
    sqlite3_stmt *q;
    int r = sqlite3_prepare_v2(h, db_history_schema, -1, &q, NULL);
    if (r == SQLITE_OK)
        r = sqlite3_step(q);
    sqlite3_finalize(q);
    if (r != SQLITE_DONE)
        return ku_fail(err, errlen, "%s", sqlite3_errmsg(h));
    return 0;
}

/* One build of a source is its path and variant (schema 9; NULL for rows
 * from before variants, matched with IS).  SAME_BUILD(x): OUT's
 * translation_units t is the build saved in temp row x (m_path,
 * m_variant); REPLACED_BUILD: OUT's t is a build an input TU replaces. */
#define SAME_BUILD(x) "t.path = " x ".m_path AND t.variant IS " x ".m_variant"
#define REPLACED_BUILD "EXISTS (SELECT 1 FROM temp.merge_pick p" \
                       " WHERE p.path = t.path AND p.variant IS t.variant)"
/* Every table and column of OUT's schema, however many (ku_push). */
typedef struct {
    char *name;
    int ncols;
    char **col;
    char **fk_table;           /* per column: referenced table, NULL for none */
    int has_id;                /* INTEGER PRIMARY KEY id */
    int tu_owned;
    int done;
    long long off;
} table;

struct db_merger {
    sqlite3 *h;
    int n;
    table *t;
    char err[1024];
    long long hist_before;     /* samples in OUT's history before this input */
    db_merge_model_fn model_fn;  /* rewrites a copied stored model (NULL: drop) */
    void *model_ctx;
};
typedef struct db_merger merger;

static table *find(merger *m, const char *name)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->t[i].name, name) == 0)
            return &m->t[i];
    return NULL;
}

static void merger_free(merger *m)
{
    for (int i = 0; m && i < m->n; i++) {
        table *t = &m->t[i];
        for (int k = 0; k < t->ncols; k++)
            free(t->col[k]), free(t->fk_table[k]);
        free(t->col);
        free(t->fk_table);
        free(t->name);
    }
    if (m)
        free(m->t);
    free(m);
}

/* Identifiers come from OUT's own schema (main); quoted anyway
 * ("a""b" for a quote inside). */
static void put_ident(ku_buf *b, const char *id)
{
    ku_buf_putc(b, '"');
    for (const char *p = id; *p; p++)
        ku_buf_put(b, *p == '"' ? "\"\"" : (char[2]){ *p, 0 });
    ku_buf_putc(b, '"');
}

static char *dup_col(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return strdup(t ? (const char *)t : "");
}

static int load_schema(merger *m)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(m->h, "SELECT name FROM main.sqlite_master WHERE type = 'table'"
                                 " AND name NOT LIKE 'sqlite_%' ORDER BY name", -1, &q, NULL)
        != SQLITE_OK)
        return -1;
    int oom = 0;
    while (!oom && sqlite3_step(q) == SQLITE_ROW) {
        table *t = ku_push(&m->t, &m->n, sizeof *m->t);
        oom = !t || !(t->name = dup_col(q, 0));
    }
    sqlite3_finalize(q);
    if (oom)
        return ku_fail(m->err, sizeof m->err, "out of memory"), -1;
    for (int i = 0; i < m->n; i++) {
        table *t = &m->t[i];
        sqlite3_stmt *c;
        if (sqlite3_prepare_v2(m->h, "SELECT name, type, pk FROM pragma_table_info(?1, 'main')"
                               " ORDER BY cid", -1, &c, NULL) != SQLITE_OK)
            return -1;
        sqlite3_bind_text(c, 1, t->name, -1, SQLITE_STATIC);
        int npk = 0;
        while (!oom && sqlite3_step(c) == SQLITE_ROW) {
            const char *type = (const char *)sqlite3_column_text(c, 1);
            int pk = sqlite3_column_int(c, 2), nfk = t->ncols;
            char *name = dup_col(c, 0);
            npk += pk > 0;
            if (name && pk == 1 && strcmp(name, "id") == 0 && type && strcasecmp(type, "INTEGER") == 0)
                t->has_id = 1;
            if (!name || !ku_push(&t->fk_table, &nfk, sizeof *t->fk_table)
                || ku_push_ptr(&t->col, &t->ncols, name)) {
                free(name);
                oom = 1;
            }
        }
        sqlite3_finalize(c);
        if (oom)
            return ku_fail(m->err, sizeof m->err, "out of memory"), -1;
        if (npk != 1)
            t->has_id = 0;
        if (sqlite3_prepare_v2(m->h, "SELECT \"from\", \"table\" FROM"
                               " pragma_foreign_key_list(?1, 'main')", -1, &c, NULL) != SQLITE_OK)
            return -1;
        sqlite3_bind_text(c, 1, t->name, -1, SQLITE_STATIC);
        while (sqlite3_step(c) == SQLITE_ROW) {
            const char *from = (const char *)sqlite3_column_text(c, 0);
            const char *to = (const char *)sqlite3_column_text(c, 1);
            for (int k = 0; k < t->ncols; k++)
                if (from && to && strcmp(t->col[k], from) == 0 && !t->fk_table[k]
                    && !(t->fk_table[k] = strdup(to)))
                    oom = 1;
        }
        sqlite3_finalize(c);
        if (oom)
            return ku_fail(m->err, sizeof m->err, "out of memory"), -1;
    }
    /* TU-owned: translation_units and whatever reaches it by foreign keys. */
    table *tu = find(m, "translation_units");
    if (!tu || !tu->has_id) {
        ku_fail(m->err, sizeof m->err, "no translation_units table");
        return -1;
    }
    tu->tu_owned = 1;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int i = 0; i < m->n; i++) {
            table *t = &m->t[i];
            for (int k = 0; k < t->ncols && !t->tu_owned; k++) {
                table *r = t->fk_table[k] ? find(m, t->fk_table[k]) : NULL;
                if (r && r != t && r->tu_owned)
                    t->tu_owned = changed = 1;
            }
        }
    }
    return 0;
}

static int exec1(merger *m, const char *sql)
{
    char *e = NULL;
    if (sqlite3_exec(m->h, sql, NULL, NULL, &e) != SQLITE_OK) {
        ku_fail(m->err, sizeof m->err, "%s", e ? e : sqlite3_errmsg(m->h));
        sqlite3_free(e);
        return -1;
    }
    return 0;
}

/* Run one statement; its first column's value when it returns a row.
 * offsets: ?N is bound to the id shift of table N (m->t[N - 1].off). */
static long long run(merger *m, const char *sql, int offsets, int *ok)
{
    sqlite3_stmt *q;
    long long v = 0;
    *ok = 0;
    if (sqlite3_prepare_v2(m->h, sql, -1, &q, NULL) != SQLITE_OK) {
        ku_fail(m->err, sizeof m->err, "%s", sqlite3_errmsg(m->h));
        return 0;
    }
    for (int k = 1; offsets && k <= sqlite3_bind_parameter_count(q) && k <= m->n; k++)
        sqlite3_bind_int64(q, k, m->t[k - 1].off);
    int r = sqlite3_step(q);
    if (r == SQLITE_ROW)
        v = sqlite3_column_int64(q, 0);
    if (r == SQLITE_ROW || r == SQLITE_DONE)
        *ok = 1;
    else
        ku_fail(m->err, sizeof m->err, "%s", sqlite3_errmsg(m->h));
    sqlite3_finalize(q);
    return v;
}

/* INSERT the picked TUs' rows of table t from src into main.  The text
 * names OUT's own tables and columns; the id shifts are bound (?N: table
 * N's), the rows move inside SQLite. */
static int copy_table(merger *m, table *t)
{
    ku_buf b = { 0 };
    int ok = 0;
    ku_buf_put(&b, "INSERT INTO main.");
    put_ident(&b, t->name);
    ku_buf_put(&b, " (");
    for (int k = 0; k < t->ncols; k++) {
        ku_buf_put(&b, k ? "," : "");
        put_ident(&b, t->col[k]);
    }
    ku_buf_put(&b, ") SELECT ");
    for (int k = 0; k < t->ncols; k++) {
        table *r = t->fk_table[k] ? find(m, t->fk_table[k]) : NULL;
        ku_buf_put(&b, k ? "," : "");
        put_ident(&b, t->col[k]);
        if (t->has_id && strcmp(t->col[k], "id") == 0)
            ku_buf_printf(&b, " + ?%d", (int)(t - m->t) + 1);
        else if (r && r->has_id && r->tu_owned)
            ku_buf_printf(&b, " + ?%d", (int)(r - m->t) + 1);
    }
    ku_buf_put(&b, " FROM src.");
    put_ident(&b, t->name);
    ku_buf_put(&b, " WHERE 1");
    if (strcmp(t->name, "translation_units") == 0)
        ku_buf_put(&b, " AND id IN (SELECT id FROM temp.merge_pick)");
    for (int k = 0; k < t->ncols; k++) {
        table *r = t->fk_table[k] ? find(m, t->fk_table[k]) : NULL;
        if (!r || r == t || !r->tu_owned || !r->has_id)
            continue;
        ku_buf_put(&b, " AND (");
        put_ident(&b, t->col[k]);
        ku_buf_put(&b, " IS NULL OR ");
        put_ident(&b, t->col[k]);
        ku_buf_printf(&b, " + ?%d IN (SELECT id FROM main.", (int)(r - m->t) + 1);
        put_ident(&b, r->name);
        ku_buf_printf(&b, " WHERE id > ?%d))", (int)(r - m->t) + 1);
    }
    char *sql = ku_buf_take(&b);
    if (!sql)
        ku_fail(m->err, sizeof m->err, "out of memory");
    else
        run(m, sql, 1, &ok);
    free(sql);
    return ok ? 0 : -1;
}

/* The columns of t other than id and loop_id, as "a","b","c" (with prefix
 * p. before each when p is not NULL), into b. */
static void decision_cols(ku_buf *b, const table *t, const char *p)
{
    int first = 1;
    for (int k = 0; k < t->ncols; k++) {
        if (strcmp(t->col[k], "id") == 0 || strcmp(t->col[k], "loop_id") == 0)
            continue;
        ku_buf_printf(b, "%s%s%s", first ? "" : ",", p ? p : "", p ? "." : "");
        put_ident(b, t->col[k]);
        first = 0;
    }
}

/* exec1 of a statement built in b (freed); -1 after the message, also when
 * b ran out of memory. */
static int exec_buf(merger *m, ku_buf *b)
{
    char *sql = ku_buf_take(b);
    int r = sql ? exec1(m, sql) : (ku_fail(m->err, sizeof m->err, "out of memory"), -1);
    free(sql);
    return r;
}

/* Does schema sch ("main", "src") hold table name, an ordinary table (not
 * a view or a virtual table)? */
static int has_table(merger *m, const char *sch, const char *name)
{
    sqlite3_stmt *q;
    long long n = 0;
    if (sqlite3_prepare_v2(m->h, "SELECT count(*) FROM pragma_table_list"
                           " WHERE schema = ?1 AND name = ?2 AND type = 'table'", -1, &q, NULL)
        != SQLITE_OK)
        return 0;
    sqlite3_bind_text(q, 1, sch, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, name, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
        n = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return n > 0;
}

/* Is name in the input anything but an ordinary table (a view, a virtual
 * table)?  Merge reads only tables: a view's text would be the input's
 * SQL run on our connection. */
static int src_not_table(merger *m, const char *name)
{
    sqlite3_stmt *q;
    int other = 0;
    if (sqlite3_prepare_v2(m->h, "SELECT count(*) FROM pragma_table_list"
                           " WHERE schema = 'src' AND name = ?1 AND type <> 'table'", -1, &q, NULL)
        != SQLITE_OK)
        return 1;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    other = sqlite3_step(q) != SQLITE_ROW || sqlite3_column_int64(q, 0) > 0;
    sqlite3_finalize(q);
    return other;
}

/* The measured history (libkeelrt's `history` table: per launch loop,
 * size key and device a sample count, mean and Welford m2; created on
 * first write, keyed by loop id without a foreign key).  Both sides' rows
 * are kept: each is moved to OUT's loop of the same build (path and
 * variant) at the same file:line:col and rows of one (loop, size, device) are combined as two
 * Welford accumulators are (Chan et al.): n = na + nb, d = mb - ma,
 * mean = ma + d nb / n, m2 = m2a + m2b + d^2 na nb / n.  Saved before the
 * replaced TUs go, put back after the copy. */
static int history_save(merger *m, int *have)
{
    *have = has_table(m, "src", "history") || has_table(m, "main", "history");
    if (!*have)
        return 0;
    if (!has_table(m, "main", "history")
        && history_create(m->h, m->err, sizeof m->err))
        return -1;
    int ok;
    m->hist_before = run(m, "SELECT coalesce(sum(samples), 0) FROM main.history", 0, &ok);
    if (exec1(m, "DROP TABLE IF EXISTS temp.merge_hist;"
                 "CREATE TEMP TABLE merge_hist AS SELECT t.path AS m_path,"
                 " t.variant AS m_variant, l.file AS m_file,"
                 " l.line AS m_line, l.col AS m_col, h.size_key, h.n, h.device, h.samples,"
                 " h.mean_s, h.m2 FROM main.history h JOIN main.loops l ON l.id = h.loop_id"
                 " JOIN main.translation_units t ON t.id = l.tu_id"
                 " WHERE " REPLACED_BUILD ";"
                 "DELETE FROM main.history WHERE loop_id IN (SELECT l.id FROM main.loops l"
                 " JOIN main.translation_units t ON t.id = l.tu_id"
                 " WHERE " REPLACED_BUILD ")"))
        return -1;
    if (has_table(m, "src", "history")
        && exec1(m, "INSERT INTO temp.merge_hist SELECT t.path, t.variant, l.file, l.line, l.col,"
                    " h.size_key,"
                    " h.n, h.device, h.samples, h.mean_s, h.m2 FROM src.history h"
                    " JOIN src.loops l ON l.id = h.loop_id"
                    " JOIN src.translation_units t ON t.id = l.tu_id"))
        return -1;
    return 0;
}

static int history_restore(merger *m, long long *samples)
{
    int ok;
    if (exec1(m, "INSERT INTO main.history(loop_id, size_key, n, device, samples, mean_s, m2)"
                 " SELECT l.id, h.size_key, h.n, h.device, h.samples, h.mean_s, h.m2"
                 " FROM temp.merge_hist h JOIN main.translation_units t ON " SAME_BUILD("h")
                 " JOIN main.loops l ON l.tu_id = t.id AND l.file = h.m_file"
                 "  AND l.line = h.m_line AND l.col = h.m_col WHERE true"
                 " ON CONFLICT(loop_id, size_key, device) DO UPDATE SET"
                 "  samples = samples + excluded.samples,"
                 "  mean_s = mean_s + (excluded.mean_s - mean_s) * excluded.samples"
                 "           / (samples + excluded.samples),"
                 "  m2 = m2 + excluded.m2 + (excluded.mean_s - mean_s) * (excluded.mean_s - mean_s)"
                 "       * samples * excluded.samples / (samples + excluded.samples);"
                 "DROP TABLE temp.merge_hist"))
        return -1;
    *samples = run(m, "SELECT coalesce(sum(samples), 0) FROM main.history", 0, &ok)
             - m->hist_before;
    return 0;
}

/* After a failure: DETACH src, m->err becomes "IN: reason". */
static void detach(merger *m, const char *in)
{
    char keep[1024];
    snprintf(keep, sizeof keep, "%s", m->err);
    exec1(m, "DETACH DATABASE src");
    ku_fail(m->err, sizeof m->err, "%s: %s", in, keep);
}

/* ATTACH the input as schema src and check that each table merge reads
 * from it is an ordinary table.  0; -1 with the reason in m->err (src is
 * detached again when it was attached). */
static int attach_input(merger *m, const char *in)
{
    sqlite3_stmt *a;
    if (sqlite3_prepare_v2(m->h, "ATTACH DATABASE ?1 AS src", -1, &a, NULL) != SQLITE_OK)
        return ku_fail(m->err, sizeof m->err, "%s", sqlite3_errmsg(m->h));
    sqlite3_bind_text(a, 1, in, -1, SQLITE_STATIC);
    int r = sqlite3_step(a);
    sqlite3_finalize(a);
    if (r != SQLITE_DONE)
        return ku_fail(m->err, sizeof m->err, "%s: %s", in, sqlite3_errmsg(m->h));
    static const char *const run_time[] = { "decisions", "history", "host_calibration" };
    for (int i = 0; i < m->n + 3; i++) {
        const char *name = i < m->n ? m->t[i].name : run_time[i - m->n];
        if ((i >= m->n || m->t[i].tu_owned) && src_not_table(m, name)) {
            ku_fail(m->err, sizeof m->err, "%s is not a table", name);
            detach(m, in);
            return -1;
        }
    }
    return 0;
}

/* temp.merge_pick: the input's TUs newer than OUT's of the same build
 * (or that OUT lacks); how many are taken and kept out. */
static int pick_tus(merger *m, int *taken, int *kept)
{
    int ok;
    if (exec1(m, "DROP TABLE IF EXISTS temp.merge_pick;"
                 "CREATE TEMP TABLE merge_pick(id INTEGER PRIMARY KEY, path TEXT, variant TEXT);"
                 "INSERT INTO temp.merge_pick SELECT s.id, s.path, s.variant"
                 " FROM src.translation_units s"
                 " WHERE NOT EXISTS (SELECT 1 FROM main.translation_units o WHERE o.path = s.path"
                 "                    AND o.variant IS s.variant AND o.compiled_at >= s.compiled_at)"))
        return -1;
    *taken = (int)run(m, "SELECT count(*) FROM temp.merge_pick", 0, &ok);
    *kept = (int)run(m, "SELECT count(*) FROM src.translation_units WHERE id NOT IN"
                        " (SELECT id FROM temp.merge_pick)", 0, &ok);
    return 0;
}

/* temp.merge_dec: OUT's decisions of the TUs about to be replaced and the
 * input's decisions of the TUs it loses, by location. */
static int decisions_save(merger *m, table *dec)
{
    ku_buf b = { 0 };
    ku_buf_put(&b, "DROP TABLE IF EXISTS temp.merge_dec;"
                   "CREATE TEMP TABLE merge_dec AS SELECT t.path AS m_path,"
                   " t.variant AS m_variant, l.file AS m_file,"
                   " l.line AS m_line, l.col AS m_col, ");
    decision_cols(&b, dec, "d");
    ku_buf_put(&b, " FROM main.decisions d"
                   " JOIN main.loops l ON l.id = d.loop_id"
                   " JOIN main.translation_units t ON t.id = l.tu_id"
                   " WHERE " REPLACED_BUILD);
    if (exec_buf(m, &b))
        return -1;
    ku_buf_put(&b, "INSERT INTO temp.merge_dec SELECT t.path, t.variant, l.file, l.line,"
                   " l.col, ");
    decision_cols(&b, dec, "d");
    ku_buf_put(&b, " FROM src.decisions d JOIN src.loops l ON l.id = d.loop_id"
                   " JOIN src.translation_units t ON t.id = l.tu_id"
                   " WHERE t.id NOT IN (SELECT id FROM temp.merge_pick)");
    return exec_buf(m, &b);
}

/* Each TU-owned table's id offset: the input's ids are shifted past OUT's. */
static int id_offsets(merger *m)
{
    int ok;
    for (int i = 0; i < m->n; i++) {
        table *t = &m->t[i];
        t->done = 0;
        t->off = 0;
        if (t->tu_owned && t->has_id) {
            ku_buf b = { 0 };
            ku_buf_put(&b, "SELECT coalesce(max(id), 0) FROM main.");
            put_ident(&b, t->name);
            char *sqlm = ku_buf_take(&b);
            t->off = sqlm ? run(m, sqlm, 0, &ok) : 0;
            free(sqlm);
            if (!sqlm || !ok)
                return -1;
        }
    }
    return 0;
}

/* Copy the picked TUs' rows, tables in foreign-key order: a table after
 * the tables it refers to. */
static int copy_tables(merger *m)
{
    for (int progress = 1; progress;) {
        progress = 0;
        for (int i = 0; i < m->n; i++) {
            table *t = &m->t[i];
            if (!t->tu_owned || t->done)
                continue;
            int ready = 1;
            for (int k = 0; k < t->ncols; k++) {
                table *r = t->fk_table[k] ? find(m, t->fk_table[k]) : NULL;
                if (r && r != t && r->tu_owned && !r->done)
                    ready = 0;
            }
            if (!ready)
                continue;
            if (copy_table(m, t))
                return -1;
            t->done = progress = 1;
        }
    }
    return 0;
}

/* Saved decisions onto the winning TU's loop at the same place, without
 * duplicating a row that is there already. */
static int decisions_restore(merger *m, table *dec)
{
    ku_buf b = { 0 };
    ku_buf_put(&b, "INSERT INTO main.decisions (loop_id, ");
    decision_cols(&b, dec, NULL);
    ku_buf_put(&b, ") SELECT l.id, ");
    decision_cols(&b, dec, "d");
    ku_buf_put(&b, " FROM temp.merge_dec d"
                   " JOIN main.translation_units t ON " SAME_BUILD("d")
                   " JOIN main.loops l ON l.tu_id = t.id AND l.file = d.m_file"
                   "  AND l.line = d.m_line AND l.col = d.m_col"
                   " WHERE NOT EXISTS (SELECT 1 FROM main.decisions x WHERE x.loop_id = l.id"
                   "   AND x.bindings IS d.bindings AND x.device IS d.device"
                   "   AND x.decided_at IS d.decided_at AND x.verdict IS d.verdict)");
    return exec_buf(m, &b);
}

/* The input's host calibrations OUT has not (same host, same time). */
static int calibrations_add(merger *m, table *hc)
{
    ku_buf b = { 0 };
    ku_buf_put(&b, "INSERT INTO main.host_calibration (");
    decision_cols(&b, hc, NULL);
    ku_buf_put(&b, ") SELECT ");
    decision_cols(&b, hc, NULL);
    ku_buf_put(&b, " FROM src.host_calibration s"
                   " WHERE NOT EXISTS (SELECT 1 FROM main.host_calibration o"
                   " WHERE o.host IS s.host AND o.measured_at IS s.measured_at)");
    return exec_buf(m, &b);
}

/* The stored models this input's rows brought (their launch loops' ids
 * are past OUT's own, loops' shift), written again for the shifted ids by
 * m->model_fn, or dropped.  Read first, then written: the scan does not
 * run over rows it changes. */
static int models_shift(merger *m)
{
    table *np = find(m, "nest_packs"), *lt = find(m, "loops");
    table *st = find(m, "statements"), *at = find(m, "accesses");
    if (!np || !lt || !st || !at)
        return 0;
    db_merge_shift sh = { lt->off, st->off, at->off };
    static const char sql_get[] =
        "SELECT loop_id, packed FROM main.nest_packs WHERE loop_id > ?1 ORDER BY loop_id";
    static const char sql_put[] = "UPDATE main.nest_packs SET packed = ?2 WHERE loop_id = ?1";
    static const char sql_drop[] = "DELETE FROM main.nest_packs WHERE loop_id = ?1";
    sqlite3_stmt *get = NULL, *put = NULL, *drop = NULL;
    typedef struct { long long id; void *bytes; size_t n; } model;
    model *v = NULL;
    int nv = 0, rc = 0;
    if (sqlite3_prepare_v2(m->h, sql_get, -1, &get, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(m->h, sql_put, -1, &put, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(m->h, sql_drop, -1, &drop, NULL) != SQLITE_OK) {
        rc = -1;
        goto out;
    }
    sqlite3_bind_int64(get, 1, sh.loops);
    int step;
    while ((step = sqlite3_step(get)) == SQLITE_ROW) {
        model *x = ku_push(&v, &nv, sizeof *v);     /* zeroed: no bytes yet */
        if (!x) {
            rc = ku_fail(m->err, sizeof m->err, "out of memory");
            goto out;
        }
        x->id = sqlite3_column_int64(get, 0);
        const void *b = sqlite3_column_blob(get, 1);
        int len = sqlite3_column_bytes(get, 1);
        if (!m->model_fn || !b ||
            m->model_fn(m->model_ctx, b, (size_t)len, &sh, &x->bytes, &x->n) != 0)
            x->bytes = NULL;
    }
    if (step != SQLITE_DONE) {
        rc = -1;
        goto out;
    }
    for (int i = 0; i < nv && rc == 0; i++) {
        sqlite3_stmt *q = v[i].bytes ? put : drop;
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, v[i].id);
        if (v[i].bytes)
            sqlite3_bind_blob(q, 2, v[i].bytes, (int)v[i].n, SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE)
            rc = -1;
    }
out:
    if (rc && !m->err[0])
        ku_fail(m->err, sizeof m->err, "%s", sqlite3_errmsg(m->h));
    for (int i = 0; i < nv; i++)
        free(v[i].bytes);
    free(v);
    sqlite3_finalize(get), sqlite3_finalize(put), sqlite3_finalize(drop);
    return rc;
}

/* The merge of one attached input inside the open transaction. */
static int merge_rows(merger *m, int *taken, int *kept, long long *decisions, long long *hist)
{
    int ok, have_hist = 0;
    if (pick_tus(m, taken, kept))
        return -1;
    table *dec = find(m, "decisions");
    long long dec_before = dec ? run(m, "SELECT count(*) FROM main.decisions", 0, &ok) : 0;
    if (dec && decisions_save(m, dec))
        return -1;
    if (history_save(m, &have_hist))
        return -1;
    if (exec1(m, "DELETE FROM main.translation_units AS t WHERE " REPLACED_BUILD))
        return -1;
    if (id_offsets(m) || copy_tables(m) || models_shift(m))
        return -1;
    if (dec) {
        if (decisions_restore(m, dec))
            return -1;
        *decisions = run(m, "SELECT count(*) FROM main.decisions", 0, &ok) - dec_before;
    }
    if (have_hist && history_restore(m, hist))
        return -1;
    table *hc = find(m, "host_calibration");
    if (hc && calibrations_add(m, hc))
        return -1;
    return 0;
}

static int merge_one(merger *m, const char *in, int *taken, int *kept, long long *decisions,
                     long long *hist)
{
    *taken = *kept = 0;
    *decisions = *hist = 0;
    if (attach_input(m, in))
        return -1;
    if (exec1(m, "BEGIN IMMEDIATE")) {
        detach(m, in);
        return -1;
    }
    if (merge_rows(m, taken, kept, decisions, hist) || exec1(m, "COMMIT")) {
        char keep[1024];
        snprintf(keep, sizeof keep, "%s", m->err);
        exec1(m, "ROLLBACK");
        ku_fail(m->err, sizeof m->err, "%s", keep);
        detach(m, in);
        return -1;
    }
    exec1(m, "DROP TABLE IF EXISTS temp.merge_pick; DROP TABLE IF EXISTS temp.merge_dec");
    exec1(m, "DETACH DATABASE src");
    return 0;
}


/* ---- db_merge.h ------------------------------------------------------------ */

int db_merge_begin(db *out, db_merger **mp, char *err, size_t errlen)
{
    assert(out && mp);
    *mp = NULL;
    merger *m = calloc(1, sizeof *m);
    if (!m)
        return ku_fail(err, errlen, "out of memory");
    m->h = db_sqlite_(out);
    if (load_schema(m)) {
        ku_fail(err, errlen, "%s", m->err[0] ? m->err : sqlite3_errmsg(m->h));
        merger_free(m);
        return -1;
    }
    *mp = m;
    return 0;
}

int db_merge_input(db_merger *m, const char *in, db_merge_stats *st, char *err, size_t errlen)
{
    assert(m && in && st);
    memset(st, 0, sizeof *st);
    m->err[0] = 0;
    if (merge_one(m, in, &st->taken, &st->kept, &st->decisions, &st->history_samples))
        return ku_fail(err, errlen, "%s", m->err);
    return 0;
}

void db_merge_set_model_fn(db_merger *m, db_merge_model_fn fn, void *ctx)
{
    assert(m);
    m->model_fn = fn, m->model_ctx = ctx;
}

void db_merge_totals(db_merger *m, long long *sources, long long *loops)
{
    assert(m && sources && loops);
    int ok;
    *sources = run(m, "SELECT count(*) FROM translation_units", 0, &ok);
    *loops = run(m, "SELECT count(*) FROM loops", 0, &ok);
}

void db_merge_end(db_merger *m)
{
    merger_free(m);
}
