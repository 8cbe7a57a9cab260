/*
 * parallel.h -- per loop: is it parallel?  Per access: its inter-thread
 * stride.  The IR glue around ipda/ipd.h.
 *
 * par_analyze walks a translation unit's loop IR and gives, for every loop,
 * a verdict (parallel, reduction, sequential, unknown) with a one-line
 * reason, and for every outermost nest its thread loops: the GPU mapping
 * the runtime models (launch_map in launch.h: an OpenMP construct's thread
 * loops, else teams over the outermost parallel loop and threads over the
 * first parallel loops below it; under a sequential time loop, each
 * kernel's).  For every access inside a thread loop it gives the stride
 * between adjacent threads (ipd.h's iteration-point difference over the
 * thread loop's variable), its class, the stride along the innermost loop
 * enclosing the access (CPU contiguity), and a false-sharing hint: a write
 * whose adjacent threads' elements lie less than one 64-byte line apart.
 *
 * Assumptions, all stated in the reasons: arrays with different names do
 * not alias; a scalar whose first reference in an iteration is an
 * unconditional write is private (its last value may be live out, as with
 * OpenMP lastprivate); a loop with a call, break, goto or return, or that is
 * not a canonical for loop, is unknown.  A body that writes the loop's
 * induction variable or a variable of its bound makes it sequential (unknown
 * when the write may only go through a pointer).  Pointers the front end
 * rewrote as inductions (ir_loop.stepped) are tested like subscripts.
 * Reductions: +, *, |, &, ^, &&, || updates of a scalar or element, and
 * min/max folds (fmax, ?:, a guarded store, argmax's index); the reason
 * names each with its operator.  A loop's OpenMP clauses are evidence only
 * where keel cannot decide (private(x) when x is first written under a
 * condition; reduction(op: x) through a math call): a dependence keel
 * finds is never removed by a pragma.
 *
 * Ownership: par_analyze allocates a par_result the caller releases with
 * par_free; it holds its own expressions and copies nothing from the IR
 * that outlives it except indices.
 */
#ifndef KEEL_ANALYSIS_PARALLEL_H
#define KEEL_ANALYSIS_PARALLEL_H

#include <stddef.h>

#include "ipd.h"
#include "ir.h"

typedef enum { PAR_PARALLEL, PAR_REDUCTION, PAR_SEQUENTIAL, PAR_UNKNOWN } par_verdict;

typedef struct {
    par_verdict verdict;
    char reason[512];
    int thread_loop;     /* this loop is a thread loop (1) */
    char *coalescing;    /* thread loop only: "3 coalesced, 1 uniform, 1 strided(nj)" */
} par_loop;

typedef struct {
    int loop, stmt, acc;      /* the access: tu->loops[loop].stmts[stmt].acc[acc] */
    int thread_loop;          /* index of the thread loop */
    kx_expr *stride;          /* elements between adjacent threads; NULL: irregular */
    ip_class cls;
    kx_expr *inner_stride;    /* elements between iterations of the innermost loop */
    ip_class inner_cls;
    int false_sharing;        /* a write with 0 < |stride bytes| < 64 */
} par_stride;

typedef struct {
    int nloops;
    par_loop *loops;          /* parallel to tu->loops */
    int nstrides;
    par_stride *strides;
} par_result;

/* Returns 0 and *out, or -1 with a message on allocation failure. */
int par_analyze(const ir_tu *tu, par_result **out, char *err, size_t errlen);
void par_free(par_result *r);        /* NULL is fine */
const char *par_verdict_name(par_verdict v);   /* "parallel", "reduction", ... */
/* Class text as stored: "uniform", "coalesced", "strided(4)", "symbolic(nj)",
 * "irregular".  malloc'd. */
char *par_class_text(ip_class c, const kx_expr *stride);

#endif
