/*
 * keel.h -- what the files of the `keel` tool (cli/) share.
 *
 *   keel.c    main, the command table and help; loops, show, report
 *   rtcmd.c   devices, calibrate, explain, history (libkeelrt's side)
 *   scan.c    scan -p BUILD_DIR: a compile database analysed by keelcc
 *   merge.c   merge OUT.db IN.db...
 *   report.c  report: the nests ranked by what porting them saves
 *   rank.c    that ranking and its reasons, for report and report --html
 *   html.c    report --html FILE (html_chart.c: its charts; html.h)
 *   common.c  the one message printer, option parser, number parser and
 *             FILE:LINE[:COL] parser every command uses
 *   json.c    every --json document, through db/'s one JSON helper
 *             (db_json.h: SQLite's JSON functions in an in-memory
 *             database; not-UTF-8 bytes written as U+FFFD)
 *
 * Every command takes the arguments from its own name on (argv[0] is the
 * command name, as getopt wants it) and returns the exit status: 0
 * success, 1 database or run-time error, 2 usage error.  Every failure is
 * one line "keel: ..." on stderr (keel_say).
 */
#ifndef KEEL_CLI_KEEL_H
#define KEEL_CLI_KEEL_H

#include <getopt.h>
#include <stdio.h>
#include <stddef.h>

#include "util.h"

enum { KEEL_EXIT_DB = 1, KEEL_EXIT_USAGE = 2 };

/* ---- messages (common.c) ------------------------------------------------ */

/* "keel: <message>" and a newline on stderr; returns code. */
int keel_say(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* snprintf for messages and bounded paths, where cutting is intended. */
/* s with its control bytes escaped (\n, \t, \xHH) for text output; s
 * itself when it has none.  Static storage, four at a time. */
const char *keel_printable(const char *s);
int keel_fmtn(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* path relative to the current directory when it lies under it, else
 * path, with its control bytes escaped (keel_printable). */
const char *keel_short_path(const char *path);
/* $KEEL_DB when set and not empty, else "keel.db". */
const char *keel_default_db(void);

/* ---- options (common.c) ------------------------------------------------- */

/* One command's options for getopt_long.  shorts is getopt's short-option
 * string ("" for none; 'h' is added for help), longs a table ending with
 * {0} (--help is added).  Options and arguments may be mixed; "--" ends
 * the options. */
typedef struct {
    const char *cmd;                /* "loops", "report --html", ... */
    const char *help_cmd;           /* the command `keel help` knows it by */
    const char *shorts;
    const struct option *longs;
    int argc;
    char **argv;                    /* argv[0]: the command name */
    const char *arg;                /* the value of the option just returned */
    int started;
} keel_opts;

enum { KEEL_OPT_END = -1,           /* no more options: positionals follow */
       KEEL_OPT_HELP = -2,          /* --help/-h: the command's help was printed */
       KEEL_OPT_BAD = -3 };         /* usage error: the message was printed */

/* The next option's val (from longs or a short letter), or one of
 * KEEL_OPT_*.  After KEEL_OPT_END the positional arguments are
 * keel_opt_rest(). */
int keel_opt_next(keel_opts *o);
/* The positional arguments: *n of them. */
char **keel_opt_rest(keel_opts *o, int *n);

/* A command's options as a table, one row an option and where its value
 * goes, so that no command writes its own getopt loop. */
enum {
    KEEL_FLAG = 1,      /* no value: *(int *)dest = 1 */
    KEEL_CLEAR,         /* no value: *(int *)dest = 0 (--no-X) */
    KEEL_TEXT,          /* *(const char **)dest = the value */
    KEEL_INT,           /* *(int *)dest = the value, a whole number in [lo, hi] */
    KEEL_CALL,          /* call(dest, value): 0, or the exit status after its message */
    KEEL_ACT,           /* no value: call(dest, NULL), as KEEL_CALL */
};
typedef struct {
    const char *name;   /* long name, NULL for a short option only */
    char letter;        /* short letter, 0 for none */
    int kind;
    void *dest;
    int lo, hi;         /* KEEL_INT */
    int (*call)(void *dest, const char *value);     /* KEEL_CALL */
} keel_opt;

/* Table rows by kind (a short letter: .letter in a designated initializer). */
#define KEEL_OPT_FLAG(n, p) { .name = (n), .kind = KEEL_FLAG, .dest = (p) }
#define KEEL_OPT_CLEAR(n, p) { .name = (n), .kind = KEEL_CLEAR, .dest = (p) }
#define KEEL_OPT_TEXT(n, p) { .name = (n), .kind = KEEL_TEXT, .dest = (p) }
#define KEEL_OPT_INT(n, p, l, h) { .name = (n), .kind = KEEL_INT, .dest = (p), .lo = (l), .hi = (h) }
#define KEEL_OPT_CALL(n, p, f) { .name = (n), .kind = KEEL_CALL, .dest = (p), .call = (f) }
#define KEEL_OPT_ACT(n, p, f) { .name = (n), .kind = KEEL_ACT, .dest = (p), .call = (f) }
#define KEEL_OPT_LAST { .name = NULL }

/* Parse argv (argv[0]: the command) with opts (ending with a row whose name
 * and letter are both 0) the way keel_opt_next does.  maxpos >= 0: more
 * positional arguments are "too many arguments for CMD (see keel HELP
 * --help)".  Returns -1 when the command goes on (its positional arguments
 * in *pos, *npos), else its exit status: 0 after --help, 2 after a usage
 * message, or what a KEEL_CALL returned. */
int keel_getopts(const char *cmd, const char *help_cmd, const keel_opt *opts, int argc,
                 char **argv, int maxpos, char ***pos, int *npos);

/* The one number parser: s is a whole decimal integer (an optional '-',
 * digits, nothing else: no spaces, no '+', no hex) in [lo, hi].  0 with
 * *out, -1 when it is not one. */
int keel_parse_ll(const char *s, long long lo, long long hi, long long *out);
/* keel_parse_ll into an int; the usage message "bad OPT 'S' (want LO to
 * HI)" on failure (returns KEEL_EXIT_USAGE, else 0). */
int keel_opt_int(const char *opt, const char *s, int lo, int hi, int *out);

/* The one FILE:LINE[:COL] parser.  LINE and COL are positive decimal
 * numbers (at most 9 digits); FILE is not empty; a leading "./" is
 * dropped.  0 with *file (malloc'd), *line, *col (0 when absent); -1 when
 * s is not one, after printing "bad location 'S' (want FILE:LINE or
 * FILE:LINE:COL)". */
int keel_parse_site(const char *s, char **file, int *line, int *col);
/* The same parser; say 0: no message (the caller says where). */
int keel_site(const char *s, char **file, int *line, int *col, int say);
/* "SYM=INT,SYM=INT" appended to the arrays (keel_parse_ll for each value);
 * 0, or -1 (nothing printed). */
int keel_parse_set(const char *s, char ***names, long long **values, int *n);

/* ---- JSON (json.c) ------------------------------------------------------ */

/* A JSON document under construction.  Members are added to the innermost
 * open object (with a key) or array (key ignored, pass NULL); the first
 * failure sticks and keel_json_print reports it. */
typedef struct db_json keel_json;     /* db/db_json.h's writer */

keel_json *keel_json_new(void);                      /* NULL: out of memory */
void keel_json_free(keel_json *j);
void keel_json_object(keel_json *j, const char *key);  /* open an object */
void keel_json_array(keel_json *j, const char *key);   /* open an array */
void keel_json_end(keel_json *j);                      /* close the innermost */
void keel_json_str(keel_json *j, const char *key, const char *s);     /* NULL: null */
void keel_json_int(keel_json *j, const char *key, long long v);
void keel_json_num(keel_json *j, const char *key, double v);         /* NaN, inf: null */
void keel_json_bool(keel_json *j, const char *key, int v);
void keel_json_null(keel_json *j, const char *key);
/* Stored JSON text of a list (pragmas, calls, parallel): its array as an
 * array; NULL as null; any other text as a one-item array of that text. */
void keel_json_list(keel_json *j, const char *key, const char *text);
/* A comma-separated list ("matmul,reduction", as keelcc stores idioms;
 * a JSON array is accepted too) as an array of strings; NULL as null. */
void keel_json_csv(keel_json *j, const char *key, const char *text);
/* Print the finished document and a newline on out.  0, or the exit status
 * after a "keel: ..." message (the document is not printed). */
int keel_json_print(keel_json *j, FILE *out);

/* A stored JSON list's items joined by sep (json_each), "-" for NULL or
 * an empty list, the text itself when it is not a JSON array.  A new
 * string, NULL when out of memory. */
char *keel_list_text(const char *text, const char *sep);

/* ---- commands ----------------------------------------------------------- */

int keel_cmd_scan(int argc, char **argv);
int keel_cmd_merge(int argc, char **argv);
int keel_cmd_html(int argc, char **argv);       /* report --html (argv: report's) */
int keel_cmd_rank(const char *dbpath, const char *file, int json, int top, long long size,
                  const char *devlist, const char *hostname, int threads);                            /* report (report.c) */
int keel_cmd_devices(int argc, char **argv);
int keel_cmd_calibrate(int argc, char **argv);
int keel_cmd_explain(int argc, char **argv);
int keel_cmd_history(int argc, char **argv);
int keel_cmd_stats(int argc, char **argv);

/* Print command cmd's help on stdout (keel.c); 0, or 2 for no such command. */
int keel_help(const char *cmd);

#endif
