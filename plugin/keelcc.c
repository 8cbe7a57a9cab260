/*
 * keelcc.c -- the drop-in compiler driver.
 *
 *     keelcc [--keel-...] <compiler arguments>
 *     keelcc [--keel-...] COMPILER <compiler arguments>   (launcher form)
 *
 * keelcc runs the real compiler (clang-19, or $KEEL_CC, or the COMPILER
 * named first) with the arguments unchanged except for keel's own --keel-*
 * options, and exits with its exit status.  While the compiler runs,
 * keelcc parses every C source of the command with libclang (same
 * -I/-D/-U/-std flags), builds the loop IR and, once the compile has
 * succeeded, writes it to the attribute database in one transaction per
 * source.  Anything that goes wrong in the analysis is one
 * warning line on stderr; it never changes the compile's result.  A source
 * whose command and files are unchanged since the build the database holds
 * is not parsed again (direct mode, kc_direct.c): its stored instrumented
 * text is compiled and nothing is written; for a single-source -c command
 * whose object the object cache holds, not even compiled (kc_objcache.c).
 *
 * This file is main (the steps in order) with the walker's loading and the
 * analyse and record steps; kc_int.h lists keelcc's other files, one step
 * each (arguments, build cache, instrumentation, llvm-mca).
 */
#include "kc_int.h"

static void usage(FILE *out, const char *compiler)
{
    fprintf(out,
        "usage: keelcc [keel options] <compiler arguments>\n"
        "       keelcc [keel options] COMPILER <compiler arguments>   (launcher form)\n"
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
        "                        libkeelrt before each loop nest that could be offloaded\n"
        "                        (parallel, countable), which decides CPU or GPU at run\n"
        "                        time (KEEL_VERBOSE=2 shows it); offload:\n"
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
        "  --keel-direct=off     always parse and analyse, even when the database holds\n"
        "                        this very build of unchanged files (also KEEL_DIRECT=off)\n"
        "  --keel-objcache=off   compile even when the object cache (DB.objcache/, beside\n"
        "                        the database) holds the object of this unchanged -c\n"
        "                        compile (also KEEL_OBJCACHE=off; its size:\n"
        "                        KEEL_OBJCACHE_SIZE MiB, default 512)\n"
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

/* One warning line (none with --keel-quiet: ku_quiet). */
void kc_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ku_vmsg("keelcc", "warning", fmt, ap);
    va_end(ap);
}

int kc_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Run the real compiler with argv in a child process, its stderr to
 * stderr_fd when that is not -1; returns its pid, or -1 (with an error
 * line when report is set). */
pid_t kc_start_compiler(char **argv, int stderr_fd, int report)
{
    ku_io io = { .err_fd = stderr_fd };
    pid_t pid;
    int rc = cc_spawn(argv, &io, &pid);
    if (rc == 0)
        return pid;
    if (report)
        ku_msg("keelcc", "error", "cannot run '%s': %s", argv[0], strerror(rc));
    return -1;
}

/* The compiler's exit status (ku_wait: 128 + N when signal N killed it),
 * 127 when it could not be started or waited for. */
int kc_wait_compiler(pid_t pid)
{
    int st = pid < 0 ? -1 : ku_wait(pid);
    return st < 0 ? 127 : st;
}

/* Inside the build's write transaction: its llvm-mca rows, then its
 * direct-mode entry when it may be reused (dkey set by record()). */
static int tu_hook(void *ctx, db *d, int64_t tu_id, const int64_t *loop_ids, char *err,
                   size_t errlen)
{
    analysed *r = ctx;
    if (r->mca && mcr_store(&kc_mca_cfg, r->mca, d, tu_id, loop_ids, err, errlen) != 0)
        return -1;
    if (!r->dkey[0])
        return 0;
    db_direct_entry e = { .inputs = r->inputs.s, .text = r->ihave == 1 ? r->itext : NULL,
                          .text_len = r->ihave == 1 ? r->ilen : 0,
                          .warnings = r->warns.s ? r->warns.s : "",
                          .search = r->search };
    return db_direct_put(d, tu_id, r->dkey, &e, err, errlen);
}

/* A source's own warning: printed now and kept for a direct-mode hit. */
static void warn_src(analysed *r, const char *fmt, ...) KU_PRINTF(2, 3);
static void warn_src(analysed *r, const char *fmt, ...)
{
    char line[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    kc_warn("%s", line);
    ku_buf_put(&r->warns, line);
    ku_buf_putc(&r->warns, '\n');
}

/* walker.c's walk_file_read: list each file the parse read. */
static const options *walking_opts;
static void file_read(void *ctx, const char *name)
{
    analysed *r = ctx;
    if (!r->inputs_bad && dc_inputs_add(&r->inputs, name, &walking_opts->start) != 0)
        r->inputs_bad = 1;
}

/* ---- the walker, loaded when first needed -----------------------------------
 *
 * walker.c is a module, keelcc-walker.so (plugin/CMakeLists.txt): loading
 * it brings in libclang and LLVM, about 0.1 s of CPU for the dynamic
 * linker and LLVM's static constructors, which a direct-mode hit never
 * pays.  It is found next to an installed keelcc (bin/../lib), else in the
 * build tree (KEEL_WALKER). */

static int (*walker_walk)(const char *, int, const char *const *, ir_tu **, char *, size_t);
static void (**walker_read)(void *, const char *);
static void **walker_read_ctx;

void kc_walker_path(char *out, size_t n)
{
    if (ku_beside_self("../lib/keelcc-walker.so", R_OK, out, n) != 0)
        snprintf(out, n, "%s", KEEL_WALKER);
}

/* 0, or -1 with a message (each source's analysis then fails with it). */
static int load_walker(char *err, size_t errlen)
{
    static int tried;
    static char why[PATH_MAX + 512];
    if (!tried) {
        tried = 1;
        char path[PATH_MAX + 64];
        kc_walker_path(path, sizeof path);
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h) {
            *(void **)&walker_walk = dlsym(h, "walk_file");
            walker_read = (void (**)(void *, const char *))dlsym(h, "walk_file_read");
            walker_read_ctx = (void **)dlsym(h, "walk_file_read_ctx");
        }
        if (!walker_walk || !walker_read || !walker_read_ctx) {
            const char *e = dlerror();
            snprintf(why, sizeof why, "cannot load the libclang walker %s: %s", path,
                     e ? e : "symbols missing");
            walker_walk = NULL;
        }
    }
    if (!walker_walk)
        return ku_fail(err, errlen, "%s", why);
    return 0;
}

/* The per-loop fact `offload` of a command's loops: whether its OpenMP
 * target regions are built with an offload image.  "image" when the
 * command names offload targets (-fopenmp-targets=, --offload-arch=,
 * --offload=, gcc's -foffload= but -foffload=disable); "host" when it
 * does not and the compiler is clang (clang then compiles a target region
 * as host code that runs directly, with no offload runtime in between:
 * no host fallback to pay), or names -foffload=disable; NULL without
 * -fopenmp, or for another compiler (gcc offloads to the targets it was
 * configured with, which the command does not show). */
static const char *offload_fact(const options *o)
{
    int openmp = 0, image = 0, disable = 0;
    for (int k = 0; k < o->nxcc; k++) {
        const char *a = o->xcc[k];
        if (strncmp(a, "-fopenmp", 8) == 0 && (a[8] == '\0' || a[8] == '='))
            openmp = 1;
        else if (strcmp(a, "-foffload=disable") == 0)
            disable = 1;
        else if (cc_offload_target(a) || strncmp(a, "--offload=", 10) == 0 ||
                 strncmp(a, "-foffload=", 10) == 0)
            image = 1;
    }
    if (!openmp)
        return NULL;
    if (image && !disable)
        return "image";
    const char *cc = o->compiler ? strrchr(o->compiler, '/') : NULL;
    cc = cc ? cc + 1 : o->compiler;
    return disable || (cc && strstr(cc, "clang")) ? "host" : NULL;
}

/* The pipeline's first two steps per source, with no database open:
 * parse (walker.c: libclang -> loop IR), then analyse (store.c: IPDA,
 * idioms, classes, counts, the runtime's launch facts).  The third step,
 * store, is record() once the compile succeeded. */
static void analyse(const options *o, analysed *res)
{
    walking_opts = o;
    for (int i = 0; i < o->nsources; i++) {
        char abs[PATH_MAX], e2[512];
        if (res[i].hit)
            continue;
        res[i].path = strdup(realpath(o->sources[i], abs) ? abs : o->sources[i]);
        res[i].ir = NULL;
        res[i].an = NULL;
        res[i].err[0] = '\0';
        int wrc = load_walker(res[i].err, sizeof res[i].err);
        if (wrc == 0) {
            *walker_read = res[i].dkey[0] ? file_read : NULL;
            *walker_read_ctx = &res[i];
            wrc = walker_walk(o->sources[i], o->nclang, (const char *const *)o->clang,
                              &res[i].ir, res[i].err, sizeof res[i].err);
            *walker_read = NULL;
        }
        if (wrc != 0) {
            res[i].ir = NULL;
            continue;
        }
        for (int k = 0; k < res[i].ir->nnotes; k++)
            warn_src(&res[i], "%s: %s", o->sources[i], res[i].ir->notes[k]);
        if (o->dump_ir)
            ir_dump(res[i].ir, stderr);
        if (store_analyse(res[i].ir, &res[i].an, e2, sizeof e2) != 0)
            warn_src(&res[i], "%s: analysis failed, loops recorded without its results: %s",
                     o->sources[i], e2);
        store_analysis_set_offload(res[i].an, offload_fact(o));
        for (int k = 0; k < store_analysis_nnotes(res[i].an); k++)
            warn_src(&res[i], "%s: %s", o->sources[i], store_analysis_note(res[i].an, k));
        kc_build_hashes(o, o->sources[i], res[i].ir, res[i].variant, res[i].hash);
    }
}

/* The third step: write each source's build (args: the command's
 * arguments as translation_units.args), or for a direct-mode hit proven
 * by the preprocessor, bring its row up to this command. */
static void record(const options *o, analysed *res, const char *args)
{
    char err[512], cwd[PATH_MAX];
    db *d = NULL;
    if (db_open(o->db_path, DB_WRITE, &d, err, sizeof err) != 0) {
        kc_warn("%s (loops not recorded)", err);
        return;
    }
    if (!getcwd(cwd, sizeof cwd))
        strcpy(cwd, ".");
    for (int i = 0; i < o->nsources; i++) {
        char object[2 * PATH_MAX + 2];
        if (res[i].hit) {
            /* its rows are the database's already; one reused from
             * another search list names this command's object */
            kc_object_of(o, i, object, sizeof object);
            if (res[i].learn
                && db_direct_refresh(d, res[i].hit_tu, object[0] ? object : NULL,
                                     args ? args : "[]", res[i].learn ? res[i].search : NULL,
                                     err, sizeof err) != 0)
                kc_warn("%s: build reused, its row not updated: %s", o->sources[i], err);
            continue;
        }
        if (!kc_direct_cacheable(o, &res[i]))
            res[i].dkey[0] = '\0';
        kc_object_of(o, i, object, sizeof object);
        db_tu_row row = {
            .path = res[i].path, .hash = res[i].hash[0] ? res[i].hash : NULL,
            .variant = res[i].variant, .object = object[0] ? object : NULL,
            .args = args ? args : "[]",
            .compiler = o->compiler, .directory = cwd,
            .status = res[i].ir ? "ok" : "error",
            .message = res[i].ir ? NULL : res[i].err,
        };
        if (!res[i].ir)
            kc_warn("%s: analysis skipped: %s", o->sources[i], res[i].err);
        if (store_tu_with(d, res[i].ir, res[i].an, &row, tu_hook, &res[i], err, sizeof err) != 0)
            kc_warn("%s: loops not recorded: %s", o->sources[i], err);
    }
    db_close(d);
}

/* Out of memory reading the command line: no analysis, the compiler run
 * on argv itself (keel's own options removed in place, no allocation). */
static int plain_compile(const options *o, int argc, char **argv)
{
    kc_warn("out of memory reading the command line: compiled without analysis");
    int n = 0;
    argv[n++] = (char *)o->compiler;
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--keel-", 7) != 0)
            argv[n++] = argv[i];
    argv[n] = NULL;
    return kc_wait_compiler(kc_start_compiler(argv, -1, 1));
}

/* The modes this command can have: no instrumentation without libkeelrt
 * (its path into lib) or with GCC (no llvm-mca either); the inputs that are
 * not C are named. */
static void settle_modes(options *o, char lib[PATH_MAX + 64])
{
    char header[PATH_MAX + 64];
    static char why[PATH_MAX + 128];
    kc_runtime_paths(header, lib, sizeof header);
    if (o->instrument == INSTRUMENT_OFF)
        o->plain_why = "built with instrumentation off (--keel-instrument=off or"
                       " KEEL_INSTRUMENT=off)";
    if (o->analysis != 1) {
        o->instrument = INSTRUMENT_OFF;
        o->plain_why = "analysed only (keelcc --keel-analysis=only, as keel scan runs it):"
                       " nothing was compiled";
    }
    if (o->instrument != INSTRUMENT_OFF && (access(header, R_OK) != 0 || access(lib, R_OK) != 0)) {
        kc_warn("libkeelrt not found (%s): building without instrumentation", lib);
        o->instrument = INSTRUMENT_OFF;
        snprintf(why, sizeof why, "libkeelrt not found (%s): built without instrumentation", lib);
        o->plain_why = why;
    }
    /* The instrumented compile needs clang's -ivfsoverlay, the llvm-mca
     * stage clang's remarks: GCC builds as given (analysed only). */
    const char *cbase = strrchr(o->compiler, '/');
    cbase = cbase ? cbase + 1 : o->compiler;
    if (strstr(cbase, "gcc") && !strstr(cbase, "clang")) {
        if (o->instrument != INSTRUMENT_OFF)
            o->plain_why = "compiled by GCC: keelcc instruments clang builds only";
        o->instrument = INSTRUMENT_OFF;
        o->mca = 0;
    }
    for (int k = 0; o->analysis && o->compiles && k + 1 < o->nnotc; k += 2)
        kc_warn("%s: not analysed: %s", o->notc[k], o->notc[k + 1]);
}

/* Whether this command's rows are to be written: some source was analysed
 * anew, or a reused build learned another search list. */
static int to_record(const options *o, const analysed *res, int misses)
{
    int learned = 0;
    for (int i = 0; res && i < o->nsources; i++)
        learned |= res[i].hit && res[i].learn;
    return res && (misses || learned);
}

/* The plain compile with its messages printed and kept for the object
 * cache (oc->clean when they are). */
static int plain_kept(options *o, kc_objstore *oc)
{
    char path[KU_TMP_PATH];
    int fd = ku_mkstemp(path, sizeof path, NULL, "keel-stderr-", "");
    if (fd < 0)
        return kc_wait_compiler(kc_start_compiler(o->cc, -1, 1));
    int status = kc_wait_compiler(kc_start_compiler(o->cc, fd, 1));
    size_t len;
    char *msgs = ku_read_file(path, &len);
    if (msgs) {
        fwrite(msgs, 1, len, stderr);
        ku_buf_putn(&oc->err, msgs, len);
        oc->clean = status == 0;
    } else {
        /* the messages cannot be read back: copy them as they are */
        char chunk[4096];
        ssize_t n;
        lseek(fd, 0, SEEK_SET);
        while ((n = read(fd, chunk, sizeof chunk)) > 0)
            fwrite(chunk, 1, (size_t)n, stderr);
    }
    free(msgs);
    close(fd);
    unlink(path);
    return status;
}

/* Analyse, then compile the instrumented copies through the overlay while
 * the llvm-mca step runs; the plain compile when that cannot be done.
 * A command that also links records its rows when the compiler starts the
 * linker (every compile has succeeded then), so that the link object
 * carries their facts (kc_link_wait_*); *recorded says it did.  Returns
 * the compile's status. */
static int compile_instrumented(options *o, const options *user, analysed *res, int misses,
                                int user_ncc, int *recorded)
{
    int status = -1;
    if (o->mca && misses)
        kc_mca_early(user, res);     /* a large source's, beside the parse */
    analyse(o, res);
    instrumented *ins = calloc((size_t)o->nsources, sizeof *ins);
    instrumented_job job;
    kc_link_wait lw;
    char first_error[512] = "", overlay[PATH_MAX] = "";
    ku_buf quotes = { 0 };
    int made = ins ? kc_make_copies(o, res, ins, overlay, sizeof overlay, &quotes) : 0;
    int armed = made > 0 && kc_link_wait_arm(o, &lw);
    int started = made > 0 && kc_start_instrumented(o, overlay, &job) == 0;
    if (armed)
        kc_link_wait_started(o, &lw);
    if (o->mca && misses)
        kc_mca_stage(user, res);     /* while the instrumented compile runs */
    if (armed && started && kc_link_wait_request(&lw)) {
        if (to_record(o, res, misses)) {
            char *args = store_json_array(user_ncc - 1, o->cc + 1);
            record(o, res, args);
            free(args);
        }
        *recorded = 1;
        o->nown = 0;
        for (int i = 0; i < o->nsources && o->nown < (int)(sizeof o->own / sizeof *o->own); i++)
            if (res[i].hash[0])
                snprintf(o->own[o->nown++], sizeof o->own[0], "%s", res[i].hash);
            else if (res[i].hit)
                snprintf(o->own[o->nown++], sizeof o->own[0], "#%lld", (long long)res[i].hit_tu);
        kc_link_wait_answer(o, &lw);
    }
    kc_objstore *oc = o->oc && o->oc->want ? o->oc : NULL;
    if (started) {
        status = kc_finish_instrumented(&job, first_error, sizeof first_error, &quotes,
                                        oc ? &oc->err : NULL, 1);
        if (oc && status == 0)
            oc->clean = 1;
    }
    if (armed)
        kc_link_wait_end(&lw);
    ku_buf_free(&quotes);
    for (int i = 0; ins && i < o->nsources; i++)
        if (ins[i].temp[0])
            unlink(ins[i].temp);
    if (overlay[0])
        unlink(overlay);
    free(ins);
    if (status < 0) {
        /* the build has no call: say so for every loop */
        char why[640];
        if (first_error[0])
            snprintf(why, sizeof why, "the instrumented compile failed (%s): built without"
                     " instrumentation", first_error);
        else
            snprintf(why, sizeof why, "the instrumented compile could not be started: built"
                     " without instrumentation");
        for (int i = 0; made > 0 && i < o->nsources; i++)
            store_analysis_no_sites(res[i].an, why);
        /* a source with nothing to instrument: the compile an object
         * cache entry may hold, its messages kept */
        if (oc && made == 0 && res[0].ihave == 0)
            status = plain_kept(o, oc);
        else
            status = kc_wait_compiler(kc_start_compiler(o->cc, -1, 1));
        if (status == 0 && first_error[0])
            kc_warn("instrumented compile failed (%s); built without instrumentation",
                    first_error);
        else if (status == 0 && made > 0 && !started)
            kc_warn("could not start the instrumented compile; built without instrumentation");
    }
    return status;
}

/* What main holds for the sources and the arguments, freed. */
static void free_all(options *o, analysed *res)
{
    for (int i = 0; res && i < o->nsources; i++) {
        ku_buf_free(&res[i].pp_files);
        free(res[i].path);
        ir_tu_free(res[i].ir);
        store_analysis_free(res[i].an);
        mcr_result_free(res[i].mca);
        ku_buf_free(&res[i].inputs);
        ku_buf_free(&res[i].warns);
        free(res[i].itext);
    }
    if (kc_mca_configured())
        mcr_config_free(&kc_mca_cfg);
    free(res);
    free(o->cc);
    free(o->xcc);
    free(o->sources);
    free(o->clang);
}

/* A command compiled as given (no instrumentation): its sources analysed,
 * and measured by llvm-mca, while the compiler runs.  The compiler's exit
 * status, or -1 when it could not be started. */
static int compile_analysed(options *o, const options *user, analysed *res, int misses)
{
    pid_t pid = o->analysis == 2 ? 0 : kc_start_compiler(o->cc, -1, 1);
    if (pid < 0)
        return -1;
    if (res && o->mca && misses)
        kc_mca_early(user, res);
    if (res)
        analyse(o, res);
    for (int i = 0; res && i < o->nsources; i++)
        if (res[i].an && store_analysis_no_sites(res[i].an, o->plain_why ? o->plain_why
                                                 : "built without instrumentation") != 0)
            kc_warn("%s: out of memory recording why no loop is instrumented", o->sources[i]);
    if (res && o->mca && misses)
        kc_mca_stage(user, res);
    return pid ? kc_wait_compiler(pid) : 0;
}

int main(int argc, char **argv)
{
    if (getenv("KEEL_LINK_WAIT"))    /* run by the compiler as its linker */
        return kc_link_wrapper(argc, argv);
    options o;
    memset(&o, 0, sizeof o);
    clock_gettime(CLOCK_REALTIME, &o.start);
    argc = kc_launcher_form(argc, argv);
    int pr = kc_parse_args(argc, argv, &o);
    if (pr < 0)
        return 2;
    ku_quiet = o.quiet;
    if (o.oom)
        return plain_compile(&o, argc, argv);
    if (pr == 1 || (argc == 2 && strcmp(argv[1], "--help") == 0)) {
        usage(stdout, o.compiler);
        return 0;
    }
    if (pr == 2) {
        printf("keelcc (keel %s), compiling with %s\n", KEEL_VERSION, o.compiler);
        return 0;
    }

    char lib[PATH_MAX + 64];
    settle_modes(&o, lib);
    int want = o.analysis && o.compiles && o.nsources > 0;
    int instrument = want && o.instrument != INSTRUMENT_OFF;
    /* The count of the user's arguments: what the database records and what
     * a fallback compile runs, without the runtime link arguments. */
    int user_ncc = o.ncc;
    if (o.links && o.instrument != INSTRUMENT_OFF) {
        kc_add_runtime_link(&o, lib);
        if (o.oom) {
            /* no runtime to link: nothing may be instrumented */
            kc_warn("out of memory adding libkeelrt to the link: building without instrumentation");
            o.oom = 0;
            o.ncc = user_ncc;
            o.cc[o.ncc] = NULL;
            o.instrument = INSTRUMENT_OFF;
            o.plain_why = "out of memory adding libkeelrt to the link: built without"
                          " instrumentation";
            instrument = 0;
        }
    }
    /* The llvm-mca stage compiles to assembly with the user's arguments. */
    options user = o;
    user.ncc = o.nxcc;
    user.cc = o.xcc;

    analysed *res = want ? calloc((size_t)o.nsources, sizeof *res) : NULL;
    for (int i = 0; res && i < o.nsources; i++)
        res[i].ihave = -1;
    if (res)
        kc_direct_lookup(&o, res);
    /* An unchanged single-source -c rebuild: the object its last compile
     * made, with that compile's messages and keel's warnings; a command
     * that links unchanged sources: their objects, then the link */
    if (res && instrument && o.nsources == 1 && kc_objcache_hit(&o, &res[0])) {
        if (res[0].warns.s)
            ku_buf_put(&kc_mca_deferred, res[0].warns.s);
        kc_mca_flush(0);
        free_all(&o, res);
        return 0;
    }
    int linked;
    if (res && instrument && o.links && kc_objcache_link(&o, res, user_ncc, &linked)) {
        for (int i = 0; i < o.nsources; i++)
            if (res[i].warns.s)
                ku_buf_put(&kc_mca_deferred, res[i].warns.s);
        kc_mca_flush(linked);
        free_all(&o, res);
        return linked;
    }
    kc_objstore oc = { 0 };
    if (res && instrument && o.nsources == 1 && kc_objcache_prepare(&o, &res[0], &oc))
        o.oc = &oc;
    int misses = 0;
    for (int i = 0; res && i < o.nsources; i++)
        misses += !res[i].hit;
    if (res && misses)
        kc_mca_prepare(&o, &user);   /* llvm-mca's input from a -g object */
    int status, recorded = 0;
    if (instrument && res) {
        status = compile_instrumented(&o, &user, res, misses, user_ncc, &recorded);
    } else if ((status = compile_analysed(&o, &user, res, misses)) < 0) {
        return 127;
    }
    if (res)
        kc_mca_after(&user, res, status);
    /* A hit's warnings are those its build printed. */
    for (int i = 0; res && i < o.nsources; i++)
        if (res[i].hit && res[i].warns.s)
            ku_buf_put(&kc_mca_deferred, res[i].warns.s);
    kc_mca_flush(status);
    /* A failed compile has told the user already; its stale rows stay. */
    o.ncc = user_ncc;
    o.cc[o.ncc] = NULL;
    if (status == 0 && !recorded && to_record(&o, res, misses)) {
        char *args = store_json_array(o.ncc - 1, o.cc + 1);
        record(&o, res, args);
        free(args);
    }
    if (oc.want && status == 0)
        kc_objcache_store(&o, &res[0], &oc);
    kc_objcache_end(&oc);
    free_all(&o, res);
    return status;
}
