/*
 * test_nest.c -- a nest as it travels (db/db_nest.h): a nest written by
 * hand into a fresh database and read back row by row with exact values;
 * the stored model's bytes back as they were put, none for a loop without
 * one; the link table of an object holds its launch site's stored model
 * of the current format (an older format's is left out), found by
 * position, build hash and file name, and nothing else; a host's newest
 * calibration packs and reads back as the log's rows, another host's is
 * none, a damaged one is refused.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "db_calib_pack.h"
#include "db_launch.h"
#include "db_log.h"
#include "db_mca.h"
#include "db_nest.h"
#include "util.h"

static int fails;
#define CHECK(c, ...)                                         \
    do {                                                      \
        if (!(c)) {                                           \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);       \
            printf(__VA_ARGS__);                              \
            printf("\n");                                     \
            fails++;                                          \
        }                                                     \
    } while (0)
#define STREQ(a, b) ((a) && (b) ? strcmp((a), (b)) == 0 : (a) == (b))

static int64_t root, inner, stmt, acc_a, acc_b, bare;

/* i < n { j < m { a[i][j] = b[j] * 2 } }: launch facts, two llvm-mca
 * targets on the inner loop, an overlap condition; and a second nest
 * without launch facts. */
static int write_nest(db *d, char *err, size_t errlen)
{
    db_tu_row t = { .path = "/src/k.c", .hash = "0123456789abcdef", .args = "[]",
                    .compiler = "clang-19", .directory = "/src", .status = "ok",
                    .object = "/src/k.o" };
    int64_t tu, f;
    if (db_begin_tu(d, &t, &tu, err, errlen))
        return -1;
    db_function_row fn = { .name = "k", .file = "/src/k.c", .line = 1, .col = 6 };
    if (db_add_function(d, tu, &fn, &f, err, errlen))
        return -1;
    db_loop_row l = { .file = "/src/k.c", .line = 3, .col = 5, .end_line = 5, .kind = "for",
                      .canonical = 1, .iv = "i", .lower = "0", .upper = "n", .step = 1,
                      .trip = "n", .pragmas = "[]", .gpu_map = "teams" };
    if (db_add_loop(d, f, &l, &root, err, errlen))
        return -1;
    l = (db_loop_row){ .parent_id = root, .file = "/src/k.c", .line = 4, .col = 9,
                       .end_line = 5, .depth = 1, .kind = "for", .canonical = 1, .iv = "j",
                       .lower = "0", .upper = "m", .step = 2, .trip = "div(m + 1, 2)",
                       .pragmas = "[]", .gpu_map = "threads" };
    if (db_add_loop(d, f, &l, &inner, err, errlen))
        return -1;
    db_stmt_row st = { .line = 5, .col = 13, .text = "a[i][j] = b[j] * 2;", .conditional = 1,
                       .fmul = 1 };
    if (db_add_stmt(d, inner, &st, &stmt, err, errlen))
        return -1;
    const char *ij[] = { "i", "j" }, *ext[] = { NULL, "m" }, *jj[] = { "j" };
    db_access_row a = { .array = "a", .elem_size = 8, .is_write = 1, .ndims = 2, .index = ij,
                        .nextents = 2, .extent = ext, .affine = 1, .line = 5, .col = 13 };
    if (db_add_access(d, stmt, &a, &acc_a, err, errlen))
        return -1;
    a = (db_access_row){ .array = "b", .elem_size = 4, .ndims = 1, .index = jj, .affine = 1,
                         .line = 5, .col = 23 };
    if (db_add_access(d, stmt, &a, &acc_b, err, errlen))
        return -1;
    db_loop_facts lf = { .parallel = "parallel", .idioms = "stream", .site = "call" };
    if (db_set_loop_facts(d, root, &lf, err, errlen))
        return -1;
    db_loop_facts lf2 = { .recurrence = "fadd:1" };
    if (db_set_loop_facts(d, inner, &lf2, err, errlen))
        return -1;
    db_mca_row m = { .target = "znver4", .ok = 1, .src_iters_per_asm_iter = 4,
                     .has_cycles_per_src_iter = 1, .cycles_per_src_iter = 0.625,
                     .asm_label = ".LBB0_3", .asm_copies = 1, .asm_innermost = 1 };
    m.figs.ok = 1;
    m.figs.block_rthroughput = 2.5;
    if (db_mca_add_result(d, inner, &m, err, errlen))
        return -1;
    m = (db_mca_row){ .target = "skylake", .ok = 0, .reason = "no block" };
    if (db_mca_add_result(d, inner, &m, err, errlen))
        return -1;
    db_launch_writer *w = NULL;
    if (db_launch_writer_open(d, &w, err, errlen) ||
        db_launch_add(w, root, 0, 1, err, errlen) ||
        db_launch_add_loop(w, root, root, 1, 0, 0, err, errlen) ||
        db_launch_add_loop(w, root, inner, 1, 1, 0, err, errlen) ||
        db_launch_add_stride(w, acc_a, inner, -1, "2", err, errlen) ||
        db_launch_add_stride(w, acc_a, root, 1, NULL, err, errlen) ||
        db_launch_add_stride(w, acc_b, inner, 0, "2", err, errlen) ||
        db_launch_set_stmt_cost(w, stmt, 3.5, 2.25, 1, err, errlen) ||
        db_launch_add_overlap(w, root, acc_a, "a", "m * i + j", 1, err, errlen) ||
        db_launch_add_overlap(w, root, acc_b, "b", NULL, 0, err, errlen)) {
        db_launch_writer_close(w);
        return -1;
    }
    db_launch_writer_close(w);
    l = (db_loop_row){ .file = "/src/k.c", .line = 9, .col = 5, .end_line = 9, .kind = "for",
                       .canonical = 1, .iv = "q", .lower = "0", .upper = "n", .step = 1,
                       .trip = "n", .pragmas = "[]" };
    if (db_add_loop(d, f, &l, &bare, err, errlen))
        return -1;
    return db_commit_tu(d, err, errlen);
}

typedef struct {
    char text[2048];
    size_t n;
} rows;

static void add(rows *r, const char *fmt, ...) KU_PRINTF(2, 3);
static void add(rows *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(r->text + r->n, sizeof r->text - r->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        r->n += (size_t)k < sizeof r->text - r->n ? (size_t)k : sizeof r->text - r->n - 1;
}

static int mca_fn(void *c, const db_mca_row *m)
{
    add(c, "mca %s ok=%d has=%d cyc=%g per=%d rthru=%g\n", m->target, m->ok,
        m->has_cycles_per_src_iter, m->cycles_per_src_iter, m->src_iters_per_asm_iter,
        m->figs.block_rthroughput);
    return 0;
}
static int ll_fn(void *c, const db_launch_loop *x)
{
    add(c, "ll %lld %d %d %d\n", (long long)x->loop_id, x->parallel, x->thread, x->kernel);
    return 0;
}
static int cost_fn(void *c, const db_launch_cost *x)
{
    add(c, "cost %lld %g %g %g\n", (long long)x->stmt_id, x->cycles, x->gpu_insts, x->flops);
    return 0;
}
static int stride_fn(void *c, const db_launch_stride *x)
{
    add(c, "stride %lld %lld %d %s\n", (long long)x->access_id, (long long)x->loop_id, x->dim,
        x->stride ? x->stride : "NULL");
    return 0;
}
static int ov_fn(void *c, const db_launch_overlap *x)
{
    add(c, "ov %lld %s %s %d\n", (long long)x->access_id, x->base,
        x->offset ? x->offset : "NULL", x->checkable);
    return 0;
}

static void bw_fn(void *c, const db_bw_row *r)
{
    add(c, "%s %g %d %g\n", r->pattern, r->footprint, r->threads, r->bytes_per_s);
}

static const char *s_(const char *s) { return s ? s : "NULL"; }

/* Every row the loader reads, as text, through one route. */
static void dump(db_nest *s, int64_t id, rows *r)
{
    char err[256];
    db_loop_info *l = NULL;
    if (db_nest_loop(s, id, &l, err, sizeof err) != 0) {
        add(r, "no loop %lld\n", (long long)id);
        return;
    }
    add(r, "loop %lld %d:%d file=%s fn=%s hash=%s iv=%s lower=%s trip=%s step=%lld map=%s\n",
        (long long)l->id, l->line, l->col, s_(l->file), s_(l->function), s_(l->tu_hash),
        s_(l->iv), s_(l->lower), s_(l->trip), (long long)l->step, s_(l->gpu_map));
    for (int k = 0; k < DB_NLOOP_FACTS; k++)
        if (db_loop_fact(l, k))
            add(r, " fact %s=%s\n", db_loop_fact_names[k], db_loop_fact(l, k));
    for (int i = 0; i < l->nstmts; i++) {
        const db_stmt_info *st = &l->stmts[i];
        add(r, " stmt %lld %d:%d cond=%d\n", (long long)st->id, st->line, st->col,
            st->conditional);
        for (int k = 0; k < st->naccesses; k++) {
            const db_access_info *a = &st->accesses[k];
            add(r, "  acc %lld %s elem=%d w=%d", (long long)a->id, a->array, a->elem_size,
                a->is_write);
            for (int j = 0; j < a->ndims; j++)
                add(r, " [%s]", s_(a->index[j]));
            for (int j = 0; j < a->nextents; j++)
                add(r, " ext=%s", s_(a->extent[j]));
            add(r, "\n");
        }
    }
    int n = l->nchildren;
    int64_t kids[8];
    for (int i = 0; i < n && i < 8; i++) {
        kids[i] = l->children[i].id;
        add(r, " child %lld %d:%d\n", (long long)kids[i], l->children[i].line,
            l->children[i].col);
    }
    db_nest_loop_free(s, l);
    db_nest_mca_each(s, id, mca_fn, r, err, sizeof err);
    for (int i = 0; i < n && i < 8; i++)
        dump(s, kids[i], r);
}

static void dump_launch(db_nest *s, rows *r)
{
    char err[256];
    int region = -1, omp = -1;
    int got = db_nest_launch_get(s, root, &region, &omp, err, sizeof err);
    add(r, "launch %d region=%d omp=%d\n", got, region, omp);
    db_nest_launch_each_loop(s, root, ll_fn, r, err, sizeof err);
    db_nest_launch_each_cost(s, root, cost_fn, r, err, sizeof err);
    db_nest_launch_each_stride(s, root, stride_fn, r, err, sizeof err);
    db_nest_launch_each_overlap(s, root, ov_fn, r, err, sizeof err);
}

static void store_u(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* A pool function for the test: the texts joined, each followed by '|'. */
int main(void)
{
    char err[512], path[] = "/tmp/keel-nest-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    unlink(path);
    db *d = NULL;
    if (db_open(path, DB_WRITE, &d, err, sizeof err) || write_nest(d, err, sizeof err)) {
        printf("FAIL: cannot write the nest: %s\n", err);
        return 1;
    }
    /* the rows of the nest, exactly as written */
    db_nest *sd = NULL;
    CHECK(db_nest_from_db(d, &sd, err, sizeof err) == 0, "from db: %s", err);
    if (!sd)
        return 1;
    rows rd = { "", 0 };
    dump(sd, root, &rd);
    dump_launch(sd, &rd);
    char want[2048];
    snprintf(want, sizeof want,
             "loop %lld 3:5 file=/src/k.c fn=k hash=0123456789abcdef iv=i lower=0 trip=n "
             "step=1 map=teams\n"
             " fact idioms=stream\n fact parallel=parallel\n fact site=call\n"
             " child %lld 4:9\n"
             "loop %lld 4:9 file=/src/k.c fn=k hash=0123456789abcdef iv=j lower=0 "
             "trip=div(m + 1, 2) step=2 map=threads\n"
             " fact recurrence=fadd:1\n"
             " stmt %lld 5:13 cond=1\n"
             "  acc %lld a elem=8 w=1 [i] [j] ext=NULL ext=m\n"
             "  acc %lld b elem=4 w=0 [j]\n"
             "mca znver4 ok=1 has=1 cyc=0.625 per=4 rthru=2.5\n"
             "mca skylake ok=0 has=0 cyc=0 per=0 rthru=0\n"
             "launch 0 region=0 omp=1\n"
             "ll %lld 1 0 0\nll %lld 1 1 0\n"
             "cost %lld 3.5 2.25 1\n"
             "stride %lld %lld 1 NULL\nstride %lld %lld -1 2\nstride %lld %lld 0 2\n"
             "ov %lld a m * i + j 1\nov %lld b NULL 0\n",
             (long long)root, (long long)inner, (long long)inner, (long long)stmt,
             (long long)acc_a, (long long)acc_b, (long long)root, (long long)inner,
             (long long)stmt, (long long)acc_a, (long long)root, (long long)acc_a,
             (long long)inner, (long long)acc_b, (long long)inner, (long long)acc_a,
             (long long)acc_b);
    CHECK(strcmp(rd.text, want) == 0, "rows:\n%s--- want\n%s", rd.text, want);
    db_loop_info *none = NULL;
    CHECK(db_nest_loop(sd, 999999, &none, err, sizeof err) == 1 && !none, "no such loop");
    int region, omp;
    CHECK(db_nest_launch_get(sd, bare, &region, &omp, err, sizeof err) == 1,
          "a loop without launch facts");
    db_nest_close(sd);

    /* a stored form of an older format (version 2: rows packed by db/),
     * a stand-in header */
    size_t n = 48;
    unsigned char *b = calloc(1, n);
    memcpy(b, "KEELNEST", 8);
    store_u(b + 8, 2, 4);
    store_u(b + 12, n, 4);
    store_u(b + 24, (uint64_t)root, 8);

    /* the link table of the object /src/k.o: the launch site, found by
     * line, column, build hash and the tail of its file name */
    const char *objs[] = { "/nowhere/x.o", "/src/k.o" };
    unsigned char *t = NULL;
    size_t tn = 0;
    CHECK(db_link_table(d, objs, 1, &t, &tn, err, sizeof err) == 0 && !t && tn == 0,
          "an object keelcc never compiled: no table");
    /* the table copies stored models of the current format only (db/
     * reads their header alone: these bytes are a stand-in) */
    CHECK(db_link_table(d, objs, 2, &t, &tn, err, sizeof err) == 0 && !t && tn == 0,
          "no stored model: the site is left out");
    CHECK(db_nest_put(d, root, b, n, err, sizeof err) == 0, "put: %s", err);
    CHECK(db_link_table(d, objs, 2, &t, &tn, err, sizeof err) == 0 && !t && tn == 0,
          "a stored form of an older format is left out");
    free(b);
    n = 48;
    b = calloc(1, n);
    memcpy(b, "KEELNEST", 8);
    store_u(b + 8, DB_NEST_MODEL_VERSION, 4);
    store_u(b + 12, n, 4);
    store_u(b + 24, (uint64_t)root, 8);
    memset(b + 32, 0x5a, 16);
    CHECK(db_nest_current(b, n) && !db_nest_current(b, 31), "the current format's header");
    CHECK(db_nest_put(d, root, b, n, err, sizeof err) == 0, "put: %s", err);
    unsigned char *sb = NULL;
    size_t sl = 0;
    CHECK(db_nest_stored(d, root, &sb, &sl, err, sizeof err) == 0 && sl == n &&
          memcmp(sb, b, n) == 0, "stored bytes back as they were: %s", err);
    free(sb);
    CHECK(db_nest_stored(d, inner, &sb, &sl, err, sizeof err) == 1 && !sb, "none for %s",
          "an inner loop");
    CHECK(db_link_table(d, objs, 2, &t, &tn, err, sizeof err) == 0 && t, "table: %s", err);
    if (t) {
        CHECK(memcmp(t, "KEELLINK", 8) == 0 && t[8] == 1 && t[16] == 1 && t[17] == 0,
              "table header: one entry");
        CHECK((t[12] | t[13] << 8 | t[14] << 16 | (uint32_t)t[15] << 24) == tn, "table length");
        CHECK(tn == 20 + 40 + strlen("/src/k.c") + 1 + n, "table size %zu", tn);
        const unsigned char *nest = NULL;
        size_t nl = 0;
        const char *h = "0123456789abcdef";
        CHECK(db_link_find(t, "k.c", 3, 5, h, &nest, &nl) == 0 && nl == n &&
              memcmp(nest, b, n) == 0, "the site's nest, as packed");
        CHECK(db_link_find(t, "src/k.c", 3, 5, h, &nest, &nl) == 0, "a longer tail");
        CHECK(db_link_find(t, "/src/k.c", 3, 5, h, &nest, &nl) == 0, "the stored path");
        CHECK(db_link_find(t, "rc/k.c", 3, 5, h, &nest, &nl) == 1, "a tail that cuts a name");
        CHECK(db_link_find(t, "k.c", 3, 5, "0123456789abcdee", &nest, &nl) == 1,
              "another build");
        CHECK(db_link_find(t, "k.c", 4, 9, h, &nest, &nl) == 1, "an inner loop: no site");
        CHECK(db_link_find(t, "k.c", 3, 5, "0123", &nest, &nl) == 1, "a short hash");
        CHECK(db_link_find(b, "k.c", 3, 5, h, &nest, &nl) == 1, "not a table");
        unsigned char *t2 = NULL;
        size_t tn2 = 0;
        CHECK(db_link_table(d, objs, 2, &t2, &tn2, err, sizeof err) == 0 && tn2 == tn &&
              memcmp(t, t2, tn) == 0, "two tables of the same rows differ");
        free(t2);
        /* a directory entry that points past the table: not found */
        store_u(t + 20 + 28, tn + 100, 4);
        CHECK(db_link_find(t, "k.c", 3, 5, h, &nest, &nl) == 1, "damaged entry");
        free(t);
    }
    free(b);

    /* a host's newest calibration, packed: the same rows as the log's */
    db_calib_row cr = { .cores = 8, .freq_hz = 3e9, .mem_bw = 2.5e10, .peak_flops = 4e11,
                        .fork_ns = 1500, .join_ns = 700, .sched_ns = 40,
                        .target_fallback_ns = 12, .page_bytes = 4096, .tlb_entries = 1536,
                        .tlb_miss_ns = 9.5, .l1_bytes = 49152, .l2_bytes = 1048576,
                        .l3_bytes = 33554432, .latencies = "fadd=3 fmul=4",
                        .thread_curve = "1:3e+09:1e+10:2e+10 2:2.9e+09:9e+09:3e+10" };
    db_log *lw = NULL;
    int64_t cid = 0;
    db_bw_row bw1 = { "unit", 65536, 1, 4e10 }, bw2 = { "gather", 65536, 8, 1e10 };
    if (db_log_open(path, DB_LOG_WRITE, 1000, &lw, err, sizeof err) || db_log_begin(lw) ||
        db_calib_add(lw, "h0", &cr, &cid) || (cr.cores = 16, db_calib_add(lw, "h1", &cr, &cid)) ||
        db_calib_add_bandwidth(lw, cid, &bw1) || db_calib_add_bandwidth(lw, cid, &bw2) ||
        db_log_end(lw, 1)) {
        printf("FAIL: cannot write a calibration: %s\n", err);
        fails++;
    }
    db_log_close(lw);
    unsigned char *cb = NULL;
    size_t cn = 0;
    CHECK(db_calib_pack(d, "nohost", &cb, &cn, err, sizeof err) == 1 && !cb, "no calibration");
    CHECK(db_calib_pack(d, "h1", &cb, &cn, err, sizeof err) == 0 && cb, "calib pack: %s", err);
    db_calib_src *cs = NULL;
    CHECK(cb && db_calib_packed_size(cb) == cn, "calib: the size its header states");
    CHECK(db_calib_packed_size("KEELNEST") == 0, "calib size: another magic");
    CHECK(cb && db_calib_src_packed(cb, cn, &cs, err, sizeof err) == 0, "calib decode: %s", err);
    if (cs) {
        db_calib_row got;
        int64_t gid = 0;
        CHECK(db_calib_src_newest(cs, "h0", &got, &gid) == 1, "another host's calibration");
        CHECK(db_calib_src_newest(cs, "h1", &got, &gid) == 0 && gid == cid && got.cores == 16 &&
              got.freq_hz == 3e9 && got.mem_bw == 2.5e10 && got.peak_flops == 4e11 &&
              got.fork_ns == 1500 && got.join_ns == 700 && got.sched_ns == 40 &&
              got.target_fallback_ns == 12 && got.page_bytes == 4096 &&
              got.tlb_entries == 1536 && got.tlb_miss_ns == 9.5 && got.l1_bytes == 49152 &&
              got.l2_bytes == 1048576 && got.l3_bytes == 33554432 &&
              !strcmp(got.latencies, "fadd=3 fmul=4") &&
              !strcmp(got.thread_curve, "1:3e+09:1e+10:2e+10 2:2.9e+09:9e+09:3e+10"),
              "calibration row");
        double fp[4] = { 0 };
        CHECK(db_calib_src_footprints(cs, cid, fp, 4) == 1 && fp[0] == 65536, "footprints");
        rows br = { "", 0 };
        db_calib_src_each_bandwidth(cs, cid, bw_fn, &br);
        CHECK(!strcmp(br.text, "unit 65536 1 4e+10\ngather 65536 8 1e+10\n"), "bandwidth:\n%s",
              br.text);
        db_calib_src_close(cs);
    }
    for (size_t k = 0; cb && k < cn; k += 7) {
        cb[k] ^= 0x10;
        cs = NULL;
        CHECK(db_calib_src_packed(cb, cn, &cs, err, sizeof err) == -1 && !cs,
              "calibration byte %zu flipped: accepted", k);
        cb[k] ^= 0x10;
    }
    CHECK(cb && db_calib_src_packed(cb, cn - 1, &cs, err, sizeof err) == -1 &&
          strstr(err, "packed calibration: truncated"), "truncated calibration: %s", err);
    free(cb);
    db_close(d);
    unlink(path);
    char side[sizeof path + 8];
    snprintf(side, sizeof side, "%s-wal", path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
    if (fails)
        return 1;
    printf("nest: packed and database rows agree; %zu bytes; every truncation and flip "
           "refused\n", n);
    return 0;
}
