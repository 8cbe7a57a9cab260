/*
 * test_walker.c -- the libclang walker on small C snippets.
 *
 * Each case writes a snippet to a temporary file, walks it, and checks the
 * exact loops (line, iv, bounds, step, trip count, depth, parent, pragmas),
 * statements and accesses it must produce.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "omp_pragmas.h"
#include "walk_src.h"
#include "walker.h"

static char tmpdir[] = "/tmp/keel-walker-XXXXXX";

static ir_tu *walk_src(const char *name, const char *src, int nargs, const char *const *args)
{
    return walk_src_in(tmpdir, name, src, nargs, args);
}

static char *pr(const kx_expr *e)
{
    static char buf[8][256];
    static int k;
    char *s = e ? kx_print(e) : NULL;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s", s ? s : "(null)");
    free(s);
    return buf[k];
}

/* "W A[i][j]" for an access. */
static char *acc(const ir_access *a)
{
    static char buf[8][256];
    static int k;
    k = (k + 1) % 8;
    size_t n = (size_t)snprintf(buf[k], sizeof buf[k], "%c %s", a->is_write ? 'W' : 'R', a->array);
    for (int d = 0; d < a->ndims && n < sizeof buf[k]; d++)
        n += (size_t)snprintf(buf[k] + n, sizeof buf[k] - n, "[%s]", pr(a->index[d]));
    return buf[k];
}

static void test_polybench_style(void)
{
    const char *src =
        "#define N 100\n"                                   /* 1 */
        "#define _PB_N n\n"                                 /* 2 */
        "#define POLYBENCH_2D(v,a,b,c,d) v[a][b]\n"         /* 3 */
        "void kernel(int n, double alpha,\n"                /* 4 */
        "            double POLYBENCH_2D(A,N,N,n,n),\n"     /* 5 */
        "            double POLYBENCH_2D(B,N,N,n,n))\n"     /* 6 */
        "{\n"                                               /* 7 */
        "  int i, j, k;\n"                                  /* 8 */
        "#pragma scop\n"                                    /* 9 */
        "  for (i = 0; i < _PB_N; i++)\n"                   /* 10 */
        "    for (j = 0; j <= i; j++) {\n"                  /* 11 */
        "      for (k = 0; k < j; k++)\n"                   /* 12 */
        "        A[i][j] -= A[i][k] * A[j][k];\n"           /* 13 */
        "      B[j][i] = alpha * A[i][j];\n"                /* 14 */
        "    }\n"                                           /* 15 */
        "#pragma endscop\n"                                 /* 16 */
        "}\n";
    ir_tu *tu = walk_src("pb.c", src, 0, NULL);
    CHECK(tu != NULL);
    if (!tu)
        return;
    CHECK_INT(tu->nfuncs, 1);
    CHECK_STR(tu->funcs[0].name, "kernel");
    CHECK_INT(tu->nloops, 3);

    ir_loop *l0 = &tu->loops[0], *l1 = &tu->loops[1], *l2 = &tu->loops[2];
    CHECK_INT(l0->line, 10);
    CHECK_INT(l0->col, 3);
    CHECK_STR(l0->iv, "i");
    CHECK_STR(pr(l0->lower), "0");
    CHECK_STR(pr(l0->upper), "n");
    CHECK_INT(l0->step, 1);
    CHECK_STR(pr(l0->trip), "n");
    CHECK_INT(l0->depth, 0);
    CHECK_INT(l0->parent, -1);
    CHECK_INT(l0->canonical, 1);
    CHECK_INT(l0->npragmas, 1);
    if (l0->npragmas == 1)
        CHECK_STR(l0->pragmas[0], "scop");
    CHECK_INT(l0->nstmts, 0);

    CHECK_INT(l1->line, 11);
    CHECK_STR(pr(l1->upper), "i + 1");       /* j <= i */
    CHECK_STR(pr(l1->trip), "i + 1");
    CHECK_INT(l1->parent, 0);
    CHECK_INT(l1->depth, 1);
    CHECK_INT(l1->npragmas, 0);              /* scop only on the outermost loop */
    CHECK_INT(l1->nstmts, 1);                /* B[j][i] = ...; the k loop's stmt is its own */

    CHECK_INT(l2->line, 12);
    CHECK_STR(pr(l2->trip), "j");
    CHECK_INT(l2->parent, 1);
    CHECK_INT(l2->depth, 2);
    CHECK_INT(l2->end_line, 13);
    CHECK_INT(l2->nstmts, 1);
    if (l2->nstmts == 1) {
        ir_stmt *s = &l2->stmts[0];
        CHECK_INT(s->line, 13);
        CHECK_STR(s->text, "A[i][j] -= A[i][k] * A[j][k]");
        /* -= reads and writes A[i][j]; the product is a fusable pair */
        CHECK_INT(s->nacc, 4);
        if (s->nacc == 4) {
            CHECK_STR(acc(&s->acc[0]), "R A[i][j]");
            CHECK_STR(acc(&s->acc[1]), "W A[i][j]");
            CHECK_STR(acc(&s->acc[2]), "R A[i][k]");
            CHECK_STR(acc(&s->acc[3]), "R A[j][k]");
            CHECK_INT(s->acc[0].elem_size, 8);
            CHECK_INT(s->acc[0].nextents, 2);
            CHECK_STR(pr(s->acc[0].extent[0]), "100");
            CHECK_STR(pr(s->acc[0].extent[1]), "100");
            CHECK_INT(s->acc[0].affine, 1);
        }
        CHECK_INT(s->ops.fadd, 1);
        CHECK_INT(s->ops.fmul, 1);
        CHECK_INT(s->ops.ffma, 1);
        CHECK_INT(s->ops.iadd, 0);
    }
    if (l1->nstmts == 1) {
        ir_stmt *s = &l1->stmts[0];
        CHECK_INT(s->line, 14);
        CHECK_INT(s->nacc, 2);
        if (s->nacc == 2) {
            CHECK_STR(acc(&s->acc[0]), "W B[j][i]");
            CHECK_STR(acc(&s->acc[1]), "R A[i][j]");
        }
        CHECK_INT(s->nscalars, 1);
        if (s->nscalars == 1) {
            CHECK_STR(s->scalars[0].name, "alpha");
            CHECK_INT(s->scalars[0].is_write, 0);
        }
        CHECK_INT(s->ops.fmul, 1);
        CHECK_INT(s->ops.ffma, 0);
    }
    ir_tu_free(tu);
}

static void test_headers_and_steps(void)
{
    const char *src =
        "void f(int n, int m, double *p, double B[n][m], double C[][8], int *idx)\n" /* 1 */
        "{\n"                                                      /* 2 */
        "  int i, j;\n"                                            /* 3 */
        "  double s = 0;\n"                                        /* 4 */
        "  for (i = 0; i < n; i += 2)\n"                           /* 5 */
        "    p[i*m + 1] = B[i][j] + C[i][3];\n"                    /* 6 */
        "  for (j = n - 1; j >= 0; j--)\n"                         /* 7 */
        "    s += p[idx[j]];\n"                                    /* 8 */
        "  for (;;) {\n"                                           /* 9 */
        "    if (s > 10) break;\n"                                 /* 10 */
        "    s = s * 2;\n"                                         /* 11 */
        "  }\n"                                                    /* 12 */
        "  for (i = 0, j = 5; n > i; ++i, j++)\n"                  /* 13 */
        "    s += i;\n"                                            /* 14 */
        "  for (int k = 3; k < n; k = k + 3)\n"                    /* 15 */
        "    s -= k;\n"                                            /* 16 */
        "  i = 0;\n"                                               /* 17 */
        "  while (i < n) { i++; if (i == 7) return; }\n"           /* 18 */
        "  do { s /= 2; } while (s > 1);\n"                        /* 19 */
        "  for (i = 0; i < n; i++)\n"                              /* 20 */
        "    for (j = 0; j < m; j++) { if (j > i) continue; s += 1; }\n" /* 21 */
        "}\n";
    ir_tu *tu = walk_src("hs.c", src, 0, NULL);
    CHECK(tu != NULL);
    if (!tu)
        return;
    CHECK_INT(tu->nloops, 9);
    if (tu->nloops != 9) {
        ir_dump(tu, stderr);
        ir_tu_free(tu);
        return;
    }
    ir_loop *L = tu->loops;
    /* i += 2 */
    CHECK_INT(L[0].step, 2);
    CHECK_STR(pr(L[0].trip), "div(n + 1, 2)");
    CHECK_INT(L[0].nstmts, 1);
    ir_stmt *s = &L[0].stmts[0];
    CHECK_INT(s->nacc, 3);
    if (s->nacc == 3) {
        CHECK_STR(acc(&s->acc[0]), "W p[i*m + 1]");
        CHECK_INT(s->acc[0].nextents, 0);          /* a pointer */
        CHECK_INT(s->acc[0].affine, 1);            /* affine in i, coefficient m */
        CHECK_STR(acc(&s->acc[1]), "R B[i][j]");
        CHECK_INT(s->acc[1].nextents, 2);          /* VLA parameter */
        CHECK_STR(pr(s->acc[1].extent[0]), "n");
        CHECK_STR(pr(s->acc[1].extent[1]), "m");
        CHECK_STR(acc(&s->acc[2]), "R C[i][3]");
        CHECK(s->acc[2].extent[0] == NULL);        /* C[][8] */
        CHECK_STR(pr(s->acc[2].extent[1]), "8");
    }
    /* j-- from n - 1 down to 0 */
    CHECK_STR(L[1].iv, "j");
    CHECK_INT(L[1].step, -1);
    CHECK_STR(pr(L[1].lower), "n - 1");
    CHECK_STR(pr(L[1].upper), "-1");
    CHECK_STR(pr(L[1].trip), "n");
    s = &L[1].stmts[0];
    CHECK_INT(s->nacc, 2);
    if (s->nacc == 2) {
        CHECK_STR(acc(&s->acc[0]), "R p[load.idx(j)]");   /* indirect: a gather */
        CHECK_INT(s->acc[0].affine, 0);
        CHECK_STR(acc(&s->acc[1]), "R idx[j]");
    }
    /* for (;;) with a break */
    CHECK_INT(L[2].canonical, 0);
    CHECK(L[2].iv == NULL);
    CHECK(L[2].trip == NULL);
    CHECK_INT(L[2].n_if, 1);
    CHECK_INT(L[2].n_break, 1);
    CHECK_INT(L[2].nstmts, 2);                  /* the if condition and s = s * 2 */
    /* comma init/inc, reversed comparison */
    CHECK_STR(L[3].iv, "i");
    CHECK_STR(pr(L[3].trip), "n");
    /* declared iv, k = k + 3 */
    CHECK_STR(L[4].iv, "k");
    CHECK_INT(L[4].step, 3);
    CHECK_STR(pr(L[4].lower), "3");
    CHECK_STR(pr(L[4].trip), "div(n - 1, 3)");
    /* while and do: non-canonical, kinds kept, conditions recorded */
    CHECK_INT(L[5].kind, IR_WHILE);
    CHECK_INT(L[5].canonical, 0);
    CHECK_INT(L[5].line, 18);
    CHECK_INT(L[5].n_return, 1);
    CHECK_INT(L[6].kind, IR_DO);
    CHECK_INT(L[6].line, 19);
    CHECK_INT(L[8].n_continue, 1);
    CHECK_INT(L[8].parent, 7);
    ir_tu_free(tu);
}

static void test_pragmas_and_macros(void)
{
    const char *src =
        "#define SIZE 64\n"                                              /* 1 */
        "#define LOOP_N 32\n"                                            /* 2 */
        "double A[SIZE], B[SIZE];\n"                                     /* 3 */
        "static double sq(double x) { return x * x; }\n"                 /* 4 */
        "void g(void)\n"                                                 /* 5 */
        "{\n"                                                            /* 6 */
        "#pragma omp target teams distribute \\\n"                       /* 7 */
        "        parallel for map(tofrom: A)\n"                          /* 8 */
        "  /* a comment between */\n"                                    /* 9 */
        "  for (int i = 0; i < LOOP_N; i++)\n"                           /* 10 */
        "    A[i] = sq(B[i]) + __builtin_sqrt(B[i]);\n"                  /* 11 */
        "#pragma omp parallel for\n"                                     /* 12 */
        "  for (int i = 0; i < SIZE; i++)\n"                             /* 13 */
        "    A[i] = sq(A[i]);\n"                                         /* 14 */
        "}\n";
    ir_tu *tu = walk_src("pm.c", src, 0, NULL);
    CHECK(tu != NULL);
    if (!tu)
        return;
    CHECK_INT(tu->nfuncs, 2);
    CHECK_INT(tu->nloops, 2);
    if (tu->nloops == 2) {
        CHECK_INT(tu->loops[0].npragmas, 1);
        if (tu->loops[0].npragmas == 1)
            CHECK_STR(tu->loops[0].pragmas[0],
                      "omp target teams distribute parallel for map(tofrom: A)");
        CHECK_STR(pr(tu->loops[0].trip), "32");
        CHECK_INT(tu->loops[0].function, 1);
        ir_stmt *s = &tu->loops[0].stmts[0];
        CHECK_INT(s->ncalls, 2);
        if (s->ncalls == 2) {
            CHECK_STR(s->calls[0], "sq");
            CHECK_STR(s->calls[1], "__builtin_sqrt");
        }
        CHECK_INT(tu->loops[1].npragmas, 1);
        if (tu->loops[1].npragmas == 1)
            CHECK_STR(tu->loops[1].pragmas[0], "omp parallel for");
        CHECK_STR(pr(tu->loops[1].trip), "64");
    }
    ir_tu_free(tu);
}

static void test_defines_and_errors(void)
{
    /* -D reaches libclang: the bound is the macro's value. */
    const char *args[] = { "-DLEN=7" };
    const char *src = "void h(double *x) { for (int i = 1; i <= LEN; i++) x[i] = x[i-1]; }\n";
    ir_tu *tu = walk_src("def.c", src, 1, args);
    CHECK(tu != NULL);
    if (tu) {
        CHECK_INT(tu->nloops, 1);
        if (tu->nloops == 1) {
            CHECK_STR(pr(tu->loops[0].trip), "7");
            CHECK_STR(acc(&tu->loops[0].stmts[0].acc[1]), "R x[i - 1]");
        }
        ir_tu_free(tu);
    }

    /* A syntax error is a one-line message naming file, line and column. */
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/bad.c", tmpdir);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("int main(void) { int x = ; return 0; }\n", f);
        fclose(f);
    }
    tu = NULL;
    CHECK_INT(walk_file(path, 0, NULL, &tu, err, sizeof err), -1);
    CHECK(tu == NULL);
    CHECK(strstr(err, "bad.c:1:26: error: expected expression") != NULL);
    CHECK(strchr(err, '\n') == NULL);

    /* A missing header too. */
    snprintf(path, sizeof path, "%s/nohdr.c", tmpdir);
    f = fopen(path, "w");
    if (f) {
        fputs("#include \"not-there.h\"\nint x;\n", f);
        fclose(f);
    }
    CHECK_INT(walk_file(path, 0, NULL, &tu, err, sizeof err), -1);
    CHECK(strstr(err, "'not-there.h' file not found") != NULL);
}

/* A block holds any number of statements: 20 loops in one function body,
 * and a call with 20 arguments whose accesses are all recorded. */
static void test_many_children(void)
{
    char src[4096];
    size_t n = (size_t)snprintf(src, sizeof src,
                                "double f20(double, double, double, double, double, double, double,\n"
                                "  double, double, double, double, double, double, double, double,\n"
                                "  double, double, double, double, double);\n"
                                "void many(int n, double *x) {\n");
    for (int k = 0; k < 20; k++)
        n += (size_t)snprintf(src + n, sizeof src - n,
                              "  for (int i = 0; i < n; i++) x[i] += %d;\n", k);
    n += (size_t)snprintf(src + n, sizeof src - n, "  for (int i = 0; i < n; i++)\n    x[i] = f20(");
    for (int k = 0; k < 20; k++)
        n += (size_t)snprintf(src + n, sizeof src - n, "%sx[i + %d]", k ? ", " : "", k);
    snprintf(src + n, sizeof src - n, ");\n}\n");
    ir_tu *tu = walk_src("many.c", src, 0, NULL);
    CHECK(tu != NULL);
    if (!tu)
        return;
    CHECK_INT(tu->nloops, 21);
    if (tu->nloops == 21) {
        CHECK_INT(tu->loops[19].line, 24);   /* 3 prototype lines, then `void many` */
        ir_stmt *s = &tu->loops[20].stmts[0];
        CHECK_INT(s->nacc, 21);                  /* x[i] written, 20 arguments read */
        if (s->nacc == 21)
            CHECK_STR(acc(&s->acc[20]), "R x[i + 19]");
        CHECK_INT(s->ncalls, 1);
    }
    ir_tu_free(tu);
}


/* -fopenmp: omp.h (its `begin declare variant` branch), omp_* calls,
 * declare variant, _Pragma from a macro, directives that hide their loops
 * in the -fopenmp AST, device regions, standalone directives. */
static void test_openmp(void)
{
    const char *src =
        "#include <omp.h>\n"                                                  /* 1 */
        "#define PFOR _Pragma(\"omp parallel for\") for\n"                    /* 2 */
        "double g(double x);\n"                                               /* 3 */
        "#pragma omp declare variant(g) match(device={kind(host)})\n"         /* 4 */
        "double h(double x);\n"                                               /* 5 */
        "#pragma omp begin declare variant match(device={kind(nohost)})\n"    /* 6 */
        "static int dev(void) { return 1; }\n"                                /* 7 */
        "#pragma omp end declare variant\n"                                   /* 8 */
        "void k(int n, float *a, float *former) {\n"                          /* 9 */
        "#pragma omp target data map(tofrom: a[0:n*n], former[0:n])\n"        /* 10 */
        "  {\n"                                                               /* 11 */
        "#pragma omp target teams distribute parallel for collapse(2)\n"      /* 12 */
        "    for (int i = 0; i < n; i++)\n"                                   /* 13 */
        "      for (int j = 0; j < n; j++)\n"                                 /* 14 */
        "        a[i * n + j] += omp_get_num_threads();\n"                    /* 15 */
        "#pragma omp target map(tofrom: former[0:n])\n"                       /* 16 */
        "    for (int i = 1; i < n; i++)\n"                                   /* 17 */
        "      former[i] += former[i - 1];\n"                                 /* 18 */
        "  }\n"                                                               /* 19 */
        "  PFOR (int i = 0; i < n; i++) a[i] = 0;\n"                          /* 20 */
        "#pragma omp parallel\n"                                              /* 21 */
        "  {\n"                                                               /* 22 */
        "#pragma omp barrier\n"                                               /* 23 */
        "    for (int i = 0; i < n; i++) a[i] += 1;\n"                        /* 24 */
        "  }\n"                                                               /* 25 */
        "}\n";
    const char *args[] = { "-fopenmp" };
    ir_tu *tu = walk_src("omp.c", src, 1, args);
    CHECK(tu != NULL);
    if (!tu)
        return;
    CHECK_INT(tu->nloops, 5);
    if (tu->nloops == 5) {
        ir_loop *L = tu->loops;
        CHECK_INT(L[0].line, 13);
        CHECK_INT(L[0].npragmas, 1);
        CHECK_STR(L[0].pragmas[0], "omp target teams distribute parallel for collapse(2)");
        CHECK_INT(L[0].gpu_map, OMP_MAP_COLLAPSED);
        CHECK_INT(L[0].gpu_collapse, 2);
        CHECK_INT(L[1].gpu_map, OMP_MAP_GRID);
        CHECK_INT(L[0].gpu_fastest, 1);
        CHECK_INT(L[0].region_line, 10);     /* inside the target data region */
        CHECK_INT(L[0].target_line, 12);
        CHECK_INT(L[1].region_line, 10);
        CHECK_INT(L[0].nstmts + L[1].nstmts, 1);
        CHECK_INT(L[2].line, 17);
        CHECK_INT(L[2].gpu_map, OMP_MAP_NONE);   /* `target` alone shares nothing */
        CHECK_INT(L[2].region_line, 10);
        CHECK_INT(L[2].target_line, 16);
        CHECK_INT(L[3].line, 20);
        CHECK_INT(L[3].npragmas, 1);
        if (L[3].npragmas == 1)
            CHECK_STR(L[3].pragmas[0], "omp parallel for");
        CHECK_INT(L[3].gpu_map, OMP_MAP_GRID);
        CHECK_INT(L[3].region_line, 0);
        CHECK_INT(L[4].line, 24);
        CHECK_INT(L[4].npragmas, 0);              /* `omp barrier` is not the loop's */
        CHECK_INT(L[4].gpu_map, OMP_MAP_NONE);
    }
    ir_tu_free(tu);

    /* the same file parses without -fopenmp too (no _OPENMP, no omp.h variant) */
    tu = walk_src("omp.c", src, 0, NULL);
    CHECK(tu != NULL);
    if (tu)
        CHECK_INT(tu->nloops, 5);
    ir_tu_free(tu);
}

/* Real-code shapes: 16+ parameters, loop-hint pragmas, do-while(0) macros. */
static void test_real_shapes(void)
{
    const char *src =
        "#define ZERO(a, n) do { for (int z_ = 0; z_ < (n); z_++) (a)[z_] = 0; } while (0)\n"
        "void f16(int n, int a1, int a2, int a3, int a4, int a5, int a6, int a7,\n"
        "         int a8, int a9, int a10, int a11, int a12, int a13, int a14, double *x)\n"
        "{\n"
        "    for (int i = 0; i < n; i++)\n"
        "        x[i] = a1;\n"
        "}\n"
        "void h(double *x, int n)\n"
        "{\n"
        "#pragma GCC unroll 4\n"
        "    for (int i = 0; i < n; i++)\n"
        "        x[i] *= 2.0;\n"
        "#pragma clang loop vectorize(enable)\n"
        "    for (int i = 0; i < n; i++)\n"
        "        x[i] += 1.0;\n"
        "#pragma unroll\n"
        "    for (int i = 0; i < n; i++)\n"
        "        x[i] -= 1.0;\n"
        "    ZERO(x, n);\n"
        "    do { n--; } while (n > 0);\n"
        "}\n";
    ir_tu *tu = walk_src("shapes.c", src, 0, NULL);
    CHECK(tu != NULL);
    if (!tu)
        return;
    CHECK_INT(tu->nloops, 6);
    if (tu->nloops == 6) {
        CHECK_INT(tu->loops[0].line, 5);
        CHECK_STR(tu->funcs[tu->loops[0].function].name, "f16");
        CHECK_INT(tu->loops[1].line, 11);
        CHECK_STR(tu->loops[1].pragmas[0], "GCC unroll 4");
        CHECK_INT(tu->loops[1].nstmts, 1);
        CHECK_INT(tu->loops[2].line, 14);
        CHECK_STR(tu->loops[2].pragmas[0], "clang loop vectorize(enable)");
        CHECK_INT(tu->loops[3].line, 17);
        CHECK_INT(tu->loops[4].line, 19);      /* the for inside ZERO, not its do */
        CHECK_INT(tu->loops[4].kind, IR_FOR);
        CHECK_INT(tu->loops[4].depth, 0);
        CHECK_INT(tu->loops[5].kind, IR_DO);   /* a real do loop stays */
    }
    ir_tu_free(tu);
}

/* Issue 16: a 3,000-term sum is walked without recursion per term (the
 * walker overflowed its stack); a 500-deep nest of conditionals stops at
 * the depth bound and says so on the statement. */
static void test_deep_expressions(void)
{
    size_t cap = 200000, n = 0;
    char *src = malloc(cap);
    if (!src)
        return;
    n += (size_t)snprintf(src + n, cap - n,
                          "int a[10], b[10];\nvoid f(int n) {\n  for (int i = 0; i < n; i++)\n    a[i] = i");
    for (int k = 0; k < 3000; k++)
        n += (size_t)snprintf(src + n, cap - n, " + i*%d", k);
    n += (size_t)snprintf(src + n, cap - n, ";\n  for (int j = 0; j < n; j++)\n    b[j] = ");
    for (int k = 0; k < 500; k++)
        n += (size_t)snprintf(src + n, cap - n, "j > %d ? %d : (", k, k);
    n += (size_t)snprintf(src + n, cap - n, "0");
    for (int k = 0; k < 500; k++)
        n += (size_t)snprintf(src + n, cap - n, ")");
    snprintf(src + n, cap - n, ";\n}\n");
    const char *args[] = { "-fbracket-depth=5000" };
    ir_tu *tu = walk_src("deep.c", src, 1, args);
    free(src);
    CHECK(tu != NULL);
    if (!tu)
        return;
    CHECK_INT(tu->nloops, 2);
    if (tu->nloops == 2 && tu->loops[0].nstmts == 1 && tu->loops[1].nstmts == 1) {
        const ir_stmt *st = &tu->loops[0].stmts[0];
        CHECK_INT(st->ops.iadd, 3000);
        CHECK_INT(st->ops.imul, 3000);
        CHECK_INT(st->nacc, 1);
        CHECK_INT(st->nscalars, 3001);
        CHECK_INT(st->ncalls, 0);
        st = &tu->loops[1].stmts[0];
        CHECK_INT(st->ncalls, 1);
        if (st->ncalls == 1)
            CHECK_STR(st->calls[0], "keel:expression-nested-too-deep");
    }
    ir_tu_free(tu);
}

/* Loop control, stepped pointers, macro headers, while (i-- > e). */
static void test_control_and_steps(void)
{
    const char *src =
        "#define FOR(v, n) for (int v = 0; v < (n); v++)\n"           /* 1 */
        "void f(int n, int m, double *p, const double *q, double *a, double *o)\n" /* 2 */
        "{\n"                                                         /* 3 */
        "  for (int i = 0; i < n; i++) { a[i] = 0; if (a[i]) i++; }\n" /* 4 */
        "  for (int i = 0; i < n; i++) { a[i] = 1; n--; }\n"          /* 5 */
        "  int *lim = &m;\n"                                          /* 6 */
        "  for (int i = 0; i < m; i++) { a[i] = 2; (*lim)--; }\n"     /* 7 */
        "  for (int i = 0; i < n; i++, p++, q++) *p = *q;\n"          /* 8 */
        "  double *r = a + 1;\n"                                      /* 9 */
        "  for (int i = 1; i < n; i++, r++) r[0] = r[-1];\n"          /* 10 */
        "  int j;\n"                                                  /* 11 */
        "  for (int i = 0, j = 3; i < n; i++, j += 2) a[j] = 0;\n"    /* 12 */
        "  FOR(k, n)\n"                                               /* 13 */
        "    a[k] = 1;\n"                                             /* 14 */
        "  int t = n;\n"                                              /* 15 */
        "  while (t-- > 0)\n"                                         /* 16 */
        "    a[t] = 3;\n"                                             /* 17 */
        "  for (int i = 0; i < n; i++) { *o = 0; o++; }\n"            /* 18 */
        "  (void)j;\n"                                                /* 19 */
        "}\n";
    ir_tu *tu = walk_src("ctl.c", src, 0, NULL);
    CHECK(tu != NULL);
    if (!tu)
        return;
    CHECK_INT(tu->nloops, 9);
    if (tu->nloops != 9) {
        ir_tu_free(tu);
        return;
    }
    ir_loop *L = tu->loops;
    /* i++ in the body: not canonical, the variable named, iv kept */
    CHECK_INT(L[0].canonical, 0);
    CHECK_STR(L[0].control_write, "i");
    CHECK_INT(L[0].control_maybe, 0);
    CHECK_STR(L[0].iv, "i");
    CHECK(L[0].trip == NULL);
    /* n-- in the body */
    CHECK_INT(L[1].canonical, 0);
    CHECK_STR(L[1].control_write, "n");
    /* m's address kept in lim, a write through a pointer in the body */
    CHECK_INT(L[2].canonical, 0);
    CHECK_STR(L[2].control_write, "m");
    CHECK_INT(L[2].control_maybe, 1);
    /* p, q stepped in the header: own bases, affine accesses, the steps
     * recorded as statements after the body */
    CHECK_INT(L[3].canonical, 1);
    CHECK(L[3].control_write == NULL);
    CHECK_INT(L[3].nstepped, 2);
    if (L[3].nstepped == 2) {
        CHECK_STR(L[3].stepped[0], "p");
        CHECK_STR(L[3].stepped[1], "q");
    }
    CHECK_INT(L[3].nstmts, 3);
    if (L[3].nstmts == 3) {
        CHECK_STR(acc(&L[3].stmts[0].acc[0]), "W p[i]");
        CHECK_STR(acc(&L[3].stmts[0].acc[1]), "R q[i]");
        CHECK_STR(L[3].stmts[1].text, "p++");
        CHECK_STR(L[3].stmts[2].text, "q++");
    }
    /* r = a + 1 stepped in the header: accesses over a */
    CHECK_INT(L[4].nstepped, 1);
    CHECK_STR(acc(&L[4].stmts[0].acc[0]), "W a[i]");
    CHECK_STR(acc(&L[4].stmts[0].acc[1]), "R a[i - 1]");
    /* j = 3, j += 2 in the header: a[2*i + 3] */
    CHECK_STR(acc(&L[5].stmts[0].acc[0]), "W a[2*i + 3]");
    /* a for header written by a macro */
    CHECK_INT(L[6].canonical, 1);
    CHECK_STR(L[6].iv, "k");
    CHECK_STR(pr(L[6].trip), "n");
    CHECK_INT(L[6].nstmts, 1);
    /* while (t-- > 0): t = n - 1 down to 0 */
    CHECK_INT(L[7].canonical, 1);
    CHECK_STR(pr(L[7].lower), "n - 1");
    CHECK_STR(pr(L[7].upper), "-1");
    CHECK_INT(L[7].step, -1);
    CHECK_STR(pr(L[7].trip), "n");
    /* a pointer parameter stepped in the body */
    CHECK_INT(L[8].nstepped, 1);
    CHECK_STR(acc(&L[8].stmts[0].acc[0]), "W o[i]");
    ir_tu_free(tu);
    /* a pointer also moved outside the loop: its name would not mean its
     * value on entry; left as it is (p[0], untestable in the loop) */
    tu = walk_src("moved.c",
                  "void g(int n, double *p)\n"
                  "{\n"
                  "  double *s = p;\n"
                  "  p++;\n"
                  "  for (int i = 0; i < n; i++, p++) *p = s[0];\n"
                  "}\n", 0, NULL);
    CHECK(tu != NULL);
    if (tu && tu->nloops == 1 && tu->loops[0].nstmts >= 1 && tu->loops[0].stmts[0].nacc == 2) {
        CHECK_INT(tu->loops[0].nstepped, 0);
        CHECK_STR(acc(&tu->loops[0].stmts[0].acc[0]), "W p[0]");
    } else {
        CHECK(0);
    }
    ir_tu_free(tu);
}

/* "a,b,c": a loop's symbols, the values its call passes. */
static char *syms(const ir_loop *l)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    buf[k][0] = 0;
    for (int i = 0; i < l->nsyms; i++) {
        strncat(buf[k], i ? "," : "", sizeof buf[k] - strlen(buf[k]) - 1);
        strncat(buf[k], l->syms[i], sizeof buf[k] - strlen(buf[k]) - 1);
    }
    return buf[k];
}

/* Bounds held in memory: which reads become named values, and which the
 * nest's call may pass (what its entry test reads, or an object's). */
/* A bound read through a struct (`f->n`) and stores through its other
 * members: which of them may change it (loop control) by the aliasing rule. */
static void test_bound_member_writes(void)
{
    const char *src =
        "struct F { long n; double *v; long *w; long total;\n"      /* 1 */
        "           union { long a; long b; } u; struct F *next; };\n" /* 2 */
        "void g(struct F *f) {\n"                                   /* 3 */
        "  for (long i = 0; i < f->n; i++) f->v[i] *= 2;\n"          /* 4 */
        "  for (long i = 0; i < f->n; i++) f->w[i] = 0;\n"           /* 5 */
        "  for (long i = 0; i < f->n; i++) f->total = i;\n"          /* 6 */
        "  for (long i = 0; i < f->u.a; i++) f->u.b = 0;\n"          /* 7 */
        "  for (long i = 0; i < f->next->n; i++) f->next = 0;\n"     /* 8 */
        "  for (long i = 0; i < f->n; i++) f->n = 0;\n"              /* 9 */
        "}\n";
    ir_tu *tu = walk_src("memw.c", src, 0, NULL);
    CHECK(tu != NULL);
    if (!tu)
        return;
    CHECK_INT(tu->nloops, 6);
    const char *want[6] = { "", "f->n", "", "f->u.a", "f->next->n", "f->n" };
    for (int k = 0; k < tu->nloops && k < 6; k++) {
        const char *got = tu->loops[k].control_write ? tu->loops[k].control_write : "";
        if (strcmp(got, want[k]) != 0)
            fprintf(stderr, "memw.c line %d: control write \"%s\", want \"%s\"\n",
                    tu->loops[k].line, got, want[k]);
        CHECK_STR(got, want[k]);
    }
    ir_tu_free(tu);
}

static void test_bounds_in_memory(void)
{
    const char *src =
        "struct S { int n, m; volatile int v; };\n"                 /* 1 */
        "struct S obj; int grid[3]; int *rp;\n"                     /* 2 */
        "#define NX grid[0]\n"                                      /* 3 */
        "void f(double *a, struct S *s, int q) {\n"                 /* 4 */
        "  for (int i = 0; i < s->n; i++)\n"                        /* 5 */
        "    for (int j = 0; j < s->m; j++)\n"                      /* 6 */
        "      a[i * 8 + j] = 0;\n"                                 /* 7 */
        "  for (int i = 0; i < grid[2]; i++)\n"                     /* 8 */
        "    for (int j = 0; j < obj.m + grid[1]; j++)\n"           /* 9 */
        "      a[i * 8 + j] = 1;\n"                                 /* 10 */
        "  for (int i = 0; i < s->v; i++) a[i] = 2;\n"              /* 11 */
        "  for (int i = 0; i < grid[3]; i++) a[i] = 3;\n"           /* 12 */
        "  for (int i = 0; i < NX; i++) a[i] = 4;\n"                /* 13 */
        "  for (int i = 0; q > 0 && i < s->n; i++) a[i] = 5;\n"     /* 14 */
        "  for (int i = 0; i < s->n; i++) { a[i] = 6; s->n = 0; }\n"/* 15 */
        "  for (int r = 1; r <= q; r++)\n"                          /* 16 */
        "    for (int k = rp[r]; k < rp[r + 1]; k++) a[k] = 7;\n"   /* 17 */
        "  for (int r = 0; r < q; r++) {\n"                         /* 18 */
        "    if (a[r] > 0) continue;\n"                             /* 19 */
        "    for (int k = rp[r]; k < rp[r + 1]; k++) a[k] = 8;\n"   /* 20 */
        "  }\n"                                                     /* 21 */
        "}\n";
    ir_tu *tu = walk_src("mem.c", src, 0, NULL);
    CHECK(tu != NULL);
    if (!tu)
        return;
    const ir_loop *L[32] = { 0 };
    int nl = 0;
    for (int k = 0; k < tu->nloops && nl < 32; k++)
        L[nl++] = &tu->loops[k];
    CHECK_INT(nl, 13);
    if (nl != 13) {
        ir_tu_free(tu);
        return;
    }
    /* s->n read by the root's test: passed; s->m only by the inner test */
    CHECK_STR(pr(L[0]->trip), "$\"s->n\"");
    CHECK_STR(pr(L[1]->trip), "$\"s->m\"");
    CHECK_STR(syms(L[0]), "s->n");
    CHECK_STR(syms(L[1]), "s->m,i");
    /* an element of a global array and a member of a struct object: from
     * anywhere in the nest */
    CHECK_STR(pr(L[3]->trip), "$\"grid[1]\" + $\"obj.m\"");
    CHECK_STR(syms(L[2]), "grid[2],grid[1],obj.m");
    /* volatile, out of the array, from a macro: not named */
    CHECK_STR(pr(L[4]->trip), "?\"s->v\"");
    CHECK_STR(pr(L[5]->trip), "load.grid(3)");
    CHECK_STR(syms(L[6]), "");
    /* the second operand of && is not sure to be read: not passed */
    CHECK_STR(pr(L[7]->trip), "$\"s->n\"");
    CHECK_STR(syms(L[7]), "");
    /* the body writes the bound: loop control */
    CHECK_STR(L[8]->control_write ? L[8]->control_write : "", "s->n");
    CHECK(L[8]->trip == NULL);
    /* CSR rows: the total telescopes, the mean is the inner trip count */
    CHECK_STR(pr(L[10]->trip), "div($\"((q + 1) > (1) ? rp[q + 1] - rp[1] : 0)\", q)");
    CHECK_STR(pr(L[10]->lower),
              "r*div($\"((q + 1) > (1) ? rp[q + 1] - rp[1] : 0)\", q) + $\"((q + 1) > (1) ?"
              " rp[1] : 0)\" - div($\"((q + 1) > (1) ? rp[q + 1] - rp[1] : 0)\", q)");
    CHECK_STR(syms(L[9]), "q,((q + 1) > (1) ? rp[1] : 0),((q + 1) > (1) ? rp[q + 1] - rp[1] : 0)");
    /* a continue before the row loop: not every row runs it, no total */
    CHECK_STR(pr(L[12]->trip), "load.rp(r + 1) - load.rp(r)");
    ir_tu_free(tu);

    /* a comment inside the read: its text is not put into a call */
    tu = walk_src("memc.c", "int grid[3];\n"
                            "void g(double *a) {\n"
                            "  for (int i = 0; i < grid[/* y */ 1]; i++) a[i] = 0;\n"
                            "}\n", 0, NULL);
    CHECK(tu != NULL && tu->nloops == 1);
    if (tu && tu->nloops == 1) {
        CHECK_STR(pr(tu->loops[0].trip), "load.grid(1)");
        CHECK_STR(syms(&tu->loops[0]), "");
    }
    ir_tu_free(tu);
}

/* Where each value read goes (ir_flow), from the tree after
 * preprocessing: "R x[i] a1 fadd=1" is a read whose value reaches access
 * record 1 through one double addition ("s0": scalar record 0); reads
 * that go nowhere are left out. */
static char *flows(const ir_stmt *s)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    size_t n = 0;
    buf[k][0] = '\0';
    for (int i = 0; i < s->nacc + s->nscalars && n < sizeof buf[k]; i++) {
        const ir_flow *f = i < s->nacc ? &s->acc[i].flow : &s->scalars[i - s->nacc].flow;
        if ((i < s->nacc ? s->acc[i].is_write : s->scalars[i - s->nacc].is_write)
            || f->to_kind == IR_FLOW_NONE)
            continue;
        const char *name = i < s->nacc ? acc(&s->acc[i]) : s->scalars[i - s->nacc].name;
        n += (size_t)snprintf(buf[k] + n, sizeof buf[k] - n, "%s%s %c%d", n ? "; " : "", name,
                              f->to_kind == IR_FLOW_ACCESS ? 'a' : 's', f->to);
        for (int o = 0; o < KU_CHAIN_NOPS && n < sizeof buf[k]; o++)
            if (f->ops[o])
                n += (size_t)snprintf(buf[k] + n, sizeof buf[k] - n, " %s=%d",
                                      ku_chain_op_name(o), f->ops[o]);
        if (f->opaque && n < sizeof buf[k])
            n += (size_t)snprintf(buf[k] + n, sizeof buf[k] - n, " opaque");
    }
    return buf[k];
}

static void test_flows(void)
{
    ir_tu *tu = walk_src("flows.c",
        "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n"
        "static double half(double v) { return v * 0.5; }\n"
        "double g(double);\n"
        "void f(int n, double *x, double *y, int *c)\n"
        "{\n"
        "    for (int i = 1; i < n; i++) {\n"
        "        x[i] += y[i] * 2.0;\n"
        "        double t = MAX(x[i - 1], y[i]);\n"
        "        y[i] = half(t) + g(x[i]);\n"
        "        c[i] = c[i - 1] + (int)y[i];\n"
        "        c[c[i]]++;\n"
        "    }\n"
        "}\n", 0, NULL);
    CHECK(tu && tu->nloops == 1 && tu->loops[0].nstmts == 5);
    if (tu && tu->nloops == 1 && tu->loops[0].nstmts == 5) {
        const ir_stmt *s = tu->loops[0].stmts;
        /* x[i] += y[i] * 2.0: both reads reach the write (record 1), y
         * through the multiply too */
        CHECK_STR(flows(&s[0]), "R x[i] a1 fadd=1; R y[i] a1 fadd=1 fmul=1");
        /* the macro expanded: each operand named twice (comparison, arm),
         * each time through the select only */
        CHECK_STR(flows(&s[1]), "R x[i - 1] s0 fsel=1; R y[i] s0 fsel=1; R x[i - 1] s0 fsel=1; "
                                "R y[i] s0 fsel=1");
        /* half() followed into its body (a multiply); g's latency unknown */
        CHECK_STR(flows(&s[2]), "R x[i] a0 fadd=1 opaque; t a0 fadd=1 fmul=1");
        /* (int)y[i]: a conversion on y's way */
        CHECK_STR(flows(&s[3]), "R c[i - 1] a0 iadd=1; R y[i] a0 iadd=1 opaque");
        /* c[c[i]]++: the element's read goes to its write through one
         * addition; c[i], a subscript, goes nowhere */
        CHECK_STR(flows(&s[4]), "R c[load.c(i)] a1 iadd=1");
    }
    ir_tu_free(tu);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_polybench_style();
    test_headers_and_steps();
    test_pragmas_and_macros();
    test_defines_and_errors();
    test_many_children();
    test_openmp();
    test_real_shapes();
    test_deep_expressions();
    test_control_and_steps();
    test_bounds_in_memory();
    test_bound_member_writes();
    test_flows();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return check_summary();
}
