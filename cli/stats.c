/*
 * stats.c -- `keel stats [--json] [DB]`: what a database holds, as
 * `ccache -s` shows a cache: sources and builds (analysed, failed and
 * why), functions, loops and nests with their dependence verdicts,
 * llvm-mca figures and cache, direct-mode entries, keel scan's files,
 * and what libkeelrt logged (decisions, measured history, calibrations).
 * The counts come from db/db_stats.c; this file only prints them.
 */
#include "keel.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "db.h"
#include "db_stats.h"

/* Text with control characters as \xNN (a stored path or message must
 * not drive the terminal). */
static void put_text(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            printf("\\x%02x", *p);
        else
            putchar(*p);
    }
}

typedef struct {
    keel_json *j;           /* NULL: text */
    const char *kind;       /* the kind whose heading was printed */
    int open;               /* a JSON array is open */
} reasons_ctx;

static int on_reason(void *vctx, const char *kind, const char *path, const char *reason,
                     long long n)
{
    reasons_ctx *c = vctx;
    if (c->j) {
        if (!c->kind || strcmp(c->kind, kind) != 0) {
            if (c->open)
                keel_json_end(c->j);
            keel_json_array(c->j, !strcmp(kind, "build") ? "failed_builds"
                                  : !strcmp(kind, "scan") ? "failed_scans" : "mca_failures");
            c->open = 1;
            c->kind = kind;
        }
        keel_json_object(c->j, NULL);
        if (path)
            keel_json_str(c->j, "path", path);
        keel_json_str(c->j, "reason", reason);
        if (!path)
            keel_json_int(c->j, "loops", n);
        keel_json_end(c->j);
        return 0;
    }
    if (!c->kind || strcmp(c->kind, kind) != 0) {
        printf("\n%s\n", !strcmp(kind, "build") ? "failed analyses (path: reason):"
                         : !strcmp(kind, "scan") ? "failed in keel scan (path: reason):"
                         : "llvm-mca gave no figures (loops: reason):");
        c->kind = kind;
    }
    printf("  ");
    if (path) {
        put_text(path);
        printf(": ");
    } else {
        printf("%6lld  ", n);
    }
    put_text(*reason ? reason : "(no reason recorded)");
    putchar('\n');
    return 0;
}

static void json_count(keel_json *j, const char *key, long long v)
{
    if (v < 0)
        keel_json_null(j, key);
    else
        keel_json_int(j, key, v);
}

static const char *const vname[DB_VERDICTS] = {
    "parallel", "reduction", "sequential", "unknown", "not_analysed"
};

/* keel stats --json: the counts of s and the failure reasons of d, which
 * it closes; bytes -1 when unknown.  The exit status. */
static int stats_json(db *d, const char *path, long long bytes, const db_stats *s)
{
    char err[512];
    keel_json *j = keel_json_new();
    if (!j) {
        db_close(d);
        return keel_say(1, "out of memory");
    }
    keel_json_object(j, NULL);
    keel_json_str(j, "db", path);
    keel_json_int(j, "schema", db_schema_version(d));
    json_count(j, "bytes", bytes);
    json_count(j, "sources", s->sources);
    json_count(j, "builds", s->builds);
    json_count(j, "analysed", s->builds - s->failed);
    json_count(j, "failed", s->failed);
    json_count(j, "functions", s->functions);
    json_count(j, "loops", s->loops);
    json_count(j, "nests", s->nests);
    keel_json_object(j, "dependence");
    for (int v = 0; v < DB_VERDICTS; v++)
        json_count(j, vname[v], s->verdict[v]);
    keel_json_end(j);
    json_count(j, "loops_with_idioms", s->with_idioms);
    keel_json_object(j, "mca");
    json_count(j, "targets", s->mca_targets);
    json_count(j, "with_figures", s->mca_ok);
    json_count(j, "without_figures", s->mca_failed);
    json_count(j, "cache_entries", s->mca_cache);
    keel_json_end(j);
    json_count(j, "direct_entries", s->direct);
    if (s->scanned < 0) {
        keel_json_null(j, "scan");
    } else {
        keel_json_object(j, "scan");
        keel_json_int(j, "files", s->scanned);
        keel_json_int(j, "failed", s->scan_failed);
        keel_json_end(j);
    }
    keel_json_object(j, "decisions");
    json_count(j, "total", s->decisions);
    json_count(j, "gpu", s->decisions_gpu);
    json_count(j, "cpu", s->decisions < 0 ? -1 : s->decisions - s->decisions_gpu);
    keel_json_end(j);
    if (s->history_rows < 0) {
        keel_json_null(j, "history");
    } else {
        keel_json_object(j, "history");
        keel_json_int(j, "sizes", s->history_rows);
        keel_json_int(j, "samples", s->history_samples);
        keel_json_end(j);
    }
    json_count(j, "calibrations", s->calibrations);
    reasons_ctx c = { j, NULL, 0 };
    int rc = db_stats_reasons(d, on_reason, &c, err, sizeof err);
    if (c.open)
        keel_json_end(j);
    keel_json_end(j);
    db_close(d);
    if (rc) {
        keel_json_free(j);
        return keel_say(1, "%s", err);
    }
    rc = keel_json_print(j, stdout);
    keel_json_free(j);
    return rc;
}

/* keel stats: the counts of s and the failure reasons of d, which it
 * closes, as text.  The exit status. */
static int stats_text(db *d, const char *path, long long bytes, const db_stats *s)
{
    char err[512];
    printf("database     ");
    put_text(path);
    printf(" (schema %d", db_schema_version(d));
    if (bytes >= 0)
        printf(", %.1f KiB", (double)bytes / 1024);
    printf(")\n");
    printf("sources      %lld files, %lld builds: %lld analysed, %lld failed\n",
           s->sources, s->builds, s->builds - s->failed, s->failed);
    printf("loops        %lld in %lld nests, %lld functions; %lld with idioms\n",
           s->loops, s->nests, s->functions, s->with_idioms);
    printf("dependence   %lld parallel, %lld reduction, %lld sequential, %lld unknown, "
           "%lld not analysed\n", s->verdict[0], s->verdict[1], s->verdict[2], s->verdict[3],
           s->verdict[4]);
    if (s->mca_targets >= 0)
        printf("llvm-mca     %lld target CPU%s: %lld loops with figures, %lld without; "
               "%lld cached blocks\n", s->mca_targets, s->mca_targets == 1 ? "" : "s",
               s->mca_ok, s->mca_failed, s->mca_cache < 0 ? 0 : s->mca_cache);
    if (s->direct >= 0)
        printf("direct mode  %lld builds a rebuild can reuse\n", s->direct);
    if (s->scanned >= 0)
        printf("keel scan    %lld files, %lld failed\n", s->scanned, s->scan_failed);
    else
        printf("keel scan    never run on this database\n");
    printf("run time     %lld decisions logged (%lld GPU, %lld CPU)", s->decisions,
           s->decisions_gpu, s->decisions - s->decisions_gpu);
    if (s->history_rows >= 0)
        printf("; history: %lld sizes, %lld samples", s->history_rows, s->history_samples);
    else
        printf("; no measured history");
    printf("; %lld host calibrations\n", s->calibrations < 0 ? 0 : s->calibrations);
    reasons_ctx c = { NULL, NULL, 0 };
    int rc = db_stats_reasons(d, on_reason, &c, err, sizeof err);
    db_close(d);
    if (rc)
        return keel_say(1, "%s", err);
    return 0;
}

int keel_cmd_stats(int argc, char **argv)
{
    int json = 0, npos;
    const keel_opt opts[] = { KEEL_OPT_FLAG("json", &json), KEEL_OPT_LAST };
    char **pos;
    int r = keel_getopts("stats", NULL, opts, argc, argv, -1, &pos, &npos);
    if (r >= 0)
        return r;
    if (npos > 1)
        return keel_say(2, "stats takes at most one argument, DB");
    const char *path = npos ? pos[0] : keel_default_db();
    char err[512];
    db *d;
    if (db_open(path, DB_READONLY, &d, err, sizeof err))
        return keel_say(1, "%s", err);
    db_stats s;
    if (db_stats_read(d, &s, err, sizeof err)) {
        db_close(d);
        return keel_say(1, "%s", err);
    }
    struct stat st;
    long long bytes = stat(path, &st) == 0 ? (long long)st.st_size : -1;
    if (json)
        return stats_json(d, path, bytes, &s);
    return stats_text(d, path, bytes, &s);
}
