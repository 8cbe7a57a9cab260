/*
 * expr_pack.h -- kx_expr in a compact binary form, and a pool of such
 * expressions keyed by their text, so that expressions can travel already
 * parsed (the packed facts a program carries: db/db_nest.h).
 *
 * One expression (no header; the pool's header carries the version):
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
 * The pool (KX_POOL_VERSION), every integer little-endian:
 *
 *     header  "KXPOOL", u8 version, u8 0, u32 count, u32 length of the whole
 *     index   count x u32: the offset (from the pool's start) of each entry,
 *             the entries' texts strictly ascending (strcmp)
 *     entry   the text, a NUL, uv length of the expression, the expression
 *
 * A lookup is a binary search over the index; only the expression found is
 * decoded.
 *
 * Ownership: kx_decode and kx_pool_get return new expressions the caller
 * frees with kx_free; kx_decode_in's lie in the caller's memory;
 * kx_pool_build returns a malloc'd pool.
 */
#ifndef KEEL_IPDA_EXPR_PACK_H
#define KEEL_IPDA_EXPR_PACK_H

#include <stddef.h>

#include "expr.h"
#include "util.h"

#define KX_POOL_MAGIC "KXPOOL"
#define KX_POOL_VERSION 1
#define KX_POOL_HEADER 16

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

/* A pool of the expressions texts[0..n) parse to (NULL texts skipped, each
 * text once; a text that does not parse is left out, so its reader parses
 * it and meets the same error): 0 with a new malloc'd *out of *len bytes,
 * -1 with a message (out of memory).  Deterministic: the same texts in any
 * order give the same bytes. */
int kx_pool_build(const char *const *texts, int n, unsigned char **out, size_t *len,
                  char *err, size_t errlen);

/* Check a pool's header, index and texts (not its expressions: each is
 * checked when decoded): 0, or -1 with one message ("truncated", "not an
 * expression pool", "version N", "corrupt ..."). */
int kx_pool_check(const void *pool, size_t len, char *err, size_t errlen);

/* In a checked pool, the expression stored for `text`: 1 with a new
 * expression in *out, 0 when the pool has none (*out NULL), -1 when its
 * bytes do not decode (the message in err). */
int kx_pool_get(const void *pool, size_t len, const char *text, kx_expr **out, char *err,
                size_t errlen);

#endif
