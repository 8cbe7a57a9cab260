/*
 * test_launch.c -- the runtime's launch facts (analysis/launch.h) on IR
 * built by hand: the offload verdict per loop, the GPU mapping per launch
 * root (plain nest, OpenMP grid, time-stepped region, a launch at an inner
 * loop), the strides along every enclosing loop and the statement costs.
 *
 * Expected values come from the rules in launch.h, worked out by hand.
 * The recurrence under `target data map(tofrom: former[0:n])` is issue
 * 11's case: the word "for" inside "former" must not make it parallel.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "launch.h"
#include "omp_pragmas.h"

static kx_expr *P(const char *s)
{
    char err[128];
    return kx_parse(s, err, sizeof err);
}

static int loop(ir_tu *tu, int parent, const char *iv, const char *upper, const char *pragma)
{
    int l = ir_add_loop(tu, 0, parent, IR_FOR, "t.c", 10 + tu->nloops, 5);
    ir_set_bounds(&tu->loops[l], iv, kx_int(0), P(upper), 1);
    if (pragma)
        ir_add_pragma(&tu->loops[l], pragma);
    return l;
}

/* array[i0][i1] with extents n x m, or array[i0] as a pointer. */
static void acc(ir_tu *tu, int l, int s, const char *array, int w, const char *i0,
                const char *i1)
{
    int nd = i1 ? 2 : 1;
    kx_expr **ix = malloc(sizeof *ix * 2), **ex = NULL;
    ix[0] = P(i0);
    if (i1) {
        ix[1] = P(i1);
        ex = malloc(sizeof *ex * 2);
        ex[0] = P("n");
        ex[1] = P("m");
    }
    ir_add_access(&tu->loops[l].stmts[s], array, 8, w, nd, ix, i1 ? 2 : 0, ex, 20, 1);
}

static launch_result *run(ir_tu *tu)
{
    par_result *par;
    launch_result *lr = NULL;
    char err[128];
    CHECK_INT(omp_map_tu(tu), 0);
    CHECK_INT(par_analyze(tu, &par, err, sizeof err), 0);
    CHECK_INT(launch_analyze(tu, par, &lr, err, sizeof err), 0);
    par_free(par);
    return lr;
}

/* "T" thread, "K" kernel, "-" neither, per loop of the nest launched at root. */
static const char *roles(const launch_result *r, int root, char *buf)
{
    const launch_nest *n = &r->nests[root];
    int k = 0;
    for (int i = 0; i < n->nroles; i++)
        buf[k++] = n->roles[i].thread ? (n->roles[i].kernel ? 'B' : 'T')
                                      : n->roles[i].kernel ? 'K' : '-';
    buf[k] = '\0';
    return buf;
}

/* gemm: i { j: C[i][j] *= b }  k { j: C[i][j] += A[i][k] * B[k][j] } */
static void test_gemm(void)
{
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    int i = loop(tu, -1, "i", "n", NULL);
    int j1 = loop(tu, i, "j", "m", NULL);
    ir_add_stmt(&tu->loops[j1], 20, 1, "C[i][j] *= b", 0);
    acc(tu, j1, 0, "C", 0, "i", "j");
    acc(tu, j1, 0, "C", 1, "i", "j");
    tu->loops[j1].stmts[0].ops.fmul = 1;
    int k = loop(tu, i, "k", "m", NULL);
    int j2 = loop(tu, k, "j", "m", NULL);
    ir_add_stmt(&tu->loops[j2], 21, 1, "C[i][j] += A[i][k] * B[k][j]", 0);
    acc(tu, j2, 0, "C", 0, "i", "j");
    acc(tu, j2, 0, "A", 0, "i", "k");
    acc(tu, j2, 0, "B", 0, "k", "j");
    acc(tu, j2, 0, "C", 1, "i", "j");
    tu->loops[j2].stmts[0].ops.fadd = 1;
    tu->loops[j2].stmts[0].ops.fmul = 1;
    launch_result *r = run(tu);
    char buf[16];
    CHECK_INT(r->parallel[i], 1);
    CHECK_INT(r->parallel[j1], 1);
    CHECK_INT(r->parallel[k], 0);      /* reduction over k: not for the GPU */
    CHECK_INT(r->parallel[j2], 1);
    /* launched at i: teams over i, threads over the first parallel loops below */
    CHECK_STR(roles(r, i, buf), "-T-T");
    CHECK_INT(r->nests[i].region, 0);
    CHECK_INT(r->nests[i].omp_target, 0);
    /* launched at the sequential k: a region whose kernel is j (its own item) */
    CHECK_STR(roles(r, k, buf), "-B");
    CHECK_INT(r->nests[k].region, 1);
    /* strides of A[i][k] (access 3 in IR order) along k and i: linearised, then per subscript */
    CHECK_INT(r->nstrides[3], 9);     /* j, k, i x (linear, dim 0, dim 1) */
    CHECK_INT(r->strides[3][0].loop, j2);
    CHECK_STR(r->strides[3][0].stride, "0");
    CHECK_INT(r->strides[3][3].loop, k);
    CHECK_STR(r->strides[3][3].stride, "1");
    CHECK_INT(r->strides[3][6].loop, i);
    CHECK_STR(r->strides[3][6].stride, "m");
    CHECK_INT(r->strides[3][7].dim, 0);
    CHECK_STR(r->strides[3][7].stride, "1");
    /* costs: fadd + fmul + 4 accesses x 0.5 cycles; 2 + 8 GPU instructions */
    CHECK_INT((int)(r->costs[1].cycles * 10), 40);
    CHECK_INT((int)r->costs[1].gpu_insts, 10);
    CHECK_INT((int)r->costs[1].flops, 2);
    launch_free(r);
    ir_tu_free(tu);
}

/* issue 11: t { i: former[i] = former[i - 1] + x[i] } under target data with
 * map(tofrom: former[0:n]) -- a recurrence: sequential, and no kernel. */
static void test_target_data_recurrence(void)
{
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    int i = loop(tu, -1, "i", "n", "omp target data map(tofrom: former[0:n])");
    ir_add_stmt(&tu->loops[i], 20, 1, "former[i] = former[i - 1] + x[i]", 0);
    acc(tu, i, 0, "former", 0, "i - 1", NULL);
    acc(tu, i, 0, "x", 0, "i", NULL);
    acc(tu, i, 0, "former", 1, "i", NULL);
    launch_result *r = run(tu);
    char buf[16];
    CHECK_INT(r->parallel[i], 0);
    CHECK_STR(roles(r, i, buf), "-");
    CHECK_INT(r->nests[i].omp_target, 0);   /* target data runs no kernel */
    launch_free(r);
    ir_tu_free(tu);
}

/* target teams distribute parallel for over i, j inside: i is the grid. */
static void test_omp_grid(void)
{
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    int i = loop(tu, -1, "i", "n", "omp target teams distribute parallel for map(tofrom: C[0:n][0:m])");
    int j = loop(tu, i, "j", "m", NULL);
    ir_add_stmt(&tu->loops[j], 20, 1, "C[i][j] = 0", 0);
    acc(tu, j, 0, "C", 1, "i", "j");
    launch_result *r = run(tu);
    char buf[16];
    CHECK_INT(r->parallel[i], 1);
    CHECK_STR(roles(r, i, buf), "T-");
    CHECK_INT(r->nests[i].omp_target, 1);
    launch_free(r);
    ir_tu_free(tu);
}

int main(void)
{
    test_gemm();
    test_target_data_recurrence();
    test_omp_grid();
    return check_summary();
}
