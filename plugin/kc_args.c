/*
 * kc_args.c -- keelcc's argument handling.
 *
 * Reads the command line as the compiler will: response files (`@file`,
 * GNU quoting, nested up to a depth of 8), the launcher form (a compiler
 * named before its arguments), keel's own --keel-* options (taken out; the
 * compiler never sees them), and sorts the compiler's arguments into what
 * the parse needs (-I/-D/-U/-std, dialect and warning-as-error flags, and
 * the flags that change the predefined macros: -O, -m, -ffast-math...), the
 * C sources to analyse (by suffix or -x, preprocessed ones included), the
 * inputs that are not C (one warning each) and what the command produces.
 */
#include "kc_int.h"

/* Options libclang needs to see the same program: value-taking ones. */
static const char *const clang_value_opts[] = {
    "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
    "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-target", "--sysroot", NULL
};

/* Joined form of a value option, e.g. -Ifoo or -DX=1. */
int kc_joined_prefix(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++) {
        size_t n = strlen(list[i]);
        if (n == 2 && strncmp(s, list[i], n) == 0 && s[n])
            return 1;
    }
    return 0;
}

/* Append s to the NULL-terminated list; a failure is remembered in
 * o->oom (main then runs the plain compiler with its own argv). */
void kc_push(options *o, int *n, char ***arr, const char *s)
{
    if (ku_push_ptr(arr, n, s) != 0)
        o->oom = 1;
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

/* ---- response files ------------------------------------------------------
 *
 * `@file` arguments go to the compiler as they are; keelcc reads them (GNU
 * rules, as clang does on Unix: blanks separate, quotes group, a backslash
 * escapes the next character; nested @files up to a depth of 8) so that the
 * sources and flags inside are analysed and instrumented like any others.
 */

typedef struct {
    int n;
    char **arg;
    unsigned char *rsp;   /* 1: read from a response file (analysis only) */
} arg_list;

static int arg_add(arg_list *l, char *a, int rsp)
{
    int n1 = l->n, n2 = l->n;
    char **na = ku_push(&l->arg, &n1, sizeof *na);
    unsigned char *nr = ku_push(&l->rsp, &n2, sizeof *nr);
    if (!na || !nr)
        return -1;
    *na = a;
    *nr = (unsigned char)rsp;
    l->n++;
    return 0;
}

/* Append the arguments of response file `path` (marked rsp); the strings
 * live as long as the process.  -1 when an argument could not be kept
 * (the analysis then runs on no partial command line). */
static int expand_response(arg_list *l, const char *path, int depth)
{
    size_t len;
    if (depth >= 8) {
        kc_warn("@%s: response files nested deeper than 8: its arguments are not analysed", path);
        return 0;
    }
    char *text = ku_read_file(path, &len);
    if (!text)
        return 0;       /* the compiler reports it */
    int rc = 0;
    char *w = text;   /* tokens are rewritten in place, never longer */
    size_t i = 0;
    while (i < len) {
        while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
            i++;
        if (i >= len)
            break;
        char *tok = w;
        char q = 0;
        while (i < len) {
            char c = text[i];
            if (!q && (c == ' ' || c == '\t' || c == '\n' || c == '\r'))
                break;
            i++;
            if (c == '\\' && i < len && q != '\'') {
                *w++ = text[i++];
            } else if (!q && (c == '"' || c == '\'')) {
                q = c;
            } else if (q && c == q) {
                q = 0;
            } else {
                *w++ = c;
            }
        }
        if (i < len)
            i++;        /* the blank after the token: the NUL may go there */
        *w++ = '\0';
        if (tok[0] == '@' && tok[1])
            rc |= expand_response(l, tok + 1, depth + 1);
        else
            rc |= arg_add(l, tok, 1);
    }
    return rc;
}

/* ---- launcher form ---------------------------------------------------------
 *
 *     keelcc [--keel-...] COMPILER <compiler arguments>
 *
 * as ccache is used, and as CMake's CMAKE_C_COMPILER_LAUNCHER and
 * CMAKE_C_LINKER_LAUNCHER run it: the first argument that is not a keel
 * option names the real compiler when it is a program -- a regular file
 * with execute permission, found as given when it has a '/', else on
 * $PATH -- and not a file the compiler reads (a source, object, archive or
 * library by its suffix).  It then replaces $KEEL_CC and is taken out of
 * the arguments; everything else is as in the drop-in form. */
static const char *launcher_compiler;

static int is_program(const char *name)
{
    struct stat st;
    if (strchr(name, '/'))
        return stat(name, &st) == 0 && S_ISREG(st.st_mode) && access(name, X_OK) == 0;
    const char *path = getenv("PATH");
    char full[PATH_MAX];
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        int k = snprintf(full, sizeof full, "%.*s%s%s", (int)len, path, len ? "/" : "", name);
        if (k > 0 && (size_t)k < sizeof full && stat(full, &st) == 0 && S_ISREG(st.st_mode)
            && access(full, X_OK) == 0)
            return 1;
        path = colon ? colon + 1 : NULL;
    }
    return 0;
}

/* Takes a compiler named before the compiler arguments out of argv (see
 * above) into launcher_compiler; returns the new argc. */
int kc_launcher_form(int argc, char **argv)
{
    static const char *const inputs[] = {
        ".c", ".i", ".h", ".o", ".a", ".s", ".S", ".so", ".lo", ".obj", NULL
    };
    int i = 1;
    while (i < argc && strncmp(argv[i], "--keel-", 7) == 0)
        i++;
    if (i >= argc || argv[i][0] == '-' || argv[i][0] == '@' || !argv[i][0])
        return argc;
    const char *base = strrchr(argv[i], '/');
    base = base ? base + 1 : argv[i];
    for (int k = 0; inputs[k]; k++)
        if (kc_has_suffix(base, inputs[k]) || strstr(base, ".so."))
            return argc;
    if (!is_program(argv[i]))
        return argc;
    launcher_compiler = argv[i];
    for (int k = i; k < argc; k++)
        argv[k] = argv[k + 1];        /* argv[argc] is NULL */
    return argc - 1;
}

/* Flags that change the predefined macros, so the parse must see them
 * to read the text the compiler compiles (a nest under #ifdef
 * __OPTIMIZE__, __AVX2__ or __FAST_MATH__, glibc's inline and fortified
 * variants): optimisation levels (__OPTIMIZE__, __OPTIMIZE_SIZE__,
 * __NO_INLINE__), floating-point models (__FAST_MATH__,
 * __FINITE_MATH_ONLY__, __NO_MATH_ERRNO__), code models (__PIC__,
 * __PIE__), -pthread (_REENTRANT), stack protectors (__SSP__...),
 * -fcf-protection (__CET__), -fexceptions (__EXCEPTIONS), unwind tables
 * (__GCC_HAVE_DWARF2_CFI_ASM), and -fopenmp-simd (the compile knows
 * `omp simd` pragmas: -Wsource-uses-openmp is quiet).  Ending in '=': a
 * prefix.  Every -m target flag is taken too (parse_flag), -mtune= aside
 * (no macro).  Not taken: sanitizers (__has_feature, not macros) and
 * profile options (they name files; the object cache skips them). */
static const char *const macro_flags[] = {
    "-ffast-math", "-fno-fast-math", "-ffinite-math-only", "-fno-finite-math-only",
    "-fmath-errno", "-fno-math-errno", "-funsafe-math-optimizations",
    "-fno-unsafe-math-optimizations", "-fhonor-infinities", "-fno-honor-infinities",
    "-fhonor-nans", "-fno-honor-nans", "-ffp-model=", "-finline", "-fno-inline",
    "-fpic", "-fPIC", "-fpie", "-fPIE", "-fno-pic", "-fno-PIC", "-fno-pie", "-fno-PIE",
    "-pthread", "-fstack-protector", "-fstack-protector-strong", "-fstack-protector-all",
    "-fno-stack-protector", "-fcf-protection", "-fcf-protection=", "-fexceptions",
    "-fno-exceptions", "-fasynchronous-unwind-tables", "-fno-asynchronous-unwind-tables",
    "-funwind-tables", "-fno-unwind-tables", "-fopenmp-simd", "-fno-openmp-simd", NULL
};

/* Is a a flag the parse must see too: one that changes what the compiler
 * accepts as C -- a warning made an error or not (-W..., -Wno-error=...,
 * -w, -pedantic...) or a language dialect flag (an implicit int or an
 * implicit function declaration is parsed as the compile treated it) --
 * or one that changes the predefined macros (-O..., macro_flags, -m...)?
 * Not -Wl, -Wa, -Wp (other tools' arguments). */
static int parse_flag(const char *a)
{
    static const char *const lang[] = {
        "-fms-extensions", "-fno-ms-extensions", "-fms-compatibility", "-fgnu89-inline",
        "-fno-gnu89-inline", "-fgnu-keywords", "-fno-gnu-keywords", "-fasm", "-fno-asm",
        "-fbuiltin", "-fno-builtin", "-ffreestanding", "-fhosted", "-fblocks", "-fno-blocks",
        "-fdeclspec", "-fno-declspec", "-fdollars-in-identifiers", "-fno-dollars-in-identifiers",
        "-fshort-enums", "-fno-short-enums", "-fshort-wchar", "-fno-short-wchar",
        "-ftrigraphs", "-fno-trigraphs", "-fwritable-strings", "-fgnuc-version=",
        "-fwchar-type=", "-fno-builtin-", "-fpascal-strings", "-fdelayed-template-parsing",
        "-fms-compatibility-version=", "-fno-ms-compatibility", "-fextended-identifiers",
        "-fno-extended-identifiers", "-fdigraphs", "-fno-digraphs", "-fapple-pragma-pack",
        "-fpack-struct", "-fmax-type-align=", "-ffixed-point", "-fno-fixed-point", NULL
    };
    if (strncmp(a, "-W", 2) == 0)
        return a[2] && strncmp(a, "-Wl,", 4) && strncmp(a, "-Wa,", 4) && strncmp(a, "-Wp,", 4);
    if (strcmp(a, "-w") == 0 || strcmp(a, "-pedantic") == 0 || strcmp(a, "-pedantic-errors") == 0
        || strcmp(a, "--pedantic") == 0)
        return 1;
    /* -O, -O0..-O3, -Os, -Oz, -Og, -Ofast (as given: the last one wins
     * there as in the compile); -m ISA, CPU, ABI and code-model flags
     * (-mllvm takes a value: never here) */
    if (a[1] == 'O' || (a[1] == 'm' && a[2] && strncmp(a, "-mtune=", 7) != 0))
        return 1;
    const char *const *lists[] = { lang, macro_flags };
    for (int l = 0; l < 2; l++)
        for (int k = 0; lists[l][k]; k++) {
            const char *f = lists[l][k];
            size_t n = strlen(f);
            if (f[n - 1] == '=' || f[n - 1] == '-' ? strncmp(a, f, n) == 0 : strcmp(a, f) == 0)
                return 1;
        }
    return 0;
}

/* Why input file a is not analysed although it is a source (C++,
 * Objective-C), given the -x language in force (NULL: by
 * suffix); NULL for other inputs (objects, assembly, libraries...). */
static const char *not_c(const char *a, const char *x)
{
    if (x) {
        if (strncmp(x, "c++", 3) == 0 || strncmp(x, "objective-c", 11) == 0)
            return "not C (keel analyses C only)";
        return NULL;
    }
    static const char *const cxx[] = { ".cpp", ".cc", ".cxx", ".c++", ".C", ".cp", ".CPP",
                                       ".ii", ".m", ".mm", ".M", ".mi", ".mii", NULL };
    for (int k = 0; cxx[k]; k++)
        if (kc_has_suffix(a, cxx[k]))
            return "not C (keel analyses C only)";
    return NULL;
}

/* Is -x x a C language keel analyses: C, or preprocessed C (whose line
 * markers name the locations stored, as clang's diagnostics do)? */
static int lang_is_c(const char *x)
{
    return strcmp(x, "c") == 0 || strcmp(x, "cpp-output") == 0
        || strcmp(x, "c-cpp-output") == 0;
}

/* Does a ask for coverage or an instrumentation profile (generated or
 * used)?  Their counts and function hashes must be the plain build's, so
 * keel's text then adds no branch (instrument_set_profile_neutral). */
static int profile_flag(const char *a)
{
    static const char *const prefixes[] = {
        "-fprofile-instr-generate", "-fprofile-instr-use", "-fprofile-generate",
        "-fprofile-use", "-fcs-profile-generate", "-fcoverage-mapping", "-fprofile-arcs",
        "-ftest-coverage", "--coverage", "-fprofile-sample-use", NULL
    };
    for (int k = 0; prefixes[k]; k++)
        if (strncmp(a, prefixes[k], strlen(prefixes[k])) == 0)
            return 1;
    return 0;
}

/* -ffile-prefix-map=OLD=NEW, -fmacro-prefix-map=, -fdebug-prefix-map=:
 * the paths keel embeds in the object are mapped as the compiler maps its
 * own (instrument_add_prefix_map). */
static void prefix_map(const char *a)
{
    static const char *const opts[] = {
        "-ffile-prefix-map=", "-fmacro-prefix-map=", "-fdebug-prefix-map=", NULL
    };
    for (int k = 0; opts[k]; k++) {
        size_t n = strlen(opts[k]);
        const char *eq;
        if (strncmp(a, opts[k], n) == 0 && (eq = strchr(a + n, '=')) != NULL) {
            if (instrument_add_prefix_map(a + n, (size_t)(eq - (a + n)), eq + 1) != 0)
                kc_warn("too many prefix maps: '%s' not applied to keel's paths", a);
            return;
        }
    }
}

/* ---- the pass over the arguments -----------------------------------------
 *
 * kc_parse_args runs in phases over the options and one scratch struct:
 * the defaults from the environment (kc_env_defaults), the arguments with
 * response files' contents in (kc_expand_args), then one pass in which
 * each argument is keel's own option (kc_keel_option) or the compiler's
 * (kc_compiler_arg: a value option, an input or a flag), and the end of
 * the command (kc_args_end).
 */

/* What the pass carries from one argument to the next, beside the options. */
typedef struct {
    const arg_list *args;  /* all arguments, response files' contents in */
    int i;                 /* the argument read (index in args) */
    int lang_c;            /* -x c: 1, -x other: 0, none: by suffix */
    const char *lang_x;    /* the last -x value */
    int inputs;            /* files, -, -l, -Wl, @file: without any, clang links nothing */
    const char *openmp;    /* the -fopenmp[=lib] flag */
} arg_pass;

/* Phase 1: the defaults, from the environment ($KEEL_CC, $KEEL_DB,
 * $KEEL_DISABLE, $KEEL_QUIET, $KEEL_INSTRUMENT, $KEEL_MCA, $KEEL_MCPU,
 * $KEEL_LLVM_MCA, $KEEL_DIRECT, $KEEL_OBJCACHE); keel's options given later override them.
 * -1 (the error said) when $KEEL_INSTRUMENT names no mode. */
static int kc_env_defaults(options *o)
{
    const char *env;
    o->compiler = launcher_compiler ? launcher_compiler
                : (env = getenv("KEEL_CC")) && *env ? env : "clang-19";
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
    o->direct = !((env = getenv("KEEL_DIRECT")) && strcmp(env, "off") == 0);
    o->objcache = !((env = getenv("KEEL_OBJCACHE")) && strcmp(env, "off") == 0);
    return 0;
}

/* Phase 2: argv[1..argc-1] into args, each @file followed by the
 * arguments it holds (marked rsp); a list that could not grow sets o->oom. */
static void kc_expand_args(int argc, char **argv, options *o, arg_list *args)
{
    for (int i = 1; i < argc; i++) {
        if (arg_add(args, argv[i], 0) != 0)
            o->oom = 1;
        if (argv[i][0] == '@' && argv[i][1] && expand_response(args, argv[i] + 1, 0) != 0)
            o->oom = 1;
    }
}

/* Phase 3a: keel's own option a (--keel-..., given on the command line):
 * 0 taken into o, 1 --keel-help, 2 --keel-version, -1 (the error said) an
 * option keel does not know or a bad value. */
static int kc_keel_option(const char *a, options *o)
{
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
    else if (strcmp(a, "--keel-direct=off") == 0 || strcmp(a, "--keel-direct=on") == 0)
        o->direct = a[14] == 'n';
    else if (strcmp(a, "--keel-objcache=off") == 0 || strcmp(a, "--keel-objcache=on") == 0)
        o->objcache = a[17] == 'n';
    else if (strcmp(a, "--keel-help") == 0)
        return 1;
    else if (strcmp(a, "--keel-version") == 0)
        return 2;
    else {
        fprintf(stderr, "keelcc: error: unknown keel option '%s' (see keelcc --keel-help)\n", a);
        return -1;
    }
    return 0;
}

/* -x v: the language of the inputs after it. */
static void set_lang(arg_pass *p, const char *v)
{
    p->lang_c = lang_is_c(v) ? 1 : strcmp(v, "none") == 0 ? -1 : 0;
    p->lang_x = v;
}

/* A value option a (-o, -x, -I, -MF...) and its value, the next argument
 * (taken: p->i moves past it): to the compiler, and to libclang where the
 * parse needs it. */
static void kc_compiler_value(options *o, arg_pass *p, const char *a)
{
    const char *v = p->args->arg[++p->i];
    if (!p->args->rsp[p->i])
        kc_push(o, &o->ncc, &o->cc, v);
    kc_push(o, &o->nxcc, &o->xcc, v);
    if (strcmp(a, "-x") == 0)
        set_lang(p, v);
    if (strcmp(a, "-o") == 0)
        o->output = v;
    if (strcmp(a, "-MF") == 0)
        o->dep_file = v;
    if (cc_in_list(clang_value_opts, a)) {
        kc_push(o, &o->nclang, &o->clang, a);
        kc_push(o, &o->nclang, &o->clang, v);
    }
}

/* An input a (a file, or - for standard input): a C source to analyse (by
 * the -x in force, else by suffix), or one keel names as not C, or
 * neither (objects, libraries...). */
static void kc_compiler_input(options *o, arg_pass *p, const char *a)
{
    p->inputs++;
    const char *why;
    int lang_c = p->lang_c;
    if (strcmp(a, "-") != 0 && (lang_c == 1 || (lang_c == -1 && (kc_has_suffix(a, ".c") || kc_has_suffix(a, ".i"))))) {
        kc_push(o, &o->nsources, &o->sources, a);
        if (lang_c == -1 ? kc_has_suffix(a, ".i") : strcmp(p->lang_x, "c") != 0)
            o->cpp_output = 1;
    }
    else if (strcmp(a, "-") != 0 && (why = not_c(a, lang_c == 0 ? p->lang_x : NULL))) {
        kc_push(o, &o->nnotc, &o->notc, a);
        kc_push(o, &o->nnotc, &o->notc, why);
    }
}

/* A flag a (no value argument after it): what the command does (-E, -c,
 * -S, -MD...), its joined values (-ofile, -MFfile, -xc), -fopenmp,
 * profile and prefix-map flags, and the flags the parse needs too. */
static void kc_compiler_flag(options *o, arg_pass *p, const char *a)
{
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
        set_lang(p, a + 2);
    if (strncmp(a, "-fopenmp", 8) == 0 && (a[8] == '\0' || a[8] == '='))
        p->openmp = a;
    if (profile_flag(a))
        instrument_set_profile_neutral(1);
    prefix_map(a);
    if (kc_joined_prefix(clang_value_opts, a) || strncmp(a, "-std=", 5) == 0
        || strncmp(a, "--sysroot=", 10) == 0 || strncmp(a, "--target=", 9) == 0
        || strcmp(a, "-ansi") == 0 || strcmp(a, "-m32") == 0 || strcmp(a, "-m64") == 0
        || strcmp(a, "-funsigned-char") == 0 || strcmp(a, "-fsigned-char") == 0
        || strcmp(a, "-nostdinc") == 0 || strcmp(a, "-undef") == 0 || parse_flag(a))
        kc_push(o, &o->nclang, &o->clang, a);
}

/* Phase 3b: compiler argument a, already passed on to the compiler(s):
 * counted as a link input where it is one, then sorted as a value option
 * with its value, an input, or a flag. */
static void kc_compiler_arg(options *o, arg_pass *p, const char *a)
{
    if (strcmp(a, "-Xlinker") == 0 || strncmp(a, "-l", 2) == 0 || strncmp(a, "-Wl,", 4) == 0)
        p->inputs++;
    if (cc_in_list(cc_value_options, a) && p->i + 1 < p->args->n)
        kc_compiler_value(o, p, a);
    else if (a[0] != '-' || strcmp(a, "-") == 0)
        kc_compiler_input(o, p, a);
    else
        kc_compiler_flag(o, p, a);
}

/* Phase 4: the end of the command: the parse gets -fopenmp as the
 * compiler sees it (the walker keeps the loops under directives visible:
 * plugin/walker.c), and whether the command links. */
static void kc_args_end(options *o, const arg_pass *p)
{
    if (p->openmp)
        kc_push(o, &o->nclang, &o->clang, p->openmp);
    o->links = o->compiles && !o->c_or_s && p->inputs > 0;
}

/* Fills o from the environment and the command line (argv[0] is keelcc):
 * 0 done (o->oom: an argument list could not grow, run the plain
 * compiler), 1 --keel-help, 2 --keel-version, -1 bad keel option or
 * $KEEL_INSTRUMENT (the error said).  The strings o holds are argv's or
 * response files' and live as long as the process. */
int kc_parse_args(int argc, char **argv, options *o)
{
    if (kc_env_defaults(o) != 0)
        return -1;
    kc_push(o, &o->ncc, &o->cc, o->compiler);
    kc_push(o, &o->nxcc, &o->xcc, o->compiler);
    static arg_list args;
    kc_expand_args(argc, argv, o, &args);
    if (o->oom)
        return 0;
    arg_pass p = { .args = &args, .lang_c = -1 };
    for (p.i = 0; p.i < args.n; p.i++) {
        const char *a = args.arg[p.i];
        int from_rsp = args.rsp[p.i];
        if (a[0] == '@' && a[1] && !from_rsp) {
            p.inputs++;
            kc_push(o, &o->ncc, &o->cc, a);      /* the compiler reads it itself */
            continue;
        }
        int keel = strncmp(a, "--keel-", 7) == 0;
        if (!keel)
            kc_push(o, &o->nxcc, &o->xcc, a);
        if (keel && !from_rsp) {
            int r = kc_keel_option(a, o);
            if (r != 0)
                return r;
            continue;
        }
        /* the compiler reads a response file's arguments itself */
        if (!from_rsp)
            kc_push(o, &o->ncc, &o->cc, a);
        kc_compiler_arg(o, &p, a);
    }
    kc_args_end(o, &p);
    return 0;
}
