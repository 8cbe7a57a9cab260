/*
 * mca.c -- read assembly and llvm-mca output; map assembly loops to source
 * loops; whole-iteration costs.  See mca.h for the rules.
 *
 * The assembly is split into lines once; blocks start at labels (`.LBB0_3:`,
 * `main:`) and at fall-through block comments (`# %bb.4:`, `// %bb.4:`); the
 * loop comment that follows a block start says which loop the block is in.
 * All positions are line indices into that one copy, freed with the plan.
 */
#define _XOPEN_SOURCE 700   /* realpath, strdup */
#include "mca.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ======================================================================== */
/* Assembly                                                                  */
/* ======================================================================== */

typedef struct {
    int file, line, col;
} loc;

typedef struct {
    char id[64];          /* "BB1_3" for .LBB1_3; "" for unnamed blocks */
    char *label;          /* as written, e.g. ".LBB1_3" (NULL for unnamed) */
    int first, last;      /* line range [first, last) of the block, label excluded */
    int loop;             /* innermost assembly loop holding it, -1 none */
    int header, depth;    /* loop header block, its depth */
    char in_id[64];       /* "in Loop: Header=" id */
    char parent_id[64];   /* innermost "Parent Loop" id of a header */
} ablock;

typedef struct {
    char id[64];          /* header block id */
    int header;           /* block index */
    int depth;
    int parent;           /* assembly loop, -1 outermost */
    int nchildren;
    int map;              /* source loop index, -1 unmapped */
    int any_main_loc;     /* has a .loc in a file of the TU's loops */
    int ninstr;           /* instructions in the llvm-mca body */
    int nmem;             /* of them, with a memory operand */
    int vector;
    char *body;
} aloop;

typedef struct {
    char **line;
    int nlines;
    char *buf;
    ablock *b;
    int nb;
    aloop *l;
    int nl;
    char **files;         /* .file index -> realpath or NULL */
    int nfiles;
    int slash_comments;   /* AArch64 style: `//` comments, `#` immediates */
    int oom;              /* an allocation failed: the plan fails */
} asmtext;

static void asm_free(asmtext *a)
{
    free(a->line);
    free(a->buf);
    for (int i = 0; i < a->nb; i++)
        free(a->b[i].label);
    free(a->b);
    for (int i = 0; i < a->nl; i++)
        free(a->l[i].body);
    free(a->l);
    for (int i = 0; i < a->nfiles; i++)
        free(a->files[i]);
    free(a->files);
}

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* The comment text of a line that is only a comment, else NULL. */
static const char *comment_of(const char *s)
{
    s = skip_ws(s);
    if (s[0] == '#')
        return s + 1;
    if (s[0] == '/' && s[1] == '/')
        return s + 2;
    return NULL;
}

/* Copy a BB id ("BB1_3") that starts at s into out. */
static void read_id(const char *s, char out[64])
{
    int n = 0;
    while (n < 63 && (isalnum((unsigned char)s[n]) || s[n] == '_'))
        n++;
    memcpy(out, s, (size_t)n);
    out[n] = '\0';
}

/* A label definition `name:` at line start; returns its length or 0. */
static int label_len(const char *s)
{
    int n = 0;
    if (!(isalpha((unsigned char)s[0]) || s[0] == '.' || s[0] == '_' || s[0] == '$'))
        return 0;
    while (s[n] && (isalnum((unsigned char)s[n]) || s[n] == '.' || s[n] == '_' || s[n] == '$'))
        n++;
    return s[n] == ':' ? n : 0;
}

static int find_loop(const asmtext *a, const char *id)
{
    for (int i = 0; i < a->nl; i++)
        if (strcmp(a->l[i].id, id) == 0)
            return i;
    return -1;
}

/* The assembler string opening at q (`"`), its escapes undone: octal
 * \NNN (clang writes every byte outside printable ASCII so, and a tab as
 * \011), \xHH, \b \f \n \r \t, and \" \\ for the character itself.
 * Returns the byte after the closing quote, or NULL (no closing quote, or
 * longer than cap - 1). */
static const char *read_asm_string(const char *q, char *out, size_t cap)
{
    size_t k = 0;
    for (q++; *q && *q != '"'; q++) {
        int c = (unsigned char)*q;
        if (c == '\\' && q[1]) {
            q++;
            if (*q >= '0' && *q <= '7') {
                c = 0;
                for (int d = 0; d < 3 && *q >= '0' && *q <= '7'; d++, q++)
                    c = c * 8 + (*q - '0');
                q--;
            } else if (*q == 'x' && isxdigit((unsigned char)q[1])) {
                c = 0;
                while (isxdigit((unsigned char)q[1])) {
                    q++;
                    c = c * 16 + (isdigit((unsigned char)*q) ? *q - '0' : (tolower((unsigned char)*q) - 'a' + 10));
                }
            } else {
                static const char from[] = "bfnrt", to[] = "\b\f\n\r\t";
                const char *f = strchr(from, *q);
                c = f ? to[f - from] : (unsigned char)*q;
            }
        }
        if (k + 1 >= cap)
            return NULL;
        out[k++] = (char)c;
    }
    if (*q != '"')
        return NULL;
    out[k] = '\0';
    return q + 1;
}

/* `.file N "dir" "name"` or `.file N "name"`: remember N's path. */
static void read_file_directive(asmtext *a, const char *s)
{
    char *end;
    long n = strtol(s, &end, 10);
    if (end == s || n < 0 || n > 100000)
        return;
    char part[2][PATH_MAX];
    int np = 0;
    const char *q = end;
    while (np < 2 && (q = strchr(q, '"'))) {
        const char *e = read_asm_string(q, part[np], sizeof part[np]);
        if (!e)
            return;
        np++;
        q = e;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != '"')
            break;
    }
    if (np == 0)
        return;
    char joined[2 * PATH_MAX + 2], real[PATH_MAX];
    if (np == 2 && part[1][0] != '/')
        snprintf(joined, sizeof joined, "%s/%s", part[0], part[1]);
    else
        snprintf(joined, sizeof joined, "%s", part[np - 1]);
    if ((int)n >= a->nfiles) {
        char **f = realloc(a->files, sizeof *f * (size_t)(n + 1));
        if (!f) {
            a->oom = 1;         /* never a file number without its name */
            return;
        }
        for (int i = a->nfiles; i <= n; i++)
            f[i] = NULL;
        a->files = f;
        a->nfiles = (int)n + 1;
    }
    free(a->files[n]);
    a->files[n] = strdup(realpath(joined, real) ? real : joined);
    if (!a->files[n])
        a->oom = 1;
}

static int asm_read(asmtext *a, const char *text, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    if (!(a->buf = strdup(text)))
        return ku_fail(err, errlen, "out of memory");
    int cap = 1;
    for (const char *s = text; *s; s++)
        cap += *s == '\n';
    if (!(a->line = malloc(sizeof *a->line * (size_t)cap)))
        return ku_fail(err, errlen, "out of memory");
    for (char *s = a->buf; s;) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        a->line[a->nlines++] = s;
        s = nl ? nl + 1 : NULL;
    }
    a->slash_comments = strstr(text, "// -- Begin function") != NULL;
    for (int i = 0; i < a->nlines; i++) {
        const char *s = a->line[i], *c = comment_of(s);
        const char *t = skip_ws(s);
        if (strncmp(t, ".file", 5) == 0 && (t[5] == ' ' || t[5] == '\t'))
            read_file_directive(a, t + 6);
        int ll = label_len(s);
        /* Local labels other than blocks (.Ltmp3, .Lfunc_end0) do not split blocks. */
        if (ll && strncmp(s, ".L", 2) == 0 && strncmp(s, ".LBB", 4) != 0)
            ll = 0;
        int fallthrough = c && strncmp(skip_ws(c), "%bb.", 4) == 0;
        if (!ll && !fallthrough)
            continue;
        if (a->nb)
            a->b[a->nb - 1].last = i;
        ablock *b = ku_push(&a->b, &a->nb, sizeof *b);
        if (!b)
            return ku_fail(err, errlen, "out of memory");
        b->first = i + 1;
        b->last = a->nlines;
        b->loop = -1;
        if (ll) {
            b->label = strndup(s, (size_t)ll);
            const char *bb = strstr(b->label, "BB");
            if (bb && b->label[0] == '.')
                read_id(bb, b->id);
        }
        /* The loop comments: on the label line and the comment lines below. */
        for (int k = i; k < a->nlines; k++) {
            const char *cc = k == i ? strchr(s, fallthrough ? (a->slash_comments ? '/' : '#') : ':') : comment_of(a->line[k]);
            if (k > i && (!cc || strstr(cc, "%bb.")))
                break;
            if (!cc)
                continue;
            const char *m;
            if ((m = strstr(cc, "Loop Header: Depth="))) {
                b->header = 1;
                b->depth = atoi(m + 19);
            } else if ((m = strstr(cc, "in Loop: Header="))) {
                read_id(m + 16, b->in_id);
            } else if ((m = strstr(cc, "Parent Loop "))) {
                read_id(m + 12, b->parent_id);   /* outermost first: the last is the parent */
            }
            if (k > i && !strstr(cc, "Loop"))
                break;
        }
    }
    /* Loops from header blocks, then parents and members (either may come
     * before the header in the layout). */
    for (int bi = 0; bi < a->nb; bi++) {
        ablock *b = &a->b[bi];
        if (!b->header || !b->id[0])
            continue;
        aloop *l = ku_push(&a->l, &a->nl, sizeof *l);
        if (!l)
            return ku_fail(err, errlen, "out of memory");
        a->nl--;        /* counted once filled in, below */
        snprintf(l->id, sizeof l->id, "%s", b->id);
        l->header = bi;
        l->depth = b->depth;
        l->parent = -1;
        l->map = -1;
        b->loop = a->nl++;
    }
    for (int li = 0; li < a->nl; li++) {
        ablock *b = &a->b[a->l[li].header];
        if (a->l[li].depth > 1 && b->parent_id[0]) {
            a->l[li].parent = find_loop(a, b->parent_id);
            if (a->l[li].parent >= 0)
                a->l[a->l[li].parent].nchildren++;
        }
    }
    for (int bi = 0; bi < a->nb; bi++)
        if (!a->b[bi].header && a->b[bi].in_id[0])
            a->b[bi].loop = find_loop(a, a->b[bi].in_id);
    return 0;
}

/* Is the instruction line an instruction (not a label, directive, comment)? */
static const char *instr_of(const asmtext *a, const char *s)
{
    s = skip_ws(s);
    if (!*s || *s == '#' || *s == '.' || (s[0] == '/' && s[1] == '/') || *s == ';' || *s == '@')
        return NULL;
    if (label_len(s))
        return NULL;
    (void)a;
    return s;
}

/* Append the instruction at s (comment stripped) to b, one line. */
static void append_instr(const asmtext *a, ku_buf *b, const char *s)
{
    size_t n = strlen(s);
    const char *c = a->slash_comments ? strstr(s, "//") : strchr(s, '#');
    if (c)
        n = (size_t)(c - s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (!n)
        return;
    ku_buf_putn(b, s, n);
    ku_buf_putc(b, '\n');
}

static int is_vector_instr(const asmtext *a, const char *s)
{
    char mn[32];
    int n = 0;
    while (n < 31 && s[n] && s[n] != ' ' && s[n] != '\t')
        mn[n] = s[n], n++;
    mn[n] = '\0';
    const char *ops = s + n;
    if (strstr(ops, "%ymm") || strstr(ops, "%zmm"))
        return 1;
    if (strstr(ops, "%xmm")) {
        if (n > 2 && (strcmp(mn + n - 2, "pd") == 0 || strcmp(mn + n - 2, "ps") == 0))
            return 1;
        if (mn[0] == 'p' || (mn[0] == 'v' && mn[1] == 'p'))
            return 1;
    }
    if (a->slash_comments) {   /* AArch64: v0.2d, q0, z0.d */
        for (const char *q = ops; (q = strpbrk(q, "vqz")); q++) {
            if (q > ops && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
                continue;
            const char *r = q + 1;
            if (!isdigit((unsigned char)*r))
                continue;
            while (isdigit((unsigned char)*r))
                r++;
            if (*q == 'q' ? !isalnum((unsigned char)*r) : *r == '.')
                return 1;
        }
    }
    /* PowerPC VSX / Altivec vector ops. */
    if (strncmp(mn, "xv", 2) == 0 || strncmp(mn, "lxv", 3) == 0 || strncmp(mn, "stxv", 4) == 0)
        return 1;
    return 0;
}

/* Does the instruction at s have a memory operand: `(` in AT&T x86 and
 * PowerPC (`8(%rax)`, `8(3)`), `[` in AArch64 (`[x0, #8]`)? */
static int has_mem_operand(const asmtext *a, const char *s)
{
    size_t n = strlen(s);
    const char *c = a->slash_comments ? strstr(s, "//") : strchr(s, '#');
    if (c)
        n = (size_t)(c - s);
    for (size_t k = 0; k < n; k++)
        if (s[k] == (a->slash_comments ? '[' : '('))
            return 1;
    return 0;
}

/* Build loop l's llvm-mca body: innermost loops take every block of the loop
 * up to the last branch back to the header; outer loops their own blocks. */
static int build_body(asmtext *a, int l)
{
    aloop *L = &a->l[l];
    int inner = L->nchildren == 0;
    const char *hdr = a->b[L->header].label;
    /* The last line that branches to the header, among the loop's blocks. */
    int last_back = -1;
    for (int bi = 0; bi < a->nb && inner && hdr; bi++) {
        if (a->b[bi].loop != l)
            continue;
        for (int k = a->b[bi].first; k < a->b[bi].last; k++) {
            const char *s = instr_of(a, a->line[k]);
            const char *h;
            if (s && (h = strstr(s, hdr)) && !isalnum((unsigned char)h[strlen(hdr)])
                && h[strlen(hdr)] != '_')
                last_back = k;
        }
    }
    ku_buf buf = {0};
    for (int bi = 0; bi < a->nb; bi++) {
        if (a->b[bi].loop != l)
            continue;
        for (int k = a->b[bi].first; k < a->b[bi].last; k++) {
            if (last_back >= 0 && k > last_back)
                break;
            const char *s = instr_of(a, a->line[k]);
            if (!s)
                continue;
            append_instr(a, &buf, s);
            L->ninstr++;
            if (has_mem_operand(a, s))
                L->nmem++;
            if (is_vector_instr(a, s))
                L->vector = 1;
        }
    }
    if (buf.oom)
        return -1;      /* never a body with instructions missing */
    L->body = buf.s;
    return 0;
}

/* ======================================================================== */
/* Remarks                                                                   */
/* ======================================================================== */

typedef struct {
    char file[256];
    int line, col;
    int vf, ic, unroll;
    int nunroll;          /* partial or runtime unroll remarks at this position */
    int ucount[4];        /* the counts of the first four */
    int full;             /* FullyUnrolled: completely unrolled */
} remark;

static int remark_add(remark **r, int *n, const remark *x)
{
    for (int i = 0; i < *n; i++) {
        remark *y = &(*r)[i];
        if (y->line == x->line && y->col == x->col && strcmp(y->file, x->file) == 0) {
            if (x->vf > 1) { y->vf = x->vf; y->ic = x->ic; }
            if (x->unroll > 1) {
                if (y->nunroll < 4)
                    y->ucount[y->nunroll] = x->unroll;
                y->nunroll++;
                y->unroll = x->unroll;
            }
            if (x->full) y->full = 1;
            return 0;
        }
    }
    remark *slot = ku_push(r, n, sizeof *slot);
    if (!slot)
        return -1;
    *slot = *x;
    slot->nunroll = x->unroll > 1;
    slot->ucount[0] = x->unroll;
    return 0;
}

/* The value after `key:`, quotes removed, into out. */
static void yaml_value(const char *s, char *out, size_t n)
{
    s = skip_ws(s);
    if (*s == '\'' || *s == '"') {
        char q = *s++;
        size_t k = 0;
        while (*s && *s != q && k + 1 < n)
            out[k++] = *s++;
        out[k] = '\0';
        return;
    }
    size_t k = 0;
    while (s[k] && k + 1 < n)
        out[k] = s[k], k++;
    out[k] = '\0';
}

/* A vectorisation factor: "4" or "vscale x 4". */
static int vf_value(const char *s, int vscale)
{
    if (strncmp(s, "vscale x ", 9) == 0)
        return atoi(s + 9) * vscale;
    return atoi(s);
}

/* Passed loop-vectorize "Vectorized" and loop-unroll "PartialUnrolled" /
 * "RuntimeUnrolled" remarks, merged per position. */
static int read_remarks(const char *yaml, int vscale, remark **out, int *nout)
{
    *out = NULL;
    *nout = 0;
    if (!yaml)
        return 0;
    const char *s = yaml;
    remark cur;
    int passed = 0, kind = 0;   /* kind 1 vectorize, 2 unroll */
    memset(&cur, 0, sizeof cur);
    for (;;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        char line[512];
        if (n >= sizeof line)
            n = sizeof line - 1;
        memcpy(line, s, n);
        line[n] = '\0';
        /* A long DebugLoc flow mapping wraps onto the next lines: join them. */
        if (strncmp(line, "DebugLoc:", 9) == 0 && !strchr(line, '}')) {
            const char *close = strchr(s, '}');
            if (close && (size_t)(close - s) < sizeof line - 1) {
                n = (size_t)(close - s) + 1;
                memcpy(line, s, n);
                line[n] = '\0';
                for (char *q = line; *q; q++)
                    if (*q == '\n')
                        *q = ' ';
                nl = strchr(close, '\n');
            }
        }
        int end_doc = strncmp(line, "---", 3) == 0 || strncmp(line, "...", 3) == 0 || !nl;
        if (end_doc) {
            cur.full = kind == 3;
            if (passed && kind && cur.line > 0
                && ((kind == 1 && cur.vf > 0) || (kind == 2 && cur.unroll > 1) || kind == 3)) {
                if (kind == 3)
                    cur.unroll = 0;
                if (cur.ic < 1)
                    cur.ic = 1;
                if (remark_add(out, nout, &cur))
                    return -1;
            }
            memset(&cur, 0, sizeof cur);
            passed = strncmp(line, "--- !Passed", 11) == 0;
            kind = 0;
        } else if (strncmp(line, "Pass:", 5) == 0 || strncmp(line, "Name:", 5) == 0) {
            char v[64];
            yaml_value(line + 5, v, sizeof v);
            if (strcmp(v, "Vectorized") == 0)
                kind = 1;
            else if (strcmp(v, "PartialUnrolled") == 0 || strcmp(v, "RuntimeUnrolled") == 0)
                kind = 2;
            else if (strcmp(v, "FullyUnrolled") == 0)
                kind = 3;
        } else if (strncmp(line, "DebugLoc:", 9) == 0) {
            const char *f = strstr(line, "File:"), *l = strstr(line, "Line:"), *c = strstr(line, "Column:");
            if (f && l && c) {
                char v[256];
                yaml_value(f + 5, v, sizeof v);
                char *comma = strchr(v, ',');
                if (comma && v[0] != '\'' )
                    *comma = '\0';
                snprintf(cur.file, sizeof cur.file, "%s", v);
                cur.line = atoi(l + 5);
                cur.col = atoi(c + 7);
            }
        } else {
            const char *k;
            char v[64];
            if ((k = strstr(line, "- VectorizationFactor:"))) {
                yaml_value(k + 22, v, sizeof v);
                cur.vf = vf_value(v, vscale);
            } else if ((k = strstr(line, "- InterleaveCount:"))) {
                yaml_value(k + 18, v, sizeof v);
                cur.ic = atoi(v);
            } else if ((k = strstr(line, "- UnrollCount:"))) {
                yaml_value(k + 14, v, sizeof v);
                cur.unroll = atoi(v);
            }
        }
        if (!nl)
            break;
        s = nl + 1;
    }
    return 0;
}

/* ======================================================================== */
/* Mapping                                                                   */
/* ======================================================================== */

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* Does .file index f name the source file `path`? */
static int same_file(const asmtext *a, int f, const char *path)
{
    if (f < 0 || f >= a->nfiles || !a->files[f] || !path)
        return 0;
    if (strcmp(a->files[f], path) == 0)
        return 1;
    return a->files[f][0] != '/' && strcmp(base_name(a->files[f]), base_name(path)) == 0;
}

/* The source loop whose `for` keyword is on loc's line at or left of its
 * column (the rightmost such), or -1. */
static int loop_at(const ir_tu *tu, const asmtext *a, loc x)
{
    int best = -1;
    for (int i = 0; i < tu->nloops; i++) {
        const ir_loop *L = &tu->loops[i];
        if (L->line != x.line || L->col > x.col || !same_file(a, x.file, L->file))
            continue;
        if (best < 0 || L->col > tu->loops[best].col)
            best = i;
    }
    /* OpenMP lowering puts a parallel loop's own control on its pragma
     * line: a position on one of the pragma lines right above a loop. */
    for (int i = 0; best < 0 && i < tu->nloops; i++) {
        const ir_loop *L = &tu->loops[i];
        if (L->npragmas > 0 && x.line < L->line && x.line >= L->line - L->npragmas
            && same_file(a, x.file, L->file))
            best = i;
    }
    return best;
}

/* The .loc positions in loop l's own blocks (line and column > 0). */
static int own_locs(asmtext *a, int l, loc **out)
{
    int n = 0;
    *out = NULL;
    for (int bi = 0; bi < a->nb; bi++) {
        if (a->b[bi].loop != l)
            continue;
        for (int k = a->b[bi].first; k < a->b[bi].last; k++) {
            const char *s = skip_ws(a->line[k]);
            if (strncmp(s, ".loc", 4) != 0 || (s[4] != ' ' && s[4] != '\t'))
                continue;
            loc x;
            if (sscanf(s + 5, "%d %d %d", &x.file, &x.line, &x.col) != 3 || x.line <= 0)
                continue;
            loc *slot = ku_push(out, &n, sizeof *slot);
            if (!slot) {
                a->oom = 1;
                return n;
            }
            *slot = x;
        }
    }
    return n;
}

static void map_loop(const ir_tu *tu, asmtext *a, int l)
{
    aloop *L = &a->l[l];
    loc *locs;
    int n = own_locs(a, l, &locs);
    /* Source loops that all mapped inner assembly loops lie strictly in. */
    int best = -1;
    for (int k = 0; k < n; k++) {
        int s = loop_at(tu, a, locs[k]);
        for (int i = 0; i < tu->nloops && !L->any_main_loc; i++)
            if (same_file(a, locs[k].file, tu->loops[i].file))
                L->any_main_loc = 1;
        if (s < 0)
            continue;
        int ok = 1;
        for (int c = 0; c < a->nl && ok; c++)
            if (a->l[c].parent == l && a->l[c].map >= 0
                && !(a->l[c].map != s && ir_loop_within(tu, a->l[c].map, s)))
                ok = 0;
        if (ok && (best < 0 || tu->loops[s].depth > tu->loops[best].depth))
            best = s;
    }
    if (best < 0 && L->nchildren == 0 && n > 0) {
        /* Fallback: the deepest loop whose lines hold every position. */
        for (int i = 0; i < tu->nloops; i++) {
            const ir_loop *S = &tu->loops[i];
            int all = 1, any = 0;
            for (int k = 0; k < n && all; k++) {
                if (!same_file(a, locs[k].file, S->file))
                    continue;
                any = 1;
                all = locs[k].line >= S->line && locs[k].line <= S->end_line;
            }
            if (any && all && (best < 0 || S->depth > tu->loops[best].depth))
                best = i;
        }
    }
    L->map = best;
    free(locs);
}

static int find_remark(const remark *r, int n, const ir_loop *L)
{
    for (int i = 0; i < n; i++)
        if (r[i].line == L->line && r[i].col == L->col
            && strcmp(base_name(r[i].file), base_name(L->file ? L->file : "")) == 0)
            return i;
    return -1;
}

/* The assembly copies mapped to source loop i: their number; the largest
 * (prim), the largest with vector instructions (vec) and without (sc), -1
 * for none. */
static int pick_copies(const asmtext *a, int i, int *prim, int *vec, int *sc)
{
    int n = 0;
    *prim = *vec = *sc = -1;
    for (int l = 0; l < a->nl; l++) {
        if (a->l[l].map != i)
            continue;
        n++;
        int sz = a->l[l].ninstr;
        if (*prim < 0 || sz > a->l[*prim].ninstr)
            *prim = l;
        int *best = a->l[l].vector ? vec : sc;
        if (*best < 0 || sz > a->l[*best].ninstr)
            *best = l;
    }
    return n;
}

/* The unroll count of a vectorised loop's vector copy, from the unroll
 * remarks at the loop's position (which do not say which copy each was
 * about) and, where they leave a choice, the memory operations of the
 * vector copy (mem_v) and of its largest scalar copy (mem_s), of ncopies
 * assembly copies in all:
 *   - no unroll remark: 1;
 *   - one copy, remarks of one count U: U;
 *   - two copies (vector, scalar), one remark U or two remarks U1, U2:
 *     the assignment of counts to copies (the copy without a remark: 1)
 *     whose predicted ratio mem_v / mem_s = IC x u_v / u_s is nearest the
 *     assembly's, in log; two remarks of one count: that count;
 *   - anything else (more copies, three counts, no memory operations to
 *     compare): 1, as when nothing was unrolled.
 * The choices differ by a factor of U (or U1 / U2) either side, so the
 * vector copy's extra loads or shuffles do not flip them. */
static int vector_unroll(const remark *r, int ncopies, int ic, int mem_v, int mem_s)
{
    int n = r->nunroll;
    if (n == 0 || n > 2)
        return 1;
    if (ncopies == 1)
        return n == 1 || r->ucount[0] == r->ucount[1] ? r->ucount[0] : 1;
    if (ncopies != 2)
        return 1;
    if (n == 2 && r->ucount[0] == r->ucount[1])
        return r->ucount[0];
    if (mem_v <= 0 || mem_s <= 0)
        return 1;
    /* Candidates (u_v, u_s), the smaller u_v first: it wins a tie. */
    int lo = n == 1 ? 1 : r->ucount[0] < r->ucount[1] ? r->ucount[0] : r->ucount[1];
    int hi = n == 1 ? r->ucount[0] : r->ucount[0] < r->ucount[1] ? r->ucount[1] : r->ucount[0];
    int cand[2][2] = { { lo, hi }, { hi, lo } };
    double q = log((double)mem_v / mem_s), best = INFINITY;
    int pick = 1;
    for (int c = 0; c < 2; c++) {
        double d = fabs(q - log((double)ic * cand[c][0] / cand[c][1]));
        if (d < best)
            best = d, pick = cand[c][0];
    }
    return pick;
}

int mca_plan_build(const ir_tu *tu, const char *asm_text, const char *remarks,
                   int vscale, mca_plan **out, char *err, size_t errlen)
{
    asmtext a;
    *out = NULL;
    if (asm_read(&a, asm_text, err, errlen) || a.oom) {
        int oom = a.oom;
        asm_free(&a);
        return oom ? ku_fail(err, errlen, "out of memory") : -1;
    }
    remark *rm = NULL;
    int nrm = 0;
    if (read_remarks(remarks, vscale < 1 ? 1 : vscale, &rm, &nrm)) {
        asm_free(&a);
        return ku_fail(err, errlen, "out of memory");
    }
    mca_plan *p = calloc(1, sizeof *p);
    if (!p || !(p->loops = calloc((size_t)tu->nloops + 1, sizeof *p->loops))) {
        free(p);
        free(rm);
        asm_free(&a);
        return ku_fail(err, errlen, "out of memory");
    }
    p->nloops = tu->nloops;
    p->nasm = a.nl;
    for (int l = 0; l < a.nl; l++)
        if (build_body(&a, l) != 0) {
            free(p->loops);
            free(p);
            free(rm);
            asm_free(&a);
            return ku_fail(err, errlen, "out of memory");
        }
    /* Deepest assembly loops first, so outer ones see their children's maps. */
    int maxd = 0;
    for (int l = 0; l < a.nl; l++)
        if (a.l[l].depth > maxd)
            maxd = a.l[l].depth;
    for (int d = maxd; d >= 1; d--)
        for (int l = 0; l < a.nl; l++)
            if (a.l[l].depth == d)
                map_loop(tu, &a, l);
    if (a.oom) {
        mca_plan_free(p);
        free(rm);
        asm_free(&a);
        return ku_fail(err, errlen, "out of memory");
    }

    for (int i = 0; i < tu->nloops; i++) {
        mca_loop_plan *P = &p->loops[i];
        int r = find_remark(rm, nrm, &tu->loops[i]);
        P->vf = r >= 0 && rm[r].vf > 0 ? rm[r].vf : 1;
        P->ic = r >= 0 && rm[r].vf > 0 ? rm[r].ic : 1;
        P->unroll = r >= 0 && rm[r].unroll > 1 ? rm[r].unroll : 1;
        int vectorised = r >= 0 && rm[r].vf > 0;
        int prim, prim_vec, prim_sc;
        P->ncopies = pick_copies(&a, i, &prim, &prim_vec, &prim_sc);
        if (vectorised && prim_vec >= 0)
            prim = prim_vec;
        if (prim < 0) {
            int named = 0;   /* does any .file of the assembly name the loop's source? */
            for (int f = 0; f < a.nfiles && !named; f++)
                named = same_file(&a, f, tu->loops[i].file);
            P->reason = strdup(!named ? "the assembly's line table does not name this loop's "
                                        "source file"
                               : r >= 0 && rm[r].full
                                   ? "fully unrolled by the optimiser: no assembly loop"
                                   : "no assembly loop maps to this loop (unrolled, merged "
                                     "or removed by the optimiser)");
            continue;
        }
        aloop *A = &a.l[prim];
        P->label = strdup(a.b[A->header].label);
        P->asm_innermost = A->nchildren == 0;
        P->vector = A->vector;
        /* A vectorised loop whose vector body did not stay a loop (fully
         * unrolled) keeps only its scalar copy: that one counts by its unroll.
         * The vector copy runs VF x IC source iterations, times its unroll. */
        int vec_unroll = vectorised && prim_vec >= 0 && r >= 0
                             ? vector_unroll(&rm[r], P->ncopies, P->ic, a.l[prim_vec].nmem,
                                             prim_sc >= 0 ? a.l[prim_sc].nmem : 0)
                             : 1;
        P->iters_per_asm = vectorised && prim_vec >= 0
                               ? P->vf * P->ic * vec_unroll
                               : P->unroll;
        if (!A->nchildren)
            ;
        else
            P->iters_per_asm = 1;   /* an outer body: one source iteration */
        if (A->body && A->ninstr > 0) {
            P->body = A->body;
            A->body = NULL;
        } else {
            P->reason = strdup(A->nchildren ? "outer assembly loop has no own instructions"
                                            : "assembly loop has no instructions");
        }
    }
    ku_buf ul = {0};
    for (int l = 0; l < a.nl; l++)
        if (a.l[l].map < 0 && a.l[l].any_main_loc) {
            if (p->unmapped++)
                ku_buf_putc(&ul, ' ');
            ku_buf_put(&ul, a.b[a.l[l].header].label);
        }
    p->unmapped_labels = ku_buf_take(&ul);
    free(rm);
    asm_free(&a);
    *out = p;
    return 0;
}

void mca_plan_free(mca_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nloops; i++) {
        free(p->loops[i].label);
        free(p->loops[i].body);
        free(p->loops[i].reason);
    }
    free(p->loops);
    free(p->unmapped_labels);
    free(p);
}

/* ======================================================================== */
/* Whole iterations                                                          */
/* ======================================================================== */

kx_expr *mca_whole_iter_mcycles(const ir_tu *tu, const mca_plan *p, const double *c, int l)
{
    const mca_loop_plan *P = &p->loops[l];
    if (P->ncopies == 0 || !isfinite(c[l]) || c[l] < 0)
        return NULL;
    kx_expr *w = kx_int((int64_t)llround(c[l] * 1000.0));
    if (P->asm_innermost)
        return w;
    int *kids = NULL;
    int nk = ir_children(tu, l, &kids);
    for (int k = 0; k < nk && w; k++) {
        int ch = kids[k];
        kx_expr *wc = tu->loops[ch].trip ? mca_whole_iter_mcycles(tu, p, c, ch) : NULL;
        kx_expr *t = wc ? kx_mul(tu->loops[ch].trip, wc) : NULL;
        kx_expr *sum = t ? kx_add(w, t) : NULL;
        kx_free(wc);
        kx_free(t);
        kx_free(w);
        w = sum;
    }
    free(kids);
    return w;
}
