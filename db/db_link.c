/*
 * db_link.c -- the link table of packed nests (db_nest.h): for the
 * translation units a link holds (by the object each was compiled into),
 * stored loop model of every launch site, keyed by build hash, stored file
 * and position (layout in db_nest.h); and the store of one model's bytes
 * (db_nest_put).  Writer side: keelcc's link step
 * calls it; the runtime only reads tables (db_link_find in db_pack.c).
 */
#include "db_nest.h"
#include "db_private.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char sql_sites[] =
    "SELECT l.id, t.hash, l.file, l.line, l.col FROM translation_units t"
    " JOIN loops l ON l.tu_id = t.id"
    " WHERE (t.object = ?1 OR t.hash = ?1 OR '#' || t.id = ?1)"
    "   AND t.hash IS NOT NULL AND t.status = 'ok'"
    "   AND l.site IN ('call', 'clause')"
    " ORDER BY t.hash, l.file, l.line, l.col, l.id";

typedef struct {
    unsigned char *p;
    size_t n, cap;
    int oom;
} lbuf;

static void lput(lbuf *b, const void *v, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->n, v, n);
    b->n += n;
}

static void lput_u32(lbuf *b, uint64_t v)
{
    unsigned char x[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24) };
    lput(b, x, 4);
}


typedef struct {
    int64_t id;
    char *hash, *file;
    int line, col;
    unsigned char *nest;
    size_t len;
} site_row;

/* The directory's order (db_link_find's binary search): line, column,
 * build hash, then file and loop id (so the same rows give the same
 * bytes). */
static int cmp_row(const void *va, const void *vb)
{
    const site_row *a = va, *b = vb;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->col != b->col)
        return a->col < b->col ? -1 : 1;
    int c = memcmp(a->hash, b->hash, 16);
    if (c)
        return c;
    if ((c = strcmp(a->file, b->file)))
        return c;
    return (a->id > b->id) - (a->id < b->id);
}

int db_link_table(db *d, const char *const *objects, int nobjects, unsigned char **out,
                  size_t *n, char *err, size_t errlen)
{
    site_row *rows = NULL;
    int nrows = 0, rc = 0;
    *out = NULL;
    *n = 0;
    for (int k = 0; k < nobjects && rc == 0; k++) {
        char e2[8];
        sqlite3_stmt *st = db_stmt_(d, sql_sites, e2, sizeof e2);
        if (!st)
            return db_fail_sql_(d, "link table", err, errlen);
        db_bind_text_(st, 1, objects[k]);
        int s;
        while (rc == 0 && (s = sqlite3_step(st)) == SQLITE_ROW) {
            const char *h = (const char *)sqlite3_column_text(st, 1),
                       *f = (const char *)sqlite3_column_text(st, 2);
            if (!h || strlen(h) != 16 || !f)
                continue;              /* not a build hash a site names */
            site_row *r = ku_push(&rows, &nrows, sizeof *rows);
            if (!r || !(r->hash = strdup(h)) || !(r->file = strdup(f)))
                rc = ku_fail(err, errlen, "out of memory");
            else {
                r->id = sqlite3_column_int64(st, 0);
                r->line = sqlite3_column_int(st, 3);
                r->col = sqlite3_column_int(st, 4);
            }
        }
        if (rc == 0 && s != SQLITE_DONE)
            rc = db_fail_sql_(d, "link table", err, errlen);
        db_done_(st);
    }
    /* in the directory's order, each loop once (a translation unit named
     * by its object and by its build hash comes twice: equal rows are
     * neighbours, cmp_row ending on the id) */
    if (rc == 0 && nrows > 1)     /* (after an allocation failure a row may lack its hash) */
        qsort(rows, (size_t)nrows, sizeof *rows, cmp_row);
    if (rc == 0) {
        int kept = 0;
        for (int i = 0; i < nrows; i++)
            if (kept > 0 && rows[kept - 1].id == rows[i].id)
                free(rows[i].hash), free(rows[i].file);
            else
                rows[kept++] = rows[i];
        nrows = kept;
    }
    /* the stored models, as they are (none for a nest keelcc stored no
     * model of this format for: the runtime asks the database) */
    int entries = 0;
    size_t data = 0;
    for (int i = 0; i < nrows && rc == 0; i++) {
        int r = db_nest_stored(d, rows[i].id, &rows[i].nest, &rows[i].len, err, errlen);
        if (r == 0 && !db_nest_current(rows[i].nest, rows[i].len)) {
            free(rows[i].nest);
            rows[i].nest = NULL;
            r = 1;
        }
        if (r < 0)
            rc = -1;
        else if (r == 0)
            entries++, data += strlen(rows[i].file) + 1 + rows[i].len;
    }
    lbuf b = { 0 };
    size_t head = 20 + (size_t)entries * DB_LINK_ENTRY, at = head;
    if (rc == 0 && entries > 0 && head + data > 0x7fffffff)
        rc = ku_fail(err, errlen, "link table too large");
    if (rc == 0 && entries > 0) {
        lput(&b, DB_LINK_MAGIC, 8);
        lput_u32(&b, DB_LINK_VERSION);
        lput_u32(&b, head + data);
        lput_u32(&b, (uint32_t)entries);
        for (int i = 0; i < nrows; i++) {
            if (!rows[i].nest)
                continue;
            size_t fl = strlen(rows[i].file) + 1;
            lput_u32(&b, (uint32_t)rows[i].line);
            lput_u32(&b, (uint32_t)rows[i].col);
            lput(&b, rows[i].hash, 16);
            lput_u32(&b, at);
            lput_u32(&b, at + fl);
            lput_u32(&b, rows[i].len);
            lput_u32(&b, 0);
            at += fl + rows[i].len;
        }
        for (int i = 0; i < nrows; i++)
            if (rows[i].nest) {
                lput(&b, rows[i].file, strlen(rows[i].file) + 1);
                lput(&b, rows[i].nest, rows[i].len);
            }
        if (b.oom)
            rc = ku_fail(err, errlen, "out of memory");
    }
    for (int i = 0; i < nrows; i++)
        free(rows[i].hash), free(rows[i].file), free(rows[i].nest);
    free(rows);
    if (rc != 0 || entries == 0) {
        free(b.p);
        return rc;
    }
    *out = b.p;
    *n = b.n;
    return 0;
}

/* ---- the stored packed nests (db_nest.h) --------------------------------- */

static const char sql_put_pack[] =
    "INSERT OR REPLACE INTO nest_packs(loop_id, packed) VALUES (?1, ?2)";

int db_nest_put(db *d, int64_t root, const void *bytes, size_t n, char *err, size_t errlen)
{
    if (n > 0x7fffffff)
        return ku_fail(err, errlen, "loop %lld: packed nest too large to store",
                       (long long)root);
    char e2[8];
    sqlite3_stmt *st = db_stmt_(d, sql_put_pack, e2, sizeof e2);
    if (!st)
        return db_fail_sql_(d, "store packed nest", err, errlen);
    sqlite3_bind_int64(st, 1, root);
    sqlite3_bind_blob(st, 2, bytes, (int)n, SQLITE_STATIC);
    return db_run_(d, st, "store packed nest", err, errlen);
}
