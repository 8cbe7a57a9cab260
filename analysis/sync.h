/*
 * sync.h -- what keeps a loop nest off the GPU whatever its dependences:
 * synchronisation between threads and calls whose work is not in the nest.
 *
 * A nest that holds an OpenMP synchronisation construct (critical, atomic,
 * ordered; barrier and flush inside a work-shared loop -- between the
 * `omp for` loops of a loop the whole team runs they only separate
 * kernels), a lock or C11/GCC atomic call, or a spin-wait
 * (a loop that writes nothing and whose exit waits for another thread)
 * relies on threads running at the same time and seeing each other's
 * writes: as a GPU kernel it would hang or race.  A nest that calls a
 * function whose cost keel cannot state (callee.h: not defined in this
 * source, trip counts that are not constants at the call) has a cost keel
 * cannot see: its verdict is unknown, and unknown is the CPU; harmless
 * calls (timers, math functions) and callees of known cost do not count.
 * These rules decide from the loop IR (and, for a callee, its source
 * text); no libclang, no database.
 */
#ifndef KEEL_ANALYSIS_SYNC_H
#define KEEL_ANALYSIS_SYNC_H

#include <stddef.h>

#include "ir.h"

/* Is pragma text ("omp critical", "#pragma omp flush(flag)") an OpenMP
 * synchronisation construct? */
int sync_directive(const char *pragma_text);

/* Is a call to `name` a synchronisation primitive: OpenMP locks
 * (omp_set_lock, ...), pthread mutexes, spin locks, condition variables
 * and barriers, C11 atomics (atomic_*), GCC/clang atomic builtins
 * (__atomic_*, __sync_*, __c11_atomic_*)? */
int sync_call(const char *name);

/* Is a call to `name` harmless: no work worth costing and nothing the
 * dependence test must stop at -- timers (timer_start/stop/read/clear,
 * wtime, omp_get_wtime, clock_gettime, gettimeofday, clock, time),
 * OpenMP's team queries, C's math functions (their f and l forms too)? */
int sync_call_harmless(const char *name);

/* Is `name` one of C's <math.h> functions (C11 7.12: sqrt, exp, pow, fabs,
 * fmin, ...) or its f or l form?  Pure as far as the nest is concerned;
 * the front end counts a call to one as a math operation (fmath). */
int sync_math_function(const char *name);

/* Why the nest rooted at loop `root` can never run on the GPU: 1 with a
 * one-line reason ("synchronisation: omp flush(flag) (line 228)", "calls
 * "cost of callee conj_grad unknown: ... (line 259)": callee.h), 0 when
 * nothing in the nest (the root's statements and those of every loop
 * inside it) keeps it off. */
int sync_nest_blocked(const ir_tu *tu, int root, char *reason, size_t reasonlen);

/* The same question for the loop `l` alone and the loops inside it, for
 * the dependence test: 1 with the reason when l holds synchronisation
 * (not calls: those the test reports itself). */
int sync_loop_holds(const ir_tu *tu, int l, char *reason, size_t reasonlen);

#endif
