/*
 * kc_mca.c -- keelcc's llvm-mca step.
 *
 * After the compile, each analysed source with a nest the runtime could
 * launch is compiled again to assembly for each target CPU (-S, the
 * command's own flags) and its loops' assembly blocks are measured with
 * llvm-mca (plugin/mcarun.c does the work, reusing the figures the
 * database's mca_cache holds).  The step's warnings are held back and
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

/* Run llvm-mca over the loops of every analysed source (before the
 * compiler's result is known: the assembly compiles overlap with it). */
void kc_mca_stage(const options *o, analysed *res)
{
    int need = 0;
    for (int i = 0; i < o->nsources; i++)
        need |= !res[i].hit && !res[i].no_sites;
    if (!need)
        return;     /* not even llvm-mca's host CPU query */
    mcr_config_init(&kc_mca_cfg, o->mcpu, o->llvm_mca);
    char line[1200];
    if (kc_mca_cfg.error) {
        snprintf(line, sizeof line, "%s (no cycles per iteration recorded)", kc_mca_cfg.error);
        mca_warn(NULL, line);
    }
    for (int t = 0; t < kc_mca_cfg.ntargets; t++)
        if (kc_mca_cfg.t[t].skip)
            mca_warn(NULL, kc_mca_cfg.t[t].skip);
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
        mcr_run_tus(&kc_mca_cfg, o->nsources, tus, o->ncc, o->cc, (const char *const *)o->sources,
                    cache, mca_warn, ctx, out);
        for (int i = 0; i < o->nsources; i++)
            res[i].mca = out[i];
    }
    free(tus);
    free(ctx);
    free(out);
    db_close(cache);
}
