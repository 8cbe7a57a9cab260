/*
 * expr_pack.h -- kx_expr in a compact binary form, so that expressions
 * travel already parsed inside the nest models keelcc packs
 * (analysis/nest_pack.h).
 *
 * One expression (no header: the model's format version covers it):
 *
 *     expr    := uv nterms, term{nterms}
 *     term    := sv coeff, uv nfactors, factor{nfactors}
 *     factor  := u8 kind, uv pow, then by kind
 *                  0 symbol                   str name
 *                  1 div, 2 mod, 3 min, 4 max expr expr
 *                  5 call, 6 load             str name, uv nargs, expr{nargs}
 *                  7 unknown                  str text
 *     str     := uv length, that many bytes (no NUL among them)
 *     uv      := unsigned LEB128 (7 bits a byte, low first, at most 10 bytes);
 *     sv      := a signed value zigzag-mapped to uv (0, -1, 1, -2 ... -> 0, 1, 2, 3 ...)
 *
 * Terms and factors are written in the canonical order (expr.h), so the
 * form of an expression is unique: equal expressions encode to equal
 * bytes, and kx_decode gives back an expression kx_equal to the one
 * encoded (it prints the same).  kx_decode refuses, with one message,
 * bytes that end early, an over-long number, a kind it does not know, a
 * zero coefficient, a power out of 1 .. INT_MAX, an empty or NUL-holding
 * name, a call or load name that is not an identifier, terms or factors
 * out of canonical order, min or max operands out of order, nesting deeper
 * than kx_parse accepts or an expression over its size limit: whatever it
 * returns is in canonical form.
 *
 * Ownership: kx_decode returns a new expression the caller frees with
 * kx_free; kx_decode_in's lies in the caller's memory.
 */
#ifndef KEEL_IPDA_EXPR_PACK_H
#define KEEL_IPDA_EXPR_PACK_H

#include <stddef.h>

#include "expr.h"
#include "util.h"

/* Append e's binary form to b (b->oom after an allocation failure).  e must
 * not be NULL. */
void kx_encode(const kx_expr *e, ku_buf *b);

/* Decode one expression from bytes[0..n): the expression and, in *used,
 * the bytes it took; NULL with one message in err on malformed bytes (or
 * "out of memory"). */
kx_expr *kx_decode(const void *bytes, size_t n, size_t *used, char *err, size_t errlen);

/* The same in one pass, built in memory the caller hands out: the free
 * bytes [p, end) of *m (8-aligned), taken from the front; when they run
 * short, m->more(m, n) points p and end at at least n fresh bytes (0; -1
 * out of memory, then "out of memory").  The memory need not be zeroed.
 * The expression and its parts are marked as the caller's (kx_free leaves
 * them alone): the caller frees that memory, also after a failure, which
 * may leave parts there.  For a decoder that builds a whole model in one
 * block (nest_pack.h). */
typedef struct kx_mem {
    unsigned char *p, *end;
    int (*more)(struct kx_mem *m, size_t n);
} kx_mem;
kx_expr *kx_decode_in(const void *bytes, size_t n, size_t *used, kx_mem *m, char *err,
                      size_t errlen);

#endif
