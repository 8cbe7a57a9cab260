/*
 * walk_source.c -- the walker's small libclang helpers and its view of the
 * source files.
 *
 * Cursor children, peeling of implicit casts and parentheses, expansion
 * locations, file and cursor names (real paths, so rows of one file agree
 * however it was named), type tests; then each file the walk touches: its
 * buffer (the text as written, also for files parsed from a copy with
 * their OpenMP directives blanked), where its lines start, and its #pragma
 * lines with their continuations, which are attached to the loop written
 * directly below them (or to the loops of a `#pragma scop` region).
 */
#include "walk_int.h"

/* ---- small libclang helpers ---------------------------------------------- */

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    child_list *l = data;
    if (l->n < MAX_CHILDREN)
        l->c[l->n++] = c;
    l->total++;
    return CXChildVisit_Continue;
}

child_list wk_children(CXCursor c)
{
    child_list l;
    l.n = l.total = 0;
    clang_visitChildren(c, collect_child, &l);
    return l;
}

/* Strip implicit casts, parentheses and explicit casts. */
CXCursor wk_peel(CXCursor c)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr)
            return c;
        child_list l = wk_children(c);
        if (l.n == 0)
            return c;
        if (k == CXCursor_UnexposedExpr && l.n != 1)
            return c;
        c = l.c[l.n - 1];   /* a C-style cast may have a TypeRef first */
    }
}

/* Expansion location (line, col, offset, file) of a source location. */
void wk_expansion(CXSourceLocation loc, CXFile *file, int *line, int *col, int *offset)
{
    CXFile f;
    unsigned l, c, o;
    clang_getExpansionLocation(loc, &f, &l, &c, &o);
    if (file)
        *file = f;
    if (line)
        *line = (int)l;
    if (col)
        *col = (int)c;
    if (offset)
        *offset = (int)o;
}

int wk_start_offset(CXCursor c)
{
    int o;
    wk_expansion(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &o);
    return o;
}

_Thread_local int wk_spelling_oom;

/* The file's absolute, resolved path (as the name libclang was given when
 * it cannot be resolved), so rows of one file agree however it was named.
 * NULL only on allocation failure. */
char *wk_file_name(CXFile f)
{
    CXString s = clang_File_tryGetRealPathName(f);
    const char *p = clang_getCString(s);
    if (!p || !*p) {
        clang_disposeString(s);
        s = clang_getFileName(f);
        p = clang_getCString(s);
    }
    char *r = strdup(p && *p ? p : "?");
    clang_disposeString(s);
    if (!r)
        wk_spelling_oom = 1;
    return r;
}

/* The cursor's spelling, malloc'd; NULL only on allocation failure (then
 * wk_spelling_oom is set). */
char *wk_cursor_spelling(CXCursor c)
{
    CXString s = clang_getCursorSpelling(c);
    const char *p = clang_getCString(s);
    char *r = strdup(p ? p : "");
    clang_disposeString(s);
    if (!r)
        wk_spelling_oom = 1;
    return r;
}

static int is_float_type(CXType t)
{
    t = clang_getCanonicalType(t);
    switch (t.kind) {
    case CXType_Float:
    case CXType_Double:
    case CXType_LongDouble:
    case CXType_Half:
    case CXType_Float16:
    case CXType_Float128:
        return 1;
    default:
        return 0;
    }
}

int wk_is_float(CXCursor c)
{
    return is_float_type(clang_getCursorType(c));
}

/* ---- source files and pragmas -------------------------------------------- */

void wk_collapse_spaces(char *s)
{
    char *w = s;
    int space = 0;
    for (char *r = s; *r; r++) {
        if (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r' || *r == '\\') {
            space = w != s;
            continue;
        }
        if (space)
            *w++ = ' ';
        space = 0;
        *w++ = *r;
    }
    *w = '\0';
}

/* Scan a buffer for #pragma lines (joining backslash continuations). */
static void scan_pragmas(walker *w, source_file *sf)
{
    const char *p = sf->buf, *end = sf->buf + sf->len;
    int line = 1;
    while (p < end) {
        const char *ls = p;
        int start_line = line;
        while (ls < end && (*ls == ' ' || *ls == '\t'))
            ls++;
        /* Find the end of this logical line. */
        const char *le = p;
        for (;;) {
            while (le < end && *le != '\n')
                le++;
            if (le < end && le > p && le[-1] == '\\') {
                le++;
                line++;
                continue;
            }
            break;
        }
        if (ls < end && *ls == '#') {
            const char *q = ls + 1;
            while (q < le && (*q == ' ' || *q == '\t'))
                q++;
            if (le - q > 6 && strncmp(q, "pragma", 6) == 0 && (q[6] == ' ' || q[6] == '\t')) {
                size_t n = (size_t)(le - (q + 6));
                char *text = malloc(n + 1);
                pragma_line *np = text ? ku_push(&sf->pragmas, &sf->npragmas, sizeof *np) : NULL;
                if (np) {
                    memcpy(text, q + 6, n);
                    text[n] = '\0';
                    wk_collapse_spaces(text);
                    np->line = start_line;
                    np->last_line = line;
                    np->text = text;
                } else {
                    free(text);
                    w->oom = 1;     /* never a loop without its pragma */
                }
            }
        }
        p = le < end ? le + 1 : end;
        line++;
    }
}

static void index_file(walker *w, source_file *sf)
{
    int n = 1;
    for (size_t i = 0; i < sf->len; i++)
        n += sf->buf[i] == '\n';
    sf->line_off = malloc(sizeof *sf->line_off * (size_t)n);
    sf->scop_line = malloc(sizeof *sf->scop_line * (size_t)(sf->npragmas + 1));
    if (!sf->line_off || !sf->scop_line) {
        w->oom = 1;
        return;
    }
    sf->line_off[0] = 0;
    sf->nlines = 1;
    for (size_t i = 0; i < sf->len; i++)
        if (sf->buf[i] == '\n')
            sf->line_off[sf->nlines++] = i + 1;
    int open = 0;
    for (int i = 0; i < sf->npragmas; i++) {
        if (strcmp(sf->pragmas[i].text, "scop") == 0)
            open = sf->pragmas[i].line;
        else if (strcmp(sf->pragmas[i].text, "endscop") == 0)
            open = 0;
        sf->scop_line[i] = open;
    }
}

source_file *wk_get_file(walker *w, CXFile f)
{
    for (int i = 0; i < w->nfiles; i++)
        if (clang_File_isEqual(w->files[i].file, f))
            return &w->files[i];
    source_file *sf = ku_push(&w->files, &w->nfiles, sizeof *sf);
    if (!sf) {
        w->oom = 1;
        return NULL;
    }
    sf->file = f;
    sf->buf = clang_getFileContents(w->tu, f, &sf->len);
    if (w->npatched) {   /* a blanked copy was parsed: read what was written */
        CXString n = clang_getFileName(f);
        const char *name = clang_getCString(n);
        for (int i = 0; name && i < w->npatched; i++)
            if (strcmp(w->patched[i].name, name) == 0) {
                sf->buf = w->patched[i].orig;
                sf->len = w->patched[i].len;
            }
        clang_disposeString(n);
    }
    if (sf->buf) {
        scan_pragmas(w, sf);
        index_file(w, sf);
    }
    return sf;
}

/* Is line `line` of the buffer blank or only a comment? */
static int blank_or_comment_line(const source_file *sf, int line)
{
    const char *p = sf->buf, *end = sf->buf + sf->len;
    if (line < 1 || line > sf->nlines || !sf->line_off)
        return 1;
    p += sf->line_off[line - 1];
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
    if (p >= end || *p == '\n')
        return 1;
    return (p + 1 < end && p[0] == '/' && (p[1] == '/' || p[1] == '*')) || p[0] == '*';
}

static int is_standalone_directive(const char *text)
{
    omp_directive d;
    char err[64];
    int r = omp_parse(text, &d, err, sizeof err) == 0 && omp_is_standalone(&d);
    omp_free(&d);
    return r;
}

/* Attach the pragmas written directly above the loop (only blank lines,
 * comments and other pragmas in between) and "scop" to an outermost loop
 * of a #pragma scop region. */
void wk_attach_pragmas(walker *w, int loop, CXFile f)
{
    source_file *sf = wk_get_file(w, f);
    ir_loop *l = &w->ir->loops[loop];
    if (!sf || !sf->buf)
        return;
    int line = l->line - 1, first = sf->npragmas;
    /* the pragmas above the loop: [0, below) by binary search */
    int lo = 0, hi = sf->npragmas;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (sf->pragmas[mid].line < l->line)
            lo = mid + 1;
        else
            hi = mid;
    }
    int below = lo;
    first = below;
    for (int i = below - 1; i >= 0 && line > 0; i--) {
        pragma_line *pl = &sf->pragmas[i];
        if (pl->last_line > line)
            continue;
        while (line > pl->last_line && blank_or_comment_line(sf, line))
            line--;
        if (line != pl->last_line)
            break;
        if (is_standalone_directive(pl->text))
            break;   /* `omp barrier` is a statement of its own, not the loop's */
        first = i;
        line = pl->line - 1;
    }
    for (int i = first; i < sf->npragmas && sf->pragmas[i].line < l->line; i++) {
        const char *t = sf->pragmas[i].text;
        if (strcmp(t, "scop") == 0 || strcmp(t, "endscop") == 0)
            continue;
        ir_add_pragma(l, t);
        if (!l->pragma_line)
            l->pragma_line = sf->pragmas[i].line;
        if (omp_text_is_target_region(t) && !omp_text_has_word(t, OMP_DATA))
            l->target_line = sf->pragmas[i].last_line;   /* accepts if(target: ...) */
    }

    /* the first synchronisation construct written inside the loop
     * (analysis/sync.h) */
    for (int i = below; i < sf->npragmas && sf->pragmas[i].line <= l->end_line && !l->sync; i++)
        if (sync_directive(sf->pragmas[i].text)) {
            l->sync = strdup(sf->pragmas[i].text);
            l->sync_line = sf->pragmas[i].line;
            if (!l->sync)
                w->oom = 1;
        }

    /* scop region: the last scop/endscop pragma above the loop is a scop. */
    int scop_line = below > 0 && sf->scop_line ? sf->scop_line[below - 1] : 0;
    int in_scop = scop_line > 0;
    if (in_scop && (l->parent < 0 || w->ir->loops[l->parent].line < scop_line))
        ir_add_pragma(l, "scop");
}

/* Source text of a cursor's extent, whitespace collapsed. */
char *wk_extent_text(walker *w, CXCursor c)
{
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile f1, f2;
    int o1, o2;
    wk_expansion(clang_getRangeStart(r), &f1, NULL, NULL, &o1);
    wk_expansion(clang_getRangeEnd(r), &f2, NULL, NULL, &o2);
    source_file *sf = f1 ? wk_get_file(w, f1) : NULL;
    if (!sf || !sf->buf || !clang_File_isEqual(f1, f2) || o2 < o1 || (size_t)o2 > sf->len)
        return wk_cursor_spelling(c);
    /* An expansion end points at the start of the last token: extend it. */
    while ((size_t)o2 < sf->len && (sf->buf[o2] == '_' || sf->buf[o2] == '.'
           || (sf->buf[o2] >= '0' && sf->buf[o2] <= '9')
           || (sf->buf[o2] >= 'a' && sf->buf[o2] <= 'z')
           || (sf->buf[o2] >= 'A' && sf->buf[o2] <= 'Z')))
        o2++;
    char *s = malloc((size_t)(o2 - o1) + 1);
    if (!s)
        return NULL;
    memcpy(s, sf->buf + o1, (size_t)(o2 - o1));
    s[o2 - o1] = '\0';
    wk_collapse_spaces(s);
    return s;
}
