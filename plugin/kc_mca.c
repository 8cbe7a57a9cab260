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
