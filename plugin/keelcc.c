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

#include "db.h"
#include "ir.h"
#include "mcarun.h"
#include "store.h"
#include "walker.h"

#define OPENMP_VERSION_MACRO "-D_OPENMP=202011"   /* what clang-19 -fopenmp defines */

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

/* Options whose value is the next argument when not joined. */
static const char *const separate_value[] = {
    "-o", "-MF", "-MT", "-MQ", "-MJ", "-I", "-D", "-U", "-include", "-imacros", "-isystem",
    "-iquote", "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot",
    "-x", "-Xlinker", "-Xclang", "-Xpreprocessor", "-Xassembler", "-Xopenmp-target", "-L",
    "-l", "-target", "--sysroot", "-arch", "-u", "-T", "-z", "-e", "-mllvm", "--param",
    "-dependency-file", "-aux-info", "-ivfsoverlay", "-working-directory", NULL
};

/* Options libclang needs to see the same program: value-taking ones. */
static const char *const clang_value_opts[] = {
    "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
    "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-target", "--sysroot", NULL
};

static int in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

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

static int parse_args(int argc, char **argv, options *o)
{
    const char *env;
    o->compiler = (env = getenv("KEEL_CC")) && *env ? env : "clang-19";
    o->db_path = (env = getenv("KEEL_DB")) && *env ? env : "keel.db";
    o->analysis = !((env = getenv("KEEL_DISABLE")) && *env && strcmp(env, "0"));
    o->quiet = (env = getenv("KEEL_QUIET")) && *env && strcmp(env, "0");
    o->compiles = 1;
    o->mca = !((env = getenv("KEEL_MCA")) && strcmp(env, "off") == 0);
    o->mcpu = (env = getenv("KEEL_MCPU")) && *env ? env : NULL;
    o->llvm_mca = (env = getenv("KEEL_LLVM_MCA")) && *env ? env : "llvm-mca-19";
    int lang_c = -1;   /* -x c: 1, -x other: 0, none: by suffix */
    int openmp = 0;

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

        if (in_list(separate_value, a) && i + 1 < argc) {
            const char *v = argv[++i];
            push(&o->ncc, &o->cc, v);
            if (strcmp(a, "-x") == 0)
                lang_c = strcmp(v, "c") == 0 ? 1 : strcmp(v, "none") == 0 ? -1 : 0;
            if (in_list(clang_value_opts, a)) {
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
        if (strncmp(a, "-x", 2) == 0 && a[2])
            lang_c = strcmp(a + 2, "c") == 0 ? 1 : strcmp(a + 2, "none") == 0 ? -1 : 0;
        if (strncmp(a, "-fopenmp", 8) == 0 && (a[8] == '\0' || a[8] == '='))
            openmp = 1;
        if (joined_prefix(clang_value_opts, a) || strncmp(a, "-std=", 5) == 0
            || strncmp(a, "--sysroot=", 10) == 0 || strncmp(a, "--target=", 9) == 0
            || strcmp(a, "-ansi") == 0 || strcmp(a, "-m32") == 0 || strcmp(a, "-m64") == 0
            || strcmp(a, "-funsigned-char") == 0 || strcmp(a, "-fsigned-char") == 0
            || strcmp(a, "-nostdinc") == 0 || strcmp(a, "-undef") == 0)
            push(&o->nclang, &o->clang, a);
    }
    /* Parsed without -fopenmp (directives would hide their loops), but code
     * guarded by #ifdef _OPENMP must look as it does to the compiler. */
    if (openmp)
        push(&o->nclang, &o->clang, OPENMP_VERSION_MACRO);
    return 0;
}

/* Run the real compiler in a child process; returns its pid or -1. */
static pid_t start_compiler(const options *o)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(o->cc[0], o->cc);
        fprintf(stderr, "keelcc: error: cannot run '%s': %s\n", o->cc[0], strerror(errno));
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

    pid_t pid = start_compiler(&o);
    if (pid < 0) {
        fprintf(stderr, "keelcc: error: cannot start '%s': %s\n", o.compiler, strerror(errno));
        return 127;
    }
    int want = o.analysis && o.compiles && o.nsources > 0;
    analysed *res = want ? calloc((size_t)o.nsources, sizeof *res) : NULL;
    if (res)
        analyse(&o, res);
    if (res && o.mca)
        mca_stage(&o, res);
    int status = wait_compiler(pid);
    /* A failed compile has told the user already; its stale rows stay. */
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
