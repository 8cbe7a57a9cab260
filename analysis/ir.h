/*
 * ir.h -- the loop IR: the one data model every stage of keel shares.
 *
 * A translation unit (ir_tu) holds flat arrays of functions and loops.  Loops
 * are stored in pre-order (a parent always before its children) and refer to
 * their function and parent by index, so the IR is plain data: no pointers
 * between records, trivially copied into the database, easily built by hand
 * in tests.  Each loop owns the statements directly in its body (statements
 * of inner loops belong to the inner loops); each statement owns its array
 * accesses, scalar references, operation counts and calls.
 *
 * Bounds, trip counts, subscripts and declared extents are ipda expressions
 * (kx_expr), over program symbols (`n`, `ni`) and loop variables (`i`).  What
 * is not a polynomial stays as an opaque atom and the access is marked
 * non-affine; nothing is dropped.  while/do loops are canonical when the
 * front end can read them as for loops (a single step, a start set just
 * before); otherwise they are recorded with canonical = 0 and no bounds.
 *
 * The C front end that fills this (the walker module: plugin/walker.c and
 * plugin/walk_*.c) is the only code that knows about libclang; everything
 * after it reads ir_tu only.
 *
 * Ownership: an ir_tu owns everything reachable from it, including the
 * kx_expr objects stored into it (the ir_* setters take ownership of the
 * expressions passed in and copy strings).  ir_tu_free releases it all.
 */
#ifndef KEEL_ANALYSIS_IR_H
#define KEEL_ANALYSIS_IR_H

#include <stdint.h>
#include <stdio.h>

#include "chainops.h"
#include "expr.h"
#include "util.h"

/* Where the value a reference reads goes within its statement, and the
 * operations on the way (the front end fills it from the expanded tree;
 * analysis/recur.c reads it): the value read flows to the write
 * `to_kind`/`to` of the same statement (the left operand of the
 * assignment whose right operand holds the read, or the same reference's
 * write in `x += e`, `x++`; a local's initialiser to the local), through
 * ops[KU_CHAIN_*] operations (util/chainops.h): the binary operators
 * between the read and the value stored, float or integer by the
 * operator's type, the compound assignment's own, one select per
 * conditional expression the value passes (the comparison of its
 * condition included) and per fmax/fmin call.  `opaque` is 1 when an
 * operation whose latency is not counted lies on the way (another call,
 * a conversion to or from a floating type).  A read inside a
 * subscript, or one whose value is not stored, goes nowhere
 * (IR_FLOW_NONE).  Plain values: nothing to free; zero is "nowhere". */
enum { IR_FLOW_NONE = 0, IR_FLOW_ACCESS = 1, IR_FLOW_SCALAR = 2 };
typedef struct {
    int to_kind;          /* IR_FLOW_*: an access or a scalar of the statement */
    int to;               /* its index in ir_stmt.acc / ir_stmt.scalars */
    int opaque;           /* an operation of unknown latency on the way */
    int ops[KU_CHAIN_NOPS];
} ir_flow;

typedef struct {
    char *array;          /* name of the array or pointer variable */
    int elem_size;        /* bytes of one element, 0 when unknown */
    int is_write;         /* 1 write, 0 read; `A[i] += x` is one read + one write */
    int ndims;            /* number of subscripts, outermost first */
    kx_expr **index;
    int nextents;         /* declared dimensions, outermost first (0: pointer) */
    kx_expr **extent;     /* NULL entry: unknown, e.g. `double C[][N]` */
    int affine;           /* every subscript affine in the enclosing loop variables */
    int line, col;
    int base;             /* what the name is (IR_BASE_*), set by the front end */
    ir_flow flow;         /* a read: where its value goes (above) */
} ir_access;

/* ir_access.base: the memory an access names.  A pointer variable or an
 * array object is one the program can name just before the outermost loop
 * around the access (a parameter, a file-scope variable, or a local
 * declared above that loop), the access's name being exactly the
 * variable's; anything else (a struct member, `(*pp)[i]`, a member path
 * `p[i].x`, a local declared inside the nest, an unresolved access) is
 * IR_BASE_OTHER, whose address cannot be taken before the loop. */
enum {
    IR_BASE_MEMBER = -1,  /* named by a member or through a dereference (front end) */
    IR_BASE_OTHER = 0,
    IR_BASE_POINTER = 1,  /* a pointer variable (array parameters included) */
    IR_BASE_ARRAY = 2     /* an array object: distinct array objects never overlap */
};

typedef struct {
    char *name;
    int is_write;
    int line, col;
    ir_flow flow;         /* a read: where its value goes */
} ir_scalar;

/* Operations per execution of a statement; address arithmetic inside
 * subscripts is not counted.  ffma counts float add/sub nodes with a float
 * multiply operand (fusable pairs); they are also in fadd and fmul. */
typedef struct {
    int fadd, fmul, fdiv, ffma, fmath;
    int iadd, imul, idiv, cmp;
} ir_ops;

typedef struct {
    int line, col;
    char *text;           /* source text of the statement (or condition) */
    int conditional;      /* under an if/?:/switch inside the loop body */
    ir_ops ops;
    int ncalls;           /* calls other than math functions */
    char **calls;
    int nacc;
    ir_access *acc;
    int nscalars;
    ir_scalar *scalars;
} ir_stmt;

typedef enum { IR_FOR, IR_WHILE, IR_DO } ir_loop_kind;

typedef struct {
    int function;         /* index into ir_tu.funcs */
    int parent;           /* index into ir_tu.loops, -1 for an outermost loop */
    int depth;            /* 0 for an outermost loop */
    ir_loop_kind kind;
    int canonical;        /* for loop with known iv, bounds and constant step */
    char *file;
    int line, col, end_line;
    char *iv;             /* induction variable, NULL when none was found */
    kx_expr *lower;       /* first value of iv */
    kx_expr *upper;       /* exclusive bound in the direction of the step */
    int64_t step;         /* 0 when unknown or not constant */
    kx_expr *trip;        /* iterations, NULL when unknown */
    int npragmas;         /* e.g. "omp parallel for", "scop" */
    char **pragmas;
    int n_if, n_break, n_continue, n_goto, n_return;
    int nstmts;
    ir_stmt *stmts;
    /* Where the loop sits in its file, for source instrumentation. */
    int offset;           /* byte offset of the loop keyword, -1 inside a macro */
    int end_offset;       /* one past the loop's last byte, -1 inside a macro */
    int pragma_line;      /* first line of the pragmas directly above (not
                           * scop/endscop), 0 when there are none */
    int target_line;      /* last line of an attached `omp target` pragma, 0 if none */
    /* Integer variables in scope just before the loop that the bounds,
     * subscripts and extents of its nest mention (not its own nest's loop
     * variables): the values the runtime models need at launch. */
    int nsyms;
    char **syms;
    /* OpenMP (plugin/walker.c, analysis/omp.c). */
    int region_line;      /* first line of the outermost `omp target` / `target
                           * data` construct enclosing the loop (its pragma), 0: none */
    int region_offset;    /* byte offset of that pragma's line, -1: none */
    int region_end_offset;/* one past the construct's statement, -1: none */
    int gpu_map;          /* omp_map_role (analysis/omp_pragmas.h), 0: none */
    int gpu_collapse;     /* loops in the mapped space (collapse(n)), on its outer loop */
    int gpu_fastest;      /* nest root: loop index of the fastest thread index, -1 */
    char *gpu_teams;      /* num_teams(...) text, NULL: clang's default */
    char *gpu_threads;    /* thread_limit/num_threads(...) text, NULL: default */
    /* Front-end facts for the dependence test (not stored in the database). */
    char *control_write;  /* a variable of the loop's control (its induction
                           * variable, a variable of its condition) that the
                           * body writes or may write, or "*p" for an element
                           * of pointer/array p that the condition reads
                           * (`i < *len`, `i < n[0]`); NULL: none.  Such a loop
                           * is not canonical, its iv and bounds are kept */
    int control_maybe;    /* 1: only possibly, through a pointer (its address
                           * is taken in the function) */
    int nstepped;         /* pointers the front end rewrote as inductions of
                           * this loop (one step per iteration, no other
                           * write): their accesses are over the array they
                           * were set from, or over their own name, which
                           * then means the value on entry of the loop */
    char **stepped;
    /* One past the last loop of this loop's nest: loops are stored in
     * pre-order, so the nest is loops [index, nest_end) (ir_add_loop keeps
     * it; read it through ir_nest_end). */
    int nest_end;
    /* The first OpenMP synchronisation construct (critical, atomic,
     * barrier, flush, ordered) written inside the loop at any depth, as
     * its pragma text ("omp flush(flag)"), and its line; NULL, 0: none
     * (analysis/sync.h) */
    char *sync;
    int sync_line;
} ir_loop;

typedef struct {
    char *name;
    char *file;
    int line, col;
    int inline_def;       /* inline with external linkage (C99 6.7.4p3: no
                           * modifiable static object in its body) */
} ir_function;

typedef struct {
    char *path;           /* main source file */
    int nfuncs;
    ir_function *funcs;
    int nloops;
    ir_loop *loops;       /* pre-order */
    int unordered;        /* set by ir_add_loop when a loop was added to a
                           * nest after a loop outside it: nests are then
                           * not contiguous and ir_nest_end gives nloops */
    /* FNV-1a (64 bit) of the contents of every non-system header the parse
     * read, in inclusion order (plugin/walker.c): with the -D/-U/-std...
     * flags, what tells one build of a source from another (keelcc's
     * translation_units.variant), whatever -I folders found them */
    unsigned long long headers_hash;
    int nnotes;           /* what the front end could not represent exactly */
    char **notes;         /* ("line 12: ..."), each printed by keelcc as a warning */
} ir_tu;

ir_tu *ir_tu_new(const char *path);
void ir_tu_free(ir_tu *tu);

/* ir_tu.headers_hash: IR_HEADERS_HASH_START, continued by
 * ir_headers_hash_add over each non-system header's contents in inclusion
 * order (the walker from the parse, keelcc from a preprocessor run: both
 * must give the same value). */
#define IR_HEADERS_HASH_START KU_FNV_KEEL_START
unsigned long long ir_headers_hash_add(unsigned long long h, const char *contents, size_t len);

/* Append records; each returns the new record's index (-1 on allocation
 * failure) and zero-initialises it apart from the given fields.  Pointers
 * returned by ir_*_at stay valid until the next append to the same array. */
int ir_add_function(ir_tu *tu, const char *name, const char *file, int line, int col);
int ir_add_loop(ir_tu *tu, int function, int parent, ir_loop_kind kind,
                const char *file, int line, int col);
int ir_add_pragma(ir_loop *l, const char *text);
int ir_add_stmt(ir_loop *l, int line, int col, const char *text, int conditional);
/* Takes ownership of the index and extent expressions (arrays and elements),
 * also when it fails: they are freed then. */
int ir_add_access(ir_stmt *s, const char *array, int elem_size, int is_write,
                  int ndims, kx_expr **index, int nextents, kx_expr **extent,
                  int line, int col);
int ir_add_scalar(ir_stmt *s, const char *name, int is_write, int line, int col);
int ir_add_call(ir_stmt *s, const char *name);
int ir_add_sym(ir_loop *l, const char *name);
/* Record a pointer stepped by loop l (ir_loop.stepped); 0, -1 on allocation failure. */
int ir_add_stepped(ir_loop *l, const char *name);
/* Mark loop l's control as written by its body (ir_loop.control_write):
 * not canonical any more, no trip count; iv and bounds stay.  0 or -1. */
int ir_set_control_write(ir_loop *l, const char *name, int maybe);
/* Is loop l the loop anc or (at any depth) inside it?  O(1) when the loops
 * are in pre-order (as the front end adds them), else a walk up l's parents. */
int ir_loop_within(const ir_tu *tu, int l, int anc);
/* One past the last index of loop l's nest, O(1): every loop inside l has
 * an index in (l, ir_nest_end(tu, l)), so a scan of l's nest covers only
 * that range (tu->nloops when the loops were not added in pre-order; then
 * test each index with ir_loop_within). */
int ir_nest_end(const ir_tu *tu, int l);
/* The access as text, "A[i][j - 1]", into buf (cut to cap bytes). */
void ir_access_text(const ir_access *a, char *buf, size_t cap);
/* The same, whole: malloc'd (caller frees), NULL on allocation failure. */
char *ir_access_str(const ir_access *a);
/* Record a note (a limit the front end met, a construct it approximated). */
int ir_add_note(ir_tu *tu, const char *text);

/* Set the header of a for loop; takes ownership of lower and upper (either
 * may be NULL).  Derives canonical and the trip count:
 *     step > 0:  trip = upper - lower             (step 1)
 *                       div(upper - lower + step - 1, step)
 *     step < 0:  trip = lower - upper             (step -1)
 *                       div(lower - upper - step - 1, -step)
 * A trip count may be negative for an empty loop: readers clamp it at 0. */
void ir_set_bounds(ir_loop *l, const char *iv, kx_expr *lower, kx_expr *upper,
                   int64_t step);

/* Is e affine in the loop variables ivs[0..n-1]: no opaque atom, each
 * variable of degree <= 1, no product of two loop variables?  Coefficients
 * may be polynomials in other symbols (`i*m + j` is affine in i, j). */
int ir_is_affine_in(const kx_expr *e, char *const *ivs, int n);

/* Indices of the children of loop `parent` (-1: outermost loops of all
 * functions), in order.  Returns the count; *out is malloc'd (free it). */
int ir_children(const ir_tu *tu, int parent, int **out);

/* Write a stable, line-oriented text form of the whole IR (`keelcc
 * --keel-dump-ir`; the walker tests print it when a check fails). */
void ir_dump(const ir_tu *tu, FILE *out);

#endif
