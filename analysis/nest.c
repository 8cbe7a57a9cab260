/*
 * nest.c -- freeing a loop nest's model (nest.h): every array, string and
 * expression it owns, partly filled arrays included (a load that failed
 * half-way frees what it made).
 */
#include "nest.h"

#include <stdlib.h>
#include <string.h>

static void free_loops(nest_loop *loops, int n)
{
    for (int k = 0; k < n; k++) {
        nest_loop *l = &loops[k];
        free(l->iv);
        free(l->gpu_map);
        for (int i = 0; i < l->nmca; i++)
            free(l->mca[i].target);
        free(l->mca);
        kx_free(l->trip);
        kx_free(l->lower);
        kx_free(l->last);
    }
    free(loops);
}

static void free_accs(nest_acc *accs, int n, int nloops)
{
    for (int a = 0; a < n; a++) {
        nest_acc *ac = &accs[a];
        for (int j = 0; j < ac->ndims; j++) {
            if (ac->index)
                free(ac->index[j]);
            if (ac->extent)
                kx_free(ac->extent[j]);
            for (int k = 0; ac->diff && k < nloops; k++)
                kx_free(ac->diff[j * nloops + k]);
        }
        for (int k = 0; ac->lin && k < nloops; k++)
            kx_free(ac->lin[k]);
        free(ac->lin);
        free(ac->index);
        free(ac->extent);
        free(ac->diff);
        free(ac->array);
        free(ac->text);
        kx_free(ac->stride);
    }
    free(accs);
}

void nest_free(nest_model *n)
{
    if (!n)
        return;
    free_loops(n->loops, n->nloops);
    free_accs(n->accs, n->naccs, n->nloops);
    for (int i = 0; i < n->nov; i++) {
        free(n->ov[i].base);
        kx_free(n->ov[i].offset);
    }
    free(n->ov);
    free(n->stmts);
    memset(n, 0, sizeof *n);
}
