/*
 * test_instrument.c -- the instrumented source, exactly.
 *
 * Each case walks a snippet, instruments it, compares the whole resulting
 * text with the expected one, and has clang-19 check that it is valid C
 * (-fsyntax-only -Weverything -Werror, -fopenmp for the pragmas: keel's text
 * must not warn).  The cases follow the reproducers of issues 9 and 16:
 * inserted text on lines of its own with `#line` (columns and presumed lines
 * kept, also after a user #line), pragmas separated from their loop by an
 * #if or written as _Pragma in a macro, a pragma inside a comment, a BOM, a
 * NUL byte, a loop that does not start its line, values a loop head assigns
 * or that are volatile, nests that cannot be offloaded, and the offload
 * clause before a trailing // comment.  The prelude's struct is checked
 * field by field against keelrt.h's keel_site.
 */
#define _XOPEN_SOURCE 700   /* realpath */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "instrument.h"
#include "walker.h"

static char tmpdir[] = "/tmp/keel-instr-XXXXXX";

/* The build hash passed to instrument_source (keelcc's translation_units.hash). */
static const char *test_build;

static char *instrumented_n(const char *name, const char *src, size_t len, instrument_mode mode,
                            char *path, size_t pathlen, size_t *outlen)
{
    char err[512], real[PATH_MAX];
    snprintf(path, pathlen, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    fwrite(src, 1, len, f);
    fclose(f);
    if (realpath(path, real) && strlen(real) < pathlen)
        memcpy(path, real, strlen(real) + 1);
    ir_tu *tu = NULL;
    const char *omp[] = { "-fopenmp" };   /* as keelcc parses an OpenMP compile */
    if (walk_file(path, 1, omp, &tu, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return NULL;
    }
    char *out = NULL;
    int n = instrument_source(tu, path, test_build, src, len, "/db/keel.db", mode, &out, outlen);
    ir_tu_free(tu);
    if (n <= 0)
        return NULL;
    return out;
}

static char *instrumented(const char *name, const char *src, instrument_mode mode, char *path,
                          size_t pathlen)
{
    return instrumented_n(name, src, strlen(src), mode, path, pathlen, NULL);
}

/* The label before a block's `{` (-Wmisleading-indentation passes labels by). */
#define LABEL(N) "keel_l_" #N ": __attribute__((unused)) "
#define STRUCT "struct keel_site { const char *db; const char *file; int line, col;" \
               " union { int n; void *align; } nsyms; const char *const *syms; void *state; };"
/* The entry points a block calls, under the block's own names bound to
 * libkeelrt's symbols: report mode (a nest with values, without), offload. */
#define RT_DECL(TYPE, NAME, N, PARAMS) " __extension__ " TYPE " " NAME "__" #N "(" PARAMS ") __asm__(\"" NAME "\");"
#define DECLS_REPORT(N) STRUCT RT_DECL("__attribute__((pure)) int", "keel_decide_report", N, \
                                       "void *, const long long *") " "
#define DECLS_CONST(N) STRUCT RT_DECL("__attribute__((const)) int", "keel_decide_report_const", N, \
                                      "void *, const long long *") " "
#define DECLS_OFFLOAD(N) STRUCT RT_DECL("int", "keel_decide", N, "void *, const long long *") \
    RT_DECL("long long", "keel_begin", N, "void *, int") \
    RT_DECL("void", "keel_done", N, "void *, long long") " "
#define DONE(N) "keel_d_" #N ": __attribute__((unused)) keel_done__" #N "(&keel_site_" #N ", keel_t_" #N ");"
/* The pieces of an opening: site N of the file (H: a build-hash suffix),
 * with one value S or none, and its report call.  The site is keelrt.h's
 * packed form with its texts after it: the file, the names (DECLS and
 * INITS: "char tK[{S}]; " and "\"S\", " each), the database; "[{X}]" in a
 * template is the size strlen(X) + 1, "[{=X}]" the last one's, padded to
 * a multiple of 8 bytes of texts (see expect). */
#define SITE(N, H, LINE, COL, NS, DECLS, INITS) "static struct { struct keel_site s; char t0[{@" H "}]; " \
    DECLS "} keel_site_" #N " = { { 0, 0, " #LINE ", " #COL ", { " #NS " }, 0, 0 }, \"@" H "\", " \
    INITS "\"/db/keel.db\" }; "
#define SITE0(N, H, LINE, COL) SITE(N, H, LINE, COL, -1, "char t1[{=/db/keel.db}]; ", "")
#define SITE1(N, H, LINE, COL, S) SITE(N, H, LINE, COL, -2, "char t1[{" S "}]; char t2[{=/db/keel.db}]; ", \
                                       "\"" S "\", ")
#define REPORT1(N, S) "static int keel_v_" #N " = -1; __extension__ static long long keel_last_" #N "[1];" \
    " __extension__ long long keel_x_" #N "[] = { (long long)(" S ") }; if (keel_v_" #N " < 0 || keel_last_" #N \
    "[0] != keel_x_" #N "[0]) { keel_last_" #N "[0] = keel_x_" #N "[0]; keel_v_" #N \
    " = keel_decide_report__" #N "(&keel_site_" #N ", keel_x_" #N "); } "
#define OPEN1H(N, S, H, LINE, COL) LABEL(N) "{ " DECLS_REPORT(N) SITE1(N, H, LINE, COL, S) REPORT1(N, S)
#define OPEN1(N, S, LINE, COL) OPEN1H(N, S, "", LINE, COL)
#define OPEN0(N, LINE, COL) LABEL(N) "{ " DECLS_CONST(N) SITE0(N, "", LINE, COL) \
    "static int keel_v_" #N " = -1; if (keel_v_" #N " < 0) keel_v_" #N \
    " = keel_decide_report_const__" #N "(&keel_site_" #N ", 0); "
#define OFFLOAD1(N, S, LINE, COL) LABEL(N) "{ " DECLS_OFFLOAD(N) \
    SITE1(N, "", LINE, COL, S) "__extension__ int keel_on_gpu_" #N " = keel_decide__" #N "(&keel_site_" #N \
    ", (const long long[]){ (long long)(" S ") }); __extension__ long long keel_t_" #N \
    " = keel_begin__" #N "(&keel_site_" #N ", keel_on_gpu_" #N "); "

/* OFFLOAD1 for a nest whose overlap condition names the bases b and a:
 * their addresses follow the value S. */
#define OFFLOAD_BA(N, S, LINE, COL) LABEL(N) "{ " DECLS_OFFLOAD(N) \
    SITE(N, "", LINE, COL, -4, "char t1[{" S "}]; char t2[{&b}]; char t3[{&a}]; char t4[{=/db/keel.db}]; ", \
         "\"" S "\", \"&b\", \"&a\", ") "__extension__ int keel_on_gpu_" #N " = keel_decide__" #N "(&keel_site_" #N \
    ", (const long long[]){ (long long)(" S "), (long long)(__INTPTR_TYPE__)(b)," \
    " (long long)(__INTPTR_TYPE__)(a) }); __extension__ long long keel_t_" #N \
    " = keel_begin__" #N "(&keel_site_" #N ", keel_on_gpu_" #N "); "

/* Expected text: the template with every "@" replaced by the file's
 * path, "[{X}]" by "[N]" where N is X's length (its "@" replaced) + 1,
 * and "[{=X}]" as well, N padded so that the sizes since the last "[{=" add
 * up to a multiple of 8 (the arrays of a site's texts, SITE). */
static char *expect(const char *tmpl, const char *path)
{
    size_t cap = strlen(tmpl) * 2 + 4096, run = 0;
    char *s = malloc(cap), *w = s;
    for (const char *p = tmpl; *p && s; p++) {
        if (*p == '@')
            w += sprintf(w, "%s", path);
        else if (p[0] == '[' && p[1] == '{') {
            int last = p[2] == '=';
            size_t n = 1;
            for (p += 2 + last; *p && !(p[0] == '}' && p[1] == ']'); p++)
                n += *p == '@' ? strlen(path) : 1;
            if (*p)
                p++;
            run += n;
            if (last)
                n += (8 - run % 8) % 8, run = 0;
            w += sprintf(w, "[%zu]", n);
        } else
            *w++ = *p;
    }
    if (s)
        *w = '\0';
    return s;
}

/* clang-19 accepts the text without a single warning. */
static int compiles(const char *text, size_t len)
{
    char path[256], cmd[1200];
    snprintf(path, sizeof path, "%s/check.c", tmpdir);
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(text, 1, len, f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "clang-19 -fsyntax-only -fopenmp -Weverything -Werror -Wno-unknown-pragmas"
             " -Wno-unused-parameter -Wno-missing-prototypes -Wno-unused-variable"
             " -Wno-unused-but-set-variable -Wno-unsafe-buffer-usage -Wno-declaration-after-statement"
             " -Wno-padded -Wno-sign-compare -Wno-sign-conversion -Wno-missing-variable-declarations"
             " -Wno-null-character -Wno-comment -Wno-unreachable-code %s", path);
    return system(cmd) == 0;
}

static void check_case(const char *name, const char *src, instrument_mode mode, const char *tmpl)
{
    char path[256];
    char *got = instrumented(name, src, mode, path, sizeof path);
    char *want = expect(tmpl, path);
    CHECK_STR(got, want);
    if (got && !compiles(got, strlen(got))) {
        fprintf(stderr, "%s: the instrumented text does not compile cleanly\n", name);
        CHECK(0);
    }
    CHECK(got != NULL);
    free(got);
    free(want);
}

/* A case that must get no call at all. */
static void check_none(const char *name, const char *src)
{
    char path[256];
    char *got = instrumented(name, src, INSTRUMENT_REPORT, path, sizeof path);
    if (got)
        fprintf(stderr, "%s: instrumented:\n%s\n", name, got);
    CHECK(got == NULL);
    free(got);
}

/* The prelude's struct keel_site has keelrt.h's layout, field by field. */
static void check_layout(void)
{
    char path[256], cmd[600];
    snprintf(path, sizeof path, "%s/layout.c", tmpdir);
    FILE *f = fopen(path, "w");
    if (!f) {
        CHECK(0);
        return;
    }
    /* The prelude's struct under another name, next to the header's. */
    char decls[] = STRUCT;
    char *p;
    while ((p = strstr(decls, "keel_site ")) != NULL)
        memcpy(p, "keel_sitp ", 10);
    fprintf(f, "#include <stddef.h>\n#include \"%s\"\n%s", KEEL_RT_HEADER, decls);
    /* (nsyms: an int in a union as wide as a pointer, which ends where
     * the header's padding does) */
    const char *fields[] = { "db", "file", "line", "col", "nsyms", "syms", "state" };
    const char *ours[] = { "db", "file", "line", "col", "nsyms.n", "syms", "state" };
    for (int i = 0; i < 7; i++)
        fprintf(f, "_Static_assert(offsetof(keel_site, %s) == offsetof(struct keel_sitp, %s)"
                   " && sizeof ((keel_site *)0)->%s == sizeof ((struct keel_sitp *)0)->%s, \"%s\");\n",
                fields[i], ours[i], fields[i], ours[i], fields[i]);
    fprintf(f, "_Static_assert(sizeof(keel_site) == sizeof(struct keel_sitp), \"size\");\n"
               "int (*keel_check_fn)(keel_site *, const long long *) = keel_decide;\n");
    fclose(f);
    snprintf(cmd, sizeof cmd, "clang-19 -fsyntax-only -std=c11 %s", path);
    CHECK(system(cmd) == 0);
}

/* clang-19's warnings for text as "LINE:COL: warning: ..." lines (the file
 * name dropped: the text is always compiled as diag.c), one string. */
static char *warnings(const char *text, const char *flags)
{
    char path[300], cmd[800], line[1024];
    snprintf(path, sizeof path, "%s/diag.c", tmpdir);
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    fputs(text, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cd %s && clang-19 -fsyntax-only %s diag.c 2>&1", tmpdir, flags);
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    size_t cap = 1, used = 0;
    char *out = calloc(1, 1);
    while (out && fgets(line, sizeof line, p)) {
        if (strncmp(line, "diag.c:", 7) != 0 || !strstr(line, ": warning: "))
            continue;
        cap += strlen(line);
        char *o = realloc(out, cap);
        if (!o) {
            free(out);
            out = NULL;
            break;
        }
        out = o;
        memcpy(out + used, line + 7, strlen(line + 7) + 1);
        used += strlen(line + 7);
    }
    pclose(p);
    return out;
}

/* Loops that share their line with code (keel's text on lines of its own,
 * then #line and blanks) and a loop on lines of its own (its call after
 * the code of the line above): the instrumented copy's warnings are
 * clang-19's, line and column, before, between and after the loops. */
static void test_columns(void)
{
    static const char src[] =
        "int g(int n, double *x, double *y);\n"
        "int g(int n, double *x, double *y) {\n"
        "  int s = 0; s == 2; for (int i = 0; i < n; i++) x[i] = 0; s == 1; for (int j = 0; j < n; j++) y[j] = 1; s == 3;\n"
        "  s == 4;\n"
        "  for (int j = 0; j < n; j++) y[j] = 2;\n"
        "  s == 5; // after\n"
        "  return s;\n"
        "}\n";
    char path[256];
    char *got = instrumented("columns.c", src, INSTRUMENT_REPORT, path, sizeof path);
    CHECK(got && strstr(got, "keel_site_2"));      /* all three loops have a call */
    char *want = warnings(src, "-Wunused-value"), *have = got ? warnings(got, "-Wunused-value") : NULL;
    CHECK_STR(want, "3:16: warning: equality comparison result unused [-Wunused-comparison]\n"
                    "3:62: warning: equality comparison result unused [-Wunused-comparison]\n"
                    "3:108: warning: equality comparison result unused [-Wunused-comparison]\n"
                    "4:5: warning: equality comparison result unused [-Wunused-comparison]\n"
                    "6:5: warning: equality comparison result unused [-Wunused-comparison]\n");
    CHECK_STR(have, want);
    free(want);
    free(have);
    free(got);
}

/* Many sites on one line: each re-entry pads the line up to its column,
 * so a line gets at most four times its length and 4 KiB of blanks; the
 * sites past that are left alone. */
static void test_one_line(void)
{
    enum { K = 300 };
    static char src[K * 40 + 200];
    size_t n = (size_t)sprintf(src, "double x[100];\nvoid f(int n) {\n ");
    for (int k = 0; k < K; k++)
        n += (size_t)sprintf(src + n, " for (int i = 0; i < n; i++) x[i] = %d;", k % 10);
    sprintf(src + n, "\n}\n");
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/oneline.c", tmpdir);
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fputs(src, f);
    fclose(f);
    ir_tu *tu = NULL;
    CHECK_INT(walk_file(path, 0, NULL, &tu, err, sizeof err), 0);
    if (!tu)
        return;
    CHECK_INT(tu->nloops, K);
    char *out = NULL;
    size_t len = 0;
    CHECK_INT(instrument_source(tu, path, NULL, src, strlen(src), "/db/keel.db",
                                INSTRUMENT_REPORT, &out, &len), 36);
    CHECK_INT(len, 89183);
    CHECK(out && compiles(out, len));
    free(out);
    ir_tu_free(tu);
}

/* clang's -Wempty-body compares the line of an `if` / `while` / `for`
 * (after #line) with the physical line of its `;`, and takes a statement
 * after `while (...);` on the same line for a typo: every empty body of
 * the instrumented copy warns where the source's does, in a function with
 * loops, before and after them and in one without any. */
static void test_empty_body(void)
{
    static const char src[] =
        "int getchar(void);\n"
        "void g(int n, double *a) {\n"
        "  if (n > 5);\n"
        "  while (getchar() != '\\n'); while (getchar() != 'x');\n"
        "  for (int i = 0; i < n; i++) a[i] = i;\n"
        "  for (int i = 0; i < n; i++); a[0] = 1;\n"
        "\n"
        "  for (int i = 0; i < n; i++)\n"
        "    a[i] = 2 * i;\n"
        "  if (n < 2);\n"
        "}\n"
        "int check(int c) {\n"
        "  if (c > 1);\n"
        "  return c;\n"
        "}\n";
    char path[256];
    char *got = instrumented("empty.c", src, INSTRUMENT_REPORT, path, sizeof path);
    CHECK(got && strstr(got, "keel_site_0"));
    char *want = warnings(src, "-Wempty-body"), *have = got ? warnings(got, "-Wempty-body") : NULL;
    CHECK_STR(want, "3:13: warning: if statement has empty body [-Wempty-body]\n"
                    "10:13: warning: if statement has empty body [-Wempty-body]\n"
                    "4:28: warning: while loop has empty body [-Wempty-body]\n"
                    "6:30: warning: for loop has empty body [-Wempty-body]\n"
                    "13:13: warning: if statement has empty body [-Wempty-body]\n");
    CHECK_STR(have, want);
    free(want);
    free(have);
    free(got);
}

/* keel's text warns under no flag by construction, with no diagnostic
 * pragma: C89 code compiled -std=c89 -pedantic -Weverything (and -m32,
 * where the site's layout differs; C99 for the inline function) gets no warning from the instrumented
 * copy either; the sites that cannot do without -- a value the nest itself
 * sets (a private scalar), a static in an inline function with external
 * linkage -- get a pragma naming only those warnings. */
static void test_strict_text(void)
{
    static const char src[] =
        "#if defined __STDC_VERSION__ && __STDC_VERSION__ >= 199901L\n"
        "inline int tri(int n);\n"
        "inline int tri(int n)\n"
        "{\n"
        "    int s = 0, i;\n"
        "    for (i = 0; i < n; i++)\n"
        "        s += i;\n"
        "    return s;\n"
        "}\n"
        "#endif\n"
        "void f(int n, int *a, const int *k);\n"
        "void f(int n, int *a, const int *k)\n"
        "{\n"
        "    int i, sel;\n"
        "    if (n > 3)\n"
        "        a[0] = 1;\n"
        "    for (i = 0; i < n; i++)\n"
        "        a[i] = 2 * a[i];\n"
        "#pragma omp parallel for private(sel)\n"
        "    for (i = 0; i < n; i++) {\n"
        "        if (k[i] > 0)\n"
        "            sel = i;\n"
        "        else\n"
        "            sel = n - 1 - i;\n"
        "        a[i] = k[sel];\n"
        "    }\n"
        "}\n";
    static const char *flags[] = {
        "-std=c89 -pedantic -Weverything -Wno-source-uses-openmp",
        "-m32 -std=c89 -pedantic -Weverything -Wno-source-uses-openmp",
        "-std=c99 -pedantic -Weverything -Wno-source-uses-openmp",
        "-std=c11 -Weverything -fopenmp", "-Wall -Wextra -Werror",
    };
    char path[256], cmd[1400];
    for (int mode = 0; mode < 2; mode++) {
        char *got = instrumented(mode ? "strict_off.c" : "strict.c", src,
                                 mode ? INSTRUMENT_OFFLOAD : INSTRUMENT_REPORT, path, sizeof path);
        CHECK(got != NULL);
        if (!got)
            return;
        int pragmas = 0;
        for (const char *p = got; (p = strstr(p, "_Pragma(\"clang diagnostic push\")")); p++)
            pragmas++;
        /* tri's site (static in an inline function) and f's second (sel) */
        CHECK_INT(pragmas, 2);
        CHECK(strstr(got, "ignored \\\"-Wstatic-local-in-inline\\\"") != NULL);
        CHECK(strstr(got, "ignored \\\"-Wuninitialized\\\"") != NULL);
        CHECK(strstr(got, "-Weverything") == NULL);
        char copy[300];
        snprintf(copy, sizeof copy, "%s/strict_copy.c", tmpdir);
        FILE *f = fopen(copy, "wb");
        if (!f) {
            free(got);
            CHECK(0);
            return;
        }
        fputs(got, f);
        fclose(f);
        for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
            /* the source itself is clean; so is the instrumented copy */
            snprintf(cmd, sizeof cmd, "clang-19 -fsyntax-only -Werror -Wno-unsafe-buffer-usage %s %s"
                     " && clang-19 -fsyntax-only -Werror -Wno-unsafe-buffer-usage %s %s",
                     flags[i], path, flags[i], copy);
            if (system(cmd) != 0) {
                fprintf(stderr, "strict text: warnings under %s\n", flags[i]);
                CHECK(0);
            }
        }
        free(got);
    }
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    check_layout();
    test_strict_text();

    /* A parallel loop starting its line: the opening (declarations, site,
     * call) at the end of the line before, `}` at the end of its last line:
     * no byte of the source changes its line or column. */
    check_case("plain.c",
        "void f(int n, double *x) {\n"
        "  for (int i = 0; i < n; i++)\n"
        "    x[i] = 0;\n"
        "}\n",
        INSTRUMENT_REPORT,
        "void f(int n, double *x) { " OPEN1(0, "n", 2, 3) "\n"
        "  for (int i = 0; i < n; i++)\n"
        "    x[i] = 0; }\n"
        "}\n");

    /* With keelcc's build hash (issue 9 item 7, issue 16 fault 21) the
     * site's file names its build: "path" "#h=HASH", one string. */
    test_build = "0123456789abcdef";
    check_case("built.c",
        "void f(int n, double *x) {\n"
        "  for (int i = 0; i < n; i++)\n"
        "    x[i] = 0;\n"
        "}\n",
        INSTRUMENT_REPORT,
        "void f(int n, double *x) { " OPEN1H(0, "n", "#h=0123456789abcdef", 2, 3) "\n"
        "  for (int i = 0; i < n; i++)\n"
        "    x[i] = 0; }\n"
        "}\n");
    /* not 16 lowercase hex digits: no suffix rather than a bad one */
    test_build = "0123456789ABCDEF";
    check_case("badbuild.c",
        "void f(int n, double *x) {\n"
        "  for (int i = 0; i < n; i++)\n"
        "    x[i] = 0;\n"
        "}\n",
        INSTRUMENT_REPORT,
        "void f(int n, double *x) { " OPEN1(0, "n", 2, 3) "\n"
        "  for (int i = 0; i < n; i++)\n"
        "    x[i] = 0; }\n"
        "}\n");
    test_build = NULL;

    /* A pragma stays directly above its loop; the braces keep the
     * unbraced if's meaning; constant bounds need no values.  A blank line
     * takes the opening rather than a line of code. */
    check_case("pragma.c",
        "double A[8][8];\n"
        "void g(int c) {\n"
        "  if (c)\n"
        "#pragma omp parallel for\n"
        "    for (int i = 0; i < 8; i++) {\n"
        "      for (int j = 0; j < 8; j++)\n"
        "        A[i][j] = 1;\n"
        "    }\n"
        "\n"
        "}\n",
        INSTRUMENT_REPORT,
        "double A[8][8];\n"
        "void g(int c) {\n"
        "  if (c) " OPEN0(0, 5, 5) "\n"
        "#pragma omp parallel for\n"
        "    for (int i = 0; i < 8; i++) {\n"
        "      for (int j = 0; j < 8; j++)\n"
        "        A[i][j] = 1;\n"
        "    }\n"
        " }\n"
        "}\n");

    /* NPB lu.c: an #if between the pragma and its loop.  The opening goes
     * above the pragma, the `}` after the body past the #endif. */
    check_case("pragma_if.c",
        "void h(int n, double *a) {\n"
        "  int i;\n"
        "#pragma omp parallel for\n"
        "#if 1\n"
        "  for (i = 0; i < n; i++)\n"
        "#else\n"
        "  for (i = 1; i < n; i++)\n"
        "#endif\n"
        "    a[i] = 0.5;\n"
        "}\n",
        INSTRUMENT_REPORT,
        "void h(int n, double *a) {\n"
        "  int i; " OPEN1(0, "n", 5, 3) "\n"
        "#pragma omp parallel for\n"
        "#if 1\n"
        "  for (i = 0; i < n; i++)\n"
        "#else\n"
        "  for (i = 1; i < n; i++)\n"
        "#endif\n"
        "    a[i] = 0.5; }\n"
        "}\n");

    /* `#ifdef _OPENMP / #pragma / #endif` above a loop: a group of
     * directives only, so the opening goes above the whole group. */
    check_case("ifdef_pragma.c",
        "void h(int n, double *a) {\n"
        "#ifdef _OPENMP\n"
        "#pragma omp parallel for\n"
        "#endif\n"
        "  for (int i = 0; i < n; i++)\n"
        "    a[i] = 0.5;\n"
        "}\n",
        INSTRUMENT_REPORT,
        "void h(int n, double *a) { " OPEN1(0, "n", 5, 3) "\n"
        "#ifdef _OPENMP\n"
        "#pragma omp parallel for\n"
        "#endif\n"
        "  for (int i = 0; i < n; i++)\n"
        "    a[i] = 0.5; }\n"
        "}\n");

    /* The active loop after an #else: no safe place above it. */
    check_none("after_else.c",
        "void h(int n, double *a) {\n"
        "  int i;\n"
        "#pragma omp parallel for\n"
        "#if 0\n"
        "  for (i = 0; i < n; i++)\n"
        "#else\n"
        "  for (i = 1; i < n; i++)\n"
        "#endif\n"
        "    a[i] = 0.5;\n"
        "}\n");

    /* _Pragma from a macro: the opening goes above the macro's line; a
     * user #line is the user's own (presumed lines from 100 on). */
    check_case("pragma_macro.c",
        "#define PFOR _Pragma(\"omp parallel for\")\n"
        "#line 100\n"
        "void k(int n, double *a) {\n"
        "  PFOR\n"
        "  for (int i = 0; i < n; i++) a[i] = 1;\n"
        "}\n",
        INSTRUMENT_REPORT,
        "#define PFOR _Pragma(\"omp parallel for\")\n"
        "#line 100\n"
        "void k(int n, double *a) { " OPEN1(0, "n", 5, 3) "\n"
        "  PFOR\n"
        "  for (int i = 0; i < n; i++) a[i] = 1; }\n"
        "}\n");
    /* Below a directive that is not its own (a #line, a #define) the
     * opening gets lines of its own, then `#line N` (the user's numbering
     * goes on). */
    check_case("line_above.c",
        "void k(int n, double *a) {\n"
        "#line 100\n"
        "  for (int i = 0; i < n; i++) a[i] = 1;\n"
        "}\n",
        INSTRUMENT_REPORT,
        "void k(int n, double *a) {\n"
        "#line 100\n"
        OPEN1(0, "n", 3, 3) "\n"
        "#line 100\n"
        "  for (int i = 0; i < n; i++) a[i] = 1; }\n"
        "}\n");

    /* A loop sharing its first or last line with other code: keel's text
     * on lines of its own, each side continuing after #line with blanks
     * (tabs kept) to its column. */
    check_case("midline.c",
        "void f(int n, int *a) {\n"
        "\tint k = 2; for (int i = 0; i < n; i++) a[i] = k; k = 3;\n"
        "  (void)k;\n"
        "}\n",
        INSTRUMENT_REPORT,
        "void f(int n, int *a) {\n"
        "\tint k = 2; \n"
        OPEN1(0, "n", 2, 13) "\n"
        "#line 2\n"
        "\t           for (int i = 0; i < n; i++) a[i] = k;\n"
        "}\n"
        "#line 2\n"
        "\t" "                                                " /* 48 */ " k = 3;\n"
        "  (void)k;\n"
        "}\n");

    /* Fault 04: a pragma on the line above a loop that starts after `}` is
     * not the loop's; the opening goes at the loop, inside nothing else. */
    check_case("split.c",
        "void f(int n, int *a, int *b) {\n"
        "  int i, j;\n"
        "  for (i = 0; i < n; i++) {\n"
        "    a[i] = i;\n"
        "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
        "  } for (j = 0; j < n; j++) b[j] = 1;\n"
        "}\n",
        INSTRUMENT_REPORT,
        "void f(int n, int *a, int *b) {\n"
        "  int i, j; " OPEN1(0, "n", 3, 3) "\n"
        "  for (i = 0; i < n; i++) {\n"
        "    a[i] = i;\n"
        "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
        "  }\n"
        "}\n"
        "#line 6\n"
        "    \n"
        OPEN1(1, "n", 6, 5) "\n"
        "#line 6\n"
        "    for (j = 0; j < n; j++) b[j] = 1; }\n"
        "}\n");

    /* No line breaks where an empty body follows (clang would lose its
     * -Wempty-body warning): the loop sharing its line is left alone. */
    check_none("midline_empty.c",
        "void f(int n, int *a) {\n"
        "\tint k = 2; for (int i = 0; i < n; i++) a[i] = k;\n"
        "\tif (k);\n"
        "}\n");

    /* A // comment spliced onto the next line after the loop (clang warns
     * at its column) and a `while (...);` before it on the line above (a
     * statement after it there would make clang call the `;` a typo). */
    check_none("spliced.c",
        "void f(int n, double *a) {\n"
        "  for (int i = 0; i < n; i++) a[i] = i * 0.5; // trailing backslash \\\n"
        "  a[0] = 1;\n"
        "}\n");
    check_none("emptyloop.c",
        "int getchar(void);\n"
        "void f(int n, double *a) {\n"
        "  while (getchar() != 'x');\n"
        "  for (int i = 0; i < n; i++) a[i] = i;\n"
        "}\n");

    /* A commented-out pragma is not a pragma; a UTF-8 BOM stays first; a
     * trailing // comment after the loop moves right when no line has
     * room for the `}`. */
    check_case("comment.c",
        "\xef\xbb\xbfvoid f(int n, int *a) {\n"
        "/* disabled:\n"
        "#pragma omp parallel for\n"
        "*/\n"
        "  for (int i = 0; i < n; i++) a[i] = 0; // done\n"
        "}\n",
        INSTRUMENT_REPORT,
        "\xef\xbb\xbfvoid f(int n, int *a) { " OPEN1(0, "n", 5, 3) "\n"
        "/* disabled:\n"
        "#pragma omp parallel for\n"
        "*/\n"
        "  for (int i = 0; i < n; i++) a[i] = 0; } // done\n"
        "}\n");

    /* Values a loop's head assigns (`i = 0, n = len`) cannot be read before
     * the loop; a volatile bound is never read again; a loop carrying a
     * dependence cannot be offloaded; a bound the runtime cannot evaluate
     * (a call): none of these gets a call. */
    check_none("head.c",
        "void f(int n, int len, int *a) {\n"
        "  int i;\n"
        "  for (i = 0, n = len; i < n; i++)\n"
        "    a[i] = 0;\n"
        "}\n");
    check_none("getline.c",
        "int next(int *);\n"
        "void f(int *a) {\n"
        "  int n, c;\n"
        "  while ((n = next(&c)) != -1)\n"
        "    a[n] = c;\n"
        "}\n");
    check_none("volatile.c",
        "extern volatile int cnt;\n"
        "int a[64];\n"
        "void f(void) {\n"
        "  for (int i = 0; i < cnt; i++)\n"
        "    a[i] = i;\n"
        "}\n");
    check_none("sequential.c",
        "void g(int n, double *a) {\n"
        "  for (int i = 1; i < n; i++)\n"
        "    a[i] = a[i - 1] + 1;\n"
        "}\n");
    check_none("callbound.c",
        "int len(void);\n"
        "void g(double *a) {\n"
        "  for (int i = 0; i < len(); i++)\n"
        "    a[i] = 1;\n"
        "}\n");

    /* Fault 01: a NUL byte in a comment: the whole text is kept. */
    {
        static const char src[] =
            "void f(int n, int *a) {\n"
            "  for (int i = 0; i < n; i++) a[i] = 0;\n"
            "}\n"
            "// NUL: \0 here\n"
            "int after = 100;\n";
        char path[256];
        size_t outlen = 0;
        char *got = instrumented_n("nul.c", src, sizeof src - 1, INSTRUMENT_REPORT, path,
                                   sizeof path, &outlen);
        CHECK(got != NULL);
        const char *tail = "// NUL: \0 here\nint after = 100;\n";
        size_t tl = sizeof "// NUL: \0 here\nint after = 100;\n" - 1;
        CHECK(got && outlen > tl && memcmp(got + outlen - tl, tail, tl) == 0);
        free(got);
    }

    /* Offload: the target loop inside a time loop gets an if clause (before
     * a trailing // comment, fault 24), the time loop a report call (its
     * nest holds a parallel loop). */
    check_case("offload.c",
        "void h(int tsteps, int n, double *a, double *b) {\n"
        "  int t, i;\n"
        "  for (t = 0; t < tsteps; t++) {\n"
        "#pragma omp target teams distribute parallel for \\\n"
        "    map(tofrom: a[0:n], b[0:n]) // offload me\n"
        "    for (i = 1; i < n - 1; i++)\n"
        "      b[i] = a[i - 1] + a[i + 1];\n"
        "  }\n"
        "}\n",
        INSTRUMENT_OFFLOAD,
        "void h(int tsteps, int n, double *a, double *b) {\n"
        "  int t, i; " LABEL(0) "{ " DECLS_REPORT(0)
        SITE(0, "", 3, 3, -5, "char t1[{tsteps}]; char t2[{n}]; char t3[{&b}]; char t4[{&a}];"
             " char t5[{=/db/keel.db}]; ", "\"tsteps\", \"n\", \"&b\", \"&a\", ")
        "static int keel_v_0 = -1; __extension__ static long long keel_last_0[4]; "
        "__extension__ long long keel_x_0[] = { (long long)(tsteps), (long long)(n), (long long)(__INTPTR_TYPE__)(b), (long long)(__INTPTR_TYPE__)(a) }; if (keel_v_0 < 0 || keel_last_0[0] != keel_x_0[0] || keel_last_0[1] != keel_x_0[1] || keel_last_0[2] != keel_x_0[2] || keel_last_0[3] != keel_x_0[3]) { keel_last_0[0] = keel_x_0[0]; keel_last_0[1] = keel_x_0[1]; keel_last_0[2] = keel_x_0[2]; keel_last_0[3] = keel_x_0[3]; keel_v_0 = keel_decide_report__0(&keel_site_0, keel_x_0); } "
        "\n"
        "  for (t = 0; t < tsteps; t++) { " OFFLOAD_BA(1, "n", 6, 5) "\n"
        "#pragma omp target teams distribute parallel for \\\n"
        "    map(tofrom: a[0:n], b[0:n]) if(target: keel_on_gpu_1) // offload me\n"
        "    for (i = 1; i < n - 1; i++)\n"
        "      b[i] = a[i - 1] + a[i + 1]; " DONE(1) " }\n"
        "  } }\n"
        "}\n");

    /* Offload, a bare `target` construct whose `{ }` block holds the
     * worksharing nests (issue 10): the if(target:) clause goes on that
     * directive (after its continuation line, before the comment), the
     * decisions before it; two nests in one region share the one clause
     * OpenMP allows (GPU when both say GPU).  A region with an `if` already
     * keeps it (report call), a region of sequential code gets nothing. */
    check_case("bare.c",
        "void two(int n, float *a, float *b) {\n"
        "#pragma omp target \\\n"
        "    map(tofrom: a[0:n], b[0:n]) // region\n"
        "  {\n"
        "#pragma omp parallel for\n"
        "    for (int i = 0; i < n; i++)\n"
        "      a[i] += 1;\n"
        "#pragma omp parallel for\n"
        "    for (int i = 0; i < n; i++)\n"
        "      b[i] += a[i];\n"
        "  }\n"
        "}\n"
        "void given(int n, float *a) {\n"
        "#pragma omp target if(n > 10)\n"
        "  {\n"
        "#pragma omp teams distribute parallel for\n"
        "    for (int i = 0; i < n; i++)\n"
        "      a[i] += 1;\n"
        "  }\n"
        "}\n"
        "void seq(int n, float *a) {\n"
        "#pragma omp target map(tofrom: a[0:n])\n"
        "  {\n"
        "    for (int i = 1; i < n; i++)\n"
        "      a[i] = a[i - 1] + 1;\n"
        "  }\n"
        "}\n",
        INSTRUMENT_OFFLOAD,
        "void two(int n, float *a, float *b) { " OFFLOAD1(0, "n", 6, 5) " " OFFLOAD_BA(1, "n", 9, 5) "\n"
        "#pragma omp target \\\n"
        "    map(tofrom: a[0:n], b[0:n]) if(target: keel_on_gpu_0 && keel_on_gpu_1) // region\n"
        "  {\n"
        "#pragma omp parallel for\n"
        "    for (int i = 0; i < n; i++)\n"
        "      a[i] += 1;\n"
        "#pragma omp parallel for\n"
        "    for (int i = 0; i < n; i++)\n"
        "      b[i] += a[i];\n"
        "  } " DONE(1) " } " DONE(0) " }\n"
        "}\n"
        "void given(int n, float *a) { " OPEN1(2, "n", 17, 5) "\n"
        "#pragma omp target if(n > 10)\n"
        "  {\n"
        "#pragma omp teams distribute parallel for\n"
        "    for (int i = 0; i < n; i++)\n"
        "      a[i] += 1;\n"
        "  } }\n"
        "}\n"
        "void seq(int n, float *a) {\n"
        "#pragma omp target map(tofrom: a[0:n])\n"
        "  {\n"
        "    for (int i = 1; i < n; i++)\n"
        "      a[i] = a[i - 1] + 1;\n"
        "  }\n"
        "}\n");

    /* A nest inside a `target data` region that opens above its own pragmas
     * is decided before the region, never inside device code, and reads
     * only values declared before the region (m is declared inside it). */
    {
        char path[256];
        char *got = instrumented("region.c",
            "void r(int n, float *a) {\n"
            "#pragma omp target data map(tofrom: a[0:n])\n"
            "  {\n"
            "    int m = n;\n"
            "#pragma omp target teams distribute parallel for\n"
            "    for (int i = 0; i < m; i++)\n"
            "      a[i] += 1;\n"
            "  }\n"
            "}\n", INSTRUMENT_REPORT, path, sizeof path);
        const char *call = got ? strstr(got, "keel_site_0 =") : NULL;
        const char *region = got ? strstr(got, "#pragma omp target data") : NULL;
        if (got && !(call && region && call < region))
            fprintf(stderr, "region.c: %s\n", got);
        CHECK(!got || (call && region && call < region));
        CHECK(!got || strstr(got, "(long long)(m)") == NULL);
        free(got);
    }

    /* `omp barrier` and `omp section` are not the loop's pragmas: the opening
     * goes below them (the block is the section's statement): on a blank
     * line when there is one, else on lines of its own. */
    check_case("barrier.c",
        "void s(int n, double *a, double *b) {\n"
        "#pragma omp parallel\n"
        "  {\n"
        "#pragma omp barrier\n"
        "\n"
        "#pragma omp for\n"
        "    for (int i = 0; i < n; i++) a[i] = 0;\n"
        "#pragma omp sections\n"
        "    {\n"
        "#pragma omp section\n"
        "      for (int i = 0; i < n; i++) b[i] = 1;\n"
        "    }\n"
        "  }\n"
        "}\n",
        INSTRUMENT_REPORT,
        "void s(int n, double *a, double *b) {\n"
        "#pragma omp parallel\n"
        "  {\n"
        "#pragma omp barrier\n"
        OPEN1(0, "n", 7, 5) "\n"
        "#pragma omp for\n"
        "    for (int i = 0; i < n; i++) a[i] = 0; }\n"
        "#pragma omp sections\n"
        "    {\n"
        "#pragma omp section\n"
        OPEN1(1, "n", 11, 7) "\n"
        "#line 11\n"
        "      for (int i = 0; i < n; i++) b[i] = 1; }\n"
        "    }\n"
        "  }\n"
        "}\n");

    /* Nothing to instrument: no text at all. */
    check_none("none.c", "int k(int x) { return x + 1; }\n");

    test_columns();
    test_one_line();
    test_empty_body();

    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    return check_summary();
}
