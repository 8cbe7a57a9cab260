/*
 * instrument.c -- insert libkeelrt decision calls into a C source.
 *
 * Each instrumented loop becomes
 *
 *     { static keel_site keel_site_N = {...}; keel_decide(&keel_site_N, vals); for (...) ... }
 *
 * with the opening text placed just before the `for` when no pragma is
 * attached to the loop.  When pragmas are attached, they must stay directly
 * above their loop, so the opening text goes on a line of its own before the
 * first of them, followed by `#line N "file"` to restore the numbering:
 *
 *     { static keel_site keel_site_N = {...}; keel_decide(...);
 *     #line 44 "/abs/gemm.c"
 *     #pragma omp parallel for
 *         for (...) ... }
 *
 * The braces keep the inserted statements from changing the meaning of an
 * unbraced `if (c) for ...`.  In offload mode an `omp target` loop gets its
 * declaration the same way and `if(target: keel_decide(...))` at the end of
 * the pragma's last line, instead of a call.
 */
#include "instrument.h"

#include "omp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable string. */
typedef struct {
    char *s;
    size_t len, cap;
    int oom;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void puts_(buf *b, const char *s)
{
    put(b, s, strlen(s));
}

static void putf(buf *b, const char *fmt, int v)
{
    char tmp[64];
    int n = snprintf(tmp, sizeof tmp, fmt, v);
    put(b, tmp, (size_t)n);
}

/* A C string literal of s. */
static void put_literal(buf *b, const char *s)
{
    puts_(b, "\"");
    for (; *s; s++) {
        char esc[8];
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            put(b, esc, 2);
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(esc, sizeof esc, "\\%03o", c);
            put(b, esc, 4);
        } else {
            put(b, (const char *)s, 1);
        }
    }
    puts_(b, "\"");
}

/* One insertion into the source: closing braces sort before openings at the
 * same offset, so `x;}` of one loop and `{` of the next never interleave. */
typedef struct {
    size_t offset;
    int opens;
    char *text;
} insertion;

static int by_offset(const void *pa, const void *pb)
{
    const insertion *a = pa, *b = pb;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    return a->opens - b->opens;
}

/* Byte offset of the start of line `line` (1-based). */
static size_t line_start(const char *src, size_t len, int line)
{
    size_t o = 0;
    for (int l = 1; l < line && o < len; o++)
        if (src[o] == '\n')
            l++;
    return o;
}

/* Byte offset of the end of line `line` (at its '\n', or at len). */
static size_t line_end(const char *src, size_t len, int line)
{
    size_t o = line_start(src, len, line);
    while (o < len && src[o] != '\n')
        o++;
    return o;
}

/* `static ... keel_site_N = {...};` for loop l. */
static void put_site(buf *b, int n, const ir_loop *l, const char *db_path)
{
    if (l->nsyms > 0) {
        putf(b, "static const char *const keel_syms_%d[] = {", n);
        for (int k = 0; k < l->nsyms; k++) {
            puts_(b, k ? ", " : " ");
            put_literal(b, l->syms[k]);
        }
        puts_(b, " }; ");
    }
    putf(b, "static keel_site keel_site_%d = { ", n);
    put_literal(b, db_path);
    puts_(b, ", ");
    put_literal(b, l->file);
    putf(b, ", %d", l->line);
    putf(b, ", %d", l->col);
    putf(b, ", %d, ", l->nsyms);
    if (l->nsyms > 0)
        putf(b, "keel_syms_%d, 0 }; ", n);
    else
        puts_(b, "0, 0 }; ");
}

/* `keel_decide(&keel_site_N, values)`. */
static void put_call(buf *b, int n, const ir_loop *l)
{
    putf(b, "keel_decide(&keel_site_%d, ", n);
    if (l->nsyms == 0) {
        puts_(b, "0)");
        return;
    }
    puts_(b, "(const long long[]){");
    for (int k = 0; k < l->nsyms; k++) {
        puts_(b, k ? ", (long long)(" : " (long long)(");
        puts_(b, l->syms[k]);
        puts_(b, ")");
    }
    puts_(b, " })");
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

/* Append an insertion taking b's text; on failure b's text is freed and
 * *ins stays as it was. */
static int add(insertion **ins, int *n, size_t offset, int opens, buf *b)
{
    insertion *p = b->oom ? NULL : realloc(*ins, sizeof *p * (size_t)(*n + 1));
    if (!p) {
        free(b->s);
        return -1;
    }
    *ins = p;
    p[*n].offset = offset;
    p[*n].opens = opens;
    p[*n].text = b->s;
    (*n)++;
    return 0;
}

int instrument_source(const ir_tu *tu, const char *path, const char *name, const char *src,
                      size_t len, const char *header, const char *db_path,
                      instrument_mode mode, char **out)
{
    *out = NULL;
    insertion *ins = NULL;
    int nins = 0, nsites = 0, rc = 0;

    for (int i = 0; i < tu->nloops && rc == 0 && mode != INSTRUMENT_OFF; i++) {
        const ir_loop *l = &tu->loops[i];
        if (l->offset < 0 || (size_t)l->end_offset > len || strcmp(l->file, path) != 0)
            continue;
        int offload = mode == INSTRUMENT_OFFLOAD && l->target_line > 0 && !has_if_clause(l);
        int region = in_region(l, len);
        if (!offload && l->depth != 0)
            continue;
        int n = nsites++;
        buf open = { 0 }, close = { 0 }, clause = { 0 };
        puts_(&open, "{ ");
        put_site(&open, n, l, db_path);
        /* The decision is always made (and logged) on the host, before the
         * construct: clang-19 does not evaluate if(target: ...) in a build
         * without offload targets.  Offload mode hands its value to
         * if(target: ...). */
        if (offload)
            putf(&open, "int keel_on_gpu_%d = ", n);
        put_call(&open, n, l);
        puts_(&open, "; ");
        size_t at, end = (size_t)l->end_offset;
        if (region) {
            at = (size_t)l->region_offset;
            end = (size_t)l->region_end_offset;
            puts_(&open, "\n#line ");
            putf(&open, "%d ", l->region_line);
            put_literal(&open, name);
            puts_(&open, "\n");
        } else if (l->pragma_line > 0) {
            at = line_start(src, len, l->pragma_line);
            puts_(&open, "\n#line ");
            putf(&open, "%d ", l->pragma_line);
            put_literal(&open, name);
            puts_(&open, "\n");
        } else {
            at = (size_t)l->offset;
        }
        puts_(&close, " }");
        rc = add(&ins, &nins, at, 1, &open);
        if (rc == 0)
            rc = add(&ins, &nins, end, 0, &close);
        if (rc == 0 && offload) {
            putf(&clause, " if(target: keel_on_gpu_%d)", n);
            rc = add(&ins, &nins, line_end(src, len, l->target_line), 1, &clause);
        }
    }

    if (rc == 0 && nsites > 0) {
        qsort(ins, (size_t)nins, sizeof *ins, by_offset);
        buf b = { 0 };
        puts_(&b, "#include ");
        put_literal(&b, header);
        puts_(&b, "\n#line 1 ");
        put_literal(&b, name);
        puts_(&b, "\n");
        size_t pos = 0;
        for (int k = 0; k < nins; k++) {
            put(&b, src + pos, ins[k].offset - pos);
            puts_(&b, ins[k].text);
            pos = ins[k].offset;
        }
        put(&b, src + pos, len - pos);
        if (b.oom) {
            free(b.s);
            rc = -1;
        } else {
            *out = b.s;
        }
    }
    for (int k = 0; k < nins; k++)
        free(ins[k].text);
    free(ins);
    return rc < 0 ? -1 : nsites;
}
