/*
 * test_caps.c -- no silent caps in the algorithm classes (issue 11 item 5).
 *
 * species.c used to keep the first 256 accesses of a nest, skip arrays of
 * more than 8 dimensions, and follow at most 64 enclosing loops and 64
 * work-unit variables.  Each case here goes past one of those limits on IR
 * built by hand and checks that every access, dimension and loop counts:
 * the exact class string and the byte count d.  The dependence analysis
 * keeps its limit of 64 nested loops and says so instead of analysing a
 * part of a chain.
 */
#include <stdlib.h>

#include "check.h"
#include "ir.h"
#include "parallel.h"
#include "species.h"
#include "util.h"

static kx_expr *P(const char *t)
{
    char err[128];
    kx_expr *e = kx_parse(t, err, sizeof err);
    if (!e)
        fprintf(stderr, "parse %s: %s\n", t, err);
    return e;
}

static int loop(ir_tu *tu, int parent, const char *iv, const char *hi, int line)
{
    int l = ir_add_loop(tu, 0, parent, IR_FOR, "t.c", line, 1);
    ir_set_bounds(&tu->loops[l], iv, P("0"), P(hi), 1);
    tu->loops[l].end_line = line + 1;
    tu->loops[l].depth = parent < 0 ? 0 : tu->loops[parent].depth + 1;
    return l;
}

/* One access with nsub subscripts, all parsed from the same text except
 * the first. */
static void acc(ir_stmt *s, int is_write, const char *array, const char *first, int nsub,
                const char *rest)
{
    kx_expr **idx = calloc((size_t)nsub, sizeof *idx);
    idx[0] = P(first);
    for (int d = 1; d < nsub; d++)
        idx[d] = P(rest);
    ir_add_access(s, array, 8, is_write, nsub, idx, 0, NULL, s->line, 1);
}

static ir_tu *new_tu(void)
{
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    return tu;
}

/* out[i] = a0[i] + ... + a299[i]: 301 accesses, all counted. */
static void test_300_accesses(void)
{
    ir_tu *tu = new_tu();
    int i = loop(tu, -1, "i", "n", 1);
    int s = ir_add_stmt(&tu->loops[i], 2, 1, "out[i] = a0[i] + ...", 0);
    ir_stmt *st = &tu->loops[i].stmts[s];
    acc(st, 1, "out", "i", 1, NULL);
    ku_buf want = {0};
    for (int k = 0; k < 300; k++) {
        char name[16];
        snprintf(name, sizeof name, "a%d", k);
        acc(st, 0, name, "i", 1, NULL);
        ku_buf_put(&want, k ? " ^ 0:n-1|element" : "0:n-1|element");
    }
    ku_buf_put(&want, " -> 0:n-1|element");
    CHECK_INT(st->nacc, 301);
    species_class c;
    CHECK_INT(species_classify(tu, i, &c), 0);
    CHECK_STR(c.text, want.s);
    CHECK_STR(c.d, "2408*n");        /* (300 inputs + 1 output) * 8 bytes * n */
    CHECK_STR(c.w, "n");
    species_class_free(&c);
    ku_buf_free(&want);
    ir_tu_free(tu);
}

/* B[i] = A[i][0]...[0] with 10 subscripts: the input is not skipped. */
static void test_10_dimensions(void)
{
    ir_tu *tu = new_tu();
    int i = loop(tu, -1, "i", "n", 1);
    int s = ir_add_stmt(&tu->loops[i], 2, 1, "B[i] = A[i][0][0][0][0][0][0][0][0][1]", 0);
    ir_stmt *st = &tu->loops[i].stmts[s];
    acc(st, 1, "B", "i", 1, NULL);
    acc(st, 0, "A", "i", 10, "1");
    species_class c;
    CHECK_INT(species_classify(tu, i, &c), 0);
    CHECK_STR(c.text, "0:n-1,1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1,1:1|element -> 0:n-1|element");
    CHECK_STR(c.d, "16*n");
    species_class_free(&c);
    ir_tu_free(tu);
}

/* 70 nested loops i0..i69, innermost: A[i0+...+i69] = 0.  Every loop
 * variable is a work-unit variable and every bound is substituted. */
static void test_70_deep(void)
{
    ir_tu *tu = new_tu();
    int l = -1;
    ku_buf sub = {0};
    for (int k = 0; k < 70; k++) {
        char iv[8];
        snprintf(iv, sizeof iv, "i%d", k);
        l = loop(tu, l, iv, "n", k + 1);
        ku_buf_printf(&sub, "%s%s", k ? "+" : "", iv);
    }
    int s = ir_add_stmt(&tu->loops[l], 80, 1, "A[i0+...+i69] = 0", 0);
    acc(&tu->loops[l].stmts[s], 1, "A", sub.s, 1, NULL);
    species_class c;
    CHECK_INT(species_classify(tu, 0, &c), 0);
    CHECK_STR(c.text, "-> 0:70*n-70|element");
    CHECK_STR(c.m, "1");
    CHECK_STR(c.d, "560*n - 552");     /* (70n - 70 + 1) elements * 8 bytes */
    species_class_free(&c);
    /* the dependence analysis holds 64 loops a chain: it says so */
    par_result *pr = NULL;
    char err[160] = "";
    CHECK_INT(par_analyze(tu, &pr, err, sizeof err), -1);
    CHECK_STR(err, "t.c:65: loop nested 65 deep: dependences not analysed beyond depth 64");
    CHECK(pr == NULL);
    ku_buf_free(&sub);
    ir_tu_free(tu);
}

int main(void)
{
    test_300_accesses();
    test_10_dimensions();
    test_70_deep();
    return check_summary();
}
