/*
 * kc_mca.c -- keelcc's llvm-mca step.
 *
 * After the compile, each analysed source with a nest the runtime could
 * launch is compiled again to assembly for each target CPU (-S, the
 * command's own flags) and its loops' assembly blocks are measured with
 * llvm-mca (plugin/mcarun.c does the work, reusing the figures the
 * database's mca_cache holds).  A large source's assembly compile starts
 * before the parse instead (kc_mca_early), beside it.  The step's warnings are held back and
 * printed only once the compile's own messages are out.
 *
 * A `-c` compile of one source whose flags already write debug line tables
 * (-g, -gline-tables-only, ...) needs no second compile: the compile
 * also writes the two passes' remarks (-fsave-optimization-record into a
 * temporary file: with line tables on, the object is byte for byte the
 * same), and once it has succeeded, the stage reads the loops' machine
 * code and lines from the user's own object (llvm-objdump, mcaobj.c) in
 * place of the assembly compile (kc_mca_prepare, kc_mca_after).  Whatever
 * that cannot read, the assembly compile runs then.  KEEL_MCA_OBJECT=off
 * turns it off.
 */
#include "kc_int.h"

/* ---- the llvm-mca stage (plugin/mcarun.c) ---- */

mcr_config kc_mca_cfg;

/* The stage's warnings wait for the compile's result: a failed compile
 * shows the compiler's messages only. */
ku_buf kc_mca_deferred;     /* one line per warning */

static void mca_warn(void *ctx, const char *line)
{
    analysed *r = ctx;      /* NULL: not about one source */
    ku_buf_put(&kc_mca_deferred, line);
    ku_buf_putc(&kc_mca_deferred, '\n');
    if (r) {
        ku_buf_put(&r->warns, line);
        ku_buf_putc(&r->warns, '\n');
    }
}

/* Print (when the compile succeeded) and drop the stage's warnings. */
void kc_mca_flush(int status)
{
    if (status == 0 && kc_mca_deferred.oom)
        kc_warn("out of memory keeping the llvm-mca stage's warnings");
    for (char *p = kc_mca_deferred.s, *nl; status == 0 && p && (nl = strchr(p, '\n')); p = nl + 1)
        kc_warn("%.*s", (int)(nl - p), p);
    ku_buf_free(&kc_mca_deferred);
}

/* A source at least this large (bytes of its own text) has its assembly
 * compile started before the parse (kc_mca_early): its parse and analyses
 * take long enough (NPB's bt.c, 110 KB: about 1 s of CPU) that running the
 * compile beside them shortens the build on a machine with a free core.
 * A small source's parse is over in tens of milliseconds, and a source
 * that turns out to have no launchable nest (no assembly compile at all)
 * would pay for one started early: small sources wait for the parse. */
#define KC_MCA_EARLY_BYTES (32 * 1024)

static int cfg_ready;
static mcr_early *early;

/* The object path (kc_mca_prepare): wanted for this command (the remark
 * options added to its compile), taken by kc_mca_stage (deferred to
 * kc_mca_after), the object and the remarks file. */
static int obj_wanted, obj_deferred;
static char obj_path[4096], obj_remarks[KU_TMP_PATH], obj_remarks_opt[KU_TMP_PATH + 40];

/* Set up the stage's configuration once; reports its problems. */
static void mca_config(const options *o)
{
    if (cfg_ready)
        return;
    cfg_ready = 1;
    mcr_config_init(&kc_mca_cfg, o->mcpu, o->llvm_mca);
    char line[1200];
    if (kc_mca_cfg.error) {
        snprintf(line, sizeof line, "%s (no cycles per iteration recorded)", kc_mca_cfg.error);
        mca_warn(NULL, line);
    }
    for (int t = 0; t < kc_mca_cfg.ntargets; t++)
        if (kc_mca_cfg.t[t].skip)
            mca_warn(NULL, kc_mca_cfg.t[t].skip);
}

int kc_mca_configured(void)
{
    return cfg_ready;
}

/* Before the parse: start the assembly compiles of the large sources the
 * database does not hold (KC_MCA_EARLY_BYTES), so that they run beside
 * the parse and analyses; kc_mca_stage takes them over, or stops those of
 * a source that has no launchable nest after all. */
void kc_mca_early(const options *o, analysed *res)
{
    if (obj_wanted)
        return;     /* the object will be read: no compile to start */
    int *want = calloc((size_t)o->nsources + 1, sizeof *want);
    void **ctx = calloc((size_t)o->nsources + 1, sizeof *ctx);
    int any = 0;
    for (int i = 0; want && ctx && i < o->nsources; i++) {
        struct stat st;
        want[i] = !res[i].hit && stat(o->sources[i], &st) == 0 && S_ISREG(st.st_mode)
                  && st.st_size >= KC_MCA_EARLY_BYTES;
        ctx[i] = &res[i];
        any |= want[i];
    }
    if (any) {
        mca_config(o);
        early = mcr_early_start(&kc_mca_cfg, o->nsources, want, o->ncc, o->cc,
                                (const char *const *)o->sources, mca_warn, ctx);
    }
    free(want);
    free(ctx);
}

/* Run llvm-mca over the loops of every analysed source (before the
 * compiler's result is known: the assembly compiles overlap with it). */
void kc_mca_stage(const options *o, analysed *res)
{
    int need = 0;
    for (int i = 0; i < o->nsources; i++)
        need |= !res[i].hit && !res[i].no_sites;
    if (!need) {
        mcr_early_free(early);     /* no source has a site after all */
        early = NULL;
        return;     /* not even llvm-mca's host CPU query */
    }
    mca_config(o);
    if (obj_wanted && !kc_mca_cfg.error) {
        int own = 1;
        for (int t = 0; t < kc_mca_cfg.ntargets; t++)
            own &= !kc_mca_cfg.t[t].triple;
        if (own) {
            obj_deferred = 1;     /* kc_mca_after, once the object exists */
            return;
        }
    }
    db *cache = NULL;
    char err[512];
    if (!kc_mca_cfg.error && db_open(o->db_path, DB_READONLY, &cache, err, sizeof err) != 0)
        cache = NULL;
    /* all sources at once: one llvm-mca process per target for the command */
    const ir_tu **tus = calloc((size_t)o->nsources + 1, sizeof *tus);
    void **ctx = calloc((size_t)o->nsources + 1, sizeof *ctx);
    mcr_result **out = calloc((size_t)o->nsources + 1, sizeof *out);
    if (tus && ctx && out) {
        for (int i = 0; i < o->nsources; i++) {
            /* a source the instrumentation found no site in has no nest the
             * runtime could ever launch: no assembly compile, no llvm-mca */
            tus[i] = res[i].hit || res[i].no_sites ? NULL : res[i].ir;
            ctx[i] = &res[i];
        }
        mcr_run_tus_early(&kc_mca_cfg, o->nsources, tus, o->ncc, o->cc,
                          (const char *const *)o->sources, cache, mca_warn, ctx, out, early);
        for (int i = 0; i < o->nsources; i++)
            res[i].mca = out[i];
    }
    free(tus);
    free(ctx);
    free(out);
    mcr_early_free(early);
    early = NULL;
    db_close(cache);
}

/* Before the compile starts: does this command take the object path?  A
 * `-c` compile of one source, analysed and with the llvm-mca stage on,
 * whose own flags write line tables with columns (cc_debug_lines) and
 * neither record the command line in the object nor ask for remarks of
 * their own (cc_records_options); no --target (the object must be this
 * host's kind, x86-64 ELF); no remapped debug paths (-ffile-prefix-map
 * and the like: the line table would not name the source); no OpenMP: with full debug information clang
 * outlines OpenMP regions through extra `_debug__` functions, so the -g
 * object's region code is not what the assembly compile's line tables
 * give, and the mapping picks other copies (13 PolyBench offload
 * programs: 9 with other figures).  Then the compile (o->cc, past the user's
 * arguments, as the object cache's -MD) also writes the remarks the
 * mapping reads into a temporary file. */
void kc_mca_prepare(options *o, const options *user)
{
    const char *env = getenv("KEEL_MCA_OBJECT");
#if !defined(__x86_64__)
    return;
#endif
    if ((env && strcmp(env, "off") == 0) || !o->mca || o->analysis != 1 || !o->compiles
        || o->links || o->c_or_s != 'c' || o->nsources != 1
        || !cc_debug_lines(user->ncc, user->cc) || cc_records_options(user->ncc, user->cc))
        return;
    for (int i = 1; i < user->ncc; i++)
        if (strcmp(user->cc[i], "-target") == 0 || strncmp(user->cc[i], "--target", 8) == 0
            || strcmp(user->cc[i], "-m32") == 0 || strcmp(user->cc[i], "-mx32") == 0
            || strcmp(user->cc[i], "-m16") == 0 || strcmp(user->cc[i], "-emit-llvm") == 0
            || strncmp(user->cc[i], "-flto", 5) == 0 || strncmp(user->cc[i], "-save-temps", 11) == 0
            || strncmp(user->cc[i], "-fopenmp", 8) == 0 || strncmp(user->cc[i], "-fiopenmp", 9) == 0
            || strncmp(user->cc[i], "-ffile-prefix-map", 17) == 0
            || strncmp(user->cc[i], "-fdebug-prefix-map", 18) == 0
            || strncmp(user->cc[i], "-fdebug-compilation-dir", 23) == 0
            || strncmp(user->cc[i], "-ffile-compilation-dir", 22) == 0)
            return;
    if (o->output) {
        if (strcmp(o->output, "-") == 0)
            return;
        snprintf(obj_path, sizeof obj_path, "%s", o->output);
    } else {
        /* clang's own: the source's name, its suffix .o, here */
        const char *b = strrchr(o->sources[0], '/');
        b = b ? b + 1 : o->sources[0];
        const char *dot = strrchr(b, '.');
        int k = dot ? (int)(dot - b) : (int)strlen(b);
        snprintf(obj_path, sizeof obj_path, "%.*s.o", k, b);
    }
    int fd = ku_mkstemp(obj_remarks, sizeof obj_remarks, NULL, "keel-remarks-", ".yaml");
    if (fd < 0)
        return;
    close(fd);
    snprintf(obj_remarks_opt, sizeof obj_remarks_opt, "-foptimization-record-file=%s",
             obj_remarks);
    int n0 = o->ncc;
    kc_push(o, &o->ncc, &o->cc, "-fsave-optimization-record");
    kc_push(o, &o->ncc, &o->cc, MCR_REMARK_PASSES);
    kc_push(o, &o->ncc, &o->cc, obj_remarks_opt);
    if (o->oom) {
        o->oom = 0;
        o->ncc = n0;
        o->cc[n0] = NULL;
        unlink(obj_remarks);
        obj_remarks[0] = '\0';
        return;
    }
    obj_wanted = 1;
}

/* After the compile (status): the stage kc_mca_stage left for the object,
 * from the object when it can be read, else with the assembly compile. */
void kc_mca_after(const options *o, analysed *res, int status)
{
    if (obj_deferred && status == 0) {
        char err[512];
        char *asm_text = NULL, *yaml = NULL;
        int from_obj = mcr_object_asm(&kc_mca_cfg, obj_path, &asm_text, err, sizeof err) == 0;
        if (from_obj)
            yaml = ku_read_file(obj_remarks, NULL);
        const char *dbg = getenv("KEEL_MCA_OBJECT_DEBUG");
        if (dbg) {
            /* tests: which way the stage went; a path: the assembly too */
            fprintf(stderr, "keelcc: mca: %s\n", from_obj ? "from the object" : err);
            if (from_obj && dbg[0] == '/')
                ku_write_file(dbg, asm_text, strlen(asm_text));
        }
        db *cache = NULL;
        if (db_open(o->db_path, DB_READONLY, &cache, err, sizeof err) != 0)
            cache = NULL;
        const ir_tu **tus = calloc((size_t)o->nsources + 1, sizeof *tus);
        void **ctx = calloc((size_t)o->nsources + 1, sizeof *ctx);
        mcr_result **out = calloc((size_t)o->nsources + 1, sizeof *out);
        const char **asms = calloc((size_t)o->nsources + 1, sizeof *asms);
        const char **yamls = calloc((size_t)o->nsources + 1, sizeof *yamls);
        if (tus && ctx && out && asms && yamls) {
            for (int i = 0; i < o->nsources; i++) {
                tus[i] = res[i].hit || res[i].no_sites ? NULL : res[i].ir;
                ctx[i] = &res[i];
                asms[i] = asm_text;
                yamls[i] = yaml ? yaml : "";
            }
            if (from_obj)
                mcr_run_tus_given(&kc_mca_cfg, o->nsources, tus, o->ncc, o->cc,
                                  (const char *const *)o->sources, cache, mca_warn, ctx, out,
                                  asms, yamls);
            else
                mcr_run_tus_early(&kc_mca_cfg, o->nsources, tus, o->ncc, o->cc,
                                  (const char *const *)o->sources, cache, mca_warn, ctx, out,
                                  NULL);
            for (int i = 0; i < o->nsources; i++)
                res[i].mca = out[i];
        }
        free(tus);
        free(ctx);
        free(out);
        free(asms);
        free(yamls);
        free(asm_text);
        free(yaml);
        db_close(cache);
    }
    if (obj_remarks[0])
        unlink(obj_remarks);
    obj_remarks[0] = '\0';
    obj_wanted = obj_deferred = 0;
}
