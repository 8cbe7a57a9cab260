/*
 * walk_lines.c -- presumed locations of preprocessed input.
 *
 * Preprocessed output (a `.i`, or any source whose first line is a GNU
 * line marker `# N "file"`) names its lines by its markers, as clang's
 * diagnostics and debug info do.  After the walk, every line the IR stores
 * of the main file (functions, loops, statements, accesses, scalars, the
 * sync construct) becomes its presumed line and the loop's and function's
 * file the presumed file (resolved like wk_file_name); byte offsets and the
 * lines instrumentation matches against the text (pragma_line,
 * target_line, region_line) stay physical.
 */
#include "walk_int.h"

typedef struct {
    int n;            /* lines of the main file */
    int *line;        /* [1..n]: presumed line */
    int *file;        /* [1..n]: index into names */
    int nnames;
    char **names;     /* presumed files, resolved */
} presumed_map;

/* Is the text preprocessed output: its first line a GNU line marker
 * `# N "file"` (what `clang -E` and `gcc -E` write)?  Only then are its
 * lines named by its markers; a `#line` in an ordinary source keeps the
 * walk's physical lines, which instrumentation matches against its text. */
static int has_line_markers(const char *b, size_t len)
{
    size_t i = 1;
    if (len < 4 || b[0] != '#')
        return 0;
    while (i < len && b[i] == ' ')
        i++;
    size_t d = i;
    while (i < len && isdigit((unsigned char)b[i]))
        i++;
    if (i == d || i >= len || b[i] != ' ')
        return 0;
    while (i < len && b[i] == ' ')
        i++;
    return i < len && b[i] == '"';
}

/* A presumed file name as stored: its real path when it resolves (relative
 * names against the compile's folder, as clang's debug info does), else as
 * written.  NULL only on allocation failure. */
static char *presumed_name(const char *name)
{
    char real[PATH_MAX];
    return strdup(realpath(name, real) ? real : name);
}

static void presumed_free(presumed_map *m)
{
    free(m->line);
    free(m->file);
    for (int i = 0; i < m->nnames; i++)
        free(m->names[i]);
    free(m->names);
}

/* Build the map of the main file `f`; 0 when it has no line markers (m
 * empty), 1 when built, -1 out of memory. */
static int presumed_build(CXTranslationUnit tu, CXFile f, presumed_map *m)
{
    memset(m, 0, sizeof *m);
    size_t len = 0;
    const char *b = clang_getFileContents(tu, f, &len);
    if (!b || !has_line_markers(b, len))
        return 0;
    int n = 1;
    for (size_t i = 0; i < len; i++)
        n += b[i] == '\n';
    m->line = calloc((size_t)n + 1, sizeof *m->line);
    m->file = calloc((size_t)n + 1, sizeof *m->file);
    if (!m->line || !m->file)
        return -1;
    m->n = n;
    const char *last = NULL;   /* the previous line's presumed name (libclang's) */
    CXString lasts = clang_getFileName(f);   /* owns last */
    size_t off = 0;
    for (int ln = 1; ln <= n; ln++) {
        CXString name;
        unsigned pl = 0;
        clang_getPresumedLocation(clang_getLocationForOffset(tu, f, (unsigned)off), &name, &pl,
                                  NULL);
        const char *nm = clang_getCString(name);
        m->line[ln] = (int)pl;
        if (!nm)
            nm = "?";
        if (!last || strcmp(last, nm) != 0) {
            int k = 0;
            char *res = presumed_name(nm);
            if (!res) {
                clang_disposeString(name);
                clang_disposeString(lasts);
                return -1;
            }
            while (k < m->nnames && strcmp(m->names[k], res) != 0)
                k++;
            if (k == m->nnames) {
                char **slot = ku_push(&m->names, &m->nnames, sizeof *slot);
                if (!slot) {
                    free(res);
                    clang_disposeString(name);
                    clang_disposeString(lasts);
                    return -1;
                }
                *slot = res;
            } else {
                free(res);
            }
            m->file[ln] = k;
            clang_disposeString(lasts);
            lasts = name;
            last = nm;
        } else {
            m->file[ln] = m->file[ln - 1];
            clang_disposeString(name);
        }
        while (off < len && b[off] != '\n')
            off++;
        if (off < len)
            off++;
    }
    clang_disposeString(lasts);
    return 1;
}

static void presume_line(const presumed_map *m, int *line)
{
    if (*line >= 1 && *line <= m->n)
        *line = m->line[*line];
}

/* Replace *file (the main file's name) by line's presumed file. */
static int presume_file(const presumed_map *m, int line, char **file)
{
    if (line < 1 || line > m->n)
        return 0;
    char *d = strdup(m->names[m->file[line]]);
    if (!d)
        return -1;
    free(*file);
    *file = d;
    return 0;
}

/* Rewrite the IR's lines of the main file `f` to presumed ones (above). */
int wk_presume_tu(CXTranslationUnit tu, const char *path, ir_tu *ir)
{
    CXFile f = clang_getFile(tu, path);
    if (!f)
        return 0;
    presumed_map m;
    int rc = presumed_build(tu, f, &m);
    if (rc <= 0) {
        presumed_free(&m);
        return rc;
    }
    char *main_name = wk_file_name(f);
    if (!main_name) {
        presumed_free(&m);
        return -1;
    }
    for (int i = 0; i < ir->nfuncs && rc == 1; i++) {
        ir_function *fn = &ir->funcs[i];
        if (strcmp(fn->file, main_name) != 0)
            continue;
        if (presume_file(&m, fn->line, &fn->file) != 0)
            rc = -1;
        presume_line(&m, &fn->line);
    }
    for (int i = 0; i < ir->nloops && rc == 1; i++) {
        ir_loop *l = &ir->loops[i];
        if (strcmp(l->file, main_name) != 0)
            continue;
        if (presume_file(&m, l->line, &l->file) != 0)
            rc = -1;
        presume_line(&m, &l->line);
        presume_line(&m, &l->end_line);
        presume_line(&m, &l->sync_line);
        for (int s = 0; s < l->nstmts; s++) {
            ir_stmt *st = &l->stmts[s];
            presume_line(&m, &st->line);
            for (int a = 0; a < st->nacc; a++)
                presume_line(&m, &st->acc[a].line);
            for (int v = 0; v < st->nscalars; v++)
                presume_line(&m, &st->scalars[v].line);
        }
    }
    free(main_name);
    presumed_free(&m);
    return rc < 0 ? -1 : 0;
}
