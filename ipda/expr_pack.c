/*
 * expr_pack.c -- the binary form of kx_expr and the pool of expressions
 * keyed by text (see expr_pack.h for both layouts).
 *
 * Encoding walks the canonical representation (expr_int.h) as it is.
 * Decoding builds the same structures directly -- no algebra, no sorting
 * -- in one allocation: a first pass over the bytes sizes it (and checks
 * every length, count, kind and the depth), the second fills it (a term
 * array, per term its factor array, each name, each operand) and checks
 * that what it built is canonical (kx_int_canonical on every level, the
 * min/max operand order, the size limit), so a decoded expression is one
 * that kx_parse could have returned, held in one block that kx_free frees
 * whole (expr_int.h's `block`).  kx_decode_in skips the first pass: it
 * takes each part from the caller's memory (a decoder that keeps a whole
 * model in one block) and checks as it goes what the first pass would
 * have.  Every count is bounded by the bytes left
 * (a term takes at least two bytes, a factor three), so hostile bytes
 * cannot make it allocate more than a small multiple of their length.
 *
 * Errors name the byte offset where the form went wrong.
 */
#include "expr_pack.h"

#include <assert.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "expr_int.h"

enum { KIND_SYMBOL = 0, KIND_UNKNOWN = 7 };

/* ---- encoding ------------------------------------------------------------ */

static void put_name(ku_buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    ku_buf_put_uleb(b, n);
    ku_buf_putn(b, s ? s : "", n);
}

void kx_encode(const kx_expr *e, ku_buf *b)
{
    ku_buf_put_uleb(b, (uint64_t)e->n);
    for (int i = 0; i < e->n; i++) {
        const kx_term *t = &e->t[i];
        ku_buf_put_sleb(b, t->coeff);
        ku_buf_put_uleb(b, (uint64_t)t->nf);
        for (int j = 0; j < t->nf; j++) {
            const kx_factor *f = &t->f[j];
            char kind = (char)(f->kind + 1);
            ku_buf_putn(b, &kind, 1);
            ku_buf_put_uleb(b, (uint64_t)f->pow);
            switch (f->kind) {
            case KX_DIV:
            case KX_MOD:
            case KX_MIN:
            case KX_MAX:
                kx_encode(f->args[0], b);
                kx_encode(f->args[1], b);
                break;
            case KX_CALL:
            case KX_LOAD:
                put_name(b, f->name);
                ku_buf_put_uleb(b, (uint64_t)f->nargs);
                for (int k = 0; k < f->nargs; k++)
                    kx_encode(f->args[k], b);
                break;
            default:                       /* a symbol, unknown text */
                put_name(b, f->name);
                break;
            }
        }
    }
}

/* ---- decoding ------------------------------------------------------------ */

typedef struct {
    const unsigned char *p;
    size_t n, at;
    char *err;
    size_t errlen;
    int failed;
    unsigned char *mem;         /* pass 2: the block, bump-allocated from */
    size_t used, size;
    kx_mem *in;                 /* kx_decode_in: the caller's memory, else NULL */
} reader;

static int fail(reader *r, const char *what)
{
    if (!r->failed)
        ku_fail(r->err, r->errlen, "expression bytes: %s at byte %zu", what, r->at);
    r->failed = 1;
    return -1;
}

static int get_uv(reader *r, uint64_t *v)
{
    if (r->at < r->n && r->p[r->at] < 0x80) {    /* one byte: most numbers */
        *v = r->p[r->at++];
        return 0;
    }
    uint64_t x = 0;
    for (int i = 0; i < 10; i++) {
        if (r->at >= r->n)
            return fail(r, "truncated");
        unsigned c = r->p[r->at++];
        if (i == 9 && c > 1)
            return fail(r, "number too long");
        x |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return fail(r, "number too long");
}

static int get_count(reader *r, uint64_t max, int per, int *out)
{
    uint64_t v;
    if (get_uv(r, &v))
        return -1;
    if (v > max || v > (r->n - r->at) / (uint64_t)per)
        return fail(r, "truncated (a count beyond the bytes left)");
    *out = (int)v;
    return 0;
}

static size_t round8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/* Pass 2: the next n bytes of the block (pass 1 sized it), or of the
 * caller's memory (kx_decode_in; NULL with the reader failed: out of
 * memory).  Not zeroed: pass 2 sets every member. */
static void *take(reader *r, size_t n)
{
    n = round8(n);
    if (r->in) {
        kx_mem *m = r->in;
        if ((size_t)(m->end - m->p) < n && m->more(m, n)) {
            fail(r, "out of memory");
            return NULL;
        }
        void *q = m->p;
        m->p += n;
        return q;
    }
    void *p = r->mem + r->used;
    r->used += n;
    return p;
}

/* Pass 1: the bytes one block needs for the expression at r, checking what
 * keeps pass 2 inside the bytes and the block (lengths, counts, kinds,
 * depth); pass 2 checks the rest. */
static int measure(reader *r, int depth, size_t *need)
{
    int nt;
    if (depth > KX_MAX_DEPTH)
        return fail(r, "nested too deep");
    if (get_count(r, KX_MAX_SIZE, 2, &nt))
        return -1;
    *need += round8(sizeof(kx_expr)) + round8((size_t)nt * sizeof(kx_term));
    for (int i = 0; i < nt; i++) {
        uint64_t v;
        int nf, nargs;
        if (get_uv(r, &v) || get_count(r, KX_MAX_SIZE, 3, &nf))
            return -1;
        *need += round8((size_t)nf * sizeof(kx_factor));
        for (int j = 0; j < nf; j++) {
            if (r->at >= r->n)
                return fail(r, "truncated");
            unsigned kind = r->p[r->at];
            if (kind > KIND_UNKNOWN)
                return fail(r, "unknown atom kind");
            r->at++;
            if (get_uv(r, &v))
                return -1;
            nargs = kind >= 1 && kind <= 4 ? 2 : 0;
            if (kind == 0 || kind >= 5) {        /* a name */
                if (get_uv(r, &v))
                    return -1;
                if (v > r->n - r->at)
                    return fail(r, "truncated");
                r->at += (size_t)v;
                *need += round8((size_t)v + 1);
                if ((kind == 5 || kind == 6) && get_count(r, INT_MAX, 1, &nargs))
                    return -1;
            }
            *need += round8((size_t)nargs * sizeof(kx_expr *));
            for (int k = 0; k < nargs; k++)
                if (measure(r, depth + 1, need))
                    return -1;
        }
    }
    return 0;
}

static int valid_ident(const char *s)
{
    if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
        return 0;
    for (const char *q = s + 1; *q; q++)
        if (!(*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
              (*q >= '0' && *q <= '9')))
            return 0;
    return 1;
}

static char *get_name(reader *r)
{
    uint64_t len;
    if (get_uv(r, &len))
        return NULL;
    if (len == 0) {
        fail(r, "empty name");
        return NULL;
    }
    if (len > r->n - r->at) {
        fail(r, "truncated");
        return NULL;
    }
    const unsigned char *s = r->p + r->at;
    for (uint64_t i = 0; i < len; i++)    /* (as memchr would, inline: names are short) */
        if (!s[i]) {
            fail(r, "NUL in a name");
            return NULL;
        }
    char *d = take(r, (size_t)len + 1);
    if (!d)
        return NULL;
    memcpy(d, s, (size_t)len);
    d[len] = '\0';
    r->at += (size_t)len;
    return d;
}

static kx_expr *get_expr(reader *r, int depth);

static int get_factor(reader *r, kx_factor *f, int depth, size_t *w)
{
    uint64_t pow;
    if (r->at >= r->n)
        return fail(r, "truncated");
    unsigned kind = r->p[r->at];
    if (kind > KIND_UNKNOWN)
        return fail(r, "unknown atom kind");
    r->at++;
    f->kind = (int)kind - 1;
    f->name = NULL;
    f->nargs = 0;
    f->args = NULL;
    if (get_uv(r, &pow))
        return -1;
    if (pow < 1 || pow > INT_MAX)
        return fail(r, "power out of range");
    f->pow = (int)pow;
    int nargs = 0;
    switch (f->kind) {
    case KX_DIV:
    case KX_MOD:
    case KX_MIN:
    case KX_MAX:
        nargs = 2;
        break;
    case KX_CALL:
    case KX_LOAD:
        if (!(f->name = get_name(r)))
            return -1;
        if (!valid_ident(f->name))
            return fail(r, "a call or load name that is not an identifier");
        if (get_count(r, INT_MAX, 1, &nargs))
            return -1;
        break;
    default:
        return (f->name = get_name(r)) ? 0 : -1;
    }
    if (nargs > 0) {
        if (!(f->args = take(r, (size_t)nargs * sizeof *f->args)))
            return -1;
        f->nargs = nargs;
        for (int k = 0; k < nargs; k++) {
            if (!(f->args[k] = get_expr(r, depth + 1)))
                return -1;
            *w += f->args[k]->w;
        }
    }
    if ((f->kind == KX_MIN || f->kind == KX_MAX) && kx_compare(f->args[0], f->args[1]) >= 0)
        return fail(r, "min or max operands out of order");
    return 0;
}

/* Pass 2: the expression at r, built in the block (or the caller's
 * memory: then it checks all that pass 1 would have). */
static kx_expr *get_expr(reader *r, int depth)
{
    int nt;
    size_t start = r->at;
    if (depth > KX_MAX_DEPTH) {
        fail(r, "nested too deep");
        return NULL;
    }
    if (get_count(r, KX_MAX_SIZE, 2, &nt))
        return NULL;
    kx_expr *e = take(r, sizeof *e);
    if (!e)
        return NULL;
    /* the block's head, or inside it (or the caller's: never freed alone) */
    e->block = depth == 0 && !r->in ? 1 : 2;
    e->n = nt;
    e->t = NULL;
    e->w = 0;
    if (nt > 0 && !(e->t = take(r, (size_t)nt * sizeof *e->t)))
        return NULL;
    size_t w = 0;
    for (int i = 0; i < nt; i++) {
        kx_term *t = &e->t[i];
        uint64_t z;
        int nf;
        if (get_uv(r, &z))
            return NULL;
        t->coeff = (int64_t)((z >> 1) ^ (0 - (z & 1)));
        if (t->coeff == 0) {
            fail(r, "zero coefficient");
            return NULL;
        }
        if (get_count(r, KX_MAX_SIZE, 3, &nf))
            return NULL;
        t->f = NULL;
        if (nf > 0 && !(t->f = take(r, (size_t)nf * sizeof *t->f)))
            return NULL;
        t->nf = nf;
        w += 1 + (size_t)nf;
        for (int j = 0; j < nf; j++)
            if (get_factor(r, &t->f[j], depth, &w))
                return NULL;
        if (w > KX_MAX_SIZE) {
            fail(r, "expression too large");
            return NULL;
        }
    }
    e->w = w;
    if (!kx_int_canonical(e)) {
        r->at = start;
        fail(r, "terms or factors out of canonical order");
        return NULL;
    }
    return e;
}

kx_expr *kx_decode(const void *bytes, size_t n, size_t *used, char *err, size_t errlen)
{
    reader r = { bytes, n, 0, err, errlen, 0, NULL, 0, 0, NULL };
    size_t need = 0;
    if (measure(&r, 0, &need))
        return NULL;
    if (!(r.mem = calloc(1, need))) {
        kx_note_oom();
        ku_fail(err, errlen, "out of memory");
        return NULL;
    }
    r.size = need;
    r.at = 0;
    kx_expr *e = get_expr(&r, 0);
    if (!e) {
        free(r.mem);
        return NULL;
    }
    assert(r.used == need && (void *)e == (void *)r.mem);
    if (used)
        *used = r.at;
    return e;
}

kx_expr *kx_decode_in(const void *bytes, size_t n, size_t *used, kx_mem *m, char *err,
                      size_t errlen)
{
    reader r = { bytes, n, 0, err, errlen, 0, NULL, 0, 0, m };
    kx_expr *e = get_expr(&r, 0);
    if (e && used)
        *used = r.at;
    return e;
}

/* ---- the pool ------------------------------------------------------------ */

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int kx_pool_build(const char *const *texts, int n, unsigned char **out, size_t *len,
                  char *err, size_t errlen)
{
    *out = NULL;
    *len = 0;
    const char **v = malloc(sizeof *v * (size_t)(n > 0 ? n : 1));
    uint32_t *offs = malloc(sizeof *offs * (size_t)(n > 0 ? n : 1));
    ku_buf body = { 0 };
    if (!v || !offs) {
        free(v), free(offs);
        return ku_fail(err, errlen, "out of memory");
    }
    int m = 0, kept = 0;
    for (int i = 0; i < n; i++)
        if (texts[i])
            v[m++] = texts[i];
    qsort(v, (size_t)m, sizeof *v, cmp_text);
    for (int i = 0; i < m; i++) {
        if (i > 0 && !strcmp(v[i], v[i - 1]))
            continue;
        char perr[128];
        kx_expr *e = kx_parse(v[i], perr, sizeof perr);
        if (!e) {
            if (kx_oom_take()) {
                body.oom = 1;
                break;
            }
            continue;                      /* its reader parses it, and fails the same */
        }
        offs[kept++] = (uint32_t)body.len;
        ku_buf_putn(&body, v[i], strlen(v[i]) + 1);
        ku_buf kb = { 0 };
        kx_encode(e, &kb);
        kx_free(e);
        ku_buf_put_uleb(&body, kb.len);
        ku_buf_putn(&body, kb.s ? kb.s : "", kb.len);
        body.oom |= kb.oom;
        ku_buf_free(&kb);
        if (body.oom)
            break;
    }
    size_t head = KX_POOL_HEADER + 4 * (size_t)kept;
    size_t total = head + body.len;
    unsigned char *p = body.oom || total > UINT32_MAX ? NULL : malloc(total);
    if (!p) {
        free(v), free(offs);
        ku_buf_free(&body);
        return ku_fail(err, errlen, total > UINT32_MAX ? "expression pool too large"
                                                       : "out of memory");
    }
    memcpy(p, KX_POOL_MAGIC, 6);
    p[6] = KX_POOL_VERSION;
    p[7] = 0;
    put_u32(p + 8, (uint32_t)kept);
    put_u32(p + 12, (uint32_t)total);
    for (int i = 0; i < kept; i++)
        put_u32(p + KX_POOL_HEADER + 4 * (size_t)i, (uint32_t)(head + offs[i]));
    if (body.len)
        memcpy(p + head, body.s, body.len);
    free(v), free(offs);
    ku_buf_free(&body);
    *out = p;
    *len = total;
    return 0;
}

int kx_pool_check(const void *pool, size_t len, char *err, size_t errlen)
{
    const unsigned char *p = pool;
    if (len < KX_POOL_HEADER)
        return ku_fail(err, errlen, "expression pool: truncated");
    if (memcmp(p, KX_POOL_MAGIC, 6) != 0)
        return ku_fail(err, errlen, "not an expression pool");
    if (p[6] != KX_POOL_VERSION)
        return ku_fail(err, errlen, "expression pool: version %u (this reader knows %d)", p[6],
                       KX_POOL_VERSION);
    uint32_t count = get_u32(p + 8), total = get_u32(p + 12);
    if (total > len)
        return ku_fail(err, errlen, "expression pool: truncated");
    if (total < len || p[7] != 0 || count > (total - KX_POOL_HEADER) / 4)
        return ku_fail(err, errlen, "expression pool: corrupt header");
    size_t head = KX_POOL_HEADER + 4 * (size_t)count;
    const char *prev = NULL;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t at = get_u32(p + KX_POOL_HEADER + 4 * (size_t)i);
        const unsigned char *nul = at >= head && at < total ? memchr(p + at, 0, total - at)
                                                            : NULL;
        if (!nul)
            return ku_fail(err, errlen, "expression pool: corrupt entry %u", i);
        const char *text = (const char *)p + at;
        if (prev && strcmp(prev, text) >= 0)
            return ku_fail(err, errlen, "expression pool: entries out of order at %u", i);
        prev = text;
        reader r = { p, total, (size_t)(nul - p) + 1, err, errlen, 0, NULL, 0, 0, NULL };
        uint64_t n;
        if (get_uv(&r, &n) || n > total - r.at)
            return ku_fail(err, errlen, "expression pool: corrupt entry %u", i);
    }
    return 0;
}

int kx_pool_get(const void *pool, size_t len, const char *text, kx_expr **out, char *err,
                size_t errlen)
{
    const unsigned char *p = pool;
    *out = NULL;
    if (len < KX_POOL_HEADER)
        return 0;
    size_t lo = 0, hi = get_u32(p + 8), total = get_u32(p + 12);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t at = get_u32(p + KX_POOL_HEADER + 4 * mid);
        const char *t = (const char *)p + at;
        int c = strcmp(text, t);
        if (c < 0) {
            hi = mid;
        } else if (c > 0) {
            lo = mid + 1;
        } else {
            reader r = { p, total, at + strlen(t) + 1, err, errlen, 0, NULL, 0, 0, NULL };
            uint64_t n;
            if (get_uv(&r, &n))
                return -1;
            size_t used = 0;
            kx_expr *e = kx_decode(p + r.at, (size_t)n, &used, err, errlen);
            if (e && used != n) {
                kx_free(e);
                return ku_fail(err, errlen, "expression bytes: %zu left over", (size_t)n - used);
            }
            *out = e;
            return e ? 1 : -1;
        }
    }
    return 0;
}
