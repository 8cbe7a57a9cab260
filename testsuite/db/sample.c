/*
 * sample.c -- a fixed sample database for the db tests and the CLI test.
 *
 * Two translation units under PREFIX: gemm.c (kernel_gemm: a 3-deep nest
 * with a sibling pair; kernel_sum: a while loop with an indirect access)
 * and util/stencil.c (jacobi: a 2-deep nest whose inner loop carries the
 * later-analysis facts).  Every value is fixed, so tests and golden files
 * can spell out exactly what they expect.
 */
#include "sample.h"

#include <stdio.h>
#include <string.h>

#define TRY(x) do { if ((x) != 0) goto fail; } while (0)

static int write_gemm(db *d, const char *prefix, char *err, size_t errlen)
{
    char path[512];
    int64_t tu, f, l1, l2, l3, l4, l5, s;
    snprintf(path, sizeof path, "%s/gemm.c", prefix);

    db_tu_row t = { .path = path, .hash = "00ff", .args = "[\"-O2\",\"-c\",\"gemm.c\"]",
                    .compiler = "clang-19", .directory = prefix, .status = "ok" };
    TRY(db_begin_tu(d, &t, &tu, err, errlen));

    db_function_row fn = { .name = "kernel_gemm", .file = path, .line = 10, .col = 6 };
    TRY(db_add_function(d, tu, &fn, &f, err, errlen));

    db_loop_row l = { .file = path, .line = 12, .col = 3, .end_line = 20, .depth = 0,
                      .kind = "for", .canonical = 1, .iv = "i", .lower = "0", .upper = "ni",
                      .step = 1, .trip = "ni", .pragmas = "[\"omp parallel for\"]" };
    TRY(db_add_loop(d, f, &l, &l1, err, errlen));

    l = (db_loop_row){ .parent_id = l1, .file = path, .line = 13, .col = 5, .end_line = 14,
                       .depth = 1, .kind = "for", .canonical = 1, .iv = "j", .lower = "0",
                       .upper = "nj", .step = 1, .trip = "nj", .pragmas = "[]" };
    TRY(db_add_loop(d, f, &l, &l2, err, errlen));

    db_stmt_row st = { .line = 14, .col = 7, .text = "C[i][j] *= beta;", .fmul = 1 };
    TRY(db_add_stmt(d, l2, &st, &s, err, errlen));
    const char *ij[] = { "i", "j" }, *ninj[] = { "ni", "nj" };
    db_access_row a = { .array = "C", .elem_size = 8, .is_write = 0, .ndims = 2, .index = ij,
                        .nextents = 2, .extent = ninj, .affine = 1, .line = 14, .col = 7 };
    TRY(db_add_access(d, s, &a, NULL, err, errlen));
    a.is_write = 1;
    TRY(db_add_access(d, s, &a, NULL, err, errlen));
    db_scalar_row sc = { .name = "beta", .is_write = 0, .line = 14, .col = 18 };
    TRY(db_add_scalar(d, s, &sc, err, errlen));

    l = (db_loop_row){ .parent_id = l1, .file = path, .line = 15, .col = 5, .end_line = 19,
                       .depth = 1, .kind = "for", .canonical = 1, .iv = "k", .lower = "0",
                       .upper = "nk", .step = 1, .trip = "nk", .pragmas = "[]" };
    TRY(db_add_loop(d, f, &l, &l3, err, errlen));
    l = (db_loop_row){ .parent_id = l3, .file = path, .line = 16, .col = 7, .end_line = 18,
                       .depth = 2, .kind = "for", .canonical = 1, .iv = "j", .lower = "0",
                       .upper = "nj", .step = 1, .trip = "nj",
                       .pragmas = "[\"omp simd\",\"GCC ivdep\"]" };
    TRY(db_add_loop(d, f, &l, &l4, err, errlen));

    st = (db_stmt_row){ .line = 17, .col = 9, .text = "C[i][j] += alpha * A[i][k] * B[k][j];",
                        .fadd = 1, .fmul = 2, .ffma = 1 };
    TRY(db_add_stmt(d, l4, &st, &s, err, errlen));
    const char *ik[] = { "i", "k" }, *kj[] = { "k", "j" }, *nink[] = { "ni", "nk" },
               *nknj[] = { "nk", "nj" };
    a = (db_access_row){ .array = "A", .elem_size = 8, .ndims = 2, .index = ik, .nextents = 2,
                         .extent = nink, .affine = 1, .line = 17, .col = 28 };
    TRY(db_add_access(d, s, &a, NULL, err, errlen));
    a = (db_access_row){ .array = "B", .elem_size = 8, .ndims = 2, .index = kj, .nextents = 2,
                         .extent = nknj, .affine = 1, .line = 17, .col = 38 };
    TRY(db_add_access(d, s, &a, NULL, err, errlen));
    a = (db_access_row){ .array = "C", .elem_size = 8, .ndims = 2, .index = ij, .nextents = 2,
                         .extent = ninj, .affine = 1, .line = 17, .col = 9 };
    TRY(db_add_access(d, s, &a, NULL, err, errlen));
    a.is_write = 1;
    TRY(db_add_access(d, s, &a, NULL, err, errlen));
    sc = (db_scalar_row){ .name = "alpha", .line = 17, .col = 20 };
    TRY(db_add_scalar(d, s, &sc, err, errlen));

    fn = (db_function_row){ .name = "kernel_sum", .file = path, .line = 30, .col = 8 };
    TRY(db_add_function(d, tu, &fn, &f, err, errlen));
    l = (db_loop_row){ .file = path, .line = 32, .col = 3, .end_line = 36, .depth = 0,
                       .kind = "while", .canonical = 0, .n_if = 1, .n_break = 1 };
    TRY(db_add_loop(d, f, &l, &l5, err, errlen));
    st = (db_stmt_row){ .line = 34, .col = 7, .text = "s += x[p[k]];", .conditional = 1,
                        .fadd = 1, .iadd = 1, .calls = "[\"abort\"]" };
    TRY(db_add_stmt(d, l5, &st, &s, err, errlen));
    const char *xp[] = { "load.p(k)" }, *pk[] = { "k" }, *unknown[] = { NULL };
    a = (db_access_row){ .array = "x", .elem_size = 4, .ndims = 1, .index = xp, .nextents = 0,
                         .affine = 0, .line = 34, .col = 12 };
    TRY(db_add_access(d, s, &a, NULL, err, errlen));
    a = (db_access_row){ .array = "p", .elem_size = 4, .ndims = 1, .index = pk, .nextents = 1,
                         .extent = unknown, .affine = 1, .line = 34, .col = 14 };
    TRY(db_add_access(d, s, &a, NULL, err, errlen));
    sc = (db_scalar_row){ .name = "s", .is_write = 1, .line = 34, .col = 7 };
    TRY(db_add_scalar(d, s, &sc, err, errlen));
    sc = (db_scalar_row){ .name = "s", .is_write = 0, .line = 34, .col = 7 };
    TRY(db_add_scalar(d, s, &sc, err, errlen));
    sc = (db_scalar_row){ .name = "k", .is_write = 0, .line = 34, .col = 16 };
    TRY(db_add_scalar(d, s, &sc, err, errlen));
    return db_commit_tu(d, err, errlen);
fail:
    db_rollback_tu(d);
    return -1;
}

static int write_stencil(db *d, const char *prefix, char *err, size_t errlen)
{
    char path[512];
    int64_t tu, f, l1, l2, s;
    snprintf(path, sizeof path, "%s/util/stencil.c", prefix);

    db_tu_row t = { .path = path, .hash = "abcd", .args = "[]", .compiler = "clang-19",
                    .directory = prefix, .status = "ok" };
    TRY(db_begin_tu(d, &t, &tu, err, errlen));
    db_function_row fn = { .name = "jacobi", .file = path, .line = 5, .col = 6 };
    TRY(db_add_function(d, tu, &fn, &f, err, errlen));
    db_loop_row l = { .file = path, .line = 7, .col = 3, .end_line = 10, .depth = 0,
                      .kind = "for", .canonical = 1, .iv = "t", .lower = "0",
                      .upper = "tsteps", .step = 1, .trip = "tsteps", .pragmas = "[]" };
    TRY(db_add_loop(d, f, &l, &l1, err, errlen));
    l = (db_loop_row){ .parent_id = l1, .file = path, .line = 8, .col = 5, .end_line = 9,
                       .depth = 1, .kind = "for", .canonical = 1, .iv = "i", .lower = "1",
                       .upper = "n - 1", .step = 1, .trip = "n - 2", .pragmas = "[]" };
    TRY(db_add_loop(d, f, &l, &l2, err, errlen));
    db_stmt_row st = { .line = 9, .col = 7, .text = "B[i] = (A[i-1] + A[i] + A[i+1]) / 3;",
                       .fadd = 2, .fdiv = 1 };
    TRY(db_add_stmt(d, l2, &st, &s, err, errlen));
    const char *idx[] = { "i - 1", "i", "i + 1" }, *ext[] = { "n" };
    for (int k = 0; k < 3; k++) {
        db_access_row a = { .array = "A", .elem_size = 8, .ndims = 1, .index = &idx[k],
                            .nextents = 1, .extent = ext, .affine = 1, .line = 9,
                            .col = 15 + 7 * k };
        TRY(db_add_access(d, s, &a, NULL, err, errlen));
    }
    db_access_row a = { .array = "B", .elem_size = 8, .is_write = 1, .ndims = 1,
                        .index = &idx[1], .nextents = 1, .extent = ext, .affine = 1,
                        .line = 9, .col = 7 };
    TRY(db_add_access(d, s, &a, NULL, err, errlen));
    TRY(db_commit_tu(d, err, errlen));
    db_loop_facts facts = { .idioms = "[\"stencil\"]", .algorithm_class = "neighbourhood",
                            .has_cycles = 1, .cycles_per_iter = 2.5 };
    return db_set_loop_facts(d, l2, &facts, err, errlen);
fail:
    db_rollback_tu(d);
    return -1;
}

int sample_write(const char *dbpath, const char *prefix, char *err, size_t errlen)
{
    db *d;
    if (db_open(dbpath, DB_WRITE, &d, err, errlen))
        return -1;
    int r = write_gemm(d, prefix, err, errlen) || write_stencil(d, prefix, err, errlen) ? -1 : 0;
    db_close(d);
    return r;
}
