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
 * TEMP added, which changes nothing in the object: the command may not
 * record its own arguments, see allowed()), each with the hash of its
 * contents, and a hit needs each of them unchanged: so a header only the
 * compile sees (under #ifdef _OPENMP, with -fopenmp) counts too.
 *
 * Any doubt means no caching: another argument than the ones allowed()
 * knows, response files, a dependency file the user asked for, several
 * sources or a link, an output that is not a regular file, __DATE__,
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
 * stack usage, split DWARF, traces), inputs no dependency list names
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
    "-gmodules", "-Wa,", "-Wp,", "-Wl,", "-M", "-o-", NULL
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

/* Can this command's object be cached?  (Path of the object into out.) */
static int eligible(const options *o, const analysed *r, char *out, size_t n)
{
    if (!o->objcache || o->analysis != 1 || !o->compiles || o->links || o->c_or_s != 'c'
        || o->nsources != 1 || o->nnotc || o->dump_ir || o->dep || o->dep_file
        || o->instrument == INSTRUMENT_OFF || !r->dkey[0] || o->ncc != o->nxcc
        || strchr(o->compiler, ' ') || !strstr(o->compiler, "clang"))
        return 0;
    if (o->output && (strcmp(o->output, "-") == 0 || strpbrk(o->output, ": \t\n$#\\")))
        return 0;
    int inputs = 0;
    for (int k = 1; k < o->ncc; k++) {
        const char *a = o->cc[k];
        if (a[0] == '@' || strcmp(a, "-") == 0)
            return 0;
        if (a[0] != '-') {
            inputs++;
            continue;
        }
        if (cc_in_list(cc_value_options, a)) {
            if (k + 1 >= o->ncc || !allowed(a, o->cc[k + 1]))
                return 0;
            k++;
            continue;
        }
        if (!allowed(a, NULL))
            return 0;
    }
    if (inputs != 1)
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

static void objkey(const options *o, const analysed *r, char key[33])
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
    objkey(o, r, key);
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
    /* the target ends at the first colon (the output has none: eligible) */
    const char *p = strchr(t, ':');
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

void kc_objcache_store(const options *o, const analysed *r, kc_objstore *s)
{
    char out[2 * PATH_MAX + 2], key[33], dir[PATH_MAX], path[PATH_MAX + 40];
    ku_buf list = { 0 }, entry = { 0 };
    char *obj = NULL;
    size_t nobj = 0;
    if (!s->want || !s->clean || !r->dkey[0] || !eligible(o, r, out, sizeof out))
        goto done;
    if (r->itext && has_time_macro(r->itext, r->ilen))
        goto done;
    if (dep_list(s->depfile, &o->start, &list) != 0)
        goto done;
    if (!(obj = ku_read_file(out, &nobj)))
        goto done;
    objkey(o, r, key);
    if (entry_path(o, key, dir, sizeof dir, path, sizeof path) != 0)
        goto done;
    ku_buf_put(&entry, OC_MAGIC);
    ku_buf_printf(&entry, "K %s\nD %zu\n", key, list.len);
    ku_buf_putn(&entry, list.s ? list.s : "", list.len);
    ku_buf_printf(&entry, "\nE %zu\n", s->err.len);
    ku_buf_putn(&entry, s->err.s ? s->err.s : "", s->err.len);
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
