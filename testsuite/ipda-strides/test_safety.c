/*
 * test_safety.c -- par_analyze on hand-built IR: the shapes that must never
 * be called parallel when they carry a dependence, and the shapes that are
 * safe and should be found so.
 *
 *   control   a body that writes the induction variable or a variable of
 *             the bound: sequential; a possible write through a pointer
 *             (ir_loop.control_write, maybe): unknown.
 *   stepped   accesses through a pointer the front end rewrote as an
 *             induction (ir_loop.stepped) are tested like subscripts; a
 *             stepped pointer the front end did not rewrite stays untestable.
 *   indirect  a subscript naming a local the loop writes: irregular stride,
 *             never uniform (the idioms side is in analysis/test_idioms.c).
 *   folds     `&&`, `||`, `|=`, `&=`, `^=`, min/max through ?: into an
 *             element, a struct member max: reductions, with the operator
 *             in the reason.
 *   clauses   private(x) makes a conditionally written scalar private; a
 *             clause never hides a dependence keel finds.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "parallel.h"

static kx_expr *P(const char *s)
{
    char err[128];
    return kx_parse(s, err, sizeof err);
}

static ir_tu *tu1(const char *iv, const char *upper, const char *pragma)
{
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    int l = ir_add_loop(tu, 0, -1, IR_FOR, "t.c", 10, 5);
    ir_set_bounds(&tu->loops[l], iv, kx_int(0), P(upper), 1);
    if (pragma)
        ir_add_pragma(&tu->loops[l], pragma);
    return tu;
}

static int stmt(ir_tu *tu, int l, int line, const char *text, int cond)
{
    return ir_add_stmt(&tu->loops[l], line, 1, text, cond);
}

static void acc(ir_tu *tu, int l, int s, const char *array, int w, const char *idx)
{
    kx_expr **ix = malloc(sizeof *ix);
    ix[0] = P(idx);
    ir_add_access(&tu->loops[l].stmts[s], array, 8, w, 1, ix, 0, NULL,
                  tu->loops[l].stmts[s].line, 1);
}

static void sc(ir_tu *tu, int l, int s, const char *name, int w)
{
    ir_add_scalar(&tu->loops[l].stmts[s], name, w, tu->loops[l].stmts[s].line, 1);
}

/* Verdict of loop `which`, its reason into why; frees tu. */
static par_verdict run(ir_tu *tu, int which, char *why)
{
    par_result *r;
    char err[64];
    par_verdict v = PAR_PARALLEL;
    why[0] = '\0';
    if (par_analyze(tu, &r, err, sizeof err) == 0) {
        v = r->loops[which].verdict;
        strcpy(why, r->loops[which].reason);
        par_free(r);
    }
    ir_tu_free(tu);
    return v;
}

static void test_control(void)
{
    char why[512];
    /* for (i < n) { a[i] = a[i]*0.5; if (a[i] > t) i += 2; } */
    ir_tu *tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "a[i] = a[i] * 0.5", 0);
    acc(tu, 0, 0, "a", 1, "i");
    acc(tu, 0, 0, "a", 0, "i");
    stmt(tu, 0, 12, "i += 2", 1);
    sc(tu, 0, 1, "i", 0);
    sc(tu, 0, 1, "i", 1);
    CHECK_INT(run(tu, 0, why), PAR_SEQUENTIAL);
    CHECK_STR(why, "the body changes the loop's control: it writes i (line 12)");
    /* for (i < n) { b[i] = a[i]; n--; } */
    tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "b[i] = a[i]", 0);
    acc(tu, 0, 0, "b", 1, "i");
    acc(tu, 0, 0, "a", 0, "i");
    stmt(tu, 0, 12, "n--", 0);
    sc(tu, 0, 1, "n", 0);
    sc(tu, 0, 1, "n", 1);
    CHECK_INT(run(tu, 0, why), PAR_SEQUENTIAL);
    CHECK_STR(why, "the body changes the loop's control: it writes n (line 12)");
    /* the bound written from an inner loop: the outer loop is sequential */
    tu = tu1("i", "m + 1", NULL);
    int in = ir_add_loop(tu, 0, 0, IR_FOR, "t.c", 11, 5);
    ir_set_bounds(&tu->loops[in], "j", kx_int(0), P("k"), 1);
    stmt(tu, in, 12, "m = j", 1);
    sc(tu, in, 0, "m", 1);
    sc(tu, in, 0, "j", 0);
    CHECK_INT(run(tu, 0, why), PAR_SEQUENTIAL);
    CHECK_STR(why, "the body changes the loop's control: it writes m (line 12)");
    /* a while loop read as a for loop: its own step is no control write,
     * a write of its bound is */
    tu = tu1("i", "n", NULL);
    tu->loops[0].kind = IR_WHILE;
    stmt(tu, 0, 11, "v[i] = 0", 0);
    acc(tu, 0, 0, "v", 1, "i");
    stmt(tu, 0, 12, "i++", 0);
    sc(tu, 0, 1, "i", 0);
    sc(tu, 0, 1, "i", 1);
    CHECK_INT(run(tu, 0, why), PAR_PARALLEL);
    tu = tu1("i", "n", NULL);
    tu->loops[0].kind = IR_WHILE;
    stmt(tu, 0, 11, "n -= 1", 0);
    sc(tu, 0, 0, "n", 0);
    sc(tu, 0, 0, "n", 1);
    CHECK_INT(run(tu, 0, why), PAR_SEQUENTIAL);
    /* the front end saw the bound's address kept and a write through a
     * pointer: unknown, never parallel */
    tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "w[i] = 0", 0);
    acc(tu, 0, 0, "w", 1, "i");
    stmt(tu, 0, 12, "(*lim)--", 1);
    acc(tu, 0, 1, "lim", 0, "0");
    acc(tu, 0, 1, "lim", 1, "0");
    CHECK_INT(ir_set_control_write(&tu->loops[0], "n", 1), 0);
    CHECK_INT(tu->loops[0].canonical, 0);
    CHECK(tu->loops[0].trip == NULL);
    CHECK_INT(run(tu, 0, why), PAR_UNKNOWN);
    CHECK_STR(why, "the body may change the loop's control: it writes through a pointer "
                   "and the address of n is taken");
    /* a read of the bound is no write */
    tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "b[i] = a[n - 1]", 0);
    acc(tu, 0, 0, "b", 1, "i");
    acc(tu, 0, 0, "a", 0, "n - 1");
    CHECK_INT(run(tu, 0, why), PAR_PARALLEL);
}

/* for (i < n; i++, p++) body, with the header step recorded after it */
static ir_tu *stepped_loop(const char *text, int rewritten)
{
    ir_tu *tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, text, 0);
    stmt(tu, 0, 10, "p++", 0);
    sc(tu, 0, 1, "p", 0);
    sc(tu, 0, 1, "p", 1);
    if (rewritten)
        ir_add_stepped(&tu->loops[0], "p");
    return tu;
}

/* A pointer that is the loop's own induction variable, its accesses not
 * rewritten (`for (p = a + n - 1; p > a; p--) *p -= *(p - 1)`): p[0] and
 * p[-1] are other elements in each iteration: the update's read of p[-1]
 * is no other element than the write of the next iteration, so the update
 * is no commuting reduction. */
static void test_pointer_iv(void)
{
    char why[512];
    ir_tu *tu = tu1("p", "a", NULL);
    stmt(tu, 0, 11, "*p -= *(p - 1)", 0);
    acc(tu, 0, 0, "p", 0, "0");
    acc(tu, 0, 0, "p", 1, "0");
    acc(tu, 0, 0, "p", 0, "-1");
    CHECK_INT(run(tu, 0, why), PAR_UNKNOWN);
    CHECK_STR(why, "p[0] (write, line 11) and p[-1] (read, line 11): not testable "
                   "(changed in the loop)");
    /* a[0] += b[i] stays a reduction */
    tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "a[0] += b[i]", 0);
    acc(tu, 0, 0, "a", 0, "0");
    acc(tu, 0, 0, "a", 1, "0");
    acc(tu, 0, 0, "b", 0, "i");
    CHECK_INT(run(tu, 0, why), PAR_REDUCTION);
}

static void test_stepped(void)
{
    char why[512];
    /* p[1] += *p, p the pointer on entry: p[i + 1] += p[i] */
    ir_tu *tu = stepped_loop("p[1] += *p", 1);
    acc(tu, 0, 0, "p", 0, "i + 1");
    acc(tu, 0, 0, "p", 1, "i + 1");
    acc(tu, 0, 0, "p", 0, "i");
    CHECK_INT(run(tu, 0, why), PAR_SEQUENTIAL);
    CHECK(strstr(why, "distance 1") != NULL);
    /* *p *= 3: one element per iteration */
    tu = stepped_loop("*p *= 3.0", 1);
    acc(tu, 0, 0, "p", 0, "i");
    acc(tu, 0, 0, "p", 1, "i");
    CHECK_INT(run(tu, 0, why), PAR_PARALLEL);
    /* the same accesses left as p[1], p[0] by a front end that did not
     * rewrite them: the base changes in the loop, untestable (p[1] and p[0]
     * are no distinct elements) */
    tu = stepped_loop("p[1] += *p", 0);
    acc(tu, 0, 0, "p", 0, "1");
    acc(tu, 0, 0, "p", 1, "1");
    acc(tu, 0, 0, "p", 0, "0");
    CHECK_INT(run(tu, 0, why), PAR_UNKNOWN);
    CHECK_STR(why, "p[1] (write, line 11) and p[0] (read, line 11): not testable "
                   "(changed in the loop)");
    /* *d++ = *s++ with both rewritten: their own steps are no scalars
     * carried from one iteration to the next */
    tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "*d++ = *s++", 0);
    acc(tu, 0, 0, "d", 1, "i");
    acc(tu, 0, 0, "s", 0, "i");
    sc(tu, 0, 0, "d", 0);
    sc(tu, 0, 0, "d", 1);
    sc(tu, 0, 0, "s", 0);
    sc(tu, 0, 0, "s", 1);
    ir_add_stepped(&tu->loops[0], "d");
    ir_add_stepped(&tu->loops[0], "s");
    CHECK_INT(run(tu, 0, why), PAR_PARALLEL);
    /* `*p *= 3` unrewritten: multiplications of whatever elements commute */
    tu = stepped_loop("*p *= 3.0", 0);
    acc(tu, 0, 0, "p", 0, "0");
    acc(tu, 0, 0, "p", 1, "0");
    CHECK_INT(run(tu, 0, why), PAR_REDUCTION);
    /* a pointer stepped by an inner loop: rewritten relative to the inner
     * loop's entry, so the outer loop cannot test it */
    tu = tu1("i", "n", NULL);
    int in = ir_add_loop(tu, 0, 0, IR_FOR, "t.c", 11, 5);
    ir_set_bounds(&tu->loops[in], "j", kx_int(0), P("m"), 1);
    ir_add_stepped(&tu->loops[in], "p");
    stmt(tu, in, 12, "*p = 0", 0);
    acc(tu, in, 0, "p", 1, "j");
    stmt(tu, in, 11, "p++", 0);
    sc(tu, in, 1, "p", 0);
    sc(tu, in, 1, "p", 1);
    par_result *r;
    char err[64];
    CHECK_INT(par_analyze(tu, &r, err, sizeof err), 0);
    CHECK_INT(r->loops[0].verdict, PAR_UNKNOWN);
    CHECK_INT(r->loops[1].verdict, PAR_PARALLEL);
    par_free(r);
    ir_tu_free(tu);
}

/* One statement `text` in loop i: scalar v read and written, A[i] read. */
static par_verdict fold1(const char *text, const char *v, char *why)
{
    ir_tu *tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, text, 0);
    sc(tu, 0, 0, v, 0);
    sc(tu, 0, 0, v, 1);
    acc(tu, 0, 0, "A", 0, "i");
    return run(tu, 0, why);
}

static void test_folds(void)
{
    char why[512];
    CHECK_INT(fold1("ok = ok && A[i] > 0.0", "ok", why), PAR_REDUCTION);
    CHECK_STR(why, "only reductions are carried: ok (&&)");
    CHECK_INT(fold1("neg = A[i] < 0.0 || neg", "neg", why), PAR_REDUCTION);
    CHECK_STR(why, "only reductions are carried: neg (||)");
    CHECK_INT(fold1("f |= A[i]", "f", why), PAR_REDUCTION);
    CHECK_STR(why, "only reductions are carried: f (|)");
    CHECK_INT(fold1("f &= A[i]", "f", why), PAR_REDUCTION);
    CHECK_STR(why, "only reductions are carried: f (&)");
    CHECK_INT(fold1("x ^= A[i]", "x", why), PAR_REDUCTION);
    CHECK_STR(why, "only reductions are carried: x (^)");
    CHECK_INT(fold1("x = x ^ A[i]", "x", why), PAR_REDUCTION);
    CHECK_INT(fold1("s += A[i]", "s", why), PAR_REDUCTION);
    CHECK_STR(why, "only reductions are carried: s (+)");
    /* not folds: a looser operator after the fold's, a linear recurrence,
     * a mix of operators */
    CHECK_INT(fold1("ok = ok && A[i] > 0 || B", "ok", why), PAR_SEQUENTIAL);
    CHECK_INT(fold1("f = f & A[i] | 1", "f", why), PAR_SEQUENTIAL);
    CHECK_INT(fold1("s = s * A[i] + 1.0", "s", why), PAR_SEQUENTIAL);
    /* && skips a side effect once ok is false: no fold */
    ir_tu *se = tu1("i", "n", NULL);
    stmt(se, 0, 11, "ok = ok && A[i]++ > 0", 0);
    sc(se, 0, 0, "ok", 0);
    sc(se, 0, 0, "ok", 1);
    acc(se, 0, 0, "A", 0, "i");
    acc(se, 0, 0, "A", 1, "i");
    CHECK_INT(run(se, 0, why), PAR_SEQUENTIAL);
    CHECK_INT(fold1("bits = bits | A[i]", "bits", why), PAR_REDUCTION);
    ir_tu *tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "s += A[i]", 0);
    sc(tu, 0, 0, "s", 0);
    sc(tu, 0, 0, "s", 1);
    stmt(tu, 0, 12, "s *= 2.0", 0);
    sc(tu, 0, 1, "s", 0);
    sc(tu, 0, 1, "s", 1);
    CHECK_INT(run(tu, 0, why), PAR_SEQUENTIAL);
    /* if (a[i] > m->max) m->max = a[i];  a struct member's max */
    tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "a[i] > m->max", 0);
    acc(tu, 0, 0, "a", 0, "i");
    acc(tu, 0, 0, "m.max", 0, "0");
    stmt(tu, 0, 11, "m->max = a[i]", 1);
    acc(tu, 0, 1, "m.max", 1, "0");
    acc(tu, 0, 1, "a", 0, "i");
    CHECK_INT(run(tu, 0, why), PAR_REDUCTION);
    CHECK_STR(why, "only reductions are carried: m.max[0] (min/max)");
    /* ...but a read of the member elsewhere in the loop is a dependence */
    tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "a[i] > m->max", 0);
    acc(tu, 0, 0, "a", 0, "i");
    acc(tu, 0, 0, "m.max", 0, "0");
    stmt(tu, 0, 11, "m->max = a[i]", 1);
    acc(tu, 0, 1, "m.max", 1, "0");
    acc(tu, 0, 1, "a", 0, "i");
    stmt(tu, 0, 12, "b[i] = m->max", 0);
    acc(tu, 0, 2, "b", 1, "i");
    acc(tu, 0, 2, "m.max", 0, "0");
    CHECK_INT(run(tu, 0, why), PAR_SEQUENTIAL);
    /* ...and its index beside it: b->where = i under the same condition */
    tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "a[i] > b->top", 0);
    acc(tu, 0, 0, "a", 0, "i");
    acc(tu, 0, 0, "b.top", 0, "0");
    stmt(tu, 0, 12, "b->top = a[i]", 1);
    acc(tu, 0, 1, "b.top", 1, "0");
    acc(tu, 0, 1, "a", 0, "i");
    stmt(tu, 0, 13, "b->where = i", 1);
    acc(tu, 0, 2, "b.where", 1, "0");
    sc(tu, 0, 2, "i", 0);
    CHECK_INT(run(tu, 0, why), PAR_REDUCTION);
    CHECK_STR(why, "only reductions are carried: b.top[0] (min/max), b.where[0] (min/max)");
    /* for (k) t[i] = t[i] >= c[k] ? t[i] : c[k];  max into an element */
    tu = tu1("k", "m", NULL);
    stmt(tu, 0, 11, "t[i] = t[i] >= c[k] ? t[i] : c[k]", 0);
    acc(tu, 0, 0, "t", 1, "i");
    acc(tu, 0, 0, "t", 0, "i");
    acc(tu, 0, 0, "c", 0, "k");
    acc(tu, 0, 0, "t", 0, "i");
    acc(tu, 0, 0, "c", 0, "k");
    CHECK_INT(run(tu, 0, why), PAR_REDUCTION);
    CHECK_STR(why, "only reductions are carried: t[i] (min/max)");
    /* t[i] = t[i] > t[i - 1] ? ...: another element, a recurrence */
    tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "t[i] = t[i] > t[i - 1] ? t[i] : t[i - 1]", 0);
    acc(tu, 0, 0, "t", 1, "i");
    acc(tu, 0, 0, "t", 0, "i");
    acc(tu, 0, 0, "t", 0, "i - 1");
    CHECK_INT(run(tu, 0, why), PAR_SEQUENTIAL);
}

/* for (i) { if (k[i]) sel = i; else sel = n - 1 - i; out[i] = a[sel]; } */
static par_verdict boxes(const char *pragma, char *why)
{
    ir_tu *tu = tu1("i", "n", pragma);
    stmt(tu, 0, 11, "k[i]", 0);
    acc(tu, 0, 0, "k", 0, "i");
    stmt(tu, 0, 12, "sel = i", 1);
    sc(tu, 0, 1, "sel", 1);
    stmt(tu, 0, 13, "sel = n - 1 - i", 1);
    sc(tu, 0, 2, "sel", 1);
    stmt(tu, 0, 14, "out[i] = a[sel]", 0);
    sc(tu, 0, 3, "sel", 0);
    acc(tu, 0, 3, "out", 1, "i");
    acc(tu, 0, 3, "a", 0, "sel");
    return run(tu, 0, why);
}

static void test_clauses(void)
{
    char why[512];
    CHECK_INT(boxes(NULL, why), PAR_SEQUENTIAL);
    CHECK_STR(why, "scalar sel (line 12) is read before it is written in an iteration");
    CHECK_INT(boxes("omp parallel for private(sel)", why), PAR_PARALLEL);
    CHECK_INT(boxes("omp parallel for firstprivate(n, sel) schedule(static)", why), PAR_PARALLEL);
    CHECK_INT(boxes("omp parallel for lastprivate(sel)", why), PAR_PARALLEL);
    CHECK_INT(boxes("omp parallel for private(selx)", why), PAR_SEQUENTIAL);
    CHECK_INT(boxes("omp parallel private(sel)", why), PAR_SEQUENTIAL);   /* no loop construct */
    /* b[i] = last; last = a[i];  a read before the write: private(last)
     * does not hide it */
    ir_tu *tu = tu1("i", "n", "omp parallel for private(last)");
    stmt(tu, 0, 11, "b[i] = last", 0);
    sc(tu, 0, 0, "last", 0);
    acc(tu, 0, 0, "b", 1, "i");
    stmt(tu, 0, 12, "last = a[i]", 0);
    sc(tu, 0, 1, "last", 1);
    acc(tu, 0, 1, "a", 0, "i");
    CHECK_INT(run(tu, 0, why), PAR_SEQUENTIAL);
    /* a carried array dependence under `omp parallel for`: still found */
    tu = tu1("i", "n", "omp parallel for");
    stmt(tu, 0, 11, "a[i] = a[i - 1] + 1.0", 0);
    acc(tu, 0, 0, "a", 1, "i");
    acc(tu, 0, 0, "a", 0, "i - 1");
    CHECK_INT(run(tu, 0, why), PAR_SEQUENTIAL);
    CHECK_STR(why, "a[i] (write, line 11) and a[i - 1] (read, line 11): distance 1 (strong SIV)");
    /* s = fma(a[i], b[i], s): keel does not read fma as an update; the
     * clause says it is one */
    const char *pr[3] = { NULL, "omp parallel for reduction(+: s)", "omp for reduction(+:t)" };
    const par_verdict want[3] = { PAR_SEQUENTIAL, PAR_REDUCTION, PAR_SEQUENTIAL };
    for (int k = 0; k < 3; k++) {
        tu = tu1("i", "n", pr[k]);
        stmt(tu, 0, 11, "s = fma(a[i], b[i], s)", 0);
        tu->loops[0].stmts[0].ops.fmath = 1;
        sc(tu, 0, 0, "s", 0);
        sc(tu, 0, 0, "s", 1);
        acc(tu, 0, 0, "a", 0, "i");
        acc(tu, 0, 0, "b", 0, "i");
        CHECK_INT(run(tu, 0, why), want[k]);
        if (k == 1)
            CHECK_STR(why, "only reductions are carried: s (+, by its clause)");
    }
    /* s = s * a[i] + 1.0 is no fold, whatever the clause says */
    tu = tu1("i", "n", "omp parallel for reduction(+:s)");
    stmt(tu, 0, 11, "s = s * a[i] + 1.0", 0);
    sc(tu, 0, 0, "s", 0);
    sc(tu, 0, 0, "s", 1);
    acc(tu, 0, 0, "a", 0, "i");
    CHECK_INT(run(tu, 0, why), PAR_SEQUENTIAL);
}

/* u = perm[i]; y[i] = t[u];  the local index is no loop invariant: t[u]'s
 * stride between threads is irregular, not 0 */
static void test_indirect_strides(void)
{
    ir_tu *tu = tu1("i", "n", NULL);
    stmt(tu, 0, 11, "u = perm[i]", 0);
    sc(tu, 0, 0, "u", 1);
    acc(tu, 0, 0, "perm", 0, "i");
    stmt(tu, 0, 12, "y[i] = t[u]", 0);
    sc(tu, 0, 1, "u", 0);
    acc(tu, 0, 1, "y", 1, "i");
    acc(tu, 0, 1, "t", 0, "u");
    par_result *r;
    char err[64];
    CHECK_INT(par_analyze(tu, &r, err, sizeof err), 0);
    CHECK_INT(r->loops[0].verdict, PAR_PARALLEL);
    CHECK_INT(r->loops[0].thread_loop, 1);
    CHECK_INT(r->nstrides, 3);
    CHECK_INT(r->strides[0].cls, IP_COALESCED);
    CHECK_INT(r->strides[1].cls, IP_COALESCED);
    CHECK_INT(r->strides[2].cls, IP_IRREGULAR);
    CHECK(r->strides[2].stride == NULL);
    CHECK_INT(r->strides[2].inner_cls, IP_IRREGULAR);
    CHECK_STR(r->loops[0].coalescing, "2 coalesced, 1 irregular");
    par_free(r);
    ir_tu_free(tu);
}

int main(void)
{
    test_control();
    test_stepped();
    test_pointer_iv();
    test_folds();
    test_clauses();
    test_indirect_strides();
    return check_summary();
}
