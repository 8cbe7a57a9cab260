/*
 * test_variants.c -- one source, several builds (issue 9 item 7, issue 16
 * fault 21): translation_units keeps one set of rows per (path, variant).
 *
 * Builds a database at the schema just before the variants migration (the
 * migrations up to the one that rebuilds translation_units, run by hand),
 * writes a TU with a loop into it, lets db_open migrate it and checks the
 * rows and their cascades survived.  Then the replacement rules of
 * db_begin_tu: the same variant replaces its rows, another variant adds its
 * own (also when compiled into the object of another: a program linked
 * from that object before still needs those rows), a row
 * without a variant (or from before variants) replaces / is replaced by
 * all, at most DB_VARIANTS_PER_PATH variants stay (the oldest go); and the
 * runtime's lookups: db_find_loop_build prefers the loop of the build hash
 * asked for, db_next_roots reads one build's nests only.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "db.h"

extern const char *const db_migrations[];
extern const int db_nmigrations;

static char dbpath[256];
static char err[512];

static long long q(const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_open(dbpath, &h) != SQLITE_OK)
        return -2;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return v;
}

static char qs_buf[1024];
static const char *qs(const char *sql)
{
    sqlite3 *h;
    sqlite3_stmt *st;
    snprintf(qs_buf, sizeof qs_buf, "(none)");
    if (sqlite3_open(dbpath, &h) != SQLITE_OK)
        return qs_buf;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) {
            const unsigned char *t = sqlite3_column_text(st, 0);
            snprintf(qs_buf, sizeof qs_buf, "%s", t ? (const char *)t : "(null)");
        }
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return qs_buf;
}

/* One TU of /s/a.c with one outermost loop at line:5 col 3 (and one at
 * line, when line != 5) in function fn; its id, or -1. */
static long long write_tu(db *d, const char *hash, const char *variant, const char *object,
                          const char *fn, int line)
{
    int64_t tu, f, l;
    db_tu_row t = { .path = "/s/a.c", .hash = hash, .args = "[]", .compiler = "clang-19",
                    .directory = "/s", .status = "ok", .variant = variant, .object = object };
    if (db_begin_tu(d, &t, &tu, err, sizeof err))
        return -1;
    db_function_row fr = { .name = fn, .file = "/s/a.c", .line = 1, .col = 6 };
    db_loop_row lr = { .file = "/s/a.c", .line = 5, .col = 3, .end_line = 6, .kind = "for",
                       .canonical = 1, .iv = "i", .lower = "0", .upper = "n", .step = 1,
                       .trip = "n", .pragmas = "[]" };
    if (db_add_function(d, tu, &fr, &f, err, sizeof err) || db_add_loop(d, f, &lr, &l, err, sizeof err))
        return db_rollback_tu(d), -1;
    if (line != 5) {
        lr.line = line;
        if (db_add_loop(d, f, &lr, &l, err, sizeof err))
            return db_rollback_tu(d), -1;
    }
    if (db_commit_tu(d, err, sizeof err))
        return -1;
    return tu;
}

/* The index of the migration that gives translation_units its variants. */
static int variants_migration(void)
{
    for (int v = 0; v < db_nmigrations; v++)
        if (strstr(db_migrations[v], "RENAME TO translation_units"))
            return v;
    return -1;
}

static void check_migration(void)
{
    int k = variants_migration();
    CHECK(k > 0);
    if (k <= 0)
        return;
    sqlite3 *h;
    CHECK_INT(sqlite3_open(dbpath, &h), SQLITE_OK);
    for (int v = 0; v < k; v++)
        CHECK_INT(sqlite3_exec(h, db_migrations[v], NULL, NULL, NULL), SQLITE_OK);
    CHECK_INT(sqlite3_exec(h,
        "INSERT INTO keel_meta(key, value) VALUES ('schema_version', 'old');"
        "INSERT INTO translation_units(id, path, hash) VALUES (7, '/s/a.c', 'aa');"
        "INSERT INTO expressions(id, tu_id, text, affine) VALUES (1, 7, 'n', 1);"
        "INSERT INTO functions(id, tu_id, name) VALUES (1, 7, 'f');"
        "INSERT INTO loops(id, tu_id, function_id, file, line, col, depth, canonical, step,"
        " trip_id, n_if, n_break, n_continue, n_goto, n_return)"
        " VALUES (1, 7, 1, '/s/a.c', 5, 3, 0, 1, 1, 1, 0, 0, 0, 0, 0);",
        NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);

    db *d = NULL;
    CHECK_INT(db_open(dbpath, DB_WRITE, &d, err, sizeof err), 0);
    CHECK_INT(db_schema_version(d), DB_SCHEMA_VERSION);
    db_close(d);
    CHECK_INT(q("PRAGMA user_version"), DB_SCHEMA_VERSION);
    /* the rows, their ids and their children survived the rebuild */
    CHECK_STR(qs("SELECT id || path || hash || coalesce(variant, '-') || coalesce(object, '-')"
                 " FROM translation_units"), "7/s/a.caa--");
    CHECK_INT(q("SELECT count(*) FROM loops l JOIN expressions e ON e.id = l.trip_id"
                " JOIN functions f ON f.id = l.function_id WHERE l.tu_id = 7"), 1);
    CHECK_INT(q("SELECT count(*) FROM pragma_foreign_key_check"), 0);
    CHECK_INT(q("SELECT count(*) FROM sqlite_master WHERE type = 'table'"
                " AND name = 'translation_units_v7'"), 0);
    CHECK_INT(q("SELECT count(*) FROM sqlite_master WHERE name = 'translation_units_variant'"), 1);
}

static const char *variants_of_a(void)
{
    return qs("SELECT group_concat(coalesce(variant, '-') || '@' || coalesce(object, '-'), ' ')"
              " FROM (SELECT variant, object FROM translation_units WHERE path = '/s/a.c'"
              " ORDER BY id)");
}

static void check_replacement(void)
{
    db *d = NULL;
    CHECK_INT(db_open(dbpath, DB_WRITE, &d, err, sizeof err), 0);
    if (!d)
        return;
    /* the row from before variants goes, with its children (cascade on) */
    CHECK(write_tu(d, "h1", "v1", "/o/f.o", "sum_f", 8) > 0);
    CHECK_STR(variants_of_a(), "v1@/o/f.o");
    CHECK_INT(q("SELECT count(*) FROM loops WHERE tu_id = 7"), 0);
    CHECK_INT(q("SELECT count(*) FROM functions WHERE tu_id = 7"), 0);
    /* another variant into another object: both builds kept */
    CHECK(write_tu(d, "h2", "v2", "/o/d.o", "sum_d", 5) > 0);
    CHECK_STR(variants_of_a(), "v1@/o/f.o v2@/o/d.o");
    CHECK_INT(q("SELECT count(*) FROM loops"), 3);
    /* the same variant again (a rebuild, or the source edited): replaced,
     * nothing grows */
    CHECK(write_tu(d, "h1b", "v1", "/o/f.o", "sum_f", 8) > 0);
    CHECK_STR(variants_of_a(), "v2@/o/d.o v1@/o/f.o");
    CHECK_INT(q("SELECT count(*) FROM loops"), 3);
    CHECK_INT(q("SELECT count(*) FROM functions"), 2);
    CHECK_INT(q("SELECT count(*) FROM expressions"), 4);   /* "0" and "n" per build */
    /* the same variant into another object: still one row for it */
    CHECK(write_tu(d, "h1b", "v1", "/o/f2.o", "sum_f", 8) > 0);
    CHECK_STR(variants_of_a(), "v2@/o/d.o v1@/o/f2.o");
    /* other flags into the object of v2: v2's rows stay (a program linked
     * from the object before holds v2's sites) */
    CHECK(write_tu(d, "h3", "v3", "/o/d.o", "sum_d", 5) > 0);
    CHECK_STR(variants_of_a(), "v2@/o/d.o v1@/o/f2.o v3@/o/d.o");

    /* the runtime's lookup: the loop of the site's build */
    int64_t id = 0;
    long long l_v1 = q("SELECT l.id FROM loops l JOIN translation_units t ON t.id = l.tu_id"
                       " WHERE t.variant = 'v1' AND l.line = 5");
    long long l_v3 = q("SELECT l.id FROM loops l JOIN translation_units t ON t.id = l.tu_id"
                       " WHERE t.variant = 'v3' AND l.line = 5");
    long long l_v2 = q("SELECT l.id FROM loops l JOIN translation_units t ON t.id = l.tu_id"
                       " WHERE t.variant = 'v2' AND l.line = 5");
    CHECK(l_v2 > 0 && l_v1 > 0 && l_v3 > 0 && l_v2 < l_v1 && l_v1 < l_v3);
    CHECK_INT(db_find_loop_build(d, "/s/a.c", 5, 3, "h3", &id, err, sizeof err), 0);
    CHECK_INT(id, l_v3);
    CHECK_INT(db_find_loop_build(d, "/s/a.c", 5, 3, "h1b", &id, err, sizeof err), 0);
    CHECK_INT(id, l_v1);
    CHECK_INT(db_find_loop_build(d, "/s/a.c", 5, 3, "h2", &id, err, sizeof err), 0);
    CHECK_INT(id, l_v2);   /* the build that object held before v3 */
    /* no such build: another one's loop, the oldest (the caller sees the
     * hash differ) */
    CHECK_INT(db_find_loop_build(d, "/s/a.c", 5, 3, "0000", &id, err, sizeof err), 0);
    CHECK_INT(id, l_v2);
    CHECK_INT(db_find_loop_build(d, "/s/a.c", 5, 3, NULL, &id, err, sizeof err), 0);
    CHECK_INT(id, l_v2);
    CHECK_INT(db_find_loop(d, "/s/a.c", 5, 0, &id, err, sizeof err), 0);
    CHECK_INT(id, l_v2);
    CHECK_INT(db_find_loop_build(d, "/s/a.c", 8, 3, "h3", &id, err, sizeof err), 0);
    char have[17] = "";
    CHECK_INT(db_loop_source_hash(d, id, have, sizeof have, err, sizeof err), 0);
    CHECK_STR(have, "h1b");
    /* read-ahead: one build's nests */
    int lines[4], cols[4];
    CHECK_INT(db_next_roots(d, "/s/a.c", 1, 0, "h3", 4, lines, cols, err, sizeof err), 1);
    CHECK_INT(db_next_roots(d, "/s/a.c", 1, 0, "h1b", 4, lines, cols, err, sizeof err), 2);
    CHECK_INT(lines[1], 8);
    CHECK_INT(db_next_roots(d, "/s/a.c", 1, 0, NULL, 4, lines, cols, err, sizeof err), 4);

    /* at most DB_VARIANTS_PER_PATH builds of one source: the oldest go */
    for (int i = 0; i < DB_VARIANTS_PER_PATH + 4; i++) {
        char v[16], o[32];
        snprintf(v, sizeof v, "w%d", i);
        snprintf(o, sizeof o, "/o/w%d.o", i);
        CHECK(write_tu(d, v, v, o, "g", 5) > 0);
    }
    CHECK_INT(q("SELECT count(*) FROM translation_units WHERE path = '/s/a.c'"),
              DB_VARIANTS_PER_PATH);
    CHECK_STR(qs("SELECT variant FROM translation_units ORDER BY id LIMIT 1"), "w4");
    CHECK_INT(q("SELECT count(*) FROM loops"), DB_VARIANTS_PER_PATH);

    /* a row without a variant replaces every build of its path */
    CHECK(write_tu(d, "h", NULL, NULL, "g", 5) > 0);
    CHECK_STR(variants_of_a(), "-@-");
    CHECK_INT(q("SELECT count(*) FROM loops"), 1);
    db_close(d);
}

int main(void)
{
    snprintf(dbpath, sizeof dbpath, "/tmp/keel-variants-%d.db", (int)getpid());
    unlink(dbpath);
    check_migration();
    check_replacement();
    unlink(dbpath);
    char side[300];
    snprintf(side, sizeof side, "%s-wal", dbpath);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", dbpath);
    unlink(side);
    return check_summary();
}
