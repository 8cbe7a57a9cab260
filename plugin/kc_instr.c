/*
 * kc_instr.c -- keelcc's instrumentation step and the instrumented compile.
 *
 * The instrumented text of each source (plugin/instrument.c) is written to
 * a temporary copy, dated as the source, and the compiler reads it through
 * a VFS overlay on the source's own path, so __FILE__, quoted includes,
 * dependency files and objects name the source, never the copy; the
 * compile's messages get the user's own text quoted back.  The sites name
 * the source as the compiler was given it and, unless the database was
 * given by an absolute path, no database: objects do not depend on the
 * build folder.  Linking adds libkeelrt (shared or static, its symbols kept
 * local in a library) and a tiny object naming the link's database and
 * holding the packed facts of the launch sites of the objects it links
 * (db_link_table), so that the program decides without opening the
 * database.
 */
#include "kc_int.h"

#include "db_calib_pack.h"
#include "db_nest.h"
#include "linkobj.h"

/* ---- instrumentation ----------------------------------------------------- */

/* keelrt.h and libkeelrt.a: $KEEL_RT_HEADER / $KEEL_RT_LIB, else next to an
 * installed keelcc (bin/../include, bin/../lib), else the build tree. */
void kc_runtime_paths(char *header, char *lib, size_t n)
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
 * marker names, resolved as the walker stores presumed locations.  given
 * gets the name the sites carry: the source as given on the command line,
 * or the marker's name as written (what __FILE__ is there). */
static void presumed_source(const char *src, size_t len, const char *path, const char *arg,
                            char *out, size_t n, char *given, size_t gn)
{
    snprintf(out, n, "%s", path);
    snprintf(given, gn, "%s", arg);
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
    snprintf(given, gn, "%s", name);
}

/* What the instrumentation did with each loop of r (plan, one entry per
 * loop), as the loops' site facts; with `none_why` every loop "none" for
 * that reason instead. */
static void record_sites(analysed *r, const instrument_site *plan, const char *none_why)
{
    static const char *const kinds[] = { "none", "call", "clause" };
    int rc = 0;
    if (!r->an)
        return;
    if (none_why || !plan)
        rc = store_analysis_no_sites(r->an, none_why ? none_why : "not instrumented");
    for (int l = 0; !none_why && plan && rc == 0 && l < r->ir->nloops; l++)
        rc = store_analysis_set_site(r->an, l, kinds[plan[l].kind],
                                     plan[l].kind == INSTRUMENT_SITE_NONE ? plan[l].why : NULL);
    if (rc != 0)
        kc_warn("%s: out of memory recording which loops are instrumented", r->path);
}

/* Write instrumented copies of the analysed sources (each with its source's
 * modification time) and the overlay that maps the sources onto them (path
 * in overlay[]).  Returns how many sources are instrumented. */
int kc_make_copies(const options *o, analysed *res, instrumented *ins, char *overlay,
                       size_t overlay_len, ku_buf *quotes)
{
    /* a database given by an absolute path is named in the objects; the
     * default or a relative one is the linked program's (keel_link_db) */
    const char *db = o->db_path[0] == '/' ? o->db_path : NULL;
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
            char ipath[PATH_MAX], given[PATH_MAX];
            if (src)
                presumed_source(src, len, res[i].path, o->sources[i], ipath, sizeof ipath, given,
                                sizeof given);
            instrument_site_source(ipath, given);
            instrument_site *plan = src && res[i].an
                ? calloc((size_t)res[i].ir->nloops + 1, sizeof *plan) : NULL;
            int sites = src ? instrument_source_sites(res[i].ir, store_analysis_par(res[i].an),
                                                      ipath, res[i].hash, src, len, db,
                                                      o->instrument, &text, &outlen, plan) : 0;
            instrument_site_source(NULL, NULL);
            record_sites(&res[i], plan, !res[i].ir ? NULL : !safe
                         ? "its path cannot be named in clang's file overlay (not UTF-8, or a"
                           " control character): built without instrumentation"
                         : !src ? "the source could not be read again to instrument it"
                         : sites < 0 || !plan ? "out of memory instrumenting the source" : NULL);
            free(plan);
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
                store_analysis_no_sites(res[i].an, "a temporary copy could not be written:"
                                        " built without instrumentation");
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
        for (int i = 0; i < o->nsources; i++)
            store_analysis_no_sites(res[i].an, "clang's file overlay could not be written:"
                                    " built without instrumentation");
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

/* The descriptor the compiler reads the overlay from, named by a path
 * that is the same in every build: -frecord-command-line and
 * -grecord-command-line put the compiler's arguments into the object, and
 * a temporary file's random name there would make two identical builds
 * differ.  Used when no inherited descriptor holds the number. */
#define OVERLAY_FD 987
#define OVERLAY_FD_PATH "/dev/fd/987"

/* Start the compiler with the overlay.  Returns 0, or -1 when it could not
 * start (the caller compiles the original). */
int kc_start_instrumented(const options *o, const char *overlay, instrumented_job *j)
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
    j->pid = j->fd >= 0 ? kc_start_compiler(j->argv, j->fd, 0) : -1;
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
 * (with print) and to keep (when not NULL: the object cache replays them)
 * and the result is 0; on failure -1, with the first line of its messages
 * in first_error. */
int kc_finish_instrumented(instrumented_job *j, char *first_error, size_t errlen,
                               const ku_buf *quotes, ku_buf *keep, int print)
{
    int status = kc_wait_compiler(j->pid);
    size_t len = 0;
    char *msgs = ku_read_file(j->errpath, &len);
    char *kept = NULL;
    size_t klen = 0;
    FILE *m = status == 0 && msgs && keep ? open_memstream(&kept, &klen) : NULL;
    if (status == 0 && msgs && m) {
        restore_quotes(msgs, len, quotes, m);      /* the compile's own warnings */
        if (fclose(m) == 0) {
            if (print)
                fwrite(kept, 1, klen, stderr);
            ku_buf_putn(keep, kept, klen);
        } else {
            if (print)
                restore_quotes(msgs, len, quotes, stderr);
            keep->oom = 1;
        }
        free(kept);
    } else if (status == 0) {
        if (keep)
            keep->oom = 1;     /* what was printed is not known */
        if (print)
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

/* The database a linked program or library uses: the absolute path of the
 * link's (--keel-db, KEEL_DB, else ./keel.db, prefix maps applied) in a
 * weak hidden INSTRUMENT_LINK_DB, so that sites compiled with a relative
 * database (the default) need no build folder in their objects.  The tiny
 * object is compiled by the compiler from its standard input (no file name
 * of ours in it), then read by the linker from a descriptor named the same
 * in every build, as the overlay is: two identical links stay identical.
 * Returns the path to link, or NULL (the program then needs KEEL_DB). */
#define LINK_DB_FD 986

/* bytes as the text of a C string literal: printable ASCII as is, the rest
 * (and '"', '\\', '?') as three-digit octal escapes, which no following
 * digit can extend. */
static void put_c_bytes(ku_buf *t, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x20 || p[i] >= 0x7f || p[i] == '"' || p[i] == '\\' || p[i] == '?')
            ku_buf_printf(t, "\\%03o", p[i]);
        else
            ku_buf_putc(t, (char)p[i]);
}

/* The link's input objects that keelcc compiled (absolute, as
 * translation_units.object records them: the folder of the link joined
 * with the argument, and its real path where that differs): the
 * arguments that name an existing regular file ending in ".o", other than
 * -o's value; with_output, also the build hashes of the sources the
 * command compiles (o->own), and its own output (under which their rows
 * are recorded) where those do not name every source.  The output alone
 * would also name earlier builds of a source recorded under it (another
 * build variant, kept for programs linked before: db_write.c), whose
 * sites the program never asks for. */
static int link_objects(const options *o, int with_output, char ***out)
{
    char cwd[PATH_MAX], buf[PATH_MAX * 2 + 2], real[PATH_MAX];
    char **v = NULL;
    int n = 0;
    struct stat sb;
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    /* the sources this command compiles, recorded under its output
     * (kc_object_of) once the compile has succeeded */
    kc_object_of(o, 0, buf, sizeof buf);
    char *own = with_output && buf[0] && o->nown < o->nsources ? strdup(buf) : NULL;
    if (own && ku_push_ptr(&v, &n, own))
        free(own);
    /* ... and by their build hashes: a source compiled into several
     * programs (a shared utility) has one row, recorded under the last */
    for (int i = 0; with_output && i < o->nown; i++) {
        char *h = strdup(o->own[i]);
        if (h && ku_push_ptr(&v, &n, h))
            free(h);
    }
    for (int i = 1; i < o->ncc; i++) {
        const char *a = o->cc[i];
        if (a[0] == '-' || strcmp(o->cc[i - 1], "-o") == 0 || !kc_has_suffix(a, ".o") ||
            stat(a, &sb) != 0 || !S_ISREG(sb.st_mode))
            continue;
        snprintf(buf, sizeof buf, "%s%s%s", a[0] == '/' ? "" : cwd, a[0] == '/' ? "" : "/", a);
        char *p = strdup(buf);
        if (!p || ku_push_ptr(&v, &n, p)) {
            free(p);
            break;
        }
        if (realpath(a, real) && strcmp(real, buf) != 0 && (p = strdup(real)) &&
            ku_push_ptr(&v, &n, p))
            free(p);
    }
    *out = v;
    return n;
}

/* The weak hidden table of packed facts (db_link_table) for the launch
 * sites of the link's input objects, and with it the packed calibration
 * of this host (db_calib_pack), into *table and *calib (malloc'd; NULL
 * when there are no such sites or the database does not exist).  A
 * failure is a warning: the program then reads its database as before. */
static void get_link_facts(const options *o, int with_output, unsigned char **table_out,
                           size_t *n_out, unsigned char **calib_out, size_t *cn_out)
{
    char err[512], **objs = NULL;
    int nobj = link_objects(o, with_output, &objs);
    db *d = NULL;
    unsigned char *table = NULL;
    size_t n = 0;
    struct stat sb;
    unsigned char *calib = NULL;
    size_t cn = 0;
    if (nobj > 0 && stat(o->db_path, &sb) == 0) {
        int opened = db_open(o->db_path, DB_READONLY, &d, err, sizeof err) == 0;
        /* (with_output: recording the command's rows has named a database
         * that does not open already) */
        if ((!opened && !with_output) ||
            (opened && db_link_table(d, (const char *const *)objs, nobj, &table, &n, err,
                                     sizeof err) != 0))
            kc_warn("the program will read its facts from the database: %s", err);
        /* the facts' companion: this host's newest calibration, which the
         * program uses when it runs here (runtime/keelrt.c) */
        char host[256] = "?";
        gethostname(host, sizeof host - 1);
        host[sizeof host - 1] = '\0';
        if (table && db_calib_pack(d, host, &calib, &cn, err, sizeof err) < 0)
            kc_warn("the program will read this host's calibration from the database: %s", err);
        db_close(d);
    }
    if (!table || n == 0) {
        free(table);
        table = NULL;
        n = 0;
    }
    if (!calib || cn == 0) {
        free(calib);
        calib = NULL;
        cn = 0;
    }
    *table_out = table;
    *n_out = n;
    *calib_out = calib;
    *cn_out = cn;
    for (int i = 0; i < nobj; i++)
        free(objs[i]);
    free(objs);
}

/* The command's flags that choose another target than the compiler's
 * default (-m32, -mx32, -m16, --target=T, -target T), at most 8, into
 * flags; returns how many.  The link object must be of the program's
 * class and machine, so with any of them its C text is compiled with
 * them rather than written for keelcc's own machine. */
static int target_flags(const options *o, char **flags)
{
    int n = 0;
    for (int i = 0; i < o->ncc && n < 7; i++) {
        const char *a = o->cc[i];
        if (!strcmp(a, "-m32") || !strcmp(a, "-mx32") || !strcmp(a, "-m16")
            || !strncmp(a, "--target=", 9))
            flags[n++] = (char *)a;
        else if (!strcmp(a, "-target") && i + 1 < o->ncc) {
            flags[n++] = (char *)a;
            flags[n++] = o->cc[++i];
        }
    }
    return n;
}

/* The link object (the database's name, the packed facts) written into
 * obj: by linkobj.c where it knows this machine's object format and the
 * command keeps the compiler's default target, else its C text compiled
 * for the command's target; 0, or -1 when there is no object (a warning
 * said why, or the database has no name the program could use). */
static int make_link_object(const options *o, int with_output, const char *obj)
{
    char db[PATH_MAX + 1], csrc[KU_TMP_PATH], err[512];
    kc_absolute_db(o->db_path, db, sizeof db);
    char *mapped = instrument_mapped_path(db);
    unsigned char *table, *calib;
    size_t n, cn;
    get_link_facts(o, with_output, &table, &n, &calib, &cn);
    lobj_sym syms[3] = { { INSTRUMENT_LINK_DB, (const unsigned char *)mapped,
                           mapped ? strlen(mapped) : 0 } };
    int nsyms = 1;
    if (table)
        syms[nsyms++] = (lobj_sym){ INSTRUMENT_LINK_FACTS, table, n };
    if (calib)
        syms[nsyms++] = (lobj_sym){ INSTRUMENT_LINK_CALIB, calib, cn };
    char *target[9];
    int ntarget = target_flags(o, target);
    if (mapped && ntarget == 0 && lobj_write(obj, syms, nsyms, err, sizeof err) == 0) {
        free(mapped);
        free(table);
        free(calib);
        return 0;
    }
    ku_buf t = { 0 };
    for (int k = 0; k < nsyms; k++) {
        ku_buf_printf(&t, "__attribute__((weak, visibility(\"hidden\"))) const %s %s[] = \"",
                      k ? "unsigned char" : "char", syms[k].name);
        put_c_bytes(&t, syms[k].bytes, syms[k].len);
        ku_buf_put(&t, "\";\n");
    }
    free(table);
    free(calib);
    int named = mapped != NULL, rc = -1, cfd = -1;
    free(mapped);
    if (!t.oom && named && (cfd = ku_mkstemp(csrc, sizeof csrc, NULL, "keel-link-", ".c")) >= 0
        && write(cfd, t.s, t.len) == (ssize_t)t.len) {
        char *argv[9 + 9] = { (char *)o->compiler };
        int na = 1;
        for (int k = 0; k < ntarget; k++)
            argv[na++] = target[k];
        const char *tail[] = { "-c", "-x", "c", "-w", "-o", obj, "-" };
        for (size_t k = 0; k < sizeof tail / sizeof *tail; k++)
            argv[na++] = (char *)tail[k];
        argv[na] = NULL;
        ku_io io = { .in = csrc, .out = "/dev/null", .err = "/dev/null", .err_fd = -1 };
        pid_t pid;
        if (ku_spawn(argv, &io, &pid) == 0 && ku_wait(pid) == 0)
            rc = 0;
    }
    if (cfd >= 0) {
        close(cfd);
        unlink(csrc);
    }
    ku_buf_free(&t);
    return rc;
}

static const char *link_db_object(const options *o)
{
    static char name[32];
    char obj[KU_TMP_PATH];
    const char *ret = NULL;
    int ofd = ku_mkstemp(obj, sizeof obj, NULL, "keel-link-", ".o"), fd;
    if (ofd >= 0 && make_link_object(o, 0, obj) == 0 && (fd = open(obj, O_RDONLY)) >= 0) {
        if (fcntl(LINK_DB_FD, F_GETFD) == -1 && errno == EBADF
            && dup2(fd, LINK_DB_FD) == LINK_DB_FD) {   /* inherited: no CLOEXEC */
            close(fd);
            fd = LINK_DB_FD;
        }
        snprintf(name, sizeof name, "/dev/fd/%d", fd);
        ret = name;    /* open until keelcc ends: every compile it starts may link */
    }
    if (ofd >= 0) {
        close(ofd);
        unlink(obj);
    }
    if (!ret)
        kc_warn("the program will not know its database (set KEEL_DB when it runs): "
                "cannot compile the object that names it");
    return ret;
}

/* ---- the link of a command that also compiles ------------------------------
 * `keelcc -O2 a.c b.c -o prog` compiles and links in one compiler run, and
 * the rows of a.c and b.c are stored only once their compile has
 * succeeded -- after the link object above was made.  So for such a
 * command the compiler links through keelcc itself (--ld-path=keelcc, with
 * KEEL_LINK_WAIT naming two pipes and the real linker): the compiler
 * starts the linker only when every compile of the command has succeeded,
 * and that is the moment keelcc records the rows; it then makes the link
 * object again, now with the facts of the command's own sources, and the
 * waiting linker process runs the real linker with that object in place of
 * the first.  The executable is what the real linker makes from the same
 * arguments and the link object; whatever fails, the linker runs with the
 * first link object (the program then reads its database). */
#define LINK_WAIT_ENV "KEEL_LINK_WAIT"

/* The real linker the compiler would run (its -print-prog-name=ld), when
 * the command leaves the linker to the compiler: no -fuse-ld, --ld-path or
 * -B of the user's, which would pick another. */
static int real_linker(const options *o, char *ld, size_t n)
{
    for (int i = 1; i < o->ncc; i++) {
        const char *a = o->cc[i];
        if (!strncmp(a, "-fuse-ld", 8) || !strncmp(a, "--ld-path", 9) || !strncmp(a, "-B", 2)
            || !strcmp(a, "--prefix") || !strncmp(a, "--prefix=", 9) || !strcmp(a, "-###"))
            return -1;
    }
    return lobj_linker(o->compiler, ld, n);   /* kept per compiler */
}

int kc_link_wait_arm(options *o, kc_link_wait *w)
{
    static char ldarg[PATH_MAX + 16];
    char self[PATH_MAX], ld[PATH_MAX], env[PATH_MAX + 64];
    memset(w, 0, sizeof *w);
    w->req[0] = w->req[1] = w->ack[0] = w->ack[1] = -1;
    if (!o->links || !o->compiles || o->nsources == 0 || o->analysis != 1)
        return 0;
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0 || real_linker(o, ld, sizeof ld) != 0)
        return 0;
    self[len] = '\0';
    if (pipe(w->req) != 0)
        return 0;
    if (pipe(w->ack) != 0) {
        close(w->req[0]), close(w->req[1]);
        w->req[0] = w->req[1] = -1;
        return 0;
    }
    /* keelcc's ends are not inherited; the linker's are */
    fcntl(w->req[0], F_SETFD, FD_CLOEXEC);
    fcntl(w->ack[1], F_SETFD, FD_CLOEXEC);
    snprintf(env, sizeof env, "%d:%d:%s", w->req[1], w->ack[0], ld);
    snprintf(ldarg, sizeof ldarg, "--ld-path=%s", self);
    if (setenv(LINK_WAIT_ENV, env, 1) != 0) {
        kc_link_wait_end(w);
        return 0;
    }
    kc_push(o, &o->ncc, &o->cc, ldarg);
    if (o->oom) {
        o->oom = 0;
        unsetenv(LINK_WAIT_ENV);
        kc_link_wait_end(w);
        return 0;
    }
    w->armed = 1;
    return 1;
}

void kc_link_wait_started(options *o, kc_link_wait *w)
{
    if (!w->armed)
        return;
    unsetenv(LINK_WAIT_ENV);
    o->cc[--o->ncc] = NULL;    /* the --ld-path argument: that compile only */
    close(w->req[1]);
    close(w->ack[0]);
    w->req[1] = w->ack[0] = -1;
}

int kc_link_wait_request(kc_link_wait *w)
{
    char c;
    ssize_t r;
    if (!w->armed)
        return 0;
    while ((r = read(w->req[0], &c, 1)) < 0 && errno == EINTR)
        ;
    return r == 1;
}

void kc_link_wait_answer(const options *o, kc_link_wait *w)
{
    int fd = ku_mkstemp(w->obj, sizeof w->obj, NULL, "keel-link-", ".o");
    if (fd >= 0) {
        close(fd);
        if (make_link_object(o, 1, w->obj) != 0) {
            unlink(w->obj);
            w->obj[0] = '\0';
        }
    }
    if (w->obj[0]) {
        size_t n = strlen(w->obj);
        if (write(w->ack[1], w->obj, n) != (ssize_t)n)
            kc_warn("the program will read its facts from the database: the link did not"
                    " take them");
    }
    close(w->ack[1]);
    w->ack[1] = -1;
}

void kc_link_wait_end(kc_link_wait *w)
{
    for (int k = 0; k < 2; k++) {
        if (w->req[k] >= 0)
            close(w->req[k]);
        if (w->ack[k] >= 0)
            close(w->ack[k]);
        w->req[k] = w->ack[k] = -1;
    }
    if (w->obj[0])
        unlink(w->obj);
    w->obj[0] = '\0';
    w->armed = 0;
}

int kc_link_wrapper(int argc, char **argv)
{
    const char *env = getenv(LINK_WAIT_ENV);
    int req = -1, ack = -1, at = 0;
    char ld[PATH_MAX] = "", obj[PATH_MAX] = "", first[32];
    if (!env || sscanf(env, "%d:%d:%n", &req, &ack, &at) != 2 || at <= 0
        || snprintf(ld, sizeof ld, "%s", env + at) >= (int)sizeof ld || ld[0] != '/') {
        fprintf(stderr, "keelcc: %s is not keelcc's: cannot link\n", LINK_WAIT_ENV);
        return 127;
    }
    unsetenv(LINK_WAIT_ENV);
    signal(SIGPIPE, SIG_IGN);    /* keelcc gone: link with the first object */
    /* every compile has succeeded: keelcc records, then answers with the
     * new link object's path (nothing: link with the first) */
    size_t n = 0;
    ssize_t r;
    if (write(req, "L", 1) == 1) {
        while (n + 1 < sizeof obj && ((r = read(ack, obj + n, sizeof obj - 1 - n)) > 0
                                      || (r < 0 && errno == EINTR)))
            n += r > 0 ? (size_t)r : 0;
    }
    obj[n] = '\0';
    close(req);
    close(ack);
    snprintf(first, sizeof first, "/dev/fd/%d", LINK_DB_FD);
    signal(SIGPIPE, SIG_DFL);
    argv[0] = ld;
    for (int i = 1; obj[0] && i < argc; i++)
        if (strcmp(argv[i], first) == 0)
            argv[i] = obj;
    execv(ld, argv);
    fprintf(stderr, "keelcc: cannot run the linker %s: %s\n", ld, strerror(errno));
    return 127;
}

/* Link arguments for libkeelrt: one runtime per process.
 *
 * `-x none` first: a user's `-x c` / `--language=c` before the sources
 * would otherwise make the compiler read libkeelrt.a as C source.  Then
 * the object that names the database (link_db_object): every executable
 * and shared library keelcc links knows its own.
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
void kc_add_runtime_link(options *o, const char *lib)
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
    const char *dbo = link_db_object(o);
    if (dbo)
        kc_push(o, &o->ncc, &o->cc, dbo);
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
