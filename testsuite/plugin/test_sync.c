/*
 * test_sync.c -- nests that never go to the GPU: OpenMP synchronisation
 * constructs, lock and atomic calls, spin-waits, and calls whose work the
 * nest's cost leaves out.  Each snippet is walked with -fopenmp and run
 * through the dependence test and the GPU mapping; the checks are the
 * exact verdicts, reasons and thread loops keelcc stores.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "launch.h"
#include "parallel.h"
#include "sync.h"
#include "walk_src.h"
#include "walker.h"

static char tmpdir[] = "/tmp/keel-sync-XXXXXX";

static ir_tu *walk_src(const char *name, const char *src)
{
    const char *args[] = { "-fopenmp" };
    return walk_src_in(tmpdir, name, src, 1, args);
}

/* Expected per outermost nest: its line, the dependence verdict and reason
 * of its root, whether launch_analyze lets any of its loops be a GPU
 * thread loop, and whether sync_nest_blocked keeps it off (with why). */
typedef struct {
    int line;
    const char *verdict, *reason;
    int threads;
    const char *blocked;     /* NULL: not blocked */
} want_t;

static void check_nests(const char *name, const char *src, const want_t *w, int nw)
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
    int k = 0;
    for (int l = 0; l < tu->nloops && par && lr; l++) {
        if (tu->loops[l].parent >= 0)
            continue;
        CHECK(k < nw);
        if (k >= nw)
            break;
        CHECK_INT(tu->loops[l].line, w[k].line);
        CHECK_STR(par_verdict_name(par->loops[l].verdict), w[k].verdict);
        CHECK_STR(par->loops[l].reason, w[k].reason);
        int threads = 0;
        const launch_nest *n = &lr->nests[l];
        for (int r = 0; r < n->nroles; r++)
            threads += n->roles[r].thread;
        CHECK_INT(threads, w[k].threads);
        CHECK_INT(lr->parallel[l], w[k].threads > 0 && !n->region);
        char why[256] = "";
        int b = sync_nest_blocked(tu, l, why, sizeof why);
        CHECK_INT(b, w[k].blocked != NULL);
        if (w[k].blocked)
            CHECK_STR(why, w[k].blocked);
        k++;
    }
    CHECK_INT(k, nw);
    launch_free(lr);
    par_free(par);
    ir_tu_free(tu);
}

/* OpenMP constructs inside `omp for` loops: the pragma would make them
 * GPU loops; synchronisation keeps them on the CPU.  A critical or atomic
 * update is still read by the dependence test (a reduction). */
static void test_constructs(void)
{
    const char *src =
        "void f(int n, double *a, int *flag, double *s) {\n"                 /* 1 */
        "#pragma omp parallel\n"                                              /* 2 */
        "  {\n"                                                               /* 3 */
        "#pragma omp for\n"                                                   /* 4 */
        "  for (int i = 1; i < n; i++) {\n"                                   /* 5 */
        "    while (flag[i - 1] == 0) {\n"                                    /* 6 */
        "#pragma omp flush(flag)\n"                                           /* 7 */
        "      ;\n"                                                           /* 8 */
        "    }\n"                                                             /* 9 */
        "    a[i] += a[i - 1];\n"                                             /* 10 */
        "  }\n"                                                               /* 11 */
        "#pragma omp for\n"                                                   /* 12 */
        "  for (int i = 0; i < n; i++) {\n"                                   /* 13 */
        "#pragma omp critical\n"                                              /* 14 */
        "    s[0] += a[i];\n"                                                 /* 15 */
        "  }\n"                                                               /* 16 */
        "#pragma omp for\n"                                                   /* 17 */
        "  for (int i = 0; i < n; i++) {\n"                                   /* 18 */
        "#pragma omp atomic\n"                                                /* 19 */
        "    s[0] += a[i];\n"                                                 /* 20 */
        "  }\n"                                                               /* 21 */
        "#pragma omp for\n"                                                   /* 22 */
        "  for (int i = 0; i < n; i++)\n"                                     /* 23 */
        "    a[i] = 2 * a[i];\n"                                              /* 24 */
        "  }\n"                                                               /* 25 */
        "}\n";
    want_t w[] = {
        { 5, "unknown", "synchronisation: omp flush(flag) (line 7)", 0,
          "synchronisation: omp flush(flag) (line 7)" },
        { 13, "reduction", "only reductions are carried: s[0] (+)", 0,
          "synchronisation: omp critical (line 14)" },
        { 18, "reduction", "only reductions are carried: s[0] (+)", 0,
          "synchronisation: omp atomic (line 19)" },
        { 23, "parallel", "no dependence carried", 1, NULL },
    };
    check_nests("constructs.c", src, w, 4);
}

/* A lock and a spin-wait with no pragma at all. */
static void test_calls_and_spins(void)
{
    const char *src =
        "#include <omp.h>\n"                                                  /* 1 */
        "void g(int n, double *a, omp_lock_t *lk, volatile int *ready) {\n"   /* 2 */
        "#pragma omp parallel for\n"                                          /* 3 */
        "  for (int i = 0; i < n; i++) {\n"                                   /* 4 */
        "    omp_set_lock(lk);\n"                                             /* 5 */
        "    a[0] += a[i + 1];\n"                                             /* 6 */
        "    omp_unset_lock(lk);\n"                                           /* 7 */
        "  }\n"                                                               /* 8 */
        "#pragma omp parallel for\n"                                          /* 9 */
        "  for (int i = 0; i < n; i++) {\n"                                   /* 10 */
        "    while (ready[i] == 0)\n"                                         /* 11 */
        "      ;\n"                                                           /* 12 */
        "    a[i] = 1;\n"                                                     /* 13 */
        "  }\n"                                                               /* 14 */
        "}\n";
    want_t w[] = {
        { 4, "unknown", "calls omp_set_lock (line 5)", 0,
          "synchronisation: calls omp_set_lock (line 5)" },
        { 10, "unknown", "synchronisation: spin-wait on shared data (line 11)", 0,
          "synchronisation: spin-wait on shared data (line 11)" },
    };
    check_nests("calls.c", src, w, 2);
}

/* A time loop around parallel nests is one GPU region -- unless it calls
 * a function whose loops its cost would leave out; an `omp parallel for`
 * over a call is never a GPU loop either. */
static void test_callees(void)
{
    const char *src =
        "void work(int n, double *x);\n"                                      /* 1 */
        "void h(int n, int steps, double *x, double *y) {\n"                  /* 2 */
        "  for (int t = 0; t < steps; t++) {\n"                               /* 3 */
        "    work(n, x);\n"                                                   /* 4 */
        "#pragma omp parallel for\n"                                          /* 5 */
        "    for (int i = 0; i < n; i++)\n"                                   /* 6 */
        "      y[i] = x[i] * 2;\n"                                            /* 7 */
        "  }\n"                                                               /* 8 */
        "  for (int t = 0; t < steps; t++) {\n"                               /* 9 */
        "#pragma omp parallel for\n"                                          /* 10 */
        "    for (int i = 0; i < n; i++)\n"                                   /* 11 */
        "      y[i] = x[i] * 2;\n"                                            /* 12 */
        "  }\n"                                                               /* 13 */
        "#pragma omp parallel for\n"                                          /* 14 */
        "  for (int i = 0; i < n; i++)\n"                                     /* 15 */
        "    work(i, y);\n"                                                   /* 16 */
        "}\n";
    want_t w[] = {
        { 3, "unknown", "cost of callee work (line 4) unknown: not defined in this source", 0,
          "cost of callee work (line 4) unknown: not defined in this source" },
        { 9, "parallel", "no dependence carried", 1, NULL },
        { 15, "unknown", "cost of callee work (line 16) unknown: not defined in this source", 0,
          "cost of callee work (line 16) unknown: not defined in this source" },
    };
    check_nests("callees.c", src, w, 3);
}

/* One label for one loop: two CSR products that differ only in the name
 * of their accumulator get the same verdict (a name inside another name,
 * `d` in `colidx`, is no second use of it). */
static void test_same_label(void)
{
    const char *src =
        "void spmv(int n, const int *rowstr, const int *colidx, const double *a,\n" /* 1 */
        "          const double *p, double *q, double *r) {\n"                   /* 2 */
        "  double sum, d;\n"                                                     /* 3 */
        "  for (int j = 0; j < n; j++) {\n"                                      /* 4 */
        "    sum = 0.0;\n"                                                       /* 5 */
        "    for (int k = rowstr[j]; k < rowstr[j + 1]; k++)\n"                  /* 6 */
        "      sum = sum + a[k] * p[colidx[k]];\n"                               /* 7 */
        "    q[j] = sum;\n"                                                      /* 8 */
        "  }\n"                                                                  /* 9 */
        "  for (int j = 0; j < n; j++) {\n"                                      /* 10 */
        "    d = 0.0;\n"                                                         /* 11 */
        "    for (int k = rowstr[j]; k < rowstr[j + 1]; k++)\n"                  /* 12 */
        "      d = d + a[k] * p[colidx[k]];\n"                                   /* 13 */
        "    r[j] = d;\n"                                                        /* 14 */
        "  }\n"                                                                  /* 15 */
        "}\n";
    ir_tu *tu = walk_src("labels.c", src);
    CHECK(tu != NULL);
    if (!tu)
        return;
    par_result *par = NULL;
    char err[256];
    CHECK_INT(par_analyze(tu, &par, err, sizeof err), 0);
    CHECK_INT(tu->nloops, 4);
    if (par && tu->nloops == 4) {
        CHECK_INT(tu->loops[1].line, 6);
        CHECK_STR(par_verdict_name(par->loops[1].verdict), "reduction");
        CHECK_STR(par->loops[1].reason, "only reductions are carried: sum (+)");
        CHECK_INT(tu->loops[3].line, 12);
        CHECK_STR(par_verdict_name(par->loops[3].verdict), "reduction");
        CHECK_STR(par->loops[3].reason, "only reductions are carried: d (+)");
        CHECK_STR(par_verdict_name(par->loops[0].verdict), par_verdict_name(par->loops[2].verdict));
    }
    par_free(par);
    ir_tu_free(tu);
}

/* A barrier between the work-shared loops of a time loop the whole team
 * runs only separates them (GPU kernels end in one anyway): the time loop
 * stays an offload region; the barrier is no synchronisation of it. */
static void test_barrier_between(void)
{
    const char *src =
        "void t(int n, int steps, double *x, double *y) {\n"                /* 1 */
        "#pragma omp parallel\n"                                             /* 2 */
        "  {\n"                                                              /* 3 */
        "  for (int s = 0; s < steps; s++) {\n"                              /* 4 */
        "#pragma omp for\n"                                                  /* 5 */
        "    for (int i = 0; i < n; i++)\n"                                  /* 6 */
        "      y[i] = x[i] * 2;\n"                                           /* 7 */
        "#pragma omp barrier\n"                                              /* 8 */
        "#pragma omp for\n"                                                  /* 9 */
        "    for (int i = 0; i < n; i++)\n"                                  /* 10 */
        "      x[i] = y[i] + 1;\n"                                           /* 11 */
        "  }\n"                                                              /* 12 */
        "  }\n"                                                              /* 13 */
        "}\n";
    ir_tu *tu = walk_src("between.c", src);
    CHECK(tu != NULL);
    if (!tu)
        return;
    CHECK_INT(tu->nloops, 3);
    if (tu->nloops == 3) {
        CHECK_STR(tu->loops[0].sync, "omp barrier");
        CHECK_INT(tu->loops[0].sync_line, 8);
        char why[256] = "";
        CHECK_INT(sync_nest_blocked(tu, 0, why, sizeof why), 0);
        CHECK_STR(why, "");
        par_result *par = NULL;
        launch_result *lr = NULL;
        char err[256];
        CHECK_INT(par_analyze(tu, &par, err, sizeof err), 0);
        CHECK_INT(launch_analyze(tu, par, &lr, err, sizeof err), 0);
        if (lr) {
            CHECK_INT(lr->nests[0].region, 1);
            CHECK_INT(lr->nests[0].nroles, 3);
            if (lr->nests[0].nroles == 3) {
                CHECK_INT(lr->nests[0].roles[1].kernel, 1);
                CHECK_INT(lr->nests[0].roles[2].kernel, 1);
            }
        }
        launch_free(lr);
        par_free(par);
    }
    ir_tu_free(tu);
}

int main(void)
{
    if (!mkdtemp(tmpdir))
        return 1;
    test_constructs();
    test_calls_and_spins();
    test_callees();
    test_same_label();
    test_barrier_between();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return check_summary();
}
