/*
 * test_sites.c -- what instrumentation says it did with each loop
 * (instrument_source_sites): the placement reasons a whole program cannot
 * reach cheaply (a line whose allowance of keel's blanks is spent, a line
 * number lost to a #line inside a conditional), that the plan is the text
 * (a loop said to get a call is one whose call is in the text), and how a
 * term of the evaluator's messages is written for the user.
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "instrument.h"
#include "walk_src.h"

static char tmpdir[] = "/tmp/keel-sites-XXXXXX";

/* Instrument src (report mode) and fill sites (tu->nloops entries, at
 * most 400); returns the number of sites made and the loop count in *n. */
static int plan(const char *name, const char *src, instrument_site *sites, int *n, char **text)
{
    ir_tu *tu = walk_src_in(tmpdir, name, src, 0, NULL);
    *n = 0;
    *text = NULL;
    if (!tu)
        return -1;
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    char real[4096];
    const char *p = realpath(path, real) ? real : path;
    *n = tu->nloops;
    int r = tu->nloops <= 400 ? instrument_source_sites(tu, NULL, p, NULL, src, strlen(src),
                                                        "/db/keel.db", INSTRUMENT_REPORT, text,
                                                        NULL, sites) : -1;
    ir_tu_free(tu);
    return r;
}

static void test_terms(void)
{
    char b[64];
    instrument_term_text("?\"MIN(i,j)\"", b, sizeof b);
    CHECK_STR(b, "`MIN(i,j)`");
    instrument_term_text("load.idx(i)", b, sizeof b);
    CHECK_STR(b, "`idx[i]`");
    instrument_term_text("load.g(i, j + 1)", b, sizeof b);
    CHECK_STR(b, "`g[i][j + 1]`");
    instrument_term_text("call.count(n)", b, sizeof b);
    CHECK_STR(b, "`count(n)`");
    instrument_term_text("load.a(i) + load.b(j)", b, sizeof b);   /* not one atom */
    CHECK_STR(b, "load.a(i) + load.b(j)");
    instrument_term_text("n + 1", b, sizeof b);
    CHECK_STR(b, "n + 1");
    instrument_term_text("?\"a very long term that does not fit\"", b, 8);
    CHECK_STR(b, "`a very");
}

/* 300 nests on one line: lines of their own for each, until the line's
 * allowance of blanks (four times its length and 4 KiB) is spent. */
static void test_one_line(void)
{
    enum { K = 300 };
    static char src[K * 40 + 200];
    static instrument_site sites[K];
    size_t n = (size_t)sprintf(src, "double x[100];\nvoid f(int n) {\n ");
    for (int k = 0; k < K; k++)
        n += (size_t)sprintf(src + n, " for (int i = 0; i < n; i++) x[i] = %d;", k % 10);
    sprintf(src + n, "\n}\n");
    int nl;
    char *text;
    CHECK_INT(plan("oneline.c", src, sites, &nl, &text), 36);
    CHECK_INT(nl, K);
    int calls = 0, spent = 0;
    for (int k = 0; k < nl; k++) {
        calls += sites[k].kind == INSTRUMENT_SITE_CALL;
        spent += sites[k].kind == INSTRUMENT_SITE_NONE
              && !strcmp(sites[k].why, "too many nests share line 3 with other code (keel's"
                                      " allowance of blanks for the line is spent)");
    }
    CHECK_INT(calls, 36);
    CHECK_INT(spent, K - 36);
    CHECK_INT(sites[0].kind, INSTRUMENT_SITE_CALL);
    CHECK_INT(sites[K - 1].kind, INSTRUMENT_SITE_NONE);
    free(text);
}

/* A #line inside a conditional: the presumed numbers after it are not
 * known, so a nest sharing its first line with code cannot get lines of
 * its own; one starting its line still gets its call. */
static void test_lost_line(void)
{
    static const char src[] =
        "#if 1\n"
        "#line 50\n"
        "#endif\n"
        "void f(int n, double *x) { x[0] = 1; for (int i = 0; i < n; i++) x[i] = 0; }\n"
        "void g(int n, double *x) {\n"
        "  for (int i = 0; i < n; i++)\n"
        "    x[i] = 1;\n"
        "}\n";
    instrument_site sites[2];
    int nl;
    char *text;
    CHECK_INT(plan("lost.c", src, sites, &nl, &text), 1);
    CHECK_INT(nl, 2);
    CHECK_INT(sites[0].kind, INSTRUMENT_SITE_NONE);
    CHECK_STR(sites[0].why, "its first line 4 holds other code and its line number is not"
                            " known (a #line inside a conditional above it)");
    CHECK_INT(sites[1].kind, INSTRUMENT_SITE_CALL);
    CHECK_STR(sites[1].why, "");
    /* the plan is the text: one call, before g's loop */
    CHECK(text && strstr(text, "keel_site_0") && !strstr(text, "keel_site_1"));
    CHECK(text && strstr(text, "keel_site_0") > strstr(text, "void g("));
    free(text);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_terms();
    test_one_line();
    test_lost_line();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return check_summary();
}
