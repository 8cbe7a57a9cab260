/*
 * test_concurrency.c -- many keelcc-like writers on one database at once.
 *
 * Eight writer processes start together on a database file that does not
 * exist yet (so they also race to create the schema), each writes 20 TUs
 * with paths of its own and rewrites 3 shared paths 3 times each; a reader
 * process queries all the while.  Afterwards the row counts must be exact:
 * nothing lost, nothing duplicated, and every shared TU consistent (its
 * rows all come from the one write that won).
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "db.h"

enum { WRITERS = 8, OWN = 20, SHARED = 3, REWRITES = 3 };

static char dbpath[256];

/* One TU: a function, a 2-deep nest, one statement with one access and one
 * scalar.  tag goes into hash, function name and statement text so the
 * checker can see that all rows of a TU come from the same write. */
static int write_tu(db *d, const char *path, const char *tag, char *err, size_t errlen)
{
    int64_t tu, f, l1, l2, s;
    const char *ij[] = { "i", "j" }, *nn[] = { "n", "n" };
    db_tu_row t = { .path = path, .hash = tag, .args = "[]", .compiler = "cc",
                    .directory = "/", .status = "ok" };
    if (db_begin_tu(d, &t, &tu, err, errlen))
        return -1;
    if (db_add_function(d, tu, &(db_function_row){ .name = tag, .file = path, .line = 1 },
                        &f, err, errlen) ||
        db_add_loop(d, f, &(db_loop_row){ .file = path, .line = 2, .kind = "for", .iv = "i",
                                          .lower = "0", .upper = "n", .step = 1, .trip = "n" },
                    &l1, err, errlen) ||
        db_add_loop(d, f, &(db_loop_row){ .parent_id = l1, .file = path, .line = 3, .depth = 1,
                                          .kind = "for", .iv = "j", .lower = "0", .upper = "n",
                                          .step = 1, .trip = "n" }, &l2, err, errlen) ||
        db_add_stmt(d, l2, &(db_stmt_row){ .line = 4, .text = tag, .fadd = 1 }, &s, err, errlen) ||
        db_add_access(d, s, &(db_access_row){ .array = "A", .elem_size = 8, .is_write = 1,
                                              .ndims = 2, .index = ij, .nextents = 2,
                                              .extent = nn, .affine = 1 }, NULL, err, errlen) ||
        db_add_scalar(d, s, &(db_scalar_row){ .name = "x", .line = 4 }, err, errlen)) {
        db_rollback_tu(d);
        return -1;
    }
    return db_commit_tu(d, err, errlen);
}

static int writer(int w)
{
    char err[512], path[64], tag[64];
    db *d;
    if (db_open(dbpath, DB_WRITE, &d, err, sizeof err)) {
        fprintf(stderr, "writer %d: %s\n", w, err);
        return 1;
    }
    for (int k = 0; k < OWN; k++) {
        snprintf(path, sizeof path, "/w%d/f%d.c", w, k);
        snprintf(tag, sizeof tag, "w%d_f%d", w, k);
        if (write_tu(d, path, tag, err, sizeof err)) {
            fprintf(stderr, "writer %d: %s\n", w, err);
            db_close(d);
            return 1;
        }
        if (k % (OWN / (SHARED * REWRITES) + 1) == 0) {
            for (int s = 0; s < SHARED; s++) {
                snprintf(path, sizeof path, "/shared/s%d.c", s);
                snprintf(tag, sizeof tag, "w%d_s%d_k%d", w, s, k);
                if (write_tu(d, path, tag, err, sizeof err)) {
                    fprintf(stderr, "writer %d: %s\n", w, err);
                    db_close(d);
                    return 1;
                }
            }
        }
    }
    db_close(d);
    return 0;
}

static int count_row(void *ctx, const db_loop_summary *r)
{
    (void)r;
    ++*(int *)ctx;
    return 0;
}

/* Read while the writers write: once the database exists, every query
 * must succeed. */
static int reader(void)
{
    char err[512];
    db *d = NULL;
    for (int tries = 0; !d && tries < 5000; tries++)
        if (db_open(dbpath, DB_READONLY, &d, err, sizeof err)) {
            struct timespec ts = { 0, 1000000 };
            nanosleep(&ts, NULL);
        }
    if (!d) {
        fprintf(stderr, "reader: %s\n", err);
        return 1;
    }
    for (int i = 0; i < 50; i++) {
        int n = 0;
        if (db_each_loop(d, NULL, count_row, &n, err, sizeof err)) {
            fprintf(stderr, "reader: %s\n", err);
            db_close(d);
            return 1;
        }
        if (n % 2) {
            fprintf(stderr, "reader: odd loop count %d (a TU seen half written)\n", n);
            db_close(d);
            return 1;
        }
    }
    db_close(d);
    return 0;
}

static long long q(sqlite3 *h, const char *sql)
{
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW)
            v = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    } else
        fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(h));
    return v;
}

int main(void)
{
    char dir[] = "/tmp/keel-db-conc-XXXXXX";
    int go[2];
    pid_t pid[WRITERS + 1];

    if (!mkdtemp(dir) || pipe(go)) {
        perror("setup");
        return 1;
    }
    snprintf(dbpath, sizeof dbpath, "%s/conc.db", dir);
    for (int w = 0; w <= WRITERS; w++) {
        pid[w] = fork();
        if (pid[w] < 0) {
            perror("fork");
            return 1;
        }
        if (pid[w] == 0) {
            char c;
            close(go[1]);
            if (read(go[0], &c, 1) < 0)    /* returns 0 when the parent closes */
                _exit(1);
            _exit(w < WRITERS ? writer(w) : reader());
        }
    }
    close(go[0]);
    close(go[1]);   /* all start now */
    for (int w = 0; w <= WRITERS; w++) {
        int status;
        CHECK(waitpid(pid[w], &status, 0) == pid[w]);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }

    sqlite3 *h;
    CHECK_INT(sqlite3_open_v2(dbpath, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    int tus = WRITERS * OWN + SHARED;
    CHECK_INT(q(h, "PRAGMA user_version"), DB_SCHEMA_VERSION);
    CHECK_INT(q(h, "SELECT count(*) FROM keel_meta WHERE key = 'created_by'"), 1);
    CHECK_INT(q(h, "SELECT count(*) FROM translation_units"), tus);
    CHECK_INT(q(h, "SELECT count(DISTINCT path) FROM translation_units"), tus);
    CHECK_INT(q(h, "SELECT count(*) FROM translation_units WHERE path LIKE '/shared/%'"), SHARED);
    CHECK_INT(q(h, "SELECT count(*) FROM functions"), tus);
    CHECK_INT(q(h, "SELECT count(*) FROM loops"), 2 * tus);
    CHECK_INT(q(h, "SELECT count(*) FROM statements"), tus);
    CHECK_INT(q(h, "SELECT count(*) FROM accesses"), tus);
    CHECK_INT(q(h, "SELECT count(*) FROM access_subscripts"), 2 * tus);
    CHECK_INT(q(h, "SELECT count(*) FROM access_extents"), 2 * tus);
    CHECK_INT(q(h, "SELECT count(*) FROM scalars"), tus);
    CHECK_INT(q(h, "SELECT count(*) FROM expressions"), 4 * tus);   /* 0 n i j */
    CHECK_INT(q(h, "SELECT count(*) FROM loop_summary"), 2 * tus);
    /* every TU's rows come from one write: same tag everywhere */
    CHECK_INT(q(h, "SELECT count(*) FROM translation_units t"
                   " JOIN functions f ON f.tu_id = t.id"
                   " JOIN loops l ON l.function_id = f.id AND l.tu_id = t.id"
                   " JOIN statements s ON s.loop_id = l.id"
                   " WHERE f.name = t.hash AND s.text = t.hash"), tus);
    /* no rows left without their TU */
    CHECK_INT(q(h, "SELECT count(*) FROM expressions WHERE tu_id NOT IN"
                   " (SELECT id FROM translation_units)"), 0);
    CHECK_INT(q(h, "SELECT count(*) FROM loops WHERE tu_id NOT IN"
                   " (SELECT id FROM translation_units)"), 0);
    sqlite3_close(h);

    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
    return check_summary();
}
