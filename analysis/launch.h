/*
 * launch.h -- the facts libkeelrt's models need about a loop nest launched
 * at any of its loops, computed once by keelcc and stored (one model from
 * compiler to runtime: the runtime binds these, it derives nothing).
 *
 * Per loop: the offload verdict (its iterations may be spread over GPU
 * threads: an OpenMP loop construct shares them, or IPDA proved the loop
 * parallel).  Per launch root (every loop): the GPU mapping of the nest
 * rooted there -- which loops' iterations go to GPU threads, which loops
 * are the kernels of a time-stepped region -- and whether the kernels are
 * OpenMP `target` constructs.  Per access: the iteration-point difference
 * of its row-major linearised address and of each subscript along every
 * enclosing loop (ipd.h; the stride along the thread index is the one of
 * the thread loop).  Per statement: static cost estimates used where
 * llvm-mca gave no figure.
 *
 * The mapping rule (launch_map) is also what analysis/parallel.c uses to
 * pick the thread loops of access_strides, so `keel show` and `keel
 * explain` describe one mapping.
 *
 * Ownership: launch_analyze allocates a launch_result freed by launch_free.
 */
#ifndef KEEL_ANALYSIS_LAUNCH_H
#define KEEL_ANALYSIS_LAUNCH_H

#include <stddef.h>

#include "ir.h"
#include "parallel.h"

/* Is a loop parallel for offload?  role: its omp_map_role (0: none),
 * verdict: IPDA's.  An OpenMP loop construct that shares the iterations
 * (any role but seq) says yes; else IPDA's verdict `parallel` (a reduction
 * is not: the GPU code would race). */
int launch_parallel(int role, par_verdict verdict);

/* The GPU mapping of the nest rooted at loop `root` (README "GPU
 * mapping"): with an OpenMP construct in the nest, its thread loops
 * (grid/threads, or a teams loop with no thread loop below); otherwise
 * teams over a parallel root and threads over the first parallel loops
 * below it on every path (the root itself when there are none).  A
 * sequential root around parallel loops is a time-stepped region: the
 * first thread loops below it are kernel roots, each mapped like a launch
 * root.  parallel[] and roles[] (NULL: no OpenMP) are per IR loop; thread[]
 * and kernel[] (per IR loop) are written for the loops of the subtree only.
 * *region is 1 for a time-stepped region. */
void launch_map(const ir_tu *tu, const int *roles, const int *parallel, int root,
                unsigned char *thread, unsigned char *kernel, int *region);

/* Row-major element offset of an access (ip_linearize), NULL when unknown. */
kx_expr *launch_linearize(const ir_access *a);

typedef struct {
    int loop;                 /* IR index */
    unsigned char thread;     /* GPU threads take its iterations */
    unsigned char kernel;     /* outermost loop of one kernel of a region */
} launch_role;

typedef struct {
    int region;               /* 1: a sequential root around parallel kernels */
    int omp_target;           /* 1: the root's (region: each kernel's) construct is `omp target ...` */
    int nroles;
    launch_role *roles;       /* the subtree in preorder, roles[0] the root */
} launch_nest;

typedef struct {
    int loop;                 /* IR index of an enclosing loop (with a variable) */
    int dim;                  /* -1: the linearised address; else the subscript */
    char *stride;             /* expression text; NULL: unknown (irregular) */
} launch_stride;

typedef struct {
    double cycles;            /* one CPU core, per execution */
    double gpu_insts;         /* compute warp instructions per execution */
    double flops;
} launch_cost;

/* The run-time overlap condition of a nest (README "Aliasing"): IPDA
 * treats distinctly named arrays as distinct, so a parallel or reduction
 * verdict on a nest that reaches memory through two or more bases, at
 * least one written and not both array objects (pointer parameters and
 * locals, struct-member pointers, array parameters: they may point into
 * one block), holds only if their accessed ranges do not overlap.  One
 * entry per access of such a base; libkeelrt computes each access's byte
 * range from its offset, the loops' bounds and the launch's values and
 * the base address the call passes, and offloads only when every written
 * range is disjoint from every range of another base. */
typedef struct {
    int acc;                  /* access index in IR order */
    char *base;               /* the name: the variable whose address the call passes */
    char *offset;             /* row-major element offset from the base, affine in the
                               * nest's loop variables; NULL: not bounded (indirect,
                               * non-affine, unknown extents or element size) */
    int checkable;            /* 1: a pointer variable or array object the call can read
                               * before the loop and the nest does not assign; 0: no
                               * check is possible (a member, a local of the nest, a
                               * pointer the nest moves): never offloaded */
} launch_overlap;

typedef struct {
    int nloops;
    int *parallel;            /* [nloops] launch_parallel */
    int *noverlap;            /* [nloops]: entries of the nest's overlap condition, 0: none */
    launch_overlap **overlap; /* [nloops][noverlap] */
    launch_nest *nests;       /* [nloops]: the nest launched at each loop */
    int naccs;                /* accesses in IR order (loop, statement, access) */
    int *nstrides;            /* [naccs] */
    launch_stride **strides;  /* [naccs][nstrides] */
    int nstmts;               /* statements in IR order (loop, statement) */
    launch_cost *costs;       /* [nstmts] */
} launch_result;

/* The overlap condition of the nest rooted at loop `root` (par: IPDA's
 * verdicts): 0 with *out (malloc'd, free with launch_overlap_free) and *n
 * entries (0: the verdict relies on no two bases being apart), -1 on
 * allocation failure. */
int launch_overlap_of(const ir_tu *tu, const par_result *par, int root, launch_overlap **out,
                      int *n);
/* launch_overlap_of for a caller that knows acc0, the index in IR order
 * of the first access of loop `root` (the accesses of loops 0..root-1):
 * its cost is then the nest's alone, not the file's. */
int launch_overlap_at(const ir_tu *tu, const par_result *par, int root, int acc0,
                      launch_overlap **out, int *n);
void launch_overlap_free(launch_overlap *v, int n);

/* par: IPDA's result for tu (its verdicts).  Returns 0 with *out, -1 with
 * a message on allocation failure. */
int launch_analyze(const ir_tu *tu, const par_result *par, launch_result **out,
                   char *err, size_t errlen);
void launch_free(launch_result *r);   /* NULL is fine */

/* Static cost of one statement (where llvm-mca gives no cycles): the
 * reciprocal throughputs of a scalar x86-64 core (Agner Fog's tables,
 * rounded): fadd/fmul 1, fdiv 4, math call 20, integer add/compare 0.5,
 * integer mul 1, integer div 20, each load/store 0.5 (two per cycle); fma
 * candidates are already counted as fadd + fmul.  GPU: one instruction
 * per op (div 4, math 20, idiv 20) plus two address instructions per
 * access.  flops = fadd + fmul + fdiv + fmath. */
launch_cost launch_stmt_cost(const ir_stmt *s);

#endif
