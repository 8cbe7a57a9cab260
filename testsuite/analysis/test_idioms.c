/*
 * test_idioms.c -- idioms, classes and counts on loop IR built by hand.
 *
 * Every case builds a small ir_tu with ir_add_* calls (subscripts parsed
 * from ipda's text form, `load.C(i)` for an indirect index) and checks the
 * exact idiom list of each loop, and for some nests the class string, its
 * parameters and the symbolic counts.  Expected values were worked out by
 * hand from the definitions in analysis/idioms.c, species.c and counts.c.
 * Each idiom is tested positively and against its near misses.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "check.h"
#include "counts.h"
#include "idioms.h"
#include "ir.h"
#include "species.h"

static kx_expr *P(const char *t)
{
    char err[128];
    kx_expr *e = kx_parse(t, err, sizeof err);
    if (!e)
        fprintf(stderr, "parse %s: %s\n", t, err);
    return e;
}

/* A for loop `for (iv = lo; iv < hi; iv++)` at line `line`. */
static int loop(ir_tu *tu, int parent, const char *iv, const char *lo, const char *hi,
                int line, int end_line)
{
    int l = ir_add_loop(tu, 0, parent, IR_FOR, "t.c", line, 1);
    ir_set_bounds(&tu->loops[l], iv, P(lo), P(hi), 1);
    tu->loops[l].end_line = end_line;
    tu->loops[l].depth = parent < 0 ? 0 : tu->loops[parent].depth + 1;
    return l;
}

static ir_stmt *stmt(ir_tu *tu, int l, int line, const char *text)
{
    int s = ir_add_stmt(&tu->loops[l], line, 1, text, 0);
    return &tu->loops[l].stmts[s];
}

/* An access: W/R, array, subscripts as text (NULL-terminated). */
static void acc(ir_stmt *s, int is_write, const char *array, ...)
{
    kx_expr **idx = calloc(8, sizeof *idx);
    int n = 0;
    va_list ap;
    va_start(ap, array);
    for (const char *t; (t = va_arg(ap, const char *)) != NULL && n < 8;)
        idx[n++] = P(t);
    va_end(ap);
    ir_add_access(s, array, 8, is_write, n, idx, 0, NULL, s->line, 1);
}

static ir_tu *new_tu(void)
{
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    return tu;
}

/* The idiom list of loop l. */
static char *idioms_of(const ir_tu *tu, int l)
{
    idiom_result r;
    char err[64];
    if (idiom_analyze(tu, &r, err, sizeof err))
        return NULL;
    char *s = idiom_loop_list(&r, l);
    idiom_result_free(&r);
    return s;
}

#define CHECK_IDIOMS(tu, l, want) \
    do { char *got_ = idioms_of(tu, l); CHECK_STR(got_, want); free(got_); } while (0)

static void test_stream_transpose(void)
{
    /* for i: A[i] = A[i] + B[i]  -> stream */
    ir_tu *tu = new_tu();
    int i = loop(tu, -1, "i", "0", "n", 1, 2);
    ir_stmt *s = stmt(tu, i, 2, "A[i] = A[i] + B[i]");
    acc(s, 0, "A", "i", NULL);
    acc(s, 0, "B", "i", NULL);
    acc(s, 1, "A", "i", NULL);
    s->ops.fadd = 1;
    CHECK_IDIOMS(tu, i, "stream");
    ir_tu_free(tu);

    /* A[i][j] = B[i][j] is a stream, not a transpose */
    tu = new_tu();
    i = loop(tu, -1, "i", "0", "n", 1, 3);
    int j = loop(tu, i, "j", "0", "n", 2, 3);
    s = stmt(tu, j, 3, "A[i][j] = B[i][j]");
    acc(s, 1, "A", "i", "j", NULL);
    acc(s, 0, "B", "i", "j", NULL);
    CHECK_IDIOMS(tu, j, "stream");
    CHECK_IDIOMS(tu, i, "");
    ir_tu_free(tu);

    /* A[i][j] = B[j][i] is a transpose (and so not a stream) */
    tu = new_tu();
    i = loop(tu, -1, "i", "0", "n", 1, 3);
    j = loop(tu, i, "j", "0", "n", 2, 3);
    s = stmt(tu, j, 3, "A[i][j] = B[j][i]");
    acc(s, 1, "A", "i", "j", NULL);
    acc(s, 0, "B", "j", "i", NULL);
    CHECK_IDIOMS(tu, j, "transpose");
    ir_tu_free(tu);

    /* A[i][i] = sqrt(A[i][i]): the same tuple is no transpose */
    tu = new_tu();
    i = loop(tu, -1, "i", "0", "n", 1, 2);
    s = stmt(tu, i, 2, "A[i][i] = sqrt(A[i][i])");
    acc(s, 0, "A", "i", "i", NULL);
    acc(s, 1, "A", "i", "i", NULL);
    CHECK_IDIOMS(tu, i, "stream");
    ir_tu_free(tu);
}

static void test_gather_scatter_histogram(void)
{
    /* A[i] = B[C[i]] -> gather */
    ir_tu *tu = new_tu();
    int i = loop(tu, -1, "i", "0", "n", 1, 2);
    ir_stmt *s = stmt(tu, i, 2, "A[i] = B[C[i]]");
    acc(s, 1, "A", "i", NULL);
    acc(s, 0, "B", "load.C(i)", NULL);
    acc(s, 0, "C", "i", NULL);
    CHECK_IDIOMS(tu, i, "gather");
    ir_tu_free(tu);

    /* A[C[i]] = B[i] -> scatter, not gather */
    tu = new_tu();
    i = loop(tu, -1, "i", "0", "n", 1, 2);
    s = stmt(tu, i, 2, "A[C[i]] = B[i]");
    acc(s, 1, "A", "load.C(i)", NULL);
    acc(s, 0, "C", "i", NULL);
    acc(s, 0, "B", "i", NULL);
    CHECK_IDIOMS(tu, i, "scatter");
    ir_tu_free(tu);

    /* h[C[i]] += x -> histogram, not scatter */
    tu = new_tu();
    i = loop(tu, -1, "i", "0", "n", 1, 2);
    s = stmt(tu, i, 2, "h[C[i]] += x");
    acc(s, 0, "h", "load.C(i)", NULL);
    acc(s, 1, "h", "load.C(i)", NULL);
    acc(s, 0, "C", "i", NULL);
    ir_add_scalar(s, "x", 0, 2, 1);
    s->ops.fadd = 1;
    CHECK_IDIOMS(tu, i, "histogram");
    ir_tu_free(tu);
}

static void test_reduction_stencil(void)
{
    /* s += A[i]*B[i]: a reduction (dot), not a matvec */
    ir_tu *tu = new_tu();
    int i = loop(tu, -1, "i", "0", "n", 1, 2);
    ir_stmt *s = stmt(tu, i, 2, "s += A[i]*B[i]");
    acc(s, 0, "A", "i", NULL);
    acc(s, 0, "B", "i", NULL);
    ir_add_scalar(s, "s", 0, 2, 1);
    ir_add_scalar(s, "s", 1, 2, 1);
    s->ops.fadd = 1;
    s->ops.fmul = 1;
    CHECK_IDIOMS(tu, i, "reduction");
    species_class c;
    CHECK_INT(species_classify(tu, i, &c), 0);
    CHECK_STR(c.text, "0:n-1|element ^ 0:n-1|element -> 1|shared");
    CHECK_STR(c.w, "n");
    CHECK_STR(c.m, "1");
    species_class_free(&c);
    ir_tu_free(tu);

    /* for j: for i: mean[j] += data[i][j] -> reduction of the i loop */
    tu = new_tu();
    int j = loop(tu, -1, "j", "0", "m", 1, 3);
    i = loop(tu, j, "i", "0", "n", 2, 3);
    s = stmt(tu, i, 3, "mean[j] += data[i][j]");
    acc(s, 0, "mean", "j", NULL);
    acc(s, 1, "mean", "j", NULL);
    acc(s, 0, "data", "i", "j", NULL);
    s->ops.fadd = 1;
    CHECK_IDIOMS(tu, i, "reduction");
    CHECK_IDIOMS(tu, j, "");
    ir_tu_free(tu);

    /* A[i] = A[i-1] + x: a recurrence, so a stream and not a stencil */
    tu = new_tu();
    i = loop(tu, -1, "i", "1", "n", 1, 2);
    s = stmt(tu, i, 2, "A[i] = A[i-1] + x");
    acc(s, 1, "A", "i", NULL);
    acc(s, 0, "A", "i - 1", NULL);
    s->ops.fadd = 1;
    CHECK_IDIOMS(tu, i, "stream");
    ir_tu_free(tu);

    /* A[i] = A[i-1] + A[i]: two tuples, but the only offset one is
     * written by the previous iteration -> still a recurrence */
    tu = new_tu();
    i = loop(tu, -1, "i", "1", "n", 1, 2);
    s = stmt(tu, i, 2, "A[i] = A[i-1] + A[i]");
    acc(s, 1, "A", "i", NULL);
    acc(s, 0, "A", "i - 1", NULL);
    acc(s, 0, "A", "i", NULL);
    CHECK_IDIOMS(tu, i, "stream");
    ir_tu_free(tu);

    /* B[i] = A[i-1] + A[i] + A[i+1] -> stencil of radius 1 */
    tu = new_tu();
    i = loop(tu, -1, "i", "1", "n - 1", 1, 2);
    s = stmt(tu, i, 2, "B[i] = A[i-1] + A[i] + A[i+1]");
    acc(s, 1, "B", "i", NULL);
    acc(s, 0, "A", "i - 1", NULL);
    acc(s, 0, "A", "i", NULL);
    acc(s, 0, "A", "i + 1", NULL);
    s->ops.fadd = 2;
    CHECK_IDIOMS(tu, i, "stencil");
    idiom_result r;
    char err[64];
    CHECK_INT(idiom_analyze(tu, &r, err, sizeof err), 0);
    CHECK_INT(r.n, 1);
    CHECK_INT(r.v[0].ndims, 1);
    CHECK_INT(r.v[0].radius[0], 1);
    CHECK_STR(r.v[0].evidence, "W B[i]; R A at offsets (-1) (0) (1); radius 1");
    idiom_result_free(&r);
    CHECK_INT(species_classify(tu, i, &c), 0);
    CHECK_STR(c.text, "0:n-1|neighbourhood(3) -> 1:n-2|element");
    CHECK_STR(c.w, "n - 2");
    species_class_free(&c);
    ir_tu_free(tu);

    /* in place, A[i] = A[i-1] + A[i+1]: the i+1 read is not written yet,
     * so it is a (Gauss-Seidel) stencil */
    tu = new_tu();
    i = loop(tu, -1, "i", "1", "n - 1", 1, 2);
    s = stmt(tu, i, 2, "A[i] = A[i-1] + A[i+1]");
    acc(s, 1, "A", "i", NULL);
    acc(s, 0, "A", "i - 1", NULL);
    acc(s, 0, "A", "i + 1", NULL);
    CHECK_IDIOMS(tu, i, "stencil");
    ir_tu_free(tu);
}

/* C += A*B in the given loop order; flat: one-dimensional subscripts. */
static void matmul_case(const char *o0, const char *o1, const char *o2, int flat)
{
    ir_tu *tu = new_tu();
    int a = loop(tu, -1, o0, "0", "n", 1, 4);
    int b = loop(tu, a, o1, "0", "n", 2, 4);
    int c = loop(tu, b, o2, "0", "n", 3, 4);
    ir_stmt *s = stmt(tu, c, 4, "C[i][j] += A[i][k] * B[k][j]");
    if (flat) {
        acc(s, 0, "C", "i*n + j", NULL);
        acc(s, 1, "C", "i*n + j", NULL);
        acc(s, 0, "A", "i*n + k", NULL);
        acc(s, 0, "B", "k*n + j", NULL);
    } else {
        acc(s, 0, "C", "i", "j", NULL);
        acc(s, 1, "C", "i", "j", NULL);
        acc(s, 0, "A", "i", "k", NULL);
        acc(s, 0, "B", "k", "j", NULL);
    }
    s->ops.fadd = 1;
    s->ops.fmul = 1;
    int lk = o0[0] == 'k' ? a : o1[0] == 'k' ? b : c;
    CHECK_IDIOMS(tu, lk, "matmul,reduction");
    /* the innermost loop streams C unless it is the k loop */
    CHECK_IDIOMS(tu, c, c == lk ? "matmul,reduction" : "stream");
    char *nest = NULL;
    idiom_result r;
    char err[64];
    if (idiom_analyze(tu, &r, err, sizeof err) == 0) {
        nest = idiom_nest_list(tu, &r, a);
        idiom_result_free(&r);
    }
    CHECK_STR(nest, c == lk ? "matmul,reduction" : "matmul,reduction,stream");
    free(nest);
    ir_tu_free(tu);
}

static void test_matmul_matvec(void)
{
    matmul_case("i", "j", "k", 0);
    matmul_case("i", "k", "j", 0);
    matmul_case("k", "j", "i", 0);
    matmul_case("i", "j", "k", 1);
    matmul_case("i", "k", "j", 1);

    /* temporary accumulator: for i: for j: { s = 0; for k: s += A[i][k]*B[k][j];
     * C[i][j] = s; } */
    ir_tu *tu = new_tu();
    int i = loop(tu, -1, "i", "0", "n", 1, 7);
    int j = loop(tu, i, "j", "0", "n", 2, 7);
    ir_stmt *s = stmt(tu, j, 3, "s = 0");
    ir_add_scalar(s, "s", 1, 3, 1);
    int k = loop(tu, j, "k", "0", "n", 4, 5);
    s = stmt(tu, k, 5, "s += A[i][k] * B[k][j]");
    acc(s, 0, "A", "i", "k", NULL);
    acc(s, 0, "B", "k", "j", NULL);
    ir_add_scalar(s, "s", 0, 5, 1);
    ir_add_scalar(s, "s", 1, 5, 1);
    s->ops.fadd = 1;
    s->ops.fmul = 1;
    s = stmt(tu, j, 6, "C[i][j] = s");
    acc(s, 1, "C", "i", "j", NULL);
    ir_add_scalar(s, "s", 0, 6, 1);
    CHECK_IDIOMS(tu, k, "matmul,reduction");
    CHECK_IDIOMS(tu, j, "stream");
    CHECK_IDIOMS(tu, i, "");
    ir_tu_free(tu);

    /* y[i] += A[i][j] * x[j] -> matvec of the j loop */
    tu = new_tu();
    i = loop(tu, -1, "i", "0", "n", 1, 3);
    j = loop(tu, i, "j", "0", "m", 2, 3);
    s = stmt(tu, j, 3, "y[i] += A[i][j] * x[j]");
    acc(s, 0, "y", "i", NULL);
    acc(s, 1, "y", "i", NULL);
    acc(s, 0, "A", "i", "j", NULL);
    acc(s, 0, "x", "j", NULL);
    s->ops.fadd = 1;
    s->ops.fmul = 1;
    CHECK_IDIOMS(tu, j, "matvec,reduction");
    species_class c;
    CHECK_INT(species_classify(tu, i, &c), 0);
    CHECK_STR(c.text, "0:n-1,0:m-1|chunk(-,0:m-1) ^ 0:m-1|full -> 0:n-1|element");
    CHECK_STR(c.w, "n");
    CHECK_STR(c.m, "m");
    species_class_free(&c);
    ir_tu_free(tu);
}

static void test_gemm_class_and_counts(void)
{
    ir_tu *tu = new_tu();
    int i = loop(tu, -1, "i", "0", "n", 1, 4);
    int j = loop(tu, i, "j", "0", "n", 2, 4);
    int k = loop(tu, j, "k", "0", "n", 3, 4);
    ir_stmt *s = stmt(tu, k, 4, "C[i][j] += A[i][k] * B[k][j]");
    acc(s, 0, "C", "i", "j", NULL);
    acc(s, 1, "C", "i", "j", NULL);
    acc(s, 0, "A", "i", "k", NULL);
    acc(s, 0, "B", "k", "j", NULL);
    s->ops.fadd = 1;
    s->ops.fmul = 1;
    s->ops.ffma = 1;
    species_class c;
    CHECK_INT(species_classify(tu, i, &c), 0);
    CHECK_STR(c.text, "0:n-1,0:n-1|chunk(-,0:n-1) ^ 0:n-1,0:n-1|chunk(0:n-1,-) -> "
                      "0:n-1,0:n-1|element");
    CHECK_STR(c.w, "n^2");
    CHECK_STR(c.m, "n");
    CHECK_STR(c.d, "32*n^2");   /* A, B 8n^2 each; C read and written */
    CHECK_STR(c.c, "32*n^2");
    CHECK_STR(c.u, "0");
    CHECK_STR(c.f_complexity, "2");
    species_class_free(&c);

    counts_loop t;
    CHECK_INT(counts_loop_compute(tu, i, 1, &t), 0);
    char *f = counts_q_print(&t.v[CNT_FLOPS]);
    char *ld = counts_q_print(&t.v[CNT_LOADS]);
    char *br = counts_q_print(&t.v[CNT_BYTES_READ]);
    char *in = counts_intensity(&t);
    CHECK_STR(f, "2*n^3");
    CHECK_STR(ld, "3*n^3");
    CHECK_STR(br, "24*n^3");
    CHECK_STR(in, "(2*n^3) / (32*n^3)");
    CHECK_INT(t.narrays, 3);
    free(f);
    free(ld);
    free(br);
    free(in);
    counts_loop_free(&t);
    ir_tu_free(tu);
}

/* Eight loops, each bounded by the one outside it: one iteration of the
 * outer loop has degree 7 in i, above the forward-difference sum's 6, so
 * its total is body x trip and says why; the inner totals stay exact. */
static void test_counts_degree_reason(void)
{
    ir_tu *tu = new_tu();
    const char *v[] = { "i", "a", "b", "c", "d", "e", "f", "g" };
    int l[8];
    l[0] = loop(tu, -1, "i", "0", "n", 1, 9);
    for (int k = 1; k < 8; k++)
        l[k] = loop(tu, l[k - 1], v[k], "0", v[k - 1], 1 + k, 9);
    ir_stmt *s = stmt(tu, l[7], 9, "x[g] += 1.0");
    s->ops.fadd = 1;
    counts_loop t;
    CHECK_INT(counts_loop_compute(tu, l[0], 1, &t), 0);
    CHECK_STR(t.reason, "line 1: body of degree 7 in i (above 6): count is body x trip, i left in"
                       " place");
    char *f = counts_q_print(&t.v[CNT_FLOPS]);
    /* the bound: one iteration's count (i left in place) times n */
    CHECK_STR(f, "div(24883200*i^7*n - 522547200*i^6*n + 4354560000*i^5*n - 18289152000*i^4*n"
                 " + 40410316800*i^3*n - 43893964800*i^2*n + 17915904000*i*n, 125411328000)");
    free(f);
    counts_loop_free(&t);
    /* one level in: degree 6, summed exactly, no reason */
    CHECK_INT(counts_loop_compute(tu, l[1], 1, &t), 0);
    CHECK_STR(t.reason, "");
    counts_loop_free(&t);
    ir_tu_free(tu);
    /* a while loop (no bounds) says so too */
    tu = new_tu();
    int w = ir_add_loop(tu, 0, -1, IR_WHILE, "t.c", 4, 1);
    tu->loops[w].end_line = 5;
    s = stmt(tu, w, 5, "x[0] += 1.0");
    s->ops.fadd = 1;
    CHECK_INT(counts_loop_compute(tu, w, 1, &t), 0);
    CHECK_STR(t.reason, "line 4: trip count unknown: counts use trip@4");
    counts_loop_free(&t);
    ir_tu_free(tu);
}

static void test_triangular_counts(void)
{
    /* for i < n: for j < i + 1: one fadd  ->  n(n+1)/2 */
    ir_tu *tu = new_tu();
    int i = loop(tu, -1, "i", "0", "n", 1, 3);
    int j = loop(tu, i, "j", "0", "i + 1", 2, 3);
    ir_stmt *s = stmt(tu, j, 3, "x[j] += 1.0");
    s->ops.fadd = 1;
    counts_loop t;
    CHECK_INT(counts_loop_compute(tu, i, 1, &t), 0);
    char *f = counts_q_print(&t.v[CNT_FLOPS]);
    CHECK_STR(f, "div(n^2 + n, 2)");
    free(f);
    counts_loop_free(&t);
    /* one iteration of the i loop: i + 1 */
    CHECK_INT(counts_loop_compute(tu, i, 0, &t), 0);
    f = counts_q_print(&t.v[CNT_FLOPS]);
    CHECK_STR(f, "i + 1");
    free(f);
    counts_loop_free(&t);
    ir_tu_free(tu);

    /* for i < n: for j < i: for k < j: one fmul  ->  n(n-1)(n-2)/6 */
    tu = new_tu();
    i = loop(tu, -1, "i", "0", "n", 1, 4);
    j = loop(tu, i, "j", "0", "i", 2, 4);
    int k = loop(tu, j, "k", "0", "j", 3, 4);
    s = stmt(tu, k, 4, "A[i][j] -= A[i][k] * A[k][j]");
    s->ops.fmul = 1;
    CHECK_INT(counts_loop_compute(tu, i, 1, &t), 0);
    f = counts_q_print(&t.v[CNT_FMUL]);
    CHECK_STR(f, "div(2*n^3 - 6*n^2 + 4*n, 12)");
    free(f);
    counts_loop_free(&t);
    ir_tu_free(tu);
}

/* An access with nd subscripts given as an array of texts. */
static void accn(ir_stmt *s, int is_write, const char *array, int nd, const char *const *sub)
{
    kx_expr **idx = calloc((size_t)nd, sizeof *idx);
    for (int d = 0; d < nd; d++)
        idx[d] = P(sub[d]);
    ir_add_access(s, array, 8, is_write, nd, idx, 0, NULL, s->line, 1);
}

/* idioms.c holds no fixed limits (issue 11 item 5): each case below was cut
 * before (64 reads per statement, 32 stencil offsets, 8 dimensions, 64
 * enclosing loops, 256-byte access texts, 1024-byte evidence) and is now
 * found whole. */
static void test_no_caps(void)
{
    idiom_result r;
    char err[64], sub[64];

    /* B[i] = x0[i] + ... + x69[i] + A[i-1] + A[i+1]: the stencil reads come
     * after 70 others (cut at 64: a stream) */
    ir_tu *tu = new_tu();
    int i = loop(tu, -1, "i", "1", "n - 1", 1, 2);
    ir_stmt *s = stmt(tu, i, 2, "B[i] = x0[i] + ... + A[i-1] + A[i+1]");
    acc(s, 1, "B", "i", NULL);
    for (int k = 0; k < 70; k++) {
        char name[16];
        snprintf(name, sizeof name, "x%d", k);
        acc(s, 0, name, "i", NULL);
    }
    acc(s, 0, "A", "i - 1", NULL);
    acc(s, 0, "A", "i + 1", NULL);
    CHECK_IDIOMS(tu, i, "stencil");
    ir_tu_free(tu);

    /* B[i] = A[i-20] + ... + A[i+19]: 40 offsets, all in the evidence */
    tu = new_tu();
    i = loop(tu, -1, "i", "20", "n - 20", 1, 2);
    s = stmt(tu, i, 2, "B[i] = A[i-20] + ... + A[i+19]");
    acc(s, 1, "B", "i", NULL);
    char want[1024] = "W B[i]; R A at offsets";
    for (int k = -20; k < 20; k++) {
        snprintf(sub, sizeof sub, k < 0 ? "i - %d" : "i + %d", k < 0 ? -k : k);
        acc(s, 0, "A", sub, NULL);
        snprintf(want + strlen(want), sizeof want - strlen(want), " (%d)", k);
    }
    strcat(want, "; radius 20");
    CHECK_INT(idiom_analyze(tu, &r, err, sizeof err), 0);
    CHECK_INT(r.n, 1);
    CHECK_INT(r.v[0].kind, IDIOM_STENCIL);
    CHECK_STR(r.v[0].evidence, want);
    CHECK_INT(r.v[0].radius[0], 20);
    idiom_result_free(&r);
    ir_tu_free(tu);

    /* a 10-dimensional stencil (more than 8 dimensions: was a stream) */
    tu = new_tu();
    const char *w10[10], *r10[10];
    char ivs[10][4], rsub[10][16];
    int parent = -1;
    for (int d = 0; d < 10; d++) {
        snprintf(ivs[d], sizeof ivs[d], "i%d", d);
        snprintf(rsub[d], sizeof rsub[d], d == 9 ? "i%d + 1" : "i%d", d);
        w10[d] = ivs[d];
        r10[d] = rsub[d];
        parent = loop(tu, parent, ivs[d], "1", "n - 1", 1 + d, 30);
    }
    s = stmt(tu, parent, 11, "B[i0]...[i9] = A[i0]...[i9] + A[i0]...[i9 + 1]");
    accn(s, 1, "B", 10, w10);
    accn(s, 0, "A", 10, w10);
    accn(s, 0, "A", 10, r10);
    CHECK_INT(idiom_analyze(tu, &r, err, sizeof err), 0);
    CHECK_INT(r.n, 1);
    CHECK_INT(r.v[0].kind, IDIOM_STENCIL);
    CHECK_INT(r.v[0].ndims, 10);
    CHECK_INT(r.v[0].radius[9], 1);
    CHECK_STR(r.v[0].evidence, "W B[i0][i1][i2][i3][i4][i5][i6][i7][i8][i9]; R A at offsets "
              "(0,0,0,0,0,0,0,0,0,0) (0,0,0,0,0,0,0,0,0,1); radius 0,0,0,0,0,0,0,0,0,1");
    idiom_result_free(&r);
    ir_tu_free(tu);

    /* 70 nested loops, s[0] += x[i0] in the innermost: the reducing loop is
     * the outermost, 69 loops out (cut at 64: no reduction) */
    tu = new_tu();
    parent = -1;
    int outer = -1;
    for (int d = 0; d < 70; d++) {
        char iv[8];
        snprintf(iv, sizeof iv, "i%d", d);
        parent = loop(tu, parent, iv, "0", "n", 1 + d, 100);
        if (d == 0)
            outer = parent;
    }
    s = stmt(tu, parent, 71, "s[0] += x[i0]");
    acc(s, 1, "s", "0", NULL);
    acc(s, 0, "s", "0", NULL);
    acc(s, 0, "x", "i0", NULL);
    CHECK_IDIOMS(tu, outer, "reduction");
    ir_tu_free(tu);

    /* an array name of 1,100 characters: the evidence is not cut */
    tu = new_tu();
    i = loop(tu, -1, "i", "0", "n", 1, 2);
    char *name = malloc(1101);
    memset(name, 'a', 1100);
    name[1100] = '\0';
    s = stmt(tu, i, 2, "aaa...[i] = 0");
    acc(s, 1, name, "i", NULL);
    CHECK_INT(idiom_analyze(tu, &r, err, sizeof err), 0);
    CHECK_INT(r.n, 1);
    CHECK_INT(r.v[0].kind, IDIOM_STREAM);
    CHECK_INT(strlen(r.v[0].evidence), 2 + 1100 + 3);
    CHECK(strncmp(r.v[0].evidence, "W aaaa", 6) == 0);
    CHECK(strcmp(r.v[0].evidence + 2 + 1100, "[i]") == 0);
    idiom_result_free(&r);
    free(name);
    ir_tu_free(tu);
}

/* Indices held in locals the body computes: indirect, whatever the front
 * end could express of them. */
static void test_local_indices(void)
{
    /* b = key[i]; if (b > m) b = m - 1; h[b] += 0.5 * h[b + 1] -> histogram */
    ir_tu *tu = new_tu();
    int i = loop(tu, -1, "i", "0", "n", 1, 5);
    ir_stmt *s = stmt(tu, i, 2, "int b = key[i];");
    acc(s, 0, "key", "i", NULL);
    ir_add_scalar(s, "b", 1, 2, 1);
    s = stmt(tu, i, 3, "b = m - 1");
    ir_add_scalar(s, "b", 1, 3, 1);
    s = stmt(tu, i, 4, "h[b] += 0.5 * h[b + 1]");
    acc(s, 0, "h", "b", NULL);
    acc(s, 1, "h", "b", NULL);
    acc(s, 0, "h", "b + 1", NULL);
    CHECK_IDIOMS(tu, i, "histogram");
    ir_tu_free(tu);

    /* u = perm[i]; y[i] = t[u] -> gather */
    tu = new_tu();
    i = loop(tu, -1, "i", "0", "n", 1, 3);
    s = stmt(tu, i, 2, "u = perm[i]");
    acc(s, 0, "perm", "i", NULL);
    ir_add_scalar(s, "u", 1, 2, 1);
    s = stmt(tu, i, 3, "y[i] = t[u]");
    acc(s, 1, "y", "i", NULL);
    acc(s, 0, "t", "u", NULL);
    CHECK_IDIOMS(tu, i, "gather");
    ir_tu_free(tu);

    /* if (a[i] > m->top) { m->top = a[i]; m->at = i; } -> reduction (a fold
     * into struct members); m->top = a[i] * 2 is no select */
    for (int k = 0; k < 2; k++) {
        tu = new_tu();
        i = loop(tu, -1, "i", "0", "n", 1, 4);
        s = stmt(tu, i, 2, "a[i] > m->top");
        acc(s, 0, "a", "i", NULL);
        acc(s, 0, "m.top", "0", NULL);
        int si = ir_add_stmt(&tu->loops[i], 3, 1, k ? "m->top = a[i] * 2" : "m->top = a[i]", 1);
        s = &tu->loops[i].stmts[si];
        acc(s, 1, "m.top", "0", NULL);
        acc(s, 0, "a", "i", NULL);
        CHECK_IDIOMS(tu, i, k ? "" : "reduction");
        ir_tu_free(tu);
    }
    /* a copy of the loop variable or a counter is no load:
     * c[j] = c[i] + 1; j = i -> no idiom (a recurrence through j) */
    tu = new_tu();
    i = loop(tu, -1, "i", "1", "n", 1, 3);
    s = stmt(tu, i, 2, "c[j] = c[i] + 1.0");
    acc(s, 1, "c", "j", NULL);
    acc(s, 0, "c", "i", NULL);
    s = stmt(tu, i, 3, "j = i");
    ir_add_scalar(s, "j", 1, 3, 1);
    ir_add_scalar(s, "i", 0, 3, 1);
    CHECK_IDIOMS(tu, i, "");
    ir_tu_free(tu);
}

int main(void)
{
    test_stream_transpose();
    test_gather_scatter_histogram();
    test_local_indices();
    test_reduction_stencil();
    test_matmul_matvec();
    test_gemm_class_and_counts();
    test_triangular_counts();
    test_counts_degree_reason();
    test_no_caps();
    return check_summary();
}
