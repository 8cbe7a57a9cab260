/*
 * bestmap.h -- what a good port of a nest would give: the GPU time of the
 * best legal mapping keel can see beside the mapping as compiled, and
 * what to change to get it.  For `keel explain` and `keel report` (and
 * any other report: one call per nest).
 *
 * Legal mappings searched: the launch loop and the chain of loops below
 * it that are each parallel (an OpenMP loop construct or IPDA's proof)
 * and the only loop directly inside the one before.  Every dependence of
 * such a chain is equal at all its levels, so any of its loops may be the
 * GPU's thread index and the launch loop's iterations spread over teams
 * with it (collapse(2) for the loop directly inside; a loop deeper in the
 * chain is first moved out past the loops between), the first three may
 * be collapsed together (collapse(3)), and any loop of a collapsed space
 * may be made its innermost (an interchange), which decides the accesses'
 * coalescing: consecutive threads step along the innermost.  Each candidate is
 * evaluated by the same models at the same values (runtime/sweep.h) with
 * the thread loop changed (rt_facts_remap), so the work items and the
 * coalescing of every access follow the new thread index.  Time-stepped
 * regions and nests that are not parallel are not searched.  The verdict
 * at run time stays about the code as compiled.
 */
#ifndef KEEL_CLI_BESTMAP_H
#define KEEL_CLI_BESTMAP_H

#include <stddef.h>

#include "db.h"
#include "facts.h"
#include "sweep.h"

typedef struct {
    int searched;             /* 0: no search (note says why) */
    int candidates;           /* legal mappings evaluated (the compiled one included) */
    int better;               /* 1: another mapping is faster by 5% or more */
    int line;                 /* the best mapping's thread loop: its line */
    int collapse;             /* loops in its collapsed space (1: the launch loop alone) */
    int fast_line;            /* its fastest-varying loop (consecutive threads): its line */
    double items_as, items_best;       /* GPU work items */
    double gpu_as_s, gpu_best_s;       /* kernel times (the transfer is the same) */
    double cpu_s, xfer_s;
    char privatise[160];      /* arrays to privatise first ("u1, u2"), "" none */
    char serial_why[200];     /* then: why the loop is sequential as written */
    char change[600];         /* what to change and what it gives; else why nothing */
} keel_bestmap;

/* The best mapping of nest f (loaded from d, not necessarily bound) at
 * size n of sweep s (as rt_sweep_at takes them).  0 with *out (searched 0
 * and a note in change when there is nothing to search), -1 with a
 * message when the nest cannot be evaluated at that size. */
int keel_bestmap_find(db *d, const rt_facts *f, const rt_sweep *s, long long n,
                      keel_bestmap *out, char *err, size_t errlen);

#endif
