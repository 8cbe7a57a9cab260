/*
 * recur.c -- recurrences carried by an innermost loop (recur.h says what
 * is found and why): the dependence test on the statement's accesses, a
 * small C expression parser over the statement's text that finds the
 * operations between the carried read and the value stored, the fact text
 * and its reader, and the bound delay / distance.
 *
 * The parser reads what a statement's text can hold (assignments, the
 * conditional operator, binary and unary operators, casts, calls,
 * subscripts, members); a parenthesised name followed by an operand is a
 * cast.  Anything it cannot read leaves the chain without operations.
 */
#define _XOPEN_SOURCE 700   /* strdup */
#include "recur.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

static const char *const op_names[RECUR_NOPS] = { "fadd", "fmul", "fdiv", "iadd", "imul", "idiv" };

const char *recur_op_name(int k)
{
    return k >= 0 && k < RECUR_NOPS ? op_names[k] : "?";
}

/* ---- the statement's text as a tree ------------------------------------- */

enum { N_LEAF, N_ACCESS, N_BIN, N_UNARY, N_CAST, N_CALL, N_COND, N_ASSIGN };

#define MAX_NODES 512
#define MAX_SUBS 8

typedef struct {
    int kind;
    char op[4];           /* N_BIN / N_ASSIGN / N_UNARY: the operator */
    int parent;
    int in_index;         /* inside a subscript (not on the value's path) */
    /* N_ACCESS: name[sub0][sub1]... */
    int name_lo, name_hi;
    int nsubs;
    int sub_lo[MAX_SUBS], sub_hi[MAX_SUBS];
    int lo, hi;           /* text span */
    int lhs;              /* N_ASSIGN: the left operand's node */
} pnode;

typedef struct {
    const char *s;
    int pos, len;
    pnode n[MAX_NODES];
    int nn;
    int bad;
    int index_depth;
} parser;

static void skip_ws(parser *p)
{
    while (p->pos < p->len && isspace((unsigned char)p->s[p->pos]))
        p->pos++;
}

static int is_ident_start(int c) { return isalpha(c) || c == '_'; }
static int is_ident_char(int c) { return isalnum(c) || c == '_'; }

/* Does the text at the cursor start with operator `op` (and not a longer
 * one that shares its prefix)? */
static int at_op(parser *p, const char *op)
{
    skip_ws(p);
    size_t k = strlen(op);
    if ((size_t)(p->len - p->pos) < k || strncmp(p->s + p->pos, op, k) != 0)
        return 0;
    char next = p->pos + (int)k < p->len ? p->s[p->pos + k] : '\0';
    /* "<" is not "<<" or "<=", "+" is not "++" or "+=", "=" is not "==" */
    if (k == 1 && strchr("+-*/%<>&|^=!", op[0]) && (next == '=' || (next == op[0] && op[0] != '!' &&
                                                                      op[0] != '=')))
        return 0;
    if (k == 1 && op[0] == '-' && next == '>')
        return 0;
    if (k == 2 && (op[0] == '<' || op[0] == '>') && op[1] == op[0] && next == '=')
        return 0;
    return 1;
}

static int eat(parser *p, const char *op)
{
    if (!at_op(p, op))
        return 0;
    p->pos += (int)strlen(op);
    return 1;
}

static int new_node(parser *p, int kind, int lo)
{
    if (p->nn >= MAX_NODES) {
        p->bad = 1;
        return -1;
    }
    pnode *x = &p->n[p->nn];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->parent = -1;
    x->lo = lo;
    x->in_index = p->index_depth > 0;
    return p->nn++;
}

static void adopt(parser *p, int parent, int child)
{
    if (parent >= 0 && child >= 0)
        p->n[child].parent = parent;
}

static int parse_expr(parser *p);
static int parse_assign(parser *p);
static int parse_unary(parser *p);

static void skip_ident(parser *p)
{
    while (p->pos < p->len && is_ident_char((unsigned char)p->s[p->pos]))
        p->pos++;
}

/* A number (digits, '.', exponent, suffixes) or a character literal. */
static void skip_number(parser *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (isalnum((unsigned char)c) || c == '.' ||
            ((c == '+' || c == '-') && p->pos > 0 && strchr("eEpP", p->s[p->pos - 1])))
            p->pos++;
        else
            break;
    }
}

/* "(" name words and '*'s ")" followed by an operand: a cast. */
static int looks_like_cast(parser *p)
{
    int q = p->pos;           /* just after '(' */
    int words = 0;
    for (;;) {
        while (q < p->len && isspace((unsigned char)p->s[q]))
            q++;
        if (q < p->len && is_ident_start((unsigned char)p->s[q])) {
            while (q < p->len && is_ident_char((unsigned char)p->s[q]))
                q++;
            words++;
        } else if (q < p->len && p->s[q] == '*') {
            q++;
        } else {
            break;
        }
    }
    if (!words || q >= p->len || p->s[q] != ')')
        return 0;
    q++;
    while (q < p->len && isspace((unsigned char)p->s[q]))
        q++;
    return q < p->len && (is_ident_start((unsigned char)p->s[q]) || isdigit((unsigned char)p->s[q]) ||
                          p->s[q] == '(' || p->s[q] == '.');
}

static int parse_primary(parser *p)
{
    skip_ws(p);
    int lo = p->pos;
    if (p->pos >= p->len) {
        p->bad = 1;
        return -1;
    }
    char c = p->s[p->pos];
    if (c == '(') {
        p->pos++;
        int e = parse_expr(p);
        if (!eat(p, ")"))
            p->bad = 1;
        return e;
    }
    if (is_ident_start((unsigned char)c)) {
        skip_ident(p);
        int x = new_node(p, N_LEAF, lo);
        if (x >= 0)
            p->n[x].name_lo = lo, p->n[x].name_hi = p->pos;
        return x;
    }
    if (isdigit((unsigned char)c) || c == '.') {
        skip_number(p);
        return new_node(p, N_LEAF, lo);
    }
    if (c == '\'' || c == '"') {
        p->pos++;
        while (p->pos < p->len && p->s[p->pos] != c)
            p->pos += p->s[p->pos] == '\\' ? 2 : 1;
        p->pos++;
        return new_node(p, N_LEAF, lo);
    }
    p->bad = 1;
    return -1;
}

static int parse_postfix(parser *p)
{
    int lo = (skip_ws(p), p->pos);
    int x = parse_primary(p);
    while (!p->bad && x >= 0) {
        if (eat(p, "[")) {
            /* a name followed by subscripts is an access */
            if (p->n[x].kind == N_LEAF && p->n[x].name_hi > p->n[x].name_lo)
                p->n[x].kind = N_ACCESS;
            int k = p->n[x].nsubs;
            skip_ws(p);
            int slo = p->pos;
            p->index_depth++;
            parse_expr(p);
            p->index_depth--;
            int shi = p->pos;
            if (!eat(p, "]")) {
                p->bad = 1;
                break;
            }
            if (p->n[x].kind == N_ACCESS && k < MAX_SUBS) {
                p->n[x].sub_lo[k] = slo, p->n[x].sub_hi[k] = shi;
                p->n[x].nsubs = k + 1;
            } else {
                p->n[x].kind = N_LEAF;        /* not a plain access */
            }
        } else if (eat(p, "(")) {
            int call = new_node(p, N_CALL, lo);
            adopt(p, call, x);
            if (!eat(p, ")")) {
                do {
                    adopt(p, call, parse_assign(p));
                } while (!p->bad && eat(p, ","));
                if (!eat(p, ")"))
                    p->bad = 1;
            }
            x = call;
        } else if (eat(p, ".") || eat(p, "->")) {
            skip_ws(p);
            skip_ident(p);
            p->n[x].kind = N_LEAF;            /* a member: not an array element */
        } else if (eat(p, "++") || eat(p, "--")) {
            int u = new_node(p, N_UNARY, lo);
            adopt(p, u, x);
            x = u;
        } else {
            break;
        }
    }
    if (x >= 0)
        p->n[x].hi = p->pos;
    return x;
}

static int parse_unary(parser *p)
{
    skip_ws(p);
    int lo = p->pos;
    static const char *const pre[] = { "++", "--", "-", "+", "!", "~", "*", "&" };
    for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
        if (eat(p, pre[i])) {
            int u = new_node(p, N_UNARY, lo);
            if (u >= 0)
                snprintf(p->n[u].op, sizeof p->n[u].op, "%s", pre[i]);
            adopt(p, u, parse_unary(p));
            if (u >= 0)
                p->n[u].hi = p->pos;
            return u;
        }
    if (p->pos < p->len && p->s[p->pos] == '(') {
        p->pos++;
        if (looks_like_cast(p)) {
            while (p->pos < p->len && p->s[p->pos] != ')')
                p->pos++;
            p->pos++;
            int cst = new_node(p, N_CAST, lo);
            adopt(p, cst, parse_unary(p));
            if (cst >= 0)
                p->n[cst].hi = p->pos;
            return cst;
        }
        p->pos--;
    }
    return parse_postfix(p);
}

/* Binary operators by precedence, loosest first. */
static const char *const bin_ops[][5] = {
    { "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" },
    { "<=", ">=", "<", ">" }, { "<<", ">>" }, { "+", "-" }, { "*", "/", "%" },
};
enum { NLEVELS = sizeof bin_ops / sizeof *bin_ops };

static int parse_binary(parser *p, int level)
{
    if (level >= NLEVELS)
        return parse_unary(p);
    skip_ws(p);
    int lo = p->pos;
    int x = parse_binary(p, level + 1);
    while (!p->bad) {
        const char *hit = NULL;
        for (int i = 0; i < 5 && bin_ops[level][i]; i++)
            if (eat(p, bin_ops[level][i])) {
                hit = bin_ops[level][i];
                break;
            }
        if (!hit)
            break;
        int b = new_node(p, N_BIN, lo);
        if (b < 0)
            break;
        snprintf(p->n[b].op, sizeof p->n[b].op, "%s", hit);
        adopt(p, b, x);
        adopt(p, b, parse_binary(p, level + 1));
        p->n[b].hi = p->pos;
        x = b;
    }
    return x;
}

static int parse_cond(parser *p)
{
    skip_ws(p);
    int lo = p->pos;
    int c = parse_binary(p, 0);
    if (!p->bad && eat(p, "?")) {
        int n = new_node(p, N_COND, lo);
        adopt(p, n, c);
        adopt(p, n, parse_expr(p));
        if (!eat(p, ":"))
            p->bad = 1;
        adopt(p, n, parse_cond(p));
        if (n >= 0)
            p->n[n].hi = p->pos;
        return n;
    }
    return c;
}

static int parse_assign(parser *p)
{
    skip_ws(p);
    int lo = p->pos;
    int l = parse_cond(p);
    static const char *const aops[] = { "<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
                                        "^=", "=" };
    for (size_t i = 0; !p->bad && i < sizeof aops / sizeof *aops; i++)
        if (eat(p, aops[i])) {
            int a = new_node(p, N_ASSIGN, lo);
            if (a < 0)
                return -1;
            snprintf(p->n[a].op, sizeof p->n[a].op, "%s", aops[i]);
            p->n[a].lhs = l;
            adopt(p, a, l);
            adopt(p, a, parse_assign(p));
            p->n[a].hi = p->pos;
            return a;
        }
    return l;
}

static int parse_expr(parser *p)
{
    int x = parse_assign(p);
    while (!p->bad && eat(p, ",")) {
        int y = parse_assign(p);
        (void)y;
        x = -1;               /* a comma expression: no single value */
    }
    return x;
}

/* ---- matching an access to the text -------------------------------------- */

static kx_expr *parse_span(const parser *p, int lo, int hi)
{
    char buf[256], e[64];
    int n = hi - lo;
    if (n <= 0 || n >= (int)sizeof buf)
        return NULL;
    memcpy(buf, p->s + lo, (size_t)n);
    buf[n] = '\0';
    return kx_parse(buf, e, sizeof e);
}

/* Does access node x name a and its subscripts equal a's? */
static int node_is(const parser *p, int x, const ir_access *a)
{
    const pnode *n = &p->n[x];
    if (n->kind != N_ACCESS || n->in_index || n->nsubs != a->ndims ||
        (size_t)(n->name_hi - n->name_lo) != strlen(a->array) ||
        strncmp(p->s + n->name_lo, a->array, (size_t)(n->name_hi - n->name_lo)) != 0)
        return 0;
    for (int k = 0; k < a->ndims; k++) {
        kx_expr *e = parse_span(p, n->sub_lo[k], n->sub_hi[k]);
        int eq = e && a->index[k] && kx_equal(e, a->index[k]);
        kx_free(e);
        if (!eq)
            return 0;
    }
    return 1;
}

static int is_float_stmt(const ir_stmt *st)
{
    return st->ops.fadd + st->ops.fmul + st->ops.fdiv + st->ops.ffma + st->ops.fmath > 0;
}

/* Count operator op (binary, or the compound assignment's) into ops. */
static void count_op(const char *op, int fl, int *ops)
{
    if (!strcmp(op, "+") || !strcmp(op, "-") || !strcmp(op, "+=") || !strcmp(op, "-="))
        ops[fl ? RECUR_FADD : RECUR_IADD]++;
    else if (!strcmp(op, "*") || !strcmp(op, "*="))
        ops[fl ? RECUR_FMUL : RECUR_IMUL]++;
    else if (!strcmp(op, "/") || !strcmp(op, "/="))
        ops[fl ? RECUR_FDIV : RECUR_IDIV]++;
    else if (!strcmp(op, "%") || !strcmp(op, "%="))
        ops[RECUR_IDIV]++;
    else if (strcmp(op, "=") != 0 && strcmp(op, "&&") != 0 && strcmp(op, "||") != 0)
        ops[RECUR_IADD]++;  /* comparison, shift, bit operation: one integer ALU cycle */
}

/* The operations from read node x up to the value assignment `root`
 * stores (x below its right operand, or x its left one read by a compound
 * assignment). */
static void path_ops(const parser *p, int x, int root, int fl, int *ops)
{
    const pnode *r = &p->n[root];
    if (x == r->lhs) {
        count_op(r->op, fl, ops);
        return;
    }
    for (int up = p->n[x].parent; up >= 0 && up != root; up = p->n[up].parent)
        if (p->n[up].kind == N_BIN)
            count_op(p->n[up].op, fl, ops);
    if (strcmp(r->op, "=") != 0)
        count_op(r->op, fl, ops);
}

/* ---- the dependence test -------------------------------------------------- */

/* Distance in iterations of loop (iv, step) from write w to read r of the
 * same array: the smallest d in 1..16 with r(iv + d*step) == w(iv) in
 * every subscript; -1 for an accumulator (equal subscripts that do not
 * mention iv); 0 when neither. */
static int distance(const ir_access *w, const ir_access *r, const char *iv, int64_t step)
{
    if (w->ndims != r->ndims || w->ndims <= 0)
        return 0;
    int same = 1, moves = 0;
    for (int k = 0; k < w->ndims; k++) {
        if (!w->index[k] || !r->index[k])
            return 0;
        same &= kx_equal(w->index[k], r->index[k]);
        moves |= kx_mentions(w->index[k], iv);
    }
    if (same)
        return moves ? 0 : -1;
    kx_expr *v = kx_sym(iv);
    for (int d = 1; d <= 16 && v; d++) {
        kx_expr *sh = kx_int(d * step);
        kx_expr *at = sh ? kx_add(v, sh) : NULL;
        int all = at != NULL;
        for (int k = 0; k < w->ndims && all; k++) {
            kx_expr *e = kx_subst(r->index[k], iv, at);
            all = e && kx_equal(e, w->index[k]);
            kx_free(e);
        }
        kx_free(sh);
        kx_free(at);
        if (all) {
            kx_free(v);
            return d;
        }
    }
    kx_free(v);
    return 0;
}

/* Does loop lp store anywhere that may be w's element, but through
 * another write than w's own (same array, same subscripts)?  Distinct
 * array objects never overlap; anything else may.  Only then must the
 * compiler load the accumulator again after the store: with no such store
 * between, the value stored is forwarded in a register (loads do not
 * clobber it) and llvm-mca sees that chain itself. */
static int other_store(const ir_loop *lp, const ir_access *w)
{
    for (int s = 0; s < lp->nstmts; s++)
        for (int a = 0; a < lp->stmts[s].nacc; a++) {
            const ir_access *o = &lp->stmts[s].acc[a];
            if (!o->is_write || o == w)
                continue;
            int same_array = !strcmp(o->array, w->array);
            if (!same_array && o->base == IR_BASE_ARRAY && w->base == IR_BASE_ARRAY)
                continue;
            int same = same_array && o->ndims == w->ndims;
            for (int k = 0; same && k < w->ndims; k++)
                same = o->index[k] && w->index[k] && kx_equal(o->index[k], w->index[k]);
            if (!same)
                return 1;
        }
    return 0;
}

/* Append "text" to *buf (grown); 0 or -1. */
static int append(char **buf, size_t *len, size_t *cap, const char *text)
{
    size_t k = strlen(text);
    if (*len + k + 1 > *cap) {
        size_t nc = (*len + k + 1) * 2;
        char *nb = realloc(*buf, nc);
        if (!nb)
            return -1;
        *buf = nb, *cap = nc;
    }
    memcpy(*buf + *len, text, k + 1);
    *len += k;
    return 0;
}

/* The access's text without blanks, e.g. "A[i][j-1]". */
static void access_text(const parser *p, int x, char *out, size_t outlen)
{
    size_t o = 0;
    for (int i = p->n[x].lo; i < p->n[x].hi && o + 1 < outlen; i++)
        if (!isspace((unsigned char)p->s[i]) && p->s[i] != ';')
            out[o++] = p->s[i];
    out[o] = '\0';
}

/* Append chain c from read text rt to write text wt to the fact in *buf
 * (one chain per (read, write) text: `A[i] += A[i]` once).  0 or -1. */
static int emit(char **buf, size_t *len, size_t *cap, int *nchains, const char *rt,
                const char *wt, const recur_chain *c)
{
    char one[320];
    int n = snprintf(one, sizeof one, "%s%s->%s dist=%d", *nchains ? "; " : "", rt, wt, c->dist);
    for (int k = 0; k < RECUR_NOPS && n < (int)sizeof one; k++)
        if (c->ops[k])
            n += snprintf(one + n, sizeof one - (size_t)n, " %s=%d", op_names[k], c->ops[k]);
    if (c->mem && n < (int)sizeof one)
        snprintf(one + n, sizeof one - (size_t)n, " mem");
    if (*buf && strstr(*buf, one + (*nchains ? 2 : 0)))
        return 0;
    if (append(buf, len, cap, one))
        return -1;
    (*nchains)++;
    return 0;
}

/* Parse statement text into p; the assignment's node, or -1. */
static int parse_stmt(parser *p, const char *text)
{
    memset(p, 0, sizeof *p);
    p->s = text;
    p->len = (int)strlen(text);
    int root = parse_expr(p);
    skip_ws(p);
    if (p->bad || p->pos < p->len || root < 0 || p->n[root].kind != N_ASSIGN)
        return -1;
    return root;
}

/* Is node x the plain name v (a scalar, not inside a subscript)? */
static int leaf_is(const parser *p, int x, const char *v)
{
    const pnode *n = &p->n[x];
    return n->kind == N_LEAF && !n->in_index && n->nsubs == 0 && n->name_hi > n->name_lo &&
           (size_t)(n->name_hi - n->name_lo) == strlen(v) &&
           !strncmp(p->s + n->name_lo, v, strlen(v));
}

/* Does statement s of lp both read and write scalar v, and no other
 * statement of lp name v?  Then v is an accumulator whose chain
 * recur_loop_fact reads from s's text. */
static int scalar_accumulator(const ir_loop *lp, int s, const char *v)
{
    int rd = 0, wr = 0;
    for (int t = 0; t < lp->nstmts; t++)
        for (int k = 0; k < lp->stmts[t].nscalars; k++) {
            const ir_scalar *x = &lp->stmts[t].scalars[k];
            if (strcmp(x->name, v) != 0)
                continue;
            if (t != s)
                return 0;
            rd |= !x->is_write, wr |= x->is_write;
        }
    return rd && wr;
}

/* Is every chain loop lp carries one recur_loop_fact finds?  Every
 * statement unconditional and with no call, no scalar written (a scalar
 * may carry a chain in a register), and every array the loop writes read
 * only by the statement that writes it (no chain between statements). */
static int complete(const ir_loop *lp)
{
    for (int s = 0; s < lp->nstmts; s++) {
        const ir_stmt *st = &lp->stmts[s];
        if (st->conditional || st->ncalls > 0)
            return 0;
        for (int v = 0; v < st->nscalars; v++)
            if (st->scalars[v].is_write && !scalar_accumulator(lp, s, st->scalars[v].name))
                return 0;
        for (int a = 0; a < st->nacc; a++) {
            if (!st->acc[a].is_write)
                continue;
            for (int t = 0; t < lp->nstmts; t++)
                for (int b = 0; t != s && b < lp->stmts[t].nacc; b++)
                    if (!strcmp(lp->stmts[t].acc[b].array, st->acc[a].array))
                        return 0;
        }
    }
    return 1;
}

/* The fact text buf (len bytes, nchains chains) with " all" after every
 * chain; buf is freed; NULL when out of memory. */
static char *mark_all(char *buf, size_t len, int nchains)
{
    char *out = malloc(len + 5 * (size_t)nchains + 1);
    if (!out) {
        free(buf);
        return NULL;
    }
    size_t o = 0;
    for (const char *q = buf;; q++) {
        if (*q == ';' || !*q) {
            memcpy(out + o, " all", 4);
            o += 4;
        }
        if (!*q)
            break;
        out[o++] = *q;
    }
    out[o] = '\0';
    free(buf);
    return out;
}

char *recur_loop_fact(const ir_tu *tu, int l, int *oom)
{
    *oom = 0;
    if (l < 0 || l >= tu->nloops)
        return NULL;
    const ir_loop *lp = &tu->loops[l];
    if (lp->kind != IR_FOR || !lp->canonical || !lp->iv || lp->step == 0)
        return NULL;
    for (int k = 0; k < tu->nloops; k++)
        if (tu->loops[k].parent == l)
            return NULL;                       /* not innermost */
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int nchains = 0, dropped = 0;
    parser *p = malloc(sizeof *p);
    if (!p) {
        *oom = 1;
        return NULL;
    }
    for (int s = 0; s < lp->nstmts && nchains < RECUR_MAX_CHAINS; s++) {
        const ir_stmt *st = &lp->stmts[s];
        if (st->conditional || !st->text)
            continue;
        int parsed = 0, root = -1;
        for (int wi = 0; wi < st->nacc; wi++) {
            const ir_access *w = &st->acc[wi];
            if (!w->is_write)
                continue;
            for (int ri = 0; ri < st->nacc && nchains < RECUR_MAX_CHAINS; ri++) {
                const ir_access *r = &st->acc[ri];
                if (r->is_write || strcmp(r->array, w->array) != 0)
                    continue;
                int d = distance(w, r, lp->iv, lp->step);
                if (d == 0)
                    continue;
                if (!parsed)
                    root = parse_stmt(p, st->text), parsed = 1;
                recur_chain c = { .dist = d < 0 ? 1 : d, .mem = d < 0 && other_store(lp, w) };
                char rt[96] = "?", wt[96] = "?";
                /* the read and the write in the text: the read's first
                 * occurrence on the value's path; the write the
                 * assignment's left operand */
                int found = 0;
                if (root >= 0 && node_is(p, p->n[root].lhs, w)) {
                    access_text(p, p->n[root].lhs, wt, sizeof wt);
                    for (int x = 0; x < p->nn && !found; x++) {
                        if (!node_is(p, x, r))
                            continue;
                        if (x == p->n[root].lhs && !strcmp(p->n[root].op, "="))
                            continue;
                        path_ops(p, x, root, is_float_stmt(st), c.ops);
                        access_text(p, x, rt, sizeof rt);
                        found = 1;
                    }
                }
                int any = c.mem;
                for (int k = 0; k < RECUR_NOPS; k++)
                    any |= c.ops[k] > 0;
                if (!found || !any) {
                    dropped = 1;               /* nothing known on the path */
                    continue;
                }
                if (emit(&buf, &len, &cap, &nchains, rt, wt, &c)) {
                    *oom = 1;
                    free(p);
                    free(buf);
                    return NULL;
                }
            }
        }
        /* scalar accumulators: w -= A[i][k] * A[k][j] (in a register) */
        for (int v = 0; v < st->nscalars && nchains < RECUR_MAX_CHAINS; v++) {
            const char *name = st->scalars[v].name;
            if (!st->scalars[v].is_write || !scalar_accumulator(lp, s, name))
                continue;
            if (!parsed)
                root = parse_stmt(p, st->text), parsed = 1;
            recur_chain c = { .dist = 1 };
            int found = 0;
            if (root >= 0 && leaf_is(p, p->n[root].lhs, name))
                for (int x = 0; x < p->nn && !found; x++) {
                    if (!leaf_is(p, x, name) ||
                        (x == p->n[root].lhs && !strcmp(p->n[root].op, "=")))
                        continue;
                    path_ops(p, x, root, is_float_stmt(st), c.ops);
                    found = 1;
                }
            int any = 0;
            for (int k = 0; k < RECUR_NOPS; k++)
                any |= c.ops[k] > 0;
            if (!found || !any) {
                dropped = 1;
                continue;
            }
            if (emit(&buf, &len, &cap, &nchains, name, name, &c)) {
                *oom = 1;
                free(p);
                free(buf);
                return NULL;
            }
        }
    }
    free(p);
    /* every chain found: each says so */
    if (buf && !dropped && nchains < RECUR_MAX_CHAINS && complete(lp) &&
        !(buf = mark_all(buf, len, nchains)))
        *oom = 1;
    return buf;
}
