/*
 * callee.c -- the cost of the functions a loop nest calls (see callee.h):
 * the callee's loops from the IR, its trip counts evaluated with its
 * parameters bound to the call's argument values, its calls followed
 * (a few levels deep), the calls it makes outside its loops found in its
 * source text.  Unknown whenever any of that is not a number.
 */
#include "callee.h"

#include "sync.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALLEE_MAX_DEPTH 8
#define CALLEE_MAX_CALLS 256    /* callees costed for one statement, nested ones included */

/* What a trip count or an argument may be evaluated over: the loop
 * variables of the loops around the point (at the middle of their range)
 * and the parameters of the function being costed. */
typedef struct {
    const ir_tu *tu;
    int loop;              /* innermost loop around the point, -1: none */
    int np;
    char **pnames;         /* parameter names (NULL entries: unnamed) */
    const int64_t *pvals;
    const unsigned char *pknown;
    int depth;
    int *budget;           /* callees still allowed for this statement */
} env_t;

static int iv_value(const env_t *e, int l, int64_t *v);

static int lookup(void *vctx, const char *name, int64_t *value)
{
    const env_t *e = vctx;
    for (int l = e->loop; l >= 0; l = e->tu->loops[l].parent)
        if (e->tu->loops[l].iv && strcmp(e->tu->loops[l].iv, name) == 0)
            return iv_value(e, l, value) == 0;
    for (int p = 0; p < e->np; p++)
        if (e->pnames[p] && strcmp(e->pnames[p], name) == 0) {
            if (!e->pknown[p])
                return 0;
            *value = e->pvals[p];
            return 1;
        }
    return 0;
}

/* Loop l's trip count in env e (loops outside l bound), clamped at 0. */
static int trip_value(const env_t *e, int l, int64_t *t)
{
    const ir_loop *L = &e->tu->loops[l];
    env_t outer = *e;
    outer.loop = L->parent;
    char err[128];
    if (!L->trip || kx_eval(L->trip, lookup, &outer, t, err, sizeof err) != 0)
        return -1;
    if (*t < 0)
        *t = 0;
    return 0;
}

/* The runtime's convention (runtime/facts.c): lower + step * ((trip-1)/2). */
static int iv_value(const env_t *e, int l, int64_t *v)
{
    const ir_loop *L = &e->tu->loops[l];
    env_t outer = *e;
    outer.loop = L->parent;
    int64_t t, lo;
    char err[128];
    if (!L->lower || kx_eval(L->lower, lookup, &outer, &lo, err, sizeof err) != 0
        || trip_value(e, l, &t) != 0)
        return -1;
    *v = lo + (L->step ? L->step : 1) * (t > 0 ? (t - 1) / 2 : 0);
    return 0;
}

/* A reason, truncated to whylen (nested reasons may be long). */
static void say(char *why, size_t whylen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
}

/* The reason of an unknown call made inside a callee: the innermost
 * unknown call says why ("it calls ext (line 14): not defined in this
 * source"), the calls around it are not repeated. */
static void nested_why(char *why, size_t whylen, const char *name, int line, const char *inner)
{
    if (strncmp(inner, "it calls ", 9) == 0)
        say(why, whylen, "%s", inner);
    else
        say(why, whylen, "it calls %s (line %d): %s", name, line, inner);
}

static int is_ident(int c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* Skip a string or character literal starting at s[i] (a quote); returns
 * the index after it. */
static size_t skip_literal(const char *s, size_t i, size_t n)
{
    char q = s[i++];
    while (i < n && s[i] != q) {
        if (s[i] == '\\' && i + 1 < n)
            i++;
        i++;
    }
    return i < n ? i + 1 : n;
}

/* Skip a comment at s[i] ("//" or "/ *"); returns i when there is none. */
static size_t skip_comment(const char *s, size_t i, size_t n)
{
    if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
        while (i < n && s[i] != '\n')
            i++;
        return i;
    }
    if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
        const char *e = strstr(s + i + 2, "*/");
        return e ? (size_t)(e - s) + 2 : n;
    }
    return i;
}

/* The argument list starting at s[open] == '(': the argument texts
 * (malloc'd) split at top-level commas, and the index after ')'. */
static int split_args(const char *s, size_t n, size_t open, char ***out, int *nout,
                      size_t *end)
{
    int depth = 0, na = 0;
    char **v = NULL;
    size_t start = open + 1, i = open;
    *out = NULL;
    *nout = 0;
    for (; i < n; i++) {
        size_t j = skip_comment(s, i, n);
        if (j != i) {
            i = j - 1;
            continue;
        }
        char c = s[i];
        if (c == '"' || c == '\'') {
            i = skip_literal(s, i, n) - 1;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        if ((c == ',' && depth == 1) || depth == 0) {
            size_t a = start, b = i;
            while (a < b && isspace((unsigned char)s[a]))
                a++;
            while (b > a && isspace((unsigned char)s[b - 1]))
                b--;
            if (b > a || na > 0 || c == ',') {
                char **nv = realloc(v, (size_t)(na + 1) * sizeof *v);
                char *t = nv ? malloc(b - a + 1) : NULL;
                if (!t) {
                    if (nv)
                        v = nv;
                    for (int k = 0; k < na; k++)
                        free(v[k]);
                    free(v);
                    return -1;
                }
                v = nv;
                memcpy(t, s + a, b - a);
                t[b - a] = '\0';
                v[na++] = t;
            }
            start = i + 1;
            if (depth == 0)
                break;
        }
    }
    *out = v;
    *nout = na;
    *end = i < n ? i + 1 : n;
    return 0;
}

static void free_args(char **v, int n)
{
    for (int k = 0; k < n; k++)
        free(v[k]);
    free(v);
}

/* The `which`-th call of `name` in text: its argument texts.  1 found,
 * 0 not found, -1 out of memory. */
static int call_args(const char *text, const char *name, int which, char ***args, int *nargs)
{
    size_t n = strlen(text), len = strlen(name);
    int seen = 0;
    for (size_t i = 0; i + len <= n; i++) {
        size_t j = skip_comment(text, i, n);
        if (j != i) {
            i = j - 1;
            continue;
        }
        if (text[i] == '"' || text[i] == '\'') {
            i = skip_literal(text, i, n) - 1;
            continue;
        }
        if ((i > 0 && is_ident(text[i - 1])) || strncmp(text + i, name, len) != 0
            || is_ident(text[i + len]))
            continue;
        size_t k = i + len;
        while (k < n && isspace((unsigned char)text[k]))
            k++;
        if (k >= n || text[k] != '(')
            continue;
        if (seen++ < which)
            continue;
        size_t end;
        return split_args(text, n, k, args, nargs, &end) < 0 ? -1 : 1;
    }
    return 0;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (n < cap)
            break;
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = n;
    }
    return buf;
}

static size_t offset_of(const char *s, size_t n, int line, int col)
{
    size_t i = 0;
    for (int l = 1; l < line && i < n; i++)
        if (s[i] == '\n')
            l++;
    return i + (size_t)(col > 0 ? col - 1 : 0) <= n ? i + (size_t)(col > 0 ? col - 1 : 0) : n;
}

/* The name a parameter declaration declares: the last identifier outside
 * array brackets, unless the declaration is only a type (`int`, `void`,
 * `double *`): then NULL. */
static char *param_name(const char *p)
{
    static const char *const types[] = {
        "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
        "_Bool", "const", "volatile", "restrict", "__restrict", "__restrict__", "struct",
        "union", "enum", "register", "_Complex", NULL
    };
    size_t n = strlen(p), end = n;
    int depth = 0;
    for (size_t i = 0; i < n; i++) {       /* cut array brackets and a (*f)(...)'s list */
        if (p[i] == '[' && depth == 0) {
            end = i;
            break;
        }
        depth += p[i] == '(';
        depth -= p[i] == ')';
    }
    size_t b = end;
    while (b > 0 && !is_ident(p[b - 1]))
        b--;
    if (b == 0)
        return NULL;
    size_t a = b;
    while (a > 0 && is_ident(p[a - 1]))
        a--;
    if (isdigit((unsigned char)p[a]))
        return NULL;
    char *name = malloc(b - a + 1);
    if (!name)
        return NULL;
    memcpy(name, p + a, b - a);
    name[b - a] = '\0';
    for (int t = 0; types[t]; t++)
        if (strcmp(name, types[t]) == 0) {
            free(name);
            return NULL;
        }
    return name;
}

/* Function f's source, its parameter names and the span of its body.
 * 0, or 1 when the definition could not be read. */
typedef struct {
    char *src;
    size_t n;
    int np;
    char **pnames;
    size_t body, body_end;   /* '{' .. one past '}' */
} func_text;

static void func_text_free(func_text *t)
{
    free(t->src);
    free_args(t->pnames, t->np);
    memset(t, 0, sizeof *t);
}

static int read_func(const ir_tu *tu, int f, func_text *t)
{
    memset(t, 0, sizeof *t);
    const ir_function *F = &tu->funcs[f];
    t->src = read_file(F->file, &t->n);
    if (!t->src)
        return 1;
    size_t i = offset_of(t->src, t->n, F->line, F->col), len = strlen(F->name);
    if (strncmp(t->src + i, F->name, len) != 0)
        return 1;
    i += len;
    while (i < t->n && isspace((unsigned char)t->src[i]))
        i++;
    if (i >= t->n || t->src[i] != '(')
        return 1;
    char **ps;
    int np;
    size_t end;
    if (split_args(t->src, t->n, i, &ps, &np, &end) < 0)
        return -1;
    t->pnames = ps;     /* reuse the array: each text becomes its name */
    t->np = np;
    for (int k = 0; k < np; k++) {
        char *name = param_name(ps[k]);
        free(ps[k]);
        ps[k] = name;
    }
    if (np == 1 && !ps[0]) {        /* (void) */
        free(ps[0]);
        t->np = 0;
    }
    i = end;
    while (i < t->n && t->src[i] != '{')
        i++;
    if (i >= t->n)
        return 1;
    t->body = i;
    int depth = 0;
    for (; i < t->n; i++) {
        size_t j = skip_comment(t->src, i, t->n);
        if (j != i) {
            i = j - 1;
            continue;
        }
        char c = t->src[i];
        if (c == '"' || c == '\'') {
            i = skip_literal(t->src, i, t->n) - 1;
            continue;
        }
        if (c == '{')
            depth++;
        else if (c == '}' && --depth == 0)
            break;
    }
    t->body_end = i < t->n ? i + 1 : t->n;
    return 0;
}

static int find_function(const ir_tu *tu, const char *name)
{
    for (int f = 0; f < tu->nfuncs; f++)
        if (tu->funcs[f].name && strcmp(tu->funcs[f].name, name) == 0)
            return f;
    return -1;
}

static void cost_add(launch_cost *a, const launch_cost *b, double times)
{
    a->cycles += times * b->cycles;
    a->gpu_insts += times * b->gpu_insts;
    a->flops += times * b->flops;
}

static int call_cost(const ir_tu *tu, const char *name, int nargs, char *const *args,
                     const env_t *at, int depth, launch_cost *out, char *why, size_t whylen);

/* The calls of one statement, evaluated in env e. */
static int stmt_calls(const ir_tu *tu, const ir_stmt *st, const env_t *e, launch_cost *add,
                      char *why, size_t whylen)
{
    memset(add, 0, sizeof *add);
    for (int c = 0; c < st->ncalls; c++) {
        const char *name = st->calls[c];
        if (sync_call_harmless(name))
            continue;
        int which = 0;
        for (int d = 0; d < c; d++)
            which += strcmp(st->calls[d], name) == 0;
        char **args = NULL;
        int nargs = 0;
        int found = st->text ? call_args(st->text, name, which, &args, &nargs) : 0;
        if (found < 0)
            return -1;
        launch_cost one;
        char inner[256];
        int rc = call_cost(tu, name, found ? nargs : -1, args, e, e->depth + 1, &one, inner,
                           sizeof inner);
        free_args(args, nargs);
        if (rc != 0) {
            if (rc > 0 && e->depth == 0)
                say(why, whylen, "cost of callee %s (line %d) unknown: %s", name, st->line,
                    inner);
            else if (rc > 0)        /* the innermost call that is unknown says why */
                nested_why(why, whylen, name, st->line, inner);
            return rc;
        }
        cost_add(add, &one, 1);
    }
    return 0;
}

static const char *const keywords[] = {
    "if", "for", "while", "switch", "return", "sizeof", "_Alignof", "alignof", "_Generic",
    "do", "else", "case", "__attribute__", "__typeof__", "typeof", "_Static_assert",
    "static_assert", "__asm__", "asm", "__extension__", "void", "char", "short", "int",
    "long", "float", "double", "signed", "unsigned", "_Bool", "defined", NULL
};

/* Is `name` a function-like macro defined in src (`#define name(`)? */
static int is_macro(const char *src, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = strstr(src, "#"); p; p = strstr(p + 1, "#")) {
        const char *q = p + 1;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, "define", 6) != 0)
            continue;
        q += 6;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, name, len) == 0 && q[len] == '(')
            return 1;
    }
    return 0;
}

/* The calls function f makes outside its loops, from its source text:
 * each costed once per call of f. */
static int outside_calls(const ir_tu *tu, int f, const func_text *t, const env_t *e,
                         launch_cost *add, char *why, size_t whylen)
{
    const char *s = t->src;
    int line = 1;
    for (size_t k = 0; k < t->body; k++)
        line += s[k] == '\n';
    int bol = 0;
    for (size_t i = t->body; i < t->body_end; i++) {
        if (s[i] == '\n') {
            line++;
            bol = 1;
            continue;
        }
        if (bol && s[i] == '#') {          /* a preprocessor line */
            while (i < t->body_end && !(s[i] == '\n' && s[i - 1] != '\\'))
                i++;
            i--;
            continue;
        }
        if (!isspace((unsigned char)s[i]))
            bol = 0;
        size_t j = skip_comment(s, i, t->body_end);
        if (j != i) {
            for (size_t k = i; k < j; k++)
                line += s[k] == '\n';
            i = j - 1;
            continue;
        }
        if (s[i] == '"' || s[i] == '\'') {
            i = skip_literal(s, i, t->body_end) - 1;
            continue;
        }
        if (!is_ident(s[i]) || (i > 0 && is_ident(s[i - 1])) || isdigit((unsigned char)s[i]))
            continue;
        size_t b = i;
        while (b < t->body_end && is_ident(s[b]))
            b++;
        size_t k = b;
        while (k < t->body_end && isspace((unsigned char)s[k]))
            k++;
        if (k >= t->body_end || s[k] != '(') {
            i = b - 1;
            continue;
        }
        int in_loop = 0;
        for (int l = 0; l < tu->nloops; l++)
            if (tu->loops[l].function == f && tu->loops[l].offset >= 0
                && (size_t)tu->loops[l].offset <= i && i < (size_t)tu->loops[l].end_offset)
                in_loop = 1;
        char name[128];
        size_t len = b - i < sizeof name ? b - i : sizeof name - 1;
        memcpy(name, s + i, len);
        name[len] = '\0';
        i = b - 1;
        int skip = in_loop || sync_call_harmless(name) || is_macro(s, name);
        for (int w = 0; keywords[w] && !skip; w++)
            skip = strcmp(name, keywords[w]) == 0;
        if (skip)
            continue;
        char **args;
        int nargs;
        size_t end;
        if (split_args(s, t->body_end, k, &args, &nargs, &end) < 0)
            return -1;
        launch_cost one;
        char inner[256];
        env_t top = *e;
        top.loop = -1;
        int rc = call_cost(tu, name, nargs, args, &top, e->depth + 1, &one, inner, sizeof inner);
        free_args(args, nargs);
        if (rc != 0) {
            if (rc > 0)
                nested_why(why, whylen, name, line, inner);
            return rc;
        }
        cost_add(add, &one, 1);
    }
    return 0;
}

/* Cost of one call of `name`; nargs -1: arguments not found.  `at` is the
 * environment of the call site (its arguments are evaluated there). */
static int call_cost(const ir_tu *tu, const char *name, int nargs, char *const *args,
                     const env_t *at, int depth, launch_cost *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof *out);
    if (sync_call_harmless(name))
        return 0;
    int f = find_function(tu, name);
    if (f < 0) {
        snprintf(why, whylen, "not defined in this source");
        return 1;
    }
    if (at->budget && --*at->budget < 0) {
        say(why, whylen, "more than %d nested calls to cost", CALLEE_MAX_CALLS);
        return 1;
    }
    if (depth > CALLEE_MAX_DEPTH) {
        snprintf(why, whylen, "calls nested deeper than %d (recursion?)", CALLEE_MAX_DEPTH);
        return 1;
    }
    func_text t;
    int rc = read_func(tu, f, &t);
    if (rc != 0) {
        func_text_free(&t);
        if (rc > 0)
            snprintf(why, whylen, "its definition could not be read");
        return rc;
    }
    /* the parameters' values at the call */
    int64_t *pv = calloc((size_t)t.np + 1, sizeof *pv);
    unsigned char *pk = calloc((size_t)t.np + 1, 1);
    if (!pv || !pk) {
        free(pv);
        free(pk);
        func_text_free(&t);
        return -1;
    }
    for (int p = 0; p < t.np && p < nargs; p++) {
        char err[128];
        kx_expr *x = args[p] ? kx_parse(args[p], err, sizeof err) : NULL;
        if (x && kx_eval(x, lookup, (void *)at, &pv[p], err, sizeof err) == 0)
            pk[p] = 1;
        kx_free(x);
    }
    env_t e = { tu, -1, t.np, t.pnames, pv, pk, depth, at->budget };
    rc = 0;
    for (int l = 0; l < tu->nloops && rc == 0; l++) {
        if (tu->loops[l].function != f)
            continue;
        e.loop = l;
        /* iterations of l per call: the trips of l and of its loops */
        double iters = 1;
        for (int k = l; k >= 0 && rc == 0; k = tu->loops[k].parent) {
            int64_t tk;
            if (trip_value(&e, k, &tk) != 0) {
                const ir_loop *K = &tu->loops[k];
                char *tt = K->trip ? kx_print(K->trip) : NULL;
                if (K->trip && !tt)
                    rc = -1;
                else if (tt)
                    snprintf(why, whylen, "the trip count of its loop at line %d, %s, is "
                             "not a constant at the call", K->line, tt);
                else
                    snprintf(why, whylen, "its loop at line %d has no trip count", K->line);
                free(tt);
                if (rc == 0)
                    rc = 1;
                break;
            }
            iters *= (double)tk;
        }
        if (rc != 0)
            break;
        launch_cost lc = { 1.0, 2.0, 0.0 };     /* loop control: add, compare, branch */
        for (int s = 0; s < tu->loops[l].nstmts && rc == 0; s++) {
            const ir_stmt *st = &tu->loops[l].stmts[s];
            launch_cost sc = launch_stmt_cost(st), cc;
            rc = stmt_calls(tu, st, &e, &cc, why, whylen);
            cost_add(&sc, &cc, 1);
            cost_add(&lc, &sc, st->conditional ? 0.5 : 1.0);
        }
        cost_add(out, &lc, iters);
    }
    if (rc == 0) {
        launch_cost oc;
        e.loop = -1;
        memset(&oc, 0, sizeof oc);
        rc = outside_calls(tu, f, &t, &e, &oc, why, whylen);
        cost_add(out, &oc, 1);
    }
    if (rc != 0)
        memset(out, 0, sizeof *out);
    free(pv);
    free(pk);
    func_text_free(&t);
    return rc;
}

int callee_call_cost(const ir_tu *tu, const char *name, int nargs, const char *const *args,
                     launch_cost *out, char *why, size_t whylen)
{
    int budget = CALLEE_MAX_CALLS;
    env_t top = { tu, -1, 0, NULL, NULL, NULL, 0, &budget };
    char inner[256];
    int rc = call_cost(tu, name, nargs, (char *const *)args, &top, 1, out, inner, sizeof inner);
    if (rc > 0)
        say(why, whylen, "cost of callee %s unknown: %s", name, inner);
    return rc;
}

int callee_stmt_cost(const ir_tu *tu, int loop, int stmt, launch_cost *add, char *why,
                     size_t whylen)
{
    const ir_stmt *st = &tu->loops[loop].stmts[stmt];
    int budget = CALLEE_MAX_CALLS;
    env_t e = { tu, loop, 0, NULL, NULL, NULL, 0, &budget };
    int rc = stmt_calls(tu, st, &e, add, why, whylen);
    if (rc != 0)
        memset(add, 0, sizeof *add);
    return rc;
}
