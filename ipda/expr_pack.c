/*
 * expr_pack.c -- the binary form of kx_expr (see expr_pack.h for the
 * layout).
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

/* A factor's atom kind, the byte at r (at most KIND_UNKNOWN). */
static int get_kind(reader *r, unsigned *kind)
{
    if (r->at >= r->n)
        return fail(r, "truncated");
    *kind = r->p[r->at];
    if (*kind > KIND_UNKNOWN)
        return fail(r, "unknown atom kind");
    r->at++;
    return 0;
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
            unsigned kind;
            if (get_kind(r, &kind) || get_uv(r, &v))
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
    unsigned kind;
    if (get_kind(r, &kind))
        return -1;
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
