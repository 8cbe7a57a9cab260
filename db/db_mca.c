/*
 * db_mca.c -- the reader of mca_results (db_mca.h), for libkeelrt and the
 * keel tool.  The writers and the llvm-mca cache are in db_mca_write.c
 * (keelcc's side).
 *
 * The statement is prepared once per connection (db.c's statement cache):
 * a nest's loops, and the nests a connection reads ahead, share it.
 */
#include "db_mca.h"
#include "db_private.h"

#include <stdio.h>
#include <string.h>

int db_mca_each(db *d, int64_t loop_id, db_mca_fn fn, void *ctx, char *err, size_t errlen)
{
    static const char sql[] =
        "SELECT target, triple, status, reason, asm_label, asm_copies,"
        " asm_innermost, vector, cycles_per_asm_iter, block_rthroughput, ipc,"
        " uops_per_iter, top_resource, top_resource_cycles, vf, ic, unroll,"
        " src_iters_per_asm_iter, cycles_per_src_iter, whole_iter_millicycles"
        " FROM mca_results WHERE loop_id = ?1 ORDER BY id";
    char e2[8];
    /* A database of another keel without the table: nothing to show. */
    sqlite3_stmt *st = db_stmt_(d, sql, e2, sizeof e2);
    if (!st)
        return db_fail_sql_(d, "mca results", err, errlen);
    sqlite3_bind_int64(st, 1, loop_id);
    int rc, ret = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        db_mca_row r;
        memset(&r, 0, sizeof r);
        r.target = (const char *)sqlite3_column_text(st, 0);
        r.triple = (const char *)sqlite3_column_text(st, 1);
        const char *status = (const char *)sqlite3_column_text(st, 2);
        r.ok = status && strcmp(status, "ok") == 0;
        r.reason = (const char *)sqlite3_column_text(st, 3);
        r.asm_label = (const char *)sqlite3_column_text(st, 4);
        r.asm_copies = sqlite3_column_int(st, 5);
        r.asm_innermost = sqlite3_column_int(st, 6);
        r.vector = sqlite3_column_int(st, 7);
        r.figs.ok = sqlite3_column_type(st, 8) != SQLITE_NULL;
        r.figs.cycles_per_iter = sqlite3_column_double(st, 8);
        r.figs.block_rthroughput = sqlite3_column_double(st, 9);
        r.figs.ipc = sqlite3_column_double(st, 10);
        r.figs.uops_per_iter = sqlite3_column_double(st, 11);
        const char *tr = (const char *)sqlite3_column_text(st, 12);
        snprintf(r.figs.top_resource, sizeof r.figs.top_resource, "%s", tr ? tr : "");
        r.figs.top_resource_cycles = sqlite3_column_double(st, 13);
        r.vf = sqlite3_column_int(st, 14);
        r.ic = sqlite3_column_int(st, 15);
        r.unroll = sqlite3_column_int(st, 16);
        r.src_iters_per_asm_iter = sqlite3_column_int(st, 17);
        r.has_cycles_per_src_iter = sqlite3_column_type(st, 18) != SQLITE_NULL;
        r.cycles_per_src_iter = sqlite3_column_double(st, 18);
        r.whole_iter_millicycles = (const char *)sqlite3_column_text(st, 19);
        if ((ret = fn(ctx, &r)) != 0)
            break;
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        ret = db_fail_sql_(d, "mca results", err, errlen);
        db_done_(st);
        return ret;
    }
    db_done_(st);
    return ret;
}
