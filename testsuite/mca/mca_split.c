/*
 * mca_split.c -- the llvm-mca stage gives every loop the same figures
 * whether a source's blocks run through one llvm-mca process or are split
 * over several (mcr_config.batch_lines), and the split starts exactly the
 * processes it says.
 *
 *     mca_split SOURCE [CLANG-FLAGS...]
 *
 * Parses SOURCE with the libclang walker, runs the stage (host CPU, no
 * cache) once with one process and once with one process per line (at
 * most two), and compares every (loop, target) row field by field.
 * Prints "same N" (N: loops with figures) or the first difference.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcarun.h"
#include "walker.h"

static void warn(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "mca_split: %s\n", line);
}

static int same_double(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: mca_split SOURCE [CLANG-FLAGS...]\n");
        return 2;
    }
    char err[512];
    ir_tu *tu;
    if (walk_file(argv[1], argc - 2, (const char *const *)argv + 2, &tu, err, sizeof err)) {
        fprintf(stderr, "mca_split: %s\n", err);
        return 1;
    }
    char *cc[64] = { "clang-19", "-O2" };
    int ncc = 2;
    for (int i = 2; i < argc && ncc < 62; i++)
        cc[ncc++] = argv[i];
    cc[ncc++] = "-c";
    cc[ncc++] = argv[1];
    cc[ncc] = NULL;

    mcr_config cfg;
    mcr_config_init(&cfg, NULL, "llvm-mca-19");
    if (cfg.error) {
        fprintf(stderr, "mca_split: %s\n", cfg.error);
        return 1;
    }
    cfg.jobs = 2;
    cfg.batch_lines = 1 << 30;
    mcr_result *one = mcr_run_tu(&cfg, tu, ncc, cc, argv[1], NULL, warn, NULL);
    cfg.batch_lines = 1;
    mcr_result *split = mcr_run_tu(&cfg, tu, ncc, cc, argv[1], NULL, warn, NULL);
    int rc = 0, nok = 0;
    if (!one || !split) {
        fprintf(stderr, "mca_split: out of memory\n");
        return 1;
    }
    printf("processes %d %d\n", one->mca_runs, split->mca_runs);
    for (int k = 0; k < one->ntargets * one->nloops && rc == 0; k++) {
        const db_mca_row *a = &one->r[k].row, *b = &split->r[k].row;
        int l = k % one->nloops;
        int same = a->ok == b->ok && same_str(a->reason, b->reason)
                   && same_str(a->asm_label, b->asm_label) && a->asm_copies == b->asm_copies
                   && a->figs.ok == b->figs.ok
                   && same_double(a->figs.cycles_per_iter, b->figs.cycles_per_iter)
                   && same_double(a->figs.block_rthroughput, b->figs.block_rthroughput)
                   && same_double(a->figs.ipc, b->figs.ipc)
                   && same_double(a->figs.uops_per_iter, b->figs.uops_per_iter)
                   && strcmp(a->figs.top_resource, b->figs.top_resource) == 0
                   && same_double(a->figs.top_resource_cycles, b->figs.top_resource_cycles)
                   && a->has_cycles_per_src_iter == b->has_cycles_per_src_iter
                   && same_double(a->cycles_per_src_iter, b->cycles_per_src_iter)
                   && same_str(a->whole_iter_millicycles, b->whole_iter_millicycles);
        if (!same) {
            printf("loop at line %d differs: %s %.4f / %s %.4f\n", tu->loops[l].line,
                   a->ok ? "ok" : a->reason, a->figs.cycles_per_iter,
                   b->ok ? "ok" : b->reason, b->figs.cycles_per_iter);
            rc = 1;
        }
        nok += a->ok;
    }
    if (rc == 0)
        printf("same %d\n", nok);
    mcr_result_free(one);
    mcr_result_free(split);
    mcr_config_free(&cfg);
    ir_tu_free(tu);
    return rc;
}
