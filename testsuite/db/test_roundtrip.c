/*
 * test_roundtrip.c -- write the sample database, read it back through the
 * reader API and plain SQL, then rewrite one TU (old rows go, nothing is
 * duplicated) and roll a rewrite back (old rows stay).
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "db.h"
#include "sample.h"

#ifndef KEEL_VERSION
#define KEEL_VERSION "unknown"
#endif

static char dbpath[256];
static char err[512];

/* One integer from SQL through a plain sqlite3 connection. */
static long long q(const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_open_v2(dbpath, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    } else
        fprintf(stderr, "q: %s: %s\n", sql, sqlite3_errmsg(h));
    sqlite3_close(h);
    return v;
}

/* One text from SQL into a static buffer ("(null)" for NULL). */
static const char *qs(const char *sql)
{
    static char buf[256];
    sqlite3 *h;
    sqlite3_stmt *st;
    strcpy(buf, "(error)");
    if (sqlite3_open_v2(dbpath, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) {
            const char *s = (const char *)sqlite3_column_text(st, 0);
            snprintf(buf, sizeof buf, "%s", s ? s : "(null)");
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return buf;
}

typedef struct {
    int n;
    db_loop_summary row[16];
    char text[16][8][64];
} rows;

static const char *keep(rows *r, int k, const char *s)
{
    if (!s)
        return NULL;
    snprintf(r->text[r->n][k], 64, "%s", s);
    return r->text[r->n][k];
}

static int collect(void *ctx, const db_loop_summary *s)
{
    rows *r = ctx;
    if (r->n == 16)
        return 1;
    db_loop_summary *o = &r->row[r->n];
    *o = *s;
    o->file = keep(r, 0, s->file);
    o->function = keep(r, 1, s->function);
    o->iv = keep(r, 2, s->iv);
    o->trip = keep(r, 3, s->trip);
    o->pragmas = keep(r, 4, s->pragmas);
    o->idioms = keep(r, 5, s->idioms);
    o->algorithm_class = keep(r, 6, s->algorithm_class);
    o->parallel = o->coalescing = NULL;
    r->n++;
    return 0;
}

static int count_loops(db *d, const db_loop_filter *f)
{
    rows r = { 0 };
    if (db_each_loop(d, f, collect, &r, err, sizeof err) != 0)
        return -1;
    return r.n;
}

static void test_read(void)
{
    db *d;
    rows r = { 0 };
    CHECK_INT(db_open(dbpath, DB_READONLY, &d, err, sizeof err), 0);
    CHECK_INT(db_schema_version(d), DB_SCHEMA_VERSION);
    CHECK_INT(db_each_loop(d, NULL, collect, &r, err, sizeof err), 0);
    CHECK_INT(r.n, 7);
    static const int lines[] = { 12, 13, 15, 16, 32, 7, 8 };
    for (int i = 0; i < 7 && i < r.n; i++)
        CHECK_INT(r.row[i].line, lines[i]);
    CHECK_STR(r.row[0].file, "/src/gemm.c");
    CHECK_STR(r.row[0].function, "kernel_gemm");
    CHECK_INT(r.row[0].depth, 0);
    CHECK_INT(r.row[0].parent_line, 0);
    CHECK_STR(r.row[0].iv, "i");
    CHECK_STR(r.row[0].trip, "ni");
    CHECK_STR(r.row[0].pragmas, "[\"omp parallel for\"]");
    CHECK(r.row[0].idioms == NULL && r.row[0].algorithm_class == NULL);
    CHECK_INT(r.row[0].has_cycles, 0);
    CHECK_INT(r.row[3].depth, 2);
    CHECK_INT(r.row[3].parent_line, 15);
    CHECK_INT(r.row[3].col, 7);
    CHECK_STR(r.row[4].function, "kernel_sum");
    CHECK(r.row[4].iv == NULL && r.row[4].trip == NULL && r.row[4].pragmas == NULL);
    CHECK_STR(r.row[5].file, "/src/util/stencil.c");
    CHECK_STR(r.row[6].trip, "n - 2");
    CHECK_STR(r.row[6].idioms, "[\"stencil\"]");
    CHECK_STR(r.row[6].algorithm_class, "neighbourhood");
    CHECK_INT(r.row[6].has_cycles, 1);
    CHECK(r.row[6].cycles_per_iter == 2.5);

    /* filters */
    CHECK_INT(count_loops(d, &(db_loop_filter){ .function = "kernel_sum" }), 1);
    CHECK_INT(count_loops(d, &(db_loop_filter){ .file = "gemm.c", .file_match = DB_FILE_SUFFIX }), 5);
    CHECK_INT(count_loops(d, &(db_loop_filter){ .file = "src/gemm.c", .file_match = DB_FILE_SUFFIX }), 5);
    CHECK_INT(count_loops(d, &(db_loop_filter){ .file = "emm.c", .file_match = DB_FILE_SUFFIX }), 0);
    CHECK_INT(count_loops(d, &(db_loop_filter){ .file = "emm.c", .file_match = DB_FILE_SUBSTR }), 5);
    CHECK_INT(count_loops(d, &(db_loop_filter){ .file = "/src/gemm.c" }), 5);
    CHECK_INT(count_loops(d, &(db_loop_filter){ .file = "gemm.c" }), 0);
    CHECK_INT(count_loops(d, &(db_loop_filter){ .file = "stencil.c", .file_match = DB_FILE_SUFFIX,
                                                .line = 8 }), 1);
    CHECK_INT(count_loops(d, &(db_loop_filter){ .line = 16, .col = 7 }), 1);
    CHECK_INT(count_loops(d, &(db_loop_filter){ .line = 16, .col = 8 }), 0);
    CHECK_INT(count_loops(d, &(db_loop_filter){ .file = "gemm.c", .file_match = DB_FILE_SUFFIX,
                                                .function = "jacobi" }), 0);

    /* one loop in full: gemm.c:16 */
    memset(&r, 0, sizeof r);
    CHECK_INT(db_each_loop(d, &(db_loop_filter){ .file = "gemm.c", .file_match = DB_FILE_SUFFIX,
                                                 .line = 16 }, collect, &r, err, sizeof err), 0);
    db_loop_info *l = NULL;
    CHECK_INT(r.n, 1);
    CHECK_INT(db_get_loop(d, r.row[0].loop_id, &l, err, sizeof err), 0);
    if (l) {
        CHECK_STR(l->tu_path, "/src/gemm.c");
        CHECK_STR(l->tu_status, "ok");
        CHECK_STR(l->function, "kernel_gemm");
        CHECK_INT(l->function_line, 10);
        CHECK_INT(l->parent_line, 15);
        CHECK_INT(l->parent_col, 5);
        CHECK_INT(l->end_line, 18);
        CHECK_STR(l->kind, "for");
        CHECK_INT(l->canonical, 1);
        CHECK_STR(l->lower, "0");
        CHECK_STR(l->upper, "nj");
        CHECK_INT(l->step, 1);
        CHECK_STR(l->pragmas, "[\"omp simd\",\"GCC ivdep\"]");
        CHECK_INT(l->nchildren, 0);
        CHECK_INT(l->nstmts, 1);
        db_stmt_info *s = &l->stmts[0];
        CHECK_STR(s->text, "C[i][j] += alpha * A[i][k] * B[k][j];");
        CHECK_INT(s->fadd, 1);
        CHECK_INT(s->fmul, 2);
        CHECK_INT(s->ffma, 1);
        CHECK_INT(s->fdiv, 0);
        CHECK(s->calls == NULL);
        CHECK_INT(s->naccesses, 4);
        if (s->naccesses == 4) {
            CHECK_STR(s->accesses[0].array, "A");
            CHECK_INT(s->accesses[0].ndims, 2);
            CHECK_STR(s->accesses[0].index[0], "i");
            CHECK_STR(s->accesses[0].index[1], "k");
            CHECK_STR(s->accesses[0].extent[1], "nk");
            CHECK_STR(s->accesses[1].array, "B");
            CHECK_STR(s->accesses[1].index[0], "k");
            CHECK_INT(s->accesses[2].is_write, 0);
            CHECK_INT(s->accesses[3].is_write, 1);
            CHECK_INT(s->accesses[3].elem_size, 8);
            CHECK_INT(s->accesses[3].col, 9);
        }
        CHECK_INT(s->nscalars, 1);
        CHECK_STR(s->scalars[0].name, "alpha");
    }
    db_free_loop(l);

    /* the outer loop: children, no statements of its own */
    CHECK_INT(db_get_loop(d, r.row[0].loop_id - 3, &l, err, sizeof err), 0);
    if (l) {
        CHECK_INT(l->line, 12);
        CHECK_INT(l->parent_id, 0);
        CHECK_INT(l->nchildren, 2);
        CHECK_INT(l->children[0].line, 13);
        CHECK_INT(l->children[1].line, 15);
        CHECK_INT(l->nstmts, 0);
    }
    db_free_loop(l);

    /* the while loop: indirect, unknown extent, calls, conditional */
    CHECK_INT(db_get_loop(d, r.row[0].loop_id + 1, &l, err, sizeof err), 0);
    if (l) {
        CHECK_INT(l->line, 32);
        CHECK_STR(l->kind, "while");
        CHECK_INT(l->canonical, 0);
        CHECK(l->iv == NULL && l->lower == NULL && l->trip == NULL && l->pragmas == NULL);
        CHECK_INT(l->step, 0);
        CHECK_INT(l->n_if, 1);
        CHECK_INT(l->n_break, 1);
        CHECK_INT(l->nstmts, 1);
        db_stmt_info *s = &l->stmts[0];
        CHECK_INT(s->conditional, 1);
        CHECK_STR(s->calls, "[\"abort\"]");
        CHECK_INT(s->naccesses, 2);
        CHECK_STR(s->accesses[0].index[0], "load.p(k)");
        CHECK_INT(s->accesses[0].nextents, 0);
        CHECK_INT(s->accesses[0].affine, 0);
        CHECK_INT(s->accesses[1].nextents, 1);
        CHECK(s->accesses[1].extent[0] == NULL);
        CHECK_INT(s->nscalars, 3);
        CHECK_STR(s->scalars[0].name, "s");
        CHECK_INT(s->scalars[0].is_write, 1);
        CHECK_STR(s->scalars[2].name, "k");
    }
    db_free_loop(l);
    CHECK_INT(db_get_loop(d, 999999, &l, err, sizeof err), 1);
    CHECK(l == NULL);

    /* the writer refuses a read-only connection */
    CHECK_INT(db_begin_tu(d, &(db_tu_row){ .path = "/x.c" }, NULL, err, sizeof err), -1);
    char want[512];
    snprintf(want, sizeof want, "%s: begin translation unit: database is open read-only", dbpath);
    CHECK_STR(err, want);
    db_close(d);
}

static void test_sql(void)
{
    CHECK_INT(q("PRAGMA user_version"), DB_SCHEMA_VERSION);
    CHECK_STR(qs("PRAGMA journal_mode"), "wal");
    CHECK_STR(qs("SELECT value FROM keel_meta WHERE key = 'schema_version'"), "2");
    CHECK_STR(qs("SELECT value FROM keel_meta WHERE key = 'created_by'"), "keel " KEEL_VERSION);
    CHECK_INT(q("SELECT count(*) FROM translation_units"), 2);
    CHECK_INT(q("SELECT count(*) FROM functions"), 3);
    CHECK_INT(q("SELECT count(*) FROM loops"), 7);
    CHECK_INT(q("SELECT count(*) FROM statements"), 4);
    CHECK_INT(q("SELECT count(*) FROM accesses"), 12);
    CHECK_INT(q("SELECT count(*) FROM access_subscripts"), 18);
    CHECK_INT(q("SELECT count(*) FROM access_extents"), 17);
    CHECK_INT(q("SELECT count(*) FROM access_extents WHERE expr_id IS NULL"), 1);
    CHECK_INT(q("SELECT count(*) FROM scalars"), 5);
    /* interned per TU: gemm has 0 ni nj nk i j k load.p(k); stencil has
     * 0 tsteps 1 n-1 n-2 i-1 i i+1 n */
    CHECK_INT(q("SELECT count(*) FROM expressions"), 17);
    CHECK_INT(q("SELECT count(*) FROM expressions e JOIN translation_units t ON t.id = e.tu_id"
                " WHERE t.path = '/src/gemm.c'"), 8);
    CHECK_INT(q("SELECT count(*) FROM expressions WHERE affine = 0"), 1);
    CHECK_STR(qs("SELECT text FROM expressions WHERE affine = 0"), "load.p(k)");
    CHECK_INT(q("SELECT count(*) FROM loop_summary"), 7);
    CHECK_STR(qs("SELECT trip FROM loop_summary WHERE line = 16"), "nj");
    CHECK_INT(q("SELECT parent_line FROM loop_summary WHERE line = 16"), 15);
    CHECK_INT(q("SELECT parent_line IS NULL FROM loop_summary WHERE line = 12"), 1);
    CHECK_STR(qs("SELECT algorithm_class FROM loop_summary WHERE line = 8"), "neighbourhood");
    CHECK_STR(qs("SELECT status FROM translation_units WHERE path = '/src/gemm.c'"), "ok");
    CHECK_STR(qs("SELECT args FROM translation_units WHERE path = '/src/gemm.c'"),
              "[\"-O2\",\"-c\",\"gemm.c\"]");
    CHECK_INT(q("SELECT length(compiled_at) FROM translation_units LIMIT 1"), 20);
}

/* Write a small replacement of /src/gemm.c; commit or roll back. */
static int rewrite(int commit, int64_t *tu_out)
{
    db *d;
    int64_t tu, f, l, s;
    int r = -1;
    if (db_open(dbpath, DB_WRITE, &d, err, sizeof err))
        return -1;
    db_tu_row t = { .path = "/src/gemm.c", .hash = "beef", .args = "[]", .compiler = "clang-19",
                    .directory = "/src", .status = "ok" };
    const char *sub[] = { "2*i*n + j - 1", "2*i + 3*j - 1", "n^2", "div(n, 2)", "-i",
                          "2*i + 3*j - 1", "?\"a+b\"" };
    if (db_begin_tu(d, &t, &tu, err, sizeof err))
        goto out;
    /* a second begin while one is open is refused, the first stays usable */
    CHECK_INT(db_begin_tu(d, &t, NULL, err, sizeof err), -1);
    if (db_add_function(d, tu, &(db_function_row){ .name = "kernel_new", .file = t.path,
                                                    .line = 3, .col = 6 }, &f, err, sizeof err) ||
        db_add_loop(d, f, &(db_loop_row){ .file = t.path, .line = 4, .col = 3, .end_line = 5,
                                          .kind = "for", .canonical = 1, .iv = "i",
                                          .lower = "0", .upper = "n", .step = 1, .trip = "n",
                                          .pragmas = "[]" }, &l, err, sizeof err) ||
        db_add_stmt(d, l, &(db_stmt_row){ .line = 5, .col = 5, .text = "x[...] = 0;" }, &s,
                    err, sizeof err) ||
        db_add_access(d, s, &(db_access_row){ .array = "x", .elem_size = 8, .is_write = 1,
                                              .ndims = 7, .index = sub }, NULL, err, sizeof err))
        goto out;
    if (tu_out)
        *tu_out = tu;
    if (commit)
        r = db_commit_tu(d, err, sizeof err);
    else {
        db_rollback_tu(d);
        r = 0;
    }
out:
    if (r)
        db_rollback_tu(d);
    db_close(d);
    return r;
}

static void test_rewrite(void)
{
    long long old_tu = q("SELECT id FROM translation_units WHERE path = '/src/gemm.c'");
    int64_t tu = 0;

    /* rollback: nothing changes */
    CHECK_INT(rewrite(0, &tu), 0);
    CHECK_INT(q("SELECT id FROM translation_units WHERE path = '/src/gemm.c'"), old_tu);
    CHECK_STR(qs("SELECT hash FROM translation_units WHERE path = '/src/gemm.c'"), "00ff");
    CHECK_INT(q("SELECT count(*) FROM loops"), 7);
    CHECK_INT(q("SELECT count(*) FROM expressions"), 17);
    CHECK_INT(q("SELECT count(*) FROM functions WHERE name = 'kernel_new'"), 0);

    /* commit: gemm's old rows are gone, stencil's stay */
    CHECK_INT(rewrite(1, &tu), 0);
    CHECK(tu != old_tu);
    CHECK_INT(q("SELECT count(*) FROM translation_units"), 2);
    CHECK_INT(q("SELECT count(*) FROM translation_units WHERE path = '/src/gemm.c'"), 1);
    CHECK_STR(qs("SELECT hash FROM translation_units WHERE path = '/src/gemm.c'"), "beef");
    CHECK_INT(q("SELECT count(*) FROM functions"), 2);
    CHECK_INT(q("SELECT count(*) FROM loops"), 3);
    CHECK_INT(q("SELECT count(*) FROM statements"), 2);
    CHECK_INT(q("SELECT count(*) FROM accesses"), 5);
    CHECK_INT(q("SELECT count(*) FROM access_subscripts"), 4 + 7);
    CHECK_INT(q("SELECT count(*) FROM access_extents"), 4);
    CHECK_INT(q("SELECT count(*) FROM scalars"), 0);
    /* 0 n + six distinct subscripts (one repeated) + stencil's 9 */
    CHECK_INT(q("SELECT count(*) FROM expressions"), 9 + 2 + 6);
    CHECK_INT(q("SELECT affine FROM expressions WHERE text = '2*i*n + j - 1'"), 0);
    CHECK_INT(q("SELECT affine FROM expressions WHERE text = '2*i + 3*j - 1'"), 1);
    CHECK_INT(q("SELECT affine FROM expressions WHERE text = 'n^2'"), 0);
    CHECK_INT(q("SELECT affine FROM expressions WHERE text = 'div(n, 2)'"), 0);
    CHECK_INT(q("SELECT affine FROM expressions WHERE text = '-i'"), 1);
    CHECK_INT(q("SELECT affine FROM expressions WHERE text = '?\"a+b\"'"), 0);
    CHECK_INT(q("SELECT count(*) FROM access_subscripts s JOIN access_subscripts t"
                " ON s.access_id = t.access_id AND s.dim = 1 AND t.dim = 5"
                " AND s.expr_id = t.expr_id"), 1);
    CHECK_INT(q("SELECT count(*) FROM loop_summary WHERE function = 'kernel_new'"), 1);

    /* writing the same TU again leaves exactly the same counts */
    CHECK_INT(rewrite(1, NULL), 0);
    CHECK_INT(q("SELECT count(*) FROM translation_units"), 2);
    CHECK_INT(q("SELECT count(*) FROM loops"), 3);
    CHECK_INT(q("SELECT count(*) FROM expressions"), 17);

    /* errors: adding outside a TU, facts for a missing loop */
    db *d;
    CHECK_INT(db_open(dbpath, DB_WRITE, &d, err, sizeof err), 0);
    CHECK_INT(db_add_function(d, 1, &(db_function_row){ .name = "f" }, NULL, err, sizeof err), -1);
    char want[512];
    snprintf(want, sizeof want, "%s: add function: no translation unit open (db_begin_tu)", dbpath);
    CHECK_STR(err, want);
    CHECK_INT(db_set_loop_facts(d, 424242, &(db_loop_facts){ .coalescing = "x" }, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: set loop facts: no loop 424242", dbpath);
    CHECK_STR(err, want);
    /* a loop of a function that does not exist violates the foreign key */
    CHECK_INT(db_begin_tu(d, &(db_tu_row){ .path = "/src/bad.c" }, &tu, err, sizeof err), 0);
    CHECK_INT(db_add_loop(d, 777777, &(db_loop_row){ .line = 1 }, NULL, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: insert loop: FOREIGN KEY constraint failed", dbpath);
    CHECK_STR(err, want);
    db_rollback_tu(d);
    db_close(d);
    CHECK_INT(q("SELECT count(*) FROM translation_units"), 2);
}

int main(void)
{
    char dir[] = "/tmp/keel-db-rt-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(dbpath, sizeof dbpath, "%s/rt.db", dir);
    CHECK_INT(sample_write(dbpath, "/src", err, sizeof err), 0);
    if (check_failed)
        fprintf(stderr, "%s\n", err);
    test_read();
    test_sql();
    test_rewrite();
    /* writing the sample again over the modified database restores it */
    CHECK_INT(sample_write(dbpath, "/src", err, sizeof err), 0);
    test_sql();
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
    return check_summary();
}
