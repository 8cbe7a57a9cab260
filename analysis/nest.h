/*
 * nest.h -- the loop model of one launch nest as libkeelrt evaluates it:
 * its loops, statements, accesses, llvm-mca figures, recurrences and
 * run-time overlap condition, kept flat.
 *
 * These are the types of the model, owned here, in the model's home
 * (analysis/); libkeelrt carries them (the object library keel_model).
 * The runtime's loader (runtime/facts.c) fills them from the packed nest
 * keelcc stored in the database or linked into the program (db/db_nest.h),
 * and the models evaluate them as they are.  keelcc does not build them
 * from its IR yet: it writes rows, which db/ packs.  The header depends on
 * ipda (kx_expr) and util only.  The layout:
 *
 *   loops[]  in preorder: loops[0] is the launch loop, every loop after its
 *            parent (parent: its index, -1 for loops[0]);
 *   stmts[]  each with the index of its innermost loop and its accesses
 *            accs[acc0 .. acc0 + nacc);
 *   accs[]   each with the index of its statement; per access its
 *            subscript differences along every loop (diff, ndims x nloops)
 *            and linearised strides (lin, nloops), NULL where unknown;
 *   ov[]     the overlap condition: per access of a base whose distinctness
 *            the verdict relies on, the base, the access's element offset
 *            from it and whether the call can pass the base's address.
 *
 * Expressions are ipda's kx_expr (canonical polynomials), one owner each.
 * Nothing here knows SQLite or libclang.
 *
 * Ownership: a nest_model owns every array, string and expression reachable
 * from it; nest_free frees them all (not the struct itself, which is
 * usually a member of its user's struct) and leaves it empty.
 */
#ifndef KEEL_NEST_H
#define KEEL_NEST_H

#include <stdint.h>

#include "chainops.h"
#include "expr.h"

/* A recurrence carried by an innermost loop (the per-loop fact
 * `recurrence`, analysis/recur.h writes it). */
typedef struct {
    int dist;                  /* iterations the dependence spans (>= 1) */
    int mem;                   /* 1: a store-to-load forwarding round trip on the path */
    int all;                   /* 1: the loop carries no other chain (keelcc's "all") */
    int ops[KU_CHAIN_NOPS];    /* operations on the path, by KU_CHAIN_* */
} nest_recur;
#define NEST_MAX_RECUR 8

typedef struct {
    char *target;             /* llvm-mca -mcpu */
    double cycles;            /* cycles per source iteration, innermost loops */
    double rthru;             /* the block's reciprocal throughput (resources alone)
                               * per source iteration; 0 unknown */
} nest_mca;

typedef struct {
    int64_t id;               /* loops.id */
    int parent;               /* index in loops[], -1 for the launch loop */
    int line, col;
    char *iv;                 /* NULL when unknown */
    kx_expr *trip, *lower;    /* NULL when unknown */
    int64_t step;
    kx_expr *last;            /* lower + step * (trip - 1): the iv's last value; NULL */
    int bounded;              /* 1: trip is bounded, not averaged */
    char *gpu_map;            /* keelcc's OpenMP GPU mapping of the loop, NULL: none */
    int nchildren;
    int parallel;             /* iterations may go to GPU threads */
    int thread;               /* 1: this loop's iterations go to GPU threads */
    int spread;               /* 1: a loop (not the kernel's root) whose iterations
                               * are spread over the work items: a thread loop, or
                               * an inner loop of a compiled collapse(n >= 3) space */
    int thread_on_path;       /* index of the thread loop enclosing this loop (incl. itself), -1 */
    int kroot;                /* 1: the outermost loop of one kernel of a time-stepped region */
    int nmca;                 /* llvm-mca figures per target CPU, */
    nest_mca *mca;            /* every stored target, no cap */
    int nrec;                 /* recurrences it carries */
    nest_recur rec[NEST_MAX_RECUR];
} nest_loop;

typedef struct {
    int64_t id;               /* statements.id */
    int loop;                 /* innermost loop holding it */
    int line;
    int conditional;
    double cpu_cycles;        /* per execution: keelcc's estimate */
    double gpu_insts;         /* compute warp instructions per execution */
    double flops;
    int acc0, nacc;
} nest_stmt;

typedef struct {
    int64_t id;               /* accesses.id */
    int stmt;
    char *array;
    char *text;               /* "C[i][j]" for printing */
    int elem, is_write, ndims;
    char **index;             /* subscript texts */
    kx_expr *stride;          /* inter-thread stride in elements (lin[thread loop]); NULL: irregular */
    int no_thread;            /* no thread loop on the path: uniform */
    kx_expr **diff;           /* ndims x nloops: index(iv_k + step) - index; NULL unknown */
    kx_expr **extent;         /* ndims; NULL unknown */
    kx_expr **lin;            /* nloops: linearised stride along each loop; NULL unknown */
    int arr;                  /* index of the nest's first access to the same array */
    int read_first;           /* a write some read of the same element precedes (no
                               * write-allocate read of the line) */
} nest_acc;

/* One entry of the run-time overlap condition. */
typedef struct {
    int acc;                  /* index in accs[] */
    char *base;               /* the base's name as the program spells it */
    kx_expr *offset;          /* element offset from the base; NULL: no bound */
    int checkable;            /* 1: the call can pass the base's address */
} nest_ov;

/* The arrays of one nest.  NEST_MEMBERS lists them so that a user's struct
 * can hold them under their plain names and as a nest_model at once (an
 * anonymous union of the nest_model and an anonymous struct of
 * NEST_MEMBERS). */
#define NEST_MEMBERS                                                        \
    int nloops, nstmts, naccs, nov;                                         \
    nest_loop *loops;                                                       \
    nest_stmt *stmts;                                                       \
    nest_acc *accs;                                                         \
    nest_ov *ov;

typedef struct nest_model {
    NEST_MEMBERS
} nest_model;

/* Free everything n owns and leave it empty (n itself is the caller's;
 * NULL is fine).  Arrays may be partly filled: NULL members are skipped. */
void nest_free(nest_model *n);

#endif
