/*
 * expr.h -- symbolic integer expressions: canonical multivariate polynomials.
 *
 * Every bound, trip count, array index, address and stride in keel is a
 * kx_expr: a sum of terms, each an integer coefficient times a product of
 * atoms raised to positive powers.  An atom is either a named symbol (a
 * program variable such as `n` or a loop variable such as `i`) or an opaque
 * term for what is not a polynomial: integer division, modulo, min, max, a
 * call, a load through an array, or unrecognised source text.  Opaque terms
 * keep their operands as expressions, so nothing is silently lost and the
 * runtime can still evaluate div/mod/min/max once the symbols are bound.
 *
 * Canonical form: terms are kept sorted and like terms merged, zero terms
 * dropped, atoms inside a term sorted, so two expressions are equal exactly
 * when their printed forms are equal.
 *
 * Text form (what the database stores and the runtime parses back):
 *
 *     expr    := term (('+' | '-') term)*        with an optional leading '-'
 *     term    := factor ('*' factor)*
 *     factor  := INT | atom ('^' INT)?  | '(' expr ')'
 *     atom    := IDENT
 *              | ('div' | 'mod' | 'min' | 'max') '(' expr ',' expr ')'
 *              | 'call.' IDENT '(' [expr (',' expr)*] ')'
 *              | 'load.' IDENT '(' [expr (',' expr)*] ')'
 *              | '?' STRING                       unknown text, C-escaped "..."
 *              | '$' STRING                       a named value (kx_named)
 *
 * Printing writes terms in canonical order separated by " + " / " - ", the
 * coefficient first when it is not 1 (`2*i*n + j - 1`, `n^2`, `div(n, 2)`);
 * print(parse(s)) == s for every printed s.  The words div, mod, min, max
 * name operators only before '(', and call and load only before '.';
 * elsewhere they are ordinary symbols (a C variable may be called max).  kx_parse also takes
 * blanks anywhere between tokens and '^' after a parenthesised expression
 * (`(i+1)^2`); exponents are 1 .. INT_MAX, nesting at most 200 levels.
 *
 * Semantics: div and mod are C's (truncating); min and max as usual.
 *
 * Ownership: every function returning kx_expr * returns a new object the
 * caller owns and must kx_free(); arguments are never consumed or modified.
 * Functions return NULL only on allocation failure or, for kx_parse, on a
 * syntax error (with a message).  A NULL expression argument (a failed
 * allocation upstream) gives NULL back (0 from the predicates), so failures
 * propagate through chains of calls.
 */
#ifndef KEEL_IPDA_EXPR_H
#define KEEL_IPDA_EXPR_H

#include <stddef.h>
#include <stdint.h>

typedef struct kx_expr kx_expr;

/* Kinds of opaque atoms. */
typedef enum {
    KX_DIV,     /* div(a, b): C integer division a / b */
    KX_MOD,     /* mod(a, b): C remainder a % b */
    KX_MIN,     /* min(a, b) */
    KX_MAX,     /* max(a, b) */
    KX_CALL,    /* call.f(args...) */
    KX_LOAD,    /* load.A(i, j...): the value of A[i][j] */
    KX_UNKNOWN  /* ?"source text" */
} kx_opkind;

/* Constructors.  A symbol name must be a C identifier (operator words
 * included); any other name becomes the unknown atom ?"name" so that the
 * printed form still parses back. */
kx_expr *kx_int(int64_t v);
kx_expr *kx_sym(const char *name);
/* A named value: a symbol whose name is any non-empty text, such as the C
 * text of a loop-invariant read of memory (`grid_points[0]`, `s->n`) that
 * the runtime is given under that name.  It behaves as a symbol in every
 * respect (kx_symbols lists it, kx_eval looks it up); a name that is a C
 * identifier is the plain symbol, any other prints as $"text". */
kx_expr *kx_named(const char *text);
/* An opaque atom.  name is the function (KX_CALL) or array (KX_LOAD), or the
 * source text (KX_UNKNOWN); NULL for the others.  div/mod/min/max take exactly
 * two arguments.  kx_op folds what it can: div/mod/min/max of two constants
 * become the constant (div/mod by zero, and div(INT64_MIN, -1), stay
 * opaque), div(x, 1) is x, div(x, -1) is -x, mod(x, +-1) is 0, min/max of
 * operands that differ by a constant (min(x, x), max(n + 1, n)) is that
 * operand; the operands of min and max are sorted (min(a, b) == min(b, a)).
 * A malformed call (wrong operand count, a call/load name that is not an
 * identifier) gives an unknown atom holding its text. */
kx_expr *kx_op(kx_opkind kind, const char *name, int nargs, kx_expr *const *args);

/* Algebra.  On int64 coefficient overflow the result is an unknown atom whose
 * text says so, ?"overflow" (never a wrong polynomial); a result beyond the
 * size limit (100000 terms, factors and operand terms, counted before an
 * operation allocates) is ?"too large". */
kx_expr *kx_add(const kx_expr *a, const kx_expr *b);
kx_expr *kx_sub(const kx_expr *a, const kx_expr *b);
kx_expr *kx_mul(const kx_expr *a, const kx_expr *b);
kx_expr *kx_neg(const kx_expr *a);
kx_expr *kx_copy(const kx_expr *a);
void kx_free(kx_expr *e);              /* NULL is fine */

/* Replace every occurrence of symbol `name` (also inside opaque operands) by
 * `value` and return the result in canonical form. */
kx_expr *kx_subst(const kx_expr *e, const char *name, const kx_expr *value);

/* Comparison.  kx_equal is structural equality of canonical forms; kx_compare
 * is a total order consistent with it (for sorting). */
int kx_equal(const kx_expr *a, const kx_expr *b);
int kx_compare(const kx_expr *a, const kx_expr *b);

/* Queries. */
int kx_is_const(const kx_expr *e, int64_t *value);   /* 1 and *value if constant */
int kx_is_zero(const kx_expr *e);
int kx_has_opaque(const kx_expr *e);                 /* any opaque atom at all */
/* Affine: every term has total degree <= 1 (so no i*j, no n^2) and there is
 * no opaque atom. */
int kx_is_affine(const kx_expr *e);
/* Highest power of symbol `name` in any term (0 when absent). */
int kx_degree(const kx_expr *e, const char *name);
/* Does symbol `name` occur inside an opaque atom other than a division by
 * a constant of a polynomial (min, max, mod, div by a non-constant, a load,
 * a call, unknown text): is e, as a function of name, more than a
 * polynomial rounded down?  (kx_piecewise_in("n - max(i - ub, 0)", "i") is
 * 1; of "div(n - i + 1, 2)" 0.) */
int kx_piecewise_in(const kx_expr *e, const char *name);
/* Does symbol `name` occur anywhere (also inside opaque operands)? */
int kx_mentions(const kx_expr *e, const char *name);
/* The coefficient of name^1 as an expression: the sum of the terms of degree
 * exactly 1 in `name`, divided by `name` (e.g. coeff of i in 2*i*n + i + j
 * is 2*n + 1).  Terms with higher powers are not included. */
kx_expr *kx_coeff(const kx_expr *e, const char *name);
/* The coefficient of name^k: the terms of degree exactly k in `name`,
 * divided by name^k (k = 0: the terms without `name`).  The coefficient of
 * n^2 in i*n^2 + j*n + n^2 + k is i + 1. */
kx_expr *kx_coeff_pow(const kx_expr *e, const char *name, int k);
/* The symbols occurring in e (also inside opaque operands), sorted, without
 * duplicates.  Returns the count; *names is a malloc'd array of malloc'd
 * strings the caller frees with kx_free_names (NULL when the count is 0);
 * -1 on allocation failure. */
int kx_symbols(const kx_expr *e, char ***names);
void kx_free_names(char **names, int n);
/* Every occurrence of a symbol in e (also inside opaque operands; a symbol
 * as often as it occurs, in no promised order), without allocating: fn's
 * first non-zero return stops the walk and is returned; else 0. */
typedef int (*kx_symbol_fn)(void *ctx, const char *name);
int kx_each_symbol(const kx_expr *e, kx_symbol_fn fn, void *ctx);

/* Whether an allocation in ipda failed since the last call (then cleared):
 * kx_* functions return NULL both for "unknown" and on allocation failure,
 * so a pipeline (keelcc's parse, its analyses) asks once at its end and
 * fails as out of memory instead of storing an "unknown" it did not find.
 * The flag is per thread.  kx_note_oom sets it (a caller's own failure). */
int kx_oom_take(void);
void kx_note_oom(void);

/* Evaluation under a binding of symbols.  lookup returns 1 and sets *value
 * when it knows the symbol, else 0.  Returns 0 on success; -1 with a message
 * in err (NUL-terminated, truncated to errlen) when a symbol is unbound,
 * an atom cannot be evaluated (call, load, unknown), a division by zero
 * happens, or any step overflows int64. */
typedef int (*kx_lookup_fn)(void *ctx, const char *name, int64_t *value);
int kx_eval(const kx_expr *e, kx_lookup_fn lookup, void *ctx, int64_t *out,
            char *err, size_t errlen);

/* Range evaluation (interval arithmetic): lookup gives each symbol's
 * closed range [*lo, *hi] (1) or does not know it (0).  Fills [*lo, *hi]
 * with a range holding every value e takes when each symbol lies in its
 * range (each occurrence of a symbol taken independently: a bound, not
 * the exact range).  div, mod, min and max are bounded; a load, a call or
 * unknown text, a divisor whose range holds 0 or an int64 overflow give
 * -1 with a message in err.  0 on success. */
typedef int (*kx_range_fn)(void *ctx, const char *name, int64_t *lo, int64_t *hi);
int kx_eval_range(const kx_expr *e, kx_range_fn lookup, void *ctx, int64_t *lo, int64_t *hi,
                  char *err, size_t errlen);

/* Telescoping sums.  When e is load.A(x + 1) - load.A(x) with x of degree
 * 1 in v, coefficient 1 (`rowstr[j+1] - rowstr[j]`: the trip count of a CSR
 * row), the sum of e over v = lo .. hi - 1 is load.A(x[v := hi]) -
 * load.A(x[v := lo]): returns 1 and that in *out.  0 when e has not that
 * form (or lo or hi mention v), -1 on allocation failure. */
int kx_telescope(const kx_expr *e, const char *v, const kx_expr *lo, const kx_expr *hi,
                 kx_expr **out);

/* Text form.  kx_print returns a malloc'd string the caller frees.
 * kx_parse returns NULL on malformed text with a one-line message in err;
 * it never crashes on any input (it is fuzzed). */
char *kx_print(const kx_expr *e);
kx_expr *kx_parse(const char *text, char *err, size_t errlen);

#endif
