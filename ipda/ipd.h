/*
 * ipd.h -- iteration-point difference: linearised addresses, inter-thread
 * strides and their classes, and dependence tests on affine subscripts.
 *
 * Everything here works on kx_expr (expr.h) and on two plain descriptions
 * this header defines: ip_loop (one loop of a nest: its induction variable,
 * bounds and step) and ip_ref (one array reference: subscripts and the loops
 * that enclose it).  No loop IR, no libclang, no SQLite: analysis/ fills
 * these from the IR, tests fill them by hand.
 *
 * Stride (the paper's iteration point difference): for an access with
 * element offset addr(iv) and a loop stepping iv by s, the stride is
 * addr(iv + s) - addr(iv), an expression over program symbols.  Classes:
 *     0                         uniform    (every thread the same element)
 *     +1 or -1                  coalesced  (adjacent elements)
 *     another constant k        strided    (k elements apart)
 *     a polynomial in program   symbolic   (decided at run time, e.g. `nj`)
 *       symbols only
 *     anything else             irregular  (through a load or call, or
 *                                           varying with a loop variable)
 *
 * Dependence: ip_depend asks whether two references to one array can touch
 * the same element in two different iterations of a given loop L while all
 * loops outside L are at the same iteration (direction '=' outside, '<' or
 * '>' at L).  Per subscript it applies the ZIV, strong SIV, weak-zero SIV,
 * weak-crossing SIV or GCD test, then combines the dimensions.  Two
 * one-dimensional offsets that are polynomials in one program symbol S
 * (`(i*n + j)*n + k`) are first split into their digits in radix S when
 * the loop bounds put every digit but the first in [0, S), and each digit
 * is tested as a subscript of its own.  The answer
 * is one of: independent (proved), only loop-independent (distance 0 at L,
 * proved), carried (an exact distance, every iteration the same element, or
 * a dependence the tests could not exclude), or unknown (a subscript that
 * is not affine, or coefficients that are not constants).  Never
 * "independent" without a proof.
 *
 * Ownership: functions returning kx_expr * return a new object the caller
 * frees; arguments are never consumed.
 */
#ifndef KEEL_IPDA_IPD_H
#define KEEL_IPDA_IPD_H

#include <stdint.h>

#include "expr.h"

/* One loop: for (iv = lower; iv < upper; iv += step) (upper exclusive in
 * the direction of the step).  lower/upper may be NULL (unknown); step 0 is
 * unknown. */
typedef struct {
    const char *iv;
    const kx_expr *lower, *upper;
    int64_t step;
} ip_loop;

/* One array reference inside a nest.  loops[0..nloops-1] enclose it,
 * outermost first; two references share a loop when they hold the same
 * ip_loop pointer. */
typedef struct {
    const char *array;
    int is_write;
    int ndims;
    kx_expr *const *index;      /* ndims subscripts, outermost first */
    int nextents;
    kx_expr *const *extent;     /* declared extents, outermost first; NULL entry unknown */
    int nloops;
    const ip_loop *const *loops;
} ip_ref;

/* Element offset of the reference from the array's base, row-major:
 * sum_k index[k] * prod_{m>k} extent[m].  A pointer (nextents 0) with one
 * subscript is already linear (`A[i*n + j]`); the outermost extent never
 * multiplies, so it may be unknown.  NULL when an extent that is needed is
 * unknown or there are more subscripts than extents (`double **A`). */
kx_expr *ip_linearize(int ndims, kx_expr *const *index, int nextents,
                      kx_expr *const *extent);

/* addr(iv + step) - addr(iv); step 0 (unknown) is taken as 1.  NULL if
 * addr is NULL. */
kx_expr *ip_stride(const kx_expr *addr, const char *iv, int64_t step);

typedef enum { IP_UNIFORM, IP_COALESCED, IP_STRIDED, IP_SYMBOLIC, IP_IRREGULAR } ip_class;

/* Class of a stride (NULL: irregular).  ivs[0..nivs-1] are the loop
 * variables of the nest: a stride mentioning one varies from iteration to
 * iteration and is irregular, as is one holding a call, a load or unknown
 * text (div/mod/min/max of program symbols stay symbolic). */
ip_class ip_classify(const kx_expr *stride, char *const *ivs, int nivs);
const char *ip_class_name(ip_class c);   /* "uniform", "coalesced", ... */

typedef enum {
    IP_INDEPENDENT,     /* proved: never the same element */
    IP_LOOP_INDEP,      /* proved: the same element only at the same iteration of L */
    IP_CARRIED,         /* a dependence carried by L (exact, or not excluded) */
    IP_UNKNOWN          /* the tests do not apply */
} ip_dep_kind;

typedef struct {
    ip_dep_kind kind;
    int has_distance;   /* IP_CARRIED: distance is exact */
    int64_t distance;   /* iteration of b minus iteration of a, in steps of L */
    int invariant;      /* IP_CARRIED: both touch one element in every iteration of L */
    char test[32];      /* the deciding test: "ZIV", "strong SIV", "weak-zero SIV",
                           "weak-crossing SIV", "GCD", "MIV", "non-affine" */
} ip_dep;

/* Dependence between a and b (same array) carried by loop L, which both
 * must be inside.  Returns 0, or -1 when L encloses not both or on
 * allocation failure. */
int ip_depend(const ip_ref *a, const ip_ref *b, const ip_loop *L, ip_dep *out);

#endif
