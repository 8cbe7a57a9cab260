/*
 * db_link.c -- the link table of packed nests (db_nest.h): for the
 * translation units a link holds (by the object each was compiled into),
 * the packed facts of every launch site, keyed by build hash, stored file
 * and position.  Writer side: keelcc's link step calls it; the runtime only
 * reads tables (db_link_find in db_nest.c).
 */
#include "db_nest.h"
#include "db_private.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char sql_sites[] =
    "SELECT l.id, t.hash, l.file, l.line, l.col FROM translation_units t"
    " JOIN loops l ON l.tu_id = t.id"
    " WHERE t.object = ?1 AND t.hash IS NOT NULL AND t.status = 'ok'"
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

static void lput_str(lbuf *b, const char *s)
{
    size_t n = strlen(s);
    lput_u32(b, n);
    lput(b, s, n + 1);
}

typedef struct {
    int64_t id;
    char *hash, *file;
    int line, col;
} site_row;

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
            site_row *r = ku_push(&rows, &nrows, sizeof *rows);
            const char *h = (const char *)sqlite3_column_text(st, 1),
                       *f = (const char *)sqlite3_column_text(st, 2);
            if (!r || !(r->hash = strdup(h ? h : "")) || !(r->file = strdup(f ? f : "")))
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
    lbuf b = { 0 };
    int entries = 0;
    lput(&b, DB_LINK_MAGIC, 8);
    lput_u32(&b, DB_LINK_VERSION);
    lput_u32(&b, 0);                  /* length, below */
    lput_u32(&b, 0);                  /* entries, below */
    for (int i = 0; i < nrows && rc == 0; i++) {
        unsigned char *nest = NULL;
        size_t len = 0;
        int r = db_nest_pack(d, rows[i].id, &nest, &len, err, errlen);
        if (r < 0)
            rc = -1;
        if (r != 0)
            continue;               /* no launch facts: the runtime asks the database */
        lput_str(&b, rows[i].hash);
        lput_str(&b, rows[i].file);
        lput_u32(&b, (uint32_t)rows[i].line);
        lput_u32(&b, (uint32_t)rows[i].col);
        lput_u32(&b, len);
        lput(&b, nest, len);
        free(nest);
        entries++;
    }
    for (int i = 0; i < nrows; i++)
        free(rows[i].hash), free(rows[i].file);
    free(rows);
    if (rc == 0 && (b.oom || b.n > 0x7fffffff))
        rc = ku_fail(err, errlen, b.oom ? "out of memory" : "link table too large");
    if (rc != 0 || entries == 0) {
        free(b.p);
        return rc;
    }
    for (int i = 0; i < 4; i++) {
        b.p[12 + i] = (unsigned char)(b.n >> (8 * i));
        b.p[16 + i] = (unsigned char)((unsigned)entries >> (8 * i));
    }
    *out = b.p;
    *n = b.n;
    return 0;
}
