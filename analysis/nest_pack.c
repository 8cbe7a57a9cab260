/*
 * nest_pack.c -- a launch nest's model as bytes and back (nest_pack.h).
 *
 * The writer appends to a ku_buf; the reader walks a cursor that refuses
 * to read past the end, checks every index it reads against what came
 * before, and bounds every count by the bytes left (each element takes at
 * least one byte), so corrupt bytes cost no more memory than their length.
 * Integers are LEB128 (expr_pack.h's), doubles their IEEE bits.
 */
#include "nest_pack.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr_pack.h"

/* The first chunk of a decoded model's block, in bytes per packed byte:
 * the 153 nests of polybench-inputs (keelcc -O2, MINI) decode to 4.8 to
 * 11.0 times their packed size (median 7.8, 90th percentile 9.1), so one
 * chunk holds nearly every nest and a larger one takes a second. */
#define NEST_BLOCK_PER_BYTE 10

/* ---- writing ---------------------------------------------------------------- */

#define put_uv ku_buf_put_uleb      /* util's LEB128, as expr_pack.c writes */
#define put_sv ku_buf_put_sleb

static void put_f64(ku_buf *b, double d)
{
    uint64_t u;
    char c[8];
    memcpy(&u, &d, sizeof u);
    for (int i = 0; i < 8; i++)
        c[i] = (char)(u >> (8 * i));
    ku_buf_putn(b, c, 8);
}

static void put_str(ku_buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put_uv(b, s ? n + 1 : 0);
    if (s)
        ku_buf_putn(b, s, n);
}

static void put_expr(ku_buf *b, const kx_expr *e)
{
    ku_buf_putc(b, e ? 1 : 0);
    if (e)
        kx_encode(e, b);
}

static void put_loop(ku_buf *b, const nest_loop *l)
{
    put_sv(b, l->id), put_sv(b, l->parent), put_sv(b, l->line), put_sv(b, l->col);
    put_str(b, l->iv);
    put_expr(b, l->trip), put_expr(b, l->lower);
    put_sv(b, l->step);
    put_expr(b, l->last);
    put_uv(b, (uint64_t)l->bounded);
    put_str(b, l->gpu_map);
    put_uv(b, (uint64_t)l->nchildren), put_uv(b, (uint64_t)l->parallel);
    put_uv(b, (uint64_t)l->thread), put_uv(b, (uint64_t)l->spread);
    put_sv(b, l->thread_on_path), put_uv(b, (uint64_t)l->kroot);
    put_uv(b, (uint64_t)l->nmca);
    for (int i = 0; i < l->nmca; i++) {
        put_str(b, l->mca[i].target);
        put_f64(b, l->mca[i].cycles), put_f64(b, l->mca[i].rthru);
    }
    put_uv(b, (uint64_t)l->nrec);
    for (int i = 0; i < l->nrec; i++) {
        put_sv(b, l->rec[i].dist), put_uv(b, (uint64_t)l->rec[i].mem);
        put_uv(b, (uint64_t)l->rec[i].all);
        for (int k = 0; k < KU_CHAIN_NOPS; k++)
            put_sv(b, l->rec[i].ops[k]);
    }
}

static void put_acc(ku_buf *b, const nest_acc *a, int nloops)
{
    put_sv(b, a->id), put_uv(b, (uint64_t)a->stmt);
    put_str(b, a->array), put_str(b, a->text);
    put_sv(b, a->elem), put_uv(b, (uint64_t)a->is_write), put_uv(b, (uint64_t)a->ndims);
    for (int j = 0; j < a->ndims; j++)
        put_str(b, a->index[j]);
    put_expr(b, a->stride);
    put_uv(b, (uint64_t)a->no_thread);
    for (int j = 0; j < a->ndims; j++)
        put_expr(b, a->extent[j]);
    for (int i = 0; i < a->ndims * nloops; i++)
        put_expr(b, a->diff[i]);
    for (int k = 0; k < nloops; k++)
        put_expr(b, a->lin[k]);
    put_uv(b, (uint64_t)a->arr), put_uv(b, (uint64_t)a->read_first);
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

void nest_encode(const nest_head *h, const nest_model *n, ku_buf *b)
{
    size_t start = b->len;
    ku_buf_putn(b, NEST_PACK_MAGIC, 8);
    ku_buf_putn(b, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);   /* version, length, sum */
    for (int i = 0; i < 8; i++)
        ku_buf_putc(b, (char)((uint64_t)h->root >> (8 * i)));
    put_str(b, h->file), put_str(b, h->function), put_str(b, h->hash), put_str(b, h->label);
    put_sv(b, h->line);
    put_uv(b, (uint64_t)h->nfacts);
    for (int i = 0; i < h->nfacts; i++)
        put_str(b, h->fact_name[i]), put_str(b, h->fact[i]);
    put_uv(b, (uint64_t)n->nloops), put_uv(b, (uint64_t)n->nstmts);
    put_uv(b, (uint64_t)n->naccs), put_uv(b, (uint64_t)n->nov);
    put_uv(b, (uint64_t)n->region), put_uv(b, (uint64_t)n->omp_target);
    put_uv(b, (uint64_t)n->uneven), put_uv(b, (uint64_t)n->nsyms);
    for (int i = 0; i < n->nsyms; i++)
        put_str(b, n->syms[i]);
    for (int k = 0; k < n->nloops; k++)
        put_loop(b, &n->loops[k]);
    for (int s = 0; s < n->nstmts; s++) {
        const nest_stmt *st = &n->stmts[s];
        put_sv(b, st->id), put_uv(b, (uint64_t)st->loop), put_sv(b, st->line);
        put_uv(b, (uint64_t)st->conditional);
        put_f64(b, st->cpu_cycles), put_f64(b, st->gpu_insts), put_f64(b, st->flops);
        put_uv(b, (uint64_t)st->acc0), put_uv(b, (uint64_t)st->nacc);
    }
    for (int a = 0; a < n->naccs; a++)
        put_acc(b, &n->accs[a], n->nloops);
    for (int i = 0; i < n->nov; i++) {
        put_uv(b, (uint64_t)n->ov[i].acc), put_str(b, n->ov[i].base);
        put_expr(b, n->ov[i].offset), put_uv(b, (uint64_t)n->ov[i].checkable);
    }
    if (b->oom || b->len - start > 0xffffffffu) {
        ku_buf_free(b);
        b->oom = 1;
        return;
    }
    unsigned char *p = (unsigned char *)b->s + start;
    size_t len = b->len - start;
    put_u32(p + 8, NEST_PACK_VERSION);
    put_u32(p + 12, (uint32_t)len);
    uint64_t sum = ku_fnv1a64(p + 24, len - 24);
    put_u32(p + 16, (uint32_t)sum);
    put_u32(p + 20, (uint32_t)(sum >> 32));
}

/* ---- reading ---------------------------------------------------------------- */

/* ---- the block ---------------------------------------------------------------
 * A decoded model, its head and everything they point to lie in one block
 * (nest.h): chunks, the newest first, each a header and the bytes handed
 * out from the front.  The decoder bump-allocates from the newest chunk's
 * free bytes (a kx_mem, which kx_decode_in builds expressions in too) and
 * zeroes only the arrays: strings and expressions set every byte. */
typedef struct nest_chunk {
    struct nest_chunk *prev;
    unsigned char *p, *end;   /* its free bytes */
} nest_chunk;

/* A new newest chunk of `size` free bytes, not zeroed; NULL out of memory. */
static nest_chunk *chunk_new(nest_chunk *prev, size_t size)
{
    nest_chunk *c = size < SIZE_MAX - sizeof *c ? malloc(sizeof *c + size) : NULL;
    if (c) {
        c->prev = prev;
        c->p = (unsigned char *)(c + 1);
        c->end = c->p + size;
    }
    return c;
}

void *nest_block_take(void **block, size_t n, size_t chunk)
{
    nest_chunk *c = *block;
    n = (n + 7) & ~(size_t)7;
    if (!c || (size_t)(c->end - c->p) < n) {
        if (!(c = chunk_new(c, n > chunk ? n : chunk)))
            return NULL;
        *block = c;
    }
    void *q = c->p;
    c->p += n;
    return memset(q, 0, n);
}

void nest_block_free(void *block)
{
    for (nest_chunk *c = block, *prev; c; c = prev) {
        prev = c->prev;
        free(c);
    }
}

/* The decoder's view of the block: the newest chunk's free bytes (m,
 * first: kx_mem's `more` gets it), written back to the chunk when done. */
typedef struct {
    kx_mem m;
    nest_chunk *c;            /* the newest chunk, NULL none yet */
    size_t chunk;             /* the size of a new chunk */
} filler;

static int fill_more(kx_mem *m, size_t n)
{
    filler *f = (filler *)m;
    nest_chunk *c = chunk_new(f->c, n > f->chunk ? n : f->chunk);
    if (!c)
        return -1;
    if (f->c)
        f->c->p = m->p;
    f->c = c;
    m->p = c->p, m->end = c->end;
    return 0;
}

typedef struct {
    const unsigned char *p, *end;
    int bad;                  /* 1: stop; msg says why */
    char msg[160];
    filler fill;              /* where everything decoded lies */
} rd;

/* n bytes of the block, not zeroed (NULL: the reader failed, out of memory). */
static void *rd_take(rd *r, size_t n)
{
    kx_mem *m = &r->fill.m;
    n = (n + 7) & ~(size_t)7;
    if ((size_t)(m->end - m->p) < n && m->more(m, n))
        return NULL;
    void *q = m->p;
    m->p += n;
    return q;
}

static void fail(rd *r, const char *what)
{
    if (!r->bad)
        snprintf(r->msg, sizeof r->msg, "%s", what);
    r->bad = 1;
    r->p = r->end;
}

static uint64_t get_uv(rd *r)
{
    if (r->p < r->end && *r->p < 0x80)      /* one byte: most numbers */
        return *r->p++;
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (r->p >= r->end) {
            fail(r, "truncated");
            return 0;
        }
        unsigned char c = *r->p++;
        if (shift == 63 && c > 1) {
            fail(r, "corrupt (an over-long number)");
            return 0;
        }
        v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return v;
    }
    fail(r, "corrupt (an over-long number)");
    return 0;
}

static int64_t get_sv(rd *r)
{
    uint64_t u = get_uv(r);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* An int in [lo, hi]; else the bytes are corrupt. */
static int get_int(rd *r, int64_t lo, int64_t hi)
{
    int64_t v = get_sv(r);
    if (v < lo || v > hi) {
        fail(r, "corrupt (a number out of range)");
        return (int)lo;
    }
    return (int)v;
}

static int get_uint(rd *r, int64_t hi)
{
    uint64_t v = get_uv(r);
    if (v > (uint64_t)hi) {
        fail(r, "corrupt (a number out of range)");
        return 0;
    }
    return (int)v;
}

/* A count of elements that take at least one byte each. */
static int get_count(rd *r)
{
    return get_uint(r, r->end - r->p < 0x7fffffff ? r->end - r->p : 0x7fffffff);
}

static double get_f64(rd *r)
{
    if (r->end - r->p < 8) {
        fail(r, "truncated");
        return 0;
    }
    uint64_t u = 0;
    for (int i = 0; i < 8; i++)
        u |= (uint64_t)r->p[i] << (8 * i);
    r->p += 8;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static char *get_str(rd *r)
{
    uint64_t n = get_uv(r);
    if (n == 0 || r->bad)
        return NULL;
    n--;
    if ((uint64_t)(r->end - r->p) < n) {
        fail(r, "truncated");
        return NULL;
    }
    for (uint64_t i = 0; i < n; i++)     /* (as memchr would, inline: they are short) */
        if (!r->p[i]) {
            fail(r, "corrupt (a NUL in a string)");
            return NULL;
        }
    char *s = rd_take(r, n + 1);
    if (!s) {
        fail(r, "out of memory");
        return NULL;
    }
    memcpy(s, r->p, n);
    s[n] = '\0';
    r->p += n;
    return s;
}

/* A string that must be there. */
static char *get_name(rd *r)
{
    char *s = get_str(r);
    if (!s && !r->bad)
        fail(r, "corrupt (a name missing)");
    return s;
}

static kx_expr *get_expr(rd *r)
{
    if (r->p >= r->end) {
        fail(r, "truncated");
        return NULL;
    }
    unsigned char flag = *r->p++;
    if (flag == 0)
        return NULL;
    if (flag != 1) {
        fail(r, "corrupt (an expression flag)");
        return NULL;
    }
    size_t used = 0;
    char e[128];
    kx_expr *x = kx_decode_in(r->p, (size_t)(r->end - r->p), &used, &r->fill.m, e, sizeof e);
    if (!x) {
        char m[160];
        snprintf(m, sizeof m, "corrupt (an expression: %s)", e);
        fail(r, m);
        return NULL;
    }
    r->p += used;
    return x;
}

/* n + 1 zeroed elements (n is bounded by the bytes left). */
static void *get_array(rd *r, int n, size_t size)
{
    size_t bytes = ((size_t)n + 1) * size;
    void *v = rd_take(r, bytes);
    if (!v)
        fail(r, "out of memory");
    return v ? memset(v, 0, bytes) : NULL;
}

static void get_loop(rd *r, nest_loop *l, int k, int nloops)
{
    l->id = get_sv(r);
    l->parent = get_int(r, k == 0 ? -1 : 0, k == 0 ? -1 : k - 1);
    l->line = get_int(r, 0, 0x7fffffff), l->col = get_int(r, 0, 0x7fffffff);
    l->iv = get_str(r);
    l->trip = get_expr(r), l->lower = get_expr(r);
    l->step = get_sv(r);
    l->last = get_expr(r);
    l->bounded = get_uint(r, 1);
    l->gpu_map = get_str(r);
    l->nchildren = get_uint(r, nloops), l->parallel = get_uint(r, 1);
    l->thread = get_uint(r, 1), l->spread = get_uint(r, 1);
    l->thread_on_path = get_int(r, -1, k), l->kroot = get_uint(r, 1);
    int nmca = get_count(r);
    if (r->bad || !(l->mca = get_array(r, nmca, sizeof *l->mca)))
        return;
    for (; l->nmca < nmca && !r->bad; l->nmca++) {
        nest_mca *m = &l->mca[l->nmca];
        m->target = get_name(r);
        m->cycles = get_f64(r), m->rthru = get_f64(r);
    }
    l->nrec = get_uint(r, NEST_MAX_RECUR);
    for (int i = 0; i < l->nrec && !r->bad; i++) {
        l->rec[i].dist = get_int(r, 1, 0x7fffffff), l->rec[i].mem = get_uint(r, 1);
        l->rec[i].all = get_uint(r, 1);
        for (int o = 0; o < KU_CHAIN_NOPS; o++)
            l->rec[i].ops[o] = get_int(r, 0, 0x7fffffff);
    }
}

static void get_acc(rd *r, nest_acc *a, int ai, const nest_model *n)
{
    a->id = get_sv(r);
    a->stmt = get_uint(r, n->nstmts - 1);
    a->array = get_name(r), a->text = get_name(r);
    a->elem = get_int(r, 0, 0x7fffffff), a->is_write = get_uint(r, 1);
    int nd = get_uint(r, 4096);
    if (!r->bad && (int64_t)nd * (n->nloops + 1) > r->end - r->p)
        fail(r, "truncated");
    if (r->bad)
        return;
    a->index = get_array(r, nd, sizeof *a->index);
    a->extent = get_array(r, nd, sizeof *a->extent);
    a->diff = get_array(r, nd * n->nloops, sizeof *a->diff);
    a->lin = get_array(r, n->nloops, sizeof *a->lin);
    if (r->bad)
        return;
    a->ndims = nd;
    for (int j = 0; j < nd; j++)
        a->index[j] = get_name(r);
    a->stride = get_expr(r);
    a->no_thread = get_uint(r, 1);
    for (int j = 0; j < nd; j++)
        a->extent[j] = get_expr(r);
    for (int i = 0; i < nd * n->nloops; i++)
        a->diff[i] = get_expr(r);
    for (int k = 0; k < n->nloops; k++)
        a->lin[k] = get_expr(r);
    a->arr = get_uint(r, ai), a->read_first = get_uint(r, 1);
}

static void get_head(rd *r, nest_head *h)
{
    h->file = get_str(r), h->function = get_str(r), h->hash = get_str(r);
    h->label = get_str(r);
    h->line = get_int(r, 0, 0x7fffffff);
    int nf = get_count(r);
    if (r->bad)
        return;
    h->fact_name = get_array(r, nf, sizeof *h->fact_name);
    h->fact = get_array(r, nf, sizeof *h->fact);
    for (; !r->bad && h->nfacts < nf; h->nfacts++) {
        h->fact_name[h->nfacts] = get_name(r);
        h->fact[h->nfacts] = get_str(r);
    }
}

static void get_model(rd *r, nest_model *n)
{
    int nl = get_count(r), ns = get_count(r), na = get_count(r), no = get_count(r);
    n->region = get_uint(r, 1), n->omp_target = get_uint(r, 1), n->uneven = get_uint(r, 1);
    int nsym = get_count(r);
    if (!r->bad && nl < 1)
        fail(r, "corrupt (no launch loop)");
    if (r->bad)
        return;
    n->syms = get_array(r, nsym, sizeof *n->syms);
    for (; !r->bad && n->nsyms < nsym; n->nsyms++)
        n->syms[n->nsyms] = get_name(r);
    if (!r->bad && !(n->loops = get_array(r, nl, sizeof *n->loops)))
        return;
    for (; !r->bad && n->nloops < nl; n->nloops++)
        get_loop(r, &n->loops[n->nloops], n->nloops, nl);
    if (!r->bad && !(n->stmts = get_array(r, ns, sizeof *n->stmts)))
        return;
    for (; !r->bad && n->nstmts < ns; n->nstmts++) {
        nest_stmt *st = &n->stmts[n->nstmts];
        st->id = get_sv(r), st->loop = get_uint(r, nl - 1), st->line = get_int(r, 0, 0x7fffffff);
        st->conditional = get_uint(r, 1);
        st->cpu_cycles = get_f64(r), st->gpu_insts = get_f64(r), st->flops = get_f64(r);
        st->acc0 = get_uint(r, na), st->nacc = get_uint(r, na - st->acc0);
    }
    if (!r->bad && !(n->accs = get_array(r, na, sizeof *n->accs)))
        return;
    /* an access's diff[] is ndims x nloops: all loops are read first */
    for (; !r->bad && n->naccs < na; n->naccs++)
        get_acc(r, &n->accs[n->naccs], n->naccs, n);
    if (!r->bad && !(n->ov = get_array(r, no, sizeof *n->ov)))
        return;
    for (; !r->bad && n->nov < no; n->nov++) {
        nest_ov *o = &n->ov[n->nov];
        o->acc = get_uint(r, na - 1), o->base = get_name(r);
        o->offset = get_expr(r), o->checkable = get_uint(r, 1);
    }
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

unsigned nest_pack_version(const void *bytes, size_t len)
{
    const unsigned char *p = bytes;
    if (!p || len < 12 || memcmp(p, NEST_PACK_MAGIC, 8) != 0)
        return 0;
    return get_u32(p + 8);
}

void nest_head_free(nest_head *h)
{
    if (!h)
        return;
    if (!h->in_model) {
        for (int i = 0; i < h->nfacts; i++)
            free(h->fact_name[i]), free(h->fact[i]);
        free(h->fact_name);
        free(h->fact);
        free(h->file);
        free(h->function);
        free(h->hash);
        free(h->label);
    }
    memset(h, 0, sizeof *h);
}

int nest_decode(const void *bytes, size_t len, nest_head *h, nest_model *n, char *err,
                size_t errlen)
{
    const unsigned char *p = bytes;
    memset(h, 0, sizeof *h);
    memset(n, 0, sizeof *n);
    if (!p || len < 8 || memcmp(p, NEST_PACK_MAGIC, 8) != 0)
        return ku_fail(err, errlen, "packed facts: %s", p && len < 8 ? "truncated"
                                                                     : "not packed facts");
    unsigned v = nest_pack_version(bytes, len);
    if (len >= 12 && v != NEST_PACK_VERSION)
        return ku_fail(err, errlen, "packed facts: format version %u, this runtime reads %d", v,
                       NEST_PACK_VERSION);
    if (len < NEST_PACK_HEADER)
        return ku_fail(err, errlen, "packed facts: truncated");
    if (get_u32(p + 12) != len)
        return ku_fail(err, errlen, "packed facts: %s",
                       get_u32(p + 12) > len ? "truncated" : "corrupt (its length)");
    uint64_t sum = (uint64_t)get_u32(p + 16) | (uint64_t)get_u32(p + 20) << 32;
    if (ku_fnv1a64(p + 24, len - 24) != sum)
        return ku_fail(err, errlen, "packed facts: corrupt (checksum differs)");
    for (int i = 0; i < 8; i++)
        h->root |= (int64_t)((uint64_t)p[24 + i] << (8 * i));
    /* one chunk holds a typical nest's model (NEST_BLOCK_PER_BYTE) */
    rd r = { p + NEST_PACK_HEADER, p + len, 0, "",
             { { NULL, NULL, fill_more }, NULL, NEST_BLOCK_PER_BYTE * len } };
    get_head(&r, h);
    if (!r.bad)
        get_model(&r, n);
    if (!r.bad && r.p != r.end)
        fail(&r, "corrupt (bytes after the model)");
    if (r.fill.c)
        r.fill.c->p = r.fill.m.p;
    if (r.bad) {
        nest_block_free(r.fill.c);
        memset(h, 0, sizeof *h);
        memset(n, 0, sizeof *n);
        return ku_fail(err, errlen, "packed facts: %s", r.msg);
    }
    n->block = r.fill.c;
    h->in_model = 1;
    return 0;
}
