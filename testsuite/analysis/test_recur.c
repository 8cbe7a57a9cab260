/*
 * test_recur.c -- recurrences carried by an innermost loop (analysis/recur.h)
 * on IR built by hand: the fact text, every value worked out by hand (the
 * reader and the bound are runtime/model.c's, tested in test_model.c).
 * Each read's flow (ir.h, ir_flow: the write its value goes to, the
 * operations on the way) is set by hand as the front end would from the
 * statement's tree; the statement texts are for the reader only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "recur.h"

static kx_expr *P(const char *s)
{
    char err[128];
    return kx_parse(s, err, sizeof err);
}

static int loop(ir_tu *tu, int parent, const char *iv, const char *upper, int64_t step)
{
    int l = ir_add_loop(tu, 0, parent, IR_FOR, "t.c", 10 + tu->nloops, 5);
    ir_set_bounds(&tu->loops[l], iv, kx_int(step > 0 ? 1 : 100), P(upper), step);
    return l;
}

static int acc(ir_tu *tu, int l, int s, const char *array, int w, const char *i0, const char *i1)
{
    kx_expr **ix = malloc(sizeof *ix * 2);
    ix[0] = P(i0);
    if (i1)
        ix[1] = P(i1);
    return ir_add_access(&tu->loops[l].stmts[s], array, 8, w, i1 ? 2 : 1, ix, 0, NULL, 20, 1);
}

/* f goes to record `to` of kind kind through ops "fadd=6 fdiv=1 opaque". */
static void way(ir_flow *f, int kind, int to, const char *ops)
{
    memset(f, 0, sizeof *f);
    f->to_kind = kind, f->to = to;
    for (const char *q = ops; *q;) {
        size_t n = strcspn(q, " =");
        if (n == 6 && !strncmp(q, "opaque", 6))
            f->opaque = 1;
        for (int k = 0; k < RECUR_NOPS; k++)
            if (strlen(recur_op_name(k)) == n && !strncmp(q, recur_op_name(k), n))
                f->ops[k] = atoi(q + n + 1);
        q += strcspn(q, " ");
        q += *q == ' ';
    }
}

/* Read record r of statement s of loop l goes to its access record `to`. */
static void flow(ir_tu *tu, int l, int s, int r, int to, const char *ops)
{
    way(&tu->loops[l].stmts[s].acc[r].flow, IR_FLOW_ACCESS, to, ops);
}

/* Scalar read record r goes to scalar record `to`. */
static void sflow(ir_tu *tu, int l, int s, int r, int to, const char *ops)
{
    way(&tu->loops[l].stmts[s].scalars[r].flow, IR_FLOW_SCALAR, to, ops);
}

static ir_tu *nest(int *inner, int64_t step)
{
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    int i = loop(tu, -1, "i", "n", 1);
    *inner = loop(tu, i, "j", step > 0 ? "n" : "0", step);
    return tu;
}

static char *fact(ir_tu *tu, int l)
{
    int oom = 1;
    char *f = recur_loop_fact(tu, l, &oom);
    CHECK_INT(oom, 0);
    return f;
}

/* seidel: the read of A[i][j-1] goes through 6 additions and a division
 * to the store of A[i][j] one iteration later; no memory round trip */
static void test_seidel(void)
{
    int j;
    ir_tu *tu = nest(&j, 1);
    int s = ir_add_stmt(&tu->loops[j], 20, 1,
                        "A[i][j] = (A[i - 1][j - 1] + A[i - 1][j] + A[i - 1][j + 1]\n"
                        "           + A[i][j - 1] + A[i][j] + A[i][j + 1]\n"
                        "           + A[i + 1][j - 1] + A[i + 1][j] + A[i + 1][j + 1]) / 9.0", 0);
    tu->loops[j].stmts[s].ops.fadd = 8;
    tu->loops[j].stmts[s].ops.fdiv = 1;
    const char *r[9][2] = { { "i - 1", "j - 1" }, { "i - 1", "j" }, { "i - 1", "j + 1" },
                            { "i", "j - 1" }, { "i", "j" }, { "i", "j + 1" },
                            { "i + 1", "j - 1" }, { "i + 1", "j" }, { "i + 1", "j + 1" } };
    for (int k = 0; k < 9; k++)
        acc(tu, j, s, "A", 0, r[k][0], r[k][1]);
    int wr = acc(tu, j, s, "A", 1, "i", "j");
    /* the sum is left-deep: the k-th term passes 8 - k additions (the
     * first two both 8), then the division */
    for (int k = 0; k < 9; k++) {
        char ops[32];
        snprintf(ops, sizeof ops, "fadd=%d fdiv=1", k == 0 ? 8 : 9 - k);
        flow(tu, j, s, k, wr, ops);
    }
    char *f = fact(tu, j);
    CHECK_STR(f, "A[i][j-1]->A[i][j] dist=1 fadd=6 fdiv=1 all");
    /* the outer loop has an inner loop: no fact */
    int oom;
    CHECK(recur_loop_fact(tu, 0, &oom) == NULL);
    free(f);
    ir_tu_free(tu);
}

/* bicg: two accumulators in the j loop; s[j] moves with j (not carried),
 * q[i] does not: a store-to-load round trip and one addition (the
 * multiplication is off the path) */
static void test_bicg(void)
{
    int j;
    ir_tu *tu = nest(&j, 1);
    int s1 = ir_add_stmt(&tu->loops[j], 20, 1, "s[j] = s[j] + r[i] * A[i][j]", 0);
    tu->loops[j].stmts[s1].ops.fadd = 1, tu->loops[j].stmts[s1].ops.fmul = 1;
    acc(tu, j, s1, "s", 0, "j", NULL);
    acc(tu, j, s1, "r", 0, "i", NULL);
    acc(tu, j, s1, "A", 0, "i", "j");
    acc(tu, j, s1, "s", 1, "j", NULL);
    flow(tu, j, s1, 0, 3, "fadd=1");
    flow(tu, j, s1, 1, 3, "fadd=1 fmul=1");
    flow(tu, j, s1, 2, 3, "fadd=1 fmul=1");
    int s2 = ir_add_stmt(&tu->loops[j], 21, 1, "q[i] = q[i] + A[i][j] * p[j]", 0);
    tu->loops[j].stmts[s2].ops.fadd = 1, tu->loops[j].stmts[s2].ops.fmul = 1;
    acc(tu, j, s2, "q", 0, "i", NULL);
    acc(tu, j, s2, "A", 0, "i", "j");
    acc(tu, j, s2, "p", 0, "j", NULL);
    acc(tu, j, s2, "q", 1, "i", NULL);
    flow(tu, j, s2, 0, 3, "fadd=1");
    /* a compound assignment, integer: the += is the path */
    int s3 = ir_add_stmt(&tu->loops[j], 22, 1, "c[i] += (int)A[i][j] * 2", 0);
    tu->loops[j].stmts[s3].ops.iadd = 1, tu->loops[j].stmts[s3].ops.imul = 1;
    acc(tu, j, s3, "c", 0, "i", NULL);
    acc(tu, j, s3, "A", 0, "i", "j");
    acc(tu, j, s3, "c", 1, "i", NULL);
    flow(tu, j, s3, 0, 2, "iadd=1");
    flow(tu, j, s3, 1, 2, "iadd=1 imul=1 opaque");
    /* under a condition: not counted (and the loop's chains are not all
     * known: no "all") */
    int s4 = ir_add_stmt(&tu->loops[j], 23, 1, "d[i] = d[i] / 2.0", 1);
    tu->loops[j].stmts[s4].ops.fdiv = 1;
    acc(tu, j, s4, "d", 0, "i", NULL);
    acc(tu, j, s4, "d", 1, "i", NULL);
    flow(tu, j, s4, 0, 1, "fdiv=1");
    char *f = fact(tu, j);
    CHECK_STR(f, "q[i]->q[i] dist=1 fadd=1 mem; c[i]->c[i] dist=1 iadd=1 mem");
    free(f);
    ir_tu_free(tu);
}

/* distance 2 along a loop of step -1: x[j] = x[j + 2] * a - b[j]
 * (the read at j + 2 was written two iterations before); mul + sub over
 * 2 iterations */
static void test_distance(void)
{
    int j;
    ir_tu *tu = nest(&j, -1);
    int s = ir_add_stmt(&tu->loops[j], 20, 1, "x[j] = x[j + 2] * a - b[j]", 0);
    tu->loops[j].stmts[s].ops.fadd = 1, tu->loops[j].stmts[s].ops.fmul = 1;
    acc(tu, j, s, "x", 0, "j + 2", NULL);
    acc(tu, j, s, "b", 0, "j", NULL);
    acc(tu, j, s, "x", 1, "j", NULL);
    flow(tu, j, s, 0, 2, "fadd=1 fmul=1");
    flow(tu, j, s, 1, 2, "fadd=1");
    /* a read the loop never wrote before: x2[j - 2] with step -1 is read
     * before it is written (an anti dependence): nothing */
    int s2 = ir_add_stmt(&tu->loops[j], 21, 1, "y[j] = y[j - 2] + 1.0", 0);
    tu->loops[j].stmts[s2].ops.fadd = 1;
    acc(tu, j, s2, "y", 0, "j - 2", NULL);
    acc(tu, j, s2, "y", 1, "j", NULL);
    flow(tu, j, s2, 0, 1, "fadd=1");
    char *f = fact(tu, j);
    CHECK_STR(f, "x[j+2]->x[j] dist=2 fadd=1 fmul=1 all");
    free(f);
    ir_tu_free(tu);
}

/* Selects and calls.  nussinov's max macro, expanded: t[i] is read in
 * the comparison and in an arm, each through the select (the comparison
 * is the select's own), so one chain, isel=1, and the round trip (u and
 * w are pointers that may alias t).  z[j] = z[j-1] < 0 ? 0 : z[j-1] + 1:
 * the arm's way (an addition and the select) covers the condition's (the
 * select): one chain.  w[j] = g(w[j - 1]) + 1.0: the call's latency is
 * unknown (opaque): the chain keeps its addition, and the loop gets no
 * "all". */
static void test_selects(void)
{
    int j;
    ir_tu *tu = nest(&j, 1);
    int s = ir_add_stmt(&tu->loops[j], 20, 1, "t[i] = max_score(t[i], u[j] + v[j])", 0);
    tu->loops[j].stmts[s].ops.iadd = 1, tu->loops[j].stmts[s].ops.cmp = 1;
    /* ((t[i] >= u[j] + v[j]) ? t[i] : u[j] + v[j]) */
    acc(tu, j, s, "t", 0, "i", NULL);
    acc(tu, j, s, "u", 0, "j", NULL);
    acc(tu, j, s, "v", 0, "j", NULL);
    acc(tu, j, s, "t", 0, "i", NULL);
    acc(tu, j, s, "u", 0, "j", NULL);
    acc(tu, j, s, "v", 0, "j", NULL);
    acc(tu, j, s, "t", 1, "i", NULL);
    flow(tu, j, s, 0, 6, "isel=1");
    flow(tu, j, s, 1, 6, "iadd=1 isel=1");
    flow(tu, j, s, 2, 6, "iadd=1 isel=1");
    flow(tu, j, s, 3, 6, "isel=1");
    flow(tu, j, s, 4, 6, "iadd=1 isel=1");
    flow(tu, j, s, 5, 6, "iadd=1 isel=1");
    int s2 = ir_add_stmt(&tu->loops[j], 21, 1, "w[j] = g(w[j - 1]) + 1.0", 0);
    tu->loops[j].stmts[s2].ops.fadd = 1;
    acc(tu, j, s2, "w", 0, "j - 1", NULL);
    acc(tu, j, s2, "w", 1, "j", NULL);
    flow(tu, j, s2, 0, 1, "fadd=1 opaque");
    int s3 = ir_add_stmt(&tu->loops[j], 22, 1, "z[j] = z[j - 1] < 0 ? 0 : z[j - 1] + 1", 0);
    tu->loops[j].stmts[s3].ops.iadd = 1, tu->loops[j].stmts[s3].ops.cmp = 1;
    acc(tu, j, s3, "z", 0, "j - 1", NULL);
    acc(tu, j, s3, "z", 0, "j - 1", NULL);
    acc(tu, j, s3, "z", 1, "j", NULL);
    flow(tu, j, s3, 0, 2, "isel=1");
    flow(tu, j, s3, 1, 2, "iadd=1 isel=1");
    char *f = fact(tu, j);
    CHECK_STR(f, "t[i]->t[i] dist=1 isel=1 mem; w[j-1]->w[j] dist=1 fadd=1; "
                 "z[j-1]->z[j] dist=1 iadd=1 isel=1");
    free(f);
    ir_tu_free(tu);

    /* the same max alone in its loop: the register, every chain known */
    tu = nest(&j, 1);
    s = ir_add_stmt(&tu->loops[j], 20, 1, "t[i] = max_score(t[i], u[j] + v[j])", 0);
    acc(tu, j, s, "t", 0, "i", NULL);
    acc(tu, j, s, "u", 0, "j", NULL);
    acc(tu, j, s, "t", 0, "i", NULL);
    acc(tu, j, s, "t", 1, "i", NULL);
    flow(tu, j, s, 0, 3, "isel=1");
    flow(tu, j, s, 1, 3, "iadd=1 isel=1");
    flow(tu, j, s, 2, 3, "isel=1");
    f = fact(tu, j);
    CHECK_STR(f, "t[i]->t[i] dist=1 isel=1 all");
    free(f);
    ir_tu_free(tu);

    /* x[j] = fmax(x[j - 1], y[j]) * 0.5: a double select and a multiply */
    tu = nest(&j, 1);
    s = ir_add_stmt(&tu->loops[j], 20, 1, "x[j] = fmax(x[j - 1], y[j]) * 0.5", 0);
    acc(tu, j, s, "x", 0, "j - 1", NULL);
    acc(tu, j, s, "y", 0, "j", NULL);
    acc(tu, j, s, "x", 1, "j", NULL);
    flow(tu, j, s, 0, 2, "fmul=1 fsel=1");
    flow(tu, j, s, 1, 2, "fmul=1 fsel=1");
    f = fact(tu, j);
    CHECK_STR(f, "x[j-1]->x[j] dist=1 fmul=1 fsel=1 all");
    free(f);
    ir_tu_free(tu);
}

/* Ways the chain does not follow.  x[j] = y[x[j - 1]]: the carried read is
 * a subscript (its flow goes nowhere): no chain, and the loop's chains are
 * not all known (nothing to say: no fact).  x[j] = (int)x[j - 1] + y[j]
 * (x double): a conversion on the way (opaque): the addition is kept, no
 * "all"; x[j] = (long)x[j - 1] + y[j] (x int, an integer widening: no
 * latency of its own, not opaque): "all". */
static void test_unfollowed(void)
{
    int j;
    ir_tu *tu = nest(&j, 1);
    int s = ir_add_stmt(&tu->loops[j], 20, 1, "x[j] = y[x[j - 1]]", 0);
    acc(tu, j, s, "y", 0, "x[j - 1]", NULL);
    acc(tu, j, s, "x", 0, "j - 1", NULL);
    acc(tu, j, s, "x", 1, "j", NULL);
    flow(tu, j, s, 0, 2, "");
    int oom = 1;
    CHECK(recur_loop_fact(tu, j, &oom) == NULL);
    CHECK_INT(oom, 0);
    ir_tu_free(tu);

    for (int conv = 0; conv <= 1; conv++) {
        tu = nest(&j, 1);
        s = ir_add_stmt(&tu->loops[j], 20, 1, conv ? "x[j] = (int)x[j - 1] + y[j]"
                                                   : "x[j] = (long)x[j - 1] + y[j]", 0);
        acc(tu, j, s, "x", 0, "j - 1", NULL);
        acc(tu, j, s, "y", 0, "j", NULL);
        acc(tu, j, s, "x", 1, "j", NULL);
        flow(tu, j, s, 0, 2, conv ? "iadd=1 opaque" : "iadd=1");
        flow(tu, j, s, 1, 2, "iadd=1");
        char *f = fact(tu, j);
        CHECK_STR(f, conv ? "x[j-1]->x[j] dist=1 iadd=1" : "x[j-1]->x[j] dist=1 iadd=1 all");
        free(f);
        ir_tu_free(tu);
    }
}

/* An integer scalar chain, s = s * 3 + a[j]: a multiply and an add, in a
 * register; `n++` alone in its statement likewise (one add) */
static void test_integer(void)
{
    int j;
    ir_tu *tu = nest(&j, 1);
    int s = ir_add_stmt(&tu->loops[j], 20, 1, "s = s * 3 + a[j]", 0);
    tu->loops[j].stmts[s].ops.iadd = 1, tu->loops[j].stmts[s].ops.imul = 1;
    ir_add_scalar(&tu->loops[j].stmts[s], "s", 1, 20, 1);
    ir_add_scalar(&tu->loops[j].stmts[s], "s", 0, 20, 5);
    sflow(tu, j, s, 1, 0, "iadd=1 imul=1");
    acc(tu, j, s, "a", 0, "j", NULL);
    flow(tu, j, s, 0, 0, "");
    tu->loops[j].stmts[s].acc[0].flow.to_kind = IR_FLOW_SCALAR;
    int s2 = ir_add_stmt(&tu->loops[j], 21, 1, "n++", 0);
    ir_add_scalar(&tu->loops[j].stmts[s2], "n", 0, 21, 1);
    ir_add_scalar(&tu->loops[j].stmts[s2], "n", 1, 21, 1);
    sflow(tu, j, s2, 0, 1, "iadd=1");
    char *f = fact(tu, j);
    CHECK_STR(f, "s->s dist=1 iadd=1 imul=1 all; n->n dist=1 iadd=1 all");
    free(f);
    ir_tu_free(tu);
}

/* 2mm's accumulator, the loop's only store: forwarded in a register (no
 * "mem"); two accumulators on distinct array objects (never overlapping)
 * likewise; on pointers they may overlap: "mem" for both */
static void test_register(void)
{
    for (int arrays = 0; arrays <= 2; arrays++) {
        int k;
        ir_tu *tu = nest(&k, 1);
        int s = ir_add_stmt(&tu->loops[k], 20, 1, "tmp[i] += alpha * A[i][j] * B[j]", 0);
        tu->loops[k].stmts[s].ops.fadd = 1, tu->loops[k].stmts[s].ops.fmul = 2;
        acc(tu, k, s, "tmp", 0, "i", NULL);
        acc(tu, k, s, "A", 0, "i", "j");
        acc(tu, k, s, "B", 0, "j", NULL);
        acc(tu, k, s, "tmp", 1, "i", NULL);
        flow(tu, k, s, 0, 3, "fadd=1");
        if (arrays) {
            int s2 = ir_add_stmt(&tu->loops[k], 21, 1, "u[i] = u[i] * B[j]", 0);
            tu->loops[k].stmts[s2].ops.fmul = 1;
            acc(tu, k, s2, "u", 0, "i", NULL);
            acc(tu, k, s2, "B", 0, "j", NULL);
            acc(tu, k, s2, "u", 1, "i", NULL);
            flow(tu, k, s2, 0, 2, "fmul=1");
            if (arrays == 2)
                for (int st = 0; st < 2; st++)
                    for (int a = 0; a < tu->loops[k].stmts[st].nacc; a++)
                        tu->loops[k].stmts[st].acc[a].base = IR_BASE_ARRAY;
        }
        char *f = fact(tu, k);
        CHECK_STR(f, arrays == 0 ? "tmp[i]->tmp[i] dist=1 fadd=1 all"
                     : arrays == 1 ? "tmp[i]->tmp[i] dist=1 fadd=1 mem all; u[i]->u[i] dist=1 fmul=1 mem all"
                                   : "tmp[i]->tmp[i] dist=1 fadd=1 all; u[i]->u[i] dist=1 fmul=1 all");
        free(f);
        ir_tu_free(tu);
    }
}

/* a scalar written in the loop that is not an accumulator (t, read by
 * another statement) may carry a chain of its own: not "all"; ludcmp's
 * scalar accumulator w -= A[i][k] * A[k][j]: one subtraction, "all" */
static void test_scalar(void)
{
    int j;
    ir_tu *tu = nest(&j, 1);
    int s = ir_add_stmt(&tu->loops[j], 20, 1, "x[j] = x[j - 1] + t", 0);
    tu->loops[j].stmts[s].ops.fadd = 1;
    acc(tu, j, s, "x", 0, "j - 1", NULL);
    acc(tu, j, s, "x", 1, "j", NULL);
    flow(tu, j, s, 0, 1, "fadd=1");
    ir_add_scalar(&tu->loops[j].stmts[s], "t", 0, 20, 1);
    int s2 = ir_add_stmt(&tu->loops[j], 21, 1, "t = t * 2.0", 0);
    tu->loops[j].stmts[s2].ops.fmul = 1;
    ir_add_scalar(&tu->loops[j].stmts[s2], "t", 1, 21, 1);
    ir_add_scalar(&tu->loops[j].stmts[s2], "t", 0, 21, 1);
    sflow(tu, j, s2, 1, 0, "fmul=1");
    char *f = fact(tu, j);
    CHECK_STR(f, "x[j-1]->x[j] dist=1 fadd=1");
    free(f);
    ir_tu_free(tu);

    tu = nest(&j, 1);
    s = ir_add_stmt(&tu->loops[j], 20, 1, "w -= A[i][j] * A[j][i]", 0);
    tu->loops[j].stmts[s].ops.fadd = 1, tu->loops[j].stmts[s].ops.fmul = 1;
    acc(tu, j, s, "A", 0, "i", "j");
    acc(tu, j, s, "A", 0, "j", "i");
    ir_add_scalar(&tu->loops[j].stmts[s], "w", 0, 20, 1);
    ir_add_scalar(&tu->loops[j].stmts[s], "w", 1, 20, 1);
    ir_add_scalar(&tu->loops[j].stmts[s], "i", 0, 20, 1);
    sflow(tu, j, s, 0, 1, "fadd=1");     /* w -=: the read goes to the write */
    f = fact(tu, j);
    CHECK_STR(f, "w->w dist=1 fadd=1 all");
    free(f);
    ir_tu_free(tu);
}

int main(void)
{
    test_scalar();
    test_register();
    test_seidel();
    test_bicg();
    test_distance();
    test_selects();
    test_unfollowed();
    test_integer();
    return check_summary();
}
