/*
 * keelcc.c -- the drop-in compiler driver.
 *
 *     keelcc [--keel-...] <compiler arguments>
 *
 * keelcc runs the real compiler (clang-19, or $KEEL_CC) with the arguments
 * unchanged except for keel's own --keel-* options, and exits with its exit
 * status.  While the compiler runs, keelcc parses every C source of the
 * command with libclang (same -I/-D/-U/-std flags), builds the loop IR and,
 * once the compile has succeeded, writes it to the attribute database in one
 * transaction per source.  Anything that goes wrong in the analysis is one
 * warning line on stderr; it never changes the compile's result.
 */
#define _XOPEN_SOURCE 700   /* realpath */
#define _DEFAULT_SOURCE     /* mkstemps */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ccargs.h"
#include "db.h"
#include "instrument.h"
#include "ir.h"
#include "mcarun.h"
#include "store.h"
#include "walker.h"


typedef struct {
    const char *db_path;
    const char *compiler;
    int analysis;          /* 0: behave as the plain compiler */
    int dump_ir;
    int quiet;
    int ncc;               /* arguments for the real compiler */
    char **cc;
    int nsources;
    char **sources;
    int nclang;            /* arguments for libclang */
    char **clang;
    int compiles;          /* the command compiles (not -E, -M, -MM, ...) */
    int links;             /* ... and links (no -c, -S) */
    int c_or_s;            /* 'c' or 'S' when the command stops there, else 0 */
    const char *output;    /* -o value */
    const char *dep_file;  /* -MF value */
    int dep;               /* -MD or -MMD given */
    instrument_mode instrument;
    int mca;               /* run the llvm-mca stage */
    const char *mcpu;      /* --keel-mcpu list, NULL: the host CPU */
    const char *llvm_mca;  /* the llvm-mca program */
} options;

static void usage(FILE *out, const char *compiler)
{
    fprintf(out,
        "usage: keelcc [keel options] <compiler arguments>\n"
        "\n"
        "Compile C code with the real compiler and record every loop nest in keel's\n"
        "program attribute database.  The compiler's result and exit status are\n"
        "unchanged; analysis problems are warnings.\n"
        "\n"
        "keel options (removed before the compiler sees the arguments):\n"
        "  --keel-db=PATH        attribute database (default: $KEEL_DB, else ./keel.db)\n"
        "  --keel-analysis=off   only run the compiler (also KEEL_DISABLE=1)\n"
        "  --keel-analysis=only  analyse and record, run no compile (keel scan)\n"
        "  --keel-instrument=M   off: compile the source as it is; report (default): call\n"
        "                        libkeelrt before every loop nest, which decides CPU or\n"
        "                        GPU at run time (KEEL_VERBOSE=1 shows it); offload:\n"
        "                        also let the verdict pick where `omp target` loops run\n"
        "                        (also KEEL_INSTRUMENT=M); linking adds libkeelrt\n"
        "  --keel-dump-ir        print each source's loop IR on stderr\n"
        "  --keel-quiet          no keel warnings (also KEEL_QUIET=1)\n"
        "  --keel-mcpu=LIST      CPUs for llvm-mca cycles per loop iteration, e.g.\n"
        "                        skylake,znver4,pwr9,neoverse-v1 (default: $KEEL_MCPU,\n"
        "                        else the host CPU); CPUs of another architecture\n"
        "                        (pwr*, neoverse-*, ...; or CPU@TRIPLE) are compiled\n"
        "                        with --target= for their assembly\n"
        "  --keel-mca=off        no llvm-mca stage (also KEEL_MCA=off)\n"
        "  --keel-help           this help (also --help alone)\n"
        "  --keel-version        keel's version\n"
        "\n"
        "environment:\n"
        "  KEEL_CC      the real compiler (default clang-19; now '%s')\n"
        "  KEEL_DB      the attribute database\n"
        "  KEEL_RT_HEADER, KEEL_RT_LIB   keelrt.h and libkeelrt.a to use\n"
        "  KEEL_LLVM_MCA  the llvm-mca program (default llvm-mca-19)\n"
        "\n"
        "examples:\n"
        "  keelcc -O2 -c gemm.c -o gemm.o\n"
        "  make CC=keelcc && keel loops keel.db\n"
        "\n"
        "The compiler's own options: %s --help\n", compiler, compiler);
}

static void warn(const options *o, const char *fmt, const char *a, const char *b)
{
    if (o->quiet)
        return;
    fprintf(stderr, "keelcc: warning: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Options libclang needs to see the same program: value-taking ones. */
static const char *const clang_value_opts[] = {
    "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
    "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-target", "--sysroot", NULL
};

/* Joined form of a value option, e.g. -Ifoo or -DX=1. */
static int joined_prefix(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++) {
        size_t n = strlen(list[i]);
        if (n == 2 && strncmp(s, list[i], n) == 0 && s[n])
            return 1;
    }
    return 0;
}

static int push(int *n, char ***arr, const char *s)
{
    char **p = realloc(*arr, sizeof *p * (size_t)(*n + 2));
    if (!p)
        return -1;
    *arr = p;
    p[(*n)++] = (char *)s;
    p[*n] = NULL;
    return 0;
}

static int parse_instrument(const char *s, instrument_mode *m)
{
    if (strcmp(s, "off") == 0)
        *m = INSTRUMENT_OFF;
    else if (strcmp(s, "report") == 0)
        *m = INSTRUMENT_REPORT;
    else if (strcmp(s, "offload") == 0)
        *m = INSTRUMENT_OFFLOAD;
    else
        return -1;
    return 0;
}

static int parse_args(int argc, char **argv, options *o)
{
    const char *env;
    o->compiler = (env = getenv("KEEL_CC")) && *env ? env : "clang-19";
    o->db_path = (env = getenv("KEEL_DB")) && *env ? env : "keel.db";
    o->analysis = !((env = getenv("KEEL_DISABLE")) && *env && strcmp(env, "0"));
    o->quiet = (env = getenv("KEEL_QUIET")) && *env && strcmp(env, "0");
    o->compiles = 1;
    o->instrument = INSTRUMENT_REPORT;
    if ((env = getenv("KEEL_INSTRUMENT")) && *env && parse_instrument(env, &o->instrument) != 0) {
        fprintf(stderr, "keelcc: error: KEEL_INSTRUMENT='%s' is not off, report or offload\n", env);
        return -1;
    }
    o->mca = !((env = getenv("KEEL_MCA")) && strcmp(env, "off") == 0);
    o->mcpu = (env = getenv("KEEL_MCPU")) && *env ? env : NULL;
    o->llvm_mca = (env = getenv("KEEL_LLVM_MCA")) && *env ? env : "llvm-mca-19";
    int lang_c = -1;   /* -x c: 1, -x other: 0, none: by suffix */
    const char *openmp = NULL;   /* the -fopenmp[=lib] flag */

    push(&o->ncc, &o->cc, o->compiler);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--keel-", 7) == 0) {
            if (strncmp(a, "--keel-db=", 10) == 0)
                o->db_path = a + 10;
            else if (strcmp(a, "--keel-analysis=off") == 0)
                o->analysis = 0;
            else if (strcmp(a, "--keel-analysis=on") == 0)
                o->analysis = 1;
            else if (strcmp(a, "--keel-analysis=only") == 0)
                o->analysis = 2;   /* keel scan: analyse, record, never compile */
            else if (strncmp(a, "--keel-instrument=", 18) == 0) {
                if (parse_instrument(a + 18, &o->instrument) != 0) {
                    fprintf(stderr, "keelcc: error: %s: expected off, report or offload\n", a);
                    return -1;
                }
            }
            else if (strcmp(a, "--keel-dump-ir") == 0)
                o->dump_ir = 1;
            else if (strcmp(a, "--keel-quiet") == 0)
                o->quiet = 1;
            else if (strncmp(a, "--keel-mcpu=", 12) == 0)
                o->mcpu = a + 12;
            else if (strcmp(a, "--keel-mca=off") == 0 || strcmp(a, "--keel-mca=on") == 0)
                o->mca = a[11] == 'n';
            else if (strcmp(a, "--keel-help") == 0)
                return 1;
            else if (strcmp(a, "--keel-version") == 0)
                return 2;
            else {
                fprintf(stderr, "keelcc: error: unknown keel option '%s' (see keelcc --keel-help)\n", a);
                return -1;
            }
            continue;
        }
        push(&o->ncc, &o->cc, a);

        if (cc_in_list(cc_value_options, a) && i + 1 < argc) {
            const char *v = argv[++i];
            push(&o->ncc, &o->cc, v);
            if (strcmp(a, "-x") == 0)
                lang_c = strcmp(v, "c") == 0 ? 1 : strcmp(v, "none") == 0 ? -1 : 0;
            if (strcmp(a, "-o") == 0)
                o->output = v;
            if (strcmp(a, "-MF") == 0)
                o->dep_file = v;
            if (cc_in_list(clang_value_opts, a)) {
                push(&o->nclang, &o->clang, a);
                push(&o->nclang, &o->clang, v);
            }
            continue;
        }
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (strcmp(a, "-") != 0 && (lang_c == 1 || (lang_c == -1 && has_suffix(a, ".c"))))
                push(&o->nsources, &o->sources, a);
            continue;
        }
        if (strcmp(a, "-E") == 0 || strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0
            || strcmp(a, "-fsyntax-only") == 0)
            o->compiles = 0;
        if (strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0)
            o->c_or_s = a[1];
        if (strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0)
            o->dep = 1;
        if (strncmp(a, "-o", 2) == 0 && a[2])
            o->output = a + 2;
        if (strncmp(a, "-MF", 3) == 0 && a[3])
            o->dep_file = a + 3;
        if (strncmp(a, "-x", 2) == 0 && a[2])
            lang_c = strcmp(a + 2, "c") == 0 ? 1 : strcmp(a + 2, "none") == 0 ? -1 : 0;
        if (strncmp(a, "-fopenmp", 8) == 0 && (a[8] == '\0' || a[8] == '='))
            openmp = a;
        if (joined_prefix(clang_value_opts, a) || strncmp(a, "-std=", 5) == 0
            || strncmp(a, "--sysroot=", 10) == 0 || strncmp(a, "--target=", 9) == 0
            || strcmp(a, "-ansi") == 0 || strcmp(a, "-m32") == 0 || strcmp(a, "-m64") == 0
            || strcmp(a, "-funsigned-char") == 0 || strcmp(a, "-fsigned-char") == 0
            || strcmp(a, "-nostdinc") == 0 || strcmp(a, "-undef") == 0)
            push(&o->nclang, &o->clang, a);
    }
    /* Parsed with -fopenmp, as the compiler sees it (the walker keeps the
     * loops under directives visible: plugin/walker.c). */
    if (openmp)
        push(&o->nclang, &o->clang, openmp);
    o->links = o->compiles && !o->c_or_s;
    return 0;
}

/* Run the real compiler with argv in a child process, its stderr to
 * stderr_fd when that is not -1; returns its pid or -1. */
static pid_t start_compiler(char **argv, int stderr_fd)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (stderr_fd >= 0)
            dup2(stderr_fd, 2);
        cc_execvp(argv);
        fprintf(stderr, "keelcc: error: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

static int wait_compiler(pid_t pid)
{
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return 127;
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}

/* FNV-1a of a file's bytes, as 16 hex digits; "" when unreadable. */
static void file_hash(const char *path, char out[17])
{
    uint64_t h = 1469598103934665603ULL;
    FILE *f = fopen(path, "rb");
    out[0] = '\0';
    if (!f)
        return;
    int c;
    while ((c = getc(f)) != EOF) {
        h ^= (unsigned char)c;
        h *= 1099511628211ULL;
    }
    fclose(f);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* Analyse each source into IR (done while the compiler runs). */
typedef struct {
    char *path;      /* absolute */
    ir_tu *ir;       /* NULL when the analysis failed */
    char err[512];
    mcr_result *mca; /* llvm-mca figures, NULL when the stage did not run */
} analysed;

/* ---- the llvm-mca stage (plugin/mcarun.c) ---- */

static mcr_config mca_cfg;

static void mca_warn(void *ctx, const char *line)
{
    warn(ctx, "%s%s", line, "");
}

/* Run llvm-mca over the loops of every analysed source (before the
 * compiler's result is known: the assembly compiles overlap with it). */
static void mca_stage(const options *o, analysed *res)
{
    mcr_config_init(&mca_cfg, o->mcpu, o->llvm_mca);
    if (mca_cfg.error)
        warn(o, "%s (no cycles per iteration recorded)", mca_cfg.error, "");
    for (int t = 0; t < mca_cfg.ntargets; t++)
        if (mca_cfg.t[t].skip)
            warn(o, "%s", mca_cfg.t[t].skip, "");
    db *cache = NULL;
    char err[512];
    if (!mca_cfg.error && db_open(o->db_path, DB_READONLY, &cache, err, sizeof err) != 0)
        cache = NULL;
    for (int i = 0; i < o->nsources; i++)
        if (res[i].ir)
            res[i].mca = mcr_run_tu(&mca_cfg, res[i].ir, o->ncc, o->cc, o->sources[i], cache,
                                    mca_warn, (void *)o);
    db_close(cache);
}

static int mca_hook(void *ctx, db *d, int64_t tu_id, const int64_t *loop_ids, char *err,
                    size_t errlen)
{
    return mcr_store(&mca_cfg, ctx, d, tu_id, loop_ids, err, errlen);
}

static void analyse(const options *o, analysed *res)
{
    for (int i = 0; i < o->nsources; i++) {
        char abs[PATH_MAX];
        res[i].path = strdup(realpath(o->sources[i], abs) ? abs : o->sources[i]);
        res[i].ir = NULL;
        res[i].err[0] = '\0';
        if (walk_file(o->sources[i], o->nclang, (const char *const *)o->clang, &res[i].ir,
                      res[i].err, sizeof res[i].err) != 0)
            res[i].ir = NULL;
        else if (o->dump_ir)
            ir_dump(res[i].ir, stderr);
    }
}

static void record(const options *o, analysed *res)
{
    char err[512], cwd[PATH_MAX];
    db *d = NULL;
    if (db_open(o->db_path, DB_WRITE, &d, err, sizeof err) != 0) {
        warn(o, "%s (loops not recorded)%s", err, "");
        return;
    }
    char *args = store_json_array(o->ncc - 1, o->cc + 1);
    if (!getcwd(cwd, sizeof cwd))
        strcpy(cwd, ".");
    for (int i = 0; i < o->nsources; i++) {
        char hash[17];
        file_hash(o->sources[i], hash);
        db_tu_row row = {
            .path = res[i].path, .hash = hash, .args = args ? args : "[]",
            .compiler = o->compiler, .directory = cwd,
            .status = res[i].ir ? "ok" : "error",
            .message = res[i].ir ? NULL : res[i].err,
        };
        if (!res[i].ir)
            warn(o, "%s: analysis skipped: %s", o->sources[i], res[i].err);
        if (store_tu_with(d, res[i].ir, &row, res[i].mca ? mca_hook : NULL, res[i].mca,
                          err, sizeof err) != 0)
            warn(o, "%s: loops not recorded: %s", o->sources[i], err);
    }
    free(args);
    db_close(d);
}

/* ---- instrumentation ----------------------------------------------------- */

/* keelrt.h and libkeelrt.a: $KEEL_RT_HEADER / $KEEL_RT_LIB, else next to an
 * installed keelcc (bin/../include, bin/../lib), else the build tree. */
static void runtime_paths(char *header, char *lib, size_t n)
{
    const char *env;
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    snprintf(header, n, "%s", KEEL_RT_HEADER);
    snprintf(lib, n, "%s", KEEL_RT_LIB);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            char h[PATH_MAX + 64], l[PATH_MAX + 64];
            *slash = '\0';
            snprintf(h, sizeof h, "%s/../include/keelrt.h", exe);
            snprintf(l, sizeof l, "%s/../lib/libkeelrt.a", exe);
            if (access(h, R_OK) == 0 && access(l, R_OK) == 0) {
                snprintf(header, n, "%s", h);
                snprintf(lib, n, "%s", l);
            }
        }
    }
    if ((env = getenv("KEEL_RT_HEADER")) && *env)
        snprintf(header, n, "%s", env);
    if ((env = getenv("KEEL_RT_LIB")) && *env)
        snprintf(lib, n, "%s", env);
}

/* The database path as the program will see it at run time: absolute. */
static void absolute_db(const char *db_path, char *out, size_t n)
{
    char cwd[PATH_MAX];
    if (db_path[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(out, n, "%s", db_path);
    else
        snprintf(out, n, "%s/%s", cwd, db_path);
}

/* Replace every occurrence of `from` by `to` in the file at path. */
static void replace_in_file(const char *path, const char *from, const char *to)
{
    size_t len, fl = strlen(from), tl = strlen(to);
    char *text = cc_read_file(path, &len);
    if (!text)
        return;
    char *out = malloc(len / (fl ? fl : 1) * (tl + 1) + len + 1);
    if (out) {
        size_t o = 0;
        for (size_t i = 0; i < len;) {
            if (fl && i + fl <= len && memcmp(text + i, from, fl) == 0) {
                memcpy(out + o, to, tl);
                o += tl;
                i += fl;
            } else {
                out[o++] = text[i++];
            }
        }
        cc_write_file(path, out, o);
    }
    free(out);
    free(text);
}

/* Where -MD/-MMD without -MF write: the output with its extension as .d. */
static void dep_path(const options *o, char *out, size_t n)
{
    if (o->dep_file) {
        snprintf(out, n, "%s", o->dep_file);
        return;
    }
    snprintf(out, n, "%s", o->output ? o->output : "");
    char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
    if (dot && (!slash || dot > slash))
        *dot = '\0';
    strncat(out, ".d", n - strlen(out) - 1);
}

typedef struct {
    char temp[64];        /* instrumented copy, "" when the source is not */
} instrumented;

/* Write instrumented copies of the analysed sources.  Returns how many. */
static int make_copies(const options *o, analysed *res, instrumented *ins, const char *header)
{
    char db[PATH_MAX + 1];
    absolute_db(o->db_path, db, sizeof db);
    const char *tmp = getenv("TMPDIR");
    int made = 0;
    for (int i = 0; i < o->nsources; i++) {
        ins[i].temp[0] = '\0';
        size_t len;
        char *src = res[i].ir ? cc_read_file(o->sources[i], &len) : NULL;
        char *text = NULL;
        if (src && instrument_source(res[i].ir, res[i].path, o->sources[i], src, len, header,
                                     db, o->instrument, &text) > 0) {
            snprintf(ins[i].temp, sizeof ins[i].temp, "%s/keel-XXXXXX.c",
                     tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
            int fd = mkstemps(ins[i].temp, 2);
            if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
                warn(o, "%s: not instrumented: cannot write a temporary file%s", o->sources[i], "");
                if (fd >= 0)
                    unlink(ins[i].temp);
                ins[i].temp[0] = '\0';
            } else {
                made++;
            }
            if (fd >= 0)
                close(fd);
        }
        free(text);
        free(src);
    }
    return made;
}

/* The compile command with instrumented copies in place of their sources. */
static char **instrumented_argv(const options *o, const instrumented *ins, char *out_name,
                                char **dirs)
{
    int n = 0;
    char **argv = NULL;
    for (int k = 0; k < o->ncc; k++) {
        const char *a = o->cc[k];
        for (int i = 0; i < o->nsources; i++)
            if (a == o->sources[i] && ins[i].temp[0])
                a = ins[i].temp;
        push(&n, &argv, a);
    }
    /* Quoted #includes resolve against the original file's folder. */
    for (int i = 0; i < o->nsources; i++) {
        if (!ins[i].temp[0])
            continue;
        const char *slash = strrchr(o->sources[i], '/');
        dirs[i] = slash ? strndup(o->sources[i], (size_t)(slash - o->sources[i])) : strdup(".");
        push(&n, &argv, "-iquote");
        push(&n, &argv, dirs[i]);
    }
    /* -c/-S without -o would name the output after the copy. */
    if (o->c_or_s && !o->output && out_name[0]) {
        push(&n, &argv, "-o");
        push(&n, &argv, out_name);
    }
    return argv;
}

/* A compile of instrumented copies, running. */
typedef struct {
    pid_t pid;
    int fd;                   /* its stderr, captured */
    char errpath[32];
    char out_name[PATH_MAX];  /* the -o keelcc added, "" when none */
    char **argv;
    char **dirs;
} instrumented_job;

/* Start the compiler on the instrumented copies.  Returns 0, or -1 when it
 * could not start (the caller compiles the original). */
static int start_instrumented(const options *o, const instrumented *ins, instrumented_job *j)
{
    memset(j, 0, sizeof *j);
    j->fd = -1;
    if (o->c_or_s && !o->output) {
        const char *base = strrchr(o->sources[0], '/');
        base = base ? base + 1 : o->sources[0];
        snprintf(j->out_name, sizeof j->out_name, "%.*s.%c", (int)(strlen(base) - 2), base,
                 o->c_or_s == 'c' ? 'o' : 's');
    }
    j->dirs = calloc((size_t)o->nsources, sizeof *j->dirs);
    j->argv = j->dirs ? instrumented_argv(o, ins, j->out_name, j->dirs) : NULL;
    snprintf(j->errpath, sizeof j->errpath, "/tmp/keel-stderr-XXXXXX");
    j->fd = j->argv ? mkstemp(j->errpath) : -1;
    j->pid = j->fd >= 0 ? start_compiler(j->argv, j->fd) : -1;
    if (j->pid > 0)
        return 0;
    if (j->fd >= 0) {
        close(j->fd);
        unlink(j->errpath);
    }
    for (int i = 0; j->dirs && i < o->nsources; i++)
        free(j->dirs[i]);
    free(j->dirs);
    free(j->argv);
    return -1;
}

/* Wait for the instrumented compile.  On success its messages go to
 * stderr, the dependency file names the original sources, and the result
 * is 0; on failure -1, with the first line of its messages in first_error. */
static int finish_instrumented(const options *o, const instrumented *ins, instrumented_job *j,
                               char *first_error, size_t errlen)
{
    int status = wait_compiler(j->pid);
    size_t len = 0;
    char *msgs = cc_read_file(j->errpath, &len);
    if (status == 0 && msgs) {
        fwrite(msgs, 1, len, stderr);   /* the compile's own warnings */
    } else if (msgs && len) {
        char *nl = memchr(msgs, '\n', len);
        snprintf(first_error, errlen, "%.*s", (int)((nl ? nl : msgs + len) - msgs), msgs);
    }
    free(msgs);
    close(j->fd);
    unlink(j->errpath);
    if (status == 0 && o->dep) {
        char dp[PATH_MAX + 3];
        if (o->output || o->dep_file) {
            dep_path(o, dp, sizeof dp);
        } else {
            snprintf(dp, sizeof dp, "%s", j->out_name);
            dep_path(&(options){ .output = dp }, dp, sizeof dp);
        }
        for (int i = 0; i < o->nsources; i++)
            if (ins[i].temp[0])
                replace_in_file(dp, ins[i].temp, o->sources[i]);
    }
    for (int i = 0; j->dirs && i < o->nsources; i++)
        free(j->dirs[i]);
    free(j->dirs);
    free(j->argv);
    return status == 0 ? 0 : -1;
}

/* Link arguments for libkeelrt; sqlite and friends only when needed.
 * `-x none` first: a user's `-x c` / `--language=c` before the sources
 * would otherwise make the compiler read libkeelrt.a as C source. */
static void add_runtime_link(options *o, const char *lib)
{
    push(&o->ncc, &o->cc, "-x");
    push(&o->ncc, &o->cc, "none");
    push(&o->ncc, &o->cc, lib);
    push(&o->ncc, &o->cc, "-Wl,--push-state,--as-needed");
    push(&o->ncc, &o->cc, "-lsqlite3");
    push(&o->ncc, &o->cc, "-lpthread");
    push(&o->ncc, &o->cc, "-ldl");
    push(&o->ncc, &o->cc, "-lm");
    push(&o->ncc, &o->cc, "-Wl,--pop-state");
}

int main(int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    int pr = parse_args(argc, argv, &o);
    if (pr < 0)
        return 2;
    if (pr == 1 || (argc == 2 && strcmp(argv[1], "--help") == 0)) {
        usage(stdout, o.compiler);
        return 0;
    }
    if (pr == 2) {
        printf("keelcc (keel %s), compiling with %s\n", KEEL_VERSION, o.compiler);
        return 0;
    }

    char header[PATH_MAX + 64], lib[PATH_MAX + 64];
    runtime_paths(header, lib, sizeof header);
    if (o.analysis != 1)
        o.instrument = INSTRUMENT_OFF;
    if (o.instrument != INSTRUMENT_OFF && (access(header, R_OK) != 0 || access(lib, R_OK) != 0)) {
        warn(&o, "libkeelrt not found (%s): building without instrumentation", lib, "");
        o.instrument = INSTRUMENT_OFF;
    }
    int want = o.analysis && o.compiles && o.nsources > 0;
    /* Several sources with -c/-S and no -o each get their own output name
     * from the compiler; copies would rename them: leave those alone. */
    int instrument = want && o.instrument != INSTRUMENT_OFF
                  && !(o.c_or_s && !o.output && o.nsources > 1);
    /* The count of the user's arguments: what the database records and what
     * a fallback compile runs, without the runtime link arguments. */
    int user_ncc = o.ncc;
    if (o.links && o.instrument != INSTRUMENT_OFF)
        add_runtime_link(&o, lib);
    /* The llvm-mca stage compiles to assembly with the user's arguments. */
    options user = o;
    user.ncc = user_ncc;

    analysed *res = want ? calloc((size_t)o.nsources, sizeof *res) : NULL;
    int status;
    if (instrument && res) {
        analyse(&o, res);
        instrumented *ins = calloc((size_t)o.nsources, sizeof *ins);
        instrumented_job job;
        char first_error[512] = "";
        status = -1;
        int started = ins && make_copies(&o, res, ins, header) > 0
                   && start_instrumented(&o, ins, &job) == 0;
        if (o.mca)
            mca_stage(&user, res);     /* while the instrumented compile runs */
        if (started)
            status = finish_instrumented(&o, ins, &job, first_error, sizeof first_error);
        for (int i = 0; ins && i < o.nsources; i++)
            if (ins[i].temp[0])
                unlink(ins[i].temp);
        free(ins);
        if (status < 0) {
            pid_t pid = start_compiler(o.cc, -1);
            status = pid < 0 ? 127 : wait_compiler(pid);
            if (status == 0 && first_error[0])
                warn(&o, "instrumented compile failed (%s); built without instrumentation%s",
                     first_error, "");
        }
    } else {
        /* Analyse (and run llvm-mca) while the compiler runs. */
        pid_t pid = o.analysis == 2 ? 0 : start_compiler(o.cc, -1);
        if (pid < 0) {
            fprintf(stderr, "keelcc: error: cannot start '%s': %s\n", o.compiler, strerror(errno));
            return 127;
        }
        if (res)
            analyse(&o, res);
        if (res && o.mca)
            mca_stage(&user, res);
        status = pid ? wait_compiler(pid) : 0;
    }
    /* A failed compile has told the user already; its stale rows stay. */
    o.ncc = user_ncc;
    o.cc[o.ncc] = NULL;
    if (res && status == 0)
        record(&o, res);
    for (int i = 0; res && i < o.nsources; i++) {
        free(res[i].path);
        ir_tu_free(res[i].ir);
        mcr_result_free(res[i].mca);
    }
    if (res && o.mca)
        mcr_config_free(&mca_cfg);
    free(res);
    free(o.cc);
    free(o.sources);
    free(o.clang);
    return status;
}
