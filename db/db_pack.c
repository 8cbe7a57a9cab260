/*
 * db_pack.c -- the packed forms that travel with a program: a nest's facts
 * as one row source, from the database or from its packed form
 * (db_nest.h), and a host's calibration likewise (db_calib_pack.h).
 *
 * The packed nest, version 2 (every integer little-endian, a double as
 * the little-endian bits of its IEEE 754 binary64 value):
 *
 *   header   "KEELNEST", u32 version, u32 length of the whole (header
 *            included), u64 FNV-1a of bytes [24, length), i64 launch loop
 *   records  a tag byte, then its fields:
 *     'L' a loop     i64 id, i32 line, col, str file, function, tu_hash,
 *                    iv, lower, trip, i64 step, str gpu_map, u32 nfacts and
 *                    that many str (loop_facts.h order), u32 nchildren and
 *                    per child i64 id, i32 line, col, u32 nstmts and per
 *                    statement i64 id, i32 line, col, conditional, u32
 *                    naccesses and per access i64 id, str array, i32
 *                    elem_size, is_write, ndims, ndims str, i32 nextents,
 *                    nextents str
 *     'M' llvm-mca   i64 loop, str target, i32 ok, has_cycles_per_src_iter,
 *                    f64 cycles_per_src_iter, i32 src_iters_per_asm_iter,
 *                    f64 block_rthroughput
 *     'R' launch     i32 region, omp_target (absent: no launch facts)
 *     'P' launch loop  i64 loop, i32 parallel, thread, kernel
 *     'C' cost       i64 statement, f64 cycles, gpu_insts, flops
 *     'S' stride     i64 access, loop, i32 dim, str stride
 *     'O' overlap    i64 access, str base, offset, i32 checkable
 *     'X' the expressions, at most once: u32 length, then that many bytes,
 *                    opaque here: the binary forms of the expression texts
 *                    above (lower, trip, extent, stride, offset) keyed by
 *                    text, as the pool function given to db_nest_pack
 *                    wrote them (keelcc's link step: ipda's kx_pool_build),
 *                    so that the runtime decodes instead of parsing them;
 *                    absent when none was given (and in version 1, which
 *                    the reader still takes)
 *     'E' the end (the last byte)
 *   str      u32 length, then the bytes and a NUL; 0xffffffff: NULL
 *
 * keelcc stores each launch site's packed nest in the database with its
 * build (table nest_packs, schema 18; db_nest_store in db_link.c);
 * db_nest_stored reads it back for the runtime's database route and the
 * link step, so both load the bytes a linked program carries.
 *
 * Rows keep the order the database gave them, so the loader sees the same
 * rows in the same order by either route.  Decoding reads the bytes twice:
 * once to check them and count every array, once to fill one allocation;
 * strings are not copied (they point into the bytes, NUL-terminated
 * there).  A check that fails refuses the whole form.
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

typedef struct {
    int64_t loop_id;
    db_mca_row r;
} nest_mca;

struct db_nest {
    db *d;                      /* a database, or NULL: the packed form below */
    int64_t root;
    int nloops;
    db_loop_info *loops;
    int nmca;
    nest_mca *mca;
    int has_launch, region, omp_target;
    int nll, ncost, nstride, nov;
    db_launch_loop *ll;
    db_launch_cost *cost;
    db_launch_stride *stride;
    db_launch_overlap *ov;
    const unsigned char *xp;    /* the expressions' binary forms ('X'), NULL none */
    size_t nxp;
    void *mem;                  /* the one allocation behind the arrays */
};

static char **fact_slot(db_loop_info *l, int k)
{
    switch (k) {
#define FACT_SLOT_(name, show) case DB_LOOP_FACT_##name: return &l->name;
    DB_LOOP_FACTS(FACT_SLOT_)
#undef FACT_SLOT_
    }
    return NULL;
}

/* ---- encoding ------------------------------------------------------------ */

typedef struct {
    unsigned char *p;
    size_t n, cap;
    int oom;
    char **x;                   /* the expression texts written, when a pool is asked for */
    int nx, want_x;
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
static void put_tag(wbuf *w, char t) { put(w, &t, 1); }

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

/* A string the runtime parses as an expression: also kept for the pool. */
static void put_expr(wbuf *w, const char *s)
{
    put_str(w, s);
    if (s && w->want_x && !w->oom) {
        char *c = strdup(s);
        if (!c || ku_push_ptr(&w->x, &w->nx, c)) {
            free(c);
            w->oom = 1;
        }
    }
}

typedef struct {
    wbuf *w;
    int64_t loop_id;
} mca_ctx;

static int pack_mca(void *ctx, const db_mca_row *r)
{
    wbuf *w = ((mca_ctx *)ctx)->w;
    put_tag(w, 'M');
    put_i64(w, ((mca_ctx *)ctx)->loop_id);
    put_str(w, r->target);
    put_i32(w, r->ok);
    put_i32(w, r->has_cycles_per_src_iter);
    put_f64(w, r->cycles_per_src_iter);
    put_i32(w, r->src_iters_per_asm_iter);
    put_f64(w, r->figs.block_rthroughput);
    return w->oom;
}

/* One loop, its llvm-mca rows, then its children, in preorder. */
static int pack_loop(db *d, wbuf *w, int64_t id, int depth, char *err, size_t errlen)
{
    db_loop_info *l = NULL;
    if (depth > 1000)
        return ku_fail(err, errlen, "loop %lld: nest too deep", (long long)id);
    int r = db_get_loop(d, id, &l, err, errlen);
    if (r != 0)
        return r < 0 ? -1 : ku_fail(err, errlen, "loop %lld vanished", (long long)id);
    put_tag(w, 'L');
    put_i64(w, l->id);
    put_i32(w, l->line);
    put_i32(w, l->col);
    put_str(w, l->file);
    put_str(w, l->function);
    put_str(w, l->tu_hash);
    put_str(w, l->iv);
    put_expr(w, l->lower);
    put_expr(w, l->trip);
    put_i64(w, l->step);
    put_str(w, l->gpu_map);
    put_u(w, DB_NLOOP_FACTS, 4);
    for (int k = 0; k < DB_NLOOP_FACTS; k++)
        put_str(w, db_loop_fact(l, k));
    put_u(w, (uint32_t)l->nchildren, 4);
    for (int i = 0; i < l->nchildren; i++) {
        put_i64(w, l->children[i].id);
        put_i32(w, l->children[i].line);
        put_i32(w, l->children[i].col);
    }
    put_u(w, (uint32_t)l->nstmts, 4);
    for (int i = 0; i < l->nstmts; i++) {
        const db_stmt_info *s = &l->stmts[i];
        put_i64(w, s->id);
        put_i32(w, s->line);
        put_i32(w, s->col);
        put_i32(w, s->conditional);
        put_u(w, (uint32_t)s->naccesses, 4);
        for (int k = 0; k < s->naccesses; k++) {
            const db_access_info *a = &s->accesses[k];
            put_i64(w, a->id);
            put_str(w, a->array);
            put_i32(w, a->elem_size);
            put_i32(w, a->is_write);
            put_i32(w, a->ndims);
            for (int j = 0; j < a->ndims; j++)
                put_str(w, a->index[j]);
            put_i32(w, a->nextents);
            for (int j = 0; j < a->nextents; j++)
                put_expr(w, a->extent[j]);
        }
    }
    int nch = l->nchildren;
    int64_t *kids = malloc(sizeof *kids * (size_t)(nch > 0 ? nch : 1));
    for (int i = 0; kids && i < nch; i++)
        kids[i] = l->children[i].id;
    db_free_loop(l);
    if (!kids)
        return ku_fail(err, errlen, "out of memory");
    mca_ctx mc = { w, id };
    r = db_mca_each(d, id, pack_mca, &mc, err, errlen);
    if (r < 0 && !w->oom) {
        free(kids);
        return -1;
    }
    for (int i = 0; i < nch && !w->oom; i++)
        if (pack_loop(d, w, kids[i], depth + 1, err, errlen)) {
            free(kids);
            return -1;
        }
    free(kids);
    return w->oom ? ku_fail(err, errlen, "out of memory") : 0;
}

static int pack_ll(void *ctx, const db_launch_loop *r)
{
    wbuf *w = ctx;
    put_tag(w, 'P');
    put_i64(w, r->loop_id);
    put_i32(w, r->parallel);
    put_i32(w, r->thread);
    put_i32(w, r->kernel);
    return w->oom;
}

static int pack_cost(void *ctx, const db_launch_cost *r)
{
    wbuf *w = ctx;
    put_tag(w, 'C');
    put_i64(w, r->stmt_id);
    put_f64(w, r->cycles);
    put_f64(w, r->gpu_insts);
    put_f64(w, r->flops);
    return w->oom;
}

static int pack_stride(void *ctx, const db_launch_stride *r)
{
    wbuf *w = ctx;
    put_tag(w, 'S');
    put_i64(w, r->access_id);
    put_i64(w, r->loop_id);
    put_i32(w, r->dim);
    put_expr(w, r->stride);
    return w->oom;
}

static int pack_ov(void *ctx, const db_launch_overlap *r)
{
    wbuf *w = ctx;
    put_tag(w, 'O');
    put_i64(w, r->access_id);
    put_str(w, r->base);
    put_expr(w, r->offset);
    put_i32(w, r->checkable);
    return w->oom;
}

static int seal(wbuf *w, const char *noun, char *err, size_t errlen);

static void free_texts(wbuf *w)
{
    for (int i = 0; i < w->nx; i++)
        free(w->x[i]);
    free(w->x);
}

int db_nest_pack(db *d, int64_t root, db_expr_pool_fn pool, unsigned char **out, size_t *n,
                 char *err, size_t errlen)
{
    wbuf w = { .want_x = pool != NULL };
    int region = 0, omp = 0;
    *out = NULL;
    *n = 0;
    int r = db_launch_get(d, root, &region, &omp, err, errlen);
    if (r != 0)
        return r;
    put(&w, DB_NEST_MAGIC, 8);
    put_u(&w, DB_NEST_VERSION, 4);
    put_u(&w, 0, 4);                 /* length, below */
    put_u(&w, 0, 8);                 /* checksum, below */
    put_i64(&w, root);
    if (pack_loop(d, &w, root, 0, err, errlen)) {
        free(w.p);
        free_texts(&w);
        return -1;
    }
    put_tag(&w, 'R');
    put_i32(&w, region);
    put_i32(&w, omp);
    if (db_launch_each_loop(d, root, pack_ll, &w, err, errlen) < 0 ||
        db_launch_each_cost(d, root, pack_cost, &w, err, errlen) < 0 ||
        db_launch_each_stride(d, root, pack_stride, &w, err, errlen) < 0 ||
        db_launch_each_overlap(d, root, pack_ov, &w, err, errlen) < 0) {
        free(w.p);
        free_texts(&w);
        return w.oom ? ku_fail(err, errlen, "out of memory") : -1;
    }
    if (pool && !w.oom) {
        unsigned char *x = NULL;
        size_t nx = 0;
        int pr = pool((const char *const *)w.x, w.nx, &x, &nx, err, errlen);
        if (pr == 0 && nx > 0xfffffff0u)
            pr = ku_fail(err, errlen, "expression pool too large to pack");
        if (pr != 0) {
            free(x);
            free(w.p);
            free_texts(&w);
            return -1;
        }
        put_tag(&w, 'X');
        put_u(&w, (uint32_t)nx, 4);
        put(&w, x, nx);
        free(x);
    }
    free_texts(&w);
    put_tag(&w, 'E');
    if (seal(&w, "nest", err, errlen)) {
        free(w.p);
        return -1;
    }
    *out = w.p;
    *n = w.n;
    return 0;
}

/* ---- decoding ------------------------------------------------------------ */

/* What the first pass counts and the second fills. */
typedef struct {
    int loops, children, stmts, accs, texts, mca, ll, cost, stride, ov;
} counts;

typedef struct {
    const unsigned char *p, *end;
    int bad;                    /* 1: ran past the end or a malformed field */
    int fill;                   /* 0: count only; 1: fill s */
    counts c;                   /* pass 1: totals; pass 2: next free slots */
    db_nest *s;
    db_loop_ref *children;      /* pools, pass 2 */
    db_stmt_info *stmts;
    db_access_info *accs;
    char **texts;
    int s_x;                    /* 'X' records seen (at most one) */
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

static void read_loop(rd *r)
{
    db_loop_info tmp, *l = r->fill ? &r->s->loops[r->c.loops] : &tmp;
    memset(l, 0, sizeof *l);
    r->c.loops++;
    l->id = get_i64(r);
    l->line = get_i32(r);
    l->col = get_i32(r);
    l->file = (char *)get_str(r);
    l->function = (char *)get_str(r);
    l->tu_hash = (char *)get_str(r);
    l->iv = (char *)get_str(r);
    l->lower = (char *)get_str(r);
    l->trip = (char *)get_str(r);
    l->step = get_i64(r);
    l->gpu_map = (char *)get_str(r);
    int nf = get_count(r, 4);
    for (int k = 0; k < nf && !r->bad; k++) {
        const char *t = get_str(r);
        if (k < DB_NLOOP_FACTS)      /* a newer list's extra facts: unknown here */
            *fact_slot(l, k) = (char *)t;
    }
    l->nchildren = get_count(r, 16);
    l->children = r->fill ? r->children + r->c.children : NULL;
    for (int i = 0; i < l->nchildren && !r->bad; i++) {
        db_loop_ref ref = { get_i64(r), get_i32(r), get_i32(r) };
        if (r->fill)
            l->children[i] = ref;
        r->c.children++;
    }
    l->nstmts = get_count(r, 24);
    l->stmts = r->fill ? r->stmts + r->c.stmts : NULL;
    for (int i = 0; i < l->nstmts && !r->bad; i++) {
        db_stmt_info st0, *st = r->fill ? &l->stmts[i] : &st0;
        memset(st, 0, sizeof *st);
        r->c.stmts++;
        st->id = get_i64(r);
        st->line = get_i32(r);
        st->col = get_i32(r);
        st->conditional = get_i32(r);
        st->naccesses = get_count(r, 24);
        st->accesses = r->fill ? r->accs + r->c.accs : NULL;
        for (int k = 0; k < st->naccesses && !r->bad; k++) {
            db_access_info a0, *a = r->fill ? &st->accesses[k] : &a0;
            memset(a, 0, sizeof *a);
            r->c.accs++;
            a->id = get_i64(r);
            a->array = (char *)get_str(r);
            a->elem_size = get_i32(r);
            a->is_write = get_i32(r);
            a->ndims = get_i32(r);
            if (a->ndims < 0 || a->ndims > (r->end - r->p) / 4)
                r->bad = 1;
            a->index = r->fill ? r->texts + r->c.texts : NULL;
            for (int j = 0; j < a->ndims && !r->bad; j++) {
                const char *t = get_str(r);
                if (r->fill)
                    a->index[j] = (char *)t;
                r->c.texts++;
            }
            a->nextents = get_i32(r);
            if (a->nextents < 0 || a->nextents > (r->end - r->p) / 4)
                r->bad = 1;
            a->extent = r->fill ? r->texts + r->c.texts : NULL;
            for (int j = 0; j < a->nextents && !r->bad; j++) {
                const char *t = get_str(r);
                if (r->fill)
                    a->extent[j] = (char *)t;
                r->c.texts++;
            }
        }
    }
}

/* One pass over the records: 0, or -1 when they do not parse. */
static int read_records(rd *r)
{
    int ended = 0, launch = 0;
    while (!r->bad && !ended) {
        int tag = (int)get_u(r, 1);
        if (r->bad)
            break;
        switch (tag) {
        case 'L':
            read_loop(r);
            break;
        case 'M': {
            nest_mca m = { 0 };
            m.loop_id = get_i64(r);
            m.r.target = get_str(r);
            m.r.ok = get_i32(r);
            m.r.has_cycles_per_src_iter = get_i32(r);
            m.r.cycles_per_src_iter = get_f64(r);
            m.r.src_iters_per_asm_iter = get_i32(r);
            m.r.figs.block_rthroughput = get_f64(r);
            if (r->fill)
                r->s->mca[r->c.mca] = m;
            r->c.mca++;
            break;
        }
        case 'R': {
            int region = get_i32(r), omp = get_i32(r);
            if (launch++)
                r->bad = 1;
            if (r->fill)
                r->s->has_launch = 1, r->s->region = region, r->s->omp_target = omp;
            break;
        }
        case 'P': {
            db_launch_loop x;
            x.loop_id = get_i64(r);
            x.parallel = get_i32(r);
            x.thread = get_i32(r);
            x.kernel = get_i32(r);
            if (r->fill)
                r->s->ll[r->c.ll] = x;
            r->c.ll++;
            break;
        }
        case 'C': {
            db_launch_cost x;
            x.stmt_id = get_i64(r);
            x.cycles = get_f64(r);
            x.gpu_insts = get_f64(r);
            x.flops = get_f64(r);
            if (r->fill)
                r->s->cost[r->c.cost] = x;
            r->c.cost++;
            break;
        }
        case 'S': {
            db_launch_stride x;
            x.access_id = get_i64(r);
            x.loop_id = get_i64(r);
            x.dim = get_i32(r);
            x.stride = get_str(r);
            if (r->fill)
                r->s->stride[r->c.stride] = x;
            r->c.stride++;
            break;
        }
        case 'O': {
            db_launch_overlap x;
            x.access_id = get_i64(r);
            x.base = get_str(r);
            x.offset = get_str(r);
            x.checkable = get_i32(r);
            if (r->fill)
                r->s->ov[r->c.ov] = x;
            r->c.ov++;
            break;
        }
        case 'X': {
            uint64_t len = get_u(r, 4);
            if (r->bad || r->s_x++ || len > (uint64_t)(r->end - r->p)) {
                r->bad = 1;
                break;
            }
            if (r->fill)
                r->s->xp = r->p, r->s->nxp = (size_t)len;
            r->p += len;
            break;
        }
        case 'E':
            ended = 1;
            break;
        default:
            r->bad = 1;
        }
    }
    return r->bad || !ended || r->p != r->end || r->c.loops == 0 ? -1 : 0;
}

/* One block for every array, aligned for each: the pools in a fixed order. */
static void *carve(unsigned char **at, size_t n, size_t size)
{
    void *p = *at;
    *at += (n * size + 15) / 16 * 16;
    return p;
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

int db_nest_from_packed(const void *bytes, size_t n, db_nest **out, char *err, size_t errlen)
{
    const unsigned char *b = bytes;
    rd r = { 0 };
    *out = NULL;
    if (check_header(b, n, DB_NEST_MAGIC, 1, DB_NEST_VERSION, "packed facts", "a packed nest",
                     &r, err, errlen))
        return -1;
    int64_t root = get_i64(&r);
    const unsigned char *body = r.p;
    if (read_records(&r))
        return ku_fail(err, errlen, "packed facts: corrupt (a record does not parse)");
    counts c = r.c;
    size_t total = sizeof(db_nest) + 16 * 11
                   + (size_t)c.loops * sizeof(db_loop_info)
                   + (size_t)c.children * sizeof(db_loop_ref)
                   + (size_t)c.stmts * sizeof(db_stmt_info)
                   + (size_t)c.accs * sizeof(db_access_info)
                   + (size_t)c.texts * sizeof(char *)
                   + (size_t)c.mca * sizeof(nest_mca)
                   + (size_t)c.ll * sizeof(db_launch_loop)
                   + (size_t)c.cost * sizeof(db_launch_cost)
                   + (size_t)c.stride * sizeof(db_launch_stride)
                   + (size_t)c.ov * sizeof(db_launch_overlap);
    unsigned char *mem = calloc(1, total), *at = mem;
    if (!mem)
        return ku_fail(err, errlen, "out of memory");
    db_nest *s = carve(&at, 1, sizeof *s);
    s->mem = mem;
    s->root = root;
    s->nloops = c.loops;
    s->loops = carve(&at, (size_t)c.loops, sizeof *s->loops);
    s->nmca = c.mca;
    s->mca = carve(&at, (size_t)c.mca, sizeof *s->mca);
    s->nll = c.ll;
    s->ll = carve(&at, (size_t)c.ll, sizeof *s->ll);
    s->ncost = c.cost;
    s->cost = carve(&at, (size_t)c.cost, sizeof *s->cost);
    s->nstride = c.stride;
    s->stride = carve(&at, (size_t)c.stride, sizeof *s->stride);
    s->nov = c.ov;
    s->ov = carve(&at, (size_t)c.ov, sizeof *s->ov);
    rd r2 = { .p = body, .end = b + n, .fill = 1, .s = s };
    r2.children = carve(&at, (size_t)c.children, sizeof *r2.children);
    r2.stmts = carve(&at, (size_t)c.stmts, sizeof *r2.stmts);
    r2.accs = carve(&at, (size_t)c.accs, sizeof *r2.accs);
    r2.texts = carve(&at, (size_t)c.texts, sizeof *r2.texts);
    if (read_records(&r2)) {        /* cannot happen: the same bytes parsed above */
        free(mem);
        return ku_fail(err, errlen, "packed facts: corrupt");
    }
    *out = s;
    return 0;
}

int db_nest_from_db(db *d, db_nest **out, char *err, size_t errlen)
{
    db_nest *s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return ku_fail(err, errlen, "out of memory");
    s->d = d;
    s->mem = s;
    return 0;
}

void db_nest_close(db_nest *s)
{
    if (s)
        free(s->mem);
}

int64_t db_nest_root(const db_nest *s)
{
    return s->root;
}

int db_nest_exprs(const db_nest *s, const void **bytes, size_t *n)
{
    *bytes = s->xp;
    *n = s->nxp;
    return s->xp != NULL;
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
    if (s->d)
        return db_get_loop(s->d, loop_id, out, err, errlen);
    (void)err, (void)errlen;
    *out = NULL;
    for (int i = 0; i < s->nloops; i++)
        if (s->loops[i].id == loop_id) {
            *out = &s->loops[i];
            return 0;
        }
    return 1;
}

void db_nest_loop_free(db_nest *s, db_loop_info *l)
{
    if (s->d)
        db_free_loop(l);
}

int db_nest_mca_each(db_nest *s, int64_t loop_id, db_mca_fn fn, void *ctx, char *err,
                     size_t errlen)
{
    if (s->d)
        return db_mca_each(s->d, loop_id, fn, ctx, err, errlen);
    for (int i = 0; i < s->nmca; i++) {
        int r = s->mca[i].loop_id == loop_id ? fn(ctx, &s->mca[i].r) : 0;
        if (r)
            return r;
    }
    return 0;
}

int db_nest_launch_get(db_nest *s, int64_t loop_id, int *region, int *omp_target, char *err,
                       size_t errlen)
{
    if (s->d)
        return db_launch_get(s->d, loop_id, region, omp_target, err, errlen);
    if (!s->has_launch || loop_id != s->root)
        return 1;
    *region = s->region;
    *omp_target = s->omp_target;
    return 0;
}

/* The packed rows of one table, for the nest it holds only. */
#define EACH_PACKED_(rows, n)                                \
    do {                                                     \
        if (launch_id != s->root)                            \
            return 0;                                        \
        for (int i = 0; i < (n); i++) {                      \
            int r_ = fn(ctx, &(rows)[i]);                    \
            if (r_)                                          \
                return r_;                                   \
        }                                                    \
        return 0;                                            \
    } while (0)

int db_nest_launch_each_loop(db_nest *s, int64_t launch_id, db_launch_loop_fn fn, void *ctx,
                             char *err, size_t errlen)
{
    if (s->d)
        return db_launch_each_loop(s->d, launch_id, fn, ctx, err, errlen);
    EACH_PACKED_(s->ll, s->nll);
}

int db_nest_launch_each_stride(db_nest *s, int64_t launch_id, db_launch_stride_fn fn,
                               void *ctx, char *err, size_t errlen)
{
    if (s->d)
        return db_launch_each_stride(s->d, launch_id, fn, ctx, err, errlen);
    EACH_PACKED_(s->stride, s->nstride);
}

int db_nest_launch_each_cost(db_nest *s, int64_t launch_id, db_launch_cost_fn fn, void *ctx,
                             char *err, size_t errlen)
{
    if (s->d)
        return db_launch_each_cost(s->d, launch_id, fn, ctx, err, errlen);
    EACH_PACKED_(s->cost, s->ncost);
}

int db_nest_launch_each_overlap(db_nest *s, int64_t launch_id, db_launch_overlap_fn fn,
                                void *ctx, char *err, size_t errlen)
{
    if (s->d)
        return db_launch_each_overlap(s->d, launch_id, fn, ctx, err, errlen);
    EACH_PACKED_(s->ov, s->nov);
}

/* ---- the link table: lookup (db_nest.h) ---------------------------------- */

static int ends_in(const char *s, size_t n, const char *tail)
{
    size_t t = strlen(tail);
    return (n == t && memcmp(s, tail, n) == 0) ||
           (n > t && s[n - t - 1] == '/' && memcmp(s + n - t, tail, t) == 0);
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
    return memcmp(e + 8, hash, 16);
}

int db_link_find(const unsigned char *table, const char *tail, int line, int col,
                 const char *hash, const unsigned char **nest, size_t *len)
{
    if (!table || !hash || strlen(hash) != 16 || !tail ||
        memcmp(table, DB_LINK_MAGIC, 8) != 0 || u32_at(table + 8) != DB_LINK_VERSION)
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
        const char *file = (const char *)table + fo;
        const void *nul = fo < n ? memchr(file, '\0', n - fo) : NULL;
        if (!nul || no > n || nl > n - no)
            return 1;                  /* a damaged table: the database answers */
        if (ends_in(file, (size_t)((const char *)nul - file), tail)) {
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
