/*
 * db_pack.c -- the packed forms that travel with a program: a nest's facts
 * as one row source, from the database or from its packed form
 * (db_nest.h), and a host's calibration likewise (db_calib_pack.h).
 *
 * The nest row source reads a database (db_nest_from_db).  The packed
 * nest is keelcc's loop model (analysis/nest_pack.h), stored and linked
 * here as opaque bytes (db_nest_stored reads it back; of its header db/
 * reads the magic, the version and the launch loop's id only); the link
 * table's lookup is db_link_find below.
 *
 * The packed calibration, every integer little-endian, a double as the
 * little-endian bits of its IEEE 754 binary64 value: "KEELCALB", u32
 * version, u32 length of the whole, u64 FNV-1a of bytes [24, length), then
 * its fields (db_calib_pack below).  A check that fails refuses the whole
 * form.
 */
#include "db_nest.h"
#include "db_calib_pack.h"
#include "db_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop_facts.h"
#include "util.h"

enum { HEADER = 32, NO_STR = 0xffffffffu };

struct db_nest {
    db *d;
};

/* ---- encoding ------------------------------------------------------------ */

typedef struct {
    unsigned char *p;
    size_t n, cap;
    int oom;
} wbuf;

static void put(wbuf *w, const void *v, size_t n)
{
    if (w->oom)
        return;
    if (w->n + n > w->cap) {
        size_t cap = w->cap ? w->cap : 1024;
        while (cap < w->n + n)
            cap *= 2;
        unsigned char *p = realloc(w->p, cap);
        if (!p) {
            w->oom = 1;
            return;
        }
        w->p = p, w->cap = cap;
    }
    memcpy(w->p + w->n, v, n);
    w->n += n;
}

static void put_u(wbuf *w, uint64_t v, int bytes)
{
    unsigned char b[8];
    for (int i = 0; i < bytes; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(w, b, (size_t)bytes);
}

static void put_i32(wbuf *w, int v) { put_u(w, (uint32_t)(int32_t)v, 4); }
static void put_i64(wbuf *w, int64_t v) { put_u(w, (uint64_t)v, 8); }

static void put_f64(wbuf *w, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_u(w, bits, 8);
}

static void put_str(wbuf *w, const char *s)
{
    if (!s) {
        put_u(w, NO_STR, 4);
        return;
    }
    size_t n = strlen(s);
    put_u(w, (uint32_t)n, 4);
    put(w, s, n + 1);
}

static int seal(wbuf *w, const char *noun, char *err, size_t errlen);

/* ---- decoding ------------------------------------------------------------ */

typedef struct {
    const unsigned char *p, *end;
    int bad;                    /* 1: ran past the end or a malformed field */
    int fill;                   /* 0: checking pass; 1: reading bytes checked before */
} rd;

static uint64_t get_u(rd *r, int bytes)
{
    if (r->bad || r->end - r->p < bytes) {
        r->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)r->p[i] << (8 * i);
    r->p += bytes;
    return v;
}

static int get_i32(rd *r) { return (int)(int32_t)(uint32_t)get_u(r, 4); }
static int64_t get_i64(rd *r) { return (int64_t)get_u(r, 8); }

static double get_f64(rd *r)
{
    uint64_t bits = get_u(r, 8);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* A count of things that follow, each at least `least` bytes long. */
static int get_count(rd *r, size_t least)
{
    uint64_t n = get_u(r, 4);
    if (r->bad || n > (uint64_t)(r->end - r->p) / least || n > 0x7fffffff)
        return r->bad = 1, 0;
    return (int)n;
}

static const char *get_str(rd *r)
{
    uint64_t n = get_u(r, 4);
    if (r->bad || n == NO_STR)
        return NULL;
    /* (the filling pass reads bytes the counting pass checked) */
    if (n >= (uint64_t)(r->end - r->p) || r->p[n] != '\0' ||
        (!r->fill && memchr(r->p, '\0', n))) {
        r->bad = 1;
        return NULL;
    }
    const char *s = (const char *)r->p;
    r->p += n + 1;
    return s;
}

/* The header of a packed form: magic, version, length, checksum; 0 with r
 * past it, or -1 with one message ("what: ..."). */
static int check_header(const unsigned char *b, size_t n, const char *magic, unsigned oldest,
                        unsigned version, const char *what, const char *noun, rd *r, char *err,
                        size_t errlen)
{
    if (!b || n < HEADER + 1 || memcmp(b, magic, 8) != 0)
        return ku_fail(err, errlen, "%s: not %s (no \"%.8s\" header)", what, noun, magic);
    r->p = b + 8;
    r->end = b + n;
    uint64_t v = get_u(r, 4), len = get_u(r, 4), sum = get_u(r, 8);
    if (v < oldest || v > version)
        return ku_fail(err, errlen, "%s: format version %llu, this runtime reads %u", what,
                       (unsigned long long)v, version);
    if (len != n)
        return ku_fail(err, errlen, "%s: truncated (%zu of %llu bytes)", what, n,
                       (unsigned long long)len);
    if (ku_fnv1a64(b + 24, n - 24) != sum)
        return ku_fail(err, errlen, "%s: corrupt (checksum differs)", what);
    return 0;
}

/* The length and checksum of a packed form written whole into w: 0, or
 * -1 with a message. */
static int seal(wbuf *w, const char *noun, char *err, size_t errlen)
{
    if (w->oom || w->n > 0xffffffffu)
        return ku_fail(err, errlen, w->oom ? "out of memory" : "%s too large to pack", noun);
    for (int i = 0; i < 4; i++)
        w->p[12 + i] = (unsigned char)(w->n >> (8 * i));
    uint64_t h = ku_fnv1a64(w->p + 24, w->n - 24);
    for (int i = 0; i < 8; i++)
        w->p[16 + i] = (unsigned char)(h >> (8 * i));
    return 0;
}

int db_nest_from_db(db *d, db_nest **out, char *err, size_t errlen)
{
    db_nest *s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return ku_fail(err, errlen, "out of memory");
    s->d = d;
    return 0;
}

void db_nest_close(db_nest *s)
{
    free(s);
}

/* ---- the stored packed nest (schema 18) ---------------------------------- */

static const char sql_get_pack[] = "SELECT packed FROM nest_packs WHERE loop_id = ?1";

int db_nest_stored(db *d, int64_t root, unsigned char **out, size_t *n, char *err,
                   size_t errlen)
{
    *out = NULL;
    *n = 0;
    if (d->version < 18)
        return 1;
    char e2[8];
    sqlite3_stmt *st = db_stmt_(d, sql_get_pack, e2, sizeof e2);
    if (!st)
        return db_fail_sql_(d, "read packed nest", err, errlen);
    sqlite3_bind_int64(st, 1, root);
    int r = db_step_row_(d, st, "read packed nest", err, errlen);
    if (r != 0)
        return r;
    const unsigned char *b = sqlite3_column_blob(st, 0);
    size_t len = (size_t)sqlite3_column_bytes(st, 0);
    /* its launch loop (header bytes 24..32) must be the row's */
    int64_t at = 0;
    for (int i = 0; b && len >= HEADER && i < 8; i++)
        at |= (int64_t)((uint64_t)b[24 + i] << (8 * i));
    if (b && len >= HEADER && at == root) {
        if (!(*out = malloc(len)))
            r = ku_fail(err, errlen, "out of memory");
        else {
            memcpy(*out, b, len);
            *n = len;
        }
    } else
        r = 1;
    db_done_(st);
    return r;
}

int db_nest_current(const void *bytes, size_t n)
{
    const unsigned char *b = bytes;
    return b && n >= 32 && memcmp(b, DB_NEST_MAGIC, 8) == 0 &&
           ((uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 |
            (uint32_t)b[11] << 24) == DB_NEST_MODEL_VERSION;
}

/* ---- the reader calls ---------------------------------------------------- */

int db_nest_loop(db_nest *s, int64_t loop_id, db_loop_info **out, char *err, size_t errlen)
{
    return db_get_loop(s->d, loop_id, out, err, errlen);
}

void db_nest_loop_free(db_nest *s, db_loop_info *l)
{
    (void)s;
    db_free_loop(l);
}

int db_nest_mca_each(db_nest *s, int64_t loop_id, db_mca_fn fn, void *ctx, char *err,
                     size_t errlen)
{
    return db_mca_each(s->d, loop_id, fn, ctx, err, errlen);
}

int db_nest_launch_get(db_nest *s, int64_t loop_id, int *region, int *omp_target, char *err,
                       size_t errlen)
{
    return db_launch_get(s->d, loop_id, region, omp_target, err, errlen);
}

int db_nest_launch_each_loop(db_nest *s, int64_t launch_id, db_launch_loop_fn fn, void *ctx,
                             char *err, size_t errlen)
{
    return db_launch_each_loop(s->d, launch_id, fn, ctx, err, errlen);
}

int db_nest_launch_each_stride(db_nest *s, int64_t launch_id, db_launch_stride_fn fn,
                               void *ctx, char *err, size_t errlen)
{
    return db_launch_each_stride(s->d, launch_id, fn, ctx, err, errlen);
}

int db_nest_launch_each_cost(db_nest *s, int64_t launch_id, db_launch_cost_fn fn, void *ctx,
                             char *err, size_t errlen)
{
    return db_launch_each_cost(s->d, launch_id, fn, ctx, err, errlen);
}

int db_nest_launch_each_overlap(db_nest *s, int64_t launch_id, db_launch_overlap_fn fn,
                                void *ctx, char *err, size_t errlen)
{
    return db_launch_each_overlap(s->d, launch_id, fn, ctx, err, errlen);
}

/* ---- the link table: lookup (db_nest.h) ---------------------------------- */

/* The lookup below runs in a program's first decision, where each libc
 * function called first costs its lazy binding (some 800 instructions):
 * its few short compares and its search for a NUL are loops of its own. */
static int same_bytes(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    while (n && *x == *y)
        n--, x++, y++;
    return n == 0;
}

static int ends_in(const char *s, size_t n, const char *tail)
{
    size_t t = strlen(tail);
    return (n == t && same_bytes(s, tail, n)) ||
           (n > t && s[n - t - 1] == '/' && same_bytes(s + n - t, tail, t));
}

static uint32_t u32_at(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Entry e against (line, col, hash): <0, 0, >0 as e sorts before, with,
 * after it. */
static int entry_cmp(const unsigned char *e, int line, int col, const char *hash)
{
    int l = (int)(int32_t)u32_at(e), c = (int)(int32_t)u32_at(e + 4);
    if (l != line)
        return l < line ? -1 : 1;
    if (c != col)
        return c < col ? -1 : 1;
    for (int k = 0; k < 16; k++)      /* (memcmp, inline: same_bytes) */
        if (e[8 + k] != (unsigned char)hash[k])
            return e[8 + k] < (unsigned char)hash[k] ? -1 : 1;
    return 0;
}

int db_link_find(const unsigned char *table, const char *tail, int line, int col,
                 const char *hash, const unsigned char **nest, size_t *len)
{
    if (!table || !hash || strlen(hash) != 16 || !tail ||
        !same_bytes(table, DB_LINK_MAGIC, 8) || u32_at(table + 8) != DB_LINK_VERSION)
        return 1;
    size_t n = u32_at(table + 12), entries = u32_at(table + 16);
    if (n < 20 || entries > (n - 20) / DB_LINK_ENTRY)
        return 1;
    const unsigned char *dir = table + 20;
    size_t lo = 0, hi = entries;
    while (lo < hi) {                  /* the first entry not before the key */
        size_t mid = lo + (hi - lo) / 2;
        if (entry_cmp(dir + mid * DB_LINK_ENTRY, line, col, hash) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < entries && entry_cmp(dir + lo * DB_LINK_ENTRY, line, col, hash) == 0; lo++) {
        const unsigned char *e = dir + lo * DB_LINK_ENTRY;
        size_t fo = u32_at(e + 24), no = u32_at(e + 28), nl = u32_at(e + 32);
        const char *file = (const char *)table + fo, *nul = NULL;
        for (size_t k = 0; fo < n && k < n - fo && !nul; k++)    /* (memchr: same_bytes) */
            if (!file[k])
                nul = file + k;
        if (!nul || no > n || nl > n - no)
            return 1;                  /* a damaged table: the database answers */
        if (ends_in(file, (size_t)(nul - file), tail)) {
            *nest = table + no;
            *len = nl;
            return 0;
        }
    }
    return 1;
}

/* ---- a host's calibration (db_calib_pack.h) ------------------------------ */

struct db_calib_src {
    db_log *l;                  /* a log, or NULL: the packed calibration below */
    const char *host;
    int64_t id;
    db_calib_row row;
    int nfp, nbw;
    double *fp;
    db_bw_row *bw;
};

int db_calib_src_log(db_log *l, db_calib_src **out)
{
    db_calib_src *s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return -1;
    s->l = l;
    return 0;
}

size_t db_calib_packed_size(const void *bytes)
{
    const unsigned char *b = bytes;
    if (!b || memcmp(b, DB_CALIB_MAGIC, 8) != 0)
        return 0;
    rd r = { .p = b + 12, .end = b + 16 };
    return (size_t)get_u(&r, 4);
}

int db_calib_src_packed(const void *bytes, size_t n, db_calib_src **out, char *err,
                        size_t errlen)
{
    rd r = { 0 };
    *out = NULL;
    if (check_header(bytes, n, DB_CALIB_MAGIC, DB_CALIB_VERSION, DB_CALIB_VERSION,
                     "packed calibration", "a packed calibration", &r, err, errlen))
        return -1;
    r.p = (const unsigned char *)bytes + 24;
    db_calib_src s = { 0 };
    s.host = get_str(&r);
    s.id = get_i64(&r);
    s.row.cores = get_i32(&r);
    double *f[] = { &s.row.freq_hz, &s.row.mem_bw, &s.row.peak_flops, &s.row.fork_ns,
                    &s.row.join_ns, &s.row.sched_ns, &s.row.target_fallback_ns,
                    &s.row.page_bytes, &s.row.tlb_entries, &s.row.tlb_miss_ns,
                    &s.row.l1_bytes, &s.row.l2_bytes, &s.row.l3_bytes };
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        *f[i] = get_f64(&r);
    const char *lat = get_str(&r);
    snprintf(s.row.latencies, sizeof s.row.latencies, "%s", lat ? lat : "");
    const char *tcv = get_str(&r);
    snprintf(s.row.thread_curve, sizeof s.row.thread_curve, "%s", tcv ? tcv : "");
    s.nfp = get_count(&r, 8);
    const unsigned char *fp0 = r.p;
    r.p += r.bad ? 0 : (size_t)s.nfp * 8;
    s.nbw = get_count(&r, 21);
    const unsigned char *bw0 = r.p;
    for (int i = 0; i < s.nbw && !r.bad; i++) {
        get_str(&r), get_f64(&r), get_i32(&r), get_f64(&r);
    }
    if (r.bad || r.p != r.end || !s.host)
        return ku_fail(err, errlen, "packed calibration: corrupt (a record does not parse)");
    db_calib_src *x = calloc(1, sizeof *x + (size_t)s.nfp * sizeof(double) +
                                 (size_t)s.nbw * sizeof(db_bw_row));
    if (!x)
        return ku_fail(err, errlen, "out of memory");
    *x = s;
    x->fp = (double *)(x + 1);
    x->bw = (db_bw_row *)(x->fp + s.nfp);
    rd q = { .p = fp0, .end = r.end };
    for (int i = 0; i < s.nfp; i++)
        x->fp[i] = get_f64(&q);
    q.p = bw0;
    for (int i = 0; i < s.nbw; i++) {
        x->bw[i].pattern = get_str(&q);
        x->bw[i].footprint = get_f64(&q);
        x->bw[i].threads = get_i32(&q);
        x->bw[i].bytes_per_s = get_f64(&q);
    }
    *out = x;
    return 0;
}

void db_calib_src_close(db_calib_src *s)
{
    free(s);
}

int db_calib_src_newest(db_calib_src *s, const char *host, db_calib_row *c, int64_t *id)
{
    if (s->l)
        return db_calib_newest(s->l, host, c, id);
    if (!host || strcmp(host, s->host) != 0)
        return 1;
    *c = s->row;
    *id = s->id;
    return 0;
}

int db_calib_src_footprints(db_calib_src *s, int64_t id, double *fp, int max)
{
    if (s->l)
        return db_calib_footprints(s->l, id, fp, max);
    int n = id == s->id ? (s->nfp < max ? s->nfp : max) : 0;
    memcpy(fp, s->fp, sizeof *fp * (size_t)(n > 0 ? n : 0));
    return n;
}

void db_calib_src_each_bandwidth(db_calib_src *s, int64_t id, db_bw_fn fn, void *ctx)
{
    if (s->l) {
        db_calib_each_bandwidth(s->l, id, fn, ctx);
        return;
    }
    for (int i = 0; id == s->id && i < s->nbw; i++)
        fn(ctx, &s->bw[i]);
}

const char *db_calib_src_errmsg(db_calib_src *s)
{
    return s->l ? db_log_errmsg(s->l) : "";
}

/* ---- packing a calibration ----------------------------------------------- */

typedef struct {
    wbuf *w;
    int n;
} bw_pack;

static void count_bw(void *ctx, const db_bw_row *r)
{
    (void)r;
    ((bw_pack *)ctx)->n++;
}

static void put_bw(void *ctx, const db_bw_row *r)
{
    wbuf *w = ((bw_pack *)ctx)->w;
    put_str(w, r->pattern ? r->pattern : "");
    put_f64(w, r->footprint);
    put_i32(w, r->threads);
    put_f64(w, r->bytes_per_s);
}

int db_calib_pack(db *d, const char *host, unsigned char **out, size_t *n, char *err,
                  size_t errlen)
{
    db_log *l = NULL;
    db_calib_row row;
    int64_t id = 0;
    double fp[64];
    *out = NULL;
    *n = 0;
    if (db_log_borrow(d, &l, err, errlen))
        return -1;
    int r = db_calib_newest(l, host, &row, &id);
    if (r != 0) {
        db_log_close(l);
        return 1;                 /* no table (an older database) or no row: none */
    }
    wbuf w = { 0 };
    put(&w, DB_CALIB_MAGIC, 8);
    put_u(&w, DB_CALIB_VERSION, 4);
    put_u(&w, 0, 4);
    put_u(&w, 0, 8);
    put_str(&w, host);
    put_i64(&w, id);
    put_i32(&w, row.cores);
    double f[] = { row.freq_hz, row.mem_bw, row.peak_flops, row.fork_ns, row.join_ns,
                   row.sched_ns, row.target_fallback_ns, row.page_bytes, row.tlb_entries,
                   row.tlb_miss_ns, row.l1_bytes, row.l2_bytes, row.l3_bytes };
    for (size_t i = 0; i < sizeof f / sizeof *f; i++)
        put_f64(&w, f[i]);
    put_str(&w, row.latencies);
    put_str(&w, row.thread_curve);
    int nfp = db_calib_footprints(l, id, fp, 64);
    put_u(&w, (uint32_t)nfp, 4);
    for (int i = 0; i < nfp; i++)
        put_f64(&w, fp[i]);
    bw_pack bp = { &w, 0 };
    db_calib_each_bandwidth(l, id, count_bw, &bp);
    put_u(&w, (uint32_t)bp.n, 4);
    db_calib_each_bandwidth(l, id, put_bw, &bp);
    db_log_close(l);
    if (seal(&w, "calibration", err, errlen)) {
        free(w.p);
        return -1;
    }
    *out = w.p;
    *n = w.n;
    return 0;
}
