/*
 * expr.c -- symbolic integer expressions as canonical multivariate polynomials.
 *
 * Representation.  A kx_expr is an array of terms; a term is an int64
 * coefficient (never 0) and an array of factors; a factor is an atom raised
 * to a power >= 1.  The atom is stored inline in the factor: its kind
 * (KX_SYMBOL for a named symbol, else a kx_opkind), a name (symbol name,
 * function or array name, or the text of an unknown; NULL for div, mod, min
 * and max) and, for opaque atoms, the operands as owned kx_expr pointers.
 * Nothing is shared: every expression owns all of its memory, so copies are
 * deep and a const expression really is never written, not even a reference
 * count (the runtime may read one expression from several threads).
 *
 * The zero polynomial has no terms; a constant c != 0 is one term with no
 * factors.  The checked build (assert on) verifies the canonical form below
 * on every expression built from terms (set_size).
 *
 * Canonical order.  Atoms are ordered by atom_cmp: symbols before opaque
 * atoms; symbols by strcmp of their names; opaque atoms by kind (in the
 * order of kx_opkind), then name, then operand count, then operands
 * compared with kx_compare.  Inside a term the factors are sorted by that
 * order and no atom occurs twice.  Terms (monomials) are ordered by
 * mono_cmp: higher total degree first (every atom counts as degree 1), then
 * lexicographically over the factor lists: the smaller atom first and, for
 * the same atom, the higher power first.  That is graded lexicographic
 * order: `i^2 + 2*i*j + j^2 + i - 3`, and the constant term comes last.  An
 * expression's terms are sorted by mono_cmp with like terms merged and zero
 * terms dropped, so canonical forms are unique and kx_equal is structural.
 *
 * Folding.  kx_op folds what it can (constants, div(x, +-1), mod(x, +-1),
 * min(x, x), min/max of operands that differ by a constant) and sorts the
 * operands of the commutative min and max, so min(a, b) == min(b, a).
 * kx_subst rebuilds opaque atoms through the same code, so they re-fold.
 *
 * Text.  Terms print in canonical order joined by " + " / " - ", a
 * coefficient of +-1 shows only as the sign, factors join with '*' and
 * powers > 1 show as ^p.  Unknown text prints as a C string: \\ \" \n \t
 * \r by name, other control bytes as three-digit octal, bytes >= 0x80 raw.
 * A coefficient of INT64_MIN prints as -9223372036854775808, so the parser
 * reads a literal right after a minus sign negated (its magnitude may be
 * 2^63).
 *
 * Errors.  Internal functions return a status (ST_OK, ST_NOMEM,
 * ST_OVERFLOW, ST_TOOBIG) and the result through an out pointer; the public
 * wrappers turn ST_NOMEM into NULL and an overflow or an over-large result
 * into the unknown atoms ?"overflow" and ?"too large".  The parser reports
 * them as syntax errors instead.  A public function given a NULL expression
 * returns NULL (or 0), so allocation failures propagate through chains of
 * calls.
 *
 * Limits.  Every expression carries its size w: one per term plus one per
 * factor plus the sizes of opaque operands, i.e. the number of nodes a deep
 * copy allocates.  No result may exceed KX_MAX_SIZE; sums and products
 * check a bound before they allocate (a product's size is at most
 * nb*wa + na*wb).  With the parser's KX_MAX_DEPTH that bounds memory and
 * time on hostile input (the parser is fuzzed); real trip counts and
 * subscripts are far below it.  The parser and kx_subst add long lists of
 * terms in one sort-and-merge and multiply long chains as a balanced tree,
 * so their cost stays near-linear in the size of the text.
 */
#include "expr.h"

#include <assert.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr_int.h"
#include "util.h"

enum { ST_OK, ST_NOMEM, ST_OVERFLOW, ST_TOOBIG };

static const char *const reserved[] = { "div", "mod", "min", "max", "call", "load" };

/* ---------------------------------------------------------------------
 * Memory
 * ------------------------------------------------------------------ */

/* Set on every allocation failure in ipda, read and cleared by
 * kx_oom_take: NULL means both "unknown" and "out of memory" to the
 * callers of kx_*, so a pipeline asks once at its end which it was. */
static _Thread_local int oom_seen;

int kx_oom_take(void)
{
    int v = oom_seen;
    oom_seen = 0;
    return v;
}

void kx_note_oom(void)
{
    oom_seen = 1;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        oom_seen = 1;
    return p;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p && n && size)
        oom_seen = 1;
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = xmalloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

/* Release what factor f owns (not f itself).  A zero-filled factor is fine. */
static void factor_clear(kx_factor *f)
{
    free(f->name);
    for (int i = 0; i < f->nargs; i++)
        kx_free(f->args[i]);
    free(f->args);
}

/* Release what term t owns.  A zero-filled term is fine. */
static void term_clear(kx_term *t)
{
    for (int i = 0; i < t->nf; i++)
        factor_clear(&t->f[i]);
    free(t->f);
}

void kx_free(kx_expr *e)
{
    if (!e)
        return;
    if (e->block) {            /* kx_decode's: one allocation, freed at its head */
        if (e->block == 1)
            free(e);
        return;
    }
    for (int i = 0; i < e->n; i++)
        term_clear(&e->t[i]);
    free(e->t);
    free(e);
}

/* Deep-copy factor s into d.  On failure d is left in a state factor_clear
 * accepts. */
static int factor_copy(kx_factor *d, const kx_factor *s)
{
    d->kind = s->kind;
    d->pow = s->pow;
    d->name = NULL;
    d->nargs = 0;
    d->args = NULL;
    if (s->name && !(d->name = xstrdup(s->name)))
        return ST_NOMEM;
    if (s->nargs > 0) {
        if (!(d->args = xcalloc((size_t)s->nargs, sizeof *d->args)))
            return ST_NOMEM;
        d->nargs = s->nargs;
        for (int i = 0; i < s->nargs; i++)
            if (!(d->args[i] = kx_copy(s->args[i])))
                return ST_NOMEM;
    }
    return ST_OK;
}

/* Deep-copy term s into d; on failure d is clearable with term_clear. */
static int term_copy(kx_term *d, const kx_term *s)
{
    d->coeff = s->coeff;
    d->nf = 0;
    d->f = NULL;
    if (s->nf == 0)
        return ST_OK;
    if (!(d->f = xcalloc((size_t)s->nf, sizeof *d->f)))
        return ST_NOMEM;
    d->nf = s->nf;      /* the zero-filled rest is clearable */
    for (int i = 0; i < s->nf; i++) {
        int st = factor_copy(&d->f[i], &s->f[i]);
        if (st)
            return st;
    }
    return ST_OK;
}

/* A new expression with room for cap terms and none used. */
static kx_expr *expr_alloc(size_t cap)
{
    kx_expr *e = xcalloc(1, sizeof *e);
    if (e && cap > 0 && !(e->t = xcalloc(cap, sizeof *e->t))) {
        free(e);
        return NULL;
    }
    return e;
}

static int canonical(const kx_expr *e);

/* Compute e->w from its terms (operands already carry theirs).  Every
 * expression built from terms passes here, so here the checked build
 * asserts the canonical form. */
static void set_size(kx_expr *e)
{
    assert(canonical(e));
    size_t w = 0;
    for (int i = 0; i < e->n; i++) {
        const kx_term *t = &e->t[i];
        w += 1 + (size_t)t->nf;
        for (int j = 0; j < t->nf; j++)
            for (int k = 0; k < t->f[j].nargs; k++)
                w += t->f[j].args[k]->w;
    }
    e->w = w;
}

kx_expr *kx_copy(const kx_expr *a)
{
    if (!a)
        return NULL;
    kx_expr *e = expr_alloc((size_t)a->n);
    if (!e)
        return NULL;
    for (int i = 0; i < a->n; i++) {
        e->n++;
        if (term_copy(&e->t[i], &a->t[i])) {
            kx_free(e);
            return NULL;
        }
    }
    e->w = a->w;
    return e;
}

/* ---------------------------------------------------------------------
 * Order
 * ------------------------------------------------------------------ */

static int cmp_int(int64_t a, int64_t b)
{
    return a < b ? -1 : a > b;
}

/* strcmp with NULL before every string. */
static int cmp_name(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    int c = strcmp(a, b);
    return c < 0 ? -1 : c > 0;
}

/* The total order on atoms (the power is not looked at): symbols first, by
 * name; then opaque atoms by kind, name, operand count and operands. */
static int atom_cmp(const kx_factor *a, const kx_factor *b)
{
    int c;
    if (a->kind != b->kind)
        return cmp_int(a->kind, b->kind);
    if ((c = cmp_name(a->name, b->name)))
        return c;
    if (a->nargs != b->nargs)
        return cmp_int(a->nargs, b->nargs);
    for (int i = 0; i < a->nargs; i++)
        if ((c = kx_compare(a->args[i], b->args[i])))
            return c;
    return 0;
}

/* Total degree of a term: the sum of its powers (int64: powers are int). */
static int64_t term_degree(const kx_term *t)
{
    int64_t d = 0;
    for (int i = 0; i < t->nf; i++)
        d += t->f[i].pow;
    return d;
}

/* The canonical order on monomials (coefficients ignored): higher total
 * degree first, then the factor lists lexicographically, a smaller atom
 * first and for equal atoms the higher power first. */
static int mono_cmp(const kx_term *a, const kx_term *b)
{
    int64_t da = term_degree(a), db = term_degree(b);
    if (da != db)
        return da > db ? -1 : 1;
    int n = a->nf < b->nf ? a->nf : b->nf;
    for (int i = 0; i < n; i++) {
        int c = atom_cmp(&a->f[i], &b->f[i]);
        if (c)
            return c;
        if (a->f[i].pow != b->f[i].pow)
            return a->f[i].pow > b->f[i].pow ? -1 : 1;
    }
    return cmp_int(a->nf, b->nf);
}

/* The representation's invariants (see the top of this file): no zero
 * coefficient, no power below 1, every operand of an opaque atom present,
 * factors strictly ascending by atom_cmp and terms strictly ascending by
 * mono_cmp (so no atom twice in a term, no monomial twice).  assert()
 * runs it in the checked build; the decoder (expr_pack.c) always. */
static int canonical(const kx_expr *e)
{
    for (int i = 0; i < e->n; i++) {
        const kx_term *t = &e->t[i];
        if (t->coeff == 0 || (i > 0 && mono_cmp(&e->t[i - 1], t) >= 0))
            return 0;
        for (int j = 0; j < t->nf; j++) {
            const kx_factor *f = &t->f[j];
            if (f->pow < 1 || (j > 0 && atom_cmp(&t->f[j - 1], f) >= 0))
                return 0;
            for (int k = 0; k < f->nargs; k++)
                if (!f->args[k])
                    return 0;
        }
    }
    return 1;
}

/* The decoder's check (expr_pack.c): a decoded expression is used only
 * when it is in canonical form. */
int kx_int_canonical(const kx_expr *e)
{
    return canonical(e);
}

static int mono_cmp_q(const void *a, const void *b)
{
    return mono_cmp(a, b);
}

/* Lexicographic over the (monomial, coefficient) sequences; when one is a
 * prefix of the other the longer one comes first, as if the shorter ended
 * in a term below every monomial (so min(n, 0), not min(0, n)).  NULL sorts
 * before everything. */
int kx_compare(const kx_expr *a, const kx_expr *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    int n = a->n < b->n ? a->n : b->n;
    for (int i = 0; i < n; i++) {
        int c = mono_cmp(&a->t[i], &b->t[i]);
        if (c)
            return c;
        if ((c = cmp_int(a->t[i].coeff, b->t[i].coeff)))
            return c;
    }
    return cmp_int(b->n, a->n);
}

int kx_equal(const kx_expr *a, const kx_expr *b)
{
    return kx_compare(a, b) == 0;
}

/* ---------------------------------------------------------------------
 * Output buffer and printing
 * ------------------------------------------------------------------ */

/* Output goes to a ku_buf (util.h): "" when nothing was written, NULL
 * after a failed allocation. */

static void sb_u64(ku_buf *b, uint64_t v)
{
    ku_buf_printf(b, "%llu", (unsigned long long)v);
}

/* Write s as a C string literal: \\, \", \n, \t, \r by name, other control
 * bytes (and DEL) as three-digit octal, everything else as is. */
static void print_string(ku_buf *b, const char *s)
{
    ku_buf_putc(b, '"');
    for (const unsigned char *q = (const unsigned char *)s; *q; q++) {
        char tmp[8];
        switch (*q) {
        case '\\': ku_buf_put(b, "\\\\"); break;
        case '"':  ku_buf_put(b, "\\\""); break;
        case '\n': ku_buf_put(b, "\\n"); break;
        case '\t': ku_buf_put(b, "\\t"); break;
        case '\r': ku_buf_put(b, "\\r"); break;
        default:
            if (*q < 0x20 || *q == 0x7f) {
                snprintf(tmp, sizeof tmp, "\\%03o", (unsigned)*q);
                ku_buf_put(b, tmp);
            } else {
                ku_buf_putc(b, (char)*q);
            }
        }
    }
    ku_buf_putc(b, '"');
}

static void print_expr(ku_buf *b, const kx_expr *e);
static int valid_ident(const char *s, int no_reserved);

/* Write an atom from its parts (also used for the text of an ill-formed
 * kx_op call, whose parts need not be valid). */
static void print_atom(ku_buf *b, int kind, const char *name, int nargs,
                       kx_expr *const *args)
{
    static const char *const head[] = { "div", "mod", "min", "max", "call.", "load." };
    if (kind == KX_SYMBOL) {
        if (name && !valid_ident(name, 0)) {
            ku_buf_putc(b, '$');
            print_string(b, name);
        } else
            ku_buf_put(b, name ? name : "");
        return;
    }
    if (kind == KX_UNKNOWN) {
        ku_buf_putc(b, '?');
        print_string(b, name ? name : "");
        return;
    }
    if (kind < 0 || kind > KX_UNKNOWN) {
        ku_buf_put(b, "?");
        return;
    }
    ku_buf_put(b, head[kind]);
    if (kind == KX_CALL || kind == KX_LOAD)
        ku_buf_put(b, name ? name : "");
    ku_buf_putc(b, '(');
    for (int i = 0; i < nargs; i++) {
        if (i)
            ku_buf_put(b, ", ");
        if (args && args[i])
            print_expr(b, args[i]);
    }
    ku_buf_putc(b, ')');
}

/* Write one term: with its sign as a separator (" + ", " - ") unless it is
 * the first, where only a minus shows.  The magnitude is computed unsigned
 * so INT64_MIN prints. */
static void print_term(ku_buf *b, const kx_term *t, int first)
{
    uint64_t mag = t->coeff < 0 ? (uint64_t)0 - (uint64_t)t->coeff : (uint64_t)t->coeff;
    if (first)
        ku_buf_put(b, t->coeff < 0 ? "-" : "");
    else
        ku_buf_put(b, t->coeff < 0 ? " - " : " + ");
    if (t->nf == 0 || mag != 1) {
        sb_u64(b, mag);
        if (t->nf)
            ku_buf_putc(b, '*');
    }
    for (int i = 0; i < t->nf; i++) {
        const kx_factor *f = &t->f[i];
        if (i)
            ku_buf_putc(b, '*');
        print_atom(b, f->kind, f->name, f->nargs, f->args);
        if (f->pow != 1) {
            char tmp[16];
            snprintf(tmp, sizeof tmp, "^%d", f->pow);
            ku_buf_put(b, tmp);
        }
    }
}

static void print_expr(ku_buf *b, const kx_expr *e)
{
    if (e->n == 0)
        ku_buf_putc(b, '0');
    for (int i = 0; i < e->n; i++)
        print_term(b, &e->t[i], i == 0);
}

char *kx_print(const kx_expr *e)
{
    ku_buf b = { 0 };
    if (!e)
        return NULL;
    print_expr(&b, e);
    char *s = ku_buf_take(&b);
    if (!s)
        oom_seen = 1;
    return s;
}

/* ---------------------------------------------------------------------
 * Building blocks
 * ------------------------------------------------------------------ */

/* The constant v. */
static int make_const(int64_t v, kx_expr **out)
{
    kx_expr *e = expr_alloc(v != 0);
    if (!(*out = e))
        return ST_NOMEM;
    if (v) {
        e->n = 1;
        e->t[0].coeff = v;
        e->w = 1;
    }
    return ST_OK;
}

/* The expression 1*atom^1 with copies of name and args. */
static int make_atom(int kind, const char *name, int nargs, kx_expr *const *args,
                     kx_expr **out)
{
    kx_factor tmp = { kind, 1, (char *)name, nargs, (kx_expr **)args };
    kx_expr *e;
    size_t w = 2;
    *out = NULL;
    for (int i = 0; i < nargs; i++)
        w += args[i]->w;
    if (w > KX_MAX_SIZE)
        return ST_TOOBIG;
    if (!(e = expr_alloc(1)))
        return ST_NOMEM;
    e->n = 1;
    e->t[0].coeff = 1;
    if (!(e->t[0].f = xcalloc(1, sizeof(kx_factor)))) {
        kx_free(e);
        return ST_NOMEM;
    }
    e->t[0].nf = 1;
    if (factor_copy(&e->t[0].f[0], &tmp)) {
        kx_free(e);
        return ST_NOMEM;
    }
    e->w = w;
    *out = e;
    return ST_OK;
}

static int make_unknown(const char *text, kx_expr **out)
{
    return make_atom(KX_UNKNOWN, text, 0, NULL, out);
}

/* The public face of a status: the result, NULL, or an unknown atom that
 * says what went wrong. */
static kx_expr *finish(int st, kx_expr *r)
{
    kx_expr *u = NULL;
    switch (st) {
    case ST_OK:
        return r;
    case ST_OVERFLOW:
        make_unknown("overflow", &u);
        return u;
    case ST_TOOBIG:
        make_unknown("too large", &u);
        return u;
    default:
        return NULL;
    }
}

/* Is s a C identifier?  With no_reserved, also not one of the reserved
 * words (symbols may not be; function and array names after call. / load.
 * may). */
static int valid_ident(const char *s, int no_reserved)
{
    if (!s || !(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
        return 0;
    for (const char *q = s + 1; *q; q++)
        if (!(*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')
              || (*q >= '0' && *q <= '9')))
            return 0;
    if (no_reserved)
        for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
            if (strcmp(s, reserved[i]) == 0)
                return 0;
    return 1;
}

/* ---------------------------------------------------------------------
 * Algebra
 * ------------------------------------------------------------------ */

/* a + b, or a - b with negate_b: a merge of the two sorted term lists,
 * adding the coefficients of like terms and dropping zeros. */
static int expr_addsub(const kx_expr *a, const kx_expr *b, int negate_b, kx_expr **out)
{
    kx_expr *r;
    int i = 0, j = 0, st = ST_OK;

    *out = NULL;
    if (a->w + b->w > KX_MAX_SIZE)
        return ST_TOOBIG;
    if (!(r = expr_alloc((size_t)a->n + (size_t)b->n)))
        return ST_NOMEM;
    while (i < a->n || j < b->n) {
        int c = i == a->n ? 1 : j == b->n ? -1 : mono_cmp(&a->t[i], &b->t[j]);
        const kx_term *src;
        int64_t coeff;
        if (c < 0) {
            src = &a->t[i++];
            coeff = src->coeff;
        } else {
            int64_t cb = b->t[j].coeff;
            if (negate_b && __builtin_sub_overflow((int64_t)0, cb, &cb)) {
                st = ST_OVERFLOW;
                break;
            }
            if (c == 0) {
                if (__builtin_add_overflow(a->t[i].coeff, cb, &coeff)) {
                    st = ST_OVERFLOW;
                    break;
                }
                src = &a->t[i++];
            } else {
                src = &b->t[j];
                coeff = cb;
            }
            j++;
        }
        if (coeff == 0)
            continue;
        kx_term *d = &r->t[r->n++];
        if ((st = term_copy(d, src)))
            break;
        d->coeff = coeff;
    }
    if (st) {
        kx_free(r);
        return st;
    }
    set_size(r);
    *out = r;
    return ST_OK;
}

/* d = a * b for single terms: coefficients multiply, the sorted factor
 * lists merge and the powers of a shared atom add.  On failure d is
 * clearable. */
static int term_mul(const kx_term *a, const kx_term *b, kx_term *d)
{
    int i = 0, j = 0, st;

    d->nf = 0;
    d->f = NULL;
    if (__builtin_mul_overflow(a->coeff, b->coeff, &d->coeff))
        return ST_OVERFLOW;
    if (a->nf + b->nf == 0)
        return ST_OK;
    if (!(d->f = xcalloc((size_t)a->nf + (size_t)b->nf, sizeof *d->f)))
        return ST_NOMEM;
    while (i < a->nf || j < b->nf) {
        int c = i == a->nf ? 1 : j == b->nf ? -1 : atom_cmp(&a->f[i], &b->f[j]);
        kx_factor *f = &d->f[d->nf++];
        if ((st = factor_copy(f, c <= 0 ? &a->f[i] : &b->f[j])))
            return st;
        if (c == 0 && __builtin_add_overflow(a->f[i].pow, b->f[j].pow, &f->pow))
            return ST_OVERFLOW;
        if (c <= 0)
            i++;
        if (c >= 0)
            j++;
    }
    return ST_OK;
}

/* Sort np terms, merge like ones (adding coefficients, dropping zeros)
 * and make them an expression.  Takes tmp and the terms in it: a term is
 * moved into the result or cleared, and tmp is freed. */
static int collect_terms(kx_term *tmp, size_t np, kx_expr **out)
{
    kx_expr *r = expr_alloc(np);
    int st = ST_OK;

    *out = NULL;
    if (!r)
        st = ST_NOMEM;
    else if (np > 1)
        qsort(tmp, np, sizeof *tmp, mono_cmp_q);
    for (size_t x = 0; x < np && !st;) {
        size_t y = x + 1;
        int64_t sum = tmp[x].coeff;
        for (; y < np && mono_cmp(&tmp[x], &tmp[y]) == 0; y++)
            if (__builtin_add_overflow(sum, tmp[y].coeff, &sum))
                st = ST_OVERFLOW;
        if (!st && sum != 0) {  /* move tmp[x] into r, the rest are cleared */
            r->t[r->n] = tmp[x];
            r->t[r->n++].coeff = sum;
            tmp[x].nf = 0;
            tmp[x].f = NULL;
        }
        x = y;
    }
    for (size_t x = 0; x < np; x++)
        term_clear(&tmp[x]);
    free(tmp);
    if (st) {
        kx_free(r);
        return st;
    }
    set_size(r);
    if (r->w > KX_MAX_SIZE) {
        kx_free(r);
        return ST_TOOBIG;
    }
    *out = r;
    return ST_OK;
}

/* a * b: every pair of terms multiplied, then sorted and like terms merged.
 * Each product term is at most the size of its two factors together, so
 * nb*wa + na*wb bounds the work and the result; over KX_MAX_SIZE it is
 * refused (ST_TOOBIG) before anything is allocated. */
static int expr_mul(const kx_expr *a, const kx_expr *b, kx_expr **out)
{
    size_t np = (size_t)a->n * (size_t)b->n, k = 0;
    kx_term *tmp;
    int st = ST_OK;

    *out = NULL;
    if ((size_t)b->n * a->w + (size_t)a->n * b->w > KX_MAX_SIZE)
        return ST_TOOBIG;
    if (np == 0)
        return make_const(0, out);
    if (!(tmp = xcalloc(np, sizeof *tmp)))
        return ST_NOMEM;
    for (int i = 0; i < a->n && !st; i++)
        for (int j = 0; j < b->n && !st; j++)
            st = term_mul(&a->t[i], &b->t[j], &tmp[k++]);
    if (st) {
        for (size_t x = 0; x < k; x++)
            term_clear(&tmp[x]);
        free(tmp);
        return st;
    }
    return collect_terms(tmp, np, out);
}

/* The sum of v[0..n), which it takes and frees (entries may be NULL only
 * after a failure elsewhere, and then ST_NOMEM is returned).  All terms are
 * moved into one array, sorted and merged once: linear-logarithmic where
 * adding one by one would copy the partial sum again and again. */
static int expr_sum(kx_expr **v, size_t n, kx_expr **out)
{
    size_t total = 0, w = 0, k = 0;
    kx_term *tmp = NULL;
    int st = ST_OK;

    *out = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!v[i]) {
            st = ST_NOMEM;
            continue;
        }
        total += (size_t)v[i]->n;
        w += v[i]->w;
    }
    if (!st && w > KX_MAX_SIZE)
        st = ST_TOOBIG;
    if (!st && total > 0 && !(tmp = xcalloc(total, sizeof *tmp)))
        st = ST_NOMEM;
    for (size_t i = 0; i < n; i++) {
        if (!st && v[i]->n > 0) {
            memcpy(tmp + k, v[i]->t, (size_t)v[i]->n * sizeof *tmp);
            k += (size_t)v[i]->n;
            v[i]->n = 0;        /* moved: only the shell is freed */
        }
        kx_free(v[i]);
        v[i] = NULL;
    }
    if (st)
        return st;
    return collect_terms(tmp, total, out);
}

/* The product of v[0..n) (n >= 1), which it takes and frees, multiplied as
 * a balanced tree so that a long chain of monomials costs n log n copies,
 * not n^2. */
static int expr_product(kx_expr **v, size_t n, kx_expr **out)
{
    int st = ST_OK;

    *out = NULL;
    for (size_t i = 0; i < n; i++)
        if (!v[i])
            st = ST_NOMEM;
    while (n > 1 && !st) {
        size_t m = 0;
        for (size_t i = 0; i < n; i += 2) {
            kx_expr *t = v[i];
            if (i + 1 < n && !st) {
                st = expr_mul(v[i], v[i + 1], &t);
                kx_free(v[i]);
                kx_free(v[i + 1]);
            } else if (i + 1 < n) {
                kx_free(v[i + 1]);
            }
            v[i] = v[i + 1 < n ? i + 1 : i] = NULL;
            v[m++] = t;
        }
        n = m;
    }
    if (st) {
        for (size_t i = 0; i < n; i++)
            kx_free(v[i]);
        return st;
    }
    *out = v[0];
    v[0] = NULL;
    return ST_OK;
}

/* -a: a copy with every coefficient negated (INT64_MIN overflows). */
static int expr_neg(const kx_expr *a, kx_expr **out)
{
    kx_expr *r = kx_copy(a);
    *out = NULL;
    if (!r)
        return ST_NOMEM;
    for (int i = 0; i < r->n; i++)
        if (__builtin_sub_overflow((int64_t)0, r->t[i].coeff, &r->t[i].coeff)) {
            kx_free(r);
            return ST_OVERFLOW;
        }
    *out = r;
    return ST_OK;
}

/* base^p for p >= 1 by repeated squaring (about 2*log2(p) products, so a
 * monomial to a huge power is cheap; a sum runs into the size limits). */
static int expr_pow(const kx_expr *base, int p, kx_expr **out)
{
    kx_expr *r = NULL, *b = kx_copy(base), *t;
    int st = b ? ST_OK : ST_NOMEM;

    *out = NULL;
    while (!st) {
        if (p & 1) {
            if (!r)
                st = (r = kx_copy(b)) ? ST_OK : ST_NOMEM;
            else if (!(st = expr_mul(r, b, &t))) {
                kx_free(r);
                r = t;
            }
        }
        p >>= 1;
        if (st || !p)
            break;
        if (!(st = expr_mul(b, b, &t))) {
            kx_free(b);
            b = t;
        }
    }
    kx_free(b);
    if (st) {
        kx_free(r);
        return st;
    }
    *out = r;
    return ST_OK;
}

kx_expr *kx_int(int64_t v)
{
    kx_expr *r;
    int st = make_const(v, &r);
    return finish(st, r);
}

/* A symbol.  A name that could not be parsed back (not a C identifier)
 * becomes the unknown atom ?"name" instead, so the printed form always
 * round-trips.  The operator words (div, max, ...) are fine as symbols: the
 * parser reads them as operators only before '(' or '.'. */
kx_expr *kx_sym(const char *name)
{
    kx_expr *r;
    if (!name)
        return NULL;
    int st = make_atom(valid_ident(name, 0) ? KX_SYMBOL : KX_UNKNOWN, name, 0,
                    NULL, &r);
    return finish(st, r);
}

kx_expr *kx_named(const char *text)
{
    kx_expr *r;
    if (!text)
        return NULL;
    if (!*text)
        return kx_sym(text);
    int st = make_atom(KX_SYMBOL, text, 0, NULL, &r);
    return finish(st, r);
}

kx_expr *kx_add(const kx_expr *a, const kx_expr *b)
{
    kx_expr *r;
    if (!a || !b)
        return NULL;
    int st = expr_addsub(a, b, 0, &r);
    return finish(st, r);
}

kx_expr *kx_sub(const kx_expr *a, const kx_expr *b)
{
    kx_expr *r;
    if (!a || !b)
        return NULL;
    int st = expr_addsub(a, b, 1, &r);
    return finish(st, r);
}

kx_expr *kx_mul(const kx_expr *a, const kx_expr *b)
{
    kx_expr *r;
    if (!a || !b)
        return NULL;
    int st = expr_mul(a, b, &r);
    return finish(st, r);
}

kx_expr *kx_neg(const kx_expr *a)
{
    kx_expr *r;
    if (!a)
        return NULL;
    int st = expr_neg(a, &r);
    return finish(st, r);
}

/* ---------------------------------------------------------------------
 * Opaque atoms
 * ------------------------------------------------------------------ */

/* An ill-formed kx_op call (wrong operand count, a name that is no
 * identifier, an unknown kind) keeps its information as unknown text. */
static int op_invalid(int kind, const char *name, int nargs, kx_expr *const *args,
                      kx_expr **out)
{
    ku_buf b = { 0 };
    print_atom(&b, kind, name, nargs < 0 ? 0 : nargs, args);
    char *text = ku_buf_take(&b);
    if (!text)
        return ST_NOMEM;
    int st = make_unknown(text, out);
    free(text);
    return st;
}

/* Build an opaque atom and fold it (see kx_op).  Operands are copied. */
static int op_build(int kind, const char *name, int nargs, kx_expr *const *args,
                    kx_expr **out)
{
    int64_t x = 0, y = 0;
    int cx = 0, cy = 0, st;
    kx_expr *d;

    *out = NULL;
    if (nargs > 0 && !args)
        return ST_NOMEM;
    for (int i = 0; i < nargs; i++)
        if (!args[i])
            return ST_NOMEM;
    switch (kind) {
    case KX_DIV:
    case KX_MOD:
    case KX_MIN:
    case KX_MAX:
        if (nargs != 2)
            return op_invalid(kind, NULL, nargs, args, out);
        cx = kx_is_const(args[0], &x);
        cy = kx_is_const(args[1], &y);
        break;
    case KX_CALL:
    case KX_LOAD:
        if (nargs < 0 || !valid_ident(name, 0))
            return op_invalid(kind, name, nargs, args, out);
        return make_atom(kind, name, nargs, args, out);
    case KX_UNKNOWN:
        return make_unknown(name ? name : "", out);   /* operands, if any, ignored */
    default:
        return op_invalid(kind, name, 0, NULL, out);
    }

    if (kind == KX_DIV) {
        if (cx && cy && y != 0 && !(x == INT64_MIN && y == -1))
            return make_const(x / y, out);
        if (cy && y == 1)
            return (*out = kx_copy(args[0])) ? ST_OK : ST_NOMEM;
        if (cy && y == -1 && (st = expr_neg(args[0], out)) != ST_OVERFLOW)
            return st;
    } else if (kind == KX_MOD) {
        if (cy && (y == 1 || y == -1))
            return make_const(0, out);
        if (cx && cy && y != 0)
            return make_const(x % y, out);
    } else {
        /* min/max: pick an operand when their difference is a constant
         * (this covers equal operands and two constants); else sort them. */
        st = expr_addsub(args[0], args[1], 1, &d);
        if (st == ST_NOMEM)
            return st;
        if (st == ST_OK) {
            int64_t v;
            int c = kx_is_const(d, &v);
            kx_free(d);
            if (c) {
                int first = kind == KX_MIN ? v <= 0 : v >= 0;
                return (*out = kx_copy(args[first ? 0 : 1])) ? ST_OK : ST_NOMEM;
            }
        }
        if (kx_compare(args[0], args[1]) > 0) {
            kx_expr *const swapped[2] = { args[1], args[0] };
            return make_atom(kind, NULL, 2, swapped, out);
        }
    }
    return make_atom(kind, NULL, 2, args, out);
}

kx_expr *kx_op(kx_opkind kind, const char *name, int nargs, kx_expr *const *args)
{
    kx_expr *r;
    int st = op_build((int)kind, name, nargs, args, &r);
    return finish(st, r);
}

/* ---------------------------------------------------------------------
 * Substitution
 * ------------------------------------------------------------------ */

static int expr_subst(const kx_expr *e, const char *name, const kx_expr *v, kx_expr **out);

/* A growable list of owned expressions, for expr_sum and expr_product. */
typedef struct {
    kx_expr **v;
    int n;              /* grown by ku_push */
} exprlist;

/* Append e (taken; NULL is allowed and taken as a failure by the
 * consumers).  Returns ST_NOMEM, freeing e, when the list cannot grow. */
static int list_push(exprlist *l, kx_expr *e)
{
    kx_expr **slot = ku_push(&l->v, &l->n, sizeof *slot);
    if (!slot) {
        kx_free(e);
        return ST_NOMEM;
    }
    *slot = e;
    return ST_OK;
}

static void list_free(exprlist *l)
{
    for (int i = 0; i < l->n; i++)
        kx_free(l->v[i]);
    free(l->v);
}

/* The atom of factor f after substitution, to the power 1: v for the symbol
 * `name`, an opaque atom rebuilt (and so re-folded) from substituted
 * operands, any other symbol as it is. */
static int atom_subst(const kx_factor *f, const char *name, const kx_expr *v,
                      kx_expr **out)
{
    kx_expr **args = NULL;
    int st = ST_OK;

    *out = NULL;
    if (f->kind == KX_SYMBOL) {
        if (strcmp(f->name, name) == 0)
            return (*out = kx_copy(v)) ? ST_OK : ST_NOMEM;
        return make_atom(KX_SYMBOL, f->name, 0, NULL, out);
    }
    if (f->nargs > 0 && !(args = xcalloc((size_t)f->nargs, sizeof *args)))
        return ST_NOMEM;
    for (int i = 0; i < f->nargs && !st; i++)
        st = expr_subst(f->args[i], name, v, &args[i]);
    if (!st)
        st = op_build(f->kind, f->name, f->nargs, args, out);
    for (int i = 0; i < f->nargs; i++)
        kx_free(args[i]);
    free(args);
    return st;
}

/* e with `name` replaced by v: every term rebuilt as coefficient times the
 * product of its substituted atoms to their powers, and the terms summed,
 * which puts the result back into canonical form. */
static int expr_subst(const kx_expr *e, const char *name, const kx_expr *v, kx_expr **out)
{
    exprlist terms = { 0 }, factors = { 0 };
    kx_expr *atom, *pw, *t;
    int st = ST_OK;

    *out = NULL;
    for (int i = 0; i < e->n && !st; i++) {
        if (!(st = make_const(e->t[i].coeff, &t)))
            st = list_push(&factors, t);
        for (int j = 0; j < e->t[i].nf && !st; j++) {
            const kx_factor *f = &e->t[i].f[j];
            if ((st = atom_subst(f, name, v, &atom)))
                break;
            st = expr_pow(atom, f->pow, &pw);
            kx_free(atom);
            if (!st)
                st = list_push(&factors, pw);
        }
        if (!st) {
            st = expr_product(factors.v, factors.n, &t);
            factors.n = 0;              /* expr_product took them all */
            if (!st)
                st = list_push(&terms, t);
        }
    }
    if (!st) {
        st = expr_sum(terms.v, terms.n, out);
        terms.n = 0;                    /* expr_sum took them all */
    }
    list_free(&terms);
    list_free(&factors);
    return st;
}

kx_expr *kx_subst(const kx_expr *e, const char *name, const kx_expr *value)
{
    kx_expr *r;
    if (!e || !name || !value)
        return NULL;
    int st = expr_subst(e, name, value, &r);
    return finish(st, r);
}

/* ---------------------------------------------------------------------
 * Queries
 * ------------------------------------------------------------------ */

int kx_is_const(const kx_expr *e, int64_t *value)
{
    int64_t v;
    if (!e || e->n > 1 || (e->n == 1 && e->t[0].nf != 0))
        return 0;
    v = e->n ? e->t[0].coeff : 0;
    if (value)
        *value = v;
    return 1;
}

int kx_is_zero(const kx_expr *e)
{
    return e && e->n == 0;
}

int kx_has_opaque(const kx_expr *e)
{
    for (int i = 0; e && i < e->n; i++)
        for (int j = 0; j < e->t[i].nf; j++)
            if (e->t[i].f[j].kind != KX_SYMBOL)
                return 1;
    return 0;
}

/* Total degree at most 1 in every term (so no products of symbols and no
 * squares) and no opaque atom. */
int kx_is_affine(const kx_expr *e)
{
    if (!e || kx_has_opaque(e))
        return 0;
    for (int i = 0; i < e->n; i++)
        if (term_degree(&e->t[i]) > 1)
            return 0;
    return 1;
}

/* The power of symbol `name` in term t, 0 when absent (top level only). */
static int term_power(const kx_term *t, const char *name)
{
    for (int j = 0; j < t->nf; j++)
        if (t->f[j].kind == KX_SYMBOL && strcmp(t->f[j].name, name) == 0)
            return t->f[j].pow;
    return 0;
}

int kx_degree(const kx_expr *e, const char *name)
{
    int d = 0;
    for (int i = 0; e && name && i < e->n; i++) {
        int p = term_power(&e->t[i], name);
        if (p > d)
            d = p;
    }
    return d;
}

int kx_mentions(const kx_expr *e, const char *name)
{
    for (int i = 0; e && name && i < e->n; i++)
        for (int j = 0; j < e->t[i].nf; j++) {
            const kx_factor *f = &e->t[i].f[j];
            if (f->kind == KX_SYMBOL && strcmp(f->name, name) == 0)
                return 1;
            for (int k = 0; k < f->nargs; k++)
                if (kx_mentions(f->args[k], name))
                    return 1;
        }
    return 0;
}

int kx_piecewise_in(const kx_expr *e, const char *name)
{
    for (int i = 0; e && name && i < e->n; i++)
        for (int j = 0; j < e->t[i].nf; j++) {
            const kx_factor *f = &e->t[i].f[j];
            int64_t c;
            if (f->kind == KX_SYMBOL)
                continue;
            /* div(x, c): a rounding of a polynomial; look inside x */
            if (f->kind == KX_DIV && f->nargs == 2 && kx_is_const(f->args[1], &c) && c != 0) {
                if (kx_piecewise_in(f->args[0], name))
                    return 1;
                continue;
            }
            for (int k = 0; k < f->nargs; k++)
                if (kx_mentions(f->args[k], name))
                    return 1;
        }
    return 0;
}

/* The terms of degree exactly 1 in `name`, each with that factor removed.
 * The remaining monomials stay distinct but may change order, so they are
 * sorted again. */
kx_expr *kx_coeff(const kx_expr *e, const char *name)
{
    return kx_coeff_pow(e, name, 1);
}

kx_expr *kx_coeff_pow(const kx_expr *e, const char *name, int k)
{
    kx_expr *r;
    if (!e || !name || k < 0 || !(r = expr_alloc((size_t)e->n)))
        return NULL;
    for (int i = 0; i < e->n; i++) {
        const kx_term *s = &e->t[i];
        if (term_power(s, name) != k)
            continue;
        kx_term *d = &r->t[r->n++];
        d->coeff = s->coeff;
        int nf = s->nf - (k > 0);
        if (nf > 0 && !(d->f = xcalloc((size_t)nf, sizeof *d->f))) {
            kx_free(r);
            return NULL;
        }
        for (int j = 0; j < s->nf; j++) {
            const kx_factor *f = &s->f[j];
            if (k > 0 && f->kind == KX_SYMBOL && strcmp(f->name, name) == 0)
                continue;
            if (factor_copy(&d->f[d->nf++], f)) {
                kx_free(r);
                return NULL;
            }
        }
    }
    if (r->n > 1)
        qsort(r->t, (size_t)r->n, sizeof *r->t, mono_cmp_q);
    set_size(r);
    return r;
}

typedef struct {
    const char **v;
    int n;              /* grown by ku_push */
    int oom;
} namelist;

/* Append the names of all symbols in e, operands included, to l. */
static void collect_symbols(const kx_expr *e, namelist *l)
{
    for (int i = 0; i < e->n && !l->oom; i++)
        for (int j = 0; j < e->t[i].nf && !l->oom; j++) {
            const kx_factor *f = &e->t[i].f[j];
            for (int k = 0; k < f->nargs; k++)
                collect_symbols(f->args[k], l);
            if (f->kind != KX_SYMBOL || l->oom)
                continue;
            const char **slot = ku_push(&l->v, &l->n, sizeof *slot);
            if (!slot) {
                l->oom = 1;
                return;
            }
            *slot = f->name;
        }
}

static int strcmp_q(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Returns the count, or -1 (and *names NULL) on allocation failure.  With
 * no symbols *names is NULL and the count 0. */
int kx_symbols(const kx_expr *e, char ***names)
{
    namelist l = { 0 };
    char **out = NULL;
    int n = 0;

    *names = NULL;
    if (!e)
        return 0;
    collect_symbols(e, &l);
    if (l.oom) {
        free(l.v);
        return -1;
    }
    if (l.n > 1)
        qsort(l.v, (size_t)l.n, sizeof *l.v, strcmp_q);
    if (l.n > 0 && !(out = xcalloc((size_t)l.n, sizeof *out))) {
        free(l.v);
        return -1;
    }
    for (int i = 0; i < l.n; i++) {
        if (n > 0 && strcmp(out[n - 1], l.v[i]) == 0)
            continue;
        if (!(out[n++] = xstrdup(l.v[i]))) {
            kx_free_names(out, n);
            free(l.v);
            return -1;
        }
    }
    free(l.v);
    *names = out;
    return n;
}

int kx_each_symbol(const kx_expr *e, kx_symbol_fn fn, void *ctx)
{
    for (int i = 0; e && i < e->n; i++)
        for (int j = 0; j < e->t[i].nf; j++) {
            const kx_factor *f = &e->t[i].f[j];
            int r;
            for (int k = 0; k < f->nargs; k++)
                if ((r = kx_each_symbol(f->args[k], fn, ctx)) != 0)
                    return r;
            if (f->kind == KX_SYMBOL && (r = fn(ctx, f->name)) != 0)
                return r;
        }
    return 0;
}

void kx_free_names(char **names, int n)
{
    for (int i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
}

/* ---------------------------------------------------------------------
 * Evaluation
 * ------------------------------------------------------------------ */

typedef struct {
    kx_lookup_fn lookup;
    void *ctx;
    char *err;
    size_t errlen;
} evaluator;

static void eval_error(evaluator *ev, const char *fmt, ...)
{
    va_list ap;
    if (!ev->err || ev->errlen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(ev->err, ev->errlen, fmt, ap);
    va_end(ap);
}

/* An error naming atom f (or term t when f is NULL) in its text form. */
static void eval_error_at(evaluator *ev, const char *what, const kx_factor *f,
                          const kx_term *t)
{
    ku_buf b = { 0 };
    if (f)
        print_atom(&b, f->kind, f->name, f->nargs, f->args);
    else
        print_term(&b, t, 1);
    eval_error(ev, "%s%s", what, b.s ? b.s : "(out of memory)");
    free(b.s);
}

/* b^p with every multiplication checked.  b is squared only while a higher
 * bit of p still needs it, and then the square's overflow is real. */
static int ipow(int64_t b, int p, int64_t *out)
{
    int64_t r = 1;
    while (p) {
        if ((p & 1) && __builtin_mul_overflow(r, b, &r))
            return -1;
        p >>= 1;
        if (p && __builtin_mul_overflow(b, b, &b))
            return -1;
    }
    *out = r;
    return 0;
}

static int eval_expr(evaluator *ev, const kx_expr *e, int64_t *out);

static int eval_atom(evaluator *ev, const kx_factor *f, int64_t *out)
{
    int64_t x, y;

    if (f->kind == KX_SYMBOL) {
        if (!ev->lookup || !ev->lookup(ev->ctx, f->name, out)) {
            eval_error(ev, "unbound symbol '%s'", f->name);
            return -1;
        }
        return 0;
    }
    if (f->kind > KX_MAX || f->nargs != 2) {
        eval_error_at(ev, "cannot evaluate ", f, NULL);
        return -1;
    }
    if (eval_expr(ev, f->args[0], &x) || eval_expr(ev, f->args[1], &y))
        return -1;
    switch (f->kind) {
    case KX_DIV:
    case KX_MOD:
        if (y == 0) {
            eval_error_at(ev, "division by zero in ", f, NULL);
            return -1;
        }
        if (y == -1) {      /* x / -1 overflows for INT64_MIN; x % -1 is 0 */
            if (f->kind == KX_MOD) {
                *out = 0;
                return 0;
            }
            if (x == INT64_MIN) {
                eval_error_at(ev, "int64 overflow in ", f, NULL);
                return -1;
            }
        }
        *out = f->kind == KX_DIV ? x / y : x % y;
        return 0;
    case KX_MIN:
        *out = x < y ? x : y;
        return 0;
    default:
        *out = x > y ? x : y;
        return 0;
    }
}

/* Sum of terms; each term is its coefficient times its atoms' values to
 * their powers, every step checked for overflow. */
static int eval_expr(evaluator *ev, const kx_expr *e, int64_t *out)
{
    int64_t sum = 0;
    for (int i = 0; i < e->n; i++) {
        const kx_term *t = &e->t[i];
        int64_t v = t->coeff, a, p;
        for (int j = 0; j < t->nf; j++) {
            if (eval_atom(ev, &t->f[j], &a))
                return -1;
            if (ipow(a, t->f[j].pow, &p) || __builtin_mul_overflow(v, p, &v)) {
                eval_error_at(ev, "int64 overflow in ", NULL, t);
                return -1;
            }
        }
        if (__builtin_add_overflow(sum, v, &sum)) {
            eval_error(ev, "int64 overflow in a sum");
            return -1;
        }
    }
    *out = sum;
    return 0;
}

int kx_eval(const kx_expr *e, kx_lookup_fn lookup, void *ctx, int64_t *out,
            char *err, size_t errlen)
{
    evaluator ev = { lookup, ctx, err, errlen };
    int64_t v;
    if (err && errlen)
        err[0] = '\0';
    if (!e) {
        eval_error(&ev, "no expression");
        return -1;
    }
    if (eval_expr(&ev, e, &v))
        return -1;
    if (out)
        *out = v;
    return 0;
}

/* ---------------------------------------------------------------------
 * Range evaluation (interval arithmetic)
 *
 * Each symbol has a closed range [lo, hi]; a sum, a product, a power and
 * every opaque operator keel can evaluate are taken over ranges with the
 * rules of interval arithmetic (Moore, "Interval Analysis", 1966): a sum
 * adds the ends, a product takes the least and greatest of the four end
 * products, min and max are monotone in both operands, and C's truncating
 * division is monotone in the real quotient, so over a divisor range that
 * excludes 0 its extremes are at the four corners.  The result contains
 * every value the expression takes when each symbol lies in its range --
 * a sound bound, not an exact one: a symbol occurring twice is taken as two
 * independent values (i - i gives [lo - hi, hi - lo]).
 * ------------------------------------------------------------------ */

typedef struct {
    kx_range_fn lookup;
    void *ctx;
    char *err;
    size_t errlen;
} ranger;

static int range_fail(ranger *r, const char *fmt, const char *what)
{
    if (r->err && r->errlen)
        snprintf(r->err, r->errlen, fmt, what ? what : "");
    return -1;
}

static int range_expr(ranger *r, const kx_expr *e, int64_t *lo, int64_t *hi);

/* [a0, a1] * [b0, b1] */
static int range_mul(int64_t a0, int64_t a1, int64_t b0, int64_t b1, int64_t *lo, int64_t *hi)
{
    int64_t p[4];
    if (__builtin_mul_overflow(a0, b0, &p[0]) || __builtin_mul_overflow(a0, b1, &p[1])
        || __builtin_mul_overflow(a1, b0, &p[2]) || __builtin_mul_overflow(a1, b1, &p[3]))
        return -1;
    *lo = *hi = p[0];
    for (int i = 1; i < 4; i++) {
        if (p[i] < *lo) *lo = p[i];
        if (p[i] > *hi) *hi = p[i];
    }
    return 0;
}

static int range_atom(ranger *r, const kx_factor *f, int64_t *lo, int64_t *hi)
{
    int64_t x0, x1, y0, y1;
    if (f->kind == KX_SYMBOL) {
        if (!r->lookup || !r->lookup(r->ctx, f->name, lo, hi))
            return range_fail(r, "unbound symbol '%s'", f->name);
        return 0;
    }
    if (f->kind > KX_MAX || f->nargs != 2) {
        ku_buf b = { 0 };
        print_atom(&b, f->kind, f->name, f->nargs, f->args);
        range_fail(r, "cannot bound %s", b.s ? b.s : "(out of memory)");
        free(b.s);
        return -1;
    }
    if (range_expr(r, f->args[0], &x0, &x1) || range_expr(r, f->args[1], &y0, &y1))
        return -1;
    switch (f->kind) {
    case KX_MIN:
        *lo = x0 < y0 ? x0 : y0;
        *hi = x1 < y1 ? x1 : y1;
        return 0;
    case KX_MAX:
        *lo = x0 > y0 ? x0 : y0;
        *hi = x1 > y1 ? x1 : y1;
        return 0;
    case KX_DIV: {
        if (y0 <= 0 && y1 >= 0)
            return range_fail(r, "%sa divisor whose range holds 0", NULL);
        int64_t q[4] = { 0, 0, 0, 0 }, xs[2] = { x0, x1 }, ys[2] = { y0, y1 };
        for (int i = 0; i < 4; i++) {
            int64_t a = xs[i / 2], b = ys[i % 2];
            if (a == INT64_MIN && b == -1)
                return range_fail(r, "int64 overflow in a division%s", NULL);
            q[i] = a / b;
        }
        *lo = *hi = q[0];
        for (int i = 1; i < 4; i++) {
            if (q[i] < *lo) *lo = q[i];
            if (q[i] > *hi) *hi = q[i];
        }
        return 0;
    }
    default: {   /* KX_MOD: |x % y| < |y| and takes x's sign (or is 0) */
        if (y0 <= 0 && y1 >= 0)
            return range_fail(r, "%sa divisor whose range holds 0", NULL);
        int64_t m = y1 > 0 ? y1 : (y0 == INT64_MIN ? INT64_MAX : -y0);
        m -= 1;                       /* largest |x % y| */
        *lo = x0 >= 0 ? 0 : (x0 > -m ? x0 : -m);
        *hi = x1 <= 0 ? 0 : (x1 < m ? x1 : m);
        return 0;
    }
    }
}

static int range_expr(ranger *r, const kx_expr *e, int64_t *lo, int64_t *hi)
{
    int64_t s0 = 0, s1 = 0;
    for (int i = 0; i < e->n; i++) {
        const kx_term *t = &e->t[i];
        int64_t t0 = t->coeff, t1 = t->coeff;
        for (int j = 0; j < t->nf; j++) {
            int64_t a0, a1;
            if (range_atom(r, &t->f[j], &a0, &a1))
                return -1;
            for (int p = 0; p < t->f[j].pow; p++)
                if (range_mul(t0, t1, a0, a1, &t0, &t1))
                    return range_fail(r, "int64 overflow in a product%s", NULL);
        }
        if (__builtin_add_overflow(s0, t0, &s0) || __builtin_add_overflow(s1, t1, &s1))
            return range_fail(r, "int64 overflow in a sum%s", NULL);
    }
    *lo = s0;
    *hi = s1;
    return 0;
}

int kx_eval_range(const kx_expr *e, kx_range_fn lookup, void *ctx, int64_t *lo, int64_t *hi,
                  char *err, size_t errlen)
{
    ranger r = { lookup, ctx, err, errlen };
    int64_t a, b;
    if (err && errlen)
        err[0] = '\0';
    if (!e)
        return range_fail(&r, "no expression%s", NULL);
    if (range_expr(&r, e, &a, &b))
        return -1;
    if (lo)
        *lo = a;
    if (hi)
        *hi = b;
    return 0;
}

/* ---------------------------------------------------------------------
 * Parsing
 *
 * Recursive descent over the grammar in expr.h, building canonical results
 * with the algebra above as it goes.  Extensions for human input: blanks
 * anywhere between tokens, and '^' after a parenthesised expression, not
 * only after an atom (`(i+1)^2`).  Recursion happens only through parse_expr, which counts
 * depth.  The first error wins; its message ends in "at offset N", the
 * byte offset in the text.
 * ------------------------------------------------------------------ */

typedef struct {
    const char *s;
    size_t pos;
    int depth;
    int failed;
    char *err;
    size_t errlen;
} parser;

static void parse_error(parser *p, size_t at, const char *fmt, ...)
{
    va_list ap;
    int n;
    if (p->failed)
        return;
    p->failed = 1;
    if (!p->err || p->errlen == 0)
        return;
    va_start(ap, fmt);
    n = vsnprintf(p->err, p->errlen, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < p->errlen)
        snprintf(p->err + n, p->errlen - (size_t)n, " at offset %zu", at);
}

/* Report a failed algebra step at offset `at`. */
static void parse_status(parser *p, int st, size_t at)
{
    if (st == ST_OVERFLOW)
        parse_error(p, at, "integer overflow");
    else if (st == ST_TOOBIG)
        parse_error(p, at, "expression too large");
    else if (st)
        parse_error(p, at, "out of memory");
}

static int peek(parser *p)
{
    while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n'
           || p->s[p->pos] == '\r' || p->s[p->pos] == '\f' || p->s[p->pos] == '\v')
        p->pos++;
    return (unsigned char)p->s[p->pos];
}

static int accept(parser *p, int c)
{
    if (peek(p) != c)
        return 0;
    p->pos++;
    return 1;
}

static int expect(parser *p, int c)
{
    if (accept(p, c))
        return 1;
    parse_error(p, p->pos, "expected '%c'", c);
    return 0;
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_ident_start(int c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A decimal literal at the current position, at most `max` (as uint64). */
static int parse_uint(parser *p, uint64_t max, const char *what, uint64_t *out)
{
    size_t at = p->pos;
    uint64_t v = 0;
    if (!is_digit(peek(p))) {
        parse_error(p, p->pos, "expected %s", what);
        return 0;
    }
    at = p->pos;
    while (is_digit(p->s[p->pos])) {
        uint64_t d = (uint64_t)(p->s[p->pos++] - '0');
        if (v > (max - d) / 10) {
            parse_error(p, at, "%s out of range", what);
            return 0;
        }
        v = v * 10 + d;
    }
    *out = v;
    return 1;
}

/* A C identifier at the current position, copied. */
static char *parse_ident(parser *p)
{
    size_t start = p->pos, n;
    char *s;
    while (is_ident_start(p->s[p->pos]) || is_digit(p->s[p->pos]))
        p->pos++;
    n = p->pos - start;
    if (!(s = xmalloc(n + 1))) {
        parse_error(p, start, "out of memory");
        return NULL;
    }
    memcpy(s, p->s + start, n);
    s[n] = '\0';
    return s;
}

static int hex_value(int c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A C string literal (the opening quote at the current position); returns
 * the decoded text.  Escapes: \\ \" \' \? \a \b \f \n \r \t \v, octal of
 * one to three digits, \x with one or two hex digits.  A NUL byte is
 * refused (the text is a C string). */
static char *parse_string(parser *p)
{
    size_t start = p->pos;
    ku_buf b = { 0 };
    char *s;

    p->pos++;                           /* the opening quote */
    ku_buf_put(&b, "");
    for (;;) {
        unsigned char c = (unsigned char)p->s[p->pos];
        size_t at = p->pos;
        int v = -1;
        if (c == '\0') {
            parse_error(p, start, "unterminated string");
            break;
        }
        p->pos++;
        if (c == '"')
            break;
        if (c != '\\') {
            ku_buf_putc(&b, (char)c);
            continue;
        }
        c = (unsigned char)p->s[p->pos++];
        switch (c) {
        case '\\': case '"': case '\'': case '?': v = c; break;
        case 'a': v = '\a'; break;
        case 'b': v = '\b'; break;
        case 'f': v = '\f'; break;
        case 'n': v = '\n'; break;
        case 'r': v = '\r'; break;
        case 't': v = '\t'; break;
        case 'v': v = '\v'; break;
        case 'x':
            if (hex_value(p->s[p->pos]) < 0)
                break;
            v = hex_value(p->s[p->pos++]);
            if (hex_value(p->s[p->pos]) >= 0)
                v = v * 16 + hex_value(p->s[p->pos++]);
            break;
        default:
            if (c >= '0' && c <= '7') {
                v = c - '0';
                for (int k = 0; k < 2 && p->s[p->pos] >= '0' && p->s[p->pos] <= '7'; k++)
                    v = v * 8 + (p->s[p->pos++] - '0');
                if (v > 255)
                    v = -1;
            } else if (c == '\0') {
                p->pos--;               /* stay on the terminator */
            }
        }
        if (v <= 0) {
            parse_error(p, at, v == 0 ? "NUL byte in string" : "bad escape in string");
            break;
        }
        ku_buf_putc(&b, (char)v);
    }
    if (p->failed || b.oom) {
        if (!p->failed)
            parse_error(p, start, "out of memory");
        free(b.s);
        return NULL;
    }
    s = b.s;
    return s;
}

/* `$"..."` (a named value) and `?"..."` (unknown text): past the marker
 * at p->pos, the string literal's decoded text (malloc'd), NULL after a
 * parse error. */
static char *parse_marked_string(parser *p)
{
    p->pos++;
    if (p->s[p->pos] != '"') {
        parse_error(p, p->pos, "expected '\"'");
        return NULL;
    }
    return parse_string(p);
}

static kx_expr *parse_expr(parser *p);

/* '(' [expr (',' expr)*] ')' after an opaque atom's head.  fixed > 0
 * demands exactly that many operands (div, mod, min, max: 2), so that
 * "div(1)" fails at the ')' with "expected ','"; fixed == 0 takes any
 * number, none included (call, load).  Returns the operand count or -1. */
static int parse_args(parser *p, int fixed, kx_expr ***out)
{
    kx_expr **v = NULL;
    int n = 0;

    *out = NULL;
    if (!expect(p, '('))
        return -1;
    if (fixed == 0 && accept(p, ')'))
        return 0;
    for (;;) {
        kx_expr **slot = ku_push(&v, &n, sizeof *slot);
        if (!slot) {
            parse_error(p, p->pos, "out of memory");
            break;
        }
        if (!(*slot = parse_expr(p))) {
            n--;
            break;
        }
        if (fixed > 0 && n < fixed) {
            if (!expect(p, ','))
                break;
        } else if (fixed > 0 || !accept(p, ',')) {
            expect(p, ')');
            break;
        }
    }
    if (p->failed) {
        for (int i = 0; i < n; i++)
            kx_free(v[i]);
        free(v);
        return -1;
    }
    *out = v;
    return n;
}

/* An atom starting with an identifier: a symbol, div/mod/min/max(a, b), or
 * call.F(...) / load.A(...). */
static kx_expr *parse_ident_atom(parser *p)
{
    static const int kinds[] = { KX_DIV, KX_MOD, KX_MIN, KX_MAX, KX_CALL, KX_LOAD };
    size_t start = p->pos;
    char *word = parse_ident(p), *name = NULL;
    kx_expr **args = NULL, *r = NULL;
    int kind = KX_SYMBOL, nargs, st;

    if (!word)
        return NULL;
    /* An operator name only when its '(' (div/mod/min/max) or '.' (call,
     * load) follows; otherwise the word is an ordinary symbol, as a C
     * variable named max is.  Nothing printed puts a '(' or '.' after a
     * symbol, so the two never meet. */
    size_t next = p->pos;
    while (p->s[next] == ' ' || p->s[next] == '\t')
        next++;
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        if (strcmp(word, reserved[i]) == 0
            && p->s[next] == (kinds[i] == KX_CALL || kinds[i] == KX_LOAD ? '.' : '('))
            kind = kinds[i];
    if (kind == KX_SYMBOL) {
        if ((st = make_atom(KX_SYMBOL, word, 0, NULL, &r)))
            parse_status(p, st, start);
        free(word);
        return r;
    }
    free(word);
    if (kind == KX_CALL || kind == KX_LOAD) {
        if (p->s[p->pos] != '.') {
            parse_error(p, p->pos, "expected '.'");
            return NULL;
        }
        p->pos++;
        if (!is_ident_start(p->s[p->pos])) {
            parse_error(p, p->pos, "expected a name");
            return NULL;
        }
        if (!(name = parse_ident(p)))
            return NULL;
    }
    nargs = parse_args(p, kind <= KX_MAX ? 2 : 0, &args);
    if (!p->failed && (st = op_build(kind, name, nargs, args, &r)))
        parse_status(p, st, start);
    for (int i = 0; i < nargs; i++)
        kx_free(args[i]);
    free(args);
    free(name);
    return r;
}

/* factor := INT | atom | '(' expr ')', the last two with an optional
 * '^' exponent (not a literal: -2^2 would be ambiguous).
 * With neg, a leading literal is read negated, so that -9223372036854775808
 * (INT64_MIN, which print can produce) parses. */
static kx_expr *parse_factor(parser *p, int neg)
{
    int c = peek(p), st = ST_OK;
    size_t start = p->pos;
    kx_expr *r = NULL, *t;
    uint64_t u;

    if (is_digit(c)) {
        if (!parse_uint(p, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX,
                        "integer literal", &u))
            return NULL;
        st = make_const(neg ? (int64_t)((uint64_t)0 - u) : (int64_t)u, &r);
    } else if (c == '(') {
        p->pos++;
        if ((r = parse_expr(p)) && !expect(p, ')')) {
            kx_free(r);
            return NULL;
        }
    } else if (c == '$') {
        char *text = parse_marked_string(p);
        if (!text)
            return NULL;
        if (!*text)
            parse_error(p, start, "empty name");
        else
            st = make_atom(KX_SYMBOL, text, 0, NULL, &r);
        free(text);
        if (p->failed)
            return NULL;
    } else if (c == '?') {
        char *text = parse_marked_string(p);
        if (!text)
            return NULL;
        st = make_unknown(text, &r);
        free(text);
    } else if (is_ident_start(c)) {
        r = parse_ident_atom(p);
    } else if (c == '\0') {
        parse_error(p, p->pos, "unexpected end of input");
    } else {
        parse_error(p, p->pos, "expected a number, a symbol or '('");
    }
    if (st)
        parse_status(p, st, start);
    if (r && !is_digit(c) && accept(p, '^')) {
        size_t at = p->pos;
        if (!parse_uint(p, INT_MAX, "exponent", &u)) {
            kx_free(r);
            return NULL;
        }
        if (u == 0) {
            parse_error(p, at, "exponent must be at least 1");
            kx_free(r);
            return NULL;
        }
        st = expr_pow(r, (int)u, &t);
        kx_free(r);
        r = t;
        if (st)
            parse_status(p, st, start);
    }
    return r;
}

/* term := factor ('*' factor)*, negated when neg (the '-' before it).
 * The factors are multiplied as a balanced tree; an overflow or a result
 * too large is reported at the start of the term. */
static kx_expr *parse_term(parser *p, int neg)
{
    int lit = is_digit(peek(p)), st;
    size_t start = p->pos;
    exprlist l = { 0 };
    kx_expr *r, *t;

    do {
        if (!(r = parse_factor(p, l.n == 0 && neg)))
            goto fail;
        if ((st = list_push(&l, r))) {
            parse_status(p, st, start);
            goto fail;
        }
    } while (accept(p, '*'));
    st = expr_product(l.v, l.n, &r);
    l.n = 0;                            /* expr_product took them all */
    list_free(&l);
    if (st) {
        parse_status(p, st, start);
        return NULL;
    }
    if (neg && !lit) {
        st = expr_neg(r, &t);
        kx_free(r);
        if (!(r = t))
            parse_status(p, st, start);
    }
    return r;
fail:
    list_free(&l);
    return NULL;
}

/* expr := ['-'] term (('+' | '-') term)*, one level of nesting.  The terms
 * are summed in one sort-and-merge; an overflow or a result too large is
 * reported at the start of the expression. */
static kx_expr *parse_expr(parser *p)
{
    exprlist l = { 0 };
    kx_expr *r = NULL, *t;
    size_t start;
    int c, neg, st;

    if (p->depth >= KX_MAX_DEPTH) {
        parse_error(p, p->pos, "nesting deeper than %d levels", KX_MAX_DEPTH);
        return NULL;
    }
    p->depth++;
    peek(p);
    start = p->pos;
    neg = accept(p, '-');
    for (;;) {
        if (!(t = parse_term(p, neg)))
            goto done;
        if ((st = list_push(&l, t))) {
            parse_status(p, st, start);
            goto done;
        }
        if ((c = peek(p)) != '+' && c != '-')
            break;
        p->pos++;
        neg = c == '-';
    }
    st = expr_sum(l.v, l.n, &r);
    l.n = 0;                            /* expr_sum took them all */
    if (st)
        parse_status(p, st, start);
done:
    list_free(&l);
    p->depth--;
    return r;
}

kx_expr *kx_parse(const char *text, char *err, size_t errlen)
{
    parser p = { text, 0, 0, 0, err, errlen };
    kx_expr *r;
    int c;

    if (err && errlen)
        err[0] = '\0';
    if (!text) {
        parse_error(&p, 0, "no text");
        return NULL;
    }
    r = parse_expr(&p);
    if (r && (c = peek(&p)) != '\0') {
        if (c >= 0x20 && c < 0x7f)
            parse_error(&p, p.pos, "unexpected '%c'", c);
        else
            parse_error(&p, p.pos, "unexpected byte 0x%02x", (unsigned)c);
        kx_free(r);
        r = NULL;
    }
    return r;
}

/* ---------------------------------------------------------------------
 * Telescoping sums
 * ------------------------------------------------------------------ */

/* One term c * load.A(x) with c = +-1: its coefficient, array and operand. */
static int single_load(const kx_term *t, int64_t *coeff, const char **array, const kx_expr **x)
{
    if (t->nf != 1 || t->f[0].pow != 1 || t->f[0].kind != KX_LOAD || t->f[0].nargs != 1
        || (t->coeff != 1 && t->coeff != -1))
        return 0;
    *coeff = t->coeff;
    *array = t->f[0].name;
    *x = t->f[0].args[0];
    return 1;
}

int kx_telescope(const kx_expr *e, const char *v, const kx_expr *lo, const kx_expr *hi,
                 kx_expr **out)
{
    *out = NULL;
    if (!e || !v || !lo || !hi || e->n != 2)
        return 0;
    int64_t c0, c1, one = 0;
    const char *a0, *a1;
    const kx_expr *x0, *x1;
    if (!single_load(&e->t[0], &c0, &a0, &x0) || !single_load(&e->t[1], &c1, &a1, &x1)
        || c0 + c1 != 0 || strcmp(a0, a1) != 0)
        return 0;
    const kx_expr *up = c0 > 0 ? x0 : x1, *down = c0 > 0 ? x1 : x0;
    kx_expr *d = kx_sub(up, down), *cf = kx_coeff(down, v);
    int ok = d && cf && kx_is_const(d, &one) && one == 1 && kx_degree(down, v) == 1
             && kx_is_const(cf, &one) && one == 1 && !kx_mentions(lo, v) && !kx_mentions(hi, v);
    kx_free(d);
    kx_free(cf);
    if (!ok)
        return 0;
    /* sum over v in [lo, hi) of A(down(v) + 1) - A(down(v)) = A(down(hi)) - A(down(lo)) */
    kx_expr *xh = kx_subst(down, v, hi), *xl = kx_subst(down, v, lo);
    kx_expr *lh = xh ? kx_op(KX_LOAD, a0, 1, &xh) : NULL;
    kx_expr *ll = xl ? kx_op(KX_LOAD, a0, 1, &xl) : NULL;
    *out = lh && ll ? kx_sub(lh, ll) : NULL;
    kx_free(xh);
    kx_free(xl);
    kx_free(lh);
    kx_free(ll);
    return *out ? 1 : -1;
}
