/*
 * counts.h -- operation counts and bytes per loop, symbolically.
 *
 * For every loop: the counts of one iteration of its body (inner loops
 * included, so they may mention the loop's own variable) and of all its
 * iterations.  Counts are ipda expressions over the program's symbols.
 * Triangular nests (an inner bound mentioning an outer variable) are summed
 * exactly, not bounded: a body polynomial of degree d in the loop variable
 * is summed with Newton's forward differences,
 *
 *     sum_{v=lo}^{hi-1} p(v) = sum_k  D^k p(lo) * C(hi - lo, k + 1),
 *
 * whose binomials bring a denominator (d+1)!; a count is therefore a pair
 * (p, den) printed as `p` or `div(p, den)` (an exact division: p is always
 * a multiple of den where the loops are not empty).  A loop with no known
 * trip count, or a step other than +-1 with a body that depends on the
 * variable, is bounded: body * trip with the variable left in place, or an
 * unknown atom ?"trip@LINE".  So is a body polynomial of degree above 6
 * (the forward-difference sum stops there).  Every such case is recorded:
 * counts_loop.reason says why (the first one met, inner loops included),
 * and keelcc stores it in loop_counts.reason.
 *
 * Arithmetic intensity is kept as the pair (flops, bytes): the text form
 * "(F) / (B)" is for display; the runtime evaluates both and divides in
 * floating point (an integer div() atom would truncate).
 *
 * Ownership: counts_loop owns its expressions and strings (counts_loop_free).
 */
#ifndef KEEL_ANALYSIS_COUNTS_H
#define KEEL_ANALYSIS_COUNTS_H

#include <stdint.h>

#include "ir.h"

typedef struct {
    kx_expr *p;
    int64_t den;       /* >= 1 */
} counts_q;

enum {
    CNT_FADD, CNT_FMUL, CNT_FDIV, CNT_FFMA, CNT_FMATH, CNT_FLOPS,
    CNT_IOPS, CNT_LOADS, CNT_STORES, CNT_BYTES_READ, CNT_BYTES_WRITTEN,
    CNT_NFIXED
};

typedef struct {
    counts_q v[CNT_NFIXED];   /* flops = fadd + fmul + fdiv + fmath (fma pairs are in fadd, fmul) */
    int narrays;
    char **arrays;            /* arrays touched in the loop, first-touch order */
    counts_q *read, *written; /* bytes per array */
    char reason[160];         /* "" when summed exactly, else why not */
} counts_loop;

/* Counts of loop l: total = 0 for one iteration of its body, 1 for all of
 * its iterations.  Returns 0, -1 on allocation failure. */
int counts_loop_compute(const ir_tu *tu, int l, int total, counts_loop *out);

/* The same with the totals of loops already computed over one TU kept in
 * *memo (start it zeroed, release it with counts_memo_free): a nest n deep
 * costs n sums instead of n^2 (issue 16: 100-deep nests took 8-22 s). */
typedef struct {
    int n;
    counts_loop *total;   /* per loop, valid where have[l] */
    char *have;
} counts_memo;
int counts_loop_compute_memo(const ir_tu *tu, int l, int total, counts_loop *out,
                             counts_memo *memo);
void counts_memo_free(counts_memo *memo);
void counts_loop_free(counts_loop *c);

/* sum over loop l's variable of q (see above); *out is new. */
int counts_sum(const ir_tu *tu, int l, const counts_q *q, counts_q *out);
/* The same; where the sum is bounded (body x trip) and why[0] is 0, why
 * gets the reason ("line 3: ..."). */
int counts_sum_why(const ir_tu *tu, int l, const counts_q *q, counts_q *out,
                   char *why, size_t whylen);
/* "p" or "div(p, den)"; malloc'd. */
char *counts_q_print(const counts_q *q);
/* "(F) / (B)"; malloc'd. */
char *counts_intensity(const counts_loop *c);

#endif
