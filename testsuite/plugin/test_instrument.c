/*
 * test_instrument.c -- the instrumented source, exactly.
 *
 * Each case walks a snippet, instruments it, compares the whole resulting
 * text with the expected one, and has clang-19 check that it is valid C
 * against the real keelrt.h (-fsyntax-only, -fopenmp for the pragmas).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "instrument.h"
#include "walker.h"

static char tmpdir[] = "/tmp/keel-instr-XXXXXX";

static char *instrumented(const char *name, const char *src, instrument_mode mode, char *path,
                          size_t pathlen)
{
    char err[512];
    snprintf(path, pathlen, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fputs(src, f);
    fclose(f);
    ir_tu *tu = NULL;
    const char *omp[] = { "-fopenmp" };   /* as keelcc parses an OpenMP compile */
    if (walk_file(path, 1, omp, &tu, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    char *out = NULL;
    int n = instrument_source(tu, path, path, src, strlen(src), KEEL_RT_HEADER, "/db/keel.db",
                              mode, &out);
    ir_tu_free(tu);
    if (n <= 0)
        return NULL;
    return out;
}

/* Expected text: the template with every "@" replaced by the file's path
 * and every "%H" by the header path. */
static char *expect(const char *tmpl, const char *path)
{
    size_t cap = strlen(tmpl) * 2 + 4096;
    char *s = malloc(cap), *w = s;
    for (const char *p = tmpl; *p && s; p++) {
        if (*p == '@') {
            w += sprintf(w, "%s", path);
        } else if (p[0] == '%' && p[1] == 'H') {
            w += sprintf(w, "%s", KEEL_RT_HEADER);
            p++;
        } else {
            *w++ = *p;
        }
    }
    if (s)
        *w = '\0';
    return s;
}

/* clang-19 accepts the text. */
static int compiles(const char *text)
{
    char path[256], cmd[600];
    snprintf(path, sizeof path, "%s/check.c", tmpdir);
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fputs(text, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "clang-19 -fsyntax-only -fopenmp -Werror -Wno-unknown-pragmas %s", path);
    return system(cmd) == 0;
}

static void check_case(const char *name, const char *src, instrument_mode mode, const char *tmpl)
{
    char path[256];
    char *got = instrumented(name, src, mode, path, sizeof path);
    char *want = expect(tmpl, path);
    CHECK_STR(got, want);
    CHECK(got && compiles(got));
    free(got);
    free(want);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }

    /* No pragma: the opening goes inline before the `for`, on its line. */
    check_case("plain.c",
        "void f(int n, double *x) {\n"
        "  for (int i = 0; i < n; i++)\n"
        "    x[i] = 0;\n"
        "}\n",
        INSTRUMENT_REPORT,
        "#include \"%H\"\n"
        "#line 1 \"@\"\n"
        "void f(int n, double *x) {\n"
        "  { static const char *const keel_syms_0[] = { \"n\" }; "
        "static keel_site keel_site_0 = { \"/db/keel.db\", \"@\", 2, 3, 1, keel_syms_0, 0 }; "
        "keel_decide(&keel_site_0, (const long long[]){ (long long)(n) }); "
        "for (int i = 0; i < n; i++)\n"
        "    x[i] = 0; }\n"
        "}\n");

    /* A pragma stays directly above its loop; the braces keep the
     * unbraced if's meaning; constant bounds need no values; the inner
     * loop of the nest gets no call of its own. */
    check_case("pragma.c",
        "double A[8][8];\n"
        "void g(int c) {\n"
        "  if (c)\n"
        "#pragma omp parallel for\n"
        "    for (int i = 0; i < 8; i++) {\n"
        "      for (int j = 0; j < 8; j++)\n"
        "        A[i][j] = 1;\n"
        "    }\n"
        "}\n",
        INSTRUMENT_REPORT,
        "#include \"%H\"\n"
        "#line 1 \"@\"\n"
        "double A[8][8];\n"
        "void g(int c) {\n"
        "  if (c)\n"
        "{ static keel_site keel_site_0 = { \"/db/keel.db\", \"@\", 5, 5, 0, 0, 0 }; "
        "keel_decide(&keel_site_0, 0); \n"
        "#line 4 \"@\"\n"
        "#pragma omp parallel for\n"
        "    for (int i = 0; i < 8; i++) {\n"
        "      for (int j = 0; j < 8; j++)\n"
        "        A[i][j] = 1;\n"
        "    } }\n"
        "}\n");

    /* Offload: the target loop inside a time loop gets an if clause, the
     * time loop a report call; symbols of the outer loop are in scope. */
    check_case("offload.c",
        "void h(int tsteps, int n, double *a, double *b) {\n"
        "  int t, i;\n"
        "  for (t = 0; t < tsteps; t++) {\n"
        "#pragma omp target teams distribute parallel for \\\n"
        "    map(tofrom: a[0:n], b[0:n])\n"
        "    for (i = 1; i < n - 1; i++)\n"
        "      b[i] = a[i - 1] + a[i + 1];\n"
        "  }\n"
        "}\n",
        INSTRUMENT_OFFLOAD,
        "#include \"%H\"\n"
        "#line 1 \"@\"\n"
        "void h(int tsteps, int n, double *a, double *b) {\n"
        "  int t, i;\n"
        "  { static const char *const keel_syms_0[] = { \"tsteps\", \"n\" }; "
        "static keel_site keel_site_0 = { \"/db/keel.db\", \"@\", 3, 3, 2, keel_syms_0, 0 }; "
        "keel_decide(&keel_site_0, (const long long[]){ (long long)(tsteps), (long long)(n) }); "
        "for (t = 0; t < tsteps; t++) {\n"
        "{ static const char *const keel_syms_1[] = { \"n\" }; "
        "static keel_site keel_site_1 = { \"/db/keel.db\", \"@\", 6, 5, 1, keel_syms_1, 0 }; "
        "int keel_on_gpu_1 = keel_decide(&keel_site_1, (const long long[]){ (long long)(n) }); \n"
        "#line 4 \"@\"\n"
        "#pragma omp target teams distribute parallel for \\\n"
        "    map(tofrom: a[0:n], b[0:n]) if(target: keel_on_gpu_1)\n"
        "    for (i = 1; i < n - 1; i++)\n"
        "      b[i] = a[i - 1] + a[i + 1]; }\n"
        "  } }\n"
        "}\n");

    /* In report mode the same file gets one call, before the time loop. */
    {
        char path[256];
        char *got = instrumented("offload2.c",
            "void h(int n, double *a) {\n"
            "  for (int t = 0; t < 4; t++)\n"
            "#pragma omp target teams distribute parallel for map(tofrom: a[0:n])\n"
            "    for (int i = 0; i < n; i++)\n"
            "      a[i] += 1;\n"
            "}\n", INSTRUMENT_REPORT, path, sizeof path);
        CHECK(got != NULL);
        CHECK(got && strstr(got, "keel_site_0") != NULL && strstr(got, "keel_site_1") == NULL);
        CHECK(got && strstr(got, "if(target:") == NULL);
        free(got);
    }

    /* #line names the file as the compile command does (__FILE__ and debug
     * information stay what the plain compile gives); sites keep the
     * resolved path the database uses. */
    {
        char path[256], err[512];
        const char *src = "void f(int n, double *x) {\n  for (int i = 0; i < n; i++)\n    x[i] = 0;\n}\n";
        snprintf(path, sizeof path, "%s/named.c", tmpdir);
        FILE *f = fopen(path, "w");
        if (f) {
            fputs(src, f);
            fclose(f);
        }
        ir_tu *tu = NULL;
        char *out = NULL;
        CHECK_INT(walk_file(path, 0, NULL, &tu, err, sizeof err), 0);
        CHECK_INT(instrument_source(tu, path, "src/named.c", src, strlen(src), KEEL_RT_HEADER,
                                    "/db/keel.db", INSTRUMENT_REPORT, &out), 1);
        CHECK(out && strstr(out, "\n#line 1 \"src/named.c\"\n") != NULL);
        char site[300];
        snprintf(site, sizeof site, "{ \"/db/keel.db\", \"%s\", 2, 3,", path);
        CHECK(out && strstr(out, site) != NULL);
        free(out);
        ir_tu_free(tu);
    }

    /* Nothing to instrument: no text at all. */
    {
        char path[256];
        CHECK(instrumented("none.c", "int k(int x) { return x + 1; }\n", INSTRUMENT_REPORT,
                           path, sizeof path) == NULL);
    }

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return check_summary();
}
