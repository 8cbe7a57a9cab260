/*
 * keel.c -- the `keel` command-line tool: query the program attribute
 * database that keelcc writes.
 *
 *     keel loops [--wide] [--file PATH] [--function NAME] [--json] [DB]
 *     keel show FILE:LINE[:COL] [--json] [DB]
 *     keel help [COMMAND] | keel --help | keel --version
 *
 * DB is $KEEL_DB when set, else keel.db in the current directory.  Output
 * goes to stdout; every failure is exactly one line "keel: ..." on stderr
 * with exit status 2 for a usage error and 1 for a database error.  The
 * tool reads through the db_ reader API only (db.h), never raw SQL.
 *
 * Tables print file paths relative to the current directory when the file
 * lies under it; JSON prints them as stored.  JSON texts the database holds
 * (pragmas, calls, idioms) are decoded by a small parser for arrays of
 * strings and re-emitted; anything else is emitted as a JSON string, so
 * the output is valid JSON whatever the database contains.
 */
#define _XOPEN_SOURCE 700   /* realpath */

#include "db.h"
#include "cli.h"      /* runtime/: devices, calibrate, explain */
#include "db_mca.h"
#include "keelcmd.h"  /* scan, merge, report --html */

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef KEEL_VERSION
#define KEEL_VERSION "unknown"
#endif

enum { EXIT_DB = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: keel [--help | --version] COMMAND [OPTIONS] [ARGS]\n"
    "\n"
    "Query the keel program attribute database written by keelcc.\n"
    "\n"
    "commands:\n"
    "  loops [DB]                 list every loop: location, idioms, parallel\n"
    "                             verdict, cycles per iteration (fits 120 columns)\n"
    "      --wide                 every column: function, depth, parent loop,\n"
    "                             induction variable, trip count, pragmas, class,\n"
    "                             coalescing\n"
    "      --file PATH            only loops in PATH (a path or its last parts)\n"
    "      --function NAME        only loops in function NAME\n"
    "      --json                 print a JSON array of objects\n"
    "  show FILE:LINE[:COL] [DB]  one loop with its statements, operation\n"
    "                             counts, array accesses and scalars\n"
    "      --json                 print one JSON object\n"
    KEEL_CMD_USAGE
    "  report [DB]                every idiom instance, PIR-style: File, Line,\n"
    "                             Function, Idiom, Code, by file and line\n"
    "      --file PATH            only PATH\n"
    "      --json                 JSON array, with the evidence\n"
    RT_CLI_USAGE
    "  help [COMMAND]             print this text\n"
    "\n"
    "DB is the database file: $KEEL_DB when set, else ./keel.db.\n"
    "FILE matches a stored path exactly or by its last parts (gemm.c:52\n"
    "matches /src/bench/gemm.c line 52).\n"
    "Exit status: 0 success, 1 database error, 2 usage error.\n";

static const char loops_usage[] =
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
    "                   cycles/iter) appear when any listed loop has them\n"
    "  --file PATH      only loops in files whose path is PATH or ends in /PATH\n"
    "  --function NAME  only loops in function NAME\n"
    "  --json           print a JSON array of objects (paths as stored)\n"
    "\n"
    "DB defaults to $KEEL_DB, else ./keel.db.\n";

static const char report_usage[] =
    "usage: keel report [--file PATH] [--json] [DB]\n"
    "\n"
    "Every idiom instance keelcc found, PIR-style, sorted by file and line:\n"
    "File, Line (of the statement), Function, Idiom, Code.  --json adds the\n"
    "evidence (the accesses that decided) and the line of the loop it is\n"
    "attached to.  --file PATH keeps one file (a path suffix).\n"
    "\n"
    "keel report --html FILE [--device LIST] [--host NAME] [--threads N]\n"
    "            [--size N] [--file PATH] [DB]\n"
    "writes one self-contained HTML page instead: per source and function each\n"
    "nest's idioms, class, parallel verdict, strides, cycles and crossover size\n"
    "per GPU profile; a roofline chart per device; the boat-hull view per class;\n"
    "logged decisions.  It prints FILE.\n";

static const char show_usage[] =
    "usage: keel show FILE:LINE[:COL] [--json] [DB]\n"
    "\n"
    "Print everything known about the loop whose keyword is at FILE:LINE\n"
    "(add :COL when a line holds several loops): bounds, trip count,\n"
    "pragmas, control flow, analysis results, and each statement directly\n"
    "in it with its operation counts, array accesses (R/W, subscripts,\n"
    "declared extents, element size, affinity) and scalars.\n"
    "\n"
    "  --json   print one JSON object\n"
    "\n"
    "DB defaults to $KEEL_DB, else ./keel.db.\n";

/* Print "keel: <msg>" on stderr and return code (keelcmd.h). */
int keel_say(int code, const char *fmt, ...)
{
    va_list ap;
    fputs("keel: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

/* snprintf for messages and bounded paths, where cutting is intended. */
int keel_fmtn(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return k;
}

static char *xstrdup(const char *s)
{
    return s ? strdup(s) : NULL;
}

/* ---- JSON ---------------------------------------------------------------- */

/* Write s as a JSON string, or null. */
static void json_str(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* A decoded JSON array of strings: n malloc'd strings. */
typedef struct {
    int n;
    char **v;
} strlist;

static void strlist_free(strlist *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    l->n = 0;
    l->v = NULL;
}

static void put_utf8(char **o, unsigned long c)
{
    unsigned char *q = (unsigned char *)*o;
    if (c < 0x80)
        *q++ = (unsigned char)c;
    else if (c < 0x800) {
        *q++ = (unsigned char)(0xc0 | (c >> 6));
        *q++ = (unsigned char)(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        *q++ = (unsigned char)(0xe0 | (c >> 12));
        *q++ = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
        *q++ = (unsigned char)(0x80 | (c & 0x3f));
    } else {
        *q++ = (unsigned char)(0xf0 | (c >> 18));
        *q++ = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
        *q++ = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
        *q++ = (unsigned char)(0x80 | (c & 0x3f));
    }
    *o = (char *)q;
}

static int hex4(const char *p, unsigned long *c)
{
    *c = 0;
    for (int i = 0; i < 4; i++) {
        int h = p[i];
        if (h >= '0' && h <= '9') h -= '0';
        else if (h >= 'a' && h <= 'f') h -= 'a' - 10;
        else if (h >= 'A' && h <= 'F') h -= 'A' - 10;
        else return -1;
        *c = *c * 16 + (unsigned long)h;
    }
    return 0;
}

/* Decode one JSON string at *pp (at the opening quote) into a new string. */
static char *parse_jstring(const char **pp)
{
    const char *p = *pp + 1;
    char *out = malloc(strlen(p) + 1), *o = out;   /* decoding never grows text */
    if (!out)
        return NULL;
    for (; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20)
            goto bad;
        if (*p != '\\') {
            *o++ = *p;
            continue;
        }
        unsigned long c, c2;
        switch (*++p) {
        case '"': case '\\': case '/': *o++ = *p; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u':
            if (hex4(p + 1, &c))
                goto bad;
            p += 4;
            if (c >= 0xd800 && c < 0xdc00 && p[1] == '\\' && p[2] == 'u' &&
                !hex4(p + 3, &c2) && c2 >= 0xdc00 && c2 < 0xe000) {
                c = 0x10000 + ((c - 0xd800) << 10) + (c2 - 0xdc00);
                p += 6;
            }
            if (c == 0)
                goto bad;
            put_utf8(&o, c);
            break;
        default:
            goto bad;
        }
    }
    if (*p != '"')
        goto bad;
    *o = 0;
    *pp = p + 1;
    return out;
bad:
    free(out);
    return NULL;
}

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

/* Decode text as a JSON array of strings.  0 on success; -1 (l empty)
 * when text is NULL or anything else. */
static int parse_strlist(const char *text, strlist *l)
{
    const char *p;
    l->n = 0;
    l->v = NULL;
    if (!text || *(p = skip_ws(text)) != '[')
        return -1;
    p = skip_ws(p + 1);
    if (*p == ']')
        return *skip_ws(p + 1) ? -1 : 0;
    for (;;) {
        char *s, **v;
        if (*p != '"' || !(s = parse_jstring(&p)))
            goto bad;
        if (!(v = realloc(l->v, (l->n + 1) * sizeof *v))) {
            free(s);
            goto bad;
        }
        l->v = v;
        l->v[l->n++] = s;
        p = skip_ws(p);
        if (*p == ']')
            break;
        if (*p != ',')
            goto bad;
        p = skip_ws(p + 1);
    }
    if (*skip_ws(p + 1))
        goto bad;
    return 0;
bad:
    strlist_free(l);
    return -1;
}

/* Write stored JSON text: a string array as an array, NULL as null,
 * anything else as a JSON string. */
static void json_list(FILE *f, const char *text)
{
    strlist l;
    if (parse_strlist(text, &l)) {
        json_str(f, text);
        return;
    }
    fputc('[', f);
    for (int i = 0; i < l.n; i++) {
        if (i)
            fputc(',', f);
        json_str(f, l.v[i]);
    }
    fputc(']', f);
    strlist_free(&l);
}

/* The display form of stored JSON text: array items joined by sep, "-"
 * for NULL or an empty array, the raw text when it is not a string array.
 * Returns a new string. */
static char *display_list(const char *text, const char *sep)
{
    strlist l;
    if (!text)
        return strdup("-");
    if (parse_strlist(text, &l))
        return strdup(text);
    if (l.n == 0)
        return strdup("-");
    size_t n = 1;
    for (int i = 0; i < l.n; i++)
        n += strlen(l.v[i]) + strlen(sep);
    char *s = malloc(n);
    if (s) {
        *s = 0;
        for (int i = 0; i < l.n; i++) {
            if (i)
                strcat(s, sep);
            strcat(s, l.v[i]);
        }
    }
    strlist_free(&l);
    return s;
}

/* Idioms as stored by keelcc: "matmul,reduction" (a JSON array is
 * accepted too); written as a JSON array, null when NULL. */
static void json_csv(FILE *f, const char *text)
{
    if (!text || text[0] == '[') {
        json_list(f, text);
        return;
    }
    fputc('[', f);
    for (const char *p = text; *p;) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *item = strndup(p, n);
        if (p != text)
            fputc(',', f);
        json_str(f, item ? item : "");
        free(item);
        p += n + (e != NULL);
    }
    fputc(']', f);
}

static void json_num_or_null(FILE *f, int have, long long v)
{
    if (have)
        fprintf(f, "%lld", v);
    else
        fputs("null", f);
}

/* ---- paths --------------------------------------------------------------- */

static char cwd[PATH_MAX];

/* path relative to the current directory when it lies under it, else path. */
static const char *short_path(const char *path)
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
       C_IDIOMS, C_CLASS, C_PARALLEL, C_COALESCING, C_CYCLES, NCOLS };
static const char *const col_names[NCOLS] = {
    "LOCATION", "FUNCTION", "DEPTH", "PARENT", "IV", "TRIP", "PRAGMAS",
    "IDIOMS", "CLASS", "PARALLEL", "COALESCING", "CYCLES/ITER",
};

typedef struct {
    int json;
    FILE *out;
    int nrows, cap;
    char *(*rows)[NCOLS];
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
    FILE *f = c->out;
    fputs(c->nrows++ ? ",\n  {" : "[\n  {", f);
    fprintf(f, "\"loop_id\":%lld,\"file\":", (long long)r->loop_id);
    json_str(f, r->file);
    fprintf(f, ",\"line\":%d,\"col\":%d,\"function\":", r->line, r->col);
    json_str(f, r->function);
    fprintf(f, ",\"depth\":%d,\"parent_line\":", r->depth);
    json_num_or_null(f, r->parent_line != 0, r->parent_line);
    fputs(",\"iv\":", f);
    json_str(f, r->iv);
    fputs(",\"trip\":", f);
    json_str(f, r->trip);
    fputs(",\"pragmas\":", f);
    json_list(f, r->pragmas);
    fputs(",\"idioms\":", f);
    json_csv(f, r->idioms);
    fputs(",\"algorithm_class\":", f);
    json_str(f, r->algorithm_class);
    fputs(",\"parallel\":", f);
    json_list(f, r->parallel);
    fputs(",\"coalescing\":", f);
    json_str(f, r->coalescing);
    fputs(",\"cycles_per_iter\":", f);
    if (r->has_cycles)
        fprintf(f, "%.17g", r->cycles_per_iter);
    else
        fputs("null", f);
    fputc('}', f);
    return 0;
}

/* db_each_loop callback: print a JSON row or keep a table row. */
static int loops_row(void *ctx, const db_loop_summary *r)
{
    loops_ctx *c = ctx;
    if (c->json)
        return loops_json_row(c, r);
    if (c->nrows == c->cap) {
        int cap = c->cap ? 2 * c->cap : 64;
        void *p = realloc(c->rows, cap * sizeof *c->rows);
        if (!p) {
            c->oom = 1;
            return 1;
        }
        c->rows = p;
        c->cap = cap;
    }
    char **row = c->rows[c->nrows++];
    row[C_LOC] = fmt("%s:%d", short_path(r->file), r->line);
    row[C_FUNC] = strdup(r->function ? r->function : "?");
    row[C_DEPTH] = fmt("%d", r->depth);
    row[C_PARENT] = r->parent_line ? fmt("%d", r->parent_line) : strdup("-");
    row[C_IV] = strdup(r->iv ? r->iv : "-");
    row[C_TRIP] = strdup(r->trip ? r->trip : "-");
    row[C_PRAGMAS] = display_list(r->pragmas, "; ");
    row[C_IDIOMS] = r->idioms ? (r->idioms[0] && r->idioms[0] != '[' ? strdup(r->idioms)
                                  : display_list(r->idioms, ", ")) : NULL;
    row[C_CLASS] = xstrdup(r->algorithm_class);
    row[C_PARALLEL] = r->parallel ? display_list(r->parallel, ", ") : NULL;
    row[C_COALESCING] = xstrdup(r->coalescing);
    row[C_CYCLES] = r->has_cycles ? fmt("%.2f", r->cycles_per_iter) : NULL;
    for (int i = 0; i < NCOLS; i++) {
        if (i < C_IDIOMS && !row[i])
            c->oom = 1;
        if (row[i])
            c->present[i] = 1;
    }
    return c->oom;
}

static void loops_table(loops_ctx *c)
{
    size_t width[NCOLS];
    int last = 0;
    for (int i = 0; i < NCOLS; i++) {
        c->present[i] |= i < C_IDIOMS;
        if (!c->present[i])
            continue;
        last = i;
        width[i] = strlen(col_names[i]);
        for (int r = 0; r < c->nrows; r++)
            if (c->rows[r][i] && strlen(c->rows[r][i]) > width[i])
                width[i] = strlen(c->rows[r][i]);
    }
    for (int r = -1; r < c->nrows; r++) {
        for (int i = 0; i < NCOLS; i++) {
            if (!c->present[i])
                continue;
            const char *s = r < 0 ? col_names[i] : c->rows[r][i] ? c->rows[r][i] : "-";
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
 * long locations at the start ("..." marks the cut). */
enum { COMPACT_WIDTH = 120, IDIOMS_MAX = 30 };

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
    size_t room = COMPACT_WIDTH - (w[0] + w[1] + w[2] + 6);
    if (wloc > room)
        wloc = room;
    fprintf(c->out, "%-*s  %-*s  %-*s  %s\n", (int)wloc, "LOCATION", (int)w[0], names[0],
            (int)w[1], names[1], names[2]);
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
        fprintf(c->out, "%-*s  %-*s  %-*s  %s\n", (int)wloc, loc, (int)w[0], idi, (int)w[1],
                c->rows[r][C_PARALLEL] ? c->rows[r][C_PARALLEL] : "-",
                c->rows[r][C_CYCLES] ? c->rows[r][C_CYCLES] : "-");
    }
}

static const char *default_db(void)
{
    const char *e = getenv("KEEL_DB");
    return e && *e ? e : "keel.db";
}

/* Strip a leading "./" so "./gemm.c" matches by suffix. */
static const char *clean_file(const char *f)
{
    while (f[0] == '.' && f[1] == '/')
        f += 2;
    return f;
}

static int cmd_loops(const char *dbpath, const char *file, const char *func, int json, int wide)
{
    char err[512];
    db *d;
    loops_ctx c = { .json = json, .out = stdout };
    db_loop_filter flt = { .file = file ? clean_file(file) : NULL,
                           .file_match = DB_FILE_SUFFIX, .function = func };
    char real[PATH_MAX];
    int rc = 0;

    if (db_open(dbpath, DB_READONLY, &d, err, sizeof err))
        return keel_say(EXIT_DB, "%s", err);
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
        if (json)
            fputs(c.nrows ? "\n]\n" : "[]\n", stdout);
        else if (wide)
            loops_table(&c);
        else
            loops_compact(&c);
    }
    for (int r = 0; r < (json ? 0 : c.nrows); r++)
        for (int i = 0; i < NCOLS; i++)
            free(c.rows[r][i]);
    free(c.rows);
    db_close(d);
    return rc;
}

/* ---- keel show ----------------------------------------------------------- */

/* ---- keel report --------------------------------------------------------- */

typedef struct {
    int json, n;
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
    if (c->json) {
        fputs(c->n++ ? ",\n  {\"file\":" : "[\n  {\"file\":", c->out);
        json_str(c->out, r->file);
        fprintf(c->out, ",\"line\":%d,\"function\":", r->line);
        json_str(c->out, r->function);
        fputs(",\"idiom\":", c->out);
        json_str(c->out, r->idiom);
        fputs(",\"code\":", c->out);
        json_str(c->out, r->code);
        fputs(",\"evidence\":", c->out);
        json_str(c->out, r->evidence);
        fprintf(c->out, ",\"loop_line\":%d}", r->loop_line);
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
    report_ctx c = { .json = json, .out = stdout, .wfile = 4, .wfunc = 8, .widiom = 5 };
    const char *f = file ? clean_file(file) : NULL;
    int rc = 0;
    if (!json) {            /* two passes: the columns fit their widest entry */
        c.measure = 1;
        rc = db_each_idiom(d, f, report_row, &c, err, sizeof err);
        c.measure = 0;
    }
    if (rc >= 0)
        rc = db_each_idiom(d, f, report_row, &c, err, sizeof err);
    db_close(d);
    if (rc < 0)
        return keel_say(EXIT_DB, "%s", err);
    if (json)
        fputs(c.n ? "\n]\n" : "[]\n", stdout);
    return 0;
}

static int parse_location(const char *arg, char **file, int *line, int *col)
{
    const char *p, *q;
    long v[2];
    int n = 0;
    size_t len = strlen(arg);
    *line = *col = 0;
    while (n < 2) {
        p = arg + len;
        q = p;
        while (q > arg && q[-1] >= '0' && q[-1] <= '9')
            q--;
        if (q == p || q == arg || q[-1] != ':' || p - q > 9)
            break;
        v[n++] = strtol(q, NULL, 10);
        len = (size_t)(q - 1 - arg);
    }
    if (n == 0 || len == 0 || v[n - 1] <= 0)
        return -1;
    *line = (int)v[n - 1];
    *col = n == 2 ? (int)v[0] : 0;
    if (n == 2 && *col <= 0)
        return -1;
    *file = strndup(arg, len);
    return *file ? 0 : -1;
}

typedef struct {
    int n, cap;
    int64_t *id;
    char **file;
    int *col;
} matches;

/* Do all matches share one file and column (so FILE:LINE:COL cannot tell
 * them apart)? */
static int same_position(const matches *m)
{
    for (int i = 1; i < m->n; i++)
        if (m->col[i] != m->col[0] || strcmp(m->file[i], m->file[0]) != 0)
            return 0;
    return 1;
}

static int match_row(void *ctx, const db_loop_summary *r)
{
    matches *m = ctx;
    if (m->n == m->cap) {
        int cap = m->cap ? 2 * m->cap : 8;
        int64_t *id = realloc(m->id, cap * sizeof *id);
        if (id) m->id = id;
        char **file = realloc(m->file, cap * sizeof *file);
        if (file) m->file = file;
        int *col = realloc(m->col, cap * sizeof *col);
        if (col) m->col = col;
        if (!id || !file || !col)
            return 1;
        m->cap = cap;
    }
    m->id[m->n] = r->loop_id;
    m->col[m->n] = r->col;
    if (!(m->file[m->n] = strdup(r->file ? r->file : "")))
        return 1;
    m->n++;
    return 0;
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

static void show_text(const db_loop_info *l)
{
    printf("loop        %s:%d:%d\n", short_path(l->file), l->line, l->col);
    printf("function    %s", l->function ? l->function : "?");
    if (l->function_file)
        printf(" (%s:%d)", short_path(l->function_file), l->function_line);
    printf("\nunit        %s (%s)\n", short_path(l->tu_path), l->tu_status ? l->tu_status : "?");
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
    char *s = display_list(l->pragmas, "; ");
    printf("pragmas     %s\n", s ? s : "?");
    free(s);
    printf("control     if %d, break %d, continue %d, goto %d, return %d\n",
           l->n_if, l->n_break, l->n_continue, l->n_goto, l->n_return);
    s = l->idioms ? display_list(l->idioms, ", ") : NULL;
    printf("idioms      %s\n", s ? s : "-");
    free(s);
    printf("class       %s\n", l->algorithm_class ? l->algorithm_class : "-");
    s = l->parallel ? display_list(l->parallel, ", ") : NULL;
    printf("parallel    %s\n", s ? s : "-");
    free(s);
    printf("coalescing  %s\n", l->coalescing ? l->coalescing : "-");
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
            s = display_list(st->calls, ", ");
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

static void json_key(const char *k, int first)
{
    printf("%s\"%s\":", first ? "" : ",", k);
}

static void show_json(const db_loop_info *l)
{
    FILE *f = stdout;
    printf("{\"loop_id\":%lld", (long long)l->id);
    json_key("file", 0); json_str(f, l->file);
    printf(",\"line\":%d,\"col\":%d,\"end_line\":%d", l->line, l->col, l->end_line);
    json_key("function", 0); json_str(f, l->function);
    json_key("function_file", 0); json_str(f, l->function_file);
    printf(",\"function_line\":%d", l->function_line);
    json_key("unit", 0); json_str(f, l->tu_path);
    json_key("unit_status", 0); json_str(f, l->tu_status);
    json_key("kind", 0); json_str(f, l->kind);
    printf(",\"canonical\":%s,\"depth\":%d", l->canonical ? "true" : "false", l->depth);
    json_key("parent_line", 0); json_num_or_null(f, l->parent_id != 0, l->parent_line);
    json_key("parent_col", 0); json_num_or_null(f, l->parent_id != 0, l->parent_col);
    json_key("inner", 0);
    putchar('[');
    for (int i = 0; i < l->nchildren; i++)
        printf("%s{\"line\":%d,\"col\":%d}", i ? "," : "", l->children[i].line,
               l->children[i].col);
    putchar(']');
    json_key("iv", 0); json_str(f, l->iv);
    json_key("lower", 0); json_str(f, l->lower);
    json_key("upper", 0); json_str(f, l->upper);
    json_key("step", 0); json_num_or_null(f, l->step != 0, l->step);
    json_key("trip", 0); json_str(f, l->trip);
    json_key("pragmas", 0); json_list(f, l->pragmas);
    printf(",\"n_if\":%d,\"n_break\":%d,\"n_continue\":%d,\"n_goto\":%d,\"n_return\":%d",
           l->n_if, l->n_break, l->n_continue, l->n_goto, l->n_return);
    json_key("idioms", 0); json_list(f, l->idioms);
    json_key("algorithm_class", 0); json_str(f, l->algorithm_class);
    json_key("parallel", 0); json_list(f, l->parallel);
    json_key("coalescing", 0); json_str(f, l->coalescing);
    json_key("gpu_map", 0); json_str(f, l->gpu_map);
    printf(",\"gpu_collapse\":%d", l->gpu_collapse);
    json_key("gpu_teams", 0); json_str(f, l->gpu_teams);
    json_key("gpu_threads", 0); json_str(f, l->gpu_threads);
    printf(",\"region_line\":%d", l->region_line);
    json_key("cycles_per_iter", 0);
    if (l->has_cycles)
        printf("%.17g", l->cycles_per_iter);
    else
        fputs("null", f);
    json_key("statements", 0);
    putchar('[');
    for (int i = 0; i < l->nstmts; i++) {
        const db_stmt_info *st = &l->stmts[i];
        printf("%s{\"line\":%d,\"col\":%d", i ? "," : "", st->line, st->col);
        json_key("text", 0); json_str(f, st->text);
        printf(",\"conditional\":%s", st->conditional ? "true" : "false");
        printf(",\"ops\":{\"fadd\":%d,\"fmul\":%d,\"fdiv\":%d,\"ffma\":%d,\"fmath\":%d,"
               "\"iadd\":%d,\"imul\":%d,\"idiv\":%d,\"cmp\":%d}",
               st->fadd, st->fmul, st->fdiv, st->ffma, st->fmath,
               st->iadd, st->imul, st->idiv, st->cmp);
        json_key("calls", 0); json_list(f, st->calls);
        json_key("accesses", 0);
        putchar('[');
        for (int k = 0; k < st->naccesses; k++) {
            const db_access_info *a = &st->accesses[k];
            printf("%s{\"array\":", k ? "," : "");
            json_str(f, a->array);
            printf(",\"write\":%s", a->is_write ? "true" : "false");
            json_key("subscripts", 0);
            putchar('[');
            for (int j = 0; j < a->ndims; j++) {
                if (j) putchar(',');
                json_str(f, a->index[j]);
            }
            putchar(']');
            json_key("extents", 0);
            putchar('[');
            for (int j = 0; j < a->nextents; j++) {
                if (j) putchar(',');
                json_str(f, a->extent[j]);
            }
            putchar(']');
            printf(",\"elem_size\":%d,\"affine\":%s,\"line\":%d,\"col\":%d}",
                   a->elem_size, a->affine ? "true" : "false", a->line, a->col);
        }
        putchar(']');
        json_key("scalars", 0);
        putchar('[');
        for (int k = 0; k < st->nscalars; k++) {
            printf("%s{\"name\":", k ? "," : "");
            json_str(f, st->scalars[k].name);
            printf(",\"write\":%s,\"line\":%d,\"col\":%d}",
                   st->scalars[k].is_write ? "true" : "false",
                   st->scalars[k].line, st->scalars[k].col);
        }
        printf("]}");
    }
    printf("]}\n");
}

static int cmd_show(const char *dbpath, const char *loc, int json)
{
    char err[512], real[PATH_MAX];
    char *file;
    int line, col, rc = 0;
    db *d;
    matches m = { 0 };
    db_loop_info *l = NULL;

    if (parse_location(loc, &file, &line, &col))
        return keel_say(EXIT_USAGE, "bad location '%s' (want FILE:LINE or FILE:LINE:COL)", loc);
    if (db_open(dbpath, DB_READONLY, &d, err, sizeof err)) {
        free(file);
        return keel_say(EXIT_DB, "%s", err);
    }
    db_loop_filter flt = { .file = clean_file(file), .file_match = DB_FILE_SUFFIX,
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
    else if (strcmp(m.file[0], m.file[m.n - 1]) != 0)
        rc = keel_say(EXIT_USAGE, "%s is ambiguous: %s and %s match (give more of the path)",
                 loc, m.file[0], m.file[m.n - 1]);
    else if (m.n > 1 && !same_position(&m)) {
        char cols[128] = "";
        for (int i = 0; i < m.n && strlen(cols) < 100; i++)
            snprintf(cols + strlen(cols), sizeof cols - strlen(cols), "%s%d",
                     i ? ", " : "", m.col[i]);
        rc = keel_say(EXIT_USAGE, "%d loops at %s (columns %s): say FILE:LINE:COL", m.n, loc, cols);
    } else {
        /* Several loops at one FILE:LINE:COL (a header's loop compiled into
         * two units, a macro that expands to nested loops): show them all. */
        for (int i = 0; i < m.n && rc == 0; i++) {
            if ((r = db_get_loop(d, m.id[i], &l, err, sizeof err)) != 0) {
                rc = r < 0 ? keel_say(EXIT_DB, "%s", err) : keel_say(EXIT_DB, "no loop at %s in %s", loc, dbpath);
                break;
            }
            if (json) {
                show_json(l);
            } else {
                if (m.n > 1)
                    printf("%s== loop %d of %d at %s\n", i ? "\n" : "", i + 1, m.n, loc);
                show_text(l);
                show_ipda(d, l);
                show_mca(d, l->id);
            }
            db_free_loop(l);
            l = NULL;
        }
    }
    db_free_loop(l);
    for (int i = 0; i < m.n; i++)
        free(m.file[i]);
    free(m.file);
    free(m.id);
    free(m.col);
    free(file);
    db_close(d);
    return rc;
}

/* ---- main ---------------------------------------------------------------- */

static int help(const char *cmd)
{
    if (!cmd)
        fputs(usage_text, stdout);
    else if (strcmp(cmd, "loops") == 0)
        fputs(loops_usage, stdout);
    else if (strcmp(cmd, "show") == 0)
        fputs(show_usage, stdout);
    else if (strcmp(cmd, "report") == 0)
        fputs(report_usage, stdout);
    else if (strcmp(cmd, "scan") == 0 || strcmp(cmd, "merge") == 0)
        fputs(KEEL_CMD_USAGE, stdout);
    else if (strcmp(cmd, "help") == 0)
        fputs(usage_text, stdout);
    else
        return keel_say(EXIT_USAGE, "unknown command '%s' (see keel --help)", cmd);
    return 0;
}

int main(int argc, char **argv)
{
    const char *cmd, *file = NULL, *func = NULL, *pos[3];
    int json = 0, npos = 0, only_pos = 0, wide = 0;

    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = 0;
    if (argc < 2)
        return keel_say(EXIT_USAGE, "no command (see keel --help)");
    cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0)
        return help(NULL);
    if (strcmp(cmd, "--version") == 0) {
        printf("keel %s\n", KEEL_VERSION);
        return 0;
    }
    if (strcmp(cmd, "help") == 0) {
        if (argc > 3)
            return keel_say(EXIT_USAGE, "help takes at most one command");
        return help(argc == 3 ? argv[2] : NULL);
    }
    if (strcmp(cmd, "scan") == 0)            /* scan.c, merge.c, html.c */
        return keel_cmd_scan(argc - 2, argv + 2, default_db());
    if (strcmp(cmd, "merge") == 0)
        return keel_cmd_merge(argc - 2, argv + 2);
    if (strcmp(cmd, "report") == 0)
        for (int i = 2; i < argc; i++)
            if (strcmp(argv[i], "--html") == 0 || strncmp(argv[i], "--html=", 7) == 0)
                return keel_cmd_html(argc - 2, argv + 2, default_db());

    if (strcmp(cmd, "devices") == 0)
        return rt_cmd_devices(argc - 2, argv + 2);
    if (strcmp(cmd, "calibrate") == 0)
        return rt_cmd_calibrate(argc - 2, argv + 2, default_db());
    if (strcmp(cmd, "explain") == 0)
        return rt_cmd_explain(argc - 2, argv + 2, default_db());
    if (strcmp(cmd, "history") == 0)
        return rt_cmd_history(argc - 2, argv + 2, default_db());
    if (strcmp(cmd, "loops") != 0 && strcmp(cmd, "show") != 0 && strcmp(cmd, "report") != 0)
        return keel_say(EXIT_USAGE, cmd[0] == '-' ? "unknown option '%s' (see keel --help)"
                                             : "unknown command '%s' (see keel --help)", cmd);
    int is_loops = strcmp(cmd, "loops") == 0 || strcmp(cmd, "report") == 0;

    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (only_pos || a[0] != '-' || a[1] == 0) {
            if (npos == 3)
                return keel_say(EXIT_USAGE, "too many arguments for %s (see keel %s --help)", cmd, cmd);
            pos[npos++] = a;
        } else if (strcmp(a, "--") == 0)
            only_pos = 1;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return help(cmd);
        else if (strcmp(a, "--json") == 0)
            json = 1;
        else if (strcmp(cmd, "loops") == 0 && strcmp(a, "--wide") == 0)
            wide = 1;
        else if (is_loops && (strcmp(a, "--file") == 0 || strcmp(a, "--function") == 0)) {
            if (i + 1 == argc)
                return keel_say(EXIT_USAGE, "%s needs a value", a);
            *(a[2] == 'f' && a[3] == 'i' ? &file : &func) = argv[++i];
        } else if (is_loops && strncmp(a, "--file=", 7) == 0)
            file = a + 7;
        else if (is_loops && strncmp(a, "--function=", 11) == 0)
            func = a + 11;
        else
            return keel_say(EXIT_USAGE, "unknown option '%s' for %s (see keel %s --help)", a, cmd, cmd);
    }
    if (strcmp(cmd, "report") == 0) {
        if (npos > 1 || func)
            return keel_say(EXIT_USAGE, "report takes [--file PATH] [--json] [DB] (see keel report --help)");
        return cmd_report(npos ? pos[0] : default_db(), file, json);
    }
    if (is_loops) {
        if (npos > 1)
            return keel_say(EXIT_USAGE, "too many arguments for loops (see keel loops --help)");
        return cmd_loops(npos ? pos[0] : default_db(), file, func, json, wide);
    }
    if (npos == 0)
        return keel_say(EXIT_USAGE, "show needs FILE:LINE (see keel show --help)");
    if (npos > 2)
        return keel_say(EXIT_USAGE, "too many arguments for show (see keel show --help)");
    return cmd_show(npos == 2 ? pos[1] : default_db(), pos[0], json);
}
