/*
 * walk_omp.c -- OpenMP sources.
 *
 * With -fopenmp libclang shows an executable directive as an opaque
 * CapturedStmt that hides its loops, so such a file is parsed twice: first
 * as the compiler sees it (errors, the outermost directives and the device
 * regions they open, found here), then from copies of its non-system files
 * with every executable directive blanked to spaces (same bytes, lines and
 * columns).  The loops of the second parse get their device region and
 * _Pragma text from the first.
 */
#include "walk_int.h"

/* ---- OpenMP sources -------------------------------------------------------
 *
 * With -fopenmp, libclang shows an OpenMP executable directive as a cursor
 * whose statement is an opaque CapturedStmt: no loop below it is visible.
 * Parsing without -fopenmp instead breaks OpenMP semantics (omp.h's
 * `begin declare variant` definitions collide, `declare variant` bodies
 * clash).  So a file compiled with -fopenmp is parsed twice: first as the
 * compiler sees it (errors, the outermost directives and the device regions
 * they open), then from copies of its non-system files in which every
 * executable OpenMP directive (`#pragma omp ...` and `_Pragma("omp ...")`)
 * is blanked to spaces -- same bytes, lines and columns -- while declarative
 * ones (`declare variant`, `begin/end declare ...`, `declare target`,
 * `threadprivate`, `requires`) stay.  The second parse has -fopenmp's
 * macros, headers and declarations, and every loop in plain view.  Pragma
 * texts are read from the original bytes. */

int wk_openmp_args(int nargs, const char *const *args)
{
    for (int i = 0; i < nargs; i++)
        if (strncmp(args[i], "-fopenmp", 8) == 0
            && (args[i][8] == '\0' || args[i][8] == '=' || strcmp(args[i] + 8, "-simd") == 0))
            return 1;
    return 0;
}

/* Is the directive text ("omp ...") executable, i.e. to be blanked? */
static int executable_directive(const char *text, size_t n)
{
    char buf[1024];
    if (n > sizeof buf - 1)
        n = sizeof buf - 1;
    memcpy(buf, text, n);
    buf[n] = '\0';
    for (char *c = buf; *c; c++)
        if (*c == '\\' || *c == '\n' || *c == '\r')
            *c = ' ';
    omp_directive d;
    char err[64];
    int r = omp_parse(buf, &d, err, sizeof err) == 0 && d.is_omp
            && !(d.constructs & OMP_DECLARE);
    omp_free(&d);
    return r;
}

/* Blank b[from, to) except line splices and line ends. */
static void blank(char *b, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        if (b[i] == '\n' || b[i] == '\r')
            continue;
        if (b[i] == '\\' && i + 1 < to && (b[i + 1] == '\n' || b[i + 1] == '\r'))
            continue;
        b[i] = ' ';
    }
}

/* A copy of buf with its executable OpenMP directives blanked, or NULL when
 * it has none (or on allocation failure, then *oom is set). */
static char *blank_directives(const char *buf, size_t len, int *oom)
{
    char *out = malloc(len ? len : 1);
    int changed = 0;
    if (!out) {
        *oom = 1;
        return NULL;
    }
    memcpy(out, buf, len);
    int bol = 1;
    for (size_t i = 0; i < len;) {
        char ch = buf[i];
        if (ch == '\n') {
            bol = 1;
            i++;
        } else if (bol && (ch == ' ' || ch == '\t' || ch == '\r')) {
            i++;
        } else if (bol && ch == '#') {
            size_t e = i;   /* end of the logical line */
            for (; e < len; e++)
                if (buf[e] == '\n' && !(e > i && buf[e - 1] == '\\')
                    && !(e > i + 1 && buf[e - 1] == '\r' && buf[e - 2] == '\\'))
                    break;
            size_t q = i + 1;
            while (q < e && (buf[q] == ' ' || buf[q] == '\t'))
                q++;
            if (e - q > 7 && strncmp(buf + q, "pragma", 6) == 0
                && (buf[q + 6] == ' ' || buf[q + 6] == '\t')) {
                size_t t = q + 6;
                while (t < e && (buf[t] == ' ' || buf[t] == '\t'))
                    t++;
                if (executable_directive(buf + t, e - t)) {
                    blank(out, t, e);
                    changed = 1;
                }
                i = e;
            } else {
                i++;   /* other directives (#define) may hold _Pragma */
            }
            bol = 0;
        } else if (ch == '_' && i + 7 <= len && strncmp(buf + i, "_Pragma", 7) == 0
                   && (i == 0 || !(isalnum((unsigned char)buf[i - 1]) || buf[i - 1] == '_'))) {
            /* _Pragma ( "omp ..." ) */
            size_t q = i + 7;
            while (q < len && (buf[q] == ' ' || buf[q] == '\t' || buf[q] == '\\' || buf[q] == '\n'
                               || buf[q] == '\r'))
                q++;
            if (q < len && buf[q] == '(') {
                q++;
                while (q < len && (buf[q] == ' ' || buf[q] == '\t'))
                    q++;
                if (q < len && buf[q] == '"') {
                    size_t a = q + 1, b = a;
                    while (b < len && buf[b] != '"' && buf[b] != '\n') {
                        if (buf[b] == '\\' && b + 1 < len && buf[b + 1] != '\n')
                            b++;
                        b++;
                    }
                    if (b < len && buf[b] == '"' && executable_directive(buf + a, b - a)) {
                        blank(out, a, b);
                        changed = 1;
                    }
                }
            }
            bol = 0;
            i += 7;
        } else {
            bol = 0;
            i++;
        }
    }
    if (!changed) {
        free(out);
        return NULL;
    }
    return out;
}

void wk_note_inclusion(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData data)
{
    (void)stack;
    (void)n;
    incl_ctx *ic = data;
    walker *w = ic->w;
    if (w->oom || clang_Location_isInSystemHeader(clang_getLocationForOffset(ic->tu, f, 0)))
        return;
    size_t len;
    const char *buf = clang_getFileContents(ic->tu, f, &len);
    if (!buf)
        return;
    CXString name = clang_getFileName(f);
    const char *nm = clang_getCString(name);
    for (int i = 0; nm && i < w->npatched; i++)
        if (strcmp(w->patched[i].name, nm) == 0)
            nm = NULL;   /* seen (included twice) */
    char *patched = nm ? blank_directives(buf, len, &w->oom) : NULL;
    if (patched) {
        char *orig = malloc(len ? len : 1), *nmc = strdup(nm);
        struct patched_file *np = orig && nmc ? ku_push(&w->patched, &w->npatched, sizeof *np)
                                              : NULL;
        if (!np) {
            free(orig);
            free(nmc);
            free(patched);
            w->oom = 1;
        } else {
            memcpy(orig, buf, len);
            np->name = nmc;
            np->orig = orig;
            np->patched = patched;
            np->len = len;
        }
    }
    clang_disposeString(name);
}

/* Record the outermost OpenMP directives of function bodies (phase 1). */
enum CXChildVisitResult wk_find_directives(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    incl_ctx *ic = data;
    walker *w = ic->w;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_FunctionDecl)
        return clang_isCursorDefinition(c)
            && !clang_Location_isInSystemHeader(clang_getCursorLocation(c))
            ? CXChildVisit_Recurse : CXChildVisit_Continue;
    if (clang_isExpression(k) || clang_isDeclaration(k) || k == CXCursor_DeclStmt)
        return CXChildVisit_Continue;
    if (!clang_isStatement(k))
        return CXChildVisit_Continue;
    CXString ks = clang_getCursorKindSpelling(k);
    const char *kn = clang_getCString(ks);
    int omp = kn && strncmp(kn, "OMP", 3) == 0;
    int target = omp && strncmp(kn, "OMPTarget", 9) == 0 && !strstr(kn, "EnterData")
                 && !strstr(kn, "ExitData") && !strstr(kn, "Update");
    clang_disposeString(ks);
    if (!omp)
        return CXChildVisit_Recurse;
    struct omp_region *r = ku_push(&w->regions, &w->nregions, sizeof *r);
    if (!r) {
        w->oom = 1;
        return CXChildVisit_Break;
    }
    w->nregions--;      /* counted once filled in, below */
    CXFile f, sfile;
    int line, col, off;
    unsigned soff;
    CXSourceLocation start = clang_getRangeStart(clang_getCursorExtent(c));
    wk_expansion(start, &f, &line, &col, &off);
    clang_getSpellingLocation(start, &sfile, NULL, NULL, &soff);
    if (!f)
        return CXChildVisit_Continue;
    r->file = wk_file_name(f);
    if (!r->file) {
        w->oom = 1;
        return CXChildVisit_Break;
    }
    r->target = target;
    r->line = line;
    r->col = col;
    r->line_offset = off - (col - 1);
    r->end_offset = -1;
    /* The statement: the last child (the CapturedStmt) ends where it ends. */
    child_list l = wk_children(c);
    size_t len = 0;
    const char *buf = clang_getFileContents(ic->tu, f, &len);
    if (l.n > 0 && buf) {
        CXFile ef;
        int eo;
        wk_expansion(clang_getRangeEnd(clang_getCursorExtent(l.c[l.n - 1])), &ef, NULL, NULL, &eo);
        /* as for loops (set_offsets): a statement ends at its `;` or `}`;
         * anything else is not a place to insert text */
        if (clang_File_isEqual(ef, f) && eo > 0 && (size_t)eo < len) {
            if (buf[eo] == ';' || buf[eo] == '}')
                r->end_offset = eo + 1;
            else if (buf[eo - 1] == '}')
                r->end_offset = eo;
        }
    }
    /* A _Pragma written in a macro: its text is at the spelling location. */
    if (sfile && (!clang_File_isEqual(sfile, f) || (int)soff != off)) {
        size_t slen = 0;
        const char *sbuf = clang_getFileContents(ic->tu, sfile, &slen);
        if (sbuf && soff + 7 < slen && strncmp(sbuf + soff, "_Pragma", 7) == 0) {
            const char *a = memchr(sbuf + soff, '"', slen - soff);
            const char *b = a ? memchr(a + 1, '"', slen - (size_t)(a + 1 - sbuf)) : NULL;
            if (a && b && b - a < 1024) {
                r->macro_text = malloc((size_t)(b - a));
                if (r->macro_text) {
                    memcpy(r->macro_text, a + 1, (size_t)(b - a - 1));
                    r->macro_text[b - a - 1] = '\0';
                    wk_collapse_spaces(r->macro_text);
                }
            }
        }
    }
    w->nregions++;
    return CXChildVisit_Continue;
}

/* Device region and _Pragma directives of a loop starting at (file,
 * line, col, offset). */
int wk_region_order(const void *pa, const void *pb)
{
    const struct omp_region *a = pa, *b = pb;
    int c = strcmp(a->file, b->file);
    return c ? c : (a->line_offset > b->line_offset) - (a->line_offset < b->line_offset);
}

void wk_attach_regions(walker *w, ir_loop *l, int offset)
{
    /* Regions are sorted by (file, line offset) and do not nest (they are
     * the outermost directives): only the last few starting at or before
     * the loop's line can hold it. */
    int lo = 0, hi = w->nregions;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int c = strcmp(w->regions[mid].file, l->file);
        if (c < 0 || (c == 0 && w->regions[mid].line_offset <= offset))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int i = lo - 1; i >= 0 && i >= lo - 4; i--) {
        struct omp_region *r = &w->regions[i];
        if (strcmp(r->file, l->file) != 0)
            break;
        if (r->macro_text && r->line == l->line && r->col == l->col)
            ir_add_pragma(l, r->macro_text);
        if (r->target && r->end_offset > offset && r->line_offset <= offset
            && (r->line < l->line || (r->line == l->line && r->col <= l->col))) {
            l->region_line = r->line;
            l->region_offset = r->line_offset;
            l->region_end_offset = r->end_offset;
        }
    }
}

void wk_free_openmp(walker *w)
{
    for (int i = 0; i < w->npatched; i++) {
        free(w->patched[i].name);
        free(w->patched[i].orig);
        free(w->patched[i].patched);
    }
    free(w->patched);
    for (int i = 0; i < w->nregions; i++) {
        free(w->regions[i].file);
        free(w->regions[i].macro_text);
    }
    free(w->regions);
}
