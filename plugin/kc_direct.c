/*
 * kc_direct.c -- build variants and keelcc's direct mode (the build cache).
 *
 * A build variant tells one build of a source from another: the flags that
 * change the preprocessed text and the contents of the non-system headers
 * read.  Direct mode, as ccache's, skips the parse and the analyses when
 * the database holds this very build of unchanged files: the key covers
 * keel, the compiler, the modes and every argument that can change the
 * result; the entry lists the files the parse read with their hashes, the
 * instrumented text compiled and keel's warnings about it (plugin/cache.c
 * hashes the files).
 */
#include "kc_int.h"

/* ---- build variants -------------------------------------------------------
 * One source compiled with other -D/-I/-std/-O/-m... flags is another build of
 * it, with other loops at the same positions: the database keeps one set of
 * rows per (path, variant), variant = FNV-1a of the flags the source is
 * parsed with (o->clang, the flags that change the preprocessed text), and
 * each site names its build by the FNV-1a of the source's bytes followed
 * by those flags (translation_units.hash, the site's "#h=").  An edited
 * source keeps its variant (its rows are replaced) but gets another hash,
 * so a program built before the edit finds its facts gone: CPU. */

#define FNV_START KU_FNV_KEEL_START
#define fnv_bytes ku_fnv1a64_update

/* Header search options: what they find is in ir_tu.headers_hash, their
 * folders are not (one utility source compiled with each program's own -I
 * folder is one build; direct mode hashes them apart, direct_key).
 * Longest first where one is the start of another (search_opt matches
 * joined forms by prefix). */
static const char *const search_opts[] = {
    "-iwithprefixbefore", "-iwithprefix", "-iprefix", "-idirafter", "-isystem", "-iquote",
    "-I", NULL
};

/* h continued over each parse flag but the search folders, each with its
 * terminating NUL, then over the headers' hash hh (ir_tu.headers_hash). */
uint64_t kc_fnv_flags(uint64_t h, const options *o, unsigned long long hh)
{
    for (int i = 0; i < o->nclang; i++) {
        if (cc_in_list(search_opts, o->clang[i])) {
            i++;
            continue;
        }
        if (kc_joined_prefix(search_opts, o->clang[i]))
            continue;
        h = fnv_bytes(h, o->clang[i], strlen(o->clang[i]) + 1);
    }
    return fnv_bytes(h, &hh, sizeof hh);
}

/* The variant and build hashes of source path (analysed into ir, or NULL),
 * as 16 hex digits; the build hash "" when the file is unreadable. */
void kc_build_hashes(const options *o, const char *path, const ir_tu *ir, char variant[17],
                         char build[17])
{
    uint64_t v = kc_fnv_flags(FNV_START, o, ir ? ir->headers_hash : 0);
    snprintf(variant, 17, "%016llx", (unsigned long long)v);
    build[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    uint64_t h = FNV_START;
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        h = fnv_bytes(h, chunk, n);
    int bad = ferror(f);
    fclose(f);
    if (!bad)
        snprintf(build, 17, "%016llx",
                 (unsigned long long)fnv_bytes(fnv_bytes(h, "", 1), &v, sizeof v));
}

/* The absolute path of the file the compile writes for source i (-o, else
 * the compiler's default name), "" when it writes none. */
void kc_object_of(const options *o, int i, char *out, size_t n)
{
    char name[PATH_MAX], cwd[PATH_MAX];
    out[0] = '\0';
    if (o->analysis == 2 || !o->compiles)
        return;
    if (o->output && (o->links || o->nsources == 1))
        snprintf(name, sizeof name, "%s", o->output);
    else if (o->links)
        snprintf(name, sizeof name, "a.out");
    else {
        const char *b = strrchr(o->sources[i], '/');
        b = b ? b + 1 : o->sources[i];
        size_t len = strlen(b);
        if (len > 2 && (strcmp(b + len - 2, ".c") == 0 || strcmp(b + len - 2, ".i") == 0))
            len -= 2;
        snprintf(name, sizeof name, "%.*s.%s", (int)len, b, o->c_or_s == 'S' ? "s" : "o");
    }
    int k = name[0] == '/' || !getcwd(cwd, sizeof cwd) ? snprintf(out, n, "%s", name)
          : snprintf(out, n, "%s/%s", cwd, name);
    if (k < 0 || (size_t)k >= n)
        out[0] = '\0';    /* no object rather than another one's name */
}

/* ---- direct mode -----------------------------------------------------------
 *
 * A rebuild of unchanged code skips the parse, the analyses and llvm-mca,
 * as ccache's direct mode skips the compiler: each recorded build keeps a
 * direct_cache row (db/db_direct.h) with its key, the header search lists
 * it is known under, the list of files its parse read with their hashes
 * (plugin/cache.h), the instrumented text it compiled and keel's warnings
 * about it.  A later keelcc run whose key matches a row compiles that
 * stored text (the compiler always runs: its result is never reused) and
 * replays the warnings, when
 *  - the row lists this command's search list and every listed file still
 *    hashes the same (an exact hit: nothing is run, nothing is written), or
 *  - another command recorded it (e.g. one utility source compiled by each
 *    program of a suite with the program's own -I folder, inputs and -o):
 *    then the preprocessor runs once on the source with the flags the
 *    parse uses (pp_list) and the hit needs the files it enters, in order,
 *    to be the row's files (real paths), all unchanged, and the build
 *    variant they give (walker.c's headers hash over the non-system ones)
 *    to be the row's.  Such a hit adds this search list to the row, and
 *    makes the build's translation_units row name this command's object and
 *    arguments (db_direct_refresh, after the compile succeeded), as a
 *    compile of this command would have left it; an exact hit writes
 *    nothing, so the row keeps the object and arguments of the command
 *    that recorded or last proved it.  Any doubt (the
 *    preprocessor fails, a name it prints is escaped, a path does not
 *    resolve) is a miss.
 *
 * The key covers everything else a build's rows and text depend on: keel's
 * version and binary (size, modification time), the compiler's and
 * llvm-mca's (ccache's default "mtime" compiler check), the modes
 * (analysis, instrumentation, llvm-mca and its CPUs, and the machine when
 * they are the host's), the absolute database path the sites name, the
 * working folder, the header search variables (CPATH, C_INCLUDE_PATH),
 * keel's runtime paths, the source's path and bytes, and every compiler
 * argument (response files' contents in place) except what cannot change
 * them: the command's other input files, -o and its value, the dependency
 * file options (-MD -MMD -MP -MF -MT -MQ and their values) and the header
 * search options (-I -iquote -isystem -idirafter -iprefix -iwithprefix
 * -iwithprefixbefore with their values; hashed apart into the search
 * list's hash with the working folder).  The rows name files by real path
 * (walker.c), the sites name the source by its real path and the build by
 * its hash (build_hashes: the source's bytes and the variant), so where
 * the headers are found changes neither once the same files are read.  So
 * a changed flag, source or header, another keelcc, compiler or mode, or
 * a deleted, recreated or replaced database (the row goes with its build:
 * ON DELETE CASCADE) misses.  Not cached (always parsed): a build whose
 * parse failed, whose analyses failed, whose instrumentation failed, whose
 * llvm-mca stage could not run for some target, a file the parse read that
 * changed during this run (modified less than a second before keelcc
 * started: ccache's "too new"), --keel-dump-ir and keel scan.  As with
 * ccache, under a search list the row already lists, a new header that
 * would shadow a listed one earlier in the search path is not noticed. */


/* The part of every source's key that the command shares (keel, the
 * compiler, llvm-mca, modes, database, folder, environment) into *base. */
static void direct_base(const options *o, dc_hash *base)
{
    static const char *const env[] = { "CPATH", "C_INCLUDE_PATH", "KEEL_RT_HEADER",
                                        "KEEL_RT_LIB", NULL };
    dc_hash h;
    dc_init(&h);
    dc_str(&h, "keelcc direct mode 3");
    dc_str(&h, KEEL_VERSION);
    dc_program(&h, "/proc/self/exe");
    char walker[PATH_MAX + 64];
    kc_walker_path(walker, sizeof walker);
    dc_program(&h, walker);
    dc_str(&h, o->compiler);
    dc_program(&h, o->compiler);
    int modes[3] = { o->analysis, (int)o->instrument, o->mca };
    dc_bytes(&h, modes, sizeof modes);
    if (o->mca) {
        dc_str(&h, o->llvm_mca);
        dc_program(&h, o->llvm_mca);
        dc_str(&h, o->mcpu);
        struct utsname u;
        if ((!o->mcpu || !*o->mcpu) && uname(&u) == 0) {
            dc_str(&h, u.nodename);
            dc_str(&h, u.machine);
        }
    }
    char db[PATH_MAX + 1], cwd[PATH_MAX];
    kc_absolute_db(o->db_path, db, sizeof db);
    dc_str(&h, db);
    dc_str(&h, getcwd(cwd, sizeof cwd) ? cwd : NULL);
    /* $PWD as LLVM reads it: only when it names the working folder (make -C
     * passes the caller's, which LLVM then ignores), and only when it spells
     * it otherwise than getcwd() (a path through a symbolic link) */
    const char *pwd = getenv("PWD");
    struct stat ps, ds;
    int pwd_used = pwd && pwd[0] == '/' && stat(pwd, &ps) == 0 && stat(".", &ds) == 0
                   && ps.st_dev == ds.st_dev && ps.st_ino == ds.st_ino
                   && !(getcwd(cwd, sizeof cwd) && strcmp(cwd, pwd) == 0);
    dc_str(&h, pwd_used ? pwd : NULL);
    for (int k = 0; env[k]; k++) {
        dc_str(&h, env[k]);
        dc_str(&h, getenv(env[k]));
    }
    *base = h;
}

/* The search option a (joined or not) is, or NULL. */
static const char *search_opt(const char *a)
{
    for (int k = 0; search_opts[k]; k++)
        if (strncmp(a, search_opts[k], strlen(search_opts[k])) == 0)
            return search_opts[k];
    return NULL;
}

/* Is a (without its value) an option that only names an output: -o,
 * the dependency file options? */
static int output_opt(const char *a)
{
    return (strncmp(a, "-o", 2) == 0 && strncmp(a, "-obj", 4) != 0)
        || strncmp(a, "-MF", 3) == 0 || strncmp(a, "-MT", 3) == 0 || strncmp(a, "-MQ", 3) == 0
        || strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0 || strcmp(a, "-MP") == 0;
}

/* The key of source i's build into key and the hash of the command's
 * header search list (with a newline) into search, from the command's
 * base; -1 when the source is unreadable. */
static int direct_key(const dc_hash *base, const options *o, int i, char key[33],
                      char search[34])
{
    dc_hash h = *base, s;
    char cwd[PATH_MAX];
    dc_init(&s);
    dc_str(&s, "keelcc search list 1");
    dc_str(&s, getcwd(cwd, sizeof cwd) ? cwd : NULL);
    dc_str(&h, o->sources[i]);
    dc_str(&h, o->xcc[0]);
    for (int k = 1; k < o->nxcc; k++) {
        const char *a = o->xcc[k], *so = search_opt(a);
        if (cc_in_list(cc_value_options, a) && k + 1 < o->nxcc) {
            const char *v = o->xcc[++k];
            if (so && strcmp(so, a) == 0) {
                dc_str(&s, so);
                dc_str(&s, v);
            } else if (!output_opt(a)) {
                dc_str(&h, a);
                dc_str(&h, v);
            }
            continue;
        }
        if (a[0] != '-' || strcmp(a, "-") == 0)
            continue;       /* an input: this source is hashed on its own */
        if (so) {
            dc_str(&s, so);
            dc_str(&s, a + strlen(so));
        } else if (!output_opt(a)) {
            dc_str(&h, a);
            /* -march=native, -mcpu=native: the parse's macros and the
             * llvm-mca stage's code are this host's (by name, as the
             * host's llvm-mca CPU is keyed in direct_base) */
            struct utsname u;
            if (strncmp(a, "-m", 2) == 0 && strstr(a, "=native") && uname(&u) == 0) {
                dc_str(&h, u.nodename);
                dc_str(&h, u.machine);
            }
        }
    }
    if (dc_file(&h, o->sources[i]) != 0)
        return -1;
    dc_hex(&h, key);
    dc_hex(&s, search);
    search[32] = '\n';
    search[33] = '\0';
    return 0;
}

/* Does the entry's search list (hashes with newlines) hold search? */
static int search_listed(const char *list, const char *search)
{
    /* every line is 32 hex digits: a match is a whole line */
    return list && strstr(list, search) != NULL;
}

/* The files a preprocessor run enters, from its output t (clang's line
 * markers: `# LINE "NAME" FLAGS`, flag 1 entering a file, 3 a system
 * header): their real paths in order, the main file first, one per line,
 * into files, and walker.c's headers hash (contents of every entered
 * non-system file with a 0xff after each) into *hh; -1 when in doubt. */
static int pp_parse(const char *t, ku_buf *files, unsigned long long *hh)
{
    int first = 1;
    *hh = IR_HEADERS_HASH_START;
    for (const char *p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (p[0] != '#' || p[1] != ' ' || p[2] < '0' || p[2] > '9')
            continue;
        const char *q = p + 2;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q[0] != ' ' || q[1] != '"')
            return -1;
        const char *name = q + 2, *end = name + strcspn(name, "\"\\\n");
        if (*end != '"' || end == name || end - name >= PATH_MAX)
            return -1;      /* an escaped name: doubt */
        int enter = 0, sys = 0;
        for (q = end + 1; *q == ' ' && q[1] >= '1' && q[1] <= '4'; q += 2) {
            enter |= q[1] == '1';
            sys |= q[1] == '3';
        }
        if (name[0] == '<' || (!first && !enter))
            continue;       /* <built-in>, <command line>; a return */
        char path[PATH_MAX], real[PATH_MAX];
        memcpy(path, name, (size_t)(end - name));
        path[end - name] = '\0';
        if (!realpath(path, real))
            return -1;
        ku_buf_printf(files, "%s\n", real);
        if (!first && !sys) {
            size_t len;
            char *c = ku_read_file(path, &len);
            if (!c)
                return -1;
            *hh = ir_headers_hash_add(*hh, c, len);
            free(c);
        }
        first = 0;
    }
    return first || files->oom ? -1 : 0;
}

/* Run the preprocessor once on source i with the flags its parse uses
 * (libclang's own clang: KEEL_PP_CLANG) into res->pp_files and
 * res->pp_variant; res->pp 1, or -1 when anything failed. */
static void pp_list(const options *o, int i, analysed *r)
{
    char tmp[PATH_MAX];
    r->pp = -1;
    int fd = ku_mkstemp(tmp, sizeof tmp, ku_tmpdir(), "keel-pp-", ".i");
    if (fd < 0)
        return;
    close(fd);
    char **argv = calloc((size_t)o->nclang + 6, sizeof *argv);
    int n = 0;
    if (argv) {
        static char cc[] = KEEL_PP_CLANG, E[] = "-E", O[] = "-o";
        argv[n++] = cc;
        for (int k = 0; k < o->nclang; k++)
            argv[n++] = o->clang[k];
        argv[n++] = E;
        argv[n++] = O;
        argv[n++] = tmp;
        argv[n++] = o->sources[i];
        argv[n] = NULL;
    }
    ku_io io = { .out = "/dev/null", .err = "/dev/null", .err_fd = -1 };
    pid_t pid;
    unsigned long long hh;
    if (argv && ku_spawn(argv, &io, &pid) == 0 && ku_wait(pid) == 0) {
        char *t = ku_read_file(tmp, NULL);
        if (t && pp_parse(t, &r->pp_files, &hh) == 0) {
            snprintf(r->pp_variant, sizeof r->pp_variant, "%016llx",
                     (unsigned long long)kc_fnv_flags(FNV_START, o, hh));
            r->pp = 1;
        }
        free(t);
    }
    free(argv);
    unlink(tmp);
}

/* Are the files of an entry's list (cache.h's lines), as real paths in
 * order, exactly `files` (pp_parse's)? */
static int same_files(const char *list, const char *files)
{
    char path[PATH_MAX + 1], real[PATH_MAX];
    size_t at = 0, flen = strlen(files), size;
    unsigned long long h;
    int rc;
    while ((rc = dc_inputs_next(&list, &h, &size, path, sizeof path)) == 1) {
        if (!realpath(path, real))
            return 0;
        size_t k = strlen(real);
        if (at + k + 1 > flen || memcmp(files + at, real, k) != 0 || files[at + k] != '\n')
            return 0;
        at += k + 1;
    }
    return rc == 0 && at == flen;
}

typedef struct {
    const options *o;
    int i;
    analysed *r;
    int cross;       /* 0: exact hits only; 1: entries of other search lists */
    int others;      /* entries of other search lists seen */
} direct_ctx;

/* db_direct_each's callback: the first entry that may be reused. */
static int direct_hit(void *ctx, const db_direct_entry *e)
{
    direct_ctx *c = ctx;
    analysed *r = c->r;
    int listed = search_listed(e->search, r->search);
    if (!c->cross) {
        c->others += !listed;
        if (!listed || !dc_inputs_same(e->inputs))
            return 0;
    } else {
        if (listed || !e->variant)
            return 0;       /* seen in the first pass */
        if (!r->pp)
            pp_list(c->o, c->i, r);
        if (r->pp != 1 || strcmp(e->variant, r->pp_variant) != 0
            || !same_files(e->inputs, r->pp_files.s ? r->pp_files.s : "")
            || !dc_inputs_same(e->inputs))
            return 0;
    }
    char *text = NULL;
    if (e->text && !(text = malloc(e->text_len + 1)))
        return 0;
    if (text) {
        memcpy(text, e->text, e->text_len);
        text[e->text_len] = '\0';
    }
    ku_buf_put(&r->warns, e->warnings);
    if (r->warns.oom) {
        free(text);
        ku_buf_free(&r->warns);
        return 0;
    }
    r->itext = text;
    r->ilen = text ? e->text_len : 0;
    r->ihave = text ? 1 : 0;
    r->hit_tu = e->tu_id;
    r->learn = c->cross;
    return 1;
}

/* Key every source and look it up (before the parse): exact hits first,
 * then, only when the key has entries of other search lists, through one
 * preprocessor run. */
void kc_direct_lookup(const options *o, analysed *res)
{
    if (!o->direct || o->analysis != 1 || o->dump_ir || !o->compiles)
        return;
    db *d = NULL;
    char err[512];
    if (db_open(o->db_path, DB_READONLY, &d, err, sizeof err) != 0)
        d = NULL;      /* no database yet: every source misses */
    dc_hash base;
    direct_base(o, &base);
    for (int i = 0; i < o->nsources; i++) {
        if (direct_key(&base, o, i, res[i].dkey, res[i].search) != 0) {
            res[i].dkey[0] = '\0';
            continue;
        }
        direct_ctx c = { .o = o, .i = i, .r = &res[i] };
        if (d && db_direct_each(d, res[i].dkey, direct_hit, &c, err, sizeof err) == 1)
            res[i].hit = 1;
        c.cross = 1;
        if (d && !res[i].hit && c.others
            && db_direct_each(d, res[i].dkey, direct_hit, &c, err, sizeof err) == 1)
            res[i].hit = 1;
    }
    db_close(d);
}

/* May this build (just made, about to be recorded) be reused? */
int kc_direct_cacheable(const options *o, const analysed *r)
{
    if (!r->dkey[0] || r->inputs_bad || !r->inputs.s || !r->ir || !r->an)
        return 0;
    if (o->instrument != INSTRUMENT_OFF && (r->ihave < 0 || (r->ihave == 1 && r->ilen > INT_MAX)))
        return 0;
    /* a source with no site runs no llvm-mca stage (kc_mca_stage): its
     * build does not depend on it */
    if (o->mca && !r->no_sites) {
        if (!r->mca || kc_mca_cfg.error)
            return 0;
        for (int t = 0; t < kc_mca_cfg.ntargets; t++)
            if (kc_mca_cfg.t[t].skip)
                return 0;
    }
    return 1;
}
