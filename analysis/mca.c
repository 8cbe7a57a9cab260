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

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* ======================================================================== */
/* JSON                                                                     */
/* ======================================================================== */

typedef struct {
    const char *s;
    size_t i;
    char *err;
    size_t errlen;
    int depth;
} jp;

static void jws(jp *p)
{
    while (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' || p->s[p->i] == '\r')
        p->i++;
}

static int jfail(jp *p, const char *what)
{
    return fail(p->err, p->errlen, "json: %s at offset %zu", what, p->i);
}

static void utf8_put(char *out, size_t *n, unsigned cp)
{
    if (cp < 0x80) {
        out[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*n)++] = (char)(0xC0 | (cp >> 6));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*n)++] = (char)(0xE0 | (cp >> 12));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*n)++] = (char)(0xF0 | (cp >> 18));
        out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
}

static int hex4(const char *s, unsigned *v)
{
    *v = 0;
    for (int k = 0; k < 4; k++) {
        int c = (unsigned char)s[k], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        *v = *v * 16 + (unsigned)d;
    }
    return 0;
}

/* A string literal at p->i (the opening quote); *out malloc'd. */
static int jstring(jp *p, char **out)
{
    size_t start = ++p->i, n = 0;
    size_t len = 0;
    while (p->s[start + len] && p->s[start + len] != '"') {
        if (p->s[start + len] == '\\' && p->s[start + len + 1])
            len++;
        len++;
    }
    if (p->s[start + len] != '"')
        return jfail(p, "unterminated string");
    char *buf = malloc(len + 1);   /* unescaping never grows: \uXXXX is 6 bytes -> <= 4 */
    if (!buf)
        return jfail(p, "out of memory");
    while (p->s[p->i] != '"') {
        unsigned char c = (unsigned char)p->s[p->i];
        if (c < 0x20) {
            free(buf);
            return jfail(p, "control character in string");
        }
        if (c != '\\') {
            buf[n++] = (char)c;
            p->i++;
            continue;
        }
        char e = p->s[p->i + 1];
        p->i += 2;
        switch (e) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (hex4(p->s + p->i, &cp)) {
                free(buf);
                return jfail(p, "bad \\u escape");
            }
            p->i += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && p->s[p->i] == '\\' && p->s[p->i + 1] == 'u'
                && hex4(p->s + p->i + 2, &lo) == 0 && lo >= 0xDC00 && lo < 0xE000) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                p->i += 6;
            }
            utf8_put(buf, &n, cp);
            break;
        }
        default:
            free(buf);
            return jfail(p, "bad escape");
        }
    }
    p->i++;
    buf[n] = '\0';
    *out = buf;
    return 0;
}

static int jvalue(jp *p, mj_value *v);

static int jgrow(mj_value *v, int *cap, int obj)
{
    if (v->n < *cap)
        return 0;
    int nc = *cap ? *cap * 2 : 4;
    mj_value *it = realloc(v->items, sizeof *it * (size_t)nc);
    if (!it)
        return -1;
    v->items = it;
    if (obj) {
        char **k = realloc(v->keys, sizeof *k * (size_t)nc);
        if (!k)
            return -1;
        v->keys = k;
    }
    *cap = nc;
    return 0;
}

static int jvalue(jp *p, mj_value *v)
{
    memset(v, 0, sizeof *v);
    jws(p);
    char c = p->s[p->i];
    if (c == '{' || c == '[') {
        int obj = c == '{', cap = 0;
        if (++p->depth > 256)
            return jfail(p, "nested too deeply");
        v->type = obj ? MJ_OBJ : MJ_ARR;
        p->i++;
        jws(p);
        if (p->s[p->i] == (obj ? '}' : ']')) {
            p->i++;
            p->depth--;
            return 0;
        }
        for (;;) {
            if (jgrow(v, &cap, obj))
                return jfail(p, "out of memory");
            char *key = NULL;
            if (obj) {
                jws(p);
                if (p->s[p->i] != '"' || jstring(p, &key))
                    return p->s[p->i] != '"' ? jfail(p, "expected a key") : -1;
                jws(p);
                if (p->s[p->i] != ':') {
                    free(key);
                    return jfail(p, "expected ':'");
                }
                p->i++;
                v->keys[v->n] = key;
            }
            if (jvalue(p, &v->items[v->n])) {
                v->n++;   /* free what was partly built */
                return -1;
            }
            v->n++;
            jws(p);
            if (p->s[p->i] == ',') {
                p->i++;
                continue;
            }
            if (p->s[p->i] == (obj ? '}' : ']')) {
                p->i++;
                p->depth--;
                return 0;
            }
            return jfail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    if (c == '"') {
        v->type = MJ_STR;
        return jstring(p, &v->str);
    }
    if (strncmp(p->s + p->i, "true", 4) == 0 || strncmp(p->s + p->i, "false", 5) == 0) {
        v->type = MJ_BOOL;
        v->num = c == 't';
        p->i += c == 't' ? 4 : 5;
        return 0;
    }
    if (strncmp(p->s + p->i, "null", 4) == 0) {
        v->type = MJ_NULL;
        p->i += 4;
        return 0;
    }
    if (c == '-' || isdigit((unsigned char)c)) {
        char *end;
        errno = 0;
        v->type = MJ_NUM;
        v->num = strtod(p->s + p->i, &end);
        if (end == p->s + p->i)
            return jfail(p, "bad number");
        p->i = (size_t)(end - p->s);
        return 0;
    }
    return jfail(p, c ? "unexpected character" : "unexpected end");
}

static void mj_clear(mj_value *v)
{
    for (int k = 0; k < v->n; k++) {
        if (v->keys)
            free(v->keys[k]);
        mj_clear(&v->items[k]);
    }
    free(v->keys);
    free(v->items);
    free(v->str);
}

void mj_free(mj_value *v)
{
    if (!v)
        return;
    mj_clear(v);
    free(v);
}

int mj_parse(const char *text, mj_value **out, char *err, size_t errlen)
{
    jp p = { text, 0, err, errlen, 0 };
    mj_value *v = calloc(1, sizeof *v);
    *out = NULL;
    if (!v)
        return fail(err, errlen, "json: out of memory");
    if (jvalue(&p, v) == 0) {
        jws(&p);
        if (!text[p.i]) {
            *out = v;
            return 0;
        }
        jfail(&p, "trailing text");
    }
    mj_free(v);
    return -1;
}

const mj_value *mj_get(const mj_value *obj, const char *key)
{
    if (!obj || obj->type != MJ_OBJ)
        return NULL;
    for (int k = 0; k < obj->n; k++)
        if (strcmp(obj->keys[k], key) == 0)
            return &obj->items[k];
    return NULL;
}

double mj_num(const mj_value *obj, const char *key, double dflt)
{
    const mj_value *v = mj_get(obj, key);
    return v && v->type == MJ_NUM ? v->num : dflt;
}

/* ======================================================================== */
/* llvm-mca figures                                                         */
/* ======================================================================== */

int mca_parse_json(const char *json, mca_figures *out, char *err, size_t errlen)
{
    mj_value *root;
    memset(out, 0, sizeof *out);
    if (mj_parse(json, &root, err, errlen))
        return -1;
    const mj_value *regions = mj_get(root, "CodeRegions");
    const mj_value *r = regions && regions->type == MJ_ARR && regions->n > 0 ? &regions->items[0] : NULL;
    const mj_value *sum = mj_get(r, "SummaryView");
    double iters = mj_num(sum, "Iterations", 0), cycles = mj_num(sum, "TotalCycles", -1);
    if (!sum || iters <= 0 || cycles < 0) {
        mj_free(root);
        return fail(err, errlen, "llvm-mca output has no summary view");
    }
    out->cycles_per_iter = cycles / iters;
    out->block_rthroughput = mj_num(sum, "BlockRThroughput", 0);
    out->ipc = mj_num(sum, "IPC", 0);
    out->uops_per_iter = mj_num(sum, "TotaluOps", 0) / iters;

    /* Resource pressure: sum ResourceUsage per resource over the block. */
    const mj_value *names = mj_get(mj_get(root, "TargetInfo"), "Resources");
    const mj_value *info = mj_get(mj_get(r, "ResourcePressureView"), "ResourcePressureInfo");
    if (names && names->type == MJ_ARR && names->n > 0 && info && info->type == MJ_ARR) {
        double *use = calloc((size_t)names->n, sizeof *use);
        if (use) {
            for (int k = 0; k < info->n; k++) {
                double ri = mj_num(&info->items[k], "ResourceIndex", -1);
                if (ri >= 0 && ri < names->n)
                    use[(int)ri] += mj_num(&info->items[k], "ResourceUsage", 0);
            }
            int best = -1;
            for (int k = 0; k < names->n; k++)
                if (use[k] > 0 && (best < 0 || use[k] > use[best]))
                    best = k;
            if (best >= 0 && names->items[best].type == MJ_STR) {
                snprintf(out->resource, sizeof out->resource, "%s", names->items[best].str);
                out->resource_cycles = use[best];
            }
            free(use);
        }
    }
    mj_free(root);
    return 0;
}

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
        const char *e = strchr(q + 1, '"');
        if (!e)
            break;
        size_t len = (size_t)(e - q - 1);
        if (len >= PATH_MAX)
            return;
        memcpy(part[np], q + 1, len);
        part[np][len] = '\0';
        np++;
        q = e + 1;
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
        if (!f)
            return;
        for (int i = a->nfiles; i <= n; i++)
            f[i] = NULL;
        a->files = f;
        a->nfiles = (int)n + 1;
    }
    free(a->files[n]);
    a->files[n] = strdup(realpath(joined, real) ? real : joined);
}

static int asm_read(asmtext *a, const char *text, char *err, size_t errlen)
{
    memset(a, 0, sizeof *a);
    if (!(a->buf = strdup(text)))
        return fail(err, errlen, "out of memory");
    int cap = 1;
    for (const char *s = text; *s; s++)
        cap += *s == '\n';
    if (!(a->line = malloc(sizeof *a->line * (size_t)cap)))
        return fail(err, errlen, "out of memory");
    for (char *s = a->buf; s;) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        a->line[a->nlines++] = s;
        s = nl ? nl + 1 : NULL;
    }
    a->slash_comments = strstr(text, "// -- Begin function") != NULL;
    int bcap = 0, lcap = 0;
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
        if (a->nb == bcap) {
            bcap = bcap ? bcap * 2 : 64;
            ablock *nb = realloc(a->b, sizeof *nb * (size_t)bcap);
            if (!nb)
                return fail(err, errlen, "out of memory");
            a->b = nb;
        }
        if (a->nb)
            a->b[a->nb - 1].last = i;
        ablock *b = &a->b[a->nb++];
        memset(b, 0, sizeof *b);
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
        if (a->nl == lcap) {
            lcap = lcap ? lcap * 2 : 16;
            aloop *nl = realloc(a->l, sizeof *nl * (size_t)lcap);
            if (!nl)
                return fail(err, errlen, "out of memory");
            a->l = nl;
        }
        aloop *l = &a->l[a->nl];
        memset(l, 0, sizeof *l);
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

/* Append the instruction at s (comment stripped) to buf. */
static void append_instr(const asmtext *a, char **buf, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    const char *c = a->slash_comments ? strstr(s, "//") : strchr(s, '#');
    if (c)
        n = (size_t)(c - s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (!n)
        return;
    if (*len + n + 2 > *cap) {
        size_t nc = (*cap + n + 2) * 2;
        char *nb = realloc(*buf, nc);
        if (!nb)
            return;
        *buf = nb;
        *cap = nc;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[(*len)++] = '\n';
    (*buf)[*len] = '\0';
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

/* Build loop l's llvm-mca body: innermost loops take every block of the loop
 * up to the last branch back to the header; outer loops their own blocks. */
static void build_body(asmtext *a, int l)
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
    size_t len = 0, cap = 0;
    char *buf = NULL;
    for (int bi = 0; bi < a->nb; bi++) {
        if (a->b[bi].loop != l)
            continue;
        for (int k = a->b[bi].first; k < a->b[bi].last; k++) {
            if (last_back >= 0 && k > last_back)
                break;
            const char *s = instr_of(a, a->line[k]);
            if (!s)
                continue;
            append_instr(a, &buf, &len, &cap, s);
            L->ninstr++;
            if (is_vector_instr(a, s))
                L->vector = 1;
        }
    }
    L->body = buf;
}

/* ======================================================================== */
/* Remarks                                                                   */
/* ======================================================================== */

typedef struct {
    char file[256];
    int line, col;
    int vf, ic, unroll;
    int full;             /* FullyUnrolled: completely unrolled */
} remark;

static int remark_add(remark **r, int *n, int *cap, const remark *x)
{
    for (int i = 0; i < *n; i++) {
        remark *y = &(*r)[i];
        if (y->line == x->line && y->col == x->col && strcmp(y->file, x->file) == 0) {
            if (x->vf > 1) { y->vf = x->vf; y->ic = x->ic; }
            if (x->unroll > 1) y->unroll = x->unroll;
            if (x->full) y->full = 1;
            return 0;
        }
    }
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        remark *nr = realloc(*r, sizeof *nr * (size_t)*cap);
        if (!nr)
            return -1;
        *r = nr;
    }
    (*r)[(*n)++] = *x;
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
    int cap = 0;
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
                if (remark_add(out, nout, &cap, &cur))
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

static int is_ancestor(const ir_tu *tu, int anc, int l)
{
    for (int p = tu->loops[l].parent; p >= 0; p = tu->loops[p].parent)
        if (p == anc)
            return 1;
    return 0;
}

/* The .loc positions in loop l's own blocks (line and column > 0). */
static int own_locs(const asmtext *a, int l, loc **out)
{
    int n = 0, cap = 0;
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
            if (n == cap) {
                cap = cap ? cap * 2 : 16;
                loc *nl = realloc(*out, sizeof *nl * (size_t)cap);
                if (!nl)
                    return n;
                *out = nl;
            }
            (*out)[n++] = x;
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
            if (a->l[c].parent == l && a->l[c].map >= 0 && !is_ancestor(tu, s, a->l[c].map))
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

int mca_plan_build(const ir_tu *tu, const char *asm_text, const char *remarks,
                   int vscale, mca_plan **out, char *err, size_t errlen)
{
    asmtext a;
    *out = NULL;
    if (asm_read(&a, asm_text, err, errlen)) {
        asm_free(&a);
        return -1;
    }
    remark *rm = NULL;
    int nrm = 0;
    if (read_remarks(remarks, vscale < 1 ? 1 : vscale, &rm, &nrm)) {
        asm_free(&a);
        return fail(err, errlen, "out of memory");
    }
    mca_plan *p = calloc(1, sizeof *p);
    if (!p || !(p->loops = calloc((size_t)tu->nloops + 1, sizeof *p->loops))) {
        free(p);
        free(rm);
        asm_free(&a);
        return fail(err, errlen, "out of memory");
    }
    p->nloops = tu->nloops;
    p->nasm = a.nl;
    for (int l = 0; l < a.nl; l++)
        build_body(&a, l);
    /* Deepest assembly loops first, so outer ones see their children's maps. */
    int maxd = 0;
    for (int l = 0; l < a.nl; l++)
        if (a.l[l].depth > maxd)
            maxd = a.l[l].depth;
    for (int d = maxd; d >= 1; d--)
        for (int l = 0; l < a.nl; l++)
            if (a.l[l].depth == d)
                map_loop(tu, &a, l);

    for (int i = 0; i < tu->nloops; i++) {
        mca_loop_plan *P = &p->loops[i];
        int r = find_remark(rm, nrm, &tu->loops[i]);
        P->vf = r >= 0 && rm[r].vf > 0 ? rm[r].vf : 1;
        P->ic = r >= 0 && rm[r].vf > 0 ? rm[r].ic : 1;
        P->unroll = r >= 0 && rm[r].unroll > 1 ? rm[r].unroll : 1;
        int vectorised = r >= 0 && rm[r].vf > 0;
        int prim = -1, prim_vec = -1;
        for (int l = 0; l < a.nl; l++) {
            if (a.l[l].map != i)
                continue;
            P->ncopies++;
            if (prim < 0 || a.l[l].ninstr > a.l[prim].ninstr)
                prim = l;
            if (a.l[l].vector && (prim_vec < 0 || a.l[l].ninstr > a.l[prim_vec].ninstr))
                prim_vec = l;
        }
        if (vectorised && prim_vec >= 0)
            prim = prim_vec;
        if (prim < 0) {
            P->reason = strdup(r >= 0 && rm[r].full
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
         * unrolled) keeps only its scalar copy: that one counts by its unroll. */
        P->iters_per_asm = vectorised && prim_vec >= 0 ? P->vf * P->ic : P->unroll;
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
    size_t ulen = 1;
    for (int l = 0; l < a.nl; l++)
        ulen += strlen(a.b[a.l[l].header].label) + 1;
    if ((p->unmapped_labels = malloc(ulen)))
        p->unmapped_labels[0] = '\0';
    for (int l = 0; l < a.nl; l++)
        if (a.l[l].map < 0 && a.l[l].any_main_loc) {
            p->unmapped++;
            if (p->unmapped_labels) {
                if (p->unmapped_labels[0])
                    strcat(p->unmapped_labels, " ");
                strcat(p->unmapped_labels, a.b[a.l[l].header].label);
            }
        }
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
