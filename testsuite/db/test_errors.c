/*
 * test_errors.c -- db_open on databases it must refuse, with the exact
 * one-line message, and without touching the file: a missing file, random
 * bytes, someone else's SQLite database, a keel database from the future,
 * places where nothing can be created, a FIFO and a device node, a file
 * with a damaged page (a writer must not bury the damage).  Permission checks that chmod
 * cannot make under root are skipped there.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

/* The schema version as a string ("2"), for expected messages. */
#define VSTR_(x) #x
#define VSTR(x) VSTR_(x)
#include "db.h"

static char dir[] = "/tmp/keel-db-err-XXXXXX";
static char err[512], want[1024];

/* db_open must fail in mode with exactly "<path>: <msg>". */
static void refuses(const char *path, int mode, const char *msg)
{
    db *d = NULL;
    strcpy(err, "(none)");
    CHECK_INT(db_open(path, mode, &d, err, sizeof err), -1);
    CHECK(d == NULL);
    snprintf(want, sizeof want, "%s: %s", path, msg);
    CHECK_STR(err, want);
    CHECK(strchr(err, '\n') == NULL);
    db_close(d);
}

static void sql(const char *path, const char *text)
{
    sqlite3 *h;
    if (sqlite3_open(path, &h) != SQLITE_OK || sqlite3_exec(h, text, NULL, NULL, NULL) != SQLITE_OK)
        fprintf(stderr, "sql: %s: %s\n", text, sqlite3_errmsg(h));
    sqlite3_close(h);
}

static long long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

static void path_in(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", dir, name);
}

int main(void)
{
    char p[512];
    db *d;

    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }

    /* missing file: a reader never creates */
    path_in(p, sizeof p, "missing.db");
    refuses(p, DB_READONLY, "no such file");
    CHECK_INT(file_size(p), -1);
    CHECK_INT(db_open("", DB_READONLY, &d, err, sizeof err), -1);
    CHECK_STR(err, "empty database path");

    /* random bytes */
    path_in(p, sizeof p, "random.db");
    FILE *f = fopen(p, "wb");
    unsigned x = 12345;
    for (int i = 0; i < 8192; i++) {
        x = x * 1103515245u + 12345u;
        fputc((int)(x >> 16) & 0xff, f);
    }
    fclose(f);
    refuses(p, DB_READONLY, "file is not a database");
    refuses(p, DB_WRITE, "file is not a database");
    CHECK_INT(file_size(p), 8192);

    /* someone else's database: tables, no keel_meta */
    path_in(p, sizeof p, "other.db");
    sql(p, "CREATE TABLE t(x); CREATE TABLE u(y);");
    refuses(p, DB_READONLY, "not a keel database");
    refuses(p, DB_WRITE, "not a keel database");
    path_in(p, sizeof p, "other5.db");
    sql(p, "PRAGMA user_version = 5; CREATE TABLE t(x);");
    refuses(p, DB_WRITE, "not a keel database");
    path_in(p, sizeof p, "other-empty.db");
    sql(p, "CREATE TABLE t(x); DROP TABLE t; CREATE VIEW v AS SELECT 1;");
    refuses(p, DB_WRITE, "not a keel database");

    /* an empty SQLite file is no keel database to a reader; a writer
     * makes it one */
    path_in(p, sizeof p, "empty.db");
    f = fopen(p, "wb");
    fclose(f);
    refuses(p, DB_READONLY, "not a keel database");
    CHECK_INT(db_open(p, DB_WRITE, &d, err, sizeof err), 0);
    CHECK_INT(db_schema_version(d), DB_SCHEMA_VERSION);
    db_close(d);
    CHECK_INT(db_open(p, DB_READONLY, &d, err, sizeof err), 0);
    CHECK_INT(db_schema_version(d), DB_SCHEMA_VERSION);
    db_close(d);

    /* a keel database from a newer keel */
    path_in(p, sizeof p, "future.db");
    CHECK_INT(db_open(p, DB_WRITE, &d, err, sizeof err), 0);
    db_close(d);
    sql(p, "PRAGMA user_version = 99");
    refuses(p, DB_READONLY, "database schema version 99 is newer than this keel (" VSTR(DB_SCHEMA_VERSION) ")");
    refuses(p, DB_WRITE, "database schema version 99 is newer than this keel (" VSTR(DB_SCHEMA_VERSION) ")");
    sql(p, "PRAGMA user_version = 1; DROP TABLE keel_meta;");
    refuses(p, DB_READONLY, "not a keel database");

    /* nowhere to create it */
    path_in(p, sizeof p, "no/such/dir/k.db");
    refuses(p, DB_WRITE, "cannot create database: No such file or directory");
    refuses(p, DB_READONLY, "no such file");
    /* /proc refuses new files with ENOENT for root, EACCES for others */
    CHECK_INT(db_open("/proc/keel-test.db", DB_WRITE, &d, err, sizeof err), -1);
    CHECK(strcmp(err, "/proc/keel-test.db: cannot create database: No such file or directory") == 0 ||
          strcmp(err, "/proc/keel-test.db: cannot create database: Permission denied") == 0);
    refuses(dir, DB_WRITE, "is a directory");
    refuses(dir, DB_READONLY, "is a directory");
    /* a FIFO would block the open (program and CLI hang); a device node
     * would get a world-writable journal beside it (/dev/null-journal) */
    path_in(p, sizeof p, "fifo.db");
    CHECK_INT(mkfifo(p, 0600), 0);
    refuses(p, DB_READONLY, "not a regular file");
    refuses(p, DB_WRITE, "not a regular file");
    unlink(p);
    int had_journal = file_size("/dev/null-journal") >= 0;
    refuses("/dev/null", DB_WRITE, "not a regular file");
    refuses("/dev/null", DB_READONLY, "not a regular file");
    if (!had_journal)
        CHECK_INT(file_size("/dev/null-journal"), -1);

    /* permissions: only meaningful when not root */
    if (geteuid() != 0) {
        path_in(p, sizeof p, "ro.db");
        CHECK_INT(db_open(p, DB_WRITE, &d, err, sizeof err), 0);
        db_close(d);
        chmod(p, 0444);
        refuses(p, DB_WRITE, "cannot open for writing: file is read-only");
        CHECK_INT(db_open(p, DB_READONLY, &d, err, sizeof err), 0);
        db_close(d);
        path_in(p, sizeof p, "rodir");
        mkdir(p, 0555);
        strcat(p, "/k.db");
        refuses(p, DB_WRITE, "cannot create database: Permission denied");
    } else
        printf("running as root: skipping chmod-based checks\n");

    /* bad arguments */
    path_in(p, sizeof p, "mode.db");
    refuses(p, 7, "bad open mode 7");

    /* An older keel database -- schema 1, as the first keelcc wrote it:
     * every table a later migration adds is gone and user_version is 1.  A
     * reader refuses it; a writer runs migrations 1 -> 2 -> ... -> current. */
    path_in(p, sizeof p, "old.db");
    CHECK_INT(db_open(p, DB_WRITE, &d, err, sizeof err), 0);
    db_close(d);
    sql(p, "DROP TABLE host_bandwidth;"
           " DROP TABLE access_strides; DROP TABLE loop_dependences; DROP TABLE decisions;"
           " DROP TABLE host_calibration; DROP TABLE idiom_instances; DROP TABLE loop_classes;"
           " DROP TABLE loop_counts; DROP TABLE loop_footprints; DROP TABLE mca_results;"
           " DROP TABLE mca_cache; ALTER TABLE loops DROP COLUMN gpu_map;"
           " ALTER TABLE loops DROP COLUMN gpu_collapse; ALTER TABLE loops DROP COLUMN gpu_teams;"
           " ALTER TABLE loops DROP COLUMN gpu_threads; ALTER TABLE loops DROP COLUMN region_line;"
           " DROP TABLE launches; DROP TABLE launch_loops; DROP TABLE access_loop_strides;"
           " DROP TABLE direct_cache; DROP TABLE launch_overlap; DROP TABLE nest_packs;"
           " ALTER TABLE statements DROP COLUMN est_cycles;"
           " ALTER TABLE statements DROP COLUMN est_gpu_insts; ALTER TABLE statements DROP COLUMN flops;"
           " PRAGMA user_version = 1;");
    refuses(p, DB_READONLY, "database schema version 1 is older than this keel ("
            VSTR(DB_SCHEMA_VERSION) "); recompile with keelcc to migrate it");
    d = NULL;
    CHECK_INT(db_open(p, DB_WRITE, &d, err, sizeof err), 0);
    CHECK_INT(db_schema_version(d), DB_SCHEMA_VERSION);
    db_close(d);
    {
        sqlite3 *h;
        sqlite3_stmt *st;
        long long n = -1;
        if (sqlite3_open(p, &h) == SQLITE_OK
            && sqlite3_prepare_v2(h, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN"
                                     " ('access_strides', 'loop_dependences', 'decisions', 'host_calibration',"
                                     " 'idiom_instances', 'loop_classes', 'loop_counts', 'loop_footprints',"
                                     " 'mca_results', 'mca_cache', 'launches', 'launch_loops',"
                                     " 'access_loop_strides', 'launch_overlap', 'nest_packs')", -1, &st, NULL) == SQLITE_OK) {
            if (sqlite3_step(st) == SQLITE_ROW)
                n = sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
        }
        sqlite3_close(h);
        CHECK_INT(n, 15);
    }

    /* A keel database with a damaged page: SQLite opens it and reads its
     * schema, only a full read sees the damage.  A writer refuses it with
     * one line and leaves every byte as it was. */
    path_in(p, sizeof p, "damaged.db");
    CHECK_INT(db_open(p, DB_WRITE, &d, err, sizeof err), 0);
    db_close(d);
    sql(p, "CREATE TABLE filler(x TEXT); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL"
           " SELECT i + 1 FROM c WHERE i < 3000) INSERT INTO filler SELECT printf('%040d', i)"
           " FROM c;");
    {
        long long size = file_size(p);
        CHECK(size > 16384);
        FILE *f = fopen(p, "r+b");
        CHECK(f != NULL);
        if (f) {
            /* the b-tree page header and cell pointers of the last page */
            fseek(f, (long)(size - 4096), SEEK_SET);
            for (int k = 0; k < 64; k++)
                fputc(0xA5, f);
            fclose(f);
        }
        FILE *in = fopen(p, "rb");
        static unsigned char before[1 << 20], after[1 << 20];
        size_t nb = in ? fread(before, 1, sizeof before, in) : 0;
        if (in)
            fclose(in);
        d = NULL;
        CHECK_INT(db_open(p, DB_WRITE, &d, err, sizeof err), -1);
        CHECK(d == NULL);
        CHECK(strstr(err, "database fails its integrity check (") != NULL);
        CHECK(strstr(err, "); not written") != NULL);
        CHECK(strchr(err, '\n') == NULL);
        in = fopen(p, "rb");
        size_t na = in ? fread(after, 1, sizeof after, in) : 0;
        if (in)
            fclose(in);
        CHECK(na == nb && memcmp(before, after, nb) == 0);
    }

    snprintf(want, sizeof want, "chmod -R u+w '%s'; rm -rf '%s'", dir, dir);
    if (system(want) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);

    return check_summary();
}
