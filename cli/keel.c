/*
 * keel.c -- the `keel` command-line tool: main, the command table with
 * every command's help, and the commands that read the program attribute
 * database (loops, show, report).  The other commands are in rtcmd.c
 * (devices, calibrate, explain, history), scan.c, merge.c and html.c;
 * keel.h lists them.
 *
 *     keel COMMAND [OPTIONS] [ARGS]      keel help [COMMAND]
 *     keel COMMAND --help                keel --help | --version
 *
 * Every command parses its options with getopt_long (keel_getopts: one
 * table of options a command), reads FILE:LINE[:COL] with keel_parse_site and numbers with
 * keel_parse_ll, and prints --json through keel_json (db/'s JSON helper,
 * db_json.h).  DB is $KEEL_DB when set, else keel.db in the current
 * directory.  Output goes to stdout; every failure is exactly one line
 * "keel: ..." on stderr with exit status 2 for a usage error and 1 for a
 * database error.  These commands read through the db_ reader API (db.h,
 * db_mca.h), never raw SQL.
 *
 * Tables print file paths relative to the current directory when the file
 * lies under it; JSON prints them as stored.
 */
#define _XOPEN_SOURCE 700   /* realpath */

#include "keel.h"

#include "db.h"
#include "db_launch.h"
#include "db_mca.h"
#include "db_report.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef KEEL_VERSION
#define KEEL_VERSION "unknown"
#endif

enum { EXIT_DB = KEEL_EXIT_DB, EXIT_USAGE = KEEL_EXIT_USAGE };

static char *xstrdup(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* ---- paths --------------------------------------------------------------- */

static char cwd[PATH_MAX];

/* path relative to the current directory when it lies under it, else path. */
static const char *short_path_raw(const char *path);

/* path as short_path gives it, with its control bytes escaped. */
static const char *short_path(const char *path)
{
    return keel_printable(short_path_raw(path));
}

const char *keel_short_path(const char *path)
{
    return short_path(path);
}

static const char *short_path_raw(const char *path)
{
    size_t n = strlen(cwd);
    if (!path || !n)
        return path ? path : "?";
    if (n == 1 && cwd[0] == '/')
        return path[0] == '/' && path[1] ? path + 1 : path;
    if (strncmp(path, cwd, n) == 0 && path[n] == '/' && path[n + 1])
        return path + n + 1;
    return path;
}

/* ---- keel loops ---------------------------------------------------------- */

enum { C_LOC, C_FUNC, C_DEPTH, C_PARENT, C_IV, C_TRIP, C_PRAGMAS,
       C_IDIOMS, C_CLASS, C_PARALLEL, C_COALESCING, C_CYCLES, C_SITE, C_SITE_WHY, C_NO_ANSWER,
       C_NOTE, NCOLS };
static const char *const col_names[NCOLS] = {
    "LOCATION", "FUNCTION", "DEPTH", "PARENT", "IV", "TRIP", "PRAGMAS",
    "IDIOMS", "CLASS", "PARALLEL", "COALESCING", "CYCLES/ITER", "SITE", "NOT INSTRUMENTED",
    "NO ANSWER", NULL,
};

typedef struct {
    keel_json *j;           /* --json: rows go here */
    FILE *out;
    int nrows;
    char *(*rows)[NCOLS];   /* grown by ku_push */
    int present[NCOLS];     /* an optional column has a value in some row */
    int oom;
} loops_ctx;

/* A malloc'd formatted string of any length (NULL when out of memory). */
static char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(NULL, 0, f, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s) {
        va_start(ap, f);
        vsnprintf(s, (size_t)n + 1, f, ap);
        va_end(ap);
    }
    return s;
}

static int loops_json_row(loops_ctx *c, const db_loop_summary *r)
{
    keel_json *j = c->j;
    c->nrows++;
    keel_json_object(j, NULL);
    keel_json_int(j, "loop_id", r->loop_id);
    keel_json_str(j, "file", r->file);
    keel_json_int(j, "line", r->line);
    keel_json_int(j, "col", r->col);
    keel_json_str(j, "function", r->function);
    keel_json_int(j, "depth", r->depth);
    if (r->parent_line)
        keel_json_int(j, "parent_line", r->parent_line);
    else
        keel_json_null(j, "parent_line");
    keel_json_str(j, "iv", r->iv);
    keel_json_str(j, "trip", r->trip);
    keel_json_list(j, "pragmas", r->pragmas);
    keel_json_csv(j, "idioms", r->idioms);
    keel_json_str(j, "algorithm_class", r->algorithm_class);
    keel_json_str(j, "parallel", r->parallel);
    keel_json_str(j, "coalescing", r->coalescing);
    if (r->has_cycles)
        keel_json_num(j, "cycles_per_iter", r->cycles_per_iter);
    else
        keel_json_null(j, "cycles_per_iter");
    keel_json_str(j, "site", r->fact[DB_LOOP_FACT_site]);
    keel_json_str(j, "site_why", r->fact[DB_LOOP_FACT_site_why]);
    keel_json_str(j, "no_answer", r->fact[DB_LOOP_FACT_no_answer]);
    keel_json_end(j);
    return 0;
}

/* The compact table's note on a nest: "no answer: WHY" when keel gives
 * no verdict that follows its sizes, "no call: WHY" when keelcc put no
 * decision before this nest (not for a build without instrumentation,
 * site "off": that holds for every loop), joined by "; " -- "no answer,
 * no call: WHY" when both come from the same unknown dependence verdict;
 * NULL for none (inner loops are decided with their nest: their notes are
 * the nest's). */
static char *loop_note(const db_loop_summary *r)
{
    static const char unknown_dep[] = "dependence unknown", not_par[] = "no parallel or reduction loop";
    const char *why = r->fact[DB_LOOP_FACT_site_why], *na = r->fact[DB_LOOP_FACT_no_answer];
    const char *site = r->fact[DB_LOOP_FACT_site];
    int none = r->depth == 0 && site && !strcmp(site, "none");
    if (!none && !na)
        return NULL;
    if (none && na && why && !strncmp(na, unknown_dep, sizeof unknown_dep - 1)
        && !strncmp(why, not_par, sizeof not_par - 1))
        return fmt("no answer, no call: %s", na);
    return fmt("%s%s%s%s%s", na ? "no answer: " : "", na ? na : "", none && na ? "; " : "",
               none ? "no call: " : "", none ? (why ? why : "?") : "");
}

/* db_each_loop callback: print a JSON row or keep a table row. */
static int loops_row(void *ctx, const db_loop_summary *r)
{
    loops_ctx *c = ctx;
    if (c->j)
        return loops_json_row(c, r);
    char **row = ku_push(&c->rows, &c->nrows, sizeof *c->rows);
    if (!row) {
        c->oom = 1;
        return 1;
    }
    row[C_LOC] = fmt("%s:%d", short_path(r->file), r->line);
    row[C_FUNC] = strdup(r->function ? r->function : "?");
    row[C_DEPTH] = fmt("%d", r->depth);
    row[C_PARENT] = r->parent_line ? fmt("%d", r->parent_line) : strdup("-");
    row[C_IV] = strdup(r->iv ? r->iv : "-");
    row[C_TRIP] = strdup(r->trip ? r->trip : "-");
    row[C_PRAGMAS] = keel_list_text(r->pragmas, "; ");
    row[C_IDIOMS] = r->idioms ? (r->idioms[0] && r->idioms[0] != '[' ? strdup(r->idioms)
                                  : keel_list_text(r->idioms, ", ")) : NULL;
    row[C_CLASS] = xstrdup(r->algorithm_class);
    row[C_PARALLEL] = r->parallel ? keel_list_text(r->parallel, ", ") : NULL;
    row[C_COALESCING] = xstrdup(r->coalescing);
    row[C_CYCLES] = r->has_cycles ? fmt("%.2f", r->cycles_per_iter) : NULL;
    row[C_SITE] = xstrdup(r->fact[DB_LOOP_FACT_site]);
    row[C_SITE_WHY] = xstrdup(r->fact[DB_LOOP_FACT_site_why]);
    row[C_NO_ANSWER] = xstrdup(r->fact[DB_LOOP_FACT_no_answer]);
    row[C_NOTE] = loop_note(r);
    for (int i = 0; i < NCOLS; i++) {
        if (i < C_IDIOMS && !row[i])
            c->oom = 1;
        if (row[i])
            c->present[i] = 1;
    }
    return c->oom;
}

/* keel loops --wide: every column, each as wide as its widest cell up to
 * WIDE_CELL_MAX characters, so one long cell (a class, trip count or
 * pragma list of generated code can run to kilobytes) never pads every
 * row.  A longer cell is cut to that width, "..." marking the cut (--json
 * gives it whole); a longer LOCATION is printed whole, moving the rest of
 * its own row only. */
enum { WIDE_CELL_MAX = 120 };

static void loops_table(loops_ctx *c)
{
    size_t width[NCOLS];
    int last = 0;
    for (int i = 0; i < NCOLS; i++) {
        c->present[i] |= i < C_IDIOMS;
        c->present[i] &= i != C_NOTE;   /* the compact table's own */
        if (!c->present[i])
            continue;
        last = i;
        width[i] = strlen(col_names[i]);
        for (int r = 0; r < c->nrows; r++)
            if (c->rows[r][i] && strlen(c->rows[r][i]) > width[i])
                width[i] = strlen(c->rows[r][i]);
        if (width[i] > WIDE_CELL_MAX)
            width[i] = WIDE_CELL_MAX;
    }
    for (int r = -1; r < c->nrows; r++) {
        for (int i = 0; i < NCOLS; i++) {
            if (!c->present[i])
                continue;
            const char *s = r < 0 ? col_names[i] : c->rows[r][i] ? c->rows[r][i] : "-";
            char cut[WIDE_CELL_MAX + 1];
            size_t n = strlen(s);
            if (n > WIDE_CELL_MAX && i != C_LOC) {
                snprintf(cut, sizeof cut, "%.*s...", WIDE_CELL_MAX - 3, s);
                s = cut;
            }
            if (i == last)
                fputs(s, c->out);
            else
                fprintf(c->out, "%-*s  ", (int)width[i], s);
        }
        fputc('\n', c->out);
    }
}

/* keel loops without --wide: LOCATION (indented by depth), IDIOMS,
 * VERDICT, CYCLES, at most 120 columns: long idioms are cut at the end,
 * long locations at the start ("..." marks the cut).  Where a nest has a
 * note (loop_note), a last column NOTE holds it, cut at the end to the
 * width left, at least NOTE_MIN (one line a loop; keel show, --wide and
 * --json give it whole). */
enum { COMPACT_WIDTH = 120, IDIOMS_MAX = 30, NOTE_MIN = 40 };

static void loops_compact(loops_ctx *c)
{
    static const int cols[3] = { C_IDIOMS, C_PARALLEL, C_CYCLES };
    static const char *const names[3] = { "IDIOMS", "VERDICT", "CYCLES/ITER" };
    size_t w[3], wloc = strlen("LOCATION");
    for (int k = 0; k < 3; k++) {
        w[k] = strlen(names[k]);
        for (int r = 0; r < c->nrows; r++)
            if (c->rows[r][cols[k]] && strlen(c->rows[r][cols[k]]) > w[k])
                w[k] = strlen(c->rows[r][cols[k]]);
    }
    if (w[0] > IDIOMS_MAX)
        w[0] = IDIOMS_MAX;
    for (int r = 0; r < c->nrows; r++) {
        size_t n = strlen(c->rows[r][C_LOC]) + 2 * (size_t)atoi(c->rows[r][C_DEPTH]);
        if (n > wloc)
            wloc = n;
    }
    int notes = c->present[C_NOTE];
    size_t room = COMPACT_WIDTH - (w[0] + w[1] + w[2] + 6) - (notes ? NOTE_MIN + 2 : 0);
    if (wloc > room)
        wloc = room;
    size_t used = wloc + w[0] + w[1] + w[2] + 8;
    int wnote = used + NOTE_MIN < COMPACT_WIDTH ? (int)(COMPACT_WIDTH - used) : NOTE_MIN;
    fprintf(c->out, "%-*s  %-*s  %-*s  %-*s", (int)wloc, "LOCATION", (int)w[0], names[0],
            (int)w[1], names[1], notes ? (int)w[2] : 0, names[2]);
    fputs(notes ? "  NOTE\n" : "\n", c->out);
    for (int r = 0; r < c->nrows; r++) {
        char loc[COMPACT_WIDTH + 1], idi[IDIOMS_MAX + 1];
        int depth = atoi(c->rows[r][C_DEPTH]);
        const char *p = c->rows[r][C_LOC];
        size_t ind = 2 * (size_t)(depth > 0 ? depth : 0), n = strlen(p);
        if (ind > wloc / 2)
            ind = wloc / 2;
        if (ind + n > wloc)         /* keep the end: file name and line */
            snprintf(loc, sizeof loc, "%*s...%s", (int)ind, "", p + n - (wloc - ind - 3));
        else
            snprintf(loc, sizeof loc, "%*s%s", (int)ind, "", p);
        const char *id = c->rows[r][C_IDIOMS] && c->rows[r][C_IDIOMS][0] ? c->rows[r][C_IDIOMS]
                                                                          : "-";
        if (strlen(id) > w[0])
            snprintf(idi, sizeof idi, "%.*s...", (int)w[0] - 3, id);
        else
            snprintf(idi, sizeof idi, "%s", id);
        const char *note = c->rows[r][C_NOTE];
        fprintf(c->out, "%-*s  %-*s  %-*s  %-*s", (int)wloc, loc, (int)w[0], idi, (int)w[1],
                c->rows[r][C_PARALLEL] ? c->rows[r][C_PARALLEL] : "-", note ? (int)w[2] : 0,
                c->rows[r][C_CYCLES] ? c->rows[r][C_CYCLES] : "-");
        if (note && strlen(note) > (size_t)wnote)
            fprintf(c->out, "  %.*s...\n", wnote - 3, note);
        else if (note)
            fprintf(c->out, "  %s\n", note);
        else
            fputc('\n', c->out);
    }
}


/* Strip a leading "./" so "./gemm.c" matches by suffix. */
static const char *clean_file(const char *f)
{
    while (f[0] == '.' && f[1] == '/')
        f += 2;
    return f;
}

/* A file keelcc compiled but could not analyse, after the loops table. */
static int loops_failed_unit(void *ctx, const char *path, const char *variant,
                             const char *message)
{
    (void)ctx;
    printf("not analysed: %s%s%s%s: %s\n", keel_short_path(path),
           variant ? " (" : "", variant ? keel_printable(variant) : "", variant ? ")" : "",
           message ? keel_printable(message) : "the analysis failed");
    return 0;
}

static int cmd_loops(const char *dbpath, const char *file, const char *func, int json, int wide)
{
    char err[512];
    db *d;
    loops_ctx c = { .out = stdout };
    db_loop_filter flt = { .file = file ? clean_file(file) : NULL,
                           .file_match = DB_FILE_SUFFIX, .function = func };
    char real[PATH_MAX];
    int rc = 0;

    if (db_open(dbpath, DB_READONLY, &d, err, sizeof err))
        return keel_say(EXIT_DB, "%s", err);
    if (json) {
        if (!(c.j = keel_json_new())) {
            db_close(d);
            return keel_say(EXIT_DB, "out of memory");
        }
        keel_json_array(c.j, NULL);
    }
    if (db_each_loop(d, &flt, loops_row, &c, err, sizeof err) < 0)
        rc = keel_say(EXIT_DB, "%s", err);
    /* A relative path that names an existing file: try its absolute form. */
    if (!rc && c.nrows == 0 && file && realpath(file, real) && strcmp(real, flt.file)) {
        flt.file = real;
        flt.file_match = DB_FILE_EXACT;
        if (db_each_loop(d, &flt, loops_row, &c, err, sizeof err) < 0)
            rc = keel_say(EXIT_DB, "%s", err);
    }
    if (!rc && c.oom)
        rc = keel_say(EXIT_DB, "out of memory");
    if (!rc) {
        if (json) {
            keel_json_end(c.j);
            rc = keel_json_print(c.j, stdout);
        } else {
            if (wide)
                loops_table(&c);
            else
                loops_compact(&c);
            if (!func)      /* a failed file has no functions to match */
                db_report_failed_units(d, flt.file, loops_failed_unit, NULL);
        }
    }
    for (int r = 0; r < (json ? 0 : c.nrows); r++)
        for (int i = 0; i < NCOLS; i++)
            free(c.rows[r][i]);
    free(c.rows);
    keel_json_free(c.j);
    db_close(d);
    return rc;
}

/* ---- keel show ----------------------------------------------------------- */

/* ---- keel report --------------------------------------------------------- */

typedef struct {
    keel_json *j;           /* --json */
    int n;
    int measure;            /* first pass: only widen the columns */
    int wfile, wfunc, widiom;
    FILE *out;
} report_ctx;

static void widen(int *w, const char *s)
{
    int n = s ? (int)strlen(s) : 1;
    if (n > *w)
        *w = n;
}

/* One PIR row: File, Line, Function, Idiom, Code (JSON adds the evidence
 * and the line of the loop the idiom belongs to). */
static int report_row(void *ctx, const db_idiom_info *r)
{
    report_ctx *c = ctx;
    if (c->j) {
        keel_json_object(c->j, NULL);
        keel_json_str(c->j, "file", r->file);
        keel_json_int(c->j, "line", r->line);
        keel_json_str(c->j, "function", r->function);
        keel_json_str(c->j, "idiom", r->idiom);
        keel_json_str(c->j, "code", r->code);
        keel_json_str(c->j, "evidence", r->evidence);
        keel_json_int(c->j, "loop_line", r->loop_line);
        keel_json_end(c->j);
        c->n++;
        return 0;
    }
    if (c->measure) {
        widen(&c->wfile, short_path(r->file));
        widen(&c->wfunc, r->function);
        widen(&c->widiom, r->idiom);
        return 0;
    }
    if (c->n++ == 0)
        fprintf(c->out, "%-*s %5s  %-*s  %-*s  %s\n", c->wfile, "File", "Line", c->wfunc,
                "Function", c->widiom, "Idiom", "Code");
    /* the code on one line */
    const char *code = r->code ? r->code : "";
    fprintf(c->out, "%-*s %5d  %-*s  %-*s  ", c->wfile, short_path(r->file), r->line, c->wfunc,
            r->function ? r->function : "?", c->widiom, r->idiom);
    int blank = 0;
    for (const char *p = code; *p; p++) {
        if (*p == '\n' || *p == '\t' || *p == ' ') {
            blank = 1;
            continue;
        }
        if (blank)
            fputc(' ', c->out);
        blank = 0;
        fputc(*p, c->out);
    }
    fputc('\n', c->out);
    return 0;
}

static int cmd_report(const char *dbpath, const char *file, int json)
{
    db *d;
    char err[512];
    if (db_open(dbpath, DB_READONLY, &d, err, sizeof err) != 0)
        return keel_say(EXIT_DB, "%s", err);
    report_ctx c = { .out = stdout, .wfile = 4, .wfunc = 8, .widiom = 5 };
    const char *f = file ? clean_file(file) : NULL;
    int rc = 0;
    if (json && !(c.j = keel_json_new())) {
        db_close(d);
        return keel_say(EXIT_DB, "out of memory");
    }
    keel_json *j = c.j;
    if (j)
        keel_json_array(j, NULL);
    else {            /* two passes: the columns fit their widest entry */
        c.measure = 1;
        rc = db_each_idiom(d, f, report_row, &c, err, sizeof err);
        c.measure = 0;
    }
    if (rc >= 0)
        rc = db_each_idiom(d, f, report_row, &c, err, sizeof err);
    db_close(d);
    if (rc < 0)
        rc = keel_say(EXIT_DB, "%s", err);
    else if (j) {
        keel_json_end(j);
        rc = keel_json_print(j, stdout);
    }
    keel_json_free(j);
    return rc;
}


typedef struct {
    int64_t id;
    char *file;
    int col;
} match;

typedef struct {
    int n;
    match *v;           /* grown by ku_push */
} matches;

/* Do all matches share one file and column (so FILE:LINE:COL cannot tell
 * them apart)? */
static int same_position(const matches *m)
{
    for (int i = 1; i < m->n; i++)
        if (m->v[i].col != m->v[0].col || strcmp(m->v[i].file, m->v[0].file) != 0)
            return 0;
    return 1;
}

static int match_row(void *ctx, const db_loop_summary *r)
{
    matches *m = ctx;
    char *file = strdup(r->file ? r->file : "");
    match *x = file ? ku_push(&m->v, &m->n, sizeof *m->v) : NULL;
    if (!x) {
        free(file);
        return 1;
    }
    x->id = r->loop_id;
    x->col = r->col;
    x->file = file;
    return 0;
}

/* The run-time overlap condition of a loop (launch_overlap, schema v13):
 * the bases its parallel verdict takes as apart, each access as base +
 * element offset, read or written.  libkeelrt offloads the nest only when
 * the written byte ranges miss every range of another base; a base the
 * call cannot pass means never the GPU. */
typedef struct {
    const db_loop_info *l;
    keel_json *j;             /* NULL: text */
    int n, unchecked;
} ov_show;

static const db_access_info *ov_access(const db_loop_info *l, int64_t id)
{
    for (int i = 0; i < l->nstmts; i++)
        for (int k = 0; k < l->stmts[i].naccesses; k++)
            if (l->stmts[i].accesses[k].id == id)
                return &l->stmts[i].accesses[k];
    return NULL;
}

static int ov_row(void *ctx, const db_launch_overlap *r)
{
    ov_show *c = ctx;
    const db_access_info *a = ov_access(c->l, r->access_id);
    const char *rw = !a ? "-" : a->is_write ? "write" : "read";
    if (c->j) {
        keel_json_object(c->j, NULL);
        keel_json_str(c->j, "base", r->base);
        keel_json_str(c->j, "offset", r->offset);
        keel_json_str(c->j, "access", rw);
        keel_json_bool(c->j, "checkable", r->checkable);
        keel_json_end(c->j);
    } else {
        if (c->n == 0)
            printf("overlap     run-time check: the GPU only if the written ranges miss the"
                   " other bases' ranges\n");
        printf("  %-5s %s + %s%s\n", rw, r->base, r->offset ? r->offset : "(unbounded)",
               r->checkable ? "" : "  (the call cannot pass its address)");
    }
    c->n++;
    c->unchecked |= !r->checkable || !r->offset;
    return 0;
}

static void show_overlap(db *d, const db_loop_info *l)
{
    char err[256];
    ov_show c = { l, NULL, 0, 0 };
    if (db_launch_each_overlap(d, l->id, ov_row, &c, err, sizeof err) == 0 && c.unchecked)
        printf("  no check possible: never the GPU\n");
}

/* IPDA part of `keel show` (schema v2): the loop's dependence verdict and
 * reason, then each access of its statements with its inter-thread stride,
 * class, the thread loop, the innermost-loop stride and a false-sharing
 * mark.  Prints nothing for a loop without a verdict row (a database not
 * written by keelcc). */
static void show_ipda(db *d, const db_loop_info *l)
{
    char err[256], *verdict, *reason;
    if (db_get_dependence(d, l->id, &verdict, &reason, err, sizeof err) == 0) {
        printf("dependence  %s: %s\n", verdict ? verdict : "-", reason ? reason : "-");
        free(verdict);
        free(reason);
        show_overlap(d, l);
    } else {
        return;          /* a database keelcc's IPDA did not write: nothing to show */
    }
    printf("strides     (between adjacent threads of the thread loop; inner = innermost loop)\n");
    for (int i = 0; i < l->nstmts; i++)
        for (int k = 0; k < l->stmts[i].naccesses; k++) {
            const db_access_info *a = &l->stmts[i].accesses[k];
            int tline = 0, fs = 0;
            char *st, *cls, *in, *icls;
            int r = db_get_stride(d, a->id, &tline, &st, &cls, &in, &icls, &fs, err, sizeof err);
            printf("  %d:%d %c %s", a->line, a->col, a->is_write ? 'W' : 'R', a->array);
            for (int j = 0; j < a->ndims; j++)
                printf("[%s]", a->index[j] ? a->index[j] : "?");
            if (r == 0)
                printf("  stride %s  %s  (thread loop line %d)  inner %s %s%s\n",
                       st ? st : "-", cls ? cls : "-", tline, in ? in : "-",
                       icls ? icls : "-", fs ? "  false-sharing" : "");
            else
                printf("  stride -  (no thread loop)\n");
            free(st);
            free(cls);
            free(in);
            free(icls);
        }
}

/* One line per llvm-mca target of a loop (nothing when it has none). */
static int mca_line(void *ctx, const db_mca_row *r)
{
    int *n = ctx;
    if ((*n)++ == 0)
        printf("mca         per target CPU: cycles per source iteration, llvm-mca figures of its assembly loop\n");
    printf("  %-12s", r->target ? r->target : "?");
    if (!r->ok) {
        printf(" -  (%s)\n", r->reason ? r->reason : "no figures");
        return 0;
    }
    if (r->has_cycles_per_src_iter && r->asm_innermost)
        printf(" %.3f cyc/iter  asm %s: %.2f cyc/iter = %d src iter%s", r->cycles_per_src_iter,
               r->asm_label ? r->asm_label : "?", r->figs.cycles_per_iter,
               r->src_iters_per_asm_iter, r->src_iters_per_asm_iter == 1 ? "" : "s");
    else
        printf(" own blocks of asm %s: %.2f cyc", r->asm_label ? r->asm_label : "?",
               r->figs.cycles_per_iter);
    if (r->vf > 1 || r->ic > 1)
        printf(", VF %d x IC %d", r->vf, r->ic);
    if (r->unroll > 1)
        printf(", unroll %d", r->unroll);
    printf("; rthroughput %.2f, IPC %.2f, %.1f uops", r->figs.block_rthroughput, r->figs.ipc,
           r->figs.uops_per_iter);
    if (r->figs.top_resource[0])
        printf(", busiest %s %.2f", r->figs.top_resource, r->figs.top_resource_cycles);
    printf("\n");
    if (r->whole_iter_millicycles && !r->asm_innermost)
        printf("  %-12s whole iteration: %s millicycles\n", "", r->whole_iter_millicycles);
    return 0;
}

static void show_mca(db *d, int64_t loop_id)
{
    char err[256];
    int n = 0;
    db_mca_each(d, loop_id, mca_line, &n, err, sizeof err);   /* older files: nothing */
}

/* The counts section of show: keelcc's operation and byte counts of the
 * loop (analysis/counts.c), as polynomials of the program's symbols, per
 * iteration (inner loops included) and over all its iterations, with the
 * reason when they are not summed exactly. */
static const char *or_dash(const char *s) { return s && *s ? s : "-"; }

static int counts_line(void *ctx, const db_counts_row *r)
{
    int *n = ctx;
    if ((*n)++ == 0)
        printf("counts      per iteration (inner loops included) and in total\n");
    printf("  %-10s flops %s; iops %s; loads %s; stores %s\n", or_dash(r->scope),
           or_dash(r->flops), or_dash(r->iops), or_dash(r->loads), or_dash(r->stores));
    printf("  %-10s bytes read %s, written %s; flop/byte %s\n", "", or_dash(r->bytes_read),
           or_dash(r->bytes_written), or_dash(r->intensity));
    if (r->reason)
        printf("  %-10s not exact: %s\n", "", r->reason);
    return 0;
}

static void show_counts(db *d, int64_t loop_id)
{
    char err[256];
    int n = 0;
    if (db_each_counts(d, loop_id, counts_line, &n, err, sizeof err) < 0)
        printf("counts      ? (%s)\n", err);
}

static int counts_json(void *ctx, const db_counts_row *r)
{
    keel_json *j = ctx;
    keel_json_object(j, NULL);
    keel_json_str(j, "scope", r->scope);
    const char *k[] = { "fadd", "fmul", "fdiv", "ffma", "fmath", "flops", "iops", "loads",
                        "stores", "bytes_read", "bytes_written", "intensity", "reason" };
    const char *v[] = { r->fadd, r->fmul, r->fdiv, r->ffma, r->fmath, r->flops, r->iops,
                        r->loads, r->stores, r->bytes_read, r->bytes_written, r->intensity,
                        r->reason };
    for (size_t i = 0; i < sizeof k / sizeof *k; i++)
        keel_json_str(j, k[i], v[i]);
    keel_json_end(j);
    return 0;
}

/* The class and footprint sections of show: the boat-hull class of an
 * outermost loop with its parameters (analysis/species.c: w work units, m
 * applications of f per unit, d compulsory bytes, c and u its coalesced
 * and uncoalesced parts, f the deepest statement's operations), and the
 * bytes each array moves over all the loop's iterations; expressions in
 * the program's symbols. */
static int class_line(void *ctx, const db_class_row *r)
{
    (void)ctx;
    printf("boat hull   %s\n", or_dash(r->class_text));
    printf("  w %s; m %s; f %s\n", or_dash(r->w), or_dash(r->m), or_dash(r->f_complexity));
    printf("  d %s bytes (coalesced %s, uncoalesced %s)\n", or_dash(r->d), or_dash(r->c),
           or_dash(r->u));
    return 0;
}

static int footprint_line(void *ctx, const db_footprint_row *r)
{
    int *n = ctx;
    if ((*n)++ == 0)
        printf("footprint   bytes each array moves over all iterations\n");
    printf("  %-10s read %s, written %s\n", or_dash(r->array), or_dash(r->bytes_read),
           or_dash(r->bytes_written));
    return 0;
}

static void show_class_footprint(db *d, int64_t loop_id)
{
    char err[256];
    int n = 0;
    if (db_each_class(d, loop_id, class_line, NULL, err, sizeof err) < 0)
        printf("boat hull   ? (%s)\n", err);
    if (db_each_footprint(d, loop_id, footprint_line, &n, err, sizeof err) < 0)
        printf("footprint   ? (%s)\n", err);
}

static int class_json(void *ctx, const db_class_row *r)
{
    keel_json *j = ctx;
    keel_json_object(j, "boat_hull");
    keel_json_str(j, "class", r->class_text);
    const char *k[] = { "w", "m", "d", "c", "u", "f" };
    const char *v[] = { r->w, r->m, r->d, r->c, r->u, r->f_complexity };
    for (size_t i = 0; i < sizeof k / sizeof *k; i++)
        keel_json_str(j, k[i], v[i]);
    keel_json_end(j);
    return 1;   /* one row */
}

static int footprint_json(void *ctx, const db_footprint_row *r)
{
    keel_json *j = ctx;
    keel_json_object(j, NULL);
    keel_json_str(j, "array", r->array);
    keel_json_str(j, "bytes_read", r->bytes_read);
    keel_json_str(j, "bytes_written", r->bytes_written);
    keel_json_end(j);
    return 0;
}

/* The GPU mapping clang's OpenMP offload gives the loop (schema v6). */
static void show_gpu_map(const db_loop_info *l)
{
    static const struct { const char *role, *text; } roles[] = {
        { "grid", "teams x threads: one iteration per GPU thread, consecutive iterations"
                  " to consecutive threads (the fastest thread index)" },
        { "teams", "teams: one chunk of iterations per team" },
        { "threads", "threads of one team, consecutive iterations to consecutive threads" },
        { "collapsed", "collapsed with the loops below into one iteration space" },
        { "seq", "sequential inside one GPU thread (or team)" },
    };
    const char *text = NULL;
    for (size_t i = 0; l->gpu_map && i < sizeof roles / sizeof *roles; i++)
        if (strcmp(l->gpu_map, roles[i].role) == 0)
            text = roles[i].text;
    if (l->gpu_map)   /* only loops an OpenMP construct maps */
        printf("gpu map     %s: %s\n", l->gpu_map, text ? text : "?");
    if (l->gpu_collapse > 0)
        printf("gpu launch  %d loop%s mapped; teams %s; threads %s\n", l->gpu_collapse,
               l->gpu_collapse == 1 ? "" : "s collapsed",
               l->gpu_teams ? l->gpu_teams : "ceil(iterations / threads), at most 3200 (clang-19 default)",
               l->gpu_threads ? l->gpu_threads : "128 (clang-19 default)");
    if (l->region_line)
        printf("region      inside the device region opened at line %d\n", l->region_line);
}

/* What keelcc's instrumentation did with the loop and, on a nest, why
 * keel gives no verdict that follows its sizes (nothing when the database
 * predates these facts). */
static void show_site(const db_loop_info *l)
{
    const char *site = db_loop_fact(l, DB_LOOP_FACT_site);
    const char *why = db_loop_fact(l, DB_LOOP_FACT_site_why);
    const char *na = db_loop_fact(l, DB_LOOP_FACT_no_answer);
    if (site && !strcmp(site, "call"))
        printf("site        a keel_decide call before the nest\n");
    else if (site && !strcmp(site, "off"))
        printf("site        none: %s\n", why ? why : "built without instrumentation");
    else if (site && !strcmp(site, "clause"))
        printf("site        the verdict goes to its omp target construct's if(target: ...)\n");
    else if (site)
        printf("site        none: not instrumented because %s\n", why ? why : "?");
    if (na)
        printf("answer      none: no answer because %s\n", na);
}

static void show_text(const db_loop_info *l)
{
    printf("loop        %s:%d:%d\n", short_path(l->file), l->line, l->col);
    printf("function    %s", l->function ? l->function : "?");
    if (l->function_file)
        printf(" (%s:%d)", short_path(l->function_file), l->function_line);
    printf("\nunit        %s (%s)\n", short_path(l->tu_path), l->tu_status ? l->tu_status : "?");
    /* which build of the unit the loop belongs to (one source compiled
     * with other flags is another build, with its own loops) */
    printf("build       variant %s, hash %s, object %s\n", l->tu_variant ? l->tu_variant : "-",
           l->tu_hash ? l->tu_hash : "-", l->tu_object ? short_path(l->tu_object) : "-");
    printf("kind        %s%s\n", l->kind ? l->kind : "?", l->canonical ? " (canonical)" : "");
    printf("depth       %d\n", l->depth);
    if (l->parent_id)
        printf("parent      %s:%d:%d\n", short_path(l->file), l->parent_line, l->parent_col);
    else
        printf("parent      -\n");
    printf("inner       ");
    for (int i = 0; i < l->nchildren; i++)
        printf("%s%d:%d", i ? ", " : "", l->children[i].line, l->children[i].col);
    printf("%s\n", l->nchildren ? "" : "-");
    printf("iv          %s\n", l->iv ? l->iv : "-");
    printf("lower       %s\n", l->lower ? l->lower : "-");
    printf("upper       %s\n", l->upper ? l->upper : "-");
    if (l->step)
        printf("step        %lld\n", (long long)l->step);
    else
        printf("step        -\n");
    printf("trip        %s\n", l->trip ? l->trip : "-");
    printf("lines       %d-%d\n", l->line, l->end_line);
    char *s = keel_list_text(l->pragmas, "; ");
    printf("pragmas     %s\n", s ? s : "?");
    free(s);
    printf("control     if %d, break %d, continue %d, goto %d, return %d\n",
           l->n_if, l->n_break, l->n_continue, l->n_goto, l->n_return);
    s = l->idioms ? keel_list_text(l->idioms, ", ") : NULL;
    printf("idioms      %s\n", s ? s : "-");
    free(s);
    printf("class       %s\n", l->algorithm_class ? l->algorithm_class : "-");
    s = l->parallel ? keel_list_text(l->parallel, ", ") : NULL;
    printf("parallel    %s\n", s ? s : "-");
    free(s);
    printf("coalescing  %s\n", l->coalescing ? l->coalescing : "-");
    for (int k = 0; k < DB_NLOOP_FACTS; k++)   /* facts with a line of their own, when known */
        if (db_loop_fact_show[k] && db_loop_fact(l, k))
            printf("%-11s %s\n", db_loop_fact_show[k], db_loop_fact(l, k));
    show_site(l);
    show_gpu_map(l);
    if (l->has_cycles)
        printf("cycles/iter %.2f\n", l->cycles_per_iter);
    else
        printf("cycles/iter -\n");
    printf("statements  %d\n", l->nstmts);
    for (int i = 0; i < l->nstmts; i++) {
        const db_stmt_info *st = &l->stmts[i];
        printf("  %d:%d  %s%s\n", st->line, st->col, st->text ? st->text : "?",
               st->conditional ? "  (conditional)" : "");
        static const char *const opname[] = { "fadd", "fmul", "fdiv", "ffma", "fmath",
                                              "iadd", "imul", "idiv", "cmp" };
        int ops[] = { st->fadd, st->fmul, st->fdiv, st->ffma, st->fmath,
                      st->iadd, st->imul, st->idiv, st->cmp };
        int any = 0;
        printf("    ops    ");
        for (int k = 0; k < 9; k++)
            if (ops[k])
                printf(" %s %d", opname[k], ops[k]), any = 1;
        printf("%s\n", any ? "" : " -");
        if (st->calls) {
            s = keel_list_text(st->calls, ", ");
            if (s && strcmp(s, "-"))
                printf("    calls   %s\n", s);
            free(s);
        }
        for (int k = 0; k < st->naccesses; k++) {
            const db_access_info *a = &st->accesses[k];
            printf("    %c %s", a->is_write ? 'W' : 'R', a->array ? a->array : "?");
            for (int j = 0; j < a->ndims; j++)
                printf("[%s]", a->index[j] ? a->index[j] : "?");
            printf("  extents ");
            for (int j = 0; j < a->nextents; j++)
                printf("[%s]", a->extent[j] ? a->extent[j] : "?");
            if (a->nextents == 0)
                printf("-");
            if (a->elem_size)
                printf("  elem %d", a->elem_size);
            else
                printf("  elem ?");
            printf("  %s\n", a->affine ? "affine" : "not affine");
        }
        for (int k = 0; k < st->nscalars; k++)
            printf("    %c %s  scalar\n", st->scalars[k].is_write ? 'W' : 'R',
                   st->scalars[k].name ? st->scalars[k].name : "?");
    }
}


/* The llvm-mca section of show --json: one object per target. */
static int mca_json(void *ctx, const db_mca_row *r)
{
    keel_json *j = ctx;
    keel_json_object(j, NULL);
    keel_json_str(j, "target", r->target);
    keel_json_bool(j, "ok", r->ok);
    keel_json_str(j, "reason", r->ok ? NULL : r->reason ? r->reason : "no figures");
    if (r->ok && r->has_cycles_per_src_iter && r->asm_innermost)
        keel_json_num(j, "cycles_per_src_iter", r->cycles_per_src_iter);
    else
        keel_json_null(j, "cycles_per_src_iter");
    keel_json_str(j, "asm_label", r->asm_label);
    keel_json_bool(j, "asm_innermost", r->asm_innermost);
    if (r->ok) {
        keel_json_num(j, "asm_cycles_per_iter", r->figs.cycles_per_iter);
        keel_json_int(j, "src_iters_per_asm_iter", r->src_iters_per_asm_iter);
        keel_json_int(j, "vf", r->vf);
        keel_json_int(j, "ic", r->ic);
        keel_json_int(j, "unroll", r->unroll);
        keel_json_num(j, "block_rthroughput", r->figs.block_rthroughput);
        keel_json_num(j, "ipc", r->figs.ipc);
        keel_json_num(j, "uops_per_iter", r->figs.uops_per_iter);
        keel_json_str(j, "busiest_resource", r->figs.top_resource[0] ? r->figs.top_resource : NULL);
        if (r->figs.top_resource[0])
            keel_json_num(j, "busiest_resource_cycles", r->figs.top_resource_cycles);
        else
            keel_json_null(j, "busiest_resource_cycles");
    } else {
        const char *k[] = { "asm_cycles_per_iter", "src_iters_per_asm_iter", "vf", "ic", "unroll",
                            "block_rthroughput", "ipc", "uops_per_iter", "busiest_resource",
                            "busiest_resource_cycles" };
        for (size_t i = 0; i < sizeof k / sizeof *k; i++)
            keel_json_null(j, k[i]);
    }
    keel_json_str(j, "whole_iter_millicycles",
                  r->whole_iter_millicycles && !r->asm_innermost ? r->whole_iter_millicycles : NULL);
    keel_json_end(j);
    return 0;
}

/* The dependence and strides sections of show --json (null and [] for a
 * database keelcc's IPDA did not write, where the text prints nothing). */
static void ipda_json(keel_json *j, db *d, const db_loop_info *l)
{
    char err[256], *verdict, *reason;
    if (db_get_dependence(d, l->id, &verdict, &reason, err, sizeof err) != 0) {
        keel_json_null(j, "dependence");
        keel_json_array(j, "overlap");
        keel_json_end(j);
        keel_json_array(j, "strides");
        keel_json_end(j);
        return;
    }
    keel_json_object(j, "dependence");
    keel_json_str(j, "verdict", verdict);
    keel_json_str(j, "reason", reason);
    keel_json_end(j);
    free(verdict);
    free(reason);
    ov_show c = { l, j, 0, 0 };
    keel_json_array(j, "overlap");
    db_launch_each_overlap(d, l->id, ov_row, &c, err, sizeof err);
    keel_json_end(j);
    keel_json_array(j, "strides");
    for (int i = 0; i < l->nstmts; i++)
        for (int k = 0; k < l->stmts[i].naccesses; k++) {
            const db_access_info *a = &l->stmts[i].accesses[k];
            int tline = 0, fs = 0;
            char *st = NULL, *cls = NULL, *in = NULL, *icls = NULL;
            int r = db_get_stride(d, a->id, &tline, &st, &cls, &in, &icls, &fs, err, sizeof err);
            keel_json_object(j, NULL);
            keel_json_int(j, "line", a->line);
            keel_json_int(j, "col", a->col);
            keel_json_bool(j, "write", a->is_write);
            keel_json_str(j, "array", a->array);
            keel_json_array(j, "subscripts");
            for (int x = 0; x < a->ndims; x++)
                keel_json_str(j, NULL, a->index[x]);
            keel_json_end(j);
            keel_json_str(j, "stride", r == 0 ? st : NULL);
            keel_json_str(j, "class", r == 0 ? cls : NULL);
            if (r == 0)
                keel_json_int(j, "thread_line", tline);
            else
                keel_json_null(j, "thread_line");
            keel_json_str(j, "inner_stride", r == 0 ? in : NULL);
            keel_json_str(j, "inner_class", r == 0 ? icls : NULL);
            keel_json_bool(j, "false_sharing", r == 0 && fs);
            keel_json_end(j);
            free(st);
            free(cls);
            free(in);
            free(icls);
        }
    keel_json_end(j);
}

static void int_or_null(keel_json *j, const char *key, int have, long long v)
{
    if (have)
        keel_json_int(j, key, v);
    else
        keel_json_null(j, key);
}

/* show --json: every field of the text form, with the dependence, strides
 * and llvm-mca sections. */
/* show --json's statements: each with its operation counts, calls,
 * accesses and scalar references (the loop's own statements only). */
static void statements_json(keel_json *j, const db_loop_info *l)
{
    keel_json_array(j, "statements");
    for (int i = 0; i < l->nstmts; i++) {
        const db_stmt_info *st = &l->stmts[i];
        keel_json_object(j, NULL);
        keel_json_int(j, "line", st->line);
        keel_json_int(j, "col", st->col);
        keel_json_str(j, "text", st->text);
        keel_json_bool(j, "conditional", st->conditional);
        keel_json_object(j, "ops");
        static const char *const opname[] = { "fadd", "fmul", "fdiv", "ffma", "fmath",
                                              "iadd", "imul", "idiv", "cmp" };
        int ops[] = { st->fadd, st->fmul, st->fdiv, st->ffma, st->fmath,
                      st->iadd, st->imul, st->idiv, st->cmp };
        for (int k = 0; k < 9; k++)
            keel_json_int(j, opname[k], ops[k]);
        keel_json_end(j);
        keel_json_list(j, "calls", st->calls);
        keel_json_array(j, "accesses");
        for (int k = 0; k < st->naccesses; k++) {
            const db_access_info *a = &st->accesses[k];
            keel_json_object(j, NULL);
            keel_json_str(j, "array", a->array);
            keel_json_bool(j, "write", a->is_write);
            keel_json_array(j, "subscripts");
            for (int x = 0; x < a->ndims; x++)
                keel_json_str(j, NULL, a->index[x]);
            keel_json_end(j);
            keel_json_array(j, "extents");
            for (int x = 0; x < a->nextents; x++)
                keel_json_str(j, NULL, a->extent[x]);
            keel_json_end(j);
            int_or_null(j, "elem_size", a->elem_size != 0, a->elem_size);
            keel_json_bool(j, "affine", a->affine);
            keel_json_int(j, "line", a->line);
            keel_json_int(j, "col", a->col);
            keel_json_end(j);
        }
        keel_json_end(j);
        keel_json_array(j, "scalars");
        for (int k = 0; k < st->nscalars; k++) {
            keel_json_object(j, NULL);
            keel_json_str(j, "name", st->scalars[k].name);
            keel_json_bool(j, "write", st->scalars[k].is_write);
            keel_json_int(j, "line", st->scalars[k].line);
            keel_json_int(j, "col", st->scalars[k].col);
            keel_json_end(j);
        }
        keel_json_end(j);
        keel_json_end(j);
    }
    keel_json_end(j);
}

static void show_json(keel_json *j, db *d, const db_loop_info *l)
{
    keel_json_object(j, NULL);
    keel_json_int(j, "loop_id", l->id);
    keel_json_str(j, "file", l->file);
    keel_json_int(j, "line", l->line);
    keel_json_int(j, "col", l->col);
    keel_json_int(j, "end_line", l->end_line);
    keel_json_str(j, "function", l->function);
    keel_json_str(j, "function_file", l->function_file);
    keel_json_int(j, "function_line", l->function_line);
    keel_json_str(j, "unit", l->tu_path);
    keel_json_str(j, "unit_status", l->tu_status);
    keel_json_str(j, "variant", l->tu_variant);
    keel_json_str(j, "hash", l->tu_hash);
    keel_json_str(j, "object", l->tu_object);
    keel_json_str(j, "kind", l->kind);
    keel_json_bool(j, "canonical", l->canonical);
    keel_json_int(j, "depth", l->depth);
    int_or_null(j, "parent_line", l->parent_id != 0, l->parent_line);
    int_or_null(j, "parent_col", l->parent_id != 0, l->parent_col);
    keel_json_array(j, "inner");
    for (int i = 0; i < l->nchildren; i++) {
        keel_json_object(j, NULL);
        keel_json_int(j, "line", l->children[i].line);
        keel_json_int(j, "col", l->children[i].col);
        keel_json_end(j);
    }
    keel_json_end(j);
    keel_json_str(j, "iv", l->iv);
    keel_json_str(j, "lower", l->lower);
    keel_json_str(j, "upper", l->upper);
    int_or_null(j, "step", l->step != 0, l->step);
    keel_json_str(j, "trip", l->trip);
    keel_json_list(j, "pragmas", l->pragmas);
    keel_json_int(j, "n_if", l->n_if);
    keel_json_int(j, "n_break", l->n_break);
    keel_json_int(j, "n_continue", l->n_continue);
    keel_json_int(j, "n_goto", l->n_goto);
    keel_json_int(j, "n_return", l->n_return);
    keel_json_csv(j, "idioms", l->idioms);
    keel_json_str(j, "algorithm_class", l->algorithm_class);
    keel_json_str(j, "parallel", l->parallel);
    keel_json_str(j, "coalescing", l->coalescing);
    for (int k = 0; k < DB_NLOOP_FACTS; k++)
        if (db_loop_fact_show[k] && db_loop_fact(l, k))
            keel_json_str(j, db_loop_fact_names[k], db_loop_fact(l, k));
    keel_json_str(j, "site", db_loop_fact(l, DB_LOOP_FACT_site));
    keel_json_str(j, "site_why", db_loop_fact(l, DB_LOOP_FACT_site_why));
    keel_json_str(j, "no_answer", db_loop_fact(l, DB_LOOP_FACT_no_answer));
    keel_json_str(j, "gpu_map", l->gpu_map);
    keel_json_int(j, "gpu_collapse", l->gpu_collapse);
    keel_json_str(j, "gpu_teams", l->gpu_teams);
    keel_json_str(j, "gpu_threads", l->gpu_threads);
    int_or_null(j, "region_line", l->region_line != 0, l->region_line);
    if (l->has_cycles)
        keel_json_num(j, "cycles_per_iter", l->cycles_per_iter);
    else
        keel_json_null(j, "cycles_per_iter");
    statements_json(j, l);
    ipda_json(j, d, l);
    char err[256];
    keel_json_array(j, "mca");
    db_mca_each(d, l->id, mca_json, j, err, sizeof err);   /* older files: [] */
    keel_json_end(j);
    keel_json_array(j, "counts");
    db_each_counts(d, l->id, counts_json, j, err, sizeof err);
    keel_json_end(j);
    if (db_each_class(d, l->id, class_json, j, err, sizeof err) != 1)
        keel_json_null(j, "boat_hull");
    keel_json_array(j, "footprint");
    db_each_footprint(d, l->id, footprint_json, j, err, sizeof err);
    keel_json_end(j);
    keel_json_end(j);
}

static int cmd_show(const char *dbpath, const char *loc, int json)
{
    char err[512], real[PATH_MAX];
    char *file;
    int line, col, rc = 0;
    db *d;
    matches m = { 0 };
    db_loop_info *l = NULL;

    keel_json *j = NULL;
    if (keel_parse_site(loc, &file, &line, &col))
        return EXIT_USAGE;
    if (db_open(dbpath, DB_READONLY, &d, err, sizeof err)) {
        free(file);
        return keel_say(EXIT_DB, "%s", err);
    }
    db_loop_filter flt = { .file = file, .file_match = DB_FILE_SUFFIX,
                           .line = line, .col = col };
    int r = db_each_loop(d, &flt, match_row, &m, err, sizeof err);
    if (r == 0 && m.n == 0 && realpath(file, real) && strcmp(real, flt.file)) {
        flt.file = real;
        flt.file_match = DB_FILE_EXACT;
        r = db_each_loop(d, &flt, match_row, &m, err, sizeof err);
    }
    if (r < 0)
        rc = keel_say(EXIT_DB, "%s", err);
    else if (r > 0)
        rc = keel_say(EXIT_DB, "out of memory");
    else if (m.n == 0)
        rc = keel_say(EXIT_DB, "no loop at %s in %s", loc, dbpath);
    else if (strcmp(m.v[0].file, m.v[m.n - 1].file) != 0)
        rc = keel_say(EXIT_USAGE, "%s is ambiguous: %s and %s match (give more of the path)",
                 loc, m.v[0].file, m.v[m.n - 1].file);
    else if (m.n > 1 && !same_position(&m)) {
        char cols[128] = "";
        for (int i = 0; i < m.n && strlen(cols) < 100; i++)
            snprintf(cols + strlen(cols), sizeof cols - strlen(cols), "%s%d",
                     i ? ", " : "", m.v[i].col);
        rc = keel_say(EXIT_USAGE, "%d loops at %s (columns %s): say FILE:LINE:COL", m.n, loc, cols);
    } else if (json && !(j = keel_json_new())) {
        rc = keel_say(EXIT_DB, "out of memory");
    } else {
        /* Several loops at one FILE:LINE:COL (a header's loop compiled into
         * two units, a macro that expands to nested loops): show them all
         * (--json: an array of them). */
        if (j && m.n > 1)
            keel_json_array(j, NULL);
        for (int i = 0; i < m.n && rc == 0; i++) {
            if ((r = db_get_loop(d, m.v[i].id, &l, err, sizeof err)) != 0) {
                rc = r < 0 ? keel_say(EXIT_DB, "%s", err) : keel_say(EXIT_DB, "no loop at %s in %s", loc, dbpath);
                break;
            }
            if (j) {
                show_json(j, d, l);
            } else {
                if (m.n > 1)
                    printf("%s== loop %d of %d at %s\n", i ? "\n" : "", i + 1, m.n, loc);
                show_text(l);
                show_ipda(d, l);
                show_mca(d, l->id);
                show_counts(d, l->id);
                show_class_footprint(d, l->id);
            }
            db_free_loop(l);
            l = NULL;
        }
        if (j && m.n > 1)
            keel_json_end(j);
        if (j && rc == 0)
            rc = keel_json_print(j, stdout);
    }
    keel_json_free(j);
    db_free_loop(l);
    for (int i = 0; i < m.n; i++)
        free(m.v[i].file);
    free(m.v);
    free(file);
    db_close(d);
    return rc;
}

/* ---- the commands' options ----------------------------------------------- */

static int run_loops(int argc, char **argv)
{
    const char *file = NULL, *func = NULL;
    int json = 0, wide = 0, n;
    const keel_opt opts[] = {
        KEEL_OPT_FLAG("json", &json),
        KEEL_OPT_FLAG("wide", &wide),
        KEEL_OPT_TEXT("file", &file),
        KEEL_OPT_TEXT("function", &func),
        KEEL_OPT_LAST,
    };
    char **pos;
    int r = keel_getopts("loops", NULL, opts, argc, argv, 1, &pos, &n);
    if (r >= 0)
        return r;
    return cmd_loops(n ? pos[0] : keel_default_db(), file, func, json, wide);
}

static int run_show(int argc, char **argv)
{
    int json = 0, n;
    const keel_opt opts[] = {
        KEEL_OPT_FLAG("json", &json),
        KEEL_OPT_LAST,
    };
    char **pos;
    int r = keel_getopts("show", NULL, opts, argc, argv, 2, &pos, &n);
    if (r >= 0)
        return r;
    if (n == 0)
        return keel_say(EXIT_USAGE, "show needs FILE:LINE (see keel show --help)");
    return cmd_show(n == 2 ? pos[1] : keel_default_db(), pos[0], json);
}

static int set_size(void *dest, const char *arg)
{
    if (keel_parse_ll(arg, 1, (long long)1 << 40, dest))
        return keel_say(EXIT_USAGE, "bad --size '%s' (want 1 to %lld)", arg, (long long)1 << 40);
    return 0;
}

static int run_report(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0)
            break;
        else if (strcmp(argv[i], "--html") == 0 || strncmp(argv[i], "--html=", 7) == 0)
            return keel_cmd_html(argc, argv);       /* html.c: its own options */
    const char *file = NULL, *devlist = "h100", *host = NULL;
    int json = 0, idioms = 0, all = 0, top = 10, threads = 0, n;
    long long size = 1000;
    const keel_opt opts[] = {
        KEEL_OPT_FLAG("json", &json),
        KEEL_OPT_TEXT("file", &file),
        KEEL_OPT_FLAG("idioms", &idioms),
        KEEL_OPT_FLAG("all", &all),
        KEEL_OPT_INT("top", &top, 1, 1 << 30),
        KEEL_OPT_CALL("size", &size, set_size),
        KEEL_OPT_TEXT("device", &devlist),
        KEEL_OPT_TEXT("host", &host),
        KEEL_OPT_INT("threads", &threads, 1, 1 << 20),
        KEEL_OPT_LAST,
    };
    char **pos;
    int r = keel_getopts("report", NULL, opts, argc, argv, 1, &pos, &n);
    if (r >= 0)
        return r;
    const char *dbpath = n ? pos[0] : keel_default_db();
    if (idioms)
        return cmd_report(dbpath, file, json);
    return keel_cmd_rank(dbpath, file ? clean_file(file) : NULL, json, all ? 0 : top, size,
                         devlist, host, threads);
}

static int run_help(int argc, char **argv)
{
    const keel_opt none[] = { KEEL_OPT_LAST };
    char **pos;
    int n, r = keel_getopts("help", NULL, none, argc, argv, -1, &pos, &n);
    if (r >= 0)
        return r;
    if (n > 1)
        return keel_say(EXIT_USAGE, "help takes at most one command");
    return keel_help(n ? pos[0] : NULL);
}

/* ---- the command table ----------------------------------------------------- */

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);      /* argv[0]: the command name */
    const char *summary;                    /* lines of `keel --help` */
    const char *usage;                      /* `keel help NAME` */
} command;

static const command commands[] = {
    { "loops", run_loops,
      "  loops [DB]                 every loop: location, idioms, parallel verdict,\n"
      "                             cycles per iteration (--wide: every column)\n",
      "usage: keel loops [--wide] [--file PATH] [--function NAME] [--json] [DB]\n"
      "\n"
      "List every loop of the database, ordered by file and line.  By default\n"
      "a compact table that fits 120 columns: location (FILE:LINE, indented by\n"
      "nesting depth; long paths keep their end), idioms, parallel verdict and\n"
      "llvm-mca cycles per iteration.\n"
      "\n"
      "  --wide           every column: location, function, nesting depth (0 =\n"
      "                   outermost), line of the enclosing loop, induction\n"
      "                   variable, trip count expression and pragmas; columns of\n"
      "                   later analyses (idioms, class, parallel, coalescing,\n"
      "                   cycles/iter) appear when any listed loop has them;\n"
      "                   a cell longer than 120 characters is cut (\"...\"\n"
      "                   marks the cut; --json gives it whole), a location is\n"
      "                   printed whole\n"
      "  --file PATH      only loops in files whose path is PATH or ends in /PATH\n"
      "  --function NAME  only loops in function NAME\n"
      "  --json           a JSON array of objects, one per loop, with every\n"
      "                   column of --wide (paths as stored)\n"
      "\n"
      "DB defaults to $KEEL_DB, else ./keel.db.\n" },
    { "show", run_show,
      "  show FILE:LINE[:COL] [DB]  one loop: statements, operation counts, array\n"
      "                             accesses, scalars, dependence, strides, llvm-mca,\n"
      "                             counts, boat hull, footprint\n",
      "usage: keel show FILE:LINE[:COL] [--json] [DB]\n"
      "\n"
      "Print everything known about the loop whose keyword is at FILE:LINE\n"
      "(add :COL when a line holds several loops): bounds, trip count,\n"
      "pragmas, control flow, analysis results, and each statement directly\n"
      "in it with its operation counts, array accesses (R/W, subscripts,\n"
      "declared extents, element size, affinity) and scalars; then the IPDA\n"
      "dependence verdict and the stride of every access, the llvm-mca\n"
      "figures per target CPU, the loop's operation and byte counts per\n"
      "iteration and in total, its boat-hull class (outermost loops) and the\n"
      "bytes each array moves over all its iterations.\n"
      "\n"
      "  --json   one JSON object with the same sections (an array of them when\n"
      "           several loops share FILE:LINE:COL)\n"
      "\n"
      "FILE matches a stored path exactly or by its last parts (gemm.c:52\n"
      "matches /src/bench/gemm.c line 52).  DB defaults to $KEEL_DB, else\n"
      "./keel.db.\n" },
    { "report", run_report,
      "  report [DB]                what to port first: nests ranked by the time the\n"
      "                             GPU would save, with times, crossover and reasons\n"
      "                             (--idioms: every idiom instance; --html FILE: a page)\n",
      "usage: keel report [--top N | --all] [--size N] [--device LIST] [--host NAME]\n"
      "                   [--threads N] [--file PATH] [--json] [DB]\n"
      "       keel report --idioms [--file PATH] [--json] [DB]\n"
      "       keel report --html FILE [--device LIST] [--host NAME] [--threads N]\n"
      "                   [--size N] [--file PATH] [DB]\n"
      "\n"
      "What to port first: every loop nest ranked by the time running it on the\n"
      "GPU would save -- summed over the launches the program logged (the sizes\n"
      "it really ran) when there are any, else at problem size N (every size\n"
      "symbol = N).  Nests with logged launches come first.  Per nest: the\n"
      "verdict (GPU, CPU, unknown), where it was ranked (launches or N), the\n"
      "predicted CPU and GPU + transfer times, the saving, the crossover size\n"
      "(as keel explain --sweep '*=1:1048576') and, when the GPU does not win,\n"
      "why: not parallel (the dependence), too small (the crossover), the CPU\n"
      "faster at every size, a size not evaluable, no GPU verdict possible.\n"
      "\n"
      "  --top N          the first N nests (default 10)\n"
      "  --all            every nest\n"
      "  --size N         problem size for nests without logged launches\n"
      "                   (default 1000)\n"
      "  --device LIST    GPU profile (the first of LIST; default h100)\n"
      "  --host NAME      CPU profile (default: this host, calibrated)\n"
      "  --threads N      host threads (1 to 1048576)\n"
      "  --file PATH      only nests of PATH (a path or its last parts)\n"
      "  --json           one object: the profiles and every nest ranked\n"
      "\n"
      "--idioms lists every idiom instance keelcc found, PIR-style, sorted by\n"
      "file and line: File, Line (of the statement), Function, Idiom, Code;\n"
      "with --json a JSON array of objects with the same fields, the evidence\n"
      "(the accesses that decided) and the line of the loop the idiom is\n"
      "attached to.\n"
      "\n"
      "--html FILE writes one self-contained HTML page instead: first the same\n"
      "ranking, linked to every nest; per nest a chart of time against size\n"
      "(CPU, GPU + transfer, crossover); a roofline chart per device of the top\n"
      "nests; the boat-hull view per class; per source and function each nest's\n"
      "idioms, class, parallel verdict, strides, cycles and crossover size per\n"
      "GPU profile; logged decisions.  It prints FILE.\n"
      "\n"
      "  --device LIST    GPU profiles, comma-separated (default h100)\n"
      "  --host NAME      CPU profile (default: this host)\n"
      "  --threads N      host threads for nests with OpenMP pragmas (1 to 1048576)\n"
      "  --size N         problem size of the ranking and the roofline points\n"
      "                   (default 1000)\n" },
    { "scan", keel_cmd_scan,
      "  scan -p BUILD_DIR [DB]     analyse every C file of a compile database\n"
      "                             (compile_commands.json) without compiling\n",
      "usage: keel scan -p BUILD_DIR [-j N] [--no-mca] [--force] [--json]\n"
      "                 [--extra-arg=ARG]... [DB]\n"
      "\n"
      "Analyse every C file of BUILD_DIR/compile_commands.json with its own\n"
      "flags, without compiling (CMake, Meson, Bear); files unchanged since\n"
      "the last scan are skipped.\n"
      "\n"
      "  -p BUILD_DIR     the folder of compile_commands.json (or the file)\n"
      "  -j N             N files at once (default: processors online)\n"
      "  --no-mca         no llvm-mca cycles (no assembly compiles)\n"
      "  --extra-arg=ARG  append ARG to every file's compile arguments\n"
      "                   (repeatable, as clang-tidy's)\n"
      "  --force          analyse unchanged files again\n"
      "  --json           the summary as one JSON object\n" },
    { "merge", keel_cmd_merge,
      "  merge OUT.db IN.db...      combine databases (the newest analysis of each\n"
      "                             source wins)\n",
      "usage: keel merge [--json] OUT.db IN.db...\n"
      "\n"
      "Combine databases of several machines or build trees into OUT.db: the\n"
      "newest analysis of each source wins, decisions and host calibrations\n"
      "are appended.\n"
      "\n"
      "  --json           the summary as one JSON object\n" },
    { "devices", keel_cmd_devices,
      "  devices                    the machine profiles (built-in and the user's)\n",
      "usage: keel devices [--json]\n"
      "       keel devices --add FILE\n"
      "       keel devices --export NAME\n"
      "\n"
      "List the machine profiles (built-in and the user's) with their key\n"
      "numbers and sources.\n"
      "\n"
      "  --add FILE       check a profile file and add it to $KEEL_MACHINES\n"
      "                   (~/.config/keel/machines)\n"
      "  --export NAME    print a profile in the text format of profile files\n"
      "  --json           a JSON array of profiles (SI units: Hz, bytes, B/s, s)\n" },
    { "calibrate", keel_cmd_calibrate,
      "  calibrate [DB]             measure this host and store it in DB\n",
      "usage: keel calibrate [--json] [DB]\n"
      "\n"
      "Measure this host (bandwidth, flop rate, OpenMP overheads) and store it\n"
      "in DB, where keel explain, keel report --html and libkeelrt find it.\n"
      "\n"
      "  --json           the measurements as one JSON object\n" },
    { "explain", keel_cmd_explain,
      "  explain FILE:LINE[:COL]    every term of the CPU, GPU and transfer models\n"
      "                             for one launch, and the verdict\n",
      "usage: keel explain FILE:LINE[:COL] [--set SYM=V,...] [--device NAME]\n"
      "                    [--host NAME] [--threads N] [--offload image|host]\n"
      "                    [--sweep SYM=LO:HI] [--json] [DB]\n"
      "\n"
      "Every term of the CPU, GPU and transfer models for one launch of the\n"
      "nest at FILE:LINE with the values of --set, and the verdict; it runs\n"
      "nothing and writes nothing.\n"
      "\n"
      "  --set SYM=V,...  values of the nest's symbols (decimal integers);\n"
      "                   may be given several times\n"
      "  --device NAME    GPU profile or profile file (default: KEEL_DEVICE, the\n"
      "                   GPU present, else h100 with verdict CPU)\n"
      "  --host NAME      CPU profile or profile file (default: KEEL_HOST, else\n"
      "                   this host)\n"
      "  --threads N      run the nest on N host threads, 1 to 1048576 (default:\n"
      "                   as compiled: one thread without OpenMP pragmas, else\n"
      "                   OMP_NUM_THREADS or cores)\n"
      "  --offload image|host\n"
      "                   cost OpenMP target regions as built with an offload\n"
      "                   image (a host run pays the target_fallback) or with\n"
      "                   none (host code); default: as keelcc recorded (loop\n"
      "                   fact offload)\n"
      "  --sweep SYM=LO:HI\n"
      "                   CPU and GPU+transfer times from LO to HI (x2 steps) and\n"
      "                   the crossover size; SYM * sets every symbol the nest\n"
      "                   needs, the others come from --set\n"
      "  --json           one JSON object with the same terms (with --sweep: its\n"
      "                   rows and crossover)\n" },
    { "history", keel_cmd_history,
      "  history [DB]               measured times per loop, size and device\n",
      "usage: keel history [--add FILE] [--json] [DB]\n"
      "\n"
      "Measured times per loop, size key and device (StarPU-style).  A size\n"
      "measured on both devices is trusted: its times decide over the models.\n"
      "\n"
      "  --add FILE       add measurements, one a line: FILE:LINE SYM=V,...\n"
      "                   cpu|gpu SECONDS ('-': stdin)\n"
      "  --json           a JSON array of objects, one per row\n" },
    { "stats", keel_cmd_stats,
      "  stats [DB]                 what the database holds: sources, loops, verdicts,\n"
      "                             failures and why, caches, logged decisions\n",
      "usage: keel stats [--json] [DB]\n"
      "\n"
      "What the database holds: sources and builds (analysed, failed), loops\n"
      "and nests with their dependence verdicts, llvm-mca figures and cache,\n"
      "direct-mode entries, keel scan's files, decisions logged at run time,\n"
      "measured history and host calibrations; then each failure with its\n"
      "reason.\n"
      "\n"
      "  --json           one JSON object with the same counts and failures\n" },
    { "help", run_help,
      "  help [COMMAND]             this text, or COMMAND's (also: keel COMMAND --help)\n",
      NULL },
};
enum { NCOMMANDS = sizeof commands / sizeof *commands };

static void usage_all(void)
{
    fputs("usage: keel [--help | --version] COMMAND [OPTIONS] [ARGS]\n"
          "\n"
          "Query the keel program attribute database written by keelcc, and the\n"
          "run-time models of libkeelrt.\n"
          "\n"
          "commands:\n", stdout);
    for (int i = 0; i < NCOMMANDS; i++)
        fputs(commands[i].summary, stdout);
    fputs("\n"
          "keel help COMMAND (or keel COMMAND --help) tells COMMAND's options.\n"
          "Every command that prints data takes --json.\n"
          "DB is the database file: $KEEL_DB when set, else ./keel.db.\n"
          "FILE matches a stored path exactly or by its last parts (gemm.c:52\n"
          "matches /src/bench/gemm.c line 52).\n"
          "Exit status: 0 success, 1 database error, 2 usage error.\n", stdout);
}

int keel_help(const char *cmd)
{
    if (!cmd) {
        usage_all();
        return 0;
    }
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(cmd, commands[i].name) == 0) {
            if (commands[i].usage)
                fputs(commands[i].usage, stdout);
            else
                usage_all();
            return 0;
        }
    return keel_say(EXIT_USAGE, "unknown command '%s' (see keel --help)", cmd);
}

int main(int argc, char **argv)
{
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = 0;
    if (argc < 2)
        return keel_say(EXIT_USAGE, "no command (see keel --help)");
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)
        return keel_help(NULL);
    if (strcmp(cmd, "--version") == 0) {
        printf("keel %s\n", KEEL_VERSION);
        return 0;
    }
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(cmd, commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    return keel_say(EXIT_USAGE, cmd[0] == '-' ? "unknown option '%s' (see keel --help)"
                                              : "unknown command '%s' (see keel --help)", cmd);
}
