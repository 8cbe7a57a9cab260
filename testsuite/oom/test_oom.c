/*
 * test_oom.c -- the allocation-failure loops (SQLite's and isl's habit).
 *
 *   test_oom pipeline INPUT.c DIR   parse INPUT.c once, then run keelcc's
 *       analyses (store_analyse), the database writer (store_tu_with into
 *       DIR/oom.db) and a reader (db_each_loop) again and again, failing the
 *       1st, 2nd, ... N-th allocation of the run, until a run meets no
 *       failure: every allocation point has failed once.
 *   test_oom front-end INPUT.c DIR  the same over the libclang front end
 *       (walk_file), whose runs each re-parse.
 *
 * Every run must end without a crash, report the failure as an error (or
 * recover and then give the full answer: a run that claims success with
 * another number of loops is counted as wrong), and leave no block
 * allocated by keel's code behind (oom.c's table of live blocks).
 *
 * Environment: OOM_STEP=K fails every K-th allocation point only (the
 * spread tests), OOM_FROM=N starts at N, OOM_ONCE=1 runs one N (with
 * `gdb -ex 'break oom_hit'` to see the failing call), OOM_PROGRESS=1
 * prints N as it goes, OOM_COUNT=1 prints the allocations of one run.
 * A leak is reported with the address of the allocating call and the
 * block's first bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "db.h"
#include "db_json.h"
#include "oom.h"
#include "store.h"
#include "walker.h"

static char dbpath[512];

static void remove_db(void)
{
    char p[600];
    unlink(dbpath);
    snprintf(p, sizeof p, "%s-wal", dbpath);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", dbpath);
    unlink(p);
    snprintf(p, sizeof p, "%s-journal", dbpath);
    unlink(p);
}

static int count_loop(void *ctx, const db_loop_summary *l)
{
    (void)l;
    ++*(int *)ctx;
    return 0;
}

/* Analyse tu, store it, read its loops back: 0, or -1 (an allocation
 * failed somewhere and was reported as an error). */
static int analyse_store_read(const ir_tu *tu, int *nloops)
{
    char err[512];
    store_analysis *an = NULL;
    db *d = NULL;
    int rc = -1;
    *nloops = 0;
    if (store_analyse(tu, &an, err, sizeof err) != 0)
        return -1;
    if (db_open(dbpath, DB_WRITE, &d, err, sizeof err) != 0)
        goto out;
    db_tu_row row = { .path = tu->path, .hash = "00", .args = "[]", .compiler = "clang-19",
                      .directory = "/", .status = "ok" };
    if (store_tu_with(d, tu, an, &row, NULL, NULL, err, sizeof err) != 0)
        goto out;
    db_close(d);
    d = NULL;
    if (db_open_read(dbpath, &d, err, sizeof err) != 0)
        goto out;
    db_loop_filter all = { 0 };
    if (db_each_loop(d, &all, count_loop, nloops, err, sizeof err) != 0)
        goto out;
    rc = 0;
out:
    db_close(d);
    store_analysis_free(an);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[1], "pipeline") && strcmp(argv[1], "front-end"))) {
        fprintf(stderr, "usage: test_oom pipeline|front-end INPUT.c DIR\n");
        return 2;
    }
    int front_end = strcmp(argv[1], "front-end") == 0;
    argv++;
    snprintf(dbpath, sizeof dbpath, "%s/oom.db", argv[2]);
    CHECK_INT(oom_sqlite_hook(), 0);

    char err[512];
    const char *args[] = { "-fopenmp" };
    ir_tu *tu = NULL;
    CHECK_INT(walk_file(argv[1], 1, args, &tu, err, sizeof err), 0);
    if (!tu)
        return check_summary();
    if (front_end)
        goto front;

    /* The reference run, and the live blocks every later run must leave. */
    int want_loops = 0, got_loops = 0;
    CHECK_INT(analyse_store_read(tu, &want_loops), 0);
    CHECK(want_loops >= 3);
    db_json_lists_close();
    long base = oom_live();
    if (getenv("OOM_COUNT")) {
        oom_arm(-1);
        analyse_store_read(tu, &got_loops);
        printf("allocations: %ld\n", oom_count());
        oom_disarm();
        store_analysis *an = NULL;
        oom_arm(-1);
        store_analyse(tu, &an, err, sizeof err);
        printf("analysis allocations: %ld\n", oom_count());
        oom_disarm();
        store_analysis_free(an);
        return 0;
    }

    long n, failed_runs = 0, leaks = 0, wrong = 0;
    long step = getenv("OOM_STEP") ? atol(getenv("OOM_STEP")) : 1;
    long from = getenv("OOM_FROM") ? atol(getenv("OOM_FROM")) : 1;
    for (n = from;; n += step < 1 ? 1 : step) {
        if (n % 1000 < (step < 1 ? 1 : step) && getenv("OOM_PROGRESS"))
            fprintf(stderr, "%ld\n", n);
        oom_snapshot();
        oom_arm(n);
        int rc = analyse_store_read(tu, &got_loops);
        oom_disarm();
        db_json_lists_close();
        if (oom_live() != base) {
            if (leaks++ < 10) {
                fprintf(stderr, "allocation %ld failed: %ld blocks leaked\n", n,
                        oom_live() - base);
                oom_print_new(stderr);
            }
            base = oom_live();
        }
        if (getenv("OOM_ONCE"))
            break;
        if (!oom_fired()) {
            CHECK_INT(rc, 0);
            CHECK_INT(got_loops, want_loops);
            break;         /* past the last allocation: every one has failed once */
        }
        if (rc == 0 && got_loops != want_loops && wrong++ < 10)
            fprintf(stderr, "allocation %ld failed: success claimed with %d loops\n", n,
                    got_loops);
        failed_runs += rc != 0;
    }
    remove_db();
    printf("analysis + database: %ld allocations, each failed once: %ld runs reported an "
           "error, %ld leaked, %ld claimed success wrongly\n", n - 1, failed_runs, leaks, wrong);
    CHECK(n - from > 100);
    CHECK_INT(leaks, 0);
    CHECK_INT(wrong, 0);

    ir_tu_free(tu);
    return check_summary();

front:
    /* The front end: count its allocations once, then fail a spread. */
    tu = NULL;
    oom_arm(-1);                 /* count, never fail */
    CHECK_INT(walk_file(argv[1], 1, args, &tu, err, sizeof err), 0);
    long total = oom_count();
    oom_disarm();
    ir_tu_free(tu);
    tu = NULL;
    long wleaks = 0, wruns = 0;
    base = oom_live();
    step = getenv("OOM_STEP") ? atol(getenv("OOM_STEP")) : total / 200 + 1;
    if (step < 1)
        step = 1;
    for (n = 1; n <= total; n += step) {
        if (getenv("OOM_PROGRESS"))
            fprintf(stderr, "front end %ld\n", n);
        oom_arm(n);
        int rc = walk_file(argv[1], 1, args, &tu, err, sizeof err);
        oom_disarm();
        if (rc == 0)
            ir_tu_free(tu);
        tu = NULL;
        wruns++;
        if (oom_live() != base) {
            if (wleaks++ < 10)
                fprintf(stderr, "front end, allocation %ld failed: %ld blocks leaked\n", n,
                        oom_live() - base);
            base = oom_live();
        }
    }
    printf("front end: %ld allocations, %ld of them failed once, %ld leaked\n", total, wruns,
           wleaks);
    CHECK_INT(wleaks, 0);
    return check_summary();
}
