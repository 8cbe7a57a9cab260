/*
 * test_callee.c -- a call inside a loop nest brings in the cost of the
 * callee's loops (same source, trip counts over the call's arguments), an
 * unknown callee keeps the nest on the CPU with the reason, and harmless
 * calls (timers, math functions) neither stop the dependence test nor make
 * the cost unknown.  Each snippet is walked with -fopenmp; the checks are
 * the exact statement costs launch_analyze stores, the verdicts, and
 * sync_nest_blocked's reasons.
 *
 * Costs by hand (launch.h's table: fadd/fmul 1 cycle, 1 GPU instruction;
 * a load or store 0.5 cycle, 2 GPU instructions; math call 20 and 20;
 * plus 1 cycle and 2 instructions of loop control per callee iteration).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callee.h"
#include "check.h"
#include "launch.h"
#include "parallel.h"
#include "sync.h"
#include "walk_src.h"
#include "walker.h"

static char tmpdir[] = "/tmp/keel-callee-XXXXXX";

static ir_tu *walk_src(const char *name, const char *src)
{
    const char *args[] = { "-fopenmp" };
    return walk_src_in(tmpdir, name, src, 1, args);
}

/* The statement index (IR order) of the first statement on `line`. */
static int stmt_at(const ir_tu *tu, int line, int *loop, int *si)
{
    int s = 0;
    for (int l = 0; l < tu->nloops; l++)
        for (int k = 0; k < tu->loops[l].nstmts; k++, s++)
            if (tu->loops[l].stmts[k].line == line) {
                *loop = l;
                *si = k;
                return s;
            }
    return -1;
}

typedef struct {
    int line;                 /* the calling statement */
    double cycles, insts, flops;   /* its stored cost; cycles < 0: unknown */
    const char *why;          /* unknown: the reason */
    int nest_line;            /* the outermost nest around it */
    const char *verdict;      /* its dependence verdict */
    int threads;              /* GPU thread loops of that nest */
} want_t;

static void check_calls(const char *name, const char *src, const want_t *w, int nw)
{
    ir_tu *tu = walk_src(name, src);
    CHECK(tu != NULL);
    if (!tu)
        return;
    par_result *par = NULL;
    launch_result *lr = NULL;
    char err[256];
    CHECK_INT(par_analyze(tu, &par, err, sizeof err), 0);
    CHECK_INT(launch_analyze(tu, par, &lr, err, sizeof err), 0);
    for (int k = 0; k < nw && par && lr; k++) {
        int l = -1, si = -1, s = stmt_at(tu, w[k].line, &l, &si);
        CHECK(s >= 0);
        if (s < 0)
            continue;
        launch_cost add;
        char why[256] = "";
        int rc = callee_stmt_cost(tu, l, si, &add, why, sizeof why);
        if (w[k].cycles < 0) {
            CHECK_INT(rc, 1);
            CHECK_STR(why, w[k].why);
        } else {
            CHECK_INT(rc, 0);
            CHECK(lr->costs[s].cycles == w[k].cycles);
            CHECK(lr->costs[s].gpu_insts == w[k].insts);
            CHECK(lr->costs[s].flops == w[k].flops);
            if (lr->costs[s].cycles != w[k].cycles || lr->costs[s].gpu_insts != w[k].insts)
                fprintf(stderr, "line %d: cost %g cycles %g insts %g flops\n", w[k].line,
                        lr->costs[s].cycles, lr->costs[s].gpu_insts, lr->costs[s].flops);
        }
        int root = l;
        while (tu->loops[root].parent >= 0)
            root = tu->loops[root].parent;
        CHECK_INT(tu->loops[root].line, w[k].nest_line);
        CHECK_STR(par_verdict_name(par->loops[root].verdict), w[k].verdict);
        int threads = 0;
        for (int r = 0; r < lr->nests[root].nroles; r++)
            threads += lr->nests[root].roles[r].thread;
        CHECK_INT(threads, w[k].threads);
        char bw[256] = "";
        int b = sync_nest_blocked(tu, root, bw, sizeof bw);
        CHECK_INT(b, w[k].cycles < 0);
        if (w[k].cycles < 0)
            CHECK_STR(bw, w[k].why);
    }
    launch_free(lr);
    par_free(par);
    ir_tu_free(tu);
}

/* A nest calling a function of the same file whose loop runs n times, n
 * given at the call: scale's statement is fmul + 2 accesses = 2 cycles,
 * 1 + 4 = 5 instructions, 1 flop; with loop control 3 cycles and 7
 * instructions an iteration.  64 iterations: 192 cycles, 448
 * instructions, 64 flops; the call's own statement reads a[i] (0.5 cycle,
 * 2 instructions): 192.5, 450, 64.  Through a second function that
 * passes 2*k (k = 16 at the call): the same 32 * 2 = 64 iterations, and
 * its own loop of 3 iterations around a sqrt (20 + 3 control... see
 * below).  A trip over a run-time argument, an external callee, an
 * external call inside a callee (inside or outside its loops, directly or
 * through another callee), recursion: unknown. */
static void test_costs(void)
{
    const char *src =
        "#include <math.h>\nstatic void rec(double *x, int d);"              /* 1 */
        "void ext(double *x); static void chain(double *x);\n"                /* 2 */
        "static void scale(double *x, int n) {\n"                             /* 3 */
        "  for (int j = 0; j < n; j++)\n"                                     /* 4 */
        "    x[j] = x[j] * 2.0;\n"                                            /* 5 */
        "}\n"                                                                 /* 6 */
        "static void twice(double *x, int k) {\n"                             /* 7 */
        "  scale(x, 2 * k);\n"                                                /* 8 */
        "  for (int r = 0; r < 3; r++)\n"                                     /* 9 */
        "    x[r] = sqrt(x[r]);\n"                                            /* 10 */
        "}\n"                                                                 /* 11 */
        "static void leaky(double *x, int n) {\n"                             /* 12 */
        "  for (int j = 0; j < n; j++)\n"                                     /* 13 */
        "    ext(x + j);\n"                                                   /* 14 */
        "}\n"                                                                 /* 15 */
        "static void hidden(double *x) {\n"                                   /* 16 */
        "  ext(x);\n"                                                         /* 17 */
        "}\n"                                                                 /* 18 */
        "void caller(int m, double (*a)[64]) {\n"                             /* 19 */
        "#pragma omp parallel for\n"                                          /* 20 */
        "  for (int i = 0; i < m; i++)\n"                                     /* 21 */
        "    scale(a[i], 64);\n"                                              /* 22 */
        "#pragma omp parallel for\n"                                          /* 23 */
        "  for (int i = 0; i < m; i++)\n"                                     /* 24 */
        "    twice(a[i], 16);\n"                                              /* 25 */
        "#pragma omp parallel for\n"                                          /* 26 */
        "  for (int i = 0; i < m; i++)\n"                                     /* 27 */
        "    scale(a[i], m);\n"                                               /* 28 */
        "#pragma omp parallel for\n"                                          /* 29 */
        "  for (int i = 0; i < m; i++)\n"                                     /* 30 */
        "    ext(a[i]);\n"                                                    /* 31 */
        "#pragma omp parallel for\n"                                          /* 32 */
        "  for (int i = 0; i < m; i++)\n"                                     /* 33 */
        "    leaky(a[i], 4);\n"                                               /* 34 */
        "#pragma omp parallel for\n"                                          /* 35 */
        "  for (int i = 0; i < m; i++)\n"                                     /* 36 */
        "    hidden(a[i]);\n"                                                 /* 37 */
        "  for (int i = 0; i < m; i++)\n"                                     /* 38 */
        "    chain(a[i]);\n"                                                  /* 39 */
        "  for (int i = 0; i < m; i++)\n"                                     /* 40 */
        "    rec(a[i], 3);\n"                                                 /* 41 */
        "}\n"                                                                 /* 42 */
        "static void chain(double *x) {\n"                                    /* 43 */
        "  for (int k = 0; k < 2; k++)\n"                                     /* 44 */
        "    leaky(x, 4);\n"                                                  /* 45 */
        "}\n"                                                                 /* 46 */
        "static void rec(double *x, int d) {\n"                               /* 47 */
        "  for (int k = 0; k < d; k++)\n"                                     /* 48 */
        "    rec(x, d);\n"                                                    /* 49 */
        "}\n";
    /* twice(a[i], 16): scale over 32 iterations = 96 cycles, 224
     * instructions, 32 flops; its loop: sqrt statement = 20 (math) + 1
     * (two accesses) = 21 cycles, 20 + 4 = 24 instructions, 1 flop, plus
     * control: 22 and 26 per iteration, 3 iterations = 66, 78, 3; the
     * call's own a[i]: 0.5 and 2.  Total 162.5, 304, 35. */
    want_t w[] = {
        { 22, 192.5, 450, 64, NULL, 21, "unknown", 1 },
        { 25, 162.5, 304, 35, NULL, 24, "unknown", 1 },
        { 28, -1, 0, 0, "cost of callee scale (line 28) unknown: the trip count of its "
                        "loop at line 4, n, is not a constant at the call", 27, "unknown", 0 },
        { 31, -1, 0, 0, "cost of callee ext (line 31) unknown: not defined in this source",
          30, "unknown", 0 },
        { 34, -1, 0, 0, "cost of callee leaky (line 34) unknown: it calls ext (line 14): "
                        "not defined in this source", 33, "unknown", 0 },
        { 37, -1, 0, 0, "cost of callee hidden (line 37) unknown: it calls ext (line 17): "
                        "not defined in this source", 36, "unknown", 0 },
        { 39, -1, 0, 0, "cost of callee chain (line 39) unknown: it calls ext (line 14): "
                        "not defined in this source", 38, "unknown", 0 },
        { 41, -1, 0, 0, "cost of callee rec (line 41) unknown: it calls rec (line 49): "
                        "calls nested deeper than 8 (recursion?)", 40, "unknown", 0 },
    };
    check_calls("costs.c", src, w, (int)(sizeof w / sizeof *w));
}

/* Timers and math functions: the dependence test goes on (the loop is
 * parallel), the cost is the statements' own, the nest may be mapped. */
static void test_harmless(void)
{
    const char *src =
        "#include <omp.h>\n"                                                  /* 1 */
        "void timer_start(int n);\n"                                          /* 2 */
        "void timer_stop(int n);\n"                                           /* 3 */
        "void h(int n, double *x, double *y) {\n"                             /* 4 */
        "  double t = 2;\n"                                                   /* 5 */
        "  for (int i = 0; i < n; i++) {\n"                                   /* 6 */
        "    timer_start(2);\n"                                               /* 7 */
        "    y[i] = x[i] + 1.0;\n"                                            /* 8 */
        "    y[i] = y[i] * omp_get_wtime();\n"                                /* 9 */
        "    timer_stop(2);\n"                                                /* 10 */
        "  }\n"                                                               /* 11 */
        "}\n";
    /* timer_start(2): no operation, no access: 0 cycles, 0 instructions;
     * y[i] = y[i] * omp_get_wtime(): one fmul and two accesses: 2 cycles,
     * 5 instructions, 1 flop. */
    want_t w[] = {
        { 7, 0, 0, 0, NULL, 6, "parallel", 1 },
        { 9, 2, 5, 1, NULL, 6, "parallel", 1 },
    };
    check_calls("harmless.c", src, w, (int)(sizeof w / sizeof *w));
    CHECK_INT(sync_call_harmless("timer_start"), 1);
    CHECK_INT(sync_call_harmless("omp_get_wtime"), 1);
    CHECK_INT(sync_call_harmless("sqrtf"), 1);
    CHECK_INT(sync_call_harmless("expl"), 1);
    CHECK_INT(sync_call_harmless("sqrtx"), 0);
    CHECK_INT(sync_call_harmless("conj_grad"), 0);
    CHECK_INT(sync_call_harmless("labs"), 1);
    CHECK_INT(sync_call_harmless("timer_startf"), 0);     /* f/l forms: math only */
    CHECK_INT(sync_math_function("fminf"), 1);
    CHECK_INT(sync_math_function("lgammal"), 1);
    CHECK_INT(sync_math_function("abs"), 0);               /* <stdlib.h>, an integer op */
    CHECK_INT(sync_math_function("timer_start"), 0);
    CHECK_INT(sync_math_function("fabsx"), 0);
    CHECK_INT(sync_call_harmless("vranlc"), 0);
}

int main(void)
{
    if (!mkdtemp(tmpdir))
        return 1;
    test_costs();
    test_harmless();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return check_summary();
}
