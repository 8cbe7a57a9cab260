/*
 * chainops.h -- the operations a recurrence chain counts: one list for
 * the code that writes the per-loop fact `recurrence` (analysis/recur.c,
 * from the operations the front end found between a value read and the
 * value stored) and the code that reads it (runtime/model.c, whose
 * latency table and machine-file keys `latency_NAME` it indexes), so the
 * two can never disagree on a name.
 *
 * KU_CHAIN_OPS(X) calls X(NAME, "name") once per operation, in the order
 * of the enum KU_CHAIN_*:
 *   fadd fmul fdiv   a double add/subtract, multiply, divide;
 *   iadd imul idiv   a 64-bit integer add/subtract (and a comparison or
 *                    bit operation: one ALU cycle), multiply, divide or
 *                    remainder;
 *   fsel isel        a compare-and-select of a floating or an integer
 *                    value: a conditional expression (the comparison of
 *                    its condition included: `a > b ? a : b`, the usual
 *                    max/min macros) or an fmax/fmin call.
 * A new name goes at the end of the list (the fact text and machine files
 * name operations, so the order is free; the enum is not stored).
 */
#ifndef KEEL_UTIL_CHAINOPS_H
#define KEEL_UTIL_CHAINOPS_H

#define KU_CHAIN_OPS(X) \
    X(FADD, "fadd") X(FMUL, "fmul") X(FDIV, "fdiv") \
    X(IADD, "iadd") X(IMUL, "imul") X(IDIV, "idiv") \
    X(FSEL, "fsel") X(ISEL, "isel")

#define KU_CHAIN_ENUM_(n, s) KU_CHAIN_##n,
enum { KU_CHAIN_OPS(KU_CHAIN_ENUM_) KU_CHAIN_NOPS };
#undef KU_CHAIN_ENUM_

/* The name of operation k ("fadd" ...), "?" outside 0..KU_CHAIN_NOPS-1. */
static inline const char *ku_chain_op_name(int k)
{
#define KU_CHAIN_NAME_(n, s) s,
    static const char *const names[KU_CHAIN_NOPS] = { KU_CHAIN_OPS(KU_CHAIN_NAME_) };
#undef KU_CHAIN_NAME_
    return k >= 0 && k < KU_CHAIN_NOPS ? names[k] : "?";
}

#endif
