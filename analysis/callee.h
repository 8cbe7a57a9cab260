/*
 * callee.h -- the cost a call inside a loop nest brings in: the loops of
 * the function it calls, when that function is defined in the same
 * translation unit (its loops are in the IR), with the callee's trip
 * counts evaluated over the call's arguments (each parameter replaced by
 * the argument's value).
 *
 * A call is *known* when its cost can be stated as a number per execution
 * of the calling statement: the callee is harmless (a timer, a math
 * function: sync_call_harmless), or it is defined here and every trip
 * count of its loops, every argument they read and every call they make
 * evaluates to a constant (loop variables of the callee at the middle of
 * their range, as the runtime takes them).  Anything else -- an external
 * callee, a trip count over a global or over an argument that is not a
 * constant at the call, calls nested more than 8 deep (recursion) or more
 * than 256 callees for one statement -- is *unknown*, with a one-line reason
 * ("cost of callee conj_grad unknown: ..."): the nest's cost is then
 * unknown and the nest stays on the CPU (sync_nest_blocked).
 *
 * What is added: for every statement of every loop of the callee, its
 * static cost (launch_stmt_cost, conditional statements half) times the
 * iterations of its loops per call, plus one cycle and two GPU
 * instructions of loop control per iteration of each of the callee's
 * loops.  The callee's statements outside its loops are not in the IR and
 * add nothing; a call written there (outside every loop of the callee)
 * is found in the source text and costed the same way.  Memory traffic of
 * the callee is not modelled (only its access instructions are counted).
 *
 * The source file of the callee is read (to find its parameter names and
 * the calls outside its loops); nothing here knows libclang or SQLite.
 */
#ifndef KEEL_ANALYSIS_CALLEE_H
#define KEEL_ANALYSIS_CALLEE_H

#include <stddef.h>

#include "ir.h"
#include "launch.h"

/* The cost the calls of statement `stmt` of loop `loop` add to one
 * execution of it: 0 with *add (zero when it makes no call or only
 * harmless ones), 1 with a reason when a call's cost is unknown (*add is
 * then zero), -1 on allocation failure. */
int callee_stmt_cost(const ir_tu *tu, int loop, int stmt, launch_cost *add, char *why,
                     size_t whylen);

/* The cost of one call of function `name` with the given argument texts
 * (NULL entries: not known): 0 with *out, 1 with a reason, -1 on
 * allocation failure.  For tests and for callers that parsed a call. */
int callee_call_cost(const ir_tu *tu, const char *name, int nargs, const char *const *args,
                     launch_cost *out, char *why, size_t whylen);

#endif
