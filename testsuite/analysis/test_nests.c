/*
 * test_nests.c -- the IR's nest ranges (ir_nest_end, ir_loop_within,
 * ir_children) and the dependence verdicts that scan only a loop's range.
 *
 * Loops added in pre-order (as the front end adds them) give each nest a
 * contiguous index range; loops added out of order (possible in IR built by
 * hand) fall back to walking parents.  The same program built both ways
 * must get the same verdicts.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ir.h"
#include "parallel.h"

static kx_expr *P(const char *t)
{
    char err[128];
    kx_expr *e = kx_parse(t, err, sizeof err);
    if (!e)
        fprintf(stderr, "parse %s: %s\n", t, err);
    return e;
}

static int loop(ir_tu *tu, int parent, const char *iv, int line)
{
    int l = ir_add_loop(tu, 0, parent, IR_FOR, "t.c", line, 1);
    ir_set_bounds(&tu->loops[l], iv, P("0"), P("n"), 1);
    tu->loops[l].end_line = line + 1;
    return l;
}

/* a[sub0][sub1] written, a[sub0][rsub1] read, in one statement of loop l */
static void stmt(ir_tu *tu, int l, const char *arr, const char *s0, const char *s1,
                 const char *r1)
{
    ir_loop *lp = &tu->loops[l];
    int s = ir_add_stmt(lp, lp->line + 1, 5, "a[..] = a[..]", 0);
    kx_expr **w = calloc(2, sizeof *w), **r = calloc(2, sizeof *r);
    w[0] = P(s0), w[1] = P(s1), r[0] = P(s0), r[1] = P(r1);
    ir_add_access(&lp->stmts[s], arr, 8, 0, 2, r, 0, NULL, lp->line + 1, 5);
    ir_add_access(&lp->stmts[s], arr, 8, 1, 2, w, 0, NULL, lp->line + 1, 5);
}

static void test_ranges(void)
{
    /* A { B { C } D } E */
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    int A = loop(tu, -1, "i", 10), B = loop(tu, A, "j", 11), C = loop(tu, B, "k", 12);
    int D = loop(tu, A, "j", 14), E = loop(tu, -1, "i", 20);
    CHECK_INT(tu->unordered, 0);
    CHECK_INT(ir_nest_end(tu, A), 4);
    CHECK_INT(ir_nest_end(tu, B), 3);
    CHECK_INT(ir_nest_end(tu, C), 3);
    CHECK_INT(ir_nest_end(tu, D), 4);
    CHECK_INT(ir_nest_end(tu, E), 5);
    CHECK_INT(ir_loop_within(tu, C, A), 1);
    CHECK_INT(ir_loop_within(tu, C, B), 1);
    CHECK_INT(ir_loop_within(tu, D, B), 0);
    CHECK_INT(ir_loop_within(tu, A, A), 1);
    CHECK_INT(ir_loop_within(tu, A, C), 0);
    CHECK_INT(ir_loop_within(tu, E, A), 0);
    CHECK_INT(ir_loop_within(tu, A, -1), 0);
    int *kids = NULL;
    int n = ir_children(tu, A, &kids);
    CHECK_INT(n, 2);
    CHECK_INT(n == 2 ? kids[0] * 10 + kids[1] : -1, B * 10 + D);
    free(kids);
    n = ir_children(tu, -1, &kids);
    CHECK_INT(n, 2);
    CHECK_INT(n == 2 ? kids[0] * 10 + kids[1] : -1, A * 10 + E);
    free(kids);
    n = ir_children(tu, C, &kids);
    CHECK_INT(n, 0);
    free(kids);
    ir_tu_free(tu);
}

static void test_unordered(void)
{
    /* A, E, then B inside A: A's nest is no longer contiguous */
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    int A = loop(tu, -1, "i", 10), E = loop(tu, -1, "i", 20), B = loop(tu, A, "j", 11);
    CHECK_INT(tu->unordered, 1);
    CHECK_INT(ir_nest_end(tu, A), 3);
    CHECK_INT(ir_loop_within(tu, B, A), 1);
    CHECK_INT(ir_loop_within(tu, E, A), 0);
    CHECK_INT(ir_loop_within(tu, B, E), 0);
    int *kids = NULL;
    int n = ir_children(tu, A, &kids);
    CHECK_INT(n, 1);
    CHECK_INT(n == 1 ? kids[0] : -1, B);
    free(kids);
    ir_tu_free(tu);
}

/* for i { for j { a[i][j] = a[i][j-1] } }  and  for i { for j { b[i][j] = b[i-1][j] } }
 * built in pre-order and with the second nest's inner loop added last. */
static void verdicts(int ordered, char out[4][16])
{
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    int A = loop(tu, -1, "i", 10), B = -1, C, D;
    if (ordered)
        B = loop(tu, A, "j", 11);
    C = loop(tu, -1, "i", 20);
    D = loop(tu, C, "j", 21);
    if (!ordered)
        B = loop(tu, A, "j", 11);
    stmt(tu, B, "a", "i", "j", "j - 1");
    /* b[i][j] = b[i][j] read as b[i - 1][j]: carried by i, not by j */
    ir_loop *dl = &tu->loops[D];
    int s = ir_add_stmt(dl, 22, 5, "b[i][j] = b[i - 1][j]", 0);
    kx_expr **w = calloc(2, sizeof *w), **r = calloc(2, sizeof *r);
    w[0] = P("i"), w[1] = P("j"), r[0] = P("i - 1"), r[1] = P("j");
    ir_add_access(&dl->stmts[s], "b", 8, 0, 2, r, 0, NULL, 22, 5);
    ir_add_access(&dl->stmts[s], "b", 8, 1, 2, w, 0, NULL, 22, 5);
    CHECK_INT(tu->unordered, !ordered);
    par_result *pr = NULL;
    char err[256];
    CHECK_INT(par_analyze(tu, &pr, err, sizeof err), 0);
    int idx[4] = { A, B, C, D };
    for (int k = 0; k < 4; k++)
        snprintf(out[k], 16, "%s", pr ? par_verdict_name(pr->loops[idx[k]].verdict) : "?");
    par_free(pr);
    ir_tu_free(tu);
}

static void test_same_verdicts(void)
{
    char o[4][16], u[4][16];
    verdicts(1, o);
    verdicts(0, u);
    CHECK_STR(o[0], "parallel");
    CHECK_STR(o[1], "sequential");
    CHECK_STR(o[2], "sequential");
    CHECK_STR(o[3], "parallel");
    for (int k = 0; k < 4; k++)
        CHECK_STR(u[k], o[k]);
}

int main(void)
{
    test_ranges();
    test_unordered();
    test_same_verdicts();
    return check_summary();
}
