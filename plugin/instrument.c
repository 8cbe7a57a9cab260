/*
 * instrument.c -- insert libkeelrt decision calls into a C source (text built
 * with util's ku_buf, insertions in a ku_push array).
 *
 * keel's text adds no line above the first (clang's -Wempty-body compares
 * a statement's presumed line with the physical line of its `;`, so every
 * line of the user's must keep its physical number) and, wherever it can,
 * moves no byte of the user's to another line or column.  Each
 * instrumented nest becomes
 *
 *     x = 1; keel_l_0: __attribute__((unused))
 *       { struct keel_site {...};
 *         __extension__ int keel_decide_report__0(void *, ...) __asm__("keel_decide_report");
 *         static struct { struct keel_site s; char t0[28]; ... } keel_site_0 =
 *             { { 0, 0, 42, 5, { -4 }, 0, 0 }, "/abs/gemm.c#h=HASH", "ni", ..., "db" };
 *         ...call...
 *     #pragma omp parallel for
 *         for (...) ...; }
 *
 * (the opening all on one line).  keel's text raises no warning of its own
 * by construction, under any -W flag and C dialect, so it needs no
 * diagnostic pragma (clang keeps a copy of every warning setting for each
 * pragma location: a push / ignored "-Weverything" / pop per site cost
 * about 33 KiB of compiler memory a site; the few sites that cannot do
 * without get one naming only their warnings, see put_quiet_on): declarations before statements
 * in every block (C89's order), `__extension__` on each declaration that
 * names `long long` or holds a compound literal or a run-time aggregate
 * initializer (-Wlong-long, -Wc99-extensions under -std=c89 -pedantic),
 * every variable read, and a label, marked unused, before the opening `{`
 * and before keel_done: a statement that starts after an unbraced
 * if / else / for / while body on that body's line is what
 * -Wmisleading-indentation warns about, unless it is a label.  The
 * declarations are the block's own, the
 * entry points it calls under names of its own bound to libkeelrt's symbols
 * by asm labels (so that blocks never conflict and compiling a file stays
 * linear in its blocks; see site_struct), the opening goes
 * on a blank line between the last statement and the loop, else at the end
 * of the line of that statement, else before a comment following it; the
 * `}` on a blank line after the loop, else at the end of its last line,
 * else before a comment there.  keelcc puts the user's own line back into
 * the compiler's quotes of such lines.  The braces keep the call from
 * changing the meaning of an unbraced `if (c) for ...`.
 *
 * A loop that shares its first or last line with other code (`} for`,
 * `x = 1; for ... ; y = 2;`) gets its texts on lines of their own instead,
 * the line going on after `#line N` with blanks (tabs kept) up to its
 * column -- only where no empty body (`if (c);`, `while (c);`) follows in
 * the file, since those lines now differ from their physical ones.  Never
 * after an empty loop body on the same line (a statement there makes clang
 * call the `;` a typo), never before a // comment spliced onto the next
 * line (clang warns at its column).  `#line N` carries the presumed line
 * number of the original line, computed from the user's own #line
 * directives.
 *
 * Where the opening goes: walking back from the loop over blank lines,
 * comments, `#pragma` lines and `#if`/`#ifdef`/`#ifndef` lines (the pragmas
 * of a loop stay with it, also across a conditional as in NPB's lu.c), over
 * other directives without moving, and over an identifier or `ident(...)`
 * (a macro that may expand to `_Pragma`, or `_Pragma` itself), until the
 * token before is a statement boundary (`;`, `{`, `}`, `:`, `else`, `do`, the
 * `)` of an if/while/for/switch head).  `#else`, `#elif` or `#endif` on the
 * way, or any other token, leave the loop alone.
 *
 * In offload mode an `omp target` loop gets ` if(target: keel_decide(...))`
 * after the last code byte of its pragma's last line (before a trailing
 * comment), and no call.
 */
#include "instrument.h"

#include "omp_pragmas.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

/* Profile-neutral text (instrument_set_profile_neutral): see put_report. */
static int profile_neutral;

void instrument_set_profile_neutral(int on)
{
    profile_neutral = on != 0;
}
#include "launch.h"
#include "parallel.h"
#include "util.h"

/* A C string literal of s, every byte outside printable ASCII in octal. */
static void put_literal(ku_buf *b, const char *s)
{
    ku_buf_putc(b, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\' || c == '?')
            ku_buf_printf(b, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            ku_buf_printf(b, "\\%03o", c);
        else
            ku_buf_putc(b, (char)c);
    }
    ku_buf_putc(b, '"');
}

/* ---- the source's lines, comments and directives ------------------------- */

enum { K_CODE, K_COMMENT, K_LCOMMENT, K_LITERAL };   /* K_COMMENT: a block comment */

typedef struct {
    size_t start, end;   /* first byte; its '\n' (or len) */
    char dir[12];        /* directive name when the line is (part of) one, else "" */
    int dir_first;       /* line of the directive's first line (continuations) */
    int presumed;        /* presumed line number, 0 when not known */
    size_t lead;         /* first byte that is not a plain blank (code blanks only), or end */
    size_t tail;         /* one past the last code byte, or start */
    size_t padded;       /* blanks keel's re-entries wrote for this line so far */
} line_info;

typedef struct {
    const char *src;
    size_t len;
    unsigned char *kind; /* per byte */
    line_info *lines;    /* lines[1..nlines] */
    int nlines;
} text_map;

static int is_ident(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
        || c >= 0x80;
}

static int is_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r';
}

static int is_code_byte(const text_map *m, size_t o)
{
    return m->kind[o] == K_CODE && !is_blank(m->src[o]) && m->src[o] != '\n';
}

/* The `(` matching the `)` at close - 1, walking back over code bytes
 * only (comments and literals skipped): its offset, *depth 0; when the
 * file's start comes first, *depth > 0. */
static size_t open_paren(const text_map *m, size_t close, int *depth)
{
    size_t o = close;
    *depth = 0;
    while (o > 0) {
        o--;
        if (m->kind[o] != K_CODE)
            continue;
        if (m->src[o] == ')')
            ++*depth;
        else if (m->src[o] == '(' && --*depth == 0)
            break;
    }
    return o;
}

static void map_free(text_map *m)
{
    free(m->kind);
    free(m->lines);
}

/* Pass 1: which bytes are comments and literals (a literal also ends at a
 * newline that is not spliced, as an unterminated one in `#error don't`
 * does). */
static void map_classify(text_map *m)
{
    const char *src = m->src;
    size_t len = m->len;
    enum { S_CODE, S_LINE, S_BLOCK, S_STR, S_CHR } st = S_CODE;
    for (size_t i = 0; i < len; i++) {
        char c = src[i], n = i + 1 < len ? src[i + 1] : '\0';
        switch (st) {
        case S_CODE:
            m->kind[i] = K_CODE;
            if (c == '/' && n == '/') {
                st = S_LINE;
                m->kind[i] = K_LCOMMENT;
            } else if (c == '/' && n == '*') {
                st = S_BLOCK;
                m->kind[i] = m->kind[i + 1] = K_COMMENT;
                i++;
            } else if (c == '"' || c == '\'') {
                st = c == '"' ? S_STR : S_CHR;
                m->kind[i] = K_LITERAL;
            }
            break;
        case S_LINE:
            m->kind[i] = K_LCOMMENT;
            if (c == '\n' && !(i > 0 && src[i - 1] == '\\')) {
                st = S_CODE;
                m->kind[i] = K_CODE;
            }
            break;
        case S_BLOCK:
            m->kind[i] = K_COMMENT;
            if (c == '*' && n == '/') {
                m->kind[++i] = K_COMMENT;
                st = S_CODE;
            }
            break;
        case S_STR:
        case S_CHR:
            m->kind[i] = K_LITERAL;
            if (c == '\\' && i + 1 < len) {
                m->kind[++i] = K_LITERAL;
            } else if ((st == S_STR && c == '"') || (st == S_CHR && c == '\'')) {
                st = S_CODE;
            } else if (c == '\n') {
                st = S_CODE;
                m->kind[i] = K_CODE;
            }
            break;
        }
    }
    m->kind[len] = K_CODE;
}

/* Pass 2: where each line starts and ends, its first and last code
 * bytes. */
static void map_lines(text_map *m)
{
    int line = 1;
    m->lines[1].start = 0;
    for (size_t i = 0; i <= m->len; i++) {
        if (i < m->len && m->src[i] != '\n')
            continue;
        m->lines[line].end = i;
        if (i < m->len) {
            m->lines[line + 1].start = i + 1;
            line++;
        }
    }
    m->nlines = line;
    for (int l = 1; l <= m->nlines; l++) {
        line_info *li = &m->lines[l];
        li->lead = li->start;
        while (li->lead < li->end && !is_code_byte(m, li->lead) && m->kind[li->lead] == K_CODE)
            li->lead++;
        li->tail = li->end;
        while (li->tail > li->start && !is_code_byte(m, li->tail - 1))
            li->tail--;
    }
}

/* Pass 3: line l's directive, if it is (part of) one.  A directive's
 * first code byte on its line is '#'; it goes on over lines ending in a
 * backslash. */
static void map_directive(text_map *m, int l)
{
    const char *src = m->src;
    line_info *li = &m->lines[l];
    size_t o = li->start;
    while (o < li->end && !is_code_byte(m, o))
        o++;
    if (l > 1 && m->lines[l - 1].dir[0]) {
        const line_info *pl = &m->lines[l - 1];
        size_t b = pl->end;
        while (b > pl->start && (src[b - 1] == '\r'))
            b--;
        if (b > pl->start && src[b - 1] == '\\') {
            li->dir_first = pl->dir_first;
            memcpy(li->dir, pl->dir, sizeof li->dir);
            return;
        }
    }
    if (o >= li->end || src[o] != '#' || m->kind[o] != K_CODE)
        return;
    size_t q = o + 1;
    while (q < li->end && is_blank(src[q]))
        q++;
    size_t e = q;
    while (e < li->end && is_ident((unsigned char)src[e]) && e - q < 11)
        e++;
    if (q < li->end && src[q] >= '0' && src[q] <= '9')
        strcpy(li->dir, "line#");    /* # 12 "file" */
    else if (e > q)
        snprintf(li->dir, sizeof li->dir, "%.*s", (int)(e - q), src + q);
    else
        strcpy(li->dir, "#");
    li->dir_first = l;
}

/* The number a `#line N` / `# N` directive on line li gives the next line;
 * *plain 0 when it is not plain digits followed by a blank, a quote or the
 * line's end. */
static long line_directive_number(const text_map *m, const line_info *li, int *plain)
{
    const char *src = m->src;
    size_t q = li->start;
    while (q < li->end && src[q] != '#')
        q++;
    q++;
    while (q < li->end && is_blank(src[q]))
        q++;
    if (!strcmp(li->dir, "line"))
        q += 4;
    while (q < li->end && is_blank(src[q]))
        q++;
    long v = 0;
    int digits = 0;
    while (q < li->end && src[q] >= '0' && src[q] <= '9' && v < 100000000L) {
        v = v * 10 + (src[q++] - '0');
        digits++;
    }
    *plain = digits && !(q < li->end && !is_blank(src[q]) && src[q] != '"');
    return v;
}

/* Pass 4: presumed numbers.  `#line N` / `# N` set the next line's number.
 * One inside a conditional, or one whose number is not plain digits, makes
 * every later line unknown. */
static void map_presumed(text_map *m)
{
    int pres = 1, depth = 0, known = 1;
    for (int l = 1; l <= m->nlines; l++) {
        line_info *li = &m->lines[l];
        li->presumed = known ? pres : 0;
        pres++;
        if (!li->dir[0] || li->dir_first != l)
            continue;
        if (!strcmp(li->dir, "if") || !strcmp(li->dir, "ifdef") || !strcmp(li->dir, "ifndef"))
            depth++;
        else if (!strcmp(li->dir, "endif") && depth > 0)
            depth--;
        else if (!strcmp(li->dir, "line") || !strcmp(li->dir, "line#")) {
            int plain;
            long v = line_directive_number(m, li, &plain);
            if (!plain || depth > 0 || (l < m->nlines && m->lines[l + 1].dir_first == l))
                known = 0;
            pres = (int)v;
        }
    }
}

/* Which bytes are comments and literals, where lines start, which lines
 * are directives, and each line's presumed number. */
static int map_build(text_map *m, const char *src, size_t len)
{
    memset(m, 0, sizeof *m);
    m->src = src;
    m->len = len;
    int nl = 1;
    for (size_t i = 0; i < len; i++)
        nl += src[i] == '\n';
    m->kind = malloc(len + 1);
    m->lines = calloc((size_t)nl + 2, sizeof *m->lines);
    if (!m->kind || !m->lines) {
        map_free(m);
        return -1;
    }
    m->nlines = nl;
    map_classify(m);
    map_lines(m);
    for (int l = 1; l <= m->nlines; l++)
        map_directive(m, l);
    map_presumed(m);
    return 0;
}

/* Line of byte offset o (binary search). */
static int line_of(const text_map *m, size_t o)
{
    int lo = 1, hi = m->nlines;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (m->lines[mid].start <= o)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}


/* ---- where an opening can go --------------------------------------------- */

enum { P_BOUNDARY, P_DIRECTIVE, P_MACRO, P_REFUSE };

/* The code token before offset pos: P_DIRECTIVE with *line when the first
 * non-blank, non-comment thing before is a directive line; P_BOUNDARY for a
 * statement boundary; P_MACRO with *tok the start of an identifier or an
 * `ident(...)` that could be a macro (or _Pragma); P_REFUSE otherwise. */
static int token_before(const text_map *m, size_t pos, size_t *tok, int *line)
{
    int l = line_of(m, pos);
    for (;;) {
        const line_info *li = &m->lines[l];
        if (li->dir[0]) {
            *line = li->dir_first;
            return P_DIRECTIVE;
        }
        size_t o = pos;
        while (o > li->start && !is_code_byte(m, o - 1))
            o--;
        if (o > li->start) {
            pos = o - 1;
            break;
        }
        if (l == 1)
            return P_BOUNDARY;   /* the file's start */
        l--;
        pos = m->lines[l].end;
    }
    char c = m->src[pos];
    if (c == ';' || c == '{' || c == '}' || c == ':')
        return P_BOUNDARY;
    if (c == ')') {
        int depth;
        size_t o = open_paren(m, pos + 1, &depth);
        if (depth != 0)
            return P_REFUSE;
        /* the identifier before '(' */
        while (o > 0 && (!is_code_byte(m, o - 1)))
            o--;
        if (o == 0 || !is_ident((unsigned char)m->src[o - 1]))
            return P_REFUSE;
        pos = o - 1;
    } else if (!is_ident((unsigned char)c)) {
        return P_REFUSE;
    }
    size_t s = pos + 1;
    while (s > 0 && m->kind[s - 1] == K_CODE && is_ident((unsigned char)m->src[s - 1]))
        s--;
    size_t n = pos + 1 - s;
    if (m->src[s] >= '0' && m->src[s] <= '9')
        return P_REFUSE;
#define IS(w) (n == strlen(w) && memcmp(m->src + s, w, n) == 0)
    if (c == ')' && (IS("if") || IS("while") || IS("for") || IS("switch")))
        return P_BOUNDARY;
    if (c != ')' && (IS("else") || IS("do")))
        return P_BOUNDARY;
    if (IS("return") || IS("case") || IS("sizeof") || IS("goto") || IS("default"))
        return P_REFUSE;
#undef IS
    *tok = s;
    return P_MACRO;
}

/* Is the `#pragma` on line l an OpenMP directive that stands alone or opens
 * a section (barrier, taskwait, flush, section, ...)?  Such a pragma is not
 * its loop's: the opening goes below it (below `omp section`, the block is
 * the section's statement). */
static int standalone_pragma(const text_map *m, int l)
{
    static const char *const words[] = {
        "barrier", "taskwait", "taskyield", "flush", "section", "cancel", "cancellation",
        "depobj", "scan", "threadprivate", "declare", "requires", "ordered", "error",
        "interop", "assume", "end", NULL
    };
    const line_info *li = &m->lines[l];
    size_t o = li->start;
    while (o < li->end && m->src[o] != '#')
        o++;
    o++;
    while (o < li->end && is_blank(m->src[o]))
        o++;
    o += 6;   /* "pragma" */
    while (o < li->end && is_blank(m->src[o]))
        o++;
    if (li->end - o < 4 || memcmp(m->src + o, "omp", 3) != 0 || !is_blank(m->src[o + 3]))
        return 0;
    o += 3;
    while (o < li->end && is_blank(m->src[o]))
        o++;
    size_t e = o;
    while (e < li->end && is_ident((unsigned char)m->src[e]))
        e++;
    for (int k = 0; words[k]; k++)
        if (strlen(words[k]) == e - o && memcmp(m->src + o, words[k], e - o) == 0)
            return 1;
    return 0;
}

/* The `#if` line that opens the group the `#endif` on line l closes, when
 * every line of the group is a directive or holds no code (so an opening
 * above the whole group means what it means below it); else 0. */
static int directive_only_group(const text_map *m, int l)
{
    int depth = 0;
    for (int k = l; k >= 1; k--) {
        const line_info *li = &m->lines[k];
        if (!li->dir[0]) {
            for (size_t o = li->start; o < li->end; o++)
                if (is_code_byte(m, o))
                    return 0;
            continue;
        }
        if (li->dir_first != k)
            continue;
        if (!strcmp(li->dir, "endif"))
            depth++;
        else if (!strcmp(li->dir, "if") || !strcmp(li->dir, "ifdef") || !strcmp(li->dir, "ifndef"))
            if (--depth == 0)
                return k;
    }
    return 0;
}

/* The code token just before offset pos, for a reason: up to 24 bytes of
 * it in out (an identifier, or one character); returns its offset. */
static size_t token_text(const text_map *m, size_t pos, char *out, size_t n)
{
    size_t o = pos;
    while (o > 0 && !is_code_byte(m, o - 1))
        o--;
    size_t e = o;
    while (o > 0 && m->kind[o - 1] == K_CODE && is_ident((unsigned char)m->src[o - 1]) && e - o < 24)
        o--;
    if (o == e && o > 0)
        o--;
    snprintf(out, n, "%.*s", (int)(e - o), m->src + o);
    return o;
}

/* Where the opening of a call before the loop at `offset` can go: 0 and
 * *at, or -1 when the loop must be left alone, why[] saying why. */
static int opening_at(const text_map *m, size_t offset, size_t *at, char *why, size_t wl)
{
    size_t pos = offset, cur = offset;
    for (int guard = 0; guard < 10000; guard++) {
        size_t tok;
        int dl;
        switch (token_before(m, cur, &tok, &dl)) {
        case P_BOUNDARY:
            *at = pos;
            return 0;
        case P_REFUSE: {
            char t[32];
            size_t o = token_text(m, cur, t, sizeof t);
            snprintf(why, wl, "no statement boundary before the nest: it follows `%s` on line %d",
                     t, line_of(m, o));
            return -1;
        }
        case P_MACRO:
            pos = cur = tok;
            break;
        case P_DIRECTIVE: {
            const char *d = m->lines[dl].dir;
            if (!strcmp(d, "pragma") && standalone_pragma(m, dl)) {
                *at = pos;      /* `omp barrier`, `omp section`: a boundary */
                return 0;
            }
            if (!strcmp(d, "pragma") || !strcmp(d, "if") || !strcmp(d, "ifdef")
                || !strcmp(d, "ifndef"))
                pos = cur = m->lines[dl].start;
            else if (!strcmp(d, "endif")) {
                int top = directive_only_group(m, dl);
                if (top <= 0) {
                    snprintf(why, wl, "preprocessor branch around the nest: the #if group"
                             " closed by the #endif on line %d holds code", dl);
                    return -1;
                }
                dl = top;       /* `#ifdef _OPENMP / #pragma ... / #endif` */
                pos = cur = m->lines[dl].start;
            } else if (!strcmp(d, "else") || !strcmp(d, "elif") || !strcmp(d, "elifdef")
                       || !strcmp(d, "elifndef")) {
                snprintf(why, wl, "preprocessor branch around the nest: #%s on line %d above it",
                         d, dl);
                return -1;
            }
            else
                cur = m->lines[dl].start;   /* #define, #line, ...: look above */
            if (dl == 1) {
                *at = pos;
                return 0;
            }
            cur = m->lines[dl - 1].end;
            break;
        }
        }
    }
    snprintf(why, wl, "more than 10000 macros and directives before the nest");
    return -1;
}

/* ---- which nests can matter ------------------------------------------------ */

typedef struct {
    const ir_loop *root;
    const ir_tu *tu;
    int first, last;    /* the nest: loops[first..last] */
} nest_ctx;

static int nest_lookup(void *ctx, const char *name, int64_t *value)
{
    const nest_ctx *n = ctx;
    for (int k = 0; k < n->root->nsyms; k++)
        if (strcmp(n->root->syms[k], name) == 0) {
            *value = 1000003 + 7 * k;
            return 1;
        }
    for (int k = n->first; k <= n->last; k++)
        if (n->tu->loops[k].iv && strcmp(n->tu->loops[k].iv, name) == 0) {
            *value = 11 + k;
            return 1;
        }
    return 0;
}

void instrument_term_text(const char *t, char *out, size_t n)
{
    size_t len = strlen(t);
    ku_buf b = { 0 };
    if (len >= 3 && t[0] == '?' && t[1] == '"' && t[len - 1] == '"') {
        ku_buf_printf(&b, "`%.*s`", (int)(len - 3), t + 2);
    } else if (strncmp(t, "call.", 5) == 0 && t[len - 1] == ')' && strchr(t, '(')) {
        ku_buf_printf(&b, "`%s`", t + 5);     /* call.f(x): `f(x)` */
    } else if (strncmp(t, "load.", 5) == 0 && t[len - 1] == ')' && strchr(t, '(')) {
        /* load.A(x, y): one atom when its first '(' closes at the end */
        const char *open = strchr(t, '(');
        int depth = 0, one = 1;
        for (const char *p = open; *p && one; p++) {
            depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
            one = depth > 0 || p[1] == '\0';
        }
        if (one) {
            ku_buf_printf(&b, "`%.*s[", (int)(open - t - 5), t + 5);
            depth = 0;
            for (const char *p = open + 1; p < t + len - 1; p++) {
                depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
                if (depth == 0 && *p == ',') {
                    ku_buf_put(&b, "][");
                    while (p[1] == ' ')
                        p++;
                } else
                    ku_buf_putc(&b, *p);
            }
            ku_buf_put(&b, "]`");
        }
    }
    snprintf(out, n, "%.*s", (int)(n > 0 ? n - 1 : 0), b.s && !b.oom ? b.s : t);
    ku_buf_free(&b);
}

/* Can the runtime evaluate e with the nest's symbols (and its loops'
 * variables) alone?  When not, why[] says so for `what` (e.g. "the trip
 * count of the loop at line 5"): the name the call cannot pass, or the
 * term keel cannot compute before the nest. */
static int evaluable(const kx_expr *e, nest_ctx *n, const char *what, char *why, size_t wl)
{
    int64_t v;
    char err[256];
    if (kx_eval(e, nest_lookup, n, &v, err, sizeof err) == 0)
        return 1;
    char *text = kx_print(e);
    const char *t = text ? text : "?";
    if (strncmp(err, "unbound symbol ", 15) == 0 && strlen(t) > 60)   /* the name says it */
        snprintf(why, wl, "%s needs %s, which is not known before the nest", what, err + 15);
    else if (strncmp(err, "unbound symbol ", 15) == 0)
        snprintf(why, wl, "%s (%s) needs %s, which is not known before the nest", what, t,
                 err + 15);
    else if (strncmp(err, "cannot evaluate ", 16) == 0) {
        char term[200];
        instrument_term_text(err + 16, term, sizeof term);
        snprintf(why, wl, "bounds not readable before the nest: %s holds %s", what, term);
    }
    else
        snprintf(why, wl, "%s (%s) cannot be computed: %s", what, t, err);
    free(text);
    return 0;
}

/* Why loop l has no trip count or is not a canonical for loop, in a few
 * words, from what the front end recorded. */
static void shape_why(const ir_loop *l, char *why, size_t wl)
{
    const char *kind = l->kind == IR_FOR ? "for" : l->kind == IR_WHILE ? "while" : "do";
    if (l->control_write)
        snprintf(why, wl, "its body %s `%s`, which its condition reads",
                 l->control_maybe ? "may write (through a pointer)" : "writes", l->control_write);
    else if (!l->iv)
        snprintf(why, wl, "a %s loop with no induction variable keel can read", kind);
    else if (!l->step)
        snprintf(why, wl, "a %s loop whose step is not a constant", kind);
    else if (!l->lower || !l->upper)
        snprintf(why, wl, "a %s loop whose condition or start is not an affine bound on `%s`",
                 kind, l->iv);
    else
        snprintf(why, wl, "a %s loop whose iteration count keel cannot derive", kind);
}

/* Is symbol `name` written in the loop's head (from its keyword to the
 * parenthesis that closes its condition)?  `i = `, `i += `, `i++`, `++i`,
 * `&i` all count. */
static int written_in_head(const text_map *m, const ir_loop *l, const char *name)
{
    size_t o = (size_t)l->offset, end = (size_t)l->end_offset, nlen = strlen(name);
    while (o < end && (m->kind[o] != K_CODE || m->src[o] != '('))
        o++;
    int depth = 0;
    size_t head_end = o;
    for (size_t k = o; k < end; k++) {
        if (m->kind[k] != K_CODE)
            continue;
        if (m->src[k] == '(')
            depth++;
        else if (m->src[k] == ')' && --depth == 0) {
            head_end = k;
            break;
        }
    }
    if (l->kind == IR_DO)
        return 1;   /* its condition comes after the body */
    for (size_t k = o; k + nlen <= head_end; k++) {
        if (m->kind[k] != K_CODE || memcmp(m->src + k, name, nlen) != 0
            || (k > 0 && is_ident((unsigned char)m->src[k - 1]))
            || is_ident((unsigned char)m->src[k + nlen]))
            continue;
        size_t a = k + nlen, b = k;
        while (a < head_end && is_blank(m->src[a]))
            a++;
        while (b > o && is_blank(m->src[b - 1]))
            b--;
        const char *p = m->src + a;
        if ((p[0] == '=' && p[1] != '=') || (p[0] == '+' && p[1] == '+')
            || (p[0] == '-' && p[1] == '-')
            || (strchr("+-*/%&|^", p[0]) && p[1] == '=')
            || (p[0] == '<' && p[1] == '<' && p[2] == '=')
            || (p[0] == '>' && p[1] == '>' && p[2] == '='))
            return 1;
        if (b >= 1 && (m->src[b - 1] == '&' && !(b >= 2 && m->src[b - 2] == '&')))
            return 1;
        if (b >= 2 && ((m->src[b - 1] == '+' && m->src[b - 2] == '+')
                       || (m->src[b - 1] == '-' && m->src[b - 2] == '-')))
            return 1;
    }
    return 0;
}

/* A value named by its C text (a bound read from memory, `s->n`,
 * `grid_points[0]`, walker.c): is a variable it reads written in the
 * loop's head?  Its identifiers that are not member names (after `.` or
 * `->`) are the variables. */
static int text_written_in_head(const text_map *m, const ir_loop *l, const char *text)
{
    for (const char *p = text; *p;) {
        if (!is_ident((unsigned char)*p) || (*p >= '0' && *p <= '9')) {
            p++;
            continue;
        }
        const char *q = p;
        while (is_ident((unsigned char)*q))
            q++;
        const char *b = p;
        while (b > text && is_blank(b[-1]))
            b--;
        int member = b > text && (b[-1] == '.' || (b[-1] == '>' && b - 1 > text && b[-2] == '-'));
        char name[128];
        if (!member && (size_t)(q - p) < sizeof name && q - p != (ptrdiff_t)strlen(text)) {
            memcpy(name, p, (size_t)(q - p));
            name[q - p] = 0;
            if (written_in_head(m, l, name))
                return 1;
        }
        p = q;
    }
    return 0;
}

/* Report mode: does the nest rooted at loop i get a call?  A loop of the
 * nest is parallel or a reduction, the root's trip count is known, every
 * known trip count and lower bound of the nest can be evaluated from the
 * values the call passes, and none of those values is assigned by the
 * loop's own head (read before the loop, it would be read uninitialised). */
static int can_matter(const ir_tu *tu, const par_result *par, const text_map *m, int i,
                      char *why, size_t wl)
{
    const ir_loop *root = &tu->loops[i];
    nest_ctx n = { root, tu, i, i };
    while (n.last + 1 < tu->nloops && tu->loops[n.last + 1].depth > root->depth)
        n.last++;
    int offloadable = 0;
    for (int k = n.first; k <= n.last && par; k++)
        offloadable |= par->loops[k].verdict == PAR_PARALLEL
                    || par->loops[k].verdict == PAR_REDUCTION;
    if (!par) {
        snprintf(why, wl, "no dependence verdict: the dependence test failed on this file");
        return 0;
    }
    if (!offloadable) {
        const par_loop *pl = &par->loops[i];
        snprintf(why, wl, "no parallel or reduction loop in the nest (%s%s%.400s)",
                 par_verdict_name(pl->verdict), pl->reason[0] ? ": " : "", pl->reason);
        return 0;
    }
    char what[64], shape[160];
    if (!root->trip) {
        shape_why(root, shape, sizeof shape);
        snprintf(why, wl, "trip count unknown: %s", shape);
        return 0;
    }
    if (!evaluable(root->trip, &n, "its trip count", why, wl))
        return 0;
    for (int k = n.first; k <= n.last; k++) {
        const ir_loop *l = &tu->loops[k];
        snprintf(what, sizeof what, "the trip count of the loop at line %d", l->line);
        if (l->trip && !evaluable(l->trip, &n, what, why, wl))
            return 0;
        snprintf(what, sizeof what, "the start of the loop at line %d", l->line);
        if (l->lower && !evaluable(l->lower, &n, what, why, wl))
            return 0;
    }
    for (int k = 0; k < root->nsyms; k++)
        if (written_in_head(m, root, root->syms[k]) || text_written_in_head(m, root, root->syms[k])) {
            snprintf(why, wl, "its bound `%s` is assigned in the loop's own head (a call before"
                     " the loop would read it unset)", root->syms[k]);
            return 0;
        }
    return 1;
}

/* ---- the text ------------------------------------------------------------- */

/* The struct must match keelrt.h's keel_site field for field.  The entry
 * points a block calls are declared in it under names of the block's own,
 * `keel_decide__N`, bound to libkeelrt's symbols by an asm label: a block
 * declaration of an external name joins every earlier one of that name in
 * the file (clang links each to the chain and checks it against them, a
 * cost that grows with the number of blocks), while distinct names cost
 * the same in every block; the objects' undefined symbols stay libkeelrt's
 * (ELF: the label is the symbol).  They take `void *`, so a block's struct
 * (a type of its own) and a user's declaration of the same symbol never
 * conflict.  nsyms is an int in a union as wide as a pointer: the field
 * after it starts where keelrt.h's does, with no padding for -Wpadded to
 * report, on 32- and 64-bit targets alike. */
static const char site_struct[] =
    "struct keel_site { const char *db; const char *file; int line, col;"
    " union { int n; void *align; } nsyms; const char *const *syms; void *state; };";

enum { RT_DECIDE, RT_BEGIN, RT_DONE, RT_REPORT, RT_REPORT_CONST };
static const struct {
    const char *type;     /* attributes and return type */
    const char *name;     /* libkeelrt's symbol */
    const char *params;
} rt_entry[] = {
    [RT_DECIDE] = { "int", "keel_decide", "void *, const long long *" },
    [RT_BEGIN] = { "long long", "keel_begin", "void *, int" },
    [RT_DONE] = { "void", "keel_done", "void *, long long" },
    [RT_REPORT] = { "__attribute__((pure)) int", "keel_decide_report", "void *, const long long *" },
    [RT_REPORT_CONST] = { "__attribute__((const)) int", "keel_decide_report_const",
                          "void *, const long long *" },
};

/* ` __extension__ TYPE keel_x__N(PARAMS) __asm__("keel_x");` */
static void put_entry_decl(ku_buf *b, int n, int e)
{
    ku_buf_printf(b, " __extension__ %s %s__%d(%s) __asm__(\"%s\");", rt_entry[e].type, rt_entry[e].name, n,
                  rt_entry[e].params, rt_entry[e].name);
}


/* The few sites whose text can warn whatever its form get a diagnostic
 * pragma of their own, naming only the warnings in question (a per-site
 * "-Weverything" copies every warning setting, ~33 KiB of compiler memory
 * a site):
 *   QUIET_UNINIT  the call passes a variable the nest itself sets (a
 *                 private scalar of an OpenMP loop, say): its value before
 *                 the loop may be unset (-Wuninitialized and kin);
 *   QUIET_INLINE  the nest is in an inline function with external linkage:
 *                 C99 6.7.4p3 wants no modifiable static there
 *                 (-Wstatic-local-in-inline). */
enum { QUIET_UNINIT = 1, QUIET_INLINE = 2 };

static void put_quiet_on(ku_buf *b, int quiet)
{
    if (!quiet)
        return;
    ku_buf_put(b, "_Pragma(\"clang diagnostic push\") ");
    if (quiet & QUIET_UNINIT)
        ku_buf_put(b, "_Pragma(\"clang diagnostic ignored \\\"-Wuninitialized\\\"\") "
                   "_Pragma(\"clang diagnostic ignored \\\"-Wconditional-uninitialized\\\"\") ");
    if (quiet & QUIET_INLINE)
        ku_buf_put(b, "_Pragma(\"clang diagnostic ignored \\\"-Wstatic-local-in-inline\\\"\") ");
}

static void put_quiet_off(ku_buf *b, int quiet)
{
    if (quiet)
        ku_buf_put(b, "_Pragma(\"clang diagnostic pop\") ");
}

/* Is variable `name` set inside nest i (a scalar its statements write)?
 * Scans only the nest's own loops. */
static int set_in_nest(const ir_tu *tu, int i, const char *name)
{
    int end = ir_nest_end(tu, i);
    for (int k = i; k < end; k++) {
        if (!ir_loop_within(tu, k, i))
            continue;
        const ir_loop *l = &tu->loops[k];
        for (int s = 0; s < l->nstmts; s++)
            for (int v = 0; v < l->stmts[s].nscalars; v++)
                if (l->stmts[s].scalars[v].is_write && l->stmts[s].scalars[v].name
                    && !strcmp(l->stmts[s].scalars[v].name, name))
                    return 1;
    }
    return 0;
}

/* The QUIET_ flags site i (view: the names its call passes) needs. */
static int site_quiet(const ir_tu *tu, int i, const ir_loop *view)
{
    const ir_loop *l = &tu->loops[i];
    int quiet = 0;
    if (l->function >= 0 && l->function < tu->nfuncs && tu->funcs[l->function].inline_def)
        quiet |= QUIET_INLINE;
    for (int k = 0; k < view->nsyms && !(quiet & QUIET_UNINIT); k++)
        if (set_in_nest(tu, i, view->syms[k] + (view->syms[k][0] == '&')))
            quiet |= QUIET_UNINIT;
    return quiet;
}

/* build: 16 lowercase hex digits, else NULL. */
static const char *build_hash(const char *build)
{
    return build && strlen(build) == 16 && strspn(build, "0123456789abcdef") == 16 ? build : NULL;
}

/* The user's prefix maps (-ffile-prefix-map=OLD=NEW and the like), in
 * command order: the last whose OLD begins a path rewrites it, as the
 * compiler rewrites the names it embeds (instrument_add_prefix_map). */
enum { MAX_PREFIX_MAPS = 64 };
static const char *map_old[MAX_PREFIX_MAPS], *map_new[MAX_PREFIX_MAPS];
static size_t map_old_len[MAX_PREFIX_MAPS];
static int nmaps;

int instrument_add_prefix_map(const char *old, size_t old_len, const char *new_prefix)
{
    if (nmaps == MAX_PREFIX_MAPS)
        return -1;
    map_old[nmaps] = old;
    map_old_len[nmaps] = old_len;
    map_new[nmaps++] = new_prefix;
    return 0;
}

/* path with the last matching prefix map applied into t. */
static void map_into(ku_buf *t, const char *path)
{
    for (int k = nmaps - 1; k >= 0; k--)
        if (map_old_len[k] > 0 && strncmp(path, map_old[k], map_old_len[k]) == 0) {
            ku_buf_put(t, map_new[k]);
            ku_buf_put(t, path + map_old_len[k]);
            return;
        }
    ku_buf_put(t, path);
}

char *instrument_mapped_path(const char *path)
{
    ku_buf t = { 0 };
    map_into(&t, path);
    if (t.oom) {
        ku_buf_free(&t);
        return NULL;
    }
    return ku_buf_take(&t);
}

static const char *site_stored, *site_given;

void instrument_site_source(const char *stored, const char *given)
{
    site_stored = stored;
    site_given = given;
}

/* `static ... keel_site_N = {...};` for loop l, in keelrt.h's packed form:
 * its texts are char arrays, so that the site holds no pointer a
 * position-independent program relocates at start-up (a pointer in static
 * data is one relative relocation and dirties its page; the plain form
 * cost a 4,000-site program 8 relocations a site: db, file, syms and each
 * name).  The texts, one array each (one string literal each, so none
 * outgrows the 509 bytes C90 promises, -Woverlength-strings): the file,
 * the names, the database.
 *
 * Its database is the literal db_path: then the texts follow the struct
 * in one static object and the site has no pointer at all,
 *     static struct { struct keel_site s; char t0[L0]; ... } keel_site_N =
 *         { { 0, 0, LINE, COL, { -1 - n }, 0, 0 }, "FILE" "#h=HASH", "n", ..., "DB" };
 * the last array padded to a multiple of 8 bytes in all, so that the
 * object has no tail padding (-Wpadded) where pointers take 4 or 8.  Or
 * (NULL) the linked program's INSTRUMENT_LINK_DB, a weak hidden reference:
 * NULL when the program was linked without keelcc (the runtime then needs
 * KEEL_DB); then the texts are a constant of their own, keel_text_N, and
 * the site holds two pointers, db and file (its texts inside the site
 * would make every site's bytes, all dirtied by the db pointer, twice as
 * many pages).  Its file is the source as the compiler was given it
 * (instrument_site_source) followed by "#h=" and the build hash (the
 * translation_units.hash of this compile): the runtime takes the facts of
 * this build of the source, never another variant's or an older
 * version's, and the hash tells apart two sources of one name. */
static void put_site(ku_buf *b, int n, const ir_loop *l, const char *db_path, const char *build)
{
    const char *file = site_given && site_stored && l->file && strcmp(l->file, site_stored) == 0
                           ? site_given : l->file;
    ku_buf f = { 0 }, d = { 0 };
    map_into(&f, file ? file : "");
    if (build)
        ku_buf_printf(&f, "#h=%s", build);
    if (db_path)
        map_into(&d, db_path);
    if (f.oom || d.oom)
        b->oom = 1;
    /* the arrays' lengths (each text's bytes and its NUL), the last padded */
    size_t lf = f.len + 1, ld = d.len + 1, all = lf + ld;
    for (int k = 0; k < l->nsyms; k++)
        all += strlen(l->syms[k]) + 1;
    ld += (8 - all % 8) % 8 * (db_path != NULL);
    ku_buf_put(b, "static ");
    if (!db_path)
        ku_buf_put(b, "const ");
    ku_buf_put(b, "struct { ");
    if (db_path)
        ku_buf_put(b, "struct keel_site s; ");
    ku_buf_printf(b, "char t0[%zu]; ", lf);
    for (int k = 0; k < l->nsyms; k++)
        ku_buf_printf(b, "char t%d[%zu]; ", k + 1, strlen(l->syms[k]) + 1);
    ku_buf_printf(b, "char t%d[%zu]; } keel_%s_%d = { ", l->nsyms + 1, ld,
                  db_path ? "site" : "text", n);
    if (db_path)
        ku_buf_printf(b, "{ 0, 0, %d, %d, { %d }, 0, 0 }, ", l->line, l->col, -1 - l->nsyms);
    put_literal(b, f.s ? f.s : "");
    for (int k = 0; k < l->nsyms; k++) {
        ku_buf_put(b, ", ");
        put_literal(b, l->syms[k]);
    }
    ku_buf_put(b, ", ");
    put_literal(b, d.s ? d.s : "");
    ku_buf_put(b, " };\n");
    if (!db_path)
        ku_buf_printf(b, "extern const char " INSTRUMENT_LINK_DB
                      "[] __attribute__((weak, visibility(\"hidden\"))); "
                      "static struct keel_site keel_site_%d = { " INSTRUMENT_LINK_DB
                      ", keel_text_%d.t0, %d, %d, { %d }, 0, 0 };\n",
                      n, n, l->line, l->col, -1 - l->nsyms);
    ku_buf_free(&f);
    ku_buf_free(&d);
}

/* ` (long long)(s0), (long long)(s1)`: the nest's values, in syms order;
 * a name "&p" is the address p holds (a base of the nest's overlap
 * condition), ` (long long)(__INTPTR_TYPE__)(p)`. */
static void put_values(ku_buf *b, const ir_loop *l)
{
    for (int k = 0; k < l->nsyms; k++)
        ku_buf_printf(b, "%s(long long)%s(%s)", k ? ", " : " ",
                      l->syms[k][0] == '&' ? "(__INTPTR_TYPE__)" : "",
                      l->syms[k] + (l->syms[k][0] == '&'));
}

/* The accesses of loop l's own statements. */
static int loop_naccs(const ir_loop *l)
{
    int n = 0;
    for (int s = 0; s < l->nstmts; s++)
        n += l->stmts[s].nacc;
    return n;
}

/* The values a nest's call passes: its symbols, then "&p" for each base of
 * its overlap condition (analysis/launch.h) the call can read before the
 * loop -- a variable the nest does not assign, nor the loop's head --, in
 * the condition's order.  *view is l with those names (names[] and the
 * "&p" strings malloc'd, freed by free_names); the runtime finds a base
 * that is not passed and never offloads the nest. */
static int site_names(const ir_tu *tu, const par_result *par, const text_map *m, int i,
                      int acc0, ir_loop *view, int *nbases)
{
    const ir_loop *l = &tu->loops[i];
    launch_overlap *ov = NULL;
    int nov = 0, n = l->nsyms;
    *view = *l;
    *nbases = 0;
    if (launch_overlap_at(tu, par, i, acc0, &ov, &nov) != 0)
        return -1;
    char **names = malloc(sizeof *names * (size_t)(l->nsyms + nov + 1));
    if (!names) {
        launch_overlap_free(ov, nov);
        return -1;
    }
    for (int k = 0; k < l->nsyms; k++)
        names[k] = l->syms[k];
    int rc = 0;
    for (int k = 0; k < nov && rc == 0; k++) {
        int seen = !ov[k].checkable || written_in_head(m, l, ov[k].base);
        for (int j = l->nsyms; j < n && !seen; j++)
            seen = !strcmp(names[j] + 1, ov[k].base);
        if (seen)
            continue;
        size_t len = strlen(ov[k].base) + 2;
        if (!(names[n] = malloc(len)))
            rc = -1;
        else {
            snprintf(names[n++], len, "&%s", ov[k].base);
            ++*nbases;
        }
    }
    launch_overlap_free(ov, nov);
    view->nsyms = n;
    view->syms = names;
    return rc;
}

static void free_names(ir_loop *view, int nbases)
{
    for (int k = view->nsyms - nbases; k < view->nsyms; k++)
        free(view->syms[k]);
    free(view->syms);
}

/* `keel_decide__N(&keel_site_N, values)`. */
static void put_call(ku_buf *b, int n, const ir_loop *l)
{
    ku_buf_printf(b, "keel_decide__%d(&keel_site_%d, ", n, n);
    if (l->nsyms == 0) {
        ku_buf_put(b, "0)");
        return;
    }
    ku_buf_put(b, "(const long long[]){");
    put_values(b, l);
    ku_buf_put(b, " })");
}

/* The report-mode call (issue 15).  Its effects -- the decision log,
 * KEEL_VERBOSE lines -- are invisible to the program, and the prelude tells
 * the compiler so: report calls go to keel_decide_report and, for a nest with
 * no run-time values (whose verdict cannot change during a run),
 * keel_decide_report_const -- libkeelrt entry points of their own (see keelrt.c), declared pure and
 * const.
 * (Offload mode's calls stay plain keel_decide: their value is used.)  So
 * on a path the compiler proves never completes (a loop that C11 6.8.5p6
 * lets it assume terminates, but which cannot) the call goes with the rest
 * of the path, as in the plain build, instead of keeping a path that then
 * runs off the end of its function; and a const call reads no memory, so
 * the program's globals stay in registers across it.  The result is kept
 * in keel_v_N (file scope, in the prelude) and a repeated launch costs a
 * load and a compare, not a call: a nest with no values is decided once,
 * one with values again when they differ from the site's previous launch.
 *   nsyms == 0:  if (keel_v_N < 0) keel_v_N = keel_decide_report_const(&keel_site_N, 0);
 *   nsyms == k:  long long keel_x_N[] = { (long long)(s0), ... };
 *                if (keel_v_N < 0 || keel_last_N[0] != keel_x_N[0] || ...) {
 *                    keel_last_N[i] = keel_x_N[i]; ...
 *                    keel_v_N = keel_decide_report(&keel_site_N, keel_x_N); }
 * Threads launching the same nest at once may both call: harmless. */
/* Profile-neutral text (instrument_set_profile_neutral): no branch of
 * keel's in the user's functions, since source-based coverage, PGO and
 * their function hashes count every `if`, `||` and `?:` there.  The
 * report call is then made at every launch (the result stored, so the
 * const/pure call is not dropped):
 *   keel_v_N = keel_decide_report[_const](&keel_site_N, values or 0);
 * and no keel text on a blank line (coverage would count the line). */
static void put_report_state(ku_buf *b, int n, const ir_loop *l)
{
    ku_buf_printf(b, "static int keel_v_%d = -1;", n);
    if (l->nsyms > 0 && !profile_neutral) {
        ku_buf_printf(b, " __extension__ static long long keel_last_%d[%d];", n, l->nsyms);
    }
    ku_buf_put(b, "\n");
}

static void put_report(ku_buf *b, int n, const ir_loop *l)
{
    if (profile_neutral) {
        if (l->nsyms == 0) {
            ku_buf_printf(b, "keel_v_%d = keel_decide_report_const__%d(&keel_site_%d, 0); (void)keel_v_%d;",
                          n, n, n, n);
            return;
        }
        ku_buf_printf(b, "keel_v_%d = __extension__ keel_decide_report__%d(&keel_site_%d,"
                      " (const long long[]){", n, n, n);
        put_values(b, l);
        ku_buf_printf(b, " }); (void)keel_v_%d;", n);
        return;
    }
    if (l->nsyms == 0) {
        ku_buf_printf(b, "if (keel_v_%d < 0) keel_v_%d = keel_decide_report_const__%d(&keel_site_%d, 0);",
                      n, n, n, n);
        return;
    }
    ku_buf_printf(b, "__extension__ long long keel_x_%d[] = {", n);
    put_values(b, l);
    ku_buf_printf(b, " }; if (keel_v_%d < 0", n);
    for (int k = 0; k < l->nsyms; k++)
        ku_buf_printf(b, " || keel_last_%d[%d] != keel_x_%d[%d]", n, k, n, k);
    ku_buf_put(b, ") { ");
    for (int k = 0; k < l->nsyms; k++)
        ku_buf_printf(b, "keel_last_%d[%d] = keel_x_%d[%d]; ", n, k, n, k);
    ku_buf_printf(b, "keel_v_%d = keel_decide_report__%d(&keel_site_%d, keel_x_%d); }", n, n, n, n);
}

/* A nest that can only ever run where it is (issue 15): its outermost loop
 * is not a canonical for, or control leaves the nest early (break out of
 * it, goto or return anywhere in it), and no pragma says otherwise -- the
 * runtime could only answer CPU ("not parallel", analysis/parallel.c), so
 * a call before it would be pure overhead, and in a hot path (a nest of
 * a few iterations launched billions of times from a goto loop) that
 * overhead was most of the program's time.  Loops are in pre-order: the
 * nest is the run of deeper loops after it. */
static int never_offloaded(const ir_tu *tu, int i, char *why, size_t wl)
{
    const ir_loop *l = &tu->loops[i];
    if (l->npragmas > 0)
        return 0;
    if (l->kind != IR_FOR || !l->canonical) {
        char shape[160];
        shape_why(l, shape, sizeof shape);
        snprintf(why, wl, "not a canonical for loop (%s): it can only run where it is", shape);
        return 1;
    }
    if (l->n_break) {
        snprintf(why, wl, "a break leaves the loop: it can only run where it is");
        return 1;
    }
    /* Also a nest of at most TINY iterations in all, every trip count a
     * constant: a few microseconds of straight-line work at most, never
     * worth a kernel launch (csmith's array initialisations). */
    enum { TINY = 64 };
    int64_t iters = 1;
    for (int k = i; k < tu->nloops && (k == i || tu->loops[k].depth > l->depth); k++) {
        const ir_loop *m = &tu->loops[k];
        int64_t t;
        if (m->n_goto || m->n_return) {
            snprintf(why, wl, "a %s in the loop at line %d leaves the nest: it can only run where"
                     " it is", m->n_goto ? "goto" : "return", m->line);
            return 1;
        }
        if (iters > 0 && m->trip && kx_is_const(m->trip, &t) && t >= 0 && t <= TINY)
            iters = iters * (t ? t : 1) <= TINY ? iters * (t ? t : 1) : 0;
        else
            iters = 0;
    }
    if (iters > 0)
        snprintf(why, wl, "%lld iterations in all, every trip count a constant: too few to be"
                 " worth a decision (at most %d)", (long long)iters, TINY);
    return iters > 0;
}

static int has_if_clause(const ir_loop *l)
{
    for (int p = 0; p < l->npragmas; p++) {
        const char *t = l->pragmas[p];
        if (omp_text_has_word(t, OMP_TARGET) && omp_text_has_clause(t, "if"))
            return 1;
    }
    return 0;
}

/* Is the loop inside an OpenMP device region (`target`, `target data`)
 * that starts above its own pragmas?  Then the decision goes before that
 * region, never into it (device code must not call keel_decide). */
static int in_region(const ir_loop *l, size_t len)
{
    return l->region_line > 0 && l->region_offset >= 0 && l->region_end_offset > 0
        && (size_t)l->region_end_offset <= len
        && l->region_line < (l->pragma_line > 0 ? l->pragma_line : l->line);
}

/* Is the loop's `omp target` pragma really its own: a `#pragma` line
 * (target_line) with only pragma, blank and comment lines down to the
 * loop, which starts its line? */
static int target_attached(const text_map *m, const ir_loop *l)
{
    if (l->target_line <= 0 || l->target_line > m->nlines)
        return 0;
    if (strcmp(m->lines[l->target_line].dir, "pragma") != 0)
        return 0;
    int ll = line_of(m, (size_t)l->offset);
    for (size_t o = m->lines[ll].start; o < (size_t)l->offset; o++)
        if (is_code_byte(m, o))
            return 0;
    for (int k = l->target_line + 1; k < ll; k++) {
        if (!strcmp(m->lines[k].dir, "pragma"))
            continue;
        for (size_t o = m->lines[k].start; o < m->lines[k].end; o++)
            if (is_code_byte(m, o))
                return 0;
    }
    return 1;
}

/* The text of the directive starting on line k (its continuation lines
 * joined, comments blanked), malloc'd; *last gets its last line. */
static char *directive_text(const text_map *m, int k, int *last)
{
    int e = k;
    while (e < m->nlines && m->lines[e + 1].dir_first == k)
        e++;
    *last = e;
    size_t a = m->lines[k].start, b = m->lines[e].end, n = 0;
    char *t = malloc(b - a + 1);
    if (!t)
        return NULL;
    for (size_t o = a; o < b; o++) {
        char c = m->src[o];
        if (c == '\\' && o + 1 < b && m->src[o + 1] == '\n')
            c = ' ';
        else if (c == '\n' || c == '\0' || m->kind[o] != K_CODE)
            c = ' ';
        t[n++] = c;
    }
    t[n] = '\0';
    return t;
}

/* Does the nest rooted at loop i share iterations out by an OpenMP loop
 * construct (`for`, `distribute`, `loop`, `simd`, ...)?  Only such a nest
 * under a bare `target` region gets its verdict on the region's directive:
 * a region of sequential code the user put on the device stays there. */
static int nest_worksharing(const ir_tu *tu, int i)
{
    for (int k = i; k < tu->nloops && (k == i || tu->loops[k].depth > tu->loops[i].depth); k++)
        for (int p = 0; p < tu->loops[k].npragmas; p++)
            if (omp_text_is_parallel_loop(tu->loops[k].pragmas[p]))
                return 1;
    return 0;
}

/* In offload mode, a nest under a bare `omp target` construct (`target`,
 * `target teams`, `target parallel`: not `target data`, not a combined
 * loop construct on the loop itself) whose statement is a `{ }` block
 * holding the loop:
 *
 *     #pragma omp target map(tofrom: a[0:n])       <- if(target: ...) here
 *     {
 *     #pragma omp teams distribute parallel for
 *         for (...)
 *
 * OpenMP allows the `if(target: ...)` clause on that directive (and on no
 * `teams` / `distribute` / `parallel for` inside it).  Searched from the
 * loop's own pragmas up to its outermost device region (region_line);
 * returns the directive's first line and its last in *last, or 0 when
 * there is none or it has an `if` clause already (one per construct). */
static int enclosing_target(const text_map *m, const ir_loop *l, int *last)
{
    int from = (l->pragma_line > 0 ? l->pragma_line : line_of(m, (size_t)l->offset)) - 1;
    for (int k = from; k >= l->region_line && k >= 1; k--) {
        if (strcmp(m->lines[k].dir, "pragma") != 0 || m->lines[k].dir_first != k)
            continue;
        int e;
        char *t = directive_text(m, k, &e);
        int target = t && omp_text_is_target_region(t) && !omp_text_has_word(t, OMP_DATA)
                  && !omp_text_is_parallel_loop(t);
        int has_if = t && omp_text_has_clause(t, "if");
        free(t);
        if (!target)
            continue;
        /* its statement: the first code byte after it, a `{` whose `}`
         * comes after the loop */
        size_t o = m->lines[e].end;
        while (o < m->len && (!is_code_byte(m, o) || m->lines[line_of(m, o)].dir[0]))
            o++;
        if (o >= m->len || m->src[o] != '{' || o >= (size_t)l->offset)
            return 0;
        int depth = 0;
        for (; o < m->len; o++) {
            if (!is_code_byte(m, o))
                continue;
            if (m->src[o] == '{')
                depth++;
            else if (m->src[o] == '}' && --depth == 0)
                break;
        }
        if (o >= m->len || o < (size_t)l->end_offset || has_if)
            return 0;
        *last = e;
        return k;
    }
    return 0;
}

/* One insertion into the source: closing texts sort before openings at the
 * same offset, so `x; }` of one loop and `{` of the next never interleave. */
typedef struct {
    size_t offset;
    int opens;
    char *text;
    size_t len;
    int is_clause;       /* an if(target: ...) clause */
    int seq;       /* order of addition: nested blocks at one offset close inner first */
} insertion;

static int by_offset(const void *pa, const void *pb)
{
    const insertion *a = pa, *b = pb;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    if (a->opens != b->opens)
        return a->opens - b->opens;
    /* two sites' blocks opening (closing) at one offset: the first opened
     * closes last, so each `keel_done` stays in its own block */
    return a->opens ? a->seq - b->seq : b->seq - a->seq;
}

/* Append an insertion taking b's text (b is reset); -1 on allocation
 * failure, b's text freed. */
static int add(insertion **ins, int *n, size_t offset, int opens, ku_buf *b)
{
    insertion *p = b->oom ? NULL : ku_push(ins, n, sizeof **ins);
    if (!p) {
        ku_buf_free(b);
        return -1;
    }
    p->offset = offset;
    p->opens = opens;
    p->len = b->len;
    p->text = ku_buf_take(b);
    p->seq = *n - 1;
    return p->text ? 0 : -1;
}

/* Is line l empty or blanks only, outside any comment, directive or
 * spliced line? */
static int blank_line(const text_map *m, int l)
{
    const line_info *li = &m->lines[l];
    if (li->dir[0] || (li->end < m->len && m->kind[li->end] != K_CODE))
        return 0;
    if (l > 1) {
        const line_info *pl = &m->lines[l - 1];
        if (m->kind[pl->end] != K_CODE || (pl->end > pl->start && m->src[pl->end - 1] == '\\'))
            return 0;
    }
    for (size_t o = li->start; o < li->end; o++)
        if (m->kind[o] != K_CODE || !is_blank(m->src[o]))
            return 0;
    return 1;
}

/* The first offset before `at` with nothing but blanks, line breaks and
 * comments between it and `at`: just after a code byte, or the start of
 * the line after a directive. */
static size_t quiet_from(const text_map *m, size_t at)
{
    size_t o = at;
    while (o > 0 && !m->lines[line_of(m, o - 1)].dir[0] && !is_code_byte(m, o - 1))
        o--;
    return o;
}

/* The last offset after `e` with nothing but blanks, line breaks and
 * comments between: a code byte, the start of a directive line, or the
 * end of the text. */
static size_t quiet_to(const text_map *m, size_t e)
{
    size_t o = e;
    while (o < m->len) {
        const line_info *li = &m->lines[line_of(m, o)];
        if (li->dir[0])
            return li->start > e ? li->start : e;
        if (is_code_byte(m, o))
            break;
        o++;
    }
    return o;
}

/* A place in [from, to] (nothing but blanks, line breaks and comments in
 * between) where keel's text moves no byte of the user's to another line
 * or column: the start of a blank line, else the end of a line (before its
 * "\r\n") not inside a comment.  With shift_comment, failing those: `from`
 * itself when only comments follow it on its line (which move right; not
 * a // comment spliced onto the next line, where clang warns).  0 and
 * *spot, or -1. */
static int quiet_spot(const text_map *m, size_t from, size_t to, int shift_comment, size_t *spot)
{
    int l0 = line_of(m, from), l1 = line_of(m, to);
    /* profile-neutral: never a blank line, which coverage would then count */
    for (int l = l0; l <= l1 && !profile_neutral; l++) {
        const line_info *li = &m->lines[l];
        if (li->start >= from && li->start <= to && blank_line(m, l)) {
            *spot = li->start;
            return 0;
        }
    }
    for (int l = l0; l <= l1; l++) {
        const line_info *li = &m->lines[l];
        size_t t = li->end;
        while (t > li->start && m->src[t - 1] == '\r')
            t--;
        if (li->dir[0] || t < from || t > to || (li->end < m->len && m->kind[li->end] != K_CODE))
            continue;
        if (t > li->start && (m->kind[t - 1] == K_LCOMMENT || m->kind[t - 1] == K_LITERAL
                              || m->src[t - 1] == '\\'))
            continue;
        *spot = t;
        return 0;
    }
    if (!shift_comment || l0 == l1)
        return -1;
    const line_info *li = &m->lines[l0];
    size_t t = li->end;
    while (t > li->start && m->src[t - 1] == '\r')
        t--;
    if (li->dir[0] || (t > li->start && m->src[t - 1] == '\\'))
        return -1;
    *spot = from;
    return 0;
}

/* The identifier in front of the parenthesised head whose `)` ends just
 * before offset close (m->src[close - 1] == ')'): a pointer into the source
 * and its length in *len (0 when none stands there). */
static const char *head_keyword(const text_map *m, size_t close, size_t *len)
{
    int depth;
    size_t o = open_paren(m, close, &depth);
    while (o > 0 && !is_code_byte(m, o - 1))
        o--;
    size_t e = o;
    while (o > 0 && m->kind[o - 1] == K_CODE && is_ident((unsigned char)m->src[o - 1]))
        o--;
    *len = e - o;
    return m->src + o;
}

/* Does the `;` at offset semi end a `while (...)` or `for (...)` with an
 * empty body?  A statement after it on the same line would make clang warn
 * that the `;` looks like a typo (-Wempty-body), so keel's text must not
 * follow it there. */
static int empty_loop_body(const text_map *m, size_t semi)
{
    size_t o = semi;
    while (o > 0 && !is_code_byte(m, o - 1))
        o--;
    if (o == 0 || m->src[o - 1] != ')')
        return 0;
    size_t n;
    const char *w = head_keyword(m, o, &n);
    return (n == 5 && memcmp(w, "while", 5) == 0) || (n == 3 && memcmp(w, "for", 3) == 0);
}

/* The offset of the last `;` that may be an empty body clang warns about:
 * one after the `)` of an if / while / for / switch head on the same line.
 * clang tells it by comparing the head's line, after #line, with the `;`'s
 * physical line, so keel adds no line break before it; 0 when none. */
static size_t last_empty_body(const text_map *m)
{
    for (size_t o = m->len; o > 0; o--) {
        if (m->src[o - 1] != ';' || m->kind[o - 1] != K_CODE)
            continue;
        size_t p = o - 1;
        while (p > 0 && !is_code_byte(m, p - 1) && m->src[p - 1] != '\n')
            p--;
        if (p == 0 || m->src[p - 1] != ')')
            continue;
        size_t n;
        const char *w = head_keyword(m, p, &n);
        if ((n == 2 && !memcmp(w, "if", 2)) || (n == 3 && !memcmp(w, "for", 3))
            || (n == 5 && !memcmp(w, "while", 5)) || (n == 6 && !memcmp(w, "switch", 6)))
            return o;
    }
    return 0;
}

/* Blanks up to offset o on its line: the line's bytes with every one but a
 * tab made a space, so the next byte keeps its column. */
static void put_pad(ku_buf *b, const text_map *m, size_t o)
{
    static const char blanks[] = "                                ";   /* 32 */
    const line_info *li = &m->lines[line_of(m, o)];
    size_t k = li->start;
    while (k < o) {
        size_t run = 0;
        while (k + run < o && m->src[k + run] != '\t' && run < sizeof blanks - 1)
            run++;
        if (run)
            ku_buf_putn(b, blanks, run);
        else
            ku_buf_putc(b, '\t');
        k += run ? run : 1;
    }
}

/* Blanks a line may get from keel's re-entries (`#line N` and blanks up to
 * the column where the line goes on): four times its length and 4 KiB, so
 * that the copy stays linear in the source (3,000 loops on one line would
 * need 300 MB of them); past the allowance a site is left alone.  Charges
 * `open` / `close` blanks to the lines of at / e when they fit. */
static int pad_fits(text_map *m, size_t at, size_t open, size_t e, size_t close)
{
    line_info *lo = &m->lines[line_of(m, at)], *lc = &m->lines[line_of(m, e)];
    size_t ao = 4 * (lo->end - lo->start) + 4096, ac = 4 * (lc->end - lc->start) + 4096;
    if (lo == lc ? lo->padded + open + close > ao
                 : lo->padded + open > ao || lc->padded + close > ac)
        return 0;
    lo->padded += open;
    lc->padded += close;
    return 1;
}

/* Append keel's text with every line break made a blank: it goes inside
 * one of the user's lines. */
static void put_flat(ku_buf *b, const ku_buf *t)
{
    for (size_t k = 0; k < t->len; k++)
        ku_buf_putc(b, t->s[k] == '\n' ? ' ' : t->s[k]);
}

/* The opening of a nest's block: `keel_l_N: __attribute__((unused)) {`
 * (a label: after a statement on the same line, -Wmisleading-indentation
 * would otherwise look at the `{`), the declarations the call needs
 * (block scope: the site, the report state, libkeelrt's entry points
 * taking `void *`, so that blocks of one file never conflict), the call,
 * on one line, warning-free by construction (see the top of this file). */
static void put_opening(ku_buf *b, int n, const ir_loop *l, int decl, int quiet,
                        const char *db_path, const char *build)
{
    ku_buf t = { 0 };
    put_quiet_on(&t, quiet);
    ku_buf_printf(&t, "keel_l_%d: __attribute__((unused)) { %s", n, site_struct);
    if (decl) {
        put_entry_decl(&t, n, RT_DECIDE);
        put_entry_decl(&t, n, RT_BEGIN);
        put_entry_decl(&t, n, RT_DONE);
    } else
        put_entry_decl(&t, n, l->nsyms > 0 ? RT_REPORT : RT_REPORT_CONST);
    ku_buf_putc(&t, ' ');
    put_site(&t, n, l, db_path, build);
    if (decl) {
        ku_buf_printf(&t, "__extension__ int keel_on_gpu_%d = ", n);
        put_call(&t, n, l);
        /* launch timing for the history (keel_done after the region) */
        ku_buf_printf(&t, "; __extension__ long long keel_t_%d = keel_begin__%d(&keel_site_%d,"
                      " keel_on_gpu_%d);", n, n, n, n);
    } else {
        put_report_state(&t, n, l);
        put_report(&t, n, l);
    }
    ku_buf_putc(&t, ' ');
    put_quiet_off(&t, quiet);
    put_flat(b, &t);
    if (t.oom)
        b->oom = 1;
    ku_buf_free(&t);
}

int instrument_source(const ir_tu *tu, const char *path, const char *build, const char *src,
                      size_t len, const char *db_path, instrument_mode mode, char **out,
                      size_t *out_len)
{
    return instrument_source_with(tu, NULL, path, build, src, len, db_path, mode, out, out_len);
}

/* Where one nest's texts go (plan_site) and what they are. */
typedef struct {
    int offload;          /* the verdict goes to an if(target: ...) clause */
    int target_last;      /* line of the target pragma's last line (offload) */
    size_t at;            /* where the opening belongs (opening_at) */
    size_t where;         /* where it goes */
    size_t end;           /* one past the nest (or its region) */
    size_t end_at;        /* where the closing goes */
    int open_flat, close_flat;   /* on the user's lines (else on lines of their own) */
} site_plan;

/* An inner loop's reason: its nest's. */
static void inner_why(const ir_tu *tu, int i, char *why, size_t wl)
{
    int r = i;
    while (tu->loops[r].parent >= 0)
        r = tu->loops[r].parent;
    snprintf(why, wl, "inner loop of the nest at line %d (decided with it)", tu->loops[r].line);
}

/* Does loop l come from a macro: its keyword is not at its line and
 * column in the text? */
static int written_by_macro(const text_map *m, const ir_loop *l)
{
    static const char *const kw[] = { "for", "while", "do" };
    if (l->line < 1 || l->line > m->nlines || l->col < 1)
        return 0;
    size_t o = m->lines[l->line].start + (size_t)l->col - 1, n = strlen(kw[l->kind]);
    return o + n > m->lines[l->line].end || memcmp(m->src + o, kw[l->kind], n) != 0
        || (o + n < m->len && is_ident((unsigned char)m->src[o + n]));
}

/* Phase 1: whether loop i gets a decision, and in which form; when not,
 * why[] says why. */
static int choose_site(const ir_tu *tu, const par_result *par, const text_map *m,
                       const char *path, instrument_mode mode, int i, site_plan *p,
                       char *why, size_t wl)
{
    const ir_loop *l = &tu->loops[i];
    if (strcmp(l->file, path) != 0) {
        snprintf(why, wl, "in %s, not in the source compiled (keel edits that file only)",
                 l->file);
        return 0;
    }
    if ((l->offset < 0 || l->end_offset < 0) && mode != INSTRUMENT_OFFLOAD
        && (l->depth != 0 || never_offloaded(tu, i, why, wl)))
        return l->depth != 0 ? (inner_why(tu, i, why, wl), 0) : 0;
    if (l->offset < 0 || l->end_offset < 0) {
        snprintf(why, wl, written_by_macro(m, l)
                 ? "written inside a macro's expansion (keel edits no macro)"
                 : "keel cannot tell where it ends in the source (its body ends in neither"
                   " `;` nor `}`)");
        return 0;
    }
    if (l->end_offset <= l->offset || (size_t)l->end_offset > m->len) {
        snprintf(why, wl, "its place in the source is not known");
        return 0;
    }
    int region = in_region(l, m->len);
    p->offload = mode == INSTRUMENT_OFFLOAD && l->target_line > 0 && !has_if_clause(l)
              && (region || target_attached(m, l));
    /* the `target` construct the verdict goes to: the loop's own, or a
     * bare `target` region around it */
    p->target_last = p->offload ? l->target_line : 0;
    if (mode == INSTRUMENT_OFFLOAD && !p->offload && l->target_line == 0 && region
        && nest_worksharing(tu, i) && enclosing_target(m, l, &p->target_last) > 0)
        p->offload = 1;
    if (p->offload)
        return 1;
    if (l->depth != 0) {
        inner_why(tu, i, why, wl);
        return 0;
    }
    return !never_offloaded(tu, i, why, wl) && can_matter(tu, par, m, i, why, wl);
}

/* Phase 2: where the opening and the closing go; 0 when the nest is left
 * alone.  The decision is made on the host before the construct -- before
 * the outermost `target` / `target data` region around the loop, never
 * inside device code -- and, in offload mode, handed to if(target: ...),
 * which clang-19 evaluates only in a build with offload targets: a
 * host-only build still decides and logs. */
static int place_site(text_map *m, const ir_loop *l, size_t empty_after, site_plan *p,
                      char *why, size_t wl)
{
    const char *src = m->src;
    int region = in_region(l, m->len);
    size_t start = region ? (size_t)l->region_offset : (size_t)l->offset;
    p->end = region ? (size_t)l->region_end_offset : (size_t)l->end_offset;
    p->where = p->end_at = 0;
    if (opening_at(m, start, &p->at, why, wl) != 0)
        return 0;
    /* Both texts go where they move none of the user's bytes ... */
    size_t from = quiet_from(m, p->at);
    int after_empty = from > 0 && src[from - 1] == ';' && empty_loop_body(m, from - 1);
    if (after_empty)
        from = m->lines[line_of(m, from)].end + 1;   /* not on its line */
    p->open_flat = from <= p->at && quiet_spot(m, from, p->at, 1, &p->where) == 0;
    p->close_flat = quiet_spot(m, p->end, quiet_to(m, p->end), 1, &p->end_at) == 0;
    if (p->open_flat && p->close_flat)
        return 1;
    /* ... else (a loop sharing its first or last line with code) on lines
     * of their own, followed by `#line N` and blanks up to the column
     * where the line goes on: only where no empty body clang could warn
     * about follows, never right after an empty loop body, and never
     * before a comment spliced onto the next line (clang warns at its
     * column). */
    const line_info *lo = &m->lines[line_of(m, p->at)], *lc = &m->lines[line_of(m, p->end)];
    size_t first = p->open_flat ? p->end : p->at;
    const char *side = p->open_flat ? "last" : "first";
    int lside = line_of(m, p->open_flat ? p->end : p->at);
    if (first < empty_after)
        snprintf(why, wl, "its %s line %d holds other code and an empty body (`if (c);`)"
                 " follows in the file: keel adds no line there", side, lside);
    else if (!p->open_flat && after_empty)
        snprintf(why, wl, "it follows an empty loop body on line %d", lside);
    else if (!p->open_flat && lo->presumed <= 0)
        snprintf(why, wl, "its first line %d holds other code and its line number is not known"
                 " (a #line inside a conditional above it)", lside);
    else if (!p->close_flat && lc->tail <= p->end)
        snprintf(why, wl, "no place for keel's closing brace after it on line %d (a comment"
                 " continued onto the next line)", line_of(m, p->end));
    else if (!p->close_flat && lc->presumed <= 0)
        snprintf(why, wl, "its last line %d holds other code and its line number is not known"
                 " (a #line inside a conditional above it)", line_of(m, p->end));
    else if (!pad_fits(m, p->at, !p->open_flat && lo->lead < p->at ? p->at - lo->start : 0,
                       p->end, p->close_flat ? 0 : p->end - lc->start))
        snprintf(why, wl, "too many nests share line %d with other code (keel's allowance of"
                 " blanks for the line is spent)", lside);
    else
        return 1;
    return 0;
}

/* Phase 3: the opening and closing texts of site n (l: the nest with the
 * values its call passes); p->where / p->end_at move to the start of
 * their lines where the texts take lines of their own. */
static void put_site_texts(const text_map *m, const ir_loop *l, int n, int quiet,
                           const char *db_path, const char *build, site_plan *p, ku_buf *open,
                           ku_buf *close)
{
    const char *src = m->src;
    const line_info *lo = &m->lines[line_of(m, p->at)], *lc = &m->lines[line_of(m, p->end)];
    if (p->open_flat) {
        if (p->where > 0 && !is_blank(src[p->where - 1]) && src[p->where - 1] != '\n')
            ku_buf_putc(open, ' ');
        put_opening(open, n, l, p->offload, quiet, db_path, build);
    } else {
        int starts_line = lo->lead >= p->at;
        if (!starts_line)
            ku_buf_putc(open, '\n');
        put_opening(open, n, l, p->offload, quiet, db_path, build);
        ku_buf_printf(open, "\n#line %d\n", lo->presumed);
        if (starts_line)
            p->where = lo->start;
        else {
            put_pad(open, m, p->at);
            p->where = p->at;
        }
    }
    char done[256] = "";
    if (p->offload)    /* the region's time, for the history (keelrt.h) */
        snprintf(done, sizeof done, "keel_d_%d: __attribute__((unused)) keel_done__%d(&keel_site_%d,"
                 " keel_t_%d);", n, n, n, n);
    if (p->close_flat) {
        ku_buf_printf(close, "%s%s }", done[0] ? " " : "", done);
    } else {
        ku_buf_printf(close, "\n%s}\n#line %d\n", done, lc->presumed);
        put_pad(close, m, p->end);
        p->end_at = p->end;
    }
}

/* Phase 4: site n's insertions -- the opening, the closing and, in
 * offload mode, the if(target: ...) clause after the last code byte of the
 * target pragma's last line (shared by the nests of one target region: it
 * goes to the GPU when every one of them would, CPU when in doubt).  The
 * buffers are taken or freed. */
static int add_site(const text_map *m, const site_plan *p, int n, ku_buf *open, ku_buf *close,
                    insertion **ins, int *nins)
{
    ku_buf clause = { 0 };
    size_t clause_at = 0;
    int shared = -1;   /* the insertion of a clause this target has already */
    if (p->offload) {
        const line_info *li = &m->lines[p->target_last];
        size_t o = li->end;
        while (o > li->start && !is_code_byte(m, o - 1))
            o--;
        clause_at = o;
        for (int k = 0; k < *nins; k++)
            if ((*ins)[k].offset == clause_at && (*ins)[k].is_clause)
                shared = k;
        if (shared < 0)
            ku_buf_printf(&clause, " if(target: keel_on_gpu_%d)", n);
        else {
            ku_buf_putn(&clause, (*ins)[shared].text, (*ins)[shared].len - 1);
            ku_buf_printf(&clause, " && keel_on_gpu_%d)", n);
        }
    }
    int rc = add(ins, nins, p->where, 1, open);
    if (rc == 0)
        rc = add(ins, nins, p->end_at, 0, close);
    else
        ku_buf_free(close);
    if (rc == 0 && p->offload && shared >= 0 && !clause.oom) {
        free((*ins)[shared].text);
        (*ins)[shared].len = clause.len;
        (*ins)[shared].text = ku_buf_take(&clause);
    } else if (rc == 0 && p->offload) {
        rc = add(ins, nins, clause_at, 1, &clause);
        if (rc == 0)
            (*ins)[*nins - 1].is_clause = 1;
    } else
        ku_buf_free(&clause);
    return rc;
}

/* Phase 5: the source with the insertions spliced in, in offset order. */
static int splice(const char *src, size_t len, insertion *ins, int nins, char **out,
                  size_t *out_len)
{
    qsort(ins, (size_t)nins, sizeof *ins, by_offset);
    ku_buf b = { 0 };
    size_t pos = 0;
    for (int k = 0; k < nins; k++) {
        ku_buf_putn(&b, src + pos, ins[k].offset - pos);
        ku_buf_putn(&b, ins[k].text, ins[k].len);
        pos = ins[k].offset;
    }
    ku_buf_putn(&b, src + pos, len - pos);
    size_t n = b.len;
    *out = ku_buf_take(&b);
    if (!*out)
        return -1;
    if (out_len)
        *out_len = n;
    return 0;
}

int instrument_source_with(const ir_tu *tu, const par_result *shared, const char *path,
                           const char *build, const char *src, size_t len, const char *db_path,
                           instrument_mode mode, char **out, size_t *out_len)
{
    return instrument_source_sites(tu, shared, path, build, src, len, db_path, mode, out,
                                   out_len, NULL);
}

int instrument_source_sites(const ir_tu *tu, const par_result *shared, const char *path,
                            const char *build, const char *src, size_t len, const char *db_path,
                            instrument_mode mode, char **out, size_t *out_len,
                            instrument_site *sites)
{
    build = build_hash(build);
    *out = NULL;
    if (out_len)
        *out_len = 0;
    if (mode == INSTRUMENT_OFF)
        return 0;
    text_map m;
    if (map_build(&m, src, len) != 0)
        return -1;
    par_result *own = NULL;
    char perr[256];
    if (!shared && par_analyze(tu, &own, perr, sizeof perr) != 0)
        own = NULL;
    const par_result *par = shared ? shared : own;

    insertion *ins = NULL;
    int nins = 0, nsites = 0, rc = 0;
    size_t empty_after = last_empty_body(&m);
    /* acc0: the accesses of the loops before i (launch_overlap_at) */
    for (int i = 0, acc0 = 0; i < tu->nloops && rc == 0; acc0 += loop_naccs(&tu->loops[i]), i++) {
        site_plan p;
        char why[sizeof sites->why] = "";
        if (!choose_site(tu, par, &m, path, mode, i, &p, why, sizeof why)
            || !place_site(&m, &tu->loops[i], empty_after, &p, why, sizeof why)) {
            if (sites) {
                sites[i].kind = INSTRUMENT_SITE_NONE;
                snprintf(sites[i].why, sizeof sites[i].why, "%s", why[0] ? why : "?");
            }
            continue;
        }
        if (sites) {
            sites[i].kind = p.offload ? INSTRUMENT_SITE_CLAUSE : INSTRUMENT_SITE_CALL;
            sites[i].why[0] = '\0';
        }
        ir_loop view;
        int nbases;
        if (site_names(tu, par, &m, i, acc0, &view, &nbases) != 0) {
            rc = -1;
            break;
        }
        ku_buf open = { 0 }, close = { 0 };
        put_site_texts(&m, &view, nsites, site_quiet(tu, i, &view), db_path, build, &p, &open,
                       &close);
        rc = add_site(&m, &p, nsites, &open, &close, &ins, &nins);
        nsites++;
        free_names(&view, nbases);
    }
    if (rc == 0 && nsites > 0)
        rc = splice(src, len, ins, nins, out, out_len);
    for (int k = 0; k < nins; k++)
        free(ins[k].text);
    free(ins);
    par_free(own);
    map_free(&m);
    return rc < 0 ? -1 : nsites;
}
