/*
 * omp_pragmas.h -- OpenMP directives as structured data, and the GPU mapping clang's
 * OpenMP offload gives a loop nest.
 *
 * omp_parse reads one pragma's text ("omp target teams distribute parallel
 * for collapse(2) map(to: A[0:n])", as the walker stores it) into its
 * construct words (a bit set: target, teams, distribute, parallel, for,
 * simd, loop, data, ...) and its clauses (name, argument text).  Nothing
 * else in keel looks inside pragma text: a clause argument such as
 * `map(tofrom: former[0:n])` is never mistaken for the `for` construct.
 *
 * omp_map_tu derives, per loop of a translation unit, the role the loop's
 * iterations get on a GPU when the nest runs as clang-19's OpenMP offload
 * runs it (see omp_map_role below and README "GPU mapping"), with the
 * team/thread counts given by clauses or clang-19's defaults.
 */
#ifndef KEEL_ANALYSIS_OMP_H
#define KEEL_ANALYSIS_OMP_H

#include <stddef.h>

#include "ir.h"

/* Construct words (bits of omp_directive.constructs). */
enum {
    OMP_TARGET = 1u << 0, OMP_TEAMS = 1u << 1, OMP_DISTRIBUTE = 1u << 2,
    OMP_PARALLEL = 1u << 3, OMP_FOR = 1u << 4, OMP_SIMD = 1u << 5,
    OMP_LOOP = 1u << 6, OMP_DATA = 1u << 7,          /* target data */
    OMP_ENTER = 1u << 8, OMP_EXIT = 1u << 9,         /* target enter/exit data */
    OMP_UPDATE = 1u << 10, OMP_TASKLOOP = 1u << 11, OMP_TASK = 1u << 12,
    OMP_SECTIONS = 1u << 13, OMP_SINGLE = 1u << 14, OMP_MASTER = 1u << 15,
    OMP_CRITICAL = 1u << 16, OMP_ATOMIC = 1u << 17, OMP_BARRIER = 1u << 18,
    OMP_TASKWAIT = 1u << 19, OMP_FLUSH = 1u << 20, OMP_ORDERED = 1u << 21,
    OMP_DECLARE = 1u << 22,                          /* declarative directives */
    OMP_TILE = 1u << 23, OMP_UNROLL = 1u << 24,
    OMP_OTHER = 1u << 25                             /* a word keel does not know */
};

typedef struct {
    char *name;      /* "collapse", "map", "num_teams", ... (lower case as written) */
    char *args;      /* text between the parentheses, spaces collapsed; NULL: none */
} omp_clause;

typedef struct {
    int is_omp;              /* the pragma is an OpenMP one ("omp ...") */
    unsigned constructs;     /* OMP_* bits of the directive name */
    char *name;              /* the directive name, e.g. "target teams distribute parallel for" */
    int nclauses;
    omp_clause *clauses;
} omp_directive;

/* Parse one pragma text (with or without a leading "#pragma").  A pragma
 * that is not OpenMP parses with is_omp = 0 and nothing else.  Returns 0,
 * or -1 on allocation failure or unbalanced parentheses (with a message);
 * *d is always safe to free with omp_free. */
int omp_parse(const char *text, omp_directive *d, char *err, size_t errlen);
void omp_free(omp_directive *d);

/* The first clause called name, or NULL. */
const omp_clause *omp_clause_find(const omp_directive *d, const char *name);
/* collapse(n) as an integer: 1 without the clause or when n is not a literal. */
int omp_collapse(const omp_directive *d);

/* Directive classes. */
int omp_is_loop_construct(const omp_directive *d);   /* for, simd, distribute, loop, taskloop */
int omp_is_standalone(const omp_directive *d);       /* barrier, taskwait, flush, target update,
                                                      * enter/exit data, ...: no statement */
/* Does pragma `text` share a loop's iterations out (for, distribute, simd,
 * loop, taskloop)?  A convenience over omp_parse for callers that only ask
 * that; 0 for non-OpenMP pragmas and on parse failure. */
int omp_text_is_parallel_loop(const char *text);
/* Does pragma `text` open a device region (target, target data, any
 * combined target construct)?  enter/exit data and update do not. */
int omp_text_is_target_region(const char *text);
int omp_text_has_clause(const char *text, const char *clause);
/* Does the directive name of `text` hold construct word(s) `bits`? */
int omp_text_has_word(const char *text, unsigned bits);
/* Does a loop-construct pragma of loop l list variable `var` in a clause
 * called `clause` (private, firstprivate, lastprivate, reduction, linear)?
 * A reduction's `op:` and a linear's `:step` are read past.  Returns 1
 * and, for reduction, the operator text into op (cap bytes), else 0. */
int omp_loop_lists(const ir_loop *l, const char *clause, const char *var, char *op, size_t cap);

/* ---- GPU mapping --------------------------------------------------------- */

/* What a loop's iterations are on a GPU (clang-19 OpenMP offload, NVPTX):
 *   OMP_MAP_NONE     no OpenMP loop construct applies to the nest: keel's
 *                    own choice at run time (first parallel loops)
 *   OMP_MAP_GRID     teams AND threads: one iteration of the (collapsed)
 *                    space per GPU thread, consecutive iterations to
 *                    consecutive threads (`target teams distribute parallel
 *                    for [simd]`, `target teams loop`, SPMD mode)
 *   OMP_MAP_TEAMS    one chunk of iterations per team, run by the team
 *                    (`teams distribute` alone: generic mode)
 *   OMP_MAP_THREADS  the threads of one team (`parallel for` inside a team,
 *                    or `target parallel for`: one team)
 *   OMP_MAP_COLLAPSED  an outer loop of a collapsed space: its iterations
 *                    are spread with the innermost collapsed loop's
 *   OMP_MAP_SEQ      runs sequentially inside one work item (below the
 *                    mapped loops; `simd` is one lane on NVPTX) */
typedef enum {
    OMP_MAP_NONE = 0, OMP_MAP_GRID, OMP_MAP_TEAMS, OMP_MAP_THREADS, OMP_MAP_COLLAPSED,
    OMP_MAP_SEQ
} omp_map_role;

/* clang-19 defaults on NVPTX (llvm/Frontend/OpenMP/OMPGridValues.h,
 * NVPTXGridValues): 128 threads per team (GV_Default_WG_Size) and at most
 * 3200 teams by default (GV_Default_Num_Teams).  libomptarget's
 * GenericKernelTy::getNumBlocks (plugins-nextgen, LLVM 19) launches, without
 * num_teams, ceil(trip / threads) teams for an SPMD kernel and `trip` teams
 * for a generic-mode `teams distribute`, capped by that default. */
#define OMP_GPU_DEFAULT_THREADS 128
#define OMP_GPU_DEFAULT_TEAMS_CAP 3200

const char *omp_map_role_name(omp_map_role r);      /* "grid", "teams", ... , "" for NONE */
omp_map_role omp_map_role_parse(const char *s);

/* Fill, for every loop of tu, l->gpu_map, l->gpu_collapse (loops in the
 * mapped space, on the loop that carries the construct), l->gpu_teams and
 * l->gpu_threads (clause argument text, NULL: clang's default) and
 * l->gpu_fastest (index of the loop whose variable is the fastest thread
 * index of the nest, -1 when none).  Returns 0, -1 on allocation failure. */
int omp_map_tu(ir_tu *tu);

/* The roles omp_map_tu would give, into roles[0..tu->nloops-1], without
 * changing tu (analyses that take a const IR).  Returns 0, -1 on
 * allocation failure. */
int omp_map_roles(const ir_tu *tu, int *roles);
/* Is loop k a thread loop of its nest's mapping: its iterations spread over
 * GPU threads (grid, threads), or a teams loop with no thread loop below
 * (each team is one work item)?  roles as from omp_map_roles. */
int omp_is_thread_loop(const ir_tu *tu, const int *roles, int k);

/* Teams and threads clang-19 launches for an SPMD grid / generic teams
 * loop of `trip` (collapsed) iterations, without clauses. */
long long omp_default_teams(long long trip, int spmd, int threads);

#endif
