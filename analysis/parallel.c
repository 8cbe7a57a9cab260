/*
 * parallel.c -- dependence verdicts per loop, thread loops, and per-access
 * inter-thread strides over the loop IR (see parallel.h).
 *
 * Each IR loop becomes an ip_loop; each access an ip_ref whose loop chain is
 * its statement's loop and that loop's ancestors.  A loop's verdict comes
 * first from its shape (control_verdict: waits, writes to its control, not
 * canonical; exit_or_call_verdict: early exits, calls), then from ip_depend
 * on every pair of references to one array (at least one a write) inside
 * it, a pair the tests leave open asked of isl (exact_independent, within
 * a budget per translation unit), plus the scalars written inside it.
 */
#include "parallel.h"

#include "callee.h"
#include "launch.h"
#include "omp_pragmas.h"
#include "sync.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/set.h>

#include "util.h"

/* Loop chains are held in arrays of PAR_MAX_DEPTH; par_analyze refuses a
 * deeper nest with a message rather than analyse part of a chain. */
#define PAR_MAX_DEPTH 64

typedef struct {
    int loop, stmt, acc;
    const ir_access *a;
    ip_ref ref;
    const ip_loop *chain[PAR_MAX_DEPTH];
} ref_t;

typedef struct {
    const ir_tu *tu;
    ip_loop *il;
    ref_t *refs;
    int nrefs;
    int *ref_first;      /* [l]: first ref of loop l ([nloops]: nrefs); the
                          * refs of L's nest are [L's, ir_nest_end(L)'s) */
    isl_ctx *isl;        /* exact test (NULL: not available) */
    int *exact_left;     /* exact tests this translation unit may still run */
} ctx_t;

/* The exact (isl) test's cost grows steeply with the number of loop
 * dimensions (a pair in two 12-deep chains: ~10 ms a query, and a d-deep
 * nest asks O(d^2) pairs at each of its d loops).  Pairs whose chains are
 * deeper than EXACT_MAX_DEPTH, and any pair after EXACT_MAX_QUERIES queries
 * in one translation unit, keep the conservative answer of the cheaper
 * tests, and the loop's reason says so.  PolyBench's deepest chain is 5;
 * both limits keep analysis time near linear in nest depth (issue 16,
 * fault 16) while leaving real kernels untouched. */
#define EXACT_MAX_DEPTH 8
#define EXACT_MAX_QUERIES 4000
/* A loop with more access pairs to test than this (a 50-deep nest has
 * 5,000 at its outer loop; PolyBench's busiest loop under 200) stays
 * UNKNOWN, with that reason: the pairwise tests are what grow as depth^3. */
#define MAX_PAIRS_PER_LOOP 2048

const char *par_verdict_name(par_verdict v)
{
    static const char *const n[] = { "parallel", "reduction", "sequential", "unknown" };
    return (unsigned)v < 4 ? n[v] : "unknown";
}

char *par_class_text(ip_class c, const kx_expr *stride)
{
    char *s = NULL, *t;
    if ((c == IP_STRIDED || c == IP_SYMBOLIC) && stride && (s = kx_print(stride))) {
        size_t n = strlen(s) + 16;
        t = malloc(n);
        if (t)
            snprintf(t, n, "%s(%s)", ip_class_name(c), s);
        free(s);
        return t;
    }
    const char *name = ip_class_name(c);
    t = malloc(strlen(name) + 1);
    if (t)
        strcpy(t, name);
    return t;
}

/* Split statement text at its top-level assignment: the left side ends at
 * the first `op=`, `=` or postfix `++`/`--` outside brackets; a prefix
 * `++X`/`--X` has X as left side.  *op: '+' (+=, -=, ++, --), '*' (*=),
 * '|', '&', '^' (|=, &=, ^=), '=' (plain), 0 none.  Returns the length of the left side, *rhs its
 * right side (NULL for ++/--). */
static size_t split_assign(const char *t, char *op, const char **rhs)
{
    *op = 0;
    *rhs = NULL;
    if ((t[0] == '+' && t[1] == '+') || (t[0] == '-' && t[1] == '-')) {
        *op = '+';
        return 0;
    }
    int depth = 0;
    for (const char *p = t; *p; p++) {
        if (*p == '[' || *p == '(')
            depth++;
        else if (*p == ']' || *p == ')')
            depth--;
        if (depth != 0)
            continue;
        if ((p[0] == '+' && p[1] == '+') || (p[0] == '-' && p[1] == '-' )) {
            if (p[2] != '\0')
                return 0;
            *op = '+';
            return (size_t)(p - t);
        }
        if ((p[0] == '+' || p[0] == '-' || p[0] == '*') && p[1] == '=') {
            *op = p[0] == '*' ? '*' : '+';
            *rhs = p + 2;
            return (size_t)(p - t);
        }
        if ((p[0] == '|' || p[0] == '&' || p[0] == '^') && p[1] == '='
            && !(p > t && (p[-1] == '|' || p[-1] == '&'))) {
            *op = p[0];
            *rhs = p + 2;
            return (size_t)(p - t);
        }
        if (p[0] == '=' && p[1] != '=' && p > t && p[-1] != '=' && p[-1] != '!'
            && p[-1] != '<' && p[-1] != '>') {
            *op = '=';
            *rhs = p + 1;
            return (size_t)(p - t);
        }
        if (p[0] == '-' && p[1] == '>')
            p++;
    }
    return 0;
}

/* Does text t hold word w (not as part of a longer name)? */
static int has_word(const char *t, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(t, w); p; p = strstr(p + 1, w)) {
        char a = p > t ? p[-1] : ' ', b = p[n];
        int ida = a == '_' || (a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z') || (a >= '0' && a <= '9') || a == '.';
        int idb = b == '_' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9');
        if (!ida && !idb)
            return 1;
    }
    return 0;
}

/* Does e hold, outside brackets, an operator that binds less tightly than
 * the fold operator op ('a' &&, 'o' ||, '|', '&', '^'): then `X op e` is
 * not the whole right side's top operator. */
static int looser_op(const char *e, int op)
{
    int depth = 0;
    for (const char *p = e; *p; p++) {
        if (*p == '(' || *p == '[')
            depth++;
        else if (*p == ')' || *p == ']')
            depth--;
        if (depth)
            continue;
        if (*p == '?' || *p == ',')
            return 1;
        if (*p == '=' && p[1] != '=' && p > e && p[-1] != '=' && p[-1] != '!' && p[-1] != '<'
            && p[-1] != '>')
            return 1;
        int dbl = (p[0] == '|' && p[1] == '|') || (p[0] == '&' && p[1] == '&');
        if (p[0] == '|' && p[1] == '|' && op != 'o')
            return 1;
        if (p[0] == '&' && p[1] == '&' && op != 'a' && op != 'o')
            return 1;
        if (!dbl && p[0] == '|' && (op == '&' || op == '^'))
            return 1;
        if (!dbl && p[0] == '^' && op == '&')
            return 1;
        if (dbl)
            p++;
    }
    return 0;
}

/* Right side t of `X = t`: `X && e`, `X || e`, `X | e`, `X & e`, `X ^ e`
 * or the same with X last, e without X and without a looser operator: an
 * associative, commutative fold.  Returns 'a' (&&), 'o' (||), '|', '&',
 * '^', 0 none. */
static int logic_fold(const char *t, const char *x)
{
    static const struct { const char *text; int op; } ops[] = {
        { " && ", 'a' }, { " || ", 'o' }, { " | ", '|' }, { " & ", '&' }, { " ^ ", '^' } };
    size_t n = strlen(x), tl = strlen(t);
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        size_t ol = strlen(ops[k].text);
        const char *e = NULL;
        char rest[512];
        if (strncmp(t, x, n) == 0 && strncmp(t + n, ops[k].text, ol) == 0) {
            e = t + n + ol;
            snprintf(rest, sizeof rest, "%s", e);
        } else if (tl > n + ol && strcmp(t + tl - n, x) == 0
                   && strncmp(t + tl - n - ol, ops[k].text, ol) == 0
                   && tl - n - ol < sizeof rest) {
            snprintf(rest, sizeof rest, "%.*s", (int)(tl - n - ol), t);
            e = rest;
        }
        if (e && *rest && !has_word(rest, x) && !looser_op(rest, ops[k].op))
            return ops[k].op;
    }
    return 0;
}

/* The arguments of a call whose text ends the statement, a just past its
 * `(`: the first top-level comma in *comma (NULL: none) and the number of
 * them in *ncommas; returns the `)` that closes the call, NULL when the
 * call does not close at the last byte of the text. */
static const char *call_args(const char *a, const char **comma, int *ncommas)
{
    int depth = 0;
    const char *p;
    *comma = NULL;
    *ncommas = 0;
    for (p = a; *p; p++) {
        if (*p == '(' || *p == '[')
            depth++;
        else if (*p == ')' || *p == ']') {
            if (depth == 0)
                break;
            depth--;
        } else if (*p == ',' && depth == 0 && !(*ncommas)++)
            *comma = p;
    }
    return *p == ')' && p[1] == '\0' ? p : NULL;
}

/* Statement t is a whole call of an atomic read-modify-write whose result
 * is unused: `atomic_fetch_add(&X, e)` (C11, _explicit too), the GNU
 * `__atomic_add_fetch(&X, e, order)` family, with add/sub, or, and, xor.
 * Like `X op= e` it commutes with its like: returns the operator class
 * ('+', '|', '&', '^'; 0 none) with *lhs, *lhs_len the text of X. */
static int atomic_update(const char *t, const char **lhs, size_t *lhs_len)
{
    size_t n = strcspn(t, "(");
    if (!t[n] || n == 0 || n > 40)
        return 0;
    char name[48];
    memcpy(name, t, n);
    name[n] = '\0';
    for (size_t k = 0; k < n; k++)
        if (!(name[k] == '_' || (name[k] >= 'a' && name[k] <= 'z')))
            return 0;
    if (!strstr(name, "atomic_") || strstr(name, "compare") || strstr(name, "exchange"))
        return 0;
    static const struct { const char *w; int op; } ops[] = {
        { "fetch_add", '+' }, { "add_fetch", '+' }, { "fetch_sub", '+' }, { "sub_fetch", '+' },
        { "fetch_or", '|' }, { "or_fetch", '|' }, { "fetch_and", '&' }, { "and_fetch", '&' },
        { "fetch_xor", '^' }, { "xor_fetch", '^' } };
    int op = 0;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0] && !op; k++)
        if (strstr(name, ops[k].w))
            op = ops[k].op;
    /* `name(&X, ...)`: the call closes at the end of the statement */
    const char *a = t + n + 1;
    while (*a == ' ')
        a++;
    if (!op || *a != '&')
        return 0;
    a++;
    const char *end;
    int ncommas;
    if (!call_args(a, &end, &ncommas) || !end)
        return 0;
    *lhs = a;
    *lhs_len = (size_t)(end - a);
    return op;
}

/* Statement `X op= e` with op in + - *, `X++`, `++X`, `X--`, or `X = X + e`,
 * `X = X - e`, `X = e + X` (X once on the right, e without ?:, comparisons,
 * logic): a reduction update of its first written access (name NULL) or
 * of scalar `name`.  Also `X op= e` with op in | & ^ and the logic folds
 * of logic_fold.  Returns the operator class: '+' (additive), '*', '|',
 * '&', '^', 'a' (&&), 'o' (||); 0 when it is none. */
static int ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static int compound_update(const ir_stmt *s, const char *name)
{
    const char *t = s->text ? s->text : "", *rhs;
    char op;
    size_t lhs_len = split_assign(t, &op, &rhs);
    const char *lhs = t;
    if (op == '+' && !rhs && lhs_len == 0 && (t[0] == '+' || t[0] == '-')) {
        lhs = t + 2;            /* ++X */
        lhs_len = strlen(lhs);
    }
    if (op == 0)
        op = (char)atomic_update(t, &lhs, &lhs_len);
    while (lhs_len > 0 && lhs[lhs_len - 1] == ' ')
        lhs_len--;
    if (op == 0 || lhs_len == 0)
        return 0;
    if (name) {
        if (strlen(name) != lhs_len || strncmp(lhs, name, lhs_len) != 0)
            return 0;
    } else {
        /* the left side is an access: the statement writes an array and
         * no scalar of that text */
        int w = 0;
        for (int a = 0; a < s->nacc; a++)
            w |= s->acc[a].is_write;
        if (!w)
            return 0;
        for (int v = 0; v < s->nscalars; v++)
            if (s->scalars[v].is_write)
                return 0;
    }
    if (op != '=')
        return op;
    t = rhs;
    while (*t == ' ')
        t++;
    char xl[256];
    if (lhs_len < sizeof xl) {
        memcpy(xl, lhs, lhs_len);
        xl[lhs_len] = '\0';
        int lop = logic_fold(t, xl);
        /* && and || skip their right side once the fold is decided: a
         * side effect there (a store, a call) runs differently in parts */
        int effects = s->ncalls > 0;
        for (int a = 0; a < s->nacc; a++)
            effects |= s->acc[a].is_write;
        for (int v = 0; v < s->nscalars; v++)
            effects |= s->scalars[v].is_write && strcmp(s->scalars[v].name, xl) != 0;
        if (lop && !((lop == 'a' || lop == 'o') && effects))
            return lop;
    }
    /* The right side must hold X once and no operator that binds less
     * than + (?:, comparisons, logic, assignment, comma). */
    if (strpbrk(t, "?<>=&|,"))
        return 0;
    char x[256];
    if (lhs_len >= sizeof x)
        return 0;
    memcpy(x, lhs, lhs_len);
    x[lhs_len] = '\0';
    /* occurrences of X as a whole name: `d` is not in `colidx` */
    int count = 0;
    for (const char *q = strstr(t, x); q; q = strstr(q + 1, x))
        if (!(ident_char(x[0]) && q > t && ident_char(q[-1]))
            && !(ident_char(x[lhs_len - 1]) && ident_char(q[lhs_len])))
            count++;
    if (count != 1)
        return 0;
    /* X = X + e, X = X - e */
    if (strncmp(t, lhs, lhs_len) == 0 && t[lhs_len] == ' '
        && (t[lhs_len + 1] == '+' || t[lhs_len + 1] == '-') && t[lhs_len + 2] == ' ')
        return '+';
    /* X = e + X */
    size_t n = strlen(t);
    if (n > lhs_len + 3 && strncmp(t + n - lhs_len, lhs, lhs_len) == 0) {
        const char *q = t + n - lhs_len - 3;
        if (q[0] == ' ' && q[1] == '+' && q[2] == ' ')
            return '+';
    }
    return 0;
}

static int same_index(const ir_access *a, const ir_access *b)
{
    if (a->ndims != b->ndims)
        return 0;
    for (int k = 0; k < a->ndims; k++)
        if (!kx_equal(a->index[k], b->index[k]))
            return 0;
    return 1;
}

/* Is the reference part of a reduction update `X[s] op= ...` of its own
 * element?  Returns the operator class ('+', '*'), 0 when not. */
static int reduction_ref(const ctx_t *c, const ref_t *r)
{
    const ir_stmt *s = &c->tu->loops[r->loop].stmts[r->stmt];
    int op = compound_update(s, NULL);
    if (!op)
        return 0;
    const ir_access *w = NULL;
    for (int a = 0; a < s->nacc && !w; a++)
        if (s->acc[a].is_write)
            w = &s->acc[a];
    /* the written element and nothing else of the statement */
    return w && same_index(w, r->a) && strcmp(w->array, r->a->array) == 0 ? op : 0;
}

/* May two array names denote overlapping storage?  Equal names, "?" (a
 * store or load the walker could not resolve), or a struct and one of its
 * members ("p" and "p.x"). */
static int same_array(const char *a, const char *b)
{
    if (strcmp(a, b) == 0 || strcmp(a, "?") == 0 || strcmp(b, "?") == 0)
        return 1;
    size_t na = strlen(a), nb = strlen(b);
    if (na < nb && strncmp(a, b, na) == 0 && b[na] == '.')
        return 1;
    if (nb < na && strncmp(a, b, nb) == 0 && a[nb] == '.')
        return 1;
    return 0;
}

typedef struct { int line, col, loop; const ir_stmt *s; } stmt_ref;

static int cmp_stmt(const void *x, const void *y)
{
    const stmt_ref *a = x, *b = y;
    return a->line != b->line ? (a->line > b->line) - (a->line < b->line)
                              : (a->col > b->col) - (a->col < b->col);
}

static int is_iv_in(const ir_tu *tu, int L, const char *name)
{
    for (int l = L, end = ir_nest_end(tu, L); l < end; l++)
        if (ir_loop_within(tu, l, L) && tu->loops[l].iv && strcmp(tu->loops[l].iv, name) == 0)
            return 1;
    return 0;
}

/* Is scalar `name` written by a statement inside loop L (its own loop
 * variables and those of inner loops aside)? */
static int written_in(const ir_tu *tu, int L, const char *name)
{
    if (is_iv_in(tu, L, name))
        return 0;
    for (int l = L, end = ir_nest_end(tu, L); l < end; l++) {
        if (!ir_loop_within(tu, l, L))
            continue;
        for (int s = 0; s < tu->loops[l].nstmts; s++)
            for (int v = 0; v < tu->loops[l].stmts[s].nscalars; v++) {
                const ir_scalar *x = &tu->loops[l].stmts[s].scalars[v];
                if (x->is_write && strcmp(x->name, name) == 0)
                    return 1;
            }
    }
    return 0;
}

/* Is pointer `name` an induction of loop L that the front end rewrote
 * (ir_loop.stepped): its accesses in L are relative to its value on entry
 * of L, so its steps in L change nothing the test sees? */
static int stepped_by(const ir_tu *tu, int L, const char *name)
{
    const ir_loop *lp = &tu->loops[L];
    for (int k = 0; k < lp->nstepped; k++)
        if (strcmp(lp->stepped[k], name) == 0)
            return 1;
    return 0;
}

/* Does a subscript (or the base) of r hold a value loop L changes: a
 * variable written inside L (a counter, an index set in a previous
 * iteration, a pointer stepped), or the entry value `k__L<n>` of a derived
 * induction variable of a loop n inside L (plugin/walker.c)?  Such an
 * access cannot be tested as an expression of L's iterations. */
static int tainted(const ir_tu *tu, int L, const ir_access *a)
{
    char base[256];
    snprintf(base, sizeof base, "%s", a->array);
    base[strcspn(base, ".")] = '\0';
    if (strcmp(base, "?") == 0 || (written_in(tu, L, base) && !stepped_by(tu, L, base)))
        return 1;
    /* the base is the induction variable of L or of a loop inside it (a
     * pointer walking the array: `*p`, `*(p - 1)`): p[0] is another
     * element in each iteration */
    for (int k = L, end = ir_nest_end(tu, L); k < end; k++)
        if (tu->loops[k].iv && strcmp(tu->loops[k].iv, base) == 0
            && (k == L || ir_loop_within(tu, k, L)))
            return 1;
    for (int d = 0; d < a->ndims; d++) {
        char **names = NULL;
        int n = a->index[d] ? kx_symbols(a->index[d], &names) : -1;
        if (n < 0)
            return 1;
        int bad = 0;
        for (int i = 0; i < n && !bad; i++) {
            const char *m = strstr(names[i], "__L");
            char *end;
            long ln = m ? strtol(m + 3, &end, 10) : -1;
            if (m && *end == '\0' && m[3] && ln >= 0 && ln < tu->nloops)
                bad = !ir_loop_within(tu, L, (int)ln);
            else
                bad = written_in(tu, L, names[i]);
        }
        kx_free_names(names, n);
        if (bad)
            return 1;
    }
    return 0;
}

/* Is scalar `name` a derived induction variable of L: stepped by one
 * unconditional statement directly in L (`k++`, `k += e` with e not
 * written in L, no array access, no call, no floating-point operation),
 * written nowhere else in L, L a
 * canonical loop with step +-1 and no jump?  Its value is then a linear
 * function of L's variable (plugin/walker.c rewrites it so). */
static int derived_iv(const ir_tu *tu, int L, const char *name)
{
    const ir_loop *lp = &tu->loops[L];
    if (!lp->canonical || (lp->step != 1 && lp->step != -1) || lp->n_break || lp->n_continue
        || lp->n_goto || lp->n_return)
        return 0;
    int steps = 0;
    for (int l = L, end = ir_nest_end(tu, L); l < end; l++) {
        if (!ir_loop_within(tu, l, L))
            continue;
        for (int s = 0; s < tu->loops[l].nstmts; s++) {
            const ir_stmt *st = &tu->loops[l].stmts[s];
            int writes = 0;
            for (int v = 0; v < st->nscalars; v++)
                if (st->scalars[v].is_write && strcmp(st->scalars[v].name, name) == 0)
                    writes++;
            if (!writes)
                continue;
            const char *t = st->text ? st->text : "";
            size_t n = strlen(name);
            int form = (strncmp(t, name, n) == 0
                        && (strcmp(t + n, "++") == 0 || strcmp(t + n, "--") == 0
                            || strncmp(t + n, " += ", 4) == 0 || strncmp(t + n, " -= ", 4) == 0))
                       || ((strncmp(t, "++", 2) == 0 || strncmp(t, "--", 2) == 0)
                           && strcmp(t + 2, name) == 0);
            /* a floating-point `s += g` is a sum, not an induction: i*g
             * rounds otherwise than g added i times */
            if (l != L || !form || st->conditional || st->nacc || st->ncalls || writes != 1
                || st->ops.fadd || st->ops.fmul || st->ops.fdiv || st->ops.fmath)
                return 0;
            for (int v = 0; v < st->nscalars; v++)
                if (!st->scalars[v].is_write && strcmp(st->scalars[v].name, name) != 0
                    && written_in(tu, L, st->scalars[v].name))
                    return 0;
            steps++;
        }
    }
    return steps == 1;
}


/* Is e the variable v under one cast, `(int)v`, `(long long) v`? */
static int cast_of(const char *e, const char *v)
{
    if (e[0] != '(')
        return 0;
    const char *close = strchr(e, ')');
    if (!close || close == e + 1)
        return 0;
    for (const char *p = e + 1; p < close; p++)
        if (!(*p == ' ' || *p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')
              || (*p >= '0' && *p <= '9')))
            return 0;
    const char *x = close + 1;
    while (*x == ' ')
        x++;
    return strcmp(x, v) == 0;
}

/* Is e exactly `fmax(v, E)` or `fmax(E, v)` (fmin, fmaxf, fminf, fmaxl,
 * fminl), E without v (E may hold calls of its own: `fabs(a[i] - b[i])`)? */
static int minmax_call(const char *e, const char *v)
{
    static const char *const fns[] = { "fmax(", "fmin(", "fmaxf(", "fminf(", "fmaxl(",
                                       "fminl(", NULL };
    size_t fl = 0;
    for (int f = 0; fns[f] && !fl; f++)
        if (strncmp(e, fns[f], strlen(fns[f])) == 0)
            fl = strlen(fns[f]);
    if (!fl)
        return 0;
    /* the call's arguments, split at its one top-level comma */
    const char *comma;
    int ncommas;
    const char *p = call_args(e + fl, &comma, &ncommas);
    if (!p || ncommas != 1)
        return 0;
    char a[256], b[256];
    snprintf(a, sizeof a, "%.*s", (int)(comma - (e + fl)), e + fl);
    snprintf(b, sizeof b, "%.*s", (int)(p - comma - 1), comma + 1);
    char *x = a, *y = b;
    while (*x == ' ') x++;
    while (*y == ' ') y++;
    for (char *z = x + strlen(x); z > x && z[-1] == ' '; ) *--z = '\0';
    for (char *z = y + strlen(y); z > y && z[-1] == ' '; ) *--z = '\0';
    if (strcmp(x, v) == 0)
        return *y && !has_word(y, v);
    if (strcmp(y, v) == 0)
        return *x && !has_word(x, v);
    return 0;
}

/* Is scalar v of loop L a min/max/select fold: every statement of L that
 * writes it is `v = fmax(v, e)` (fmin, fmaxf, fminf), `v = e < v ? e : v`
 * (any comparison, either order), or a conditional `v = e` where e is L's
 * variable (argmax's index) or e and v are compared by a condition of L
 * (`if (a[i] > m) m = a[i]`); every other statement reading v compares it.
 * The fold is associative: a reduction. */
static int fold_scalar(const ctx_t *c, const stmt_ref *st, int ns, int L, const char *v)
{
    const char *iv = c->tu->loops[L].iv;
    size_t n = strlen(v);
    int writes = 0;
    for (int j = 0; j < ns; j++) {
        const ir_stmt *s = st[j].s;
        int r = 0, w = 0;
        for (int u = 0; u < s->nscalars; u++)
            if (strcmp(s->scalars[u].name, v) == 0) {
                if (s->scalars[u].is_write) w++; else r++;
            }
        const char *t = s->text ? s->text : "";
        if (!w) {
            if (r && !(strchr(t, '<') || strchr(t, '>')))
                return 0;
            continue;
        }
        if (w != 1 || strncmp(t, v, n) != 0 || strncmp(t + n, " = ", 3) != 0 || s->ncalls)
            return 0;
        const char *e = t + n + 3;
        writes++;
        int ok = minmax_call(e, v);
        const char *q = strchr(e, '?'), *col = q ? strchr(q, ':') : NULL;
        if (!ok && q && col && !strchr(col + 1, '?')) {
            /* c ? A : B with one of A, B being v and the other compared in c */
            char cnd[256], A[256], B[256];
            snprintf(cnd, sizeof cnd, "%.*s", (int)(q - e), e);
            snprintf(A, sizeof A, "%.*s", (int)(col - q - 1), q + 1);
            snprintf(B, sizeof B, "%s", col + 1);
            char *a = A, *b = B;
            while (*a == ' ') a++;
            while (*b == ' ') b++;
            for (char *z = a + strlen(a); z > a && z[-1] == ' '; ) *--z = '\0';
            for (char *z = b + strlen(b); z > b && z[-1] == ' '; ) *--z = '\0';
            const char *other = strcmp(a, v) == 0 ? b : strcmp(b, v) == 0 ? a : NULL;
            ok = other && *other && (strchr(cnd, '<') || strchr(cnd, '>')) && has_word(cnd, v)
                 && strstr(cnd, other) && !has_word(other, v);
        }
        if (!ok && s->conditional && r == 0) {
            if (iv && (strcmp(e, iv) == 0 || cast_of(e, iv)))
                ok = 1;
            for (int k = 0; k < ns && !ok; k++) {
                const char *ct = st[k].s->text ? st[k].s->text : "";
                if (k != j && (strchr(ct, '<') || strchr(ct, '>')) && strstr(ct, e)
                    && has_word(ct, v) && !strchr(ct, '='))
                    ok = 1;
            }
            /* argmax's companion: set under the condition of another fold */
            if (!ok && !strchr(e, '(')) {
                for (int k = 0; k < ns && !ok; k++) {
                    const char *ct = st[k].s->text ? st[k].s->text : "";
                    if (k != j && (strchr(ct, '<') || strchr(ct, '>')) && strstr(ct, e)
                        && !strchr(ct, '='))
                        ok = 1;
                }
            }
        }
        if (!ok)
            return 0;
    }
    return writes > 0;
}

/* Does text t hold an assignment (a lone `=`, not ==, <=, >=, !=)? */
static int has_assign(const char *t)
{
    for (const char *p = t; *p; p++)
        if (*p == '=' && p[1] != '=' && p > t && p[-1] != '=' && p[-1] != '!' && p[-1] != '<'
            && p[-1] != '>')
            return 1;
    return 0;
}

static void trim_copy(char *dst, size_t cap, const char *s, size_t n)
{
    while (n > 0 && *s == ' ')
        s++, n--;
    while (n > 0 && s[n - 1] == ' ')
        n--;
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* A min/max fold of an array element or a struct member inside loop L:
 * statement F writes one element X (no scalar, no call) by
 *     X = c ? X : e,  X = c ? e : X     (c compares X and e)
 *     X = fmax(X, e)  (fmin, fmaxf, fminf; either order)
 *     X = e           (conditional; a comparison statement of L holds X and e)
 *     X = i           (conditional, i L's variable: argmax's index)
 * Is reference r part of one: F's own reference to that element, or a read
 * of it in a comparison statement of L (`if (a[i] > m->max) m->max = a[i]`)?
 * Returns 'm' or 0. */
static int fold_ref(const ctx_t *c, int L, const ref_t *r)
{
    const ir_tu *tu = c->tu;
    const ir_stmt *rs = &tu->loops[r->loop].stmts[r->stmt];
    for (int k = L, end = ir_nest_end(tu, L); k < end; k++) {
        if (!ir_loop_within(tu, k, L))
            continue;
        for (int s = 0; s < tu->loops[k].nstmts; s++) {
            const ir_stmt *F = &tu->loops[k].stmts[s];
            const ir_access *W = NULL;
            int nw = 0, bad = F->ncalls > 0;
            for (int a = 0; a < F->nacc; a++)
                if (F->acc[a].is_write) {
                    W = &F->acc[a];
                    nw++;
                }
            for (int v = 0; v < F->nscalars; v++)
                bad |= F->scalars[v].is_write;
            if (bad || nw != 1 || strcmp(W->array, r->a->array) != 0 || !same_index(W, r->a))
                continue;
            const char *t = F->text ? F->text : "", *rhs;
            char op, X[256], e[512];
            size_t ll = split_assign(t, &op, &rhs);
            if (op != '=' || ll == 0 || !rhs)
                continue;
            trim_copy(X, sizeof X, t, ll);
            trim_copy(e, sizeof e, rhs, strlen(rhs));
            int ok = 0;
            const char *q = strchr(e, '?'), *col = q ? strchr(q, ':') : NULL;
            if (q && col && !strchr(col + 1, '?')) {
                char cnd[256], A[256], B[256];
                trim_copy(cnd, sizeof cnd, e, (size_t)(q - e));
                trim_copy(A, sizeof A, q + 1, (size_t)(col - q - 1));
                trim_copy(B, sizeof B, col + 1, strlen(col + 1));
                const char *other = strcmp(A, X) == 0 ? B : strcmp(B, X) == 0 ? A : NULL;
                ok = other && *other && (strchr(cnd, '<') || strchr(cnd, '>'))
                     && strstr(cnd, X) && strstr(cnd, other) && !strstr(other, X);
            }
            static const char *const fns[] = { "fmax(", "fmin(", "fmaxf(", "fminf(", NULL };
            for (int f = 0; fns[f] && !ok; f++) {
                size_t fl = strlen(fns[f]), el = strlen(e), xl = strlen(X);
                if (strncmp(e, fns[f], fl) != 0 || e[el - 1] != ')')
                    continue;
                char args[512], a1[256], a2[256];
                trim_copy(args, sizeof args, e + fl, el - fl - 1);
                int depth = 0;
                const char *comma = NULL;
                for (const char *p = args; *p && !comma; p++) {
                    if (*p == '(' || *p == '[')
                        depth++;
                    else if (*p == ')' || *p == ']')
                        depth--;
                    else if (*p == ',' && depth == 0)
                        comma = p;
                }
                if (!comma)
                    continue;
                trim_copy(a1, sizeof a1, args, (size_t)(comma - args));
                trim_copy(a2, sizeof a2, comma + 1, strlen(comma + 1));
                (void)xl;
                ok = (strcmp(a1, X) == 0 && !strstr(a2, X)) || (strcmp(a2, X) == 0 && !strstr(a1, X));
            }
            /* argmax's index: X = i under a condition, the last (first)
             * iteration that passes it -- a max (min) of L's variable */
            if (!ok && F->conditional && tu->loops[L].iv && strcmp(e, tu->loops[L].iv) == 0)
                ok = 1;
            if (!ok && F->conditional && !strchr(e, '?') && !strstr(e, X) && *e) {
                for (int k2 = L; k2 < ir_nest_end(tu, L) && !ok; k2++) {
                    if (!ir_loop_within(tu, k2, L))
                        continue;
                    for (int s2 = 0; s2 < tu->loops[k2].nstmts && !ok; s2++) {
                        const char *ct = tu->loops[k2].stmts[s2].text;
                        ok = ct && &tu->loops[k2].stmts[s2] != F && (strchr(ct, '<') || strchr(ct, '>'))
                             && !has_assign(ct) && strstr(ct, X) && strstr(ct, e);
                    }
                }
            }
            if (!ok)
                continue;
            if (rs == F)
                return 'm';
            const char *rt = rs->text ? rs->text : "";
            if (!r->a->is_write && (strchr(rt, '<') || strchr(rt, '>')) && !has_assign(rt)
                && strstr(rt, X))
                return 'm';
        }
    }
    return 0;
}

/* The operator of a reduction class, as written. */
static const char *red_op_text(int op)
{
    switch (op) {
    case '+': return "+";
    case '*': return "*";
    case '|': return "|";
    case '&': return "&";
    case '^': return "^";
    case 'a': return "&&";
    case 'o': return "||";
    default: return "min/max";
    }
}

/* Append "name (op)" to the list of reductions red (cut when full). */
static void red_add(char *red, size_t cap, const char *name, int op)
{
    size_t n = strlen(red);
    char item[160];
    snprintf(item, sizeof item, "%s (%s)", name, red_op_text(op));
    if (strstr(red, item))
        return;
    if (n + strlen(item) + 3 < cap)
        snprintf(red + n, cap - n, "%s%s", n ? ", " : "", item);
}

/* The statements of L's nest in source order into *out (the caller frees
 * it); their count, or -1 when out of memory. */
static int nest_statements(const ir_tu *tu, int L, stmt_ref **out)
{
    int ns = 0;
    for (int l = L, end = ir_nest_end(tu, L); l < end; l++)
        if (ir_loop_within(tu, l, L))
            ns += tu->loops[l].nstmts;
    stmt_ref *st = malloc(sizeof *st * (size_t)(ns ? ns : 1));
    if (!st)
        return -1;
    ns = 0;
    for (int l = L, end = ir_nest_end(tu, L); l < end; l++)
        if (ir_loop_within(tu, l, L))
            for (int s = 0; s < tu->loops[l].nstmts; s++)
                st[ns++] = (stmt_ref){ tu->loops[l].stmts[s].line, tu->loops[l].stmts[s].col,
                                       l, &tu->loops[l].stmts[s] };
    qsort(st, (size_t)ns, sizeof *st, cmp_stmt);
    *out = st;
    return ns;
}

/* Whether statement j reads (*r) and writes (*wr) scalar name. */
static void scalar_rw(const stmt_ref *sj, const char *name, int *r, int *wr)
{
    *r = *wr = 0;
    for (int u = 0; u < sj->s->nscalars; u++)
        if (strcmp(sj->s->scalars[u].name, name) == 0) {
            if (sj->s->scalars[u].is_write) *wr = 1; else *r = 1;
        }
}

/* The index of the first statement that writes name, or -1. */
static int first_writer(const stmt_ref *st, int ns, const char *name)
{
    for (int j = 0; j < ns; j++)
        for (int u = 0; u < st[j].s->nscalars; u++)
            if (st[j].s->scalars[u].is_write && strcmp(st[j].s->scalars[u].name, name) == 0)
                return j;
    return -1;
}

/* Every statement that mentions name: *first the first of them; returns
 * whether all writes are updates `s op= e` of one operator (*uop) and no
 * statement reads it otherwise. */
static int only_updates(const stmt_ref *st, int ns, const char *name, int *first, int *uop)
{
    int all_updates = 1, reads_elsewhere = 0;
    *first = -1;
    *uop = 0;
    for (int j = 0; j < ns; j++) {
        int r, wr;
        scalar_rw(&st[j], name, &r, &wr);
        if (!r && !wr)
            continue;
        if (*first < 0)
            *first = j;
        int upd = compound_update(st[j].s, name);
        if (wr && !upd)
            all_updates = 0;
        if (upd && *uop && upd != *uop)
            all_updates = 0;     /* s += a; s *= b: no one operator */
        if (upd && !*uop)
            *uop = upd;
        if (r && !upd)
            reads_elsewhere = 1;
    }
    return all_updates && !reads_elsewhere;
}

/* Does an access of L's nest read scalar name's running value through
 * the entry symbol `name__L<n>` of a derived induction of a loop n strictly
 * inside L (plugin/walk_bind.c rewrites `buf[k]` under `k++` so)?  Within
 * n that symbol is a constant; across L's iterations it is what the
 * earlier iterations left in name, so name is read, not only updated: a
 * counter whose value indexes memory is no reduction.  *acc: the access
 * (NULL when none). */
static int entry_value_read(const ir_tu *tu, int L, const stmt_ref *st, int ns,
                            const char *name, const ir_access **acc)
{
    size_t nl = strlen(name);
    *acc = NULL;
    for (int j = 0; j < ns; j++)
        for (int a = 0; a < st[j].s->nacc; a++) {
            const ir_access *x = &st[j].s->acc[a];
            for (int d = 0; d < x->ndims; d++) {
                char **names = NULL;
                int n = x->index[d] ? kx_symbols(x->index[d], &names) : 0;
                int hit = 0;
                for (int i = 0; i < n && !hit; i++) {
                    const char *m = names[i];
                    char *end;
                    if (strncmp(m, name, nl) != 0 || strncmp(m + nl, "__L", 3) != 0
                        || !isdigit((unsigned char)m[nl + 3]))
                        continue;
                    long ln = strtol(m + nl + 3, &end, 10);
                    hit = *end == '\0' && ln != L && ln < tu->nloops
                          && ir_loop_within(tu, (int)ln, L);
                }
                kx_free_names(names, n);
                if (hit) {
                    *acc = x;
                    return 1;
                }
            }
        }
    return 0;
}

/* Private to an iteration: its first reference (statement i) an
 * unconditional plain write, every other reference inside the writer's
 * loop.  *has_read: statement i also reads it. */
static int private_scalar(const ir_tu *tu, const stmt_ref *st, int ns, int i, int first,
                          const char *name, int *has_read)
{
    *has_read = 0;
    for (int u = 0; u < st[i].s->nscalars; u++)
        if (!st[i].s->scalars[u].is_write && strcmp(st[i].s->scalars[u].name, name) == 0)
            *has_read = 1;
    int ok = first == i && !*has_read && !st[i].s->conditional;
    for (int j = i + 1; j < ns && ok; j++)
        for (int u = 0; u < st[j].s->nscalars; u++)
            if (strcmp(st[j].s->scalars[u].name, name) == 0
                && !ir_loop_within(tu, st[j].loop, st[i].loop))
                ok = 0;
    return ok;
}

/* The loop's OpenMP clauses as evidence where keel cannot decide:
 * private/firstprivate/lastprivate(x) when x's first reference writes it
 * only under a condition (written on every path, as far as the author
 * knows: lavaMD's `pointer`); reduction(op: x) when every statement that
 * mentions x both reads and writes it through a math function keel does
 * not read (`s = fma(a[i], b[i], s)`).  A read keel sees before any write,
 * or an update it reads as no fold (`s = s * a + 1`), is a dependence
 * found: no clause removes it.  0: no clause decides; 1: private by its
 * clause; 2: a reduction by its clause (added to red). */
static int clause_scalar(const ir_loop *lp, const stmt_ref *st, int ns, int i, int first,
                         int has_read, const char *name, char *red, size_t redcap)
{
    char rop[32] = "";
    if (first == i && !has_read && st[i].s->conditional
        && (omp_loop_lists(lp, "private", name, NULL, 0)
            || omp_loop_lists(lp, "firstprivate", name, NULL, 0)
            || omp_loop_lists(lp, "lastprivate", name, NULL, 0)))
        return 1;
    if (!omp_loop_lists(lp, "reduction", name, rop, sizeof rop))
        return 0;
    int self = 1;
    for (int j = 0; j < ns && self; j++) {
        int r, wr;
        scalar_rw(&st[j], name, &r, &wr);
        self = r == wr && (!r || st[j].s->ops.fmath > 0);
    }
    if (!self)
        return 0;
    char item[320];
    snprintf(item, sizeof item, "%.200s (%.31s, by its clause)", name, rop);
    size_t n = strlen(red);
    if (n + strlen(item) + 3 < redcap) {
        if (n)
            strcat(red, ", ");
        strcat(red, item);
    }
    return 2;
}

/* One scalar w written by statement i (its first writer): 0 nothing
 * carried, 1 a reduction (added to red), 2 carried (reason written). */
static int judge_scalar(const ctx_t *c, int L, const stmt_ref *st, int ns, int i,
                        const ir_scalar *w, char *reason, size_t cap, char *red, size_t redcap)
{
    const ir_tu *tu = c->tu;
    int first, uop, fs = 0;
    const ir_access *ea;
    int upd = only_updates(st, ns, w->name, &first, &uop);
    if (entry_value_read(tu, L, st, ns, w->name, &ea)) {
        int has_read;
        if (private_scalar(tu, st, ns, i, first, w->name, &has_read))
            return 0;            /* reset in every iteration before the loop reads it */
        char *at = ir_access_str(ea);
        snprintf(reason, cap, "scalar %s (line %d) is carried: its running value "
                 "indexes %s (line %d)", w->name, w->line, at ? at : ea->array, ea->line);
        free(at);
        return 2;
    }
    if (upd || (fs = fold_scalar(c, st, ns, L, w->name))) {
        red_add(red, redcap, w->name, fs ? 'm' : uop);
        return 1;
    }
    int has_read;
    if (private_scalar(tu, st, ns, i, first, w->name, &has_read))
        return 0;
    int cl = clause_scalar(&tu->loops[L], st, ns, i, first, has_read, w->name, red, redcap);
    if (cl)
        return cl == 2;
    snprintf(reason, cap, "scalar %s (line %d) is read before it is written "
             "in an iteration", w->name, w->line);
    return 2;
}

/* Scalars of loop L (its loop variables and what steps with them aside),
 * each judged once at its first writer: 0 fine (private or none), 1
 * reduction (each named in red with its operator), 2 carried (reason
 * written). */
static int scalars(const ctx_t *c, int L, char *reason, size_t cap, char *red, size_t redcap)
{
    const ir_tu *tu = c->tu;
    int result = 0;
    stmt_ref *st;
    int ns = nest_statements(tu, L, &st);
    if (ns < 0)
        return 2;
    for (int i = 0; i < ns && result < 2; i++) {
        for (int v = 0; v < st[i].s->nscalars; v++) {
            const ir_scalar *w = &st[i].s->scalars[v];
            if (!w->is_write || is_iv_in(tu, L, w->name) || derived_iv(tu, L, w->name)
                || stepped_by(tu, L, w->name))
                continue;
            if (first_writer(st, ns, w->name) != i)
                continue;
            int r = judge_scalar(c, L, st, ns, i, w, reason, cap, red, redcap);
            if (r == 1)
                result = result ? result : 1;
            if (r == 2) {
                result = 2;
                break;
            }
        }
    }
    free(st);
    return result;
}

/* ---- exact test (isl) ------------------------------------------------------
 *
 * Where the per-subscript tests cannot exclude a dependence, the pair is
 * put to isl as a Presburger set, the way Polly, Graphite and PPCG do:
 * the iteration vectors A (of a) and B (of b), every enclosing loop's
 * bounds (triangular bounds included: `j <= i` is just a constraint),
 * equal iterations of the loops outside L, A_L < B_L (then A_L > B_L),
 * and equal subscripts, over the program's sizes as parameters.  An
 * empty set for every value of the parameters proves the pair
 * independent at L.  Everything must be affine with constant
 * coefficients, steps +-1 or a positive constant; otherwise nothing is
 * proved. */

typedef struct {
    ku_buf s;           /* the isl text */
    int bad;            /* not expressible (or out of memory): nothing proved */
    char **params;      /* program symbols, P0, P1, ... (grown by ku_push) */
    int nparams;
} sbuf;

static void sb_add(sbuf *b, const char *t)
{
    if (!b->bad)
        ku_buf_put(&b->s, t);
    if (b->s.oom)
        b->bad = 1;
}

/* e with the chain variables renamed (ivs[k] -> pre k) and every other
 * symbol a parameter P<n>, printed; affine or b->bad. */
static void sb_expr(sbuf *b, const kx_expr *e, char *const *ivs, int nivs, char pre)
{
    if (!e || !kx_is_affine(e)) {
        b->bad = 1;
        return;
    }
    kx_expr *t = kx_copy(e);
    char nm[32];
    for (int k = 0; k < nivs && t; k++) {
        if (!ivs[k])
            continue;
        snprintf(nm, sizeof nm, "__isl_%c%d", pre, k);
        kx_expr *s = kx_sym(nm), *u = kx_subst(t, ivs[k], s);
        kx_free(s);
        kx_free(t);
        t = u;
    }
    char **names = NULL;
    int n = t ? kx_symbols(t, &names) : -1;
    for (int i = 0; i < n && t; i++) {
        if (strncmp(names[i], "__isl_", 6) == 0)
            continue;       /* renamed already (C reserves names with __) */
        int p = 0;
        while (p < b->nparams && strcmp(b->params[p], names[i]) != 0)
            p++;
        if (p == b->nparams) {
            char **slot = ku_push(&b->params, &b->nparams, sizeof *slot);
            if (!slot || !(*slot = strdup(names[i]))) {
                b->nparams -= slot != NULL;
                b->bad = 1;
                break;
            }
        }
        snprintf(nm, sizeof nm, "__isl_P%d", p);
        kx_expr *s = kx_sym(nm), *u = kx_subst(t, names[i], s);
        kx_free(s);
        kx_free(t);
        t = u;
    }
    kx_free_names(names, n > 0 ? n : 0);
    char *txt = t && n >= 0 ? kx_print(t) : NULL;
    if (!txt)
        b->bad = 1;
    else
        sb_add(b, txt);
    free(txt);
    kx_free(t);
}

/* Loop chain of IR loop l, outermost first. */
static int loop_chain(const ir_tu *tu, int l, int *out)
{
    int rev[64], n = 0;
    for (; l >= 0 && n < 64; l = tu->loops[l].parent)
        rev[n++] = l;
    for (int i = 0; i < n; i++)
        out[i] = rev[n - 1 - i];
    return n;
}

static int isl_empty(isl_ctx *ctx, const char *text)
{
    isl_ctx_reset_operations(ctx);
    isl_ctx_reset_error(ctx);
    isl_set *set = isl_set_read_from_str(ctx, text);
    if (!set)
        return 0;
    isl_bool e = isl_set_is_empty(set);
    isl_set_free(set);
    return e == isl_bool_true;
}

/* Is the pair (a, b) proved independent at loop L?  1 proved, 0 not, -1
 * not tried (too deep, or the translation unit's budget is spent). */
static int exact_independent(const ctx_t *c, const ref_t *a, const ref_t *b, int L)
{
    if (!c->isl)
        return 0;
    const ir_tu *tu = c->tu;
    int ca[64], cb[64];
    int na = loop_chain(tu, a->loop, ca), nb = loop_chain(tu, b->loop, cb);
    if (na > EXACT_MAX_DEPTH || nb > EXACT_MAX_DEPTH || *c->exact_left <= 0)
        return -1;
    --*c->exact_left;
    int pL = -1;
    for (int k = 0; k < na && k < nb && ca[k] == cb[k]; k++)
        if (ca[k] == L)
            pL = k;
    if (pL < 0)
        return 0;
    char *iva[64], *ivb[64];
    for (int k = 0; k < na; k++)
        iva[k] = tu->loops[ca[k]].iv;
    for (int k = 0; k < nb; k++)
        ivb[k] = tu->loops[cb[k]].iv;
    sbuf sb = { 0 };
    char t[64];
    /* the body, built once, then prefixed with the parameters and the order */
    sbuf body = { 0 };
    for (int side = 0; side < 2; side++) {
        const int *ch = side ? cb : ca;
        int n = side ? nb : na;
        char *const *ivs = side ? ivb : iva;
        char pre = side ? 'B' : 'A';
        for (int k = 0; k < n && !body.bad; k++) {
            const ir_loop *lp = &tu->loops[ch[k]];
            if (!lp->canonical || !lp->iv || !lp->lower || !lp->upper || lp->step == 0) {
                body.bad = 1;
                break;
            }
            int64_t st = lp->step;
            snprintf(t, sizeof t, "__isl_%c%d", pre, k);
            sb_add(&body, " and ");
            if (st > 0) {
                sb_expr(&body, lp->lower, ivs, k, pre);
                sb_add(&body, " <= "); sb_add(&body, t); sb_add(&body, " < ");
                sb_expr(&body, lp->upper, ivs, k, pre);
            } else {
                sb_expr(&body, lp->upper, ivs, k, pre);
                sb_add(&body, " < "); sb_add(&body, t); sb_add(&body, " <= ");
                sb_expr(&body, lp->lower, ivs, k, pre);
            }
            if (st != 1 && st != -1) {
                char e[96];
                snprintf(e, sizeof e, " and exists (__isl_e%c%d: %s = ", pre, k, t);
                sb_add(&body, e);
                sb_expr(&body, lp->lower, ivs, k, pre);
                snprintf(e, sizeof e, " + %lld*__isl_e%c%d)", (long long)st, pre, k);
                sb_add(&body, e);
            }
        }
    }
    for (int k = 0; k < pL && !body.bad; k++) {
        snprintf(t, sizeof t, " and __isl_A%d = __isl_B%d", k, k);
        sb_add(&body, t);
    }
    /* equal subscripts */
    if (a->a->ndims == b->a->ndims) {
        for (int d = 0; d < a->a->ndims && !body.bad; d++) {
            sb_add(&body, " and ");
            sb_expr(&body, a->a->index[d], iva, na, 'A');
            sb_add(&body, " = ");
            sb_expr(&body, b->a->index[d], ivb, nb, 'B');
        }
    } else {
        kx_expr *la = ip_linearize(a->a->ndims, a->a->index, a->a->nextents, a->a->extent);
        kx_expr *lb = ip_linearize(b->a->ndims, b->a->index, b->a->nextents, b->a->extent);
        sb_add(&body, " and ");
        sb_expr(&body, la, iva, na, 'A');
        sb_add(&body, " = ");
        sb_expr(&body, lb, ivb, nb, 'B');
        kx_free(la);
        kx_free(lb);
    }
    int proved = 0;
    if (!body.bad) {
        proved = 1;
        for (int dir = 0; dir < 2 && proved; dir++) {
            ku_buf_free(&sb.s);
            sb.bad = 0;
            sb_add(&sb, "[");
            for (int p = 0; p < body.nparams; p++) {
                snprintf(t, sizeof t, "%s__isl_P%d", p ? ", " : "", p);
                sb_add(&sb, t);
            }
            sb_add(&sb, "] -> { [");
            for (int k = 0; k < na; k++) {
                snprintf(t, sizeof t, "%s__isl_A%d", k ? ", " : "", k);
                sb_add(&sb, t);
            }
            for (int k = 0; k < nb; k++) {
                snprintf(t, sizeof t, ", __isl_B%d", k);
                sb_add(&sb, t);
            }
            snprintf(t, sizeof t, "] : __isl_A%d %s __isl_B%d", pL, dir ? ">" : "<", pL);
            sb_add(&sb, t);
            sb_add(&sb, body.s.s);
            sb_add(&sb, " }");
            proved = !sb.bad && isl_empty(c->isl, sb.s.s);
        }
    }
    for (int p = 0; p < body.nparams; p++)
        free(body.params[p]);
    free(body.params);
    ku_buf_free(&body.s);
    ku_buf_free(&sb.s);
    return proved;
}

/* Is access a inside loop L private to an iteration of L (array
 * privatisation, as doitgen's sum[p])?  Every access to its array in L has
 * subscripts over the variables of loops inside L only, and a write W (an
 * unconditional plain store, each subscript a distinct variable of W's own
 * loops, those loops unit-step, jump-free and inside L) precedes every read
 * R of the array in the same iteration of L: either R sits in W's loops
 * (or deeper) at W's very subscripts after W, or R comes after the loop
 * below L that holds W and reads over loops with W's bounds, element for
 * element.  Like a private scalar, its last value may be live out. */
static int private_array(const ctx_t *c, int L, const ref_t *x)
{
    const ir_tu *tu = c->tu;
    const ref_t *W = NULL;
    for (int p = c->ref_first[L], pe = c->ref_first[ir_nest_end(tu, L)]; p < pe; p++) {
        const ref_t *r = &c->refs[p];
        if (!ir_loop_within(tu, r->loop, L) || !same_array(r->a->array, x->a->array))
            continue;
        if (strcmp(r->a->array, x->a->array) != 0 || tainted(tu, L, r->a) || !r->a->ndims)
            return 0;
        for (int d = 0; d < r->a->ndims; d++) {
            char **names = NULL;
            int n = kx_symbols(r->a->index[d], &names);
            for (int i = 0; i < n; i++)
                if (!is_iv_in(tu, L, names[i]) || strcmp(names[i], tu->loops[L].iv) == 0) {
                    kx_free_names(names, n);
                    return 0;
                }
            kx_free_names(names, n);
        }
        const ir_stmt *st = &tu->loops[r->loop].stmts[r->stmt];
        if (!W && r->a->is_write && !st->conditional && r->loop != L) {
            int plain = 1;
            for (int a = 0; a < st->nacc; a++)
                if (!st->acc[a].is_write && same_array(st->acc[a].array, x->a->array))
                    plain = 0;
            for (int d = 0; d < r->a->ndims && plain; d++) {
                int found = 0;
                for (int l = r->loop; l != L && !found; l = tu->loops[l].parent) {
                    const ir_loop *lp = &tu->loops[l];
                    kx_expr *v = lp->iv ? kx_sym(lp->iv) : NULL;
                    found = v && kx_equal(v, r->a->index[d]) && lp->step == 1 && lp->lower
                            && lp->upper && !lp->n_break && !lp->n_continue && !lp->n_goto
                            && !lp->n_return;
                    kx_free(v);
                }
                plain = found;
            }
            if (plain)
                W = r;
        }
    }
    if (!W)
        return 0;
    const ir_stmt *ws = &tu->loops[W->loop].stmts[W->stmt];
    for (int p = c->ref_first[L], pe = c->ref_first[ir_nest_end(tu, L)]; p < pe; p++) {
        const ref_t *r = &c->refs[p];
        if (!ir_loop_within(tu, r->loop, L) || r->a->is_write || !same_array(r->a->array, x->a->array))
            continue;
        const ir_stmt *rs = &tu->loops[r->loop].stmts[r->stmt];
        int after = rs->line > ws->line || (rs->line == ws->line && rs->col > ws->col);
        /* the innermost loop holding both, and its child loop holding W:
         * every loop from W's up to that one runs whole, unconditionally */
        int lca = W->loop;
        while (!ir_loop_within(tu, r->loop, lca))
            lca = tu->loops[lca].parent;
        int top = W->loop, ok = 1;
        for (int l = W->loop; ok; l = tu->loops[l].parent) {
            const ir_loop *lp = &tu->loops[l];
            ok = !lp->n_if && !lp->n_break && !lp->n_continue && !lp->n_goto && !lp->n_return;
            if (l == lca)
                break;
            top = l;
        }
        if (!ok)
            return 0;
        ok = 0;
        if (lca == W->loop && after) {
            ok = 1;
            for (int d = 0; d < r->a->ndims && ok; d++)
                ok = kx_equal(r->a->index[d], W->a->index[d]);
        } else if (lca != W->loop && rs->line > tu->loops[top].end_line) {
            /* each subscript the variable of a loop with W's bounds */
            ok = r->a->ndims == W->a->ndims;
            for (int d = 0; d < r->a->ndims && ok; d++) {
                const ir_loop *wl = NULL, *rl = NULL;
                for (int l = W->loop; l != lca && !wl; l = tu->loops[l].parent) {
                    kx_expr *v = kx_sym(tu->loops[l].iv);
                    if (v && kx_equal(v, W->a->index[d]))
                        wl = &tu->loops[l];
                    kx_free(v);
                }
                for (int l = r->loop; l != lca && !rl; l = tu->loops[l].parent) {
                    kx_expr *v = tu->loops[l].iv ? kx_sym(tu->loops[l].iv) : NULL;
                    if (v && kx_equal(v, r->a->index[d]))
                        rl = &tu->loops[l];
                    kx_free(v);
                }
                ok = wl && rl && rl->step == 1 && kx_equal(wl->lower, rl->lower)
                     && kx_equal(wl->upper, rl->upper);
            }
        }
        if (!ok)
            return 0;
    }
    return 1;
}

/* A yes/no answer kept in cache[i] (0 not yet known, 1 no, 2 yes; cache
 * NULL: none).  The answer is a macro argument's value here, so the caller
 * passes the call itself; it is evaluated only when cache[i] is 0. */
#define memo(cache, i, answer) \
    ((cache) ? ((cache)[i] ? (cache)[i] == 2 : ((cache)[i] = 1 + !!(answer)) == 2) : !!(answer))

/* Does the body of loop L change its control: write its induction
 * variable (a for loop's; a while loop's single step is its increment) or
 * a variable its bound reads, anywhere in the nest?  Returns 1 with the
 * variable and the line of the first such write, 2 when the front end only
 * knows that the body may write it (through a pointer), 0 when neither. */
static int control_written(const ir_tu *tu, int L, const char **name, int *line)
{
    const ir_loop *lp = &tu->loops[L];
    char **names = NULL;
    int n = lp->upper ? kx_symbols(lp->upper, &names) : 0;
    int found = 0;
    *line = 0;
    for (int k = L, end = ir_nest_end(tu, L); k < end && found != 1; k++) {
        if (!ir_loop_within(tu, k, L))
            continue;
        for (int s = 0; s < tu->loops[k].nstmts; s++)
            for (int v = 0; v < tu->loops[k].stmts[s].nscalars; v++) {
                const ir_scalar *x = &tu->loops[k].stmts[s].scalars[v];
                if (!x->is_write || (*line && x->line >= *line))
                    continue;
                int hit = lp->kind == IR_FOR && lp->iv && strcmp(x->name, lp->iv) == 0;
                for (int i = 0; i < n && !hit; i++)
                    hit = strcmp(x->name, names[i]) == 0;
                if (hit) {
                    *name = x->name;
                    *line = x->line;
                    found = 1;
                }
            }
    }
    kx_free_names(names, n > 0 ? n : 0);
    if (!found && lp->control_write) {
        *name = lp->control_write;
        *line = lp->line;
        found = lp->control_maybe ? 2 : 1;
    }
    return found;
}

/* Does the body of a loop L that is not canonical set a scalar its
 * condition cs reads by anything but a step (`x++`, `--x`, `x += e`,
 * `x -= e`): `lo = mid + 1` in a binary search?  Then the iterations that
 * run depend on values earlier ones computed.  1 with the scalar and the
 * line of such a write, else 0. */
static int condition_set(const ir_tu *tu, int L, const ir_stmt *cs, const char **name, int *line)
{
    for (int v = 0; v < cs->nscalars; v++) {
        const char *x = cs->scalars[v].name;
        if (cs->scalars[v].is_write)
            continue;
        size_t n = strlen(x);
        for (int k = L; k < tu->nloops; k++) {
            if (!ir_loop_within(tu, k, L))
                continue;
            for (int s = 0; s < tu->loops[k].nstmts; s++) {
                const ir_stmt *st = &tu->loops[k].stmts[s];
                if (st == cs)
                    continue;
                int w = 0;
                for (int u = 0; u < st->nscalars; u++)
                    w |= st->scalars[u].is_write && strcmp(st->scalars[u].name, x) == 0;
                if (!w)
                    continue;
                /* a step of x anywhere in the statement's text */
                int step = 0;
                const char *t = st->text ? st->text : "";
                for (const char *p = strstr(t, x); p && !step; p = strstr(p + 1, x)) {
                    char a = p > t ? p[-1] : ' ', b = p[n];
                    int ida = a == '_' || a == '.' || (a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z')
                              || (a >= '0' && a <= '9');
                    int idb = b == '_' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')
                              || (b >= '0' && b <= '9');
                    if (ida || idb)
                        continue;
                    step = strncmp(p + n, "++", 2) == 0 || strncmp(p + n, "--", 2) == 0
                           || strncmp(p + n, " += ", 4) == 0 || strncmp(p + n, " -= ", 4) == 0
                           || (p - t >= 2 && (strncmp(p - 2, "++", 2) == 0
                                              || strncmp(p - 2, "--", 2) == 0));
                }
                if (!step) {
                    *name = x;
                    *line = st->line;
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* What a loop's shape decides before any access pair is tested: threads
 * that wait for each other, a body that changes the loop's control, a loop
 * that is not canonical (its trip count read from data or set by the
 * body).  1 when out holds the verdict. */
static int control_verdict(const ctx_t *c, int L, par_loop *out)
{
    const ir_tu *tu = c->tu;
    const ir_loop *l = &tu->loops[L];
    /* threads that wait for or exclude each other: no dependence question */
    if (sync_loop_holds(tu, L, out->reason, sizeof out->reason))
        return 1;
    const char *cname = NULL;
    int cline = 0, cw = control_written(tu, L, &cname, &cline);
    if (cw == 1) {
        /* which iterations run depends on what earlier ones did */
        out->verdict = PAR_SEQUENTIAL;
        snprintf(out->reason, sizeof out->reason, "the body changes the loop's control: "
                 "it writes %s (line %d)", cname, cline);
        return 1;
    }
    if (cw == 2) {
        snprintf(out->reason, sizeof out->reason, "the body may change the loop's control: "
                 "it writes through a pointer and the address of %s is taken", cname);
        return 1;
    }
    if (!l->canonical || !l->iv) {
        /* the condition (recorded as the loop's first statement) reads
         * data: the trip count depends on what the loop reads */
        const ir_stmt *cs = l->nstmts ? &l->stmts[0] : NULL;
        int cond_line = l->kind == IR_DO ? l->end_line : l->line;
        if (cs && cs->line == cond_line && !cs->conditional)
            for (int a = 0; a < cs->nacc; a++)
                if (!cs->acc[a].is_write) {
                    char ta[96];
                    ir_access_text(&cs->acc[a], ta, sizeof ta);
                    out->verdict = PAR_SEQUENTIAL;
                    snprintf(out->reason, sizeof out->reason, "the trip count depends on data: "
                             "the condition reads %s (line %d)", ta, cs->line);
                    return 1;
                }
        const char *set = NULL;
        int set_line = 0;
        if (cs && cs->line == cond_line && !cs->conditional && condition_set(tu, L, cs, &set, &set_line)) {
            out->verdict = PAR_SEQUENTIAL;
            snprintf(out->reason, sizeof out->reason, "the trip count depends on earlier "
                     "iterations: the condition reads %s, which the body sets (line %d)",
                     set, set_line);
            return 1;
        }
        snprintf(out->reason, sizeof out->reason, "not a canonical loop");
        return 1;
    }
    return 0;
}

/* An early exit (goto, return, or break from L itself) or a call anywhere
 * in the nest: 1 when out holds the verdict. */
static int exit_or_call_verdict(const ctx_t *c, int L, par_loop *out)
{
    const ir_tu *tu = c->tu;
    for (int k = L, end = ir_nest_end(tu, L); k < end; k++) {
        if (!ir_loop_within(tu, k, L))
            continue;
        const ir_loop *m = &tu->loops[k];
        if (m->n_goto || m->n_return || (k == L && m->n_break)) {
            /* an early exit: which iterations run depends on earlier ones */
            int calls = 0;
            for (int j = L; j < end; j++)
                for (int s = 0; ir_loop_within(tu, j, L) && s < tu->loops[j].nstmts; s++)
                    calls |= tu->loops[j].stmts[s].ncalls;
            if (!calls)
                out->verdict = PAR_SEQUENTIAL;
            snprintf(out->reason, sizeof out->reason, "exits early: %s in the loop (line %d)",
                     m->n_break && k == L ? "break" : m->n_return ? "return" : "goto", m->line);
            return 1;
        }
        for (int s = 0; s < m->nstmts; s++)
            for (int c = 0; c < m->stmts[s].ncalls; c++)
                if (!sync_call_harmless(m->stmts[s].calls[c])) {   /* timers: no effect */
                    /* a callee whose cost is unknown says why (callee.h) */
                    launch_cost add;
                    if (sync_call(m->stmts[s].calls[c])
                        || callee_stmt_cost(tu, k, s, &add, out->reason, sizeof out->reason) != 1)
                        snprintf(out->reason, sizeof out->reason, "calls %s (line %d)",
                                 m->stmts[s].calls[c], m->stmts[s].line);
                    return 1;
                }
    }
    return 0;
}

/* What the access pairs of a nest found for L: the first pair of each kind
 * (seq: carried at a known distance or on one element; unk: not testable;
 * maybe: carried, distance unknown) and the reductions carried. */
typedef struct {
    char seq[512], unk[512], maybe[512], red[400];
    int reduction;
} pair_findings;

/* The reason text of one dependent pair a, b into dst (512 bytes). */
static void pair_reason(char *dst, const ip_dep *d, const ref_t *a, const char *ta,
                        const ref_t *b, const char *tb, const char *not_run)
{
    char dist[48];
    if (d->has_distance)
        snprintf(dist, sizeof dist, "distance %lld", (long long)d->distance);
    else if (d->invariant)
        snprintf(dist, sizeof dist, "same element every iteration");
    else
        snprintf(dist, sizeof dist, "distance unknown");
    int len = snprintf(dst, 512, "%s (%s, line %d) and %s (%s, line %d): %s%s (%s%s)",
             ta, a->a->is_write ? "write" : "read", a->a->line,
             tb, b->a->is_write ? "write" : "read", b->a->line,
             d->kind == IP_UNKNOWN ? "not testable" : dist,
             d->kind == IP_CARRIED && !d->has_distance && !d->invariant
                 ? ", not excluded" : "", d->test, not_run);
    (void)len;     /* a long reason is cut, which is fine */
}

/* Test every pair of accesses to one array in L's nest (one a write) for a
 * dependence carried by L, until one is carried for certain. */
static void test_pairs(const ctx_t *c, int L, pair_findings *f)
{
    const ir_tu *tu = c->tu;
    const ip_loop *IL = &c->il[L];
    int pairs = 0;
    /* per access, computed once for L: is it tainted (tainted()), is its
     * array private to an iteration (private_array()), part of a min/max
     * fold (fold_ref())?  0 not yet known,
     * 1 no, 2 yes.  Asking them per pair made a d-deep nest cost O(d^4). */
    int p0 = c->ref_first[L], pe = c->ref_first[ir_nest_end(tu, L)];
    signed char *taint = calloc((size_t)(pe - p0) + 1, 3);
    signed char *priv = taint ? taint + (pe - p0) + 1 : NULL;
    signed char *fold = taint ? taint + 2 * ((pe - p0) + 1) : NULL;
    for (int p = p0; p < pe && !f->seq[0]; p++) {
        const ref_t *a = &c->refs[p];
        if (!ir_loop_within(tu, a->loop, L))
            continue;
        for (int q = p; q < pe && !f->seq[0]; q++) {
            const ref_t *b = &c->refs[q];
            if (!ir_loop_within(tu, b->loop, L) || !same_array(a->a->array, b->a->array)
                || !(a->a->is_write || b->a->is_write))
                continue;
            if (memo(priv, p - p0, private_array(c, L, a)))
                continue;
            if (++pairs > MAX_PAIRS_PER_LOOP) {
                snprintf(f->unk, sizeof f->unk, "more than %d access pairs to test: not tested further",
                         MAX_PAIRS_PER_LOOP);
                p = pe;
                break;
            }
            ip_dep d;
            if (memo(taint, p - p0, tainted(tu, L, a->a)) || memo(taint, q - p0, tainted(tu, L, b->a))) {
                memset(&d, 0, sizeof d);
                d.kind = IP_UNKNOWN;
                snprintf(d.test, sizeof d.test, "changed in the loop");
            } else if (ip_depend(&a->ref, &b->ref, IL, &d) != 0) {
                d.kind = IP_UNKNOWN;
                snprintf(d.test, sizeof d.test, "untestable");
            }
            const char *not_run = "";
            if ((d.kind == IP_UNKNOWN && strcmp(d.test, "changed in the loop") != 0)
                || (d.kind == IP_CARRIED && !d.has_distance && !d.invariant)) {
                int ex = exact_independent(c, a, b, L);
                if (ex == 1)
                    continue;
                if (ex < 0)
                    not_run = *c->exact_left <= 0 ? "; exact test not run: the file's budget is spent"
                                                  : "; exact test not run: nest too deep";
            }
            if (d.kind == IP_INDEPENDENT || d.kind == IP_LOOP_INDEP)
                continue;
            char ta[96], tb[96];
            ir_access_text(a->a, ta, sizeof ta);
            ir_access_text(b->a, tb, sizeof tb);
            /* updates X[e] op= v of one operator class commute, whatever e
             * is: an array reduction (a histogram when e is indirect) */
            int ra = reduction_ref(c, a);
            if ((d.kind == IP_CARRIED || d.kind == IP_UNKNOWN) && ra && ra == reduction_ref(c, b)) {
                f->reduction = 1;
                red_add(f->red, sizeof f->red, a->a->is_write ? ta : tb, ra);
                continue;
            }
            /* min/max folds into one element (a struct member, t[i] over k) */
            if ((d.kind == IP_CARRIED || d.kind == IP_UNKNOWN) && !ra
                && memo(fold, p - p0, fold_ref(c, L, a)) && memo(fold, q - p0, fold_ref(c, L, b))) {
                f->reduction = 1;
                red_add(f->red, sizeof f->red, a->a->is_write ? ta : tb, 'm');
                continue;
            }
            char *dst = d.kind == IP_UNKNOWN ? f->unk
                        : (d.has_distance || d.invariant) ? f->seq : f->maybe;
            if (!dst[0])
                pair_reason(dst, &d, a, ta, b, tb, not_run);
        }
    }
    free(taint);
}

static void verdict(const ctx_t *c, int L, par_loop *out)
{
    out->verdict = PAR_UNKNOWN;
    if (control_verdict(c, L, out) || exit_or_call_verdict(c, L, out))
        return;
    pair_findings f;
    memset(&f, 0, sizeof f);
    test_pairs(c, L, &f);
    /* the scalars, then the strongest finding decides */
    char sc[512] = "";
    int s = f.seq[0] ? 0 : scalars(c, L, sc, sizeof sc, f.red, sizeof f.red);
    if (f.seq[0] || s == 2) {
        out->verdict = PAR_SEQUENTIAL;
        memcpy(out->reason, f.seq[0] ? f.seq : sc, sizeof out->reason);
    } else if (f.unk[0]) {
        out->verdict = PAR_UNKNOWN;
        memcpy(out->reason, f.unk, sizeof out->reason);
    } else if (f.maybe[0]) {
        out->verdict = PAR_SEQUENTIAL;
        memcpy(out->reason, f.maybe, sizeof out->reason);
    } else if (f.reduction || s == 1) {
        out->verdict = PAR_REDUCTION;
        snprintf(out->reason, sizeof out->reason, "only reductions are carried: %s", f.red);
    } else {
        out->verdict = PAR_PARALLEL;
        snprintf(out->reason, sizeof out->reason, "no dependence carried");
    }
}

static int add_summary(char *buf, size_t cap, const char *label, int count)
{
    size_t n = strlen(buf);
    return snprintf(buf + n, cap - n, "%s%d %s", n ? ", " : "", count, label);
}

/* "3 coalesced, 1 uniform, 1 strided(nj)" for thread loop T, whose
 * strides lie in r->strides[from, to). */
static char *summary(const par_result *r, int T, int from, int to)
{
    char *labels[256];
    int counts[256], n = 0;
    for (int i = from; i < to; i++) {
        const par_stride *s = &r->strides[i];
        if (s->thread_loop != T)
            continue;
        char *t = par_class_text(s->cls == IP_SYMBOLIC ? IP_STRIDED : s->cls, s->stride);
        if (!t)
            continue;
        int j = 0;
        while (j < n && strcmp(labels[j], t) != 0)
            j++;
        if (j < n) {
            counts[j]++;
            free(t);
        } else if (n < 256) {
            labels[n] = t;
            counts[n++] = 1;
        } else {
            free(t);
        }
    }
    char buf[1024] = "";
    static const char *const order[] = { "coalesced", "uniform", NULL };
    for (int o = 0; order[o]; o++)
        for (int j = 0; j < n; j++)
            if (strcmp(labels[j], order[o]) == 0)
                add_summary(buf, sizeof buf, labels[j], counts[j]);
    for (int j = 0; j < n; j++)
        if (strcmp(labels[j], "coalesced") != 0 && strcmp(labels[j], "uniform") != 0
            && strcmp(labels[j], "irregular") != 0)
            add_summary(buf, sizeof buf, labels[j], counts[j]);
    for (int j = 0; j < n; j++)
        if (strcmp(labels[j], "irregular") == 0)
            add_summary(buf, sizeof buf, labels[j], counts[j]);
    for (int j = 0; j < n; j++)
        free(labels[j]);
    char *out = malloc(strlen(buf) + 1);
    if (out)
        strcpy(out, buf);
    return out;
}

/* The ip_loop of every loop and the ip_ref of every access, grouped by
 * loop (ref_first), each with the chain of loops around it. */
static void build_refs(ctx_t *c)
{
    const ir_tu *tu = c->tu;
    for (int l = 0; l < tu->nloops; l++) {
        const ir_loop *lp = &tu->loops[l];
        c->il[l] = (ip_loop){ lp->canonical ? lp->iv : NULL, lp->lower, lp->upper, lp->step };
    }
    for (int l = 0; l < tu->nloops; l++) {
        int chain[64], nc = 0;
        for (int k = l; k >= 0 && nc < 64; k = tu->loops[k].parent)
            chain[nc++] = k;
        /* par_analyze refused nests deeper than PAR_MAX_DEPTH: the chain is whole */
        assert(nc == tu->loops[l].depth + 1);
        c->ref_first[l] = c->nrefs;
        for (int s = 0; s < tu->loops[l].nstmts; s++)
            for (int a = 0; a < tu->loops[l].stmts[s].nacc; a++) {
                ref_t *rf = &c->refs[c->nrefs++];
                const ir_access *ac = &tu->loops[l].stmts[s].acc[a];
                rf->loop = l; rf->stmt = s; rf->acc = a; rf->a = ac;
                for (int k = 0; k < nc; k++)
                    rf->chain[k] = &c->il[chain[nc - 1 - k]];
                rf->ref = (ip_ref){ ac->array, ac->is_write, ac->ndims, ac->index,
                                    ac->nextents, ac->extent, nc, rf->chain };
            }
    }
    c->ref_first[tu->nloops] = c->nrefs;
}

/* Thread loops: the GPU mapping of each outermost nest from the verdicts
 * (OpenMP's own mapping where the nest has one), the rule the runtime's
 * models use (analysis/launch.h).  -1 when out of memory. */
static int map_thread_loops(const ir_tu *tu, par_result *r)
{
    int *roles = malloc(sizeof *roles * (size_t)(tu->nloops + 1));
    if (roles && omp_map_roles(tu, roles) != 0) {
        free(roles);
        roles = NULL;   /* no OpenMP mapping: keel's own choice */
    }
    int *par = malloc(sizeof *par * (size_t)(tu->nloops + 1));
    unsigned char *thr = calloc((size_t)tu->nloops + 1, 1);
    unsigned char *ker = calloc((size_t)tu->nloops + 1, 1);
    if (!par || !thr || !ker) {
        free(par), free(thr), free(ker), free(roles);
        return -1;
    }
    for (int l = 0; l < tu->nloops; l++)
        par[l] = launch_parallel(roles ? roles[l] : 0, r->loops[l].verdict);
    for (int l = 0; l < tu->nloops; l++)
        if (tu->loops[l].parent < 0) {
            int region;
            launch_map(tu, roles, par, l, thr, ker, &region);
        }
    for (int l = 0; l < tu->nloops; l++)
        r->loops[l].thread_loop = thr[l];
    free(par), free(thr), free(ker);
    free(roles);
    return 0;
}

/* The stride of every access under a thread loop along that loop and
 * along its own loop, their classes, and false sharing of writes. */
static void thread_strides(const ctx_t *c, par_result *r)
{
    const ir_tu *tu = c->tu;
    for (int i = 0; i < c->nrefs; i++) {
        const ref_t *rf = &c->refs[i];
        int T = -1;   /* the nearest thread loop around the access */
        for (int k = rf->loop; k >= 0 && T < 0; k = tu->loops[k].parent)
            if (r->loops[k].thread_loop)
                T = k;
        if (T < 0)
            continue;
        char *ivs[64];
        int n = 0;
        for (int k = rf->loop; k >= 0 && n < 64; k = tu->loops[k].parent)
            if (tu->loops[k].iv)
                ivs[n++] = tu->loops[k].iv;
        par_stride *ps = &r->strides[r->nstrides++];
        ps->loop = rf->loop; ps->stmt = rf->stmt; ps->acc = rf->acc; ps->thread_loop = T;
        kx_expr *addr = launch_linearize(rf->a);
        const ir_loop *tl = &tu->loops[T], *il = &tu->loops[rf->loop];
        /* a subscript (or base) the loop changes, such as an index computed
         * in the body (`b = key[i]; if (...) b = ...; h[b]`), is no
         * expression of the iteration: irregular, never uniform */
        ps->stride = tl->canonical && !tainted(tu, T, rf->a) ? ip_stride(addr, tl->iv, tl->step)
                                                             : NULL;
        ps->cls = ip_classify(ps->stride, ivs, n);
        ps->inner_stride = il->canonical && !tainted(tu, rf->loop, rf->a)
                           ? ip_stride(addr, il->iv, il->step) : NULL;
        ps->inner_cls = ip_classify(ps->inner_stride, ivs, n);
        int64_t k;
        if (rf->a->is_write && ps->stride && kx_is_const(ps->stride, &k) && rf->a->elem_size > 0) {
            int64_t bytes = k * rf->a->elem_size;
            ps->false_sharing = bytes != 0 && bytes > -64 && bytes < 64;
        }
        kx_free(addr);
    }
    /* strides follow the refs, in loop pre-order: a thread loop's are
     * those of the loops of its nest, an index range */
    for (int l = 0, from = 0; l < tu->nloops; l++) {
        while (from < r->nstrides && r->strides[from].loop < l)
            from++;
        if (!r->loops[l].thread_loop)
            continue;
        int to = from, end = ir_nest_end(tu, l);
        while (to < r->nstrides && r->strides[to].loop < end)
            to++;
        r->loops[l].coalescing = tu->unordered ? summary(r, l, 0, r->nstrides)
                                               : summary(r, l, from, to);
    }
}

int par_analyze(const ir_tu *tu, par_result **out, char *err, size_t errlen)
{
    *out = NULL;
    for (int l = 0; l < tu->nloops; l++)
        if (tu->loops[l].depth >= PAR_MAX_DEPTH)
            return ku_fail(err, errlen, "%s:%d: loop nested %d deep: dependences not analysed "
                           "beyond depth %d", tu->loops[l].file ? tu->loops[l].file : "?",
                           tu->loops[l].line, tu->loops[l].depth + 1, PAR_MAX_DEPTH);
    par_result *r = calloc(1, sizeof *r);
    ctx_t c = { .tu = tu };
    int nacc = 0;
    for (int l = 0; l < tu->nloops; l++)
        for (int s = 0; s < tu->loops[l].nstmts; s++)
            nacc += tu->loops[l].stmts[s].nacc;
    c.il = calloc((size_t)tu->nloops + 1, sizeof *c.il);
    c.refs = calloc((size_t)nacc + 1, sizeof *c.refs);
    c.ref_first = calloc((size_t)tu->nloops + 1, sizeof *c.ref_first);
    if (r) {
        r->loops = calloc((size_t)tu->nloops + 1, sizeof *r->loops);
        r->strides = calloc((size_t)nacc + 1, sizeof *r->strides);
    }
    if (!r || !c.il || !c.refs || !c.ref_first || !r->loops || !r->strides) {
        free(c.il);
        free(c.refs);
        free(c.ref_first);
        par_free(r);
        return ku_fail(err, errlen, "out of memory");
    }
    r->nloops = tu->nloops;
    int exact_left = EXACT_MAX_QUERIES;
    c.exact_left = &exact_left;
    c.isl = isl_ctx_alloc();
    if (c.isl) {
        isl_options_set_on_error(c.isl, ISL_ON_ERROR_CONTINUE);
        isl_ctx_set_max_operations(c.isl, 200000);
    }
    build_refs(&c);
    assert(c.nrefs == nacc && c.ref_first[tu->nloops] == nacc);
    for (int l = 0; l < tu->nloops; l++)
        verdict(&c, l, &r->loops[l]);
    int rc = map_thread_loops(tu, r);
    if (rc == 0)
        thread_strides(&c, r);
    free(c.il);
    free(c.refs);
    free(c.ref_first);
    if (c.isl)
        isl_ctx_free(c.isl);
    if (rc != 0) {
        par_free(r);
        return ku_fail(err, errlen, "out of memory");
    }
    *out = r;
    return 0;
}

void par_free(par_result *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->nstrides; i++) {
        kx_free(r->strides[i].stride);
        kx_free(r->strides[i].inner_stride);
    }
    for (int l = 0; l < r->nloops && r->loops; l++)
        free(r->loops[l].coalescing);
    free(r->loops);
    free(r->strides);
    free(r);
}
