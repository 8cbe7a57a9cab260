/*
 * test_omp.c -- the OpenMP directive parser and the GPU mapping table.
 *
 * Parser: construct words and clauses of pragma strings, exact names and
 * argument texts; words inside clause arguments (`former`) are not
 * constructs.  Mapping: for every combined construct (with and without
 * collapse) on hand-built loop nests, the role of each loop, the collapsed
 * count and the fastest thread index, as clang-19's NVPTX offload runs it.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "omp_pragmas.h"

static omp_directive P(const char *text)
{
    omp_directive d;
    char err[128];
    CHECK_INT(omp_parse(text, &d, err, sizeof err), 0);
    return d;
}

static const char *arg(const omp_directive *d, const char *clause)
{
    const omp_clause *c = omp_clause_find(d, clause);
    return c ? (c->args ? c->args : "") : "(absent)";
}

static void test_parse(void)
{
    omp_directive d = P("omp target teams distribute parallel for collapse(2) "
                        "map(tofrom: C[0:n*m]) map(to: A[:n], B[:m]) num_teams(64) thread_limit(256)");
    CHECK_INT(d.is_omp, 1);
    CHECK_STR(d.name, "target teams distribute parallel for");
    CHECK_INT(d.constructs, OMP_TARGET | OMP_TEAMS | OMP_DISTRIBUTE | OMP_PARALLEL | OMP_FOR);
    CHECK_INT(d.nclauses, 5);
    CHECK_INT(omp_collapse(&d), 2);
    CHECK_STR(arg(&d, "map"), "tofrom: C[0:n*m]");
    CHECK_STR(d.clauses[2].args, "to: A[:n], B[:m]");
    CHECK_STR(arg(&d, "num_teams"), "64");
    CHECK_STR(arg(&d, "thread_limit"), "256");
    CHECK_INT(omp_is_loop_construct(&d), 1);
    CHECK_INT(omp_is_standalone(&d), 0);
    omp_free(&d);

    /* `for` inside a clause argument is not the for construct */
    d = P("omp target data map(tofrom: former[0:n]) map(to: forward)");
    CHECK_STR(d.name, "target data");
    CHECK_INT(d.constructs, OMP_TARGET | OMP_DATA);
    CHECK_INT(omp_is_loop_construct(&d), 0);
    CHECK_INT(omp_collapse(&d), 1);
    omp_free(&d);
    CHECK_INT(omp_text_is_parallel_loop("omp target map(tofrom: former[0:n])"), 0);
    CHECK_INT(omp_text_is_parallel_loop("omp parallel for"), 1);
    CHECK_INT(omp_text_is_parallel_loop("omp simd"), 1);
    CHECK_INT(omp_text_is_parallel_loop("omp parallel"), 0);
    CHECK_INT(omp_text_is_parallel_loop("GCC unroll 4"), 0);

    d = P("#pragma omp parallel for schedule(dynamic, 4) reduction(+:s) private(i,j) "
          "firstprivate(x) if(parallel: n > 100) nowait");
    CHECK_STR(d.name, "parallel for");
    CHECK_INT(d.nclauses, 6);
    CHECK_STR(arg(&d, "schedule"), "dynamic, 4");
    CHECK_STR(arg(&d, "reduction"), "+:s");
    CHECK_STR(arg(&d, "private"), "i,j");
    CHECK_STR(arg(&d, "firstprivate"), "x");
    CHECK_STR(arg(&d, "if"), "parallel: n > 100");
    CHECK_STR(arg(&d, "nowait"), "");
    CHECK_STR(arg(&d, "collapse"), "(absent)");
    omp_free(&d);

    d = P("omp parallel for simd collapse( 3 ) simdlen(8)");
    CHECK_INT(d.constructs, OMP_PARALLEL | OMP_FOR | OMP_SIMD);
    CHECK_INT(omp_collapse(&d), 3);
    omp_free(&d);
    d = P("omp parallel for collapse(N)");   /* not a literal: 1 */
    CHECK_INT(omp_collapse(&d), 1);
    omp_free(&d);

    /* standalone and declarative directives */
    const char *standalone[] = { "omp barrier", "omp taskwait", "omp flush(a)",
                                 "omp target update to(a[0:n])", "omp target enter data map(to: a)",
                                 "omp target exit data map(from: a)", "omp cancel for",
                                 "omp declare target", "omp end declare target",
                                 "omp begin declare variant match(device={kind(host)})",
                                 "omp threadprivate(x)", "omp ordered depend(sink: i-1)" };
    for (size_t i = 0; i < sizeof standalone / sizeof *standalone; i++) {
        d = P(standalone[i]);
        if (!omp_is_standalone(&d))
            fprintf(stderr, "not standalone: %s\n", standalone[i]);
        CHECK_INT(omp_is_standalone(&d), 1);
        CHECK_INT(omp_is_loop_construct(&d), 0);
        omp_free(&d);
    }
    d = P("omp declare variant(foo_gpu) match(device={arch(nvptx)})");
    CHECK_STR(d.name, "declare variant");
    CHECK_INT(d.constructs & OMP_DECLARE, OMP_DECLARE);
    CHECK_STR(arg(&d, "match"), "device={arch(nvptx)}");
    omp_free(&d);
    d = P("omp critical(update_lock) hint(0)");
    CHECK_STR(d.name, "critical");
    CHECK_INT(omp_is_standalone(&d), 0);
    omp_free(&d);
    d = P("omp ordered simd");
    CHECK_STR(d.name, "ordered");
    CHECK_INT(omp_is_loop_construct(&d), 0);
    omp_free(&d);
    d = P("omp atomic update");
    CHECK_STR(d.name, "atomic");
    CHECK_STR(arg(&d, "update"), "");
    omp_free(&d);
    d = P("omp teams loop reduction(+:s)");
    CHECK_INT(d.constructs, OMP_TEAMS | OMP_LOOP);
    omp_free(&d);

    /* not OpenMP */
    d = P("GCC unroll 4");
    CHECK_INT(d.is_omp, 0);
    CHECK_INT(d.constructs, 0);
    omp_free(&d);
    d = P("ompx_something");
    CHECK_INT(d.is_omp, 0);
    omp_free(&d);

    omp_directive bad;
    char err[128];
    CHECK_INT(omp_parse("omp parallel for reduction(+:s", &bad, err, sizeof err), -1);
    omp_free(&bad);

    CHECK_INT(omp_text_is_target_region("omp target data map(to: a)"), 1);
    CHECK_INT(omp_text_is_target_region("omp target enter data map(to: a)"), 0);
    CHECK_INT(omp_text_is_target_region("omp target update from(a)"), 0);
    CHECK_INT(omp_text_is_target_region("omp teams distribute"), 0);
    CHECK_INT(omp_text_has_clause("omp target if(target: n > 10)", "if"), 1);
    CHECK_INT(omp_text_has_clause("omp target map(to: if_x)", "if"), 0);
}

/* A nest of `depth` perfectly nested loops i, j, k with the pragmas given
 * per level (NULL: none; "a|b" two pragma lines). */
static ir_tu *nest(int depth, const char *const *pragmas)
{
    static const char *const ivs[] = { "i", "j", "k" };
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    for (int d = 0; d < depth; d++) {
        int l = ir_add_loop(tu, 0, d - 1, IR_FOR, "t.c", 10 + d, 1);
        ir_set_bounds(&tu->loops[l], ivs[d], kx_int(0), kx_sym("n"), 1);
        if (pragmas && pragmas[d]) {
            char buf[256];
            snprintf(buf, sizeof buf, "%s", pragmas[d]);
            for (char *s = buf, *bar; s; s = bar) {
                bar = strchr(s, '|');
                if (bar)
                    *bar++ = '\0';
                ir_add_pragma(&tu->loops[l], s);
            }
        }
    }
    return tu;
}

/* "grid,seq" roles of the loops, then " fastest=N collapse=N". */
static char *roles(const char *p0, const char *p1, const char *p2, int depth)
{
    static char out[8][128];
    static int k;
    k = (k + 1) % 8;
    const char *pr[3] = { p0, p1, p2 };
    ir_tu *tu = nest(depth, pr);
    CHECK_INT(omp_map_tu(tu), 0);
    size_t n = 0;
    out[k][0] = '\0';
    for (int l = 0; l < tu->nloops; l++)
        n += (size_t)snprintf(out[k] + n, sizeof out[k] - n, "%s%s", l ? "," : "",
                              tu->loops[l].gpu_map ? omp_map_role_name(tu->loops[l].gpu_map) : "-");
    snprintf(out[k] + n, sizeof out[k] - n, " fastest=%d collapse=%d", tu->loops[0].gpu_fastest,
             tu->loops[0].gpu_collapse);
    ir_tu_free(tu);
    return out[k];
}

static void test_mapping(void)
{
    /* target teams distribute parallel for [simd]: SPMD, i to teams x threads */
    CHECK_STR(roles("omp target teams distribute parallel for", NULL, NULL, 2),
              "grid,seq fastest=0 collapse=1");
    CHECK_STR(roles("omp target teams distribute parallel for collapse(2)", NULL, NULL, 2),
              "collapsed,grid fastest=1 collapse=2");
    CHECK_STR(roles("omp target teams distribute parallel for collapse(2)", NULL, NULL, 3),
              "collapsed,grid,seq fastest=1 collapse=2");
    CHECK_STR(roles("omp target teams distribute parallel for collapse(3)", NULL, NULL, 2),
              "collapsed,grid fastest=1 collapse=2");   /* the nest ends the space */
    CHECK_STR(roles("omp target teams distribute parallel for simd", NULL, NULL, 2),
              "grid,seq fastest=0 collapse=1");
    CHECK_STR(roles("omp target teams distribute parallel for simd collapse(2)", NULL, NULL, 2),
              "collapsed,grid fastest=1 collapse=2");
    /* split over two lines: one combined construct */
    CHECK_STR(roles("omp target map(to: a)|omp teams distribute parallel for", NULL, NULL, 2),
              "grid,seq fastest=0 collapse=1");
    /* teams loop: lowered as teams distribute parallel for */
    CHECK_STR(roles("omp target teams loop", NULL, NULL, 2), "grid,seq fastest=0 collapse=1");
    /* target parallel for: one team's threads */
    CHECK_STR(roles("omp target parallel for", NULL, NULL, 2), "threads,seq fastest=0 collapse=1");
    CHECK_STR(roles("omp target parallel for collapse(2)", NULL, NULL, 2),
              "collapsed,threads fastest=1 collapse=2");
    /* target teams distribute: generic mode, a team per chunk */
    CHECK_STR(roles("omp target teams distribute", NULL, NULL, 2), "teams,seq fastest=0 collapse=1");
    CHECK_STR(roles("omp target teams distribute collapse(2)", NULL, NULL, 2),
              "collapsed,teams fastest=1 collapse=2");
    /* ... with a nested parallel for: the team's threads take j */
    CHECK_STR(roles("omp target teams distribute", "omp parallel for", NULL, 2),
              "teams,threads fastest=1 collapse=1");
    CHECK_STR(roles("omp target teams distribute", "omp parallel for", NULL, 3),
              "teams,threads,seq fastest=1 collapse=1");
    CHECK_STR(roles("omp target teams distribute", NULL, "omp parallel for", 3),
              "teams,seq,threads fastest=2 collapse=1");
    /* simd under a team's loop: one lane on NVPTX */
    CHECK_STR(roles("omp target teams distribute", "omp simd", NULL, 2),
              "teams,seq fastest=0 collapse=1");
    /* host constructs: mapped as their direct port */
    CHECK_STR(roles("omp parallel for", NULL, NULL, 2), "grid,seq fastest=0 collapse=1");
    CHECK_STR(roles("omp parallel for collapse(2)", NULL, NULL, 2),
              "collapsed,grid fastest=1 collapse=2");
    CHECK_STR(roles(NULL, "omp parallel for", NULL, 2), "-,grid fastest=1 collapse=0");
    /* no loop construct: keel's own choice at run time */
    CHECK_STR(roles(NULL, NULL, NULL, 2), "-,- fastest=-1 collapse=0");
    CHECK_STR(roles("omp target data map(tofrom: former[0:n])", NULL, NULL, 2),
              "-,- fastest=-1 collapse=0");
    CHECK_STR(roles("omp barrier", NULL, NULL, 1), "- fastest=-1 collapse=0");
    /* clauses carried to the loop */
    const char *p[1] = { "omp target teams distribute parallel for num_teams(nt) thread_limit(64)" };
    ir_tu *tu = nest(1, p);
    CHECK_INT(omp_map_tu(tu), 0);
    CHECK_STR(tu->loops[0].gpu_teams, "nt");
    CHECK_STR(tu->loops[0].gpu_threads, "64");
    ir_tu_free(tu);

    /* clang-19 defaults: 128 threads, ceil(trip/128) teams (SPMD), trip teams (generic), cap 3200 */
    CHECK_INT(omp_default_teams(1024, 1, 0), 8);
    CHECK_INT(omp_default_teams(1025, 1, 128), 9);
    CHECK_INT(omp_default_teams(100, 0, 128), 100);
    CHECK_INT(omp_default_teams(10000000, 1, 128), 3200);
    CHECK_INT(OMP_GPU_DEFAULT_THREADS, 128);
}

/* A sequential time loop around two kernels: each kernel is mapped. */
static void test_time_loop(void)
{
    ir_tu *tu = ir_tu_new("t.c");
    ir_add_function(tu, "f", "t.c", 1, 1);
    int t = ir_add_loop(tu, 0, -1, IR_FOR, "t.c", 1, 1);
    int a = ir_add_loop(tu, 0, t, IR_FOR, "t.c", 3, 1);
    int a2 = ir_add_loop(tu, 0, a, IR_FOR, "t.c", 4, 1);
    int b = ir_add_loop(tu, 0, t, IR_FOR, "t.c", 6, 1);
    ir_add_pragma(&tu->loops[a], "omp target teams distribute parallel for");
    ir_add_pragma(&tu->loops[b], "omp target teams distribute parallel for");
    CHECK_INT(omp_map_tu(tu), 0);
    CHECK_INT(tu->loops[t].gpu_map, OMP_MAP_NONE);
    CHECK_INT(tu->loops[a].gpu_map, OMP_MAP_GRID);
    CHECK_INT(tu->loops[a2].gpu_map, OMP_MAP_SEQ);
    CHECK_INT(tu->loops[b].gpu_map, OMP_MAP_GRID);
    CHECK_INT(tu->loops[t].gpu_fastest, a);
    ir_tu_free(tu);
}

int main(void)
{
    test_parse();
    test_mapping();
    test_time_loop();
    return check_summary();
}
