/*
 * mca.h -- llvm-mca integration, the pure part: read assembly, map its loops
 * back to source loops, read llvm-mca's JSON, derive cycles per iteration.
 *
 * Input is what `clang-19 -S -gline-tables-only -fsave-optimization-record`
 * writes for one translation unit: the assembly text, whose verbose comments
 * mark loops (`=>This Inner Loop Header: Depth=3`, `in Loop: Header=BB0_3
 * Depth=2`, `Parent Loop BB0_2 Depth=1`) and whose `.loc` lines give source
 * positions, and the optimisation-remark YAML, which gives each vectorised
 * loop's vectorisation factor (VF) and interleave count (IC) and each
 * partially unrolled loop's unroll count, keyed by the `for` keyword's
 * line:column.
 *
 * Mapping (mca_plan_build): an assembly loop maps to the deepest source loop
 * whose `for` line (and column range) appears among the `.loc` positions of
 * the loop's own blocks; an outer assembly loop must map to a proper
 * ancestor of what its inner loops mapped to.  An innermost assembly loop
 * with no such position falls back to the deepest source loop whose line
 * range holds all its positions.  Several assembly loops may map to one
 * source loop (loop versioning: a vector body and a scalar remainder); the
 * primary copy is the one holding vector instructions when the loop was
 * vectorised, else the largest.  One asm iteration of the primary copy runs
 * VF x IC source iterations times the vector copy's own unroll count
 * (vectorised), the unroll count (partially unrolled), else 1.  Unroll
 * remarks do not say which copy they were about: with as many remarks of
 * one count as copies every copy was unrolled; with one remark, or two of
 * different counts, for a vector and a scalar copy, the assignment whose
 * predicted ratio of memory operations (vector / scalar = IC x u_v / u_s)
 * is nearest the assembly's wins.
 *
 * The llvm-mca input of a loop is the primary copy's instructions without
 * labels, directives and comments: for an innermost assembly loop every
 * block of the loop up to its last back edge; for an outer one only its own
 * blocks (the code around its inner loops), which the whole-iteration cost
 * adds to its inner loops' costs.
 *
 * Nothing here runs a process, knows libclang or SQLite.  Ownership: every
 * *_free releases what the matching constructor returned; strings inside
 * results belong to their result.
 */
#ifndef KEEL_ANALYSIS_MCA_H
#define KEEL_ANALYSIS_MCA_H

#include <stddef.h>

#include "expr.h"
#include "ir.h"

/* ---- figures from one llvm-mca --json run -------------------------------- */

typedef struct {
    double cycles_per_iter;      /* TotalCycles / Iterations */
    double block_rthroughput;    /* BlockRThroughput */
    double ipc;                  /* IPC */
    double uops_per_iter;        /* TotaluOps / Iterations */
    char resource[64];           /* resource with the highest pressure, "" if none */
    double resource_cycles;      /* its cycles per iteration */
} mca_figures;

/* ---- mapping assembly loops to source loops ------------------------------ */

typedef struct {
    int ncopies;          /* assembly loops mapped here (0: unmapped) */
    char *label;          /* header label of the primary copy, e.g. ".LBB1_10" */
    int asm_innermost;    /* the primary copy has no inner assembly loop */
    int vector;           /* the primary copy holds vector instructions */
    int vf, ic;           /* from remarks; 1 when not vectorised */
    int unroll;           /* partial unroll count from remarks; 1 when none */
    int iters_per_asm;    /* source iterations per asm iteration of the primary copy */
    char *body;           /* llvm-mca input (one instruction a line), NULL if unmapped */
    char *reason;         /* why unmapped, NULL when mapped */
} mca_loop_plan;

typedef struct {
    int nloops;           /* == tu->nloops */
    mca_loop_plan *loops; /* per IR loop, same index */
    int nasm;             /* assembly loops found */
    int unmapped;         /* of them, with positions in the TU's files but no source loop */
    char *unmapped_labels;   /* their header labels, space-separated ("" none) */
} mca_plan;

/* Map the assembly of `tu` (asm text; remarks YAML text or NULL) to its
 * loops.  vscale: the target's SVE/RVV vscale (VF "vscale x 4" counts
 * 4 * vscale), 1 elsewhere.  Returns 0 and a plan, or -1 with a message
 * (only on malformed input or allocation failure; unmapped loops are
 * reasons inside the plan). */
int mca_plan_build(const ir_tu *tu, const char *asm_text, const char *remarks,
                   int vscale, mca_plan **out, char *err, size_t errlen);
void mca_plan_free(mca_plan *p);

/* ---- whole iterations ----------------------------------------------------- */

/* Millicycles of one whole iteration of loop `l`:
 *     W(l) = round(1000 * c[l])                      the primary copy is innermost
 *     W(l) = round(1000 * c[l]) + sum_k trip(k) * W(k)   else, over l's children k
 * where c[l] is cycles per source iteration of an innermost loop or cycles
 * of an outer loop's own blocks (NaN: unknown).  Trip counts stay symbolic
 * (a new expression); NULL when anything needed is unknown. */
kx_expr *mca_whole_iter_mcycles(const ir_tu *tu, const mca_plan *p, const double *c, int l);

#endif
