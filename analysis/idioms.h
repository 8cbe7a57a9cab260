/*
 * idioms.h -- PIR-style idiom recognition over the loop IR.
 *
 * The vocabulary is that of the PMaC idiom paper (section II): stream,
 * transpose, gather, scatter, reduction, stencil, matmul, matvec, plus
 * histogram (a reduction through an indirect index).  Recognition looks at
 * the array accesses of each statement as ipda expressions (which loop
 * variables a subscript mentions, constant differences between subscripts,
 * loads inside subscripts), never at source spelling, so `C[i][j] +=
 * A[i][k]*B[k][j]`, its flattened form, a scalar accumulator and any loop
 * order are the same matmul.  The exact definitions, one per idiom, are in
 * idioms.c and testsuite/labels/README.md.
 *
 * Each instance is attached to one loop: the statement's innermost loop for
 * stream, transpose, gather, scatter, histogram and stencil; the reducing
 * loop for reduction, matmul and matvec.  It keeps its evidence: the
 * statement (loop, index, line, source text through the IR) and a text
 * naming the accesses that decided it.
 *
 * Ownership: an idiom_result owns its instances and their strings; free it
 * with idiom_result_free.  The ir_tu is only read and must outlive nothing.
 */
#ifndef KEEL_ANALYSIS_IDIOMS_H
#define KEEL_ANALYSIS_IDIOMS_H

#include <stddef.h>

#include "ir.h"

/* In alphabetical order of their names, so sorting by kind sorts by name. */
typedef enum {
    IDIOM_GATHER,
    IDIOM_HISTOGRAM,
    IDIOM_MATMUL,
    IDIOM_MATVEC,
    IDIOM_REDUCTION,
    IDIOM_SCATTER,
    IDIOM_STENCIL,
    IDIOM_STREAM,
    IDIOM_TRANSPOSE,
    IDIOM_NKINDS
} idiom_kind;

typedef struct {
    idiom_kind kind;
    int loop;           /* loop the instance is attached to (index into tu->loops) */
    int stmt_loop;      /* the statement: its loop and index in that loop's stmts */
    int stmt;
    int line;           /* line of the statement */
    char *evidence;     /* the deciding accesses, e.g. "W C[i][j]; R A[i][k]; R B[k][j]; over k" */
    int ndims;          /* stencil only: dimensions and radius per dimension */
    int *radius;        /* ndims entries (malloc'd, owned), NULL for other idioms */
} idiom_instance;

typedef struct {
    int n;
    idiom_instance *v;  /* ordered by statement (loop pre-order, statement order) */
    /* By loop (idiom_analyze; NULL in a result built otherwise): the
     * instances attached to loop l are v[order[first[l] .. first[l+1]-1]]. */
    int nloops;
    int *first, *order;
} idiom_result;

const char *idiom_name(idiom_kind k);

/* Find every idiom instance of tu into *out (zeroed first).  Returns 0, or
 * -1 with a message on allocation failure (*out then holds nothing). */
int idiom_analyze(const ir_tu *tu, idiom_result *out, char *err, size_t errlen);
void idiom_result_free(idiom_result *r);

/* The idioms attached to loop `loop` (or, for idiom_nest_list, to any loop
 * of the nest rooted at `loop`), names sorted and unique, joined by commas;
 * "" when none.  malloc'd (caller frees), NULL on allocation failure. */
char *idiom_loop_list(const idiom_result *r, int loop);
char *idiom_nest_list(const ir_tu *tu, const idiom_result *r, int loop);

#endif
