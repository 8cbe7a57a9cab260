/*
 * nest.h -- the loop model of one launch nest as libkeelrt evaluates it:
 * its loops, statements, accesses, llvm-mca figures, recurrences and
 * run-time overlap condition, kept flat.
 *
 * These are the types of the model, owned here, in the model's home
 * (analysis/); libkeelrt carries them (the object library keel_model).
 * keelcc builds them from its IR (nest_build.h), nest_derive works out
 * what follows from the rest once, and nest_pack.h writes them as bytes
 * that the database stores and the program links, opaque to both; the
 * runtime decodes the bytes straight into these types and the models
 * evaluate them as they are.  The header depends on ipda (kx_expr) and
 * util only.  The layout:
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
 * usually a member of its user's struct) and leaves it empty.  A decoded
 * model (nest_pack.h) keeps them all in one block of memory (`block`):
 * its expressions may be replaced (kx_free leaves the block's alone, and
 * nest_free frees the new ones), not its arrays or strings.
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
    nest_ov *ov;                                                            \
    int region;       /* 1: loops[0] is a sequential loop around parallel nests */ \
    int omp_target;   /* 1: the kernels are OpenMP target constructs */     \
    int uneven;       /* 1: an inner loop's bounds move with loops[0]'s variable */ \
    int nsyms;        /* the symbols a launch binds, sorted (no loop variable) */ \
    char **syms;                                                            \
    void *block;      /* non-NULL: nest_decode's memory, which holds every  \
                       * array, string and expression it decoded */

typedef struct nest_model {
    NEST_MEMBERS
} nest_model;

/* Free everything n owns and leave it empty (n itself is the caller's;
 * NULL is fine).  Arrays may be partly filled: NULL members are skipped. */
void nest_free(nest_model *n);

/* A decoded model's block (`block`, nest_pack.c): chunks of memory
 * handed out in pieces.  nest_block_take returns n zeroed bytes aligned
 * to 8 from *block, which it extends (a new chunk of at least `chunk`
 * bytes) as needed; NULL out of memory (*block stays freeable).
 * nest_block_free frees every chunk (NULL is fine). */
void *nest_block_take(void **block, size_t n, size_t chunk);
void nest_block_free(void *block);

/* What follows from the rest, worked out once, where the model is built:
 * per loop spread, bounded, last and thread_on_path; per access its
 * inter-thread stride (lin[] along its path's thread loop) or no_thread,
 * arr and read_first; the nest's uneven and syms.  Expects every access's
 * diff[] and lin[] allocated (entries may be NULL) and nothing derived
 * yet.  0, -1 out of memory (n stays freeable). */
int nest_derive(nest_model *n);

/* Append llvm-mca's figure for one target CPU to loop l when it is usable
 * (ok, cycles known, a target): cycles per source iteration and the
 * block's reciprocal throughput per source iteration (0 unknown).
 * 0, -1 out of memory. */
int nest_add_mca(nest_loop *l, const char *target, int ok, int has_cycles, double cycles,
                 double src_iters_per_asm_iter, double block_rthroughput);

/* Add the idioms of one loop of a nest (comma text, as keelcc stores
 * loops.idioms) to the nest's label *label (malloc'd, NULL: empty), each
 * idiom once, in the order found: "matmul,reduction".  0, -1 out of
 * memory. */
int nest_label_add(char **label, const char *idioms);

/* The recurrences of the per-loop fact text `recurrence` (analysis/recur.h;
 * NULL: none) into out[0..max): how many. */
int nest_recur_parse(const char *text, nest_recur *out, int max);

/* 1 when accesses a and b have the same subscript texts, dimension by
 * dimension (the same element of one array where their arrays agree). */
int nest_same_subscripts(const nest_acc *a, const nest_acc *b);

#endif
