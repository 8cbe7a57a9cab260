/*
 * db_mca_write.c -- rows of mca_results and the llvm-mca cache (mca_cache)
 * as keelcc writes and reads them (db_mca.h); part of the writer library.
 *
 * Statements are prepared per call: these run a handful of times per
 * translation unit, next to the llvm-mca processes that dominate the cost.
 */
#include "db_mca.h"
#include "db_private.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

static void bind_opt_double(sqlite3_stmt *st, int i, int has, double v)
{
    if (has)
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

int db_mca_cache_get(db *d, const char *key, db_mca_figs *f, char *err, size_t errlen)
{
    sqlite3_stmt *cache_st;
    memset(f, 0, sizeof *f);
    if (sqlite3_prepare_v2(db_sqlite_(d),
                           "SELECT status, reason, cycles_per_iter, block_rthroughput, ipc,"
                           " uops_per_iter, top_resource, top_resource_cycles"
                           " FROM mca_cache WHERE key = ?1 LIMIT 1", -1, &cache_st, NULL) != SQLITE_OK)
        return db_fail_sql_(d, "mca cache", err, errlen);
    sqlite3_bind_text(cache_st, 1, key, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(cache_st);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(cache_st);
        return rc == SQLITE_DONE ? 0 : db_fail_sql_(d, "mca cache", err, errlen);
    }
    const char *status = (const char *)sqlite3_column_text(cache_st, 0);
    f->ok = status && strcmp(status, "ok") == 0;
    const char *t = (const char *)sqlite3_column_text(cache_st, 1);
    snprintf(f->reason, sizeof f->reason, "%s", t ? t : "");
    f->cycles_per_iter = sqlite3_column_double(cache_st, 2);
    f->block_rthroughput = sqlite3_column_double(cache_st, 3);
    f->ipc = sqlite3_column_double(cache_st, 4);
    f->uops_per_iter = sqlite3_column_double(cache_st, 5);
    t = (const char *)sqlite3_column_text(cache_st, 6);
    snprintf(f->top_resource, sizeof f->top_resource, "%s", t ? t : "");
    f->top_resource_cycles = sqlite3_column_double(cache_st, 7);
    sqlite3_finalize(cache_st);
    return 1;
}

int db_mca_cache_put(db *d, int64_t tu_id, const char *key, const char *target,
                     const char *mca_version, const db_mca_figs *f, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db_sqlite_(d),
                           "INSERT OR REPLACE INTO mca_cache(tu_id, key, target, mca_version, status,"
                           " reason, cycles_per_iter, block_rthroughput, ipc, uops_per_iter,"
                           " top_resource, top_resource_cycles)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                           -1, &st, NULL) != SQLITE_OK)
        return db_fail_sql_(d, "mca cache", err, errlen);
    sqlite3_bind_int64(st, 1, tu_id);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, target, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, mca_version, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 5, f->ok ? "ok" : "error", -1, SQLITE_STATIC);
    db_bind_text_(st, 6, f->ok ? NULL : f->reason);
    bind_opt_double(st, 7, f->ok, f->cycles_per_iter);
    bind_opt_double(st, 8, f->ok, f->block_rthroughput);
    bind_opt_double(st, 9, f->ok, f->ipc);
    bind_opt_double(st, 10, f->ok, f->uops_per_iter);
    db_bind_text_(st, 11, f->ok && f->top_resource[0] ? f->top_resource : NULL);
    bind_opt_double(st, 12, f->ok && f->top_resource[0], f->top_resource_cycles);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : db_fail_sql_(d, "mca cache", err, errlen);
}

int db_mca_add_result(db *d, int64_t loop_id, const db_mca_row *r, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (!db_writable_(d))
        return ku_fail(err, errlen, "%s: mca result: database is open read-only", db_path_(d));
    if (sqlite3_prepare_v2(db_sqlite_(d),
                           "INSERT OR REPLACE INTO mca_results(loop_id, target, triple, status, reason,"
                           " asm_label, asm_copies, asm_innermost, vector, cycles_per_asm_iter,"
                           " block_rthroughput, ipc, uops_per_iter, top_resource, top_resource_cycles,"
                           " vf, ic, unroll, src_iters_per_asm_iter, cycles_per_src_iter,"
                           " whole_iter_millicycles) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
                           " ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)",
                           -1, &st, NULL) != SQLITE_OK)
        return db_fail_sql_(d, "mca result", err, errlen);
    int figs = r->ok && r->figs.ok, mapped = r->asm_label != NULL;
    sqlite3_bind_int64(st, 1, loop_id);
    sqlite3_bind_text(st, 2, r->target, -1, SQLITE_TRANSIENT);
    db_bind_text_(st, 3, r->triple);
    sqlite3_bind_text(st, 4, r->ok ? "ok" : "error", -1, SQLITE_STATIC);
    db_bind_text_(st, 5, r->ok ? NULL : r->reason);
    db_bind_text_(st, 6, r->asm_label);
    if (mapped) {
        sqlite3_bind_int(st, 7, r->asm_copies);
        sqlite3_bind_int(st, 8, r->asm_innermost);
        sqlite3_bind_int(st, 9, r->vector);
    }
    bind_opt_double(st, 10, figs, r->figs.cycles_per_iter);
    bind_opt_double(st, 11, figs, r->figs.block_rthroughput);
    bind_opt_double(st, 12, figs, r->figs.ipc);
    bind_opt_double(st, 13, figs, r->figs.uops_per_iter);
    db_bind_text_(st, 14, figs && r->figs.top_resource[0] ? r->figs.top_resource : NULL);
    bind_opt_double(st, 15, figs && r->figs.top_resource[0], r->figs.top_resource_cycles);
    if (mapped) {
        sqlite3_bind_int(st, 16, r->vf);
        sqlite3_bind_int(st, 17, r->ic);
        sqlite3_bind_int(st, 18, r->unroll);
        sqlite3_bind_int(st, 19, r->src_iters_per_asm_iter);
    }
    bind_opt_double(st, 20, r->has_cycles_per_src_iter, r->cycles_per_src_iter);
    db_bind_text_(st, 21, r->whole_iter_millicycles);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : db_fail_sql_(d, "mca result", err, errlen);
}
