/*
 * expr_int.h -- the representation of kx_expr, shared by the files of ipda
 * that build expressions directly: expr.c (the algebra, the text form) and
 * expr_pack.c (the binary form).  Nothing outside ipda/ includes it; see
 * expr.c for the canonical form these structures hold.
 */
#ifndef KEEL_IPDA_EXPR_INT_H
#define KEEL_IPDA_EXPR_INT_H

#include <stddef.h>
#include <stdint.h>

#include "expr.h"

#define KX_SYMBOL    (-1)         /* atom kind of a named symbol */
#define KX_MAX_SIZE  100000       /* largest size w of any result */
#define KX_MAX_DEPTH 200          /* deepest nesting kx_parse accepts */

typedef struct {
    int kind;           /* KX_SYMBOL or a kx_opkind */
    int pow;            /* >= 1 */
    char *name;         /* symbol / function / array / unknown text, or NULL */
    int nargs;          /* operands of an opaque atom */
    kx_expr **args;
} kx_factor;

typedef struct {
    int64_t coeff;      /* never 0 */
    int nf;
    kx_factor *f;       /* sorted by atom_cmp, atoms distinct */
} kx_term;

struct kx_expr {
    int n;
    kx_term *t;         /* sorted by mono_cmp, monomials distinct */
    size_t w;           /* size: terms + factors + operand sizes */
    int block;          /* 1: one allocation at this expression holds it all --
                         * terms, factors, names, operands (kx_decode builds
                         * them so) -- and kx_free frees only that; 2: an
                         * operand inside such a block (never freed alone) */
};

/* 1 when e's terms and factors are in canonical order with no zero
 * coefficient, no power below 1 and every operand present (operands are
 * not descended into). */
int kx_int_canonical(const kx_expr *e);

#endif
