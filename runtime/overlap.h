/*
 * overlap.h -- the run-time overlap check before an offload (the check LLVM's
 * loop versioning puts before a vectorised loop).
 *
 * keel's dependence test takes distinctly named bases (pointer parameters
 * and locals, struct-member pointers, array parameters) as distinct; where
 * a nest's parallel verdict relies on that and one of them is written,
 * keelcc stores an overlap condition (analysis/launch.h, launch_overlap):
 * per access its base and its element offset from the base, affine in the
 * nest's loop variables.  At launch the call passes the base addresses
 * (the site's "&p" values); the byte range of each access follows from
 * its offset, the loops' lower bounds, trip counts and steps bound with
 * the launch's values, and the element size.  The nest may go to the GPU
 * only when every written range is disjoint from every range of another
 * base.  A condition that cannot be checked (a base the call cannot pass,
 * an offset with no bound) means CPU, always.
 *
 * Ranges: the offset is affine in the loop variables, so over the box of
 * values each variable takes its extremes are at the box's corners; each
 * variable's interval is its lower bound and its last value (lower + step
 * x (trip - 1)) over the corners of the enclosing variables' box (bounds
 * affine in them: triangular nests get the enclosing box, a superset of
 * what runs).  A superset of the touched bytes can only say "overlap"
 * where there is none: CPU, never a wrong GPU answer.
 *
 * Everything here is plain data and pure functions (no database): the
 * tests build conditions by hand (testsuite/runtime/test_overlap.c).
 */
#ifndef KEEL_RUNTIME_OVERLAP_H
#define KEEL_RUNTIME_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

#include "expr.h"

typedef struct {
    int parent;               /* index in loops[], -1: the launch loop */
    const char *iv;           /* NULL: none (then the range is unknown) */
    const kx_expr *lower, *trip;   /* NULL: unknown */
    int64_t step;             /* 0: unknown */
} rt_ov_loop;

typedef struct {
    const char *name;         /* as the program names it */
    int checkable;            /* the call can pass its address */
} rt_ov_base;

typedef struct {
    int base;                 /* index in bases[] */
    int loop;                 /* innermost loop around it, index in loops[] */
    const kx_expr *offset;    /* elements from the base; NULL: unbounded */
    int elem;                 /* bytes of one element (> 0) */
    int is_write;
    const char *text;         /* "out[i]", for messages */
} rt_ov_access;

typedef struct {
    int nloops;
    const rt_ov_loop *loops;
    int nbases;
    const rt_ov_base *bases;
    int naccs;
    const rt_ov_access *accs;
} rt_overlap;

/* A site's compiled condition (overlap.c): where its values hold each
 * base's address, and the condition's offsets and bounds as affine terms
 * over those values. */
typedef struct rt_ov_plan rt_ov_plan;

/* The plan for a site passing names[0..n-1] at every call (*plan,
 * rt_overlap_plan_free).  0, or -1 with the reason in why (no check is
 * possible: the verdict is CPU for every launch). */
int rt_overlap_prepare(const rt_overlap *o, int n, const char *const *names, rt_ov_plan **plan,
                       char *why, size_t whylen);
void rt_overlap_plan_free(rt_ov_plan *p);      /* NULL is fine */
/* The index in the site's values of base b's address, else -1; whether
 * every part of the condition compiled (else every check runs by name). */
int rt_overlap_plan_slot(const rt_ov_plan *p, int b);
int rt_overlap_plan_compiled(const rt_ov_plan *p);
/* Whether the plan has its flat form (a rectangular box, each offset term
 * naming at most one loop variable): a check then sums per-variable
 * extremes instead of evaluating every corner. */
int rt_overlap_plan_flat(const rt_ov_plan *p);

/* Element offsets [*lo, *hi] access a reaches, the symbols bound to
 * values (names[i] = values[i]).  0, or -1 with a reason. */
int rt_overlap_elems(const rt_overlap *o, int a, int n, const char *const *names,
                     const long long *values, int64_t *lo, int64_t *hi, char *why,
                     size_t whylen);

/* Byte range [*lo, *hi) of access a for base address `addr`. */
int rt_overlap_bytes(const rt_overlap *o, int a, uint64_t addr, int n, const char *const *names,
                     const long long *values, uint64_t *lo, uint64_t *hi, char *why,
                     size_t whylen);

/* The check for a call of the site the plan was prepared for (the same
 * names): 0 when every written range is disjoint from every range of
 * another base, 1 when two overlap (why: "overlap: out[i] and in[i - 1]"),
 * -1 when a range cannot be computed (why says so).  Only 1 and -1 forbid
 * the GPU.  The same answer as with every expression evaluated by name. */
int rt_overlap_check(const rt_overlap *o, const rt_ov_plan *plan, int n, const char *const *names,
                     const long long *values, char *why, size_t whylen);
/* The same check with every expression evaluated by name (the reference
 * the compiled plan must agree with). */
int rt_overlap_check_named(const rt_overlap *o, const rt_ov_plan *plan, int n,
                           const char *const *names, const long long *values, char *why,
                           size_t whylen);

#endif
