/*
 * kc_objcache.c -- keelcc's object cache: the instrumented object of an
 * unchanged rebuild, copied instead of compiled.
 *
 * Direct mode (kc_direct.c) skips the parse and the analyses of a source
 * whose build the database holds, but still compiles the stored
 * instrumented text.  For a single-source `-c` command that direct mode
 * hits, the object cache also skips that compile, as ccache does: it
 * copies the object an earlier compile of the same text with the same
 * command made, and prints the compiler's messages that compile printed.
 * A command that compiles and links sources that direct mode all hits
 * gets each source's object the same way, then only links (the end of
 * this file).  The -c compile that stores an entry is the command's own;
 * a link command's entries are stored by its first unchanged rebuild,
 * which compiles each source alone for that.
 *
 * The entry is a file beside the database (NAME.objcache/KEY).  KEY covers
 * everything the object can depend on: the direct-mode key (keel's and
 * the compiler's identity, the modes, the database, the working folder,
 * every argument but -o and the header search options, the source's
 * bytes), the header search list, every compiler argument as given (-o's
 * value included), the text compiled (the instrumented text, or "none":
 * the source itself), keel's environment (every KEEL_* variable but
 * KEEL_OBJCACHE*) and the compiler's (CPATH, CCC_OVERRIDE_OPTIONS, ...).
 * The entry lists every file the real compile read, from its own
 * dependency list (the compile that stores an entry runs with -MD -MF
 * TEMP -MT keel added, which changes nothing in the object: the command
 * may not record its own arguments, see allowed()), each with the hash of
 * its contents, and a hit needs each of them unchanged: so a header only
 * the compile reads (under #ifdef __OPTIMIZE__: the parse has no -O)
 * counts too.
 *
 * Any doubt means no caching: another argument than the ones allowed()
 * knows, response files, a dependency file the user asked for, a
 * preprocessed source (.i), an output that is not a regular file, __DATE__,
 * __TIME__ or __TIMESTAMP__ in a file the compile read, a file the compile
 * read modified less than a second before keelcc started (direct mode's
 * "too new" rule), a compile that was not the instrumented compile of the
 * stored text (or the plain compile of a source with nothing to
 * instrument).  An entry that does not read back exactly (its own
 * checksum) is a miss.  Writers write a temporary file in the folder and
 * rename it (concurrent `make -j` compiles see an entry whole or not at
 * all); a write that fails is one warning, never a failed build.  The
 * folder is kept under KEEL_OBJCACHE_SIZE MiB (default 512): after each
 * store the least recently used entries go (a hit touches its entry).
 */
#include "kc_int.h"

#include <dirent.h>

#define OC_MAGIC "keel object cache 1\n"

extern char **environ;

/* ---- which commands ------------------------------------------------------ */

/* Flags that may be cached: these exactly, or starting with one of the
 * prefixes. */
static const char *const flag_exact[] = {
    "-c", "-w", "-pipe", "-pthread", "-ansi", "-xc", NULL
};
static const char *const flag_prefixes[] = {
    "-O", "-g", "-D", "-U", "-I", "-W", "-std=", "-f", "-m", "-pedantic", "-nostdinc",
    "-isystem", "-iquote", "-idirafter", "--target=", "--sysroot=", "-o", NULL
};

/* Flags that may not: other outputs (optimisation records, coverage notes,
 * stack usage, split DWARF, traces, compilation database fragments), inputs no dependency list names
 * (profiles, plugins, modules), the compile's own arguments recorded in
 * the object (they would hold -MF's temporary name), the host's CPU,
 * offloading, options passed through unseen, dependency files. */
static const char *const flag_denied[] = {
    "-fprofile", "-fno-profile", "-fcs-profile", "-fcoverage", "-ftest-coverage",
    "-fsave-optimization-record", "-foptimization-record", "-fdump", "-ftime-trace",
    "-ftime-report", "-fstack-usage", "-fsanitize-ignorelist", "-fsanitize-blacklist",
    "-fsanitize-coverage-allowlist", "-fsanitize-coverage-ignorelist",
    "-fsanitize-system-ignorelist", "-fplugin", "-fpass-plugin", "-fmodule", "-fimplicit-module",
    "-fprebuilt-module", "-fcrash-diagnostics", "-frecord-command-line",
    "-frecord-gcc-switches", "-fembed-bitcode", "-fxray", "-fthinlto-index",
    "-fbasic-block-sections", "-fproc-stat-report", "-fopenmp-targets", "-foffload",
    "-fsyntax-only", "-grecord-command-line", "-grecord-gcc-switches", "-gsplit-dwarf",
    "-gmodules", "-gen-", "-Wa,", "-Wp,", "-Wl,", "-M", "-o-", "-obj", NULL
};

/* Value options that may be cached (with any value but -x's). */
static const char *const value_allowed[] = {
    "-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
    "-x", "-target", "--sysroot", "-isysroot", NULL
};

/* May argument a (v: its value, for a value option) be cached? */
static int allowed(const char *a, const char *v)
{
    if (v) {
        if (!cc_in_list(value_allowed, a))
            return 0;
        return strcmp(a, "-x") != 0 || strcmp(v, "c") == 0;
    }
    if (strstr(a, "native") || cc_offload_target(a) || strncmp(a, "--offload", 9) == 0)
        return 0;
    if (cc_in_list(flag_exact, a))
        return 1;
    for (int k = 0; flag_denied[k]; k++)
        if (strncmp(a, flag_denied[k], strlen(flag_denied[k])) == 0)
            return 0;
    for (int k = 0; flag_prefixes[k]; k++)
        if (strncmp(a, flag_prefixes[k], strlen(flag_prefixes[k])) == 0)
            return 1;
    return 0;
}

/* Are the command's arguments (o->cc[1..nuser-1]) all ones the cache
 * knows, with the sources its only inputs?  A command that links may also
 * name libraries (-l, -L). */
static int args_ok(const options *o, int nuser, int link)
{
    if (!o->objcache || o->analysis != 1 || !o->compiles || o->nnotc || o->dump_ir || o->dep
        || o->dep_file || o->cpp_output || o->instrument == INSTRUMENT_OFF || o->nsources < 1
        || nuser != o->nxcc || strchr(o->compiler, ' ') || !strstr(o->compiler, "clang"))
        return 0;
    if (o->output && (strcmp(o->output, "-") == 0 || strpbrk(o->output, ": \t\n$#\\")))
        return 0;
    int inputs = 0;
    for (int k = 1; k < nuser; k++) {
        const char *a = o->cc[k];
        if (a[0] == '@' || strcmp(a, "-") == 0)
            return 0;
        if (a[0] != '-') {
            if (inputs >= o->nsources || strcmp(a, o->sources[inputs]) != 0)
                return 0;
            inputs++;
            continue;
        }
        if (cc_in_list(cc_value_options, a)) {
            if (k + 1 >= nuser)
                return 0;
            int lib = link && (strcmp(a, "-l") == 0 || strcmp(a, "-L") == 0);
            if (!lib && (!allowed(a, o->cc[k + 1]) || (link && strcmp(a, "-x") == 0)))
                return 0;
            k++;
            continue;
        }
        int lib = link && (strncmp(a, "-l", 2) == 0 || strncmp(a, "-L", 2) == 0);
        if (!lib && (!allowed(a, NULL) || (link && strcmp(a, "-xc") == 0)))
            return 0;
    }
    return inputs == o->nsources;
}

/* Can this -c command's object be cached?  (Path of the object into out.) */
static int eligible(const options *o, const analysed *r, char *out, size_t n)
{
    if (o->links || o->c_or_s != 'c' || o->nsources != 1 || !r->dkey[0]
        || !args_ok(o, o->ncc, 0))
        return 0;
    kc_object_of(o, 0, out, n);
    struct stat st;
    return out[0] && (lstat(out, &st) != 0 ? errno == ENOENT : S_ISREG(st.st_mode));
}

/* ---- the key ------------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The key of source i's object (i -1: a -c command's one source). */
static void objkey(const options *o, const analysed *r, int i, char key[33])
{
    static const char *const cc_env[] = {
        "CCC_OVERRIDE_OPTIONS", "CPATH", "C_INCLUDE_PATH", "OBJC_INCLUDE_PATH",
        "CPLUS_INCLUDE_PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX", "SOURCE_DATE_EPOCH",
        "RC_DEBUG_OPTIONS", "RC_DEBUG_PREFIX_MAP", NULL
    };
    dc_hash h;
    char cwd[PATH_MAX];
    dc_init(&h);
    dc_str(&h, "keelcc object cache 1");
    dc_str(&h, KEEL_VERSION);
    dc_bytes(&h, &i, sizeof i);
    dc_str(&h, r->dkey);
    dc_str(&h, r->search);
    dc_str(&h, getcwd(cwd, sizeof cwd) ? cwd : NULL);
    for (int k = 0; k < o->ncc; k++)
        dc_str(&h, o->cc[k]);
    dc_str(&h, "--");
    for (int k = 0; cc_env[k]; k++) {
        dc_str(&h, cc_env[k]);
        dc_str(&h, getenv(cc_env[k]));
    }
    /* keel's own environment, sorted (environ's order is the caller's) */
    int n = 0;
    for (char **e = environ; e && *e; e++)
        n += strncmp(*e, "KEEL_", 5) == 0;
    char **keel = n ? malloc((size_t)n * sizeof *keel) : NULL;
    int m = 0;
    for (char **e = environ; keel && e && *e; e++)
        if (strncmp(*e, "KEEL_", 5) == 0 && strncmp(*e, "KEEL_OBJCACHE", 13) != 0)
            keel[m++] = *e;
    if (keel)
        qsort(keel, (size_t)m, sizeof *keel, cmp_str);
    for (int k = 0; k < m; k++)
        dc_str(&h, keel[k]);
    dc_str(&h, n && !keel ? "environment not read" : "--");
    free(keel);
    int have = r->ihave == 1 && r->itext;
    dc_bytes(&h, &have, sizeof have);
    if (have) {
        dc_bytes(&h, &r->ilen, sizeof r->ilen);
        dc_bytes(&h, r->itext, r->ilen);
    }
    dc_hex(&h, key);
}

/* The folder beside the database, and an entry's path in it. */
static int entry_path(const options *o, const char *key, char *dir, size_t dn, char *path,
                      size_t pn)
{
    int k = snprintf(dir, dn, "%s.objcache", o->db_path);
    if (k < 0 || (size_t)k >= dn)
        return -1;
    k = snprintf(path, pn, "%s/%s", dir, key);
    return k < 0 || (size_t)k >= pn ? -1 : 0;
}

/* ---- entries ---------------------------------------------------------------
 * OC_MAGIC, then "K KEY\n", then three sections "D LEN\n" (the dependency
 * list: cache.h's lines), "E LEN\n" (the compiler's messages), "O LEN\n"
 * (the object), each LEN bytes and a newline, then "S SUM\n", SUM the
 * dc_hash of every byte before it. */

typedef struct {
    const char *deps, *err, *obj;
    size_t ndeps, nerr, nobj;
} oc_entry;

static const char *section(const char *p, const char *end, char tag, const char **at,
                           size_t *len)
{
    char *e;
    if (end - p < 4 || p[0] != tag || p[1] != ' ')
        return NULL;
    errno = 0;
    unsigned long long n = strtoull(p + 2, &e, 10);
    if (errno || e == p + 2 || *e != '\n' || n > (unsigned long long)(end - e - 1))
        return NULL;
    *at = e + 1;
    *len = (size_t)n;
    p = e + 1 + n;
    return p < end && *p == '\n' ? p + 1 : NULL;
}

/* 0 with e's parts pointing into t (len bytes), -1 when not exactly an
 * entry of key. */
static int parse_entry(const char *t, size_t len, const char *key, oc_entry *e)
{
    const char *p = t, *end = t + len;
    size_t ml = strlen(OC_MAGIC);
    if (len < ml + 40 || memcmp(p, OC_MAGIC, ml) != 0)
        return -1;
    p += ml;
    if (end - p < 35 || p[0] != 'K' || p[1] != ' ' || memcmp(p + 2, key, 32) != 0
        || p[34] != '\n')
        return -1;
    p += 35;
    if (!(p = section(p, end, 'D', &e->deps, &e->ndeps))
        || !(p = section(p, end, 'E', &e->err, &e->nerr))
        || !(p = section(p, end, 'O', &e->obj, &e->nobj)))
        return -1;
    dc_hash h;
    char sum[33];
    dc_init(&h);
    dc_bytes(&h, t, (size_t)(p - t));
    dc_hex(&h, sum);
    if (end - p != 35 || p[0] != 'S' || p[1] != ' ' || memcmp(p + 2, sum, 32) != 0
        || p[34] != '\n')
        return -1;
    /* the list is text: no NUL inside, a newline at its end */
    if (memchr(e->deps, '\0', e->ndeps) || (e->ndeps && e->deps[e->ndeps - 1] != '\n'))
        return -1;
    return 0;
}

/* Write len bytes of data to a new file beside final (same folder), with
 * mode 0666 less the umask, then rename it onto final.  0 or -1. */
static int write_replace(const char *final, const char *data, size_t len)
{
    char dir[PATH_MAX], tmp[PATH_MAX + 64];
    const char *slash = strrchr(final, '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - final), final);
    else
        snprintf(dir, sizeof dir, ".");
    if (slash == final)
        snprintf(dir, sizeof dir, "/");
    int fd = ku_mkstemp(tmp, sizeof tmp, dir, ".keel-tmp-", "");
    if (fd < 0)
        return -1;
    mode_t mask = umask(0);
    umask(mask);
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    int bad = done != len || fchmod(fd, 0666 & ~mask) != 0;
    bad |= close(fd) != 0;
    if (bad || rename(tmp, final) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* ---- hit ------------------------------------------------------------------- */

int kc_objcache_hit(const options *o, analysed *r)
{
    char out[2 * PATH_MAX + 2], key[33], dir[PATH_MAX], path[PATH_MAX + 40];
    if (!r->hit || r->learn || !eligible(o, r, out, sizeof out))
        return 0;
    objkey(o, r, -1, key);
    if (entry_path(o, key, dir, sizeof dir, path, sizeof path) != 0)
        return 0;
    size_t len;
    char *t = ku_read_file(path, &len);
    oc_entry e;
    if (!t)
        return 0;
    int ok = parse_entry(t, len, key, &e) == 0;
    if (ok) {
        /* the list as a string for dc_inputs_same */
        char *deps = malloc(e.ndeps + 1);
        ok = deps != NULL;
        if (ok) {
            memcpy(deps, e.deps, e.ndeps);
            deps[e.ndeps] = '\0';
            ok = dc_inputs_same(deps) && write_replace(out, e.obj, e.nobj) == 0;
            free(deps);
        }
    }
    if (ok) {
        fwrite(e.err, 1, e.nerr, stderr);
        utimensat(AT_FDCWD, path, NULL, 0);    /* recently used */
    }
    free(t);
    return ok;
}

/* ---- store ----------------------------------------------------------------- */

int kc_objcache_prepare(options *o, const analysed *r, kc_objstore *s)
{
    char out[2 * PATH_MAX + 2];
    memset(s, 0, sizeof *s);
    if (!eligible(o, r, out, sizeof out))
        return 0;
    int fd = ku_mkstemp(s->depfile, sizeof s->depfile, NULL, "keel-deps-", ".d");
    if (fd < 0)
        return 0;
    close(fd);
    int n0 = o->ncc;
    kc_push(o, &o->ncc, &o->cc, "-MD");
    kc_push(o, &o->ncc, &o->cc, "-MF");
    kc_push(o, &o->ncc, &o->cc, s->depfile);
    kc_push(o, &o->ncc, &o->cc, "-MT");
    kc_push(o, &o->ncc, &o->cc, "keel");
    if (o->oom) {
        o->oom = 0;
        o->ncc = n0;
        o->cc[n0] = NULL;
        unlink(s->depfile);
        s->depfile[0] = '\0';
        return 0;
    }
    s->want = 1;
    return 1;
}

/* The next path of a make rule's prerequisites at *p (clang's escaping:
 * "\ " a blank, "\#" '#', "$$" '$', backslash-newline a blank) into
 * name[n]: 1, 0 at the end, -1 in doubt. */
static int dep_next(const char **p, char *name, size_t n)
{
    const char *s = *p;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n')
            s++;
        if (s[0] == '\\' && s[1] == '\n') {
            s += 2;
            continue;
        }
        break;
    }
    if (!*s) {
        *p = s;
        return 0;
    }
    size_t k = 0;
    while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
        char c = *s++;
        if (c == '\\') {
            if (*s == ' ' || *s == '#')
                c = *s++;
            else
                return -1;
        } else if (c == '$') {
            if (*s != '$')
                return -1;
            s++;
        } else if (c == ':') {
            return -1;    /* a second rule */
        }
        if (k + 1 >= n)
            return -1;
        name[k++] = c;
    }
    name[k] = '\0';
    *p = s;
    return 1;
}

/* Does t (n bytes) name __DATE__, __TIME__ or __TIMESTAMP__ anywhere
 * (comments too: as ccache, no preprocessing to tell)? */
static int has_time_macro(const char *t, size_t n)
{
    for (const char *p = t, *end = t + n; (p = memchr(p, '_', (size_t)(end - p)));) {
        size_t left = (size_t)(end - p);
        if ((left >= 8 && (memcmp(p, "__DATE__", 8) == 0 || memcmp(p, "__TIME__", 8) == 0))
            || (left >= 13 && memcmp(p, "__TIMESTAMP__", 13) == 0))
            return 1;
        p++;
    }
    return 0;
}

/* The compile's dependency file as cache.h's list into list; -1 in doubt. */
static int dep_list(const char *depfile, const struct timespec *since, ku_buf *list)
{
    char *t = ku_read_file(depfile, NULL);
    if (!t)
        return -1;
    /* the target is "keel" (-MT): the list starts after its colon */
    const char *p = strncmp(t, "keel:", 5) == 0 ? t + 4 : NULL;
    char name[PATH_MAX];
    int rc = p ? 1 : -1, files = 0;
    if (p)
        p++;
    while (rc == 1 && (rc = dep_next(&p, name, sizeof name)) == 1) {
        size_t len;
        char *c = ku_read_file(name, &len);
        if (!c || has_time_macro(c, len) || dc_inputs_add(list, name, since) != 0)
            rc = -1;
        free(c);
        files++;
    }
    free(t);
    return rc == 0 && files > 0 && !list->oom ? 0 : -1;
}

/* Remove the least recently used entries while the folder holds more than
 * the limit, down to nine tenths of it; temporary files left by a writer
 * that died (over an hour old) go too. */
static void trim(const char *dir)
{
    const char *env = getenv("KEEL_OBJCACHE_SIZE");
    long long limit = 512LL << 20;
    if (env && *env) {
        char *e;
        long long v = strtoll(env, &e, 10);
        if (*e == '\0' && v >= 0)
            limit = v << 20;
    }
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct ent { char name[64]; time_t t; long long size; } *v = NULL;
    int n = 0;
    long long total = 0;
    time_t now = time(NULL);
    struct dirent *de;
    char path[PATH_MAX + 80];
    while ((de = readdir(d))) {
        struct stat st;
        if (de->d_name[0] == '.' && strncmp(de->d_name, ".keel-tmp-", 10) != 0)
            continue;
        if (strlen(de->d_name) >= sizeof v->name)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (de->d_name[0] == '.') {
            if (now - st.st_mtime > 3600)
                unlink(path);
            continue;
        }
        struct ent *nv = realloc(v, (size_t)(n + 1) * sizeof *v);
        if (!nv)
            break;
        v = nv;
        snprintf(v[n].name, sizeof v->name, "%s", de->d_name);
        v[n].t = st.st_mtime;
        v[n].size = (long long)st.st_size;
        total += v[n].size;
        n++;
    }
    closedir(d);
    /* over the limit: the oldest first, down to nine tenths of it */
    long long goal = total > limit ? limit / 10 * 9 : total;
    while (total > goal && n > 0) {
        int old = 0;
        for (int k = 1; k < n; k++)
            if (v[k].t < v[old].t)
                old = k;
        snprintf(path, sizeof path, "%s/%s", dir, v[old].name);
        unlink(path);
        total -= v[old].size;
        v[old] = v[--n];
    }
    free(v);
}

/* Write the entry key of a compile that read the files its dependency
 * file names, made the object objpath and printed err (r: its source's
 * build, for the text compiled).  A failure to write is one warning. */
static void put_entry(const options *o, const analysed *r, const char *key,
                      const char *depfile, const char *objpath, const ku_buf *err)
{
    char dir[PATH_MAX], path[PATH_MAX + 40];
    ku_buf list = { 0 }, entry = { 0 };
    char *obj = NULL;
    size_t nobj = 0;
    if (err->oom || (r->itext && has_time_macro(r->itext, r->ilen))
        || dep_list(depfile, &o->start, &list) != 0 || !(obj = ku_read_file(objpath, &nobj))
        || entry_path(o, key, dir, sizeof dir, path, sizeof path) != 0)
        goto done;
    ku_buf_put(&entry, OC_MAGIC);
    ku_buf_printf(&entry, "K %s\nD %zu\n", key, list.len);
    ku_buf_putn(&entry, list.s ? list.s : "", list.len);
    ku_buf_printf(&entry, "\nE %zu\n", err->len);
    ku_buf_putn(&entry, err->s ? err->s : "", err->len);
    ku_buf_printf(&entry, "\nO %zu\n", nobj);
    ku_buf_putn(&entry, obj, nobj);
    ku_buf_putc(&entry, '\n');
    if (entry.oom)
        goto done;
    dc_hash h;
    char sum[33];
    dc_init(&h);
    dc_bytes(&h, entry.s, entry.len);
    dc_hex(&h, sum);
    ku_buf_printf(&entry, "S %s\n", sum);
    if (entry.oom)
        goto done;
    if ((mkdir(dir, 0777) != 0 && errno != EEXIST)
        || write_replace(path, entry.s, entry.len) != 0)
        kc_warn("object cache %s: cannot write an entry: %s (the build is not affected)",
                dir, strerror(errno));
    else
        trim(dir);
done:
    free(obj);
    ku_buf_free(&list);
    ku_buf_free(&entry);
}

void kc_objcache_store(const options *o, const analysed *r, kc_objstore *s)
{
    char out[2 * PATH_MAX + 2], key[33];
    /* (no database, no direct-mode entry to hit: nothing to store; a
     * database that cannot be written has been warned about) */
    if (s->want && s->clean && r->dkey[0] && access(o->db_path, F_OK) == 0
        && eligible(o, r, out, sizeof out)) {
        objkey(o, r, -1, key);
        put_entry(o, r, key, s->depfile, out, &s->err);
    }
    kc_objcache_end(s);
}

void kc_objcache_end(kc_objstore *s)
{
    if (s->depfile[0])
        unlink(s->depfile);
    s->depfile[0] = '\0';
    ku_buf_free(&s->err);
    s->want = 0;
}

/* ---- commands that compile and link ------------------------------------------
 * `keelcc -O2 a.c b.c -o prog -lm` whose every source direct mode hits:
 * each source's object is copied from the cache, or compiled alone (its
 * instrumented text through the overlay, `-c SOURCE -o TEMP` with the
 * command's other arguments but its other sources, -o and the libraries:
 * the compile the command's own would run) and stored; then the objects
 * are linked by the command itself with each source replaced by its
 * object, the link taking its link object as the command's would.  The
 * messages are printed once everything succeeded, in the command's order
 * (each source's compile, then the link's); anything that fails leaves
 * nothing behind and the command runs as it would without the cache. */

typedef struct {
    char key[33];
    char obj[KU_TMP_PATH];      /* the object, a temporary file */
    char dep[KU_TMP_PATH];      /* its compile's dependency file */
    char *entry;                /* a hit: the entry read (e points into it) */
    oc_entry e;
    ku_buf err;                 /* a compiled one: its messages */
} link_src;

/* Look entry key up: 1 with s->entry and s->e when every file it lists is
 * unchanged. */
static int lookup(const options *o, link_src *s)
{
    char dir[PATH_MAX], path[PATH_MAX + 40];
    size_t len;
    if (entry_path(o, s->key, dir, sizeof dir, path, sizeof path) != 0
        || !(s->entry = ku_read_file(path, &len)))
        return 0;
    int ok = parse_entry(s->entry, len, s->key, &s->e) == 0;
    char *deps = ok ? malloc(s->e.ndeps + 1) : NULL;
    if (deps) {
        memcpy(deps, s->e.deps, s->e.ndeps);
        deps[s->e.ndeps] = '\0';
        ok = dc_inputs_same(deps);
        free(deps);
    }
    if (!ok || !deps) {
        free(s->entry);
        s->entry = NULL;
        return 0;
    }
    utimensat(AT_FDCWD, path, NULL, 0);
    return 1;
}

/* The compiler run on argv with its messages into err (not printed);
 * its status. */
static int run_kept(char **argv, ku_buf *err)
{
    char path[KU_TMP_PATH];
    int fd = ku_mkstemp(path, sizeof path, NULL, "keel-stderr-", "");
    if (fd < 0)
        return -1;
    int status = kc_wait_compiler(kc_start_compiler(argv, fd, 1));
    size_t len;
    char *msgs = ku_read_file(path, &len);
    if (msgs)
        ku_buf_putn(err, msgs, len);
    else
        status = -1;
    free(msgs);
    close(fd);
    unlink(path);
    return status;
}

/* The arguments of source i's own compile: the command's user arguments
 * (o->cc[0..nuser-1]) less its inputs, -o, -l, -L, then -c SOURCE -o OBJ
 * and the dependency list options.  NULL when out of memory. */
static char **compile_argv(const options *o, int nuser, int i, link_src *s)
{
    char **v = NULL;
    int n = 0, bad = 0;
    bad |= ku_push_ptr(&v, &n, o->cc[0]);
    for (int k = 1; k < nuser; k++) {
        const char *a = o->cc[k];
        if (cc_in_list(cc_value_options, a)) {
            if (strcmp(a, "-o") && strcmp(a, "-l") && strcmp(a, "-L")) {
                bad |= ku_push_ptr(&v, &n, a);
                bad |= ku_push_ptr(&v, &n, o->cc[k + 1]);
            }
            k++;
        } else if (a[0] == '-' && strncmp(a, "-o", 2) && strncmp(a, "-l", 2)
                   && strncmp(a, "-L", 2)) {
            bad |= ku_push_ptr(&v, &n, a);
        }
    }
    const char *tail[] = { "-c", o->sources[i], "-o", s->obj, "-MD", "-MF", s->dep, "-MT",
                           "keel", NULL };
    for (int k = 0; tail[k]; k++)
        bad |= ku_push_ptr(&v, &n, tail[k]);
    if (bad) {
        free(v);
        return NULL;
    }
    return v;
}

/* Compile source i alone into s->obj (messages kept in s->err); 0 or -1. */
static int compile_one(const options *o, int nuser, int i, const analysed *r,
                       const instrumented *ins, const char *overlay, const ku_buf *quotes,
                       link_src *s)
{
    int fd = ku_mkstemp(s->dep, sizeof s->dep, NULL, "keel-deps-", ".d");
    if (fd < 0)
        return -1;
    close(fd);
    char **argv = compile_argv(o, nuser, i, s);
    if (!argv)
        return -1;
    int rc = -1;
    if (r->ihave == 1 && ins[i].temp[0] && overlay[0]) {
        options so = *o;
        instrumented_job job;
        char first_error[512];
        so.cc = argv;
        for (so.ncc = 0; argv[so.ncc]; so.ncc++)
            ;
        so.cpp_output = 0;
        if (kc_start_instrumented(&so, overlay, &job) == 0)
            rc = kc_finish_instrumented(&job, first_error, sizeof first_error, quotes, &s->err,
                                        0);
    } else if (r->ihave == 0) {
        rc = run_kept(argv, &s->err);
    }
    free(argv);
    return rc == 0 && !s->err.oom ? 0 : -1;
}

int kc_objcache_link(options *o, analysed *res, int nuser, int *status)
{
    int n = o->nsources, done = 0, misses = 0;
    if (n < 1 || !o->links || o->c_or_s || !args_ok(o, nuser, 1))
        return 0;
    for (int i = 0; i < n; i++)
        if (!res[i].hit || res[i].learn || !res[i].dkey[0])
            return 0;
    link_src *s = calloc((size_t)n, sizeof *s);
    instrumented *ins = NULL;
    char overlay[PATH_MAX] = "";
    ku_buf quotes = { 0 }, linkerr = { 0 };
    char **largv = NULL;
    int nl = 0;
    if (!s)
        return 0;
    for (int i = 0; i < n; i++) {
        objkey(o, &res[i], i, s[i].key);
        int fd = ku_mkstemp(s[i].obj, sizeof s[i].obj, NULL, "keel-obj-", ".o");
        if (fd < 0)
            goto out;
        close(fd);
        if (lookup(o, &s[i])) {
            if (ku_write_file(s[i].obj, s[i].e.obj, s[i].e.nobj) != 0)
                goto out;
        } else {
            misses++;
        }
    }
    if (misses) {
        if (!(ins = calloc((size_t)n, sizeof *ins)))
            goto out;
        kc_make_copies(o, res, ins, overlay, sizeof overlay, &quotes);
        for (int i = 0; i < n; i++)
            if (!s[i].entry
                && compile_one(o, nuser, i, &res[i], ins, overlay, &quotes, &s[i]) != 0)
                goto out;
    }
    /* the link: the command with its objects for its sources */
    int bad = 0, input = 0;
    for (int k = 0; k < o->ncc; k++) {
        const char *a = o->cc[k];
        if (k > 0 && k < nuser && cc_in_list(cc_value_options, a)) {
            bad |= ku_push_ptr(&largv, &nl, a);
            bad |= ku_push_ptr(&largv, &nl, o->cc[++k]);
        } else if (k > 0 && k < nuser && a[0] != '-') {
            bad |= ku_push_ptr(&largv, &nl, s[input++].obj);
        } else {
            bad |= ku_push_ptr(&largv, &nl, a);
        }
    }
    if (bad)
        goto out;
    options lo = *o;
    lo.cc = largv;
    lo.ncc = nl;
    kc_link_wait lw;
    int armed = kc_link_wait_arm(&lo, &lw);
    largv = lo.cc;     /* (grown by the --ld-path argument) */
    char epath[KU_TMP_PATH];
    int efd = ku_mkstemp(epath, sizeof epath, NULL, "keel-stderr-", "");
    pid_t pid = efd >= 0 ? kc_start_compiler(lo.cc, efd, 1) : -1;
    if (armed)
        kc_link_wait_started(&lo, &lw);
    if (armed && pid > 0 && kc_link_wait_request(&lw)) {
        lo.nown = 0;
        for (int i = 0; i < n && lo.nown < (int)(sizeof lo.own / sizeof *lo.own); i++)
            snprintf(lo.own[lo.nown++], sizeof lo.own[0], "#%lld", (long long)res[i].hit_tu);
        kc_link_wait_answer(&lo, &lw);
    }
    int st = pid > 0 ? kc_wait_compiler(pid) : -1;
    if (armed)
        kc_link_wait_end(&lw);
    if (efd >= 0) {
        size_t len;
        char *msgs = ku_read_file(epath, &len);
        if (msgs)
            ku_buf_putn(&linkerr, msgs, len);
        else
            st = -1;
        free(msgs);
        close(efd);
        unlink(epath);
    }
    if (st != 0 || linkerr.oom)
        goto out;
    /* done: the messages in the command's order, then the new entries */
    for (int i = 0; i < n; i++)
        if (s[i].entry)
            fwrite(s[i].e.err, 1, s[i].e.nerr, stderr);
        else
            fwrite(s[i].err.s ? s[i].err.s : "", 1, s[i].err.len, stderr);
    fwrite(linkerr.s ? linkerr.s : "", 1, linkerr.len, stderr);
    for (int i = 0; i < n; i++)
        if (!s[i].entry)
            put_entry(o, &res[i], s[i].key, s[i].dep, s[i].obj, &s[i].err);
    *status = 0;
    done = 1;
out:
    for (int i = 0; i < n; i++) {
        if (s[i].obj[0])
            unlink(s[i].obj);
        if (s[i].dep[0])
            unlink(s[i].dep);
        free(s[i].entry);
        ku_buf_free(&s[i].err);
    }
    for (int i = 0; ins && i < n; i++)
        if (ins[i].temp[0])
            unlink(ins[i].temp);
    if (overlay[0])
        unlink(overlay);
    free(ins);
    free(s);
    free(largv);
    ku_buf_free(&quotes);
    ku_buf_free(&linkerr);
    return done;
}
