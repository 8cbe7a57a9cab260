/*
 * test_store.c -- plugin/store.c: JSON arrays through SQLite, and analyses
 * that fail in part are one note each and a recorded reason, never a lost
 * translation unit.
 *
 * store_json_array is checked byte for byte (SQLite's escaping).  The
 * failures are real allocation failures: the test is linked with
 * -Wl,--wrap=malloc,calloc,realloc (keel's static libraries only; SQLite
 * and libclang are shared libraries and unaffected), and the k-th
 * allocation inside store_analyse fails, for every k until one run
 * completes without reaching k.  Every run must return 0 or -1 with "out of
 * memory"; some run must hit IPDA (note "IPDA failed (out of memory): every
 * loop stored as unknown") and some run the boat-hull classifier of the
 * second nest (note "line 6: the nest's algorithm class was not computed
 * (out of memory)"; the first nest's, line 3, is the only other note).
 * The IPDA case is then stored into a fresh database and read back with
 * plain SQL: the unit's status and message, every loop `unknown` with its
 * dependence reason.
 */
#define _XOPEN_SOURCE 700   /* realpath, mkdtemp */
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "store.h"
#include "walker.h"

/* ---- allocation failure injection ---- */
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);

static int inject;          /* counting allocations */
static long nallocs, fail_at;

static int fails(void)
{
    return inject && ++nallocs == fail_at;
}

void *__wrap_malloc(size_t n)
{
    return fails() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return fails() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    return fails() ? NULL : __real_realloc(p, n);
}

/* ---- helpers ---- */
static char tmpdir[] = "/tmp/keel-store-XXXXXX";

/* One SQL value of the database at path, as text ("(null)" for NULL). */
static char *query(const char *path, const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    char *out = NULL;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK
        && sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) {
            const unsigned char *t = sqlite3_column_text(st, 0);
            out = strdup(t ? (const char *)t : "(null)");
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return out;
}

static void check_query(const char *db, const char *sql, const char *want)
{
    char *got = query(db, sql);
    CHECK_STR(got, want);
    free(got);
}

static void test_json(void)
{
    char *items[] = { "a", "b\"c", "d\\e", "t\tn\nx", "\x01", "-DX=\"1 2\"" };
    char *j = store_json_array(6, items);
    CHECK_STR(j, "[\"a\",\"b\\\"c\",\"d\\\\e\",\"t\\tn\\nx\",\"\\u0001\",\"-DX=\\\"1 2\\\"\"]");
    free(j);
    j = store_json_array(0, NULL);
    CHECK_STR(j, "[]");
    free(j);
    j = store_json_array(1, items);   /* the scratch table starts empty again */
    CHECK_STR(j, "[\"a\"]");
    free(j);
}

static const char source[] =
    "void f(int n, double a[n][n], double b[n][n])\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        for (int j = 0; j < n; j++)\n"
    "            a[i][j] = b[j][i];\n"
    "    for (int i = 1; i < n; i++)\n"
    "        a[i][0] = a[i - 1][0] + 1;\n"
    "}\n";

int main(void)
{
    test_json();

    char path[PATH_MAX], real[PATH_MAX], err[512];
    if (!mkdtemp(tmpdir))
        return 1;
    snprintf(path, sizeof path, "%s/f.c", tmpdir);
    FILE *f = fopen(path, "w");
    if (!f)
        return 1;
    fputs(source, f);
    fclose(f);
    if (!realpath(path, real))
        return 1;
    ir_tu *tu = NULL;
    CHECK_INT(walk_file(real, 0, NULL, &tu, err, sizeof err), 0);
    if (!tu)
        return check_summary();
    CHECK_INT(tu->nloops, 3);

    /* no failure: no notes */
    store_analysis *an = NULL;
    CHECK_INT(store_analyse(tu, &an, err, sizeof err), 0);
    CHECK_INT(store_analysis_nnotes(an), 0);
    CHECK(store_analysis_note(an, 0) == NULL);
    store_analysis_free(an);

    long ipda_at = 0, species_at = 0, failed = 0, runs = 0;
    int bad = 0;
    for (fail_at = 1; fail_at < 1000000; fail_at++) {
        an = NULL;
        err[0] = '\0';
        nallocs = 0;
        inject = 1;
        int rc = store_analyse(tu, &an, err, sizeof err);
        inject = 0;
        runs++;
        if (rc != 0) {
            failed++;
            bad += an != NULL || strcmp(err, "out of memory") != 0;
        } else if (store_analysis_nnotes(an) == 1) {
            const char *note = store_analysis_note(an, 0);
            if (!strcmp(note, "IPDA failed (out of memory): every loop stored as unknown"))
                ipda_at = ipda_at ? ipda_at : fail_at;
            else if (!strcmp(note, "line 6: the nest's algorithm class was not computed"
                                   " (out of memory)"))
                species_at = species_at ? species_at : fail_at;
            else if (strcmp(note, "line 3: the nest's algorithm class was not computed"
                                  " (out of memory)") != 0)
                bad++, fprintf(stderr, "unexpected note at %ld: %s\n", fail_at, note);
        } else if (store_analysis_nnotes(an) > 1) {
            bad++;
        }
        store_analysis_free(an);
        if (nallocs < fail_at)
            break;     /* ran to the end without reaching the failure */
    }
    printf("%ld runs, %ld failed whole, IPDA note at %ld, class note at %ld\n", runs, failed,
           ipda_at, species_at);
    CHECK_INT(bad, 0);
    CHECK(ipda_at > 0);
    CHECK(species_at > 0);
    CHECK(failed > 0);

    /* the IPDA failure, stored: the unit's message and every loop's reason */
    char db_path[PATH_MAX];
    snprintf(db_path, sizeof db_path, "%s/keel.db", tmpdir);
    db *d = NULL;
    CHECK_INT(db_open(db_path, DB_WRITE, &d, err, sizeof err), 0);
    fail_at = ipda_at;
    nallocs = 0;
    an = NULL;
    inject = 1;
    int rc = store_analyse(tu, &an, err, sizeof err);
    inject = 0;
    CHECK_INT(rc, 0);
    db_tu_row row = { .path = real, .hash = "0123456789abcdef", .args = "[]",
                      .compiler = "clang-19", .directory = "/", .status = "ok" };
    CHECK_INT(d ? store_tu_with(d, tu, an, &row, NULL, NULL, err, sizeof err) : -1, 0);
    store_analysis_free(an);
    db_close(d);
    check_query(db_path, "SELECT status || '|' || message FROM translation_units",
                "ok|IPDA failed (out of memory): every loop stored as unknown");
    check_query(db_path, "SELECT count(*) || ' ' || group_concat(DISTINCT parallel) FROM loops",
                "3 unknown");
    check_query(db_path, "SELECT count(*) || '|' || group_concat(DISTINCT reason) FROM"
                " loop_dependences WHERE verdict = 'unknown'",
                "3|not analysed: IPDA failed (out of memory)");
    /* the other analyses went on: the first nest has its class */
    check_query(db_path, "SELECT algorithm_class IS NOT NULL FROM loops WHERE line = 3", "1");

    /* the class failure, stored: a nest without a class, the reason in the unit */
    snprintf(db_path, sizeof db_path, "%s/keel2.db", tmpdir);
    d = NULL;
    CHECK_INT(db_open(db_path, DB_WRITE, &d, err, sizeof err), 0);
    fail_at = species_at;
    nallocs = 0;
    an = NULL;
    inject = 1;
    rc = store_analyse(tu, &an, err, sizeof err);
    inject = 0;
    CHECK_INT(rc, 0);
    CHECK_INT(d ? store_tu_with(d, tu, an, &row, NULL, NULL, err, sizeof err) : -1, 0);
    store_analysis_free(an);
    db_close(d);
    check_query(db_path, "SELECT status || '|' || message FROM translation_units",
                "ok|line 6: the nest's algorithm class was not computed (out of memory)");
    check_query(db_path, "SELECT coalesce(algorithm_class, 'none') FROM loops WHERE line = 6",
                "none");
    check_query(db_path, "SELECT parallel FROM loops WHERE line = 6", "sequential");

    ir_tu_free(tu);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", tmpdir);
    return check_summary();
}
