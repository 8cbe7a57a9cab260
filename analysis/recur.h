/*
 * recur.h -- recurrences carried by an innermost loop, and the bound they
 * put on its cycles per iteration.
 *
 * Modulo scheduling's recurrence-constrained minimum initiation interval
 * (B. R. Rau, "Iterative modulo scheduling", MICRO-27, 1994):
 *
 *     RecMII = max over dependence cycles c of ceil(delay(c) / distance(c))
 *
 * where delay(c) is the latency of the operations on the cycle and
 * distance(c) the iterations it spans.  No schedule of the loop -- the
 * out-of-order core's included -- starts iterations faster.  llvm-mca
 * assumes loads and stores never alias and, on some CPU models, loses a
 * register chain through an eliminated move, so a loop whose value flows
 * from one iteration to the next through an array gets its throughput
 * figure only; the runtime takes max(llvm-mca's cycles, this bound).
 *
 * What is found, per statement of an innermost loop (a canonical `for`
 * with no inner loop), not under a condition:
 *   - a write X[w] and a read X[r] of the same statement where the read
 *     d iterations later (d = 1..16) reads what the write wrote:
 *     r(iv + d*step) == w(iv) in every subscript -- seidel's
 *     A[i][j] = (... A[i][j-1] ...) (distance 1).  The compiler can keep
 *     that value in a register (LLVM's loop-load elimination), so no
 *     memory round trip is counted: the delay is the operations alone;
 *   - a scalar accumulator, `w -= A[i][k] * A[k][j]` or w = f(w, ...),
 *     the loop's only statement naming w: distance 1, in a register
 *     (llvm-mca sees that chain, with its own model's latencies);
 *   - an accumulator: a read X[r] equal to the write X[w] whose subscripts
 *     do not move with the loop (`q[i] = q[i] + A[i][j]*p[j]` in the j
 *     loop), distance 1.  Where other arrays may alias X the compiler
 *     keeps the store in the loop; when the loop also stores elsewhere,
 *     where X[w] may be (bicg's s[j] beside q[i]: a pointer may alias any
 *     other, distinct array objects never), it must load X[w] again, so
 *     every iteration waits for a store-to-load forwarding round trip plus
 *     the operations ("mem").  With no such store the value stored is
 *     forwarded in a register: the operations alone.
 * The delay counts the operations on the way from the read to the value
 * stored, as the front end found them in the statement's tree after
 * preprocessing (ir.h, ir_flow): + and -, *, /, % (float or integer by
 * the operator's type), comparisons and bit operations (integer ALU, one
 * cycle), one compare-and-select per conditional expression or fmax/fmin
 * call (fsel, isel: a max macro is the conditional it expands to).  A read
 * that appears twice on the way (a max macro names its operand twice)
 * gives the longer way.  Another call, or a conversion to or from a
 * floating type, has a latency not known here: its chain keeps the
 * operations it knows (a lower bound) and the loop gets no "all".
 *
 * The fact text (per-loop fact `recurrence`) holds one chain per such
 * pair, "; "-separated: "A[i][j-1]->A[i][j] dist=1 fadd=6 fdiv=1", with
 * " mem" for a store-to-load round trip and " all" when these are all the
 * chains the loop carries (every statement unconditional, no call, every
 * scalar written a scalar accumulator found above, no array written by
 * one statement read by another): then the
 * loop's initiation interval is Rau's MII = max(ResMII, RecMII), the
 * resources' bound being llvm-mca's block throughput.  Keys it does not
 * know a reader skips; the runtime reads it and takes the bound (runtime/model.c,
 * rt_recur_parse and rt_recur_cycles).  Nothing here knows libclang or
 * SQLite.
 */
#ifndef KEEL_ANALYSIS_RECUR_H
#define KEEL_ANALYSIS_RECUR_H

#include <stddef.h>

#include "ir.h"

/* The operation kinds a chain counts: util/chainops.h's list, which the
 * runtime's latencies share. */
enum {
    RECUR_FADD = KU_CHAIN_FADD, RECUR_FMUL = KU_CHAIN_FMUL, RECUR_FDIV = KU_CHAIN_FDIV,
    RECUR_IADD = KU_CHAIN_IADD, RECUR_IMUL = KU_CHAIN_IMUL, RECUR_IDIV = KU_CHAIN_IDIV,
    RECUR_FSEL = KU_CHAIN_FSEL, RECUR_ISEL = KU_CHAIN_ISEL, RECUR_NOPS = KU_CHAIN_NOPS
};

typedef struct {
    int dist;                  /* iterations the dependence spans (>= 1) */
    int mem;                   /* 1: through memory (a store-to-load round trip) */
    int ops[RECUR_NOPS];       /* operations on the path from the read to the write */
} recur_chain;

#define RECUR_MAX_CHAINS 8

/* Operation names as the fact text writes them ("fadd" ...; chainops.h). */
const char *recur_op_name(int k);

/* The recurrences carried by loop l of tu as fact text (malloc'd; caller
 * frees), NULL when there are none (or l is not an innermost canonical
 * loop); *oom set to 1 when an allocation failed. */
char *recur_loop_fact(const ir_tu *tu, int l, int *oom);

#endif
