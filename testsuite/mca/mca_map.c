/*
 * mca_map.c -- print how analysis/mca.c maps a source's assembly loops.
 *
 *     mca_map SOURCE ASM [REMARKS.yaml] [-- CLANG-FLAGS...]
 *
 * Parses SOURCE with the libclang walker (with CLANG-FLAGS), reads the assembly and
 * optional remarks, and prints one line per source loop:
 *     LINE LABEL copies=N inner=0|1 vector=0|1 vf=V ic=I unroll=U iters=K
 * or `LINE - REASON`, then `unmapped: LABELS`; with MCA_MAP_BODIES set in
 * the environment, each mapped loop's llvm-mca input follows its line.  The mapping tests compare
 * this with hand-written expectations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mca.h"
#include "walker.h"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[n] = '\0';
    fclose(f);
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mca_map SOURCE ASM [REMARKS]\n");
        return 2;
    }
    char err[512];
    ir_tu *tu;
    int nflags = 0, dd = 3;
    while (dd < argc && strcmp(argv[dd], "--") != 0)
        dd++;
    if (dd < argc)
        nflags = argc - dd - 1;
    if (walk_file(argv[1], nflags, (const char *const *)argv + dd + 1, &tu, err, sizeof err)) {
        fprintf(stderr, "mca_map: %s\n", err);
        return 1;
    }
    char *asm_text = slurp(argv[2]), *yaml = dd > 3 ? slurp(argv[3]) : NULL;
    mca_plan *p;
    if (!asm_text || mca_plan_build(tu, asm_text, yaml, 1, &p, err, sizeof err)) {
        fprintf(stderr, "mca_map: %s\n", asm_text ? err : "cannot read the assembly");
        return 1;
    }
    for (int i = 0; i < tu->nloops; i++) {
        const mca_loop_plan *P = &p->loops[i];
        if (!P->ncopies)
            printf("%d - %s\n", tu->loops[i].line, P->reason);
        else
            printf("%d %s copies=%d inner=%d vector=%d vf=%d ic=%d unroll=%d iters=%d\n",
                   tu->loops[i].line, P->label, P->ncopies, P->asm_innermost, P->vector,
                   P->vf, P->ic, P->unroll, P->iters_per_asm);
        if (getenv("MCA_MAP_BODIES") && P->body)
            printf("%s", P->body);
    }
    printf("unmapped: %s\n", p->unmapped_labels ? p->unmapped_labels : "?");
    mca_plan_free(p);
    free(asm_text);
    free(yaml);
    ir_tu_free(tu);
    return 0;
}
