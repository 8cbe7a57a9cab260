/*
 * scan.c -- `keel scan -p BUILD_DIR [DB]`: analyse a whole project from its
 * compile database, the way clang-tidy -p does.
 *
 * BUILD_DIR/compile_commands.json (CMake's CMAKE_EXPORT_COMPILE_COMMANDS,
 * Meson, Bear) is an array of {directory, file, command | arguments,
 * output?}.  It is read by db/'s one JSON helper (db_json_compdb_each:
 * SQLite's JSON functions in an in-memory connection); a `command` string
 * is split into words as a POSIX shell would (quotes, backslashes),
 * `arguments` is taken as it is; each --extra-arg=ARG (repeatable, as
 * clang-tidy's) is appended to every entry's arguments.  Every entry
 * whose file is C (a .c suffix, or -x c) is analysed by running keelcc --keel-analysis=only in the entry's directory
 * with the entry's own arguments: keelcc parses and analyses the source
 * with the same flags it uses when it compiles, writes the database, and
 * runs no compile (its llvm-mca stage compiles to assembly in a temporary
 * folder unless --no-mca).  Compiler wrappers at the front of a command
 * (ccache, distcc, sccache, icecc) are dropped; the compiler keelcc uses
 * for the assembly is $KEEL_CC, else clang-19.
 *
 * Up to -j N keelcc processes run at once; they write one database
 * concurrently (WAL, one transaction per file, as under make -j).  On a
 * terminal a progress line is redrawn on stderr; otherwise scan prints only
 * its summary.  A file is skipped when its content hash and its compile
 * (directory, arguments, llvm-mca on/off) are those of the last scan and
 * its rows are still in the database: table scan_state (db/db_scan.c,
 * db/SCHEMA.md).  The summary gives the files, loops and nests, and each
 * failure with its one-line reason (the database's translation_units
 * message, or keelcc's last stderr line).  Exit status 0 when every file
 * was analysed, 1 when one failed or the database is unusable, 2 usage.
 */
#define _XOPEN_SOURCE 700   /* realpath, strdup */
#define _DEFAULT_SOURCE

#include "keel.h"

#include "db.h"
#include "db_json.h"
#include "db_scan.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* ---- one compile-database entry ---------------------------------------- */

typedef struct {
    char *directory;    /* absolute */
    char *file;         /* as written */
    char *abs;          /* absolute, resolved */
    int argc;
    char **argv;        /* compiler arguments without the compiler (and wrappers) */
    char key[40];       /* resume key: content hash + compile hash */
    /* result */
    int state;          /* 0 pending, 1 running, 2 done */
    int skipped, failed;
    char *reason;
    pid_t pid;
    char log[KU_TMP_PATH];  /* keelcc's stdout and stderr, under $TMPDIR */
} entry;

typedef struct {
    char *file;         /* absolute, resolved */
    char *why;          /* e.g. "C++ source (.cpp): keel analyses C" */
} not_c_entry;

typedef struct {
    int n;
    entry *e;           /* grown by ku_push */
    int not_c, dups;
    not_c_entry *skipped;   /* the not_c entries, grown by ku_push */
} entries;

static void entry_free(entry *e)
{
    free(e->directory);
    free(e->file);
    free(e->abs);
    for (int i = 0; i < e->argc; i++)
        free(e->argv[i]);
    free(e->argv);
    free(e->reason);
}

static int push_arg(entry *e, const char *s, size_t n)
{
    char *w = strndup(s, n);
    if (!w || ku_push_ptr(&e->argv, &e->argc, w)) {
        free(w);
        return -1;
    }
    return 0;
}

/* Split a command line into words: blanks separate, '...' is literal,
 * "..." keeps blanks and takes \" \\ \$ \` escapes, \x outside quotes is x.
 * 0, or -1 on an unterminated quote / out of memory. */
static int split_command(const char *s, entry *e)
{
    size_t cap = strlen(s) + 1, n;
    char *w = malloc(cap);
    if (!w)
        return -1;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        if (!*s)
            break;
        n = 0;
        while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
            if (*s == '\'') {
                const char *q = strchr(s + 1, '\'');
                if (!q)
                    goto bad;
                memcpy(w + n, s + 1, (size_t)(q - s - 1));
                n += (size_t)(q - s - 1);
                s = q + 1;
            } else if (*s == '"') {
                for (s++; *s && *s != '"'; s++) {
                    if (*s == '\\' && s[1] && strchr("\"\\$`", s[1]))
                        s++;
                    w[n++] = *s;
                }
                if (*s != '"')
                    goto bad;
                s++;
            } else if (*s == '\\' && s[1]) {
                w[n++] = s[1];
                s += 2;
            } else
                w[n++] = *s++;
        }
        if (push_arg(e, w, n))
            goto bad;
    }
    free(w);
    return 0;
bad:
    free(w);
    return -1;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Drop the compiler and any wrapper in front of it: "ccache cc -c x.c"
 * and "/usr/bin/cc -c x.c" both leave "-c x.c". */
static void drop_compiler(entry *e)
{
    static const char *const wrappers[] = { "ccache", "distcc", "sccache", "icecc", NULL };
    int k = 0;
    while (k < e->argc) {
        const char *b = base_name(e->argv[k]);
        int wrap = 0;
        for (int i = 0; wrappers[i]; i++)
            wrap |= strcmp(b, wrappers[i]) == 0;
        k++;
        if (!wrap || k == e->argc || e->argv[k][0] == '-')
            break;
    }
    for (int i = 0; i < k; i++)
        free(e->argv[i]);
    memmove(e->argv, e->argv + k, sizeof *e->argv * (size_t)(e->argc - k + 1));
    e->argc -= k;
}

/* Is the entry's file compiled as C: the last -x says c, or without one
 * its name ends in .c?  When not, why[] says why it is skipped. */
static int is_c(const entry *e, char *why, size_t wl)
{
    static const struct { const char *suffix, *lang; } langs[] = {
        { ".cpp", "C++" }, { ".cc", "C++" }, { ".cxx", "C++" }, { ".c++", "C++" },
        { ".C", "C++" }, { ".cp", "C++" }, { ".cu", "CUDA" }, { ".cuh", "CUDA" },
        { ".f", "Fortran" }, { ".F", "Fortran" }, { ".f90", "Fortran" }, { ".F90", "Fortran" },
        { ".f77", "Fortran" }, { ".f95", "Fortran" }, { ".for", "Fortran" },
        { ".m", "Objective-C" }, { ".mm", "Objective-C++" }, { ".s", "assembly" },
        { ".S", "assembly" }, { ".asm", "assembly" }, { ".cl", "OpenCL" },
        { ".ll", "LLVM IR" }, { ".rs", "Rust" },
    };
    const char *lang = NULL;
    for (int i = 0; i < e->argc; i++) {
        const char *a = e->argv[i];
        if (strcmp(a, "-x") == 0 && i + 1 < e->argc)
            lang = e->argv[i + 1];
        else if (strncmp(a, "-x", 2) == 0 && a[2])
            lang = a + 2;
    }
    if (lang) {
        keel_fmtn(why, wl, "compiled as %s (-x %s): keel analyses C", lang, lang);
        return strcmp(lang, "c") == 0;
    }
    size_t n = strlen(e->file);
    if (n > 2 && strcmp(e->file + n - 2, ".c") == 0)
        return 1;
    const char *dot = strrchr(e->file, '.'), *slash = strrchr(e->file, '/');
    if (dot && (!slash || dot > slash))
        for (size_t k = 0; k < sizeof langs / sizeof *langs; k++)
            if (strcmp(dot, langs[k].suffix) == 0) {
                keel_fmtn(why, wl, "%s source (%s): keel analyses C", langs[k].lang, dot);
                return 0;
            }
    keel_fmtn(why, wl, "not a .c file and no -x c: keel analyses C");
    return 0;
}

/* FNV-1a, 64 bits, continued from h (util.h). */
#define fnv ku_fnv1a64_update

/* key = hash of the file's bytes ':' hash of the compile; "" when the
 * file cannot be read. */
static void make_key(entry *e, int mca)
{
    FILE *f = fopen(e->abs, "rb");
    uint64_t h = KU_FNV_KEEL_START, c = h;
    char buf[65536];
    size_t n;
    e->key[0] = 0;
    if (!f)
        return;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = fnv(h, buf, n);
    fclose(f);
    c = fnv(c, e->directory, strlen(e->directory) + 1);
    for (int i = 0; i < e->argc; i++)
        c = fnv(c, e->argv[i], strlen(e->argv[i]) + 1);
    c = fnv(c, mca ? "mca" : "-", 3);
    const char *cc = getenv("KEEL_CC");
    if (cc)
        c = fnv(c, cc, strlen(cc));
    keel_fmtn(e->key, sizeof e->key, "%016llx:%016llx", (unsigned long long)h,
             (unsigned long long)c);
}

/* read_compdb's walk over the entries (db_json_compdb_each). */
typedef struct {
    entries *out;
    const char *path;
    char *err;
    size_t errlen;
} compdb_walk;

/* One compile-database entry into w->out: 0, or -1 after the message. */
static int compdb_entry(void *ctx, const db_json_compdb_entry *je)
{
    compdb_walk *w = ctx;
    entries *out = w->out;
    const char *dir = je->directory, *file = je->file, *cmd = je->command;
    if (!dir || !file || (!cmd && !je->has_args)) {
        keel_fmtn(w->err, w->errlen, "%s: entry %d: needs directory, file and command or arguments",
                 w->path, je->index);
        return -1;
    }
    entry e = { 0 };
    char real[PATH_MAX], joined[2 * PATH_MAX + 2];
    e.directory = strdup(dir);
    e.file = strdup(file);
    if (!e.directory || !e.file)
        goto oom;
    if (je->has_args) {
        for (int k = 0; k < je->nargs; k++) {
            const char *a = je->args[k];
            if (push_arg(&e, a ? a : "", a ? strlen(a) : 0))
                goto oom;
        }
    } else if (split_command(cmd, &e)) {
        entry_free(&e);
        keel_fmtn(w->err, w->errlen, "%s: entry %d: unterminated quote in command", w->path,
                  je->index);
        return -1;
    }
    drop_compiler(&e);
    if (file[0] == '/')
        keel_fmtn(joined, sizeof joined, "%s", file);
    else
        keel_fmtn(joined, sizeof joined, "%s/%s", dir, file);
    e.abs = strdup(realpath(joined, real) ? real : joined);
    if (!e.abs)
        goto oom;
    char why[160];
    if (!is_c(&e, why, sizeof why)) {
        not_c_entry *nc = ku_push(&out->skipped, &out->not_c, sizeof *out->skipped);
        if (nc && (nc->file = strdup(e.abs)) && (nc->why = strdup(why))) {
            entry_free(&e);
            return 0;
        }
        if (nc) {
            free(nc->file);
            out->not_c--;
        }
        goto oom;
    }
    for (int i = 0; i < out->n; i++)
        if (strcmp(out->e[i].abs, e.abs) == 0) {
            /* keelcc keys rows by source path: the first compile wins */
            out->dups++;
            entry_free(&e);
            return 0;
        }
    entry *slot = ku_push(&out->e, &out->n, sizeof *out->e);
    if (!slot)
        goto oom;
    *slot = e;
    return 0;
oom:
    entry_free(&e);
    keel_fmtn(w->err, w->errlen, "out of memory");
    return -1;
}

/* Read BUILD_DIR/compile_commands.json (or a .json path) into *out. */
static int read_compdb(const char *where, entries *out, char *err, size_t errlen)
{
    char path[PATH_MAX];
    struct stat st;
    size_t wl = strlen(where);
    if (wl > 5 && strcmp(where + wl - 5, ".json") == 0)
        keel_fmtn(path, sizeof path, "%s", where);
    else
        keel_fmtn(path, sizeof path, "%s/compile_commands.json", where);
    FILE *f = fopen(path, "rb");
    if (!f || fstat(fileno(f), &st) != 0) {
        keel_fmtn(err, errlen, "%s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return -1;
    }
    char *text = malloc((size_t)st.st_size + 1);
    size_t got = text ? fread(text, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    if (!text) {
        keel_fmtn(err, errlen, "out of memory");
        return -1;
    }
    text[got] = 0;

    compdb_walk w = { out, path, err, errlen };
    int rc = db_json_compdb_each(text, path, compdb_entry, &w, err, errlen);
    free(text);
    return rc ? -1 : 0;
}

/* ---- running keelcc ----------------------------------------------------- */

static void keelcc_path(char *out, size_t n)
{
    if (ku_beside_self("keelcc", X_OK, out, n) != 0)
        keel_fmtn(out, n, "keelcc");
}

/* Start keelcc on entry e in its directory, stdin from /dev/null, stdout
 * and stderr to a new file e->log; its pid, or -1 with e->reason. */
static pid_t start(const char *keelcc, const char *dbopt, int mca, entry *e)
{
    char **argv = calloc((size_t)e->argc + 6, sizeof *argv);
    int fd = argv ? ku_mkstemp(e->log, sizeof e->log, NULL, "keel-scan-", ".log") : -1;
    if (fd < 0) {
        free(argv);
        e->reason = strdup(argv ? "cannot create a log file for keelcc" : "out of memory");
        return -1;
    }
    close(fd);
    int n = 0;
    argv[n++] = (char *)keelcc;
    argv[n++] = "--keel-analysis=only";
    argv[n++] = (char *)dbopt;
    if (!mca)
        argv[n++] = "--keel-mca=off";
    for (int i = 0; i < e->argc; i++)
        argv[n++] = e->argv[i];
    argv[n] = NULL;
    ku_io io = { .in = "/dev/null", .out = e->log, .err_to_out = 1, .err_fd = -1,
                 .dir = e->directory };
    pid_t pid;
    int rc = ku_spawn(argv, &io, &pid);
    free(argv);
    if (rc) {
        char b[PATH_MAX + 128];
        keel_fmtn(b, sizeof b, "cannot run %s in %s: %s", keelcc, e->directory, strerror(rc));
        e->reason = strdup(b);
        unlink(e->log);
        e->log[0] = 0;
        return -1;
    }
    return pid;
}

/* The last non-empty line of a file, as a new string ("" when none). */
static char *last_line(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024], last[1024] = "";
    if (f) {
        while (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = 0;
            if (line[0])
                keel_fmtn(last, sizeof last, "%s", line);
        }
        fclose(f);
    }
    return strdup(last);
}

/* ---- the resume table (db/db_scan.c) ------------------------------------ */

static void save_state(db *d, const entry *e, const char *status, const char *message)
{
    char now[32];
    time_t t = time(NULL);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
    db_scan_save(d, e->abs, e->key, status, message, now);
}

/* Loops and nests the database holds for the scanned files. */
static void count_loops(db *d, const entries *es, long *loops, long *nests)
{
    *loops = *nests = 0;
    for (int i = 0; i < es->n; i++)
        db_scan_count_loops(d, es->e[i].abs, loops, nests);
}

/* The path for messages: relative to the cwd when under it. */
static const char *rel(const char *p)
{
    static char cwd[PATH_MAX];
    if (!cwd[0] && !getcwd(cwd, sizeof cwd))
        return p;
    size_t n = strlen(cwd);
    if (n > 1 && strncmp(p, cwd, n) == 0 && p[n] == '/')
        return p + n + 1;
    return p;
}

static void progress(int tty, int done, int total, const char *what)
{
    if (!tty)
        return;
    int width = 100;
    fprintf(stderr, "\r\033[K[%d/%d] %.*s", done, total, width, what ? rel(what) : "");
    fflush(stderr);
}

/* -p DIR, -pDIR and -p=DIR */
/* --extra-arg=ARG (repeatable, as clang-tidy's): appended to every
 * entry's arguments, in the order given. */
typedef struct {
    int n;
    const char **arg;
} extra_args;

static int add_extra(void *dest, const char *arg)
{
    extra_args *x = dest;
    const char *v = arg[0] == '=' ? arg + 1 : arg;
    if (ku_push_ptr(&x->arg, &x->n, v))
        return keel_say(1, "out of memory");
    return 0;
}

static int set_build(void *dest, const char *arg)
{
    *(const char **)dest = arg[0] == '=' ? arg + 1 : arg;
    return 0;
}

/* Key every entry; mark those scanned before with the same key (unless
 * force) as done.  The number left to analyse; *skipped the others. */
static int mark_stored(db *d, entries *es, int mca, int force, int *skipped)
{
    int todo = 0;
    for (int i = 0; i < es->n; i++) {
        entry *e = &es->e[i];
        char *st = NULL, *msg = NULL;
        make_key(e, mca);
        if (!e->key[0]) {
            e->state = 2;
            e->failed = 1;
            e->reason = strdup("cannot read the source");
        } else if (!force && db_scan_stored(d, e->abs, e->key, &st, &msg)) {
            e->state = 2;
            e->skipped = 1;
            (*skipped)++;
            if (strcmp(st, "ok") != 0) {
                e->failed = 1;
                e->reason = msg;
                msg = NULL;
            }
        } else
            todo++;
        free(st);
        free(msg);
    }
    return todo;
}

/* keelcc ended for e with status (as ku_wait gives it): its outcome, from
 * the status or the translation unit keelcc stored, into e and scan_state. */
static void finish_entry(db *d, entry *e, int status)
{
    e->state = 2;
    char *st = NULL, *msg = NULL;
    if (status > 128 || status < 0) {
        char b[96], t[80];
        ku_status_text(status, t, sizeof t);
        keel_fmtn(b, sizeof b, "keelcc %s", t);
        e->failed = 1;
        e->reason = strdup(b);
    } else if (status != 0 || !db_scan_tu_status(d, e->abs, &st, &msg)) {
        e->failed = 1;
        e->reason = last_line(e->log);
        if (e->reason && !e->reason[0]) {
            free(e->reason);
            e->reason = strdup("keelcc recorded nothing");
        }
    } else {
        if (strcmp(st, "ok") != 0) {
            e->failed = 1;
            e->reason = msg ? strdup(msg) : strdup("analysis failed");
        }
        save_state(d, e, st, msg);
    }
    free(st);
    free(msg);
    if (e->log[0])
        unlink(e->log);
}

/* Run keelcc over the todo entries not done yet, jobs at a time. */
static void run_all(db *d, entries *es, const char *keelcc, const char *dbopt, int mca,
                    int jobs, int todo)
{
    /* the compiler keelcc uses for the assembly, unless the user chose one */
    const char *cc = getenv("KEEL_CC");
    if (!cc || !*cc)
        setenv("KEEL_CC", "clang-19", 1);
    int tty = isatty(2), running = 0, finished = 0, next = 0;
    while (finished < todo) {
        while (running < jobs && next < es->n) {
            entry *e = &es->e[next++];
            if (e->state != 0)
                continue;
            e->pid = start(keelcc, dbopt, mca, e);
            if (e->pid < 0) {
                e->state = 2;
                e->failed = 1;
                finished++;
                continue;
            }
            e->state = 1;
            running++;
            progress(tty, finished, todo, e->abs);
        }
        if (running == 0)
            break;
        pid_t pid;
        int status = ku_wait_any(&pid);
        if (pid < 0)
            break;
        entry *e = NULL;
        for (int i = 0; i < es->n && !e; i++)
            if (es->e[i].state == 1 && es->e[i].pid == pid)
                e = &es->e[i];
        if (!e)
            continue;
        running--;
        finished++;
        finish_entry(d, e, status);
        progress(tty, finished, todo, e->abs);
    }
    if (tty)
        fputs("\r\033[K", stderr);
}

/* What a scan found, as counted at its end. */
typedef struct {
    int analysed, skipped, failed;
    long loops, nests;
} scan_totals;

/* The --json summary.  0, or keel_json_print's status. */
static int print_json(const entries *es, const scan_totals *t, const char *dbpath)
{
    keel_json *j = keel_json_new();
    if (j) {
        keel_json_object(j, NULL);
        keel_json_int(j, "files", es->n);
        keel_json_int(j, "analysed", t->analysed);
        keel_json_int(j, "skipped", t->skipped);
        keel_json_int(j, "failed", t->failed);
        keel_json_int(j, "not_c", es->not_c);
        keel_json_int(j, "repeated", es->dups);
        keel_json_int(j, "loops", t->loops);
        keel_json_int(j, "nests", t->nests);
        keel_json_str(j, "db", dbpath);
        keel_json_array(j, "failures");
        for (int i = 0; i < es->n; i++)
            if (es->e[i].failed) {
                keel_json_object(j, NULL);
                keel_json_str(j, "file", es->e[i].abs);
                keel_json_str(j, "reason", es->e[i].reason ? es->e[i].reason : "?");
                keel_json_bool(j, "unchanged", es->e[i].skipped);
                keel_json_end(j);
            }
        keel_json_end(j);
        keel_json_array(j, "not_c_files");
        for (int i = 0; i < es->not_c; i++) {
            keel_json_object(j, NULL);
            keel_json_str(j, "file", es->skipped[i].file);
            keel_json_str(j, "reason", es->skipped[i].why);
            keel_json_end(j);
        }
        keel_json_end(j);
        keel_json_end(j);
    }
    int jr = keel_json_print(j, stdout);
    keel_json_free(j);
    return jr;
}

/* The text summary and the failures, one a line. */
static void print_text(const entries *es, const scan_totals *t, const char *dbpath)
{
    printf("keel scan: %d C files in the compile database: %d analysed, %d unchanged"
           " (skipped), %d failed\n", es->n, t->analysed, t->skipped, t->failed);
    if (es->not_c || es->dups)
        printf("keel scan: %d entries not C, %d repeated files (first compile used)\n",
               es->not_c, es->dups);
    enum { NOT_C_SHOWN = 20 };
    for (int i = 0; i < es->not_c && i < NOT_C_SHOWN; i++)
        printf("%s  %s: %s\n", i ? "" : "not C:\n", rel(es->skipped[i].file),
               es->skipped[i].why);
    if (es->not_c > NOT_C_SHOWN)
        printf("  ... and %d more (keel scan --json names them all)\n", es->not_c - NOT_C_SHOWN);
    printf("keel scan: %ld loops in %ld nests in %s\n", t->loops, t->nests, dbpath);
    if (t->failed) {
        printf("failed:\n");
        for (int i = 0; i < es->n; i++)
            if (es->e[i].failed)
                printf("  %s: %s%s\n", rel(es->e[i].abs), es->e[i].reason ? es->e[i].reason : "?",
                       es->e[i].skipped ? " (unchanged since the last scan)" : "");
    }
}

int keel_cmd_scan(int argc, char **argv)
{
    const char *build = NULL, *dbpath;
    static extra_args extra;
    int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), mca = 1, force = 0, json = 0, npos;
    if (jobs < 1)
        jobs = 1;
    const keel_opt opts[] = {
        { .letter = 'p', .kind = KEEL_CALL, .dest = &build, .call = set_build },
        { .letter = 'j', .kind = KEEL_INT, .dest = &jobs, .lo = 1, .hi = 4096 },
        KEEL_OPT_CLEAR("no-mca", &mca),
        KEEL_OPT_FLAG("force", &force),
        KEEL_OPT_FLAG("json", &json),
        KEEL_OPT_CALL("extra-arg", &extra, add_extra),
        KEEL_OPT_LAST,
    };
    char **pos;
    int r = keel_getopts("scan", NULL, opts, argc, argv, 1, &pos, &npos);
    if (r >= 0)
        return r;
    if (!build)
        return keel_say(2, "scan needs -p BUILD_DIR (the folder of compile_commands.json)");
    dbpath = npos ? pos[0] : keel_default_db();

    char err[1024];
    entries es = { 0 };
    if (read_compdb(build, &es, err, sizeof err))
        return keel_say(1, "%s", err);
    for (int i = 0; i < es.n; i++)
        for (int k = 0; k < extra.n; k++)
            if (push_arg(&es.e[i], extra.arg[k], strlen(extra.arg[k])))
                return keel_say(1, "out of memory");

    /* Create or migrate the database once, before the parallel writers. */
    db *d = NULL;
    if (db_open(dbpath, DB_WRITE, &d, err, sizeof err))
        return keel_say(1, "%s", err);
    if (db_scan_init(d, err, sizeof err)) {
        keel_say(1, "%s: %s", dbpath, err);
        db_close(d);
        return 1;
    }
    char absdb[PATH_MAX], dbopt[PATH_MAX + 16], keelcc[PATH_MAX];
    keel_fmtn(dbopt, sizeof dbopt, "--keel-db=%s", realpath(dbpath, absdb) ? absdb : dbpath);
    keelcc_path(keelcc, sizeof keelcc);

    scan_totals t = { 0 };
    int todo = mark_stored(d, &es, mca, force, &t.skipped);
    run_all(d, &es, keelcc, dbopt, mca, jobs, todo);

    count_loops(d, &es, &t.loops, &t.nests);
    for (int i = 0; i < es.n; i++) {
        t.failed += es.e[i].failed;
        t.analysed += !es.e[i].failed && !es.e[i].skipped;
    }
    int rc = t.failed ? 1 : 0;
    if (json) {
        int jr = print_json(&es, &t, dbpath);
        if (jr)
            rc = jr;
    } else
        print_text(&es, &t, dbpath);
    for (int i = 0; i < es.n; i++)
        entry_free(&es.e[i]);
    free(es.e);
    for (int i = 0; i < es.not_c; i++) {
        free(es.skipped[i].file);
        free(es.skipped[i].why);
    }
    free(es.skipped);
    db_close(d);
    return rc;
}
