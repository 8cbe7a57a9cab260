/*
 * keelcc.c -- the drop-in compiler driver.
 *
 *     keelcc [--keel-...] <compiler arguments>
 *     keelcc [--keel-...] COMPILER <compiler arguments>   (launcher form)
 *
 * keelcc runs the real compiler (clang-19, or $KEEL_CC, or the COMPILER
 * named first) with the arguments unchanged except for keel's own --keel-*
 * options, and exits with its exit status.  While the compiler runs, keelcc parses every C source of the
 * command with libclang (same -I/-D/-U/-std flags), builds the loop IR and,
 * once the compile has succeeded, writes it to the attribute database in one
 * transaction per source.  Anything that goes wrong in the analysis is one
 * warning line on stderr; it never changes the compile's result.  A source
 * whose command and files are unchanged since the build the database holds
 * is not parsed again (direct mode, below): its stored instrumented text is
 * compiled and nothing is written.
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
static pid_t start_compiler(char **argv, int stderr_fd, int report)
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
static int wait_compiler(pid_t pid)
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
void kc_absolute_db(const char *db_path, char *out, size_t n)
{
    char cwd[PATH_MAX];
    if (db_path[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(out, n, "%s", db_path);
    else
        snprintf(out, n, "%s/%s", cwd, db_path);
}

/* ---- the instrumented compile ---------------------------------------------
 *
 * The compiler is run with the user's arguments unchanged plus
 * `-ivfsoverlay OVERLAY`: a virtual file system overlay (clang's YAML
 * format, 'use-external-names': false) in which each instrumented source's
 * own path holds the instrumented text.  clang therefore compiles "the
 * original file": quoted #includes search its own folder first and nothing
 * else, __FILE__, diagnostics, dependency files (with clang's own escaping),
 * -save-temps names, the object's STT_FILE symbol and debug information all
 * name the original path, and the temporary copy's name appears nowhere
 * (objects are reproducible).  The copy is given the source's modification
 * time, so __TIMESTAMP__ is the source's too.  Sources named inside response
 * files are covered as well, since the command line is not rewritten.
 */

typedef struct {
    char temp[PATH_MAX];      /* instrumented copy, "" when the source is not */
} instrumented;

/* Can s be a YAML scalar that clang reads back as the same bytes: valid
 * UTF-8 with no control characters (a path that is not stays
 * uninstrumented)? */
static int yaml_safe(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 0 : (*p & 0xe0) == 0xc0 ? 1 : (*p & 0xf0) == 0xe0 ? 2
              : (*p & 0xf8) == 0xf0 ? 3 : -1;
        if (n < 0 || *p < 0x20 || *p == 0x7f || (n == 1 && *p < 0xc2))
            return 0;
        p++;
        for (int k = 0; k < n; k++, p++)
            if ((*p & 0xc0) != 0x80)
                return 0;
    }
    return 1;
}

/* Append s as a single-quoted YAML scalar (quotes doubled, bytes as they are). */
static void yaml_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

/* The absolute names under which clang may look the source up: the path as
 * given when absolute, else joined to the working directory as getcwd() and
 * $PWD (which LLVM prefers when it names the same folder) spell it, and its
 * real path.  Distinct names only; returns how many (at most 3). */
static int source_names(const char *src, char names[3][PATH_MAX * 2 + 2])
{
    int n = 0;
    char cwd[PATH_MAX], real[PATH_MAX];
    const char *cands[3] = { NULL, NULL, NULL };
    const char *pwd = getenv("PWD");
    if (src[0] == '/') {
        snprintf(names[n++], sizeof names[0], "%s", src);
    } else {
        if (getcwd(cwd, sizeof cwd))
            cands[0] = cwd;
        if (pwd && pwd[0] == '/')
            cands[1] = pwd;
        for (int i = 0; i < 2; i++)
            if (cands[i])
                snprintf(names[n++], sizeof names[0], "%s/%s", cands[i], src);
    }
    if (realpath(src, real))
        snprintf(names[n++], sizeof names[0], "%s", real);
    /* drop duplicates */
    int m = 0;
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int k = 0; k < m && !dup; k++)
            dup = strcmp(names[k], names[i]) == 0;
        if (!dup && m != i)
            memcpy(names[m], names[i], sizeof names[0]);
        m += !dup;
    }
    return m;
}

/* clang quotes the physical line of each diagnostic.  Where keel's text
 * went onto one of the user's lines, the quote of that line is put back to
 * the user's own: quotes[] holds, for every such line, the instrumented
 * line and the source's as clang prints them (tabs to the next multiple of
 * 8), each NUL-terminated.  Only for a copy with the source's line count
 * (keel's text added no line; else the lines it did add are its own). */
static void quote_line(ku_buf *b, const char *s, size_t n)
{
    size_t col = 0;
    while (n > 0 && s[n - 1] == '\r')
        n--;
    for (size_t k = 0; k < n; k++, col++) {
        if (s[k] == '\t') {
            ku_buf_putc(b, ' ');
            while ((col + 1) % 8)
                ku_buf_putc(b, ' '), col++;
        } else
            ku_buf_putc(b, s[k]);
    }
    ku_buf_putn(b, "", 1);
}

static void quote_pairs(ku_buf *quotes, const char *src, size_t len, const char *text,
                        size_t tlen)
{
    size_t ls = 0, lt = 0;
    for (size_t k = 0; k < len; k++)
        ls += src[k] == '\n';
    for (size_t k = 0; k < tlen; k++)
        lt += text[k] == '\n';
    if (ls != lt)
        return;
    size_t a = 0, b = 0;
    while (a <= len && b <= tlen) {
        const char *ea = memchr(src + a, '\n', len - a), *eb = memchr(text + b, '\n', tlen - b);
        size_t na = ea ? (size_t)(ea - src) - a : len - a, nb = eb ? (size_t)(eb - text) - b : tlen - b;
        if (na != nb || memcmp(src + a, text + b, na) != 0) {
            quote_line(quotes, text + b, nb);
            quote_line(quotes, src + a, na);
        }
        if (!ea || !eb)
            break;
        a += na + 1;
        b += nb + 1;
    }
}

/* Each line of msgs (len bytes) that quotes an instrumented line -- the
 * line itself, or after the "  12 | " gutter -- with the source's line
 * instead, to out. */
static void restore_quotes(const char *msgs, size_t len, const ku_buf *quotes, FILE *out)
{
    size_t p = 0;
    while (p < len) {
        const char *nl = memchr(msgs + p, '\n', len - p);
        size_t n = nl ? (size_t)(nl - msgs) - p : len - p;
        const char *line = msgs + p, *fix = NULL;
        size_t keep = 0;
        for (size_t q = 0; quotes->s && q < quotes->len && !fix;) {
            const char *from = quotes->s + q, *to = from + strlen(from) + 1;
            size_t fl = strlen(from);
            if (fl <= n && memcmp(line + n - fl, from, fl) == 0
                && (fl == n || (n - fl >= 2 && memcmp(line + n - fl - 2, "| ", 2) == 0))) {
                fix = to;
                keep = n - fl;
            }
            q = (size_t)(to - quotes->s) + strlen(to) + 1;
        }
        if (fix) {
            fwrite(line, 1, keep, out);
            fputs(fix, out);
        } else
            fwrite(line, 1, n, out);
        if (nl)
            fputc('\n', out);
        p += n + (nl ? 1 : 0);
    }
}

/* The file name whose loops instrumentation edits in source text src:
 * the source's own path, or for preprocessed text (its first line a
 * `# N "file"` marker, as `clang -E` and `gcc -E` write) the file that
 * marker names, resolved as the walker stores presumed locations. */
static void presumed_source(const char *src, size_t len, const char *path, char *out, size_t n)
{
    snprintf(out, n, "%s", path);
    size_t i = 0;
    if (len < 5 || src[0] != '#')
        return;
    for (i = 1; i < len && src[i] == ' '; i++)
        ;
    size_t d = i;
    while (i < len && src[i] >= '0' && src[i] <= '9')
        i++;
    if (i == d || i >= len || src[i] != ' ')
        return;
    while (i < len && src[i] == ' ')
        i++;
    if (i >= len || src[i] != '"')
        return;
    char name[PATH_MAX], real[PATH_MAX];
    size_t k = 0;
    for (i++; i < len && src[i] != '"' && src[i] != '\n' && k + 1 < sizeof name; i++) {
        if (src[i] == '\\' && i + 1 < len)
            i++;
        name[k++] = src[i];
    }
    if (i >= len || src[i] != '"' || k == 0 || name[0] == '<')
        return;
    name[k] = '\0';
    snprintf(out, n, "%s", realpath(name, real) ? real : name);
}

/* Write instrumented copies of the analysed sources (each with its source's
 * modification time) and the overlay that maps the sources onto them (path
 * in overlay[]).  Returns how many sources are instrumented. */
static int make_copies(const options *o, analysed *res, instrumented *ins, char *overlay,
                       size_t overlay_len, ku_buf *quotes)
{
    char db[PATH_MAX + 1];
    kc_absolute_db(o->db_path, db, sizeof db);
    const char *tmp = ku_tmpdir();
    if (!yaml_safe(tmp) || strchr(tmp, '\''))
        tmp = "/tmp";
    int made = 0;
    for (int i = 0; i < o->nsources; i++) {
        ins[i].temp[0] = '\0';
        size_t len = 0, outlen = 0;
        struct stat st;
        static char names[3][PATH_MAX * 2 + 2];
        int nnames = source_names(o->sources[i], names), safe = 1;
        for (int k = 0; k < nnames; k++)
            safe &= yaml_safe(names[k]);
        int named = safe && stat(o->sources[i], &st) == 0;
        char *src = NULL, *text = NULL;
        if (res[i].hit) {
            /* direct mode: the text this build compiled before */
            text = named ? res[i].itext : NULL;
            outlen = res[i].ilen;
        } else {
            src = named && res[i].ir ? ku_read_file(o->sources[i], &len) : NULL;
            char ipath[PATH_MAX];
            if (src)
                presumed_source(src, len, res[i].path, ipath, sizeof ipath);
            int sites = src ? instrument_source_with(res[i].ir, store_analysis_par(res[i].an),
                                                     ipath, res[i].hash, src, len, db,
                                                     o->instrument, &text, &outlen) : 0;
            res[i].ihave = sites > 0 ? 1 : sites < 0 ? -1 : 0;
            res[i].no_sites = src && sites == 0;
            if (sites > 0) {
                res[i].itext = text;     /* kept for the direct-mode entry */
                res[i].ilen = outlen;
            } else {
                free(text);
                text = NULL;
            }
        }
        if (text) {
            if (!src)
                src = ku_read_file(o->sources[i], &len);
            if (src)
                quote_pairs(quotes, src, len, text, outlen);
            int fd = ku_mkstemp(ins[i].temp, sizeof ins[i].temp, tmp, "keel-", ".c");
            struct timespec times[2] = { st.st_atim, st.st_mtim };
            if (fd < 0 || write(fd, text, outlen) != (ssize_t)outlen
                || futimens(fd, times) != 0) {
                kc_warn("%s: not instrumented: cannot write a temporary file", o->sources[i]);
                if (fd >= 0)
                    unlink(ins[i].temp);
                ins[i].temp[0] = '\0';
            } else {
                made++;
            }
            if (fd >= 0)
                close(fd);
        }
        free(src);
    }
    if (!made)
        return 0;
    int fd = ku_mkstemp(overlay, overlay_len, tmp, "keel-", ".yaml");
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0) {
            close(fd);
            unlink(overlay);
        }
        kc_warn("not instrumented: cannot write a temporary file");
        overlay[0] = '\0';
        return 0;
    }
    fputs("{ 'version': 0, 'use-external-names': false, 'case-sensitive': true,\n"
          "  'roots': [\n", f);
    int first = 1;
    for (int i = 0; i < o->nsources; i++) {
        if (!ins[i].temp[0])
            continue;
        static char names[3][PATH_MAX * 2 + 2];
        int n = source_names(o->sources[i], names);
        for (int k = 0; k < n; k++) {
            fputs(first ? "    { 'type': 'file', 'name': " : ",\n    { 'type': 'file', 'name': ", f);
            yaml_quoted(f, names[k]);
            fputs(", 'external-contents': ", f);
            yaml_quoted(f, ins[i].temp);
            fputs(" }", f);
            first = 0;
        }
    }
    fputs("\n  ] }\n", f);
    if (fclose(f) != 0) {
        unlink(overlay);
        overlay[0] = '\0';
        return 0;
    }
    return made;
}

/* A compile of instrumented copies, running. */
typedef struct {
    pid_t pid;
    int fd;                   /* its stderr, captured */
    char errpath[KU_TMP_PATH];
    char **argv;
} instrumented_job;

/* The descriptor the compiler reads the overlay from, named by a path
 * that is the same in every build: -frecord-command-line and
 * -grecord-command-line put the compiler's arguments into the object, and
 * a temporary file's random name there would make two identical builds
 * differ.  Used when no inherited descriptor holds the number. */
#define OVERLAY_FD 987
#define OVERLAY_FD_PATH "/dev/fd/987"

/* Start the compiler with the overlay.  Returns 0, or -1 when it could not
 * start (the caller compiles the original). */
static int start_instrumented(const options *o, const char *overlay, instrumented_job *j)
{
    memset(j, 0, sizeof *j);
    j->fd = -1;
    int n = 0, bad = 0, fixed = 0;
    if (fcntl(OVERLAY_FD, F_GETFD) == -1 && errno == EBADF) {
        int ofd = open(overlay, O_RDONLY | O_CLOEXEC);
        fixed = ofd >= 0 && dup2(ofd, OVERLAY_FD) == OVERLAY_FD;   /* inherited: no CLOEXEC */
        if (ofd >= 0)
            close(ofd);
    }
    for (int k = 0; k < o->ncc; k++)
        bad |= ku_push_ptr(&j->argv, &n, o->cc[k]);
    if (o->cpp_output) {
        bad |= ku_push_ptr(&j->argv, &n, "-Xclang");
        bad |= ku_push_ptr(&j->argv, &n, "-ivfsoverlay");
        bad |= ku_push_ptr(&j->argv, &n, "-Xclang");
    } else {
        bad |= ku_push_ptr(&j->argv, &n, "-ivfsoverlay");
    }
    bad |= ku_push_ptr(&j->argv, &n, fixed ? OVERLAY_FD_PATH : overlay);
    j->fd = bad ? -1 : ku_mkstemp(j->errpath, sizeof j->errpath, NULL, "keel-stderr-", "");
    j->pid = j->fd >= 0 ? start_compiler(j->argv, j->fd, 0) : -1;
    if (fixed)
        close(OVERLAY_FD);
    if (j->pid > 0)
        return 0;
    if (j->fd >= 0) {
        close(j->fd);
        unlink(j->errpath);
    }
    free(j->argv);
    return -1;
}

/* Wait for the instrumented compile.  On success its messages go to stderr
 * and the result is 0; on failure -1, with the first line of its messages in
 * first_error. */
static int finish_instrumented(instrumented_job *j, char *first_error, size_t errlen,
                               const ku_buf *quotes)
{
    int status = wait_compiler(j->pid);
    size_t len = 0;
    char *msgs = ku_read_file(j->errpath, &len);
    if (status == 0 && msgs) {
        restore_quotes(msgs, len, quotes, stderr);   /* the compile's own warnings */
    } else if (msgs && len) {
        char *nl = memchr(msgs, '\n', len);
        snprintf(first_error, errlen, "%.*s", (int)((nl ? nl : msgs + len) - msgs), msgs);
    }
    free(msgs);
    close(j->fd);
    unlink(j->errpath);
    free(j->argv);
    return status == 0 ? 0 : -1;
}

/* Link arguments for libkeelrt: one runtime per process.
 *
 * `-x none` first: a user's `-x c` / `--language=c` before the sources
 * would otherwise make the compiler read libkeelrt.a as C source.
 *
 * A shared library (-shared) links the shared libkeelrt.so (as needed,
 * with a run path to it unless it sits in a system folder): the library
 * then exports nothing but its own symbols and needs libkeelrt, not
 * libsqlite3; with no libkeelrt.so beside libkeelrt.a, the archive is
 * linked with its symbols kept local (--exclude-libs).  An executable
 * links the archive and exports keel_decide, so that keelcc-built
 * libraries it loads, at start or with dlopen, call the executable's
 * runtime rather than a second one.  A relocatable link (-r) gets no
 * runtime: the final link adds it.  A static link (-static) takes
 * libkeelrt-sqlite3.a from beside libkeelrt.a, where there is one.
 * Buffers are static: one link per keelcc process. */
static void add_runtime_link(options *o, const char *lib)
{
    static char so[PATH_MAX + 64], rpath[PATH_MAX + 80], excl[PATH_MAX + 64];
    static char sqlite[PATH_MAX + 64];
    int shared = 0, is_static = 0;
    for (int i = 1; i < o->ncc; i++) {
        if (strcmp(o->cc[i], "-r") == 0 || strcmp(o->cc[i], "--relocatable") == 0)
            return;
        if (strcmp(o->cc[i], "-shared") == 0)
            shared = 1;
        if (strcmp(o->cc[i], "-static") == 0 || strcmp(o->cc[i], "--static") == 0
            || strcmp(o->cc[i], "-static-pie") == 0)
            is_static = 1;
    }
    kc_push(o, &o->ncc, &o->cc, "-x");
    kc_push(o, &o->ncc, &o->cc, "none");
    if (shared && kc_has_suffix(lib, ".a")) {
        size_t n = strlen(lib);
        snprintf(so, sizeof so, "%.*s.so", (int)(n - 2), lib);
        if (access(so, R_OK) == 0) {
            char dir[PATH_MAX + 64];
            snprintf(dir, sizeof dir, "%s", so);
            char *slash = strrchr(dir, '/');
            if (slash)
                *slash = '\0';
            static const char *const system_dirs[] = {
                "/lib", "/usr/lib", "/lib64", "/usr/lib64", "/usr/local/lib",
                "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", NULL
            };
            int sys = !slash;
            for (int k = 0; system_dirs[k] && !sys; k++)
                sys = strcmp(dir, system_dirs[k]) == 0;
            kc_push(o, &o->ncc, &o->cc, "-Wl,--push-state,--as-needed");
            kc_push(o, &o->ncc, &o->cc, so);
            kc_push(o, &o->ncc, &o->cc, "-Wl,--pop-state");
            if (!sys) {
                snprintf(rpath, sizeof rpath, "-Wl,-rpath,%s", dir);
                kc_push(o, &o->ncc, &o->cc, rpath);
            }
            return;
        }
        const char *base = strrchr(lib, '/');
        snprintf(excl, sizeof excl, "-Wl,--exclude-libs,%s", base ? base + 1 : lib);
        kc_push(o, &o->ncc, &o->cc, excl);
    }
    kc_push(o, &o->ncc, &o->cc, lib);
    if (!shared) {
        kc_push(o, &o->ncc, &o->cc, "-Wl,--export-dynamic-symbol=keel_decide");
        kc_push(o, &o->ncc, &o->cc, "-Wl,--export-dynamic-symbol=keel_decide_report");
        kc_push(o, &o->ncc, &o->cc, "-Wl,--export-dynamic-symbol=keel_decide_report_const");
        kc_push(o, &o->ncc, &o->cc, "-Wl,--export-dynamic-symbol=keel_begin");
        kc_push(o, &o->ncc, &o->cc, "-Wl,--export-dynamic-symbol=keel_done");
    }
    kc_push(o, &o->ncc, &o->cc, "-Wl,--push-state,--as-needed");
    /* a static link takes libsqlite3.a with weak dl* references, built
     * beside libkeelrt.a: glibc's dlopen stays out, and with it the
     * linker's warning about dlopen in static programs */
    const char *slash = strrchr(lib, '/');
    if (is_static && slash && kc_has_suffix(lib, ".a")
        && snprintf(sqlite, sizeof sqlite, "%.*s/libkeelrt-sqlite3.a", (int)(slash - lib), lib)
               < (int)sizeof sqlite
        && access(sqlite, R_OK) == 0)
        kc_push(o, &o->ncc, &o->cc, sqlite);
    else
        kc_push(o, &o->ncc, &o->cc, "-lsqlite3");
    kc_push(o, &o->ncc, &o->cc, "-lpthread");
    kc_push(o, &o->ncc, &o->cc, "-ldl");
    kc_push(o, &o->ncc, &o->cc, "-lm");
    kc_push(o, &o->ncc, &o->cc, "-Wl,--pop-state");
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
    return wait_compiler(start_compiler(argv, -1, 1));
}

int main(int argc, char **argv)
{
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

    char header[PATH_MAX + 64], lib[PATH_MAX + 64];
    runtime_paths(header, lib, sizeof header);
    if (o.analysis != 1)
        o.instrument = INSTRUMENT_OFF;
    if (o.instrument != INSTRUMENT_OFF && (access(header, R_OK) != 0 || access(lib, R_OK) != 0)) {
        kc_warn("libkeelrt not found (%s): building without instrumentation", lib);
        o.instrument = INSTRUMENT_OFF;
    }
    /* The instrumented compile needs clang's -ivfsoverlay, the llvm-mca
     * stage clang's remarks: GCC builds as given (analysed only). */
    const char *cbase = strrchr(o.compiler, '/');
    cbase = cbase ? cbase + 1 : o.compiler;
    if (strstr(cbase, "gcc") && !strstr(cbase, "clang")) {
        o.instrument = INSTRUMENT_OFF;
        o.mca = 0;
    }
    for (int k = 0; o.analysis && o.compiles && k + 1 < o.nnotc; k += 2)
        kc_warn("%s: not analysed: %s", o.notc[k], o.notc[k + 1]);
    int want = o.analysis && o.compiles && o.nsources > 0;
    int instrument = want && o.instrument != INSTRUMENT_OFF;
    /* The count of the user's arguments: what the database records and what
     * a fallback compile runs, without the runtime link arguments. */
    int user_ncc = o.ncc;
    if (o.links && o.instrument != INSTRUMENT_OFF) {
        add_runtime_link(&o, lib);
        if (o.oom) {
            /* no runtime to link: nothing may be instrumented */
            kc_warn("out of memory adding libkeelrt to the link: building without instrumentation");
            o.oom = 0;
            o.ncc = user_ncc;
            o.cc[o.ncc] = NULL;
            o.instrument = INSTRUMENT_OFF;
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
    int misses = 0;
    for (int i = 0; res && i < o.nsources; i++)
        misses += !res[i].hit;
    int status;
    if (instrument && res) {
        analyse(&o, res);
        instrumented *ins = calloc((size_t)o.nsources, sizeof *ins);
        instrumented_job job;
        char first_error[512] = "", overlay[PATH_MAX] = "";
        status = -1;
        ku_buf quotes = { 0 };
        int made = ins ? make_copies(&o, res, ins, overlay, sizeof overlay, &quotes) : 0;
        int started = made > 0 && start_instrumented(&o, overlay, &job) == 0;
        if (o.mca && misses)
            kc_mca_stage(&user, res);     /* while the instrumented compile runs */
        if (started)
            status = finish_instrumented(&job, first_error, sizeof first_error, &quotes);
        ku_buf_free(&quotes);
        for (int i = 0; ins && i < o.nsources; i++)
            if (ins[i].temp[0])
                unlink(ins[i].temp);
        if (overlay[0])
            unlink(overlay);
        free(ins);
        if (status < 0) {
            status = wait_compiler(start_compiler(o.cc, -1, 1));
            if (status == 0 && first_error[0])
                kc_warn("instrumented compile failed (%s); built without instrumentation",
                     first_error);
            else if (status == 0 && made > 0 && !started)
                kc_warn("could not start the instrumented compile; built without instrumentation");
        }
    } else {
        /* Analyse (and run llvm-mca) while the compiler runs. */
        pid_t pid = o.analysis == 2 ? 0 : start_compiler(o.cc, -1, 1);
        if (pid < 0)
            return 127;
        if (res)
            analyse(&o, res);
        if (res && o.mca && misses)
            kc_mca_stage(&user, res);
        status = pid ? wait_compiler(pid) : 0;
    }
    /* A hit's warnings are those its build printed. */
    for (int i = 0; res && i < o.nsources; i++)
        if (res[i].hit && res[i].warns.s)
            ku_buf_put(&kc_mca_deferred, res[i].warns.s);
    kc_mca_flush(status);
    /* A failed compile has told the user already; its stale rows stay. */
    o.ncc = user_ncc;
    o.cc[o.ncc] = NULL;
    int learned = 0;
    for (int i = 0; res && i < o.nsources; i++)
        learned |= res[i].hit && res[i].learn;
    if (res && status == 0 && (misses || learned)) {
        char *args = store_json_array(o.ncc - 1, o.cc + 1);
        record(&o, res, args);
        free(args);
    }
    for (int i = 0; res && i < o.nsources; i++) {
        ku_buf_free(&res[i].pp_files);
        free(res[i].path);
        ir_tu_free(res[i].ir);
        store_analysis_free(res[i].an);
        mcr_result_free(res[i].mca);
        ku_buf_free(&res[i].inputs);
        ku_buf_free(&res[i].warns);
        free(res[i].itext);
    }
    if (res && o.mca && misses)
        mcr_config_free(&kc_mca_cfg);
    free(res);
    free(o.cc);
    free(o.xcc);
    free(o.sources);
    free(o.clang);
    return status;
}
