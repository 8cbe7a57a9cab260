/*
 * walker.c -- libclang AST -> loop IR.
 *
 * One pass over the AST of a translation unit.  Function definitions outside
 * system headers are walked statement by statement, keeping the index of the
 * innermost enclosing loop.  A for/while/do adds a loop; any other statement
 * inside a loop becomes an ir_stmt of that loop, scanned for array accesses
 * (subscript chains resolved to their base variable and declared extents),
 * scalar references, operation counts and calls.  A loop bound read from
 * memory the call before the nest can read again (`grid_points[0]`,
 * `s->n`) is a named value, its C text (walk_memory.c); a CSR row loop's
 * trip counts telescope to one total.
 *
 * This file is the entry, walk_file: it parses (twice for -fopenmp), walks
 * the function definitions (walk_loop.c), maps preprocessed input to its
 * presumed lines (walk_lines.c), hashes the headers read and frees the
 * walk's scratch state.  walk_int.h lists the other files, one phase each.
 *
 * Facts about libclang 19 this relies on (see DESIGN.md): implicit casts are
 * single-child UnexposedExprs and are peeled; `+=` is a
 * CompoundAssignOperator; a ForStmt with a missing init, cond or inc simply
 * has fewer children, so the parts are told apart by source offsets against
 * the `;` tokens of its header; locations inside macro expansions are mapped
 * to the expansion site.  Pragmas are read from the file's buffer and
 * attached to the loop on the next line of code.  A file compiled with
 * -fopenmp is parsed with it, then re-parsed with its executable OpenMP
 * directives blanked so that their loops are visible (walk_omp.c).
 * Left-deep operator chains are walked in a loop and expressions nested
 * deeper than MAX_SCAN_DEPTH / MAX_EXPR_DEPTH are cut, with a reason on the
 * statement, so generated code cannot overflow the stack.
 */
#include "walk_int.h"

/* The first error diagnostic as one line, or NULL when there is none. */
static int first_error(CXTranslationUnit tu, char *err, size_t errlen)
{
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        int bad = clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;
        if (bad) {
            CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation
                                                   | CXDiagnostic_DisplayColumn);
            snprintf(err, errlen, "%s", clang_getCString(s));
            clang_disposeString(s);
        }
        clang_disposeDiagnostic(d);
        if (bad)
            return 1;
    }
    return 0;
}

/* walker.h: keelcc's direct mode hears of every file the parse read. */
void (*walk_file_read)(void *ctx, const char *name);
void *walk_file_read_ctx;

/* ir_tu.headers_hash: every non-system header's contents, in inclusion
 * order (depth 0 is the main file: keelcc hashes it on its own); and each
 * file (the main one too) to walk_file_read. */
static void hash_inclusion(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData data)
{
    void **ctx = data;
    CXTranslationUnit tu = ctx[0];
    unsigned long long *h = ctx[1];
    (void)stack;
    if (walk_file_read) {
        CXString name = clang_getFileName(f);
        if (clang_getCString(name))
            walk_file_read(walk_file_read_ctx, clang_getCString(name));
        clang_disposeString(name);
    }
    if (n == 0 || clang_Location_isInSystemHeader(clang_getLocationForOffset(tu, f, 0)))
        return;
    size_t len = 0;
    const char *buf = clang_getFileContents(tu, f, &len);
    *h = ir_headers_hash_add(*h, buf, len);
}

int walk_file(const char *path, int nargs, const char *const *args, ir_tu **out,
              char *err, size_t errlen)
{
    *out = NULL;
    wk_spelling_oom = 0;
    kx_oom_take();
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL, tu1 = NULL;
    enum CXErrorCode ec = clang_parseTranslationUnit2(index, path, args, nargs, NULL, 0,
                                                      CXTranslationUnit_None, &tu);
    if (ec != CXError_Success || !tu) {
        snprintf(err, errlen, "%s: libclang could not parse the file (error %d)", path, (int)ec);
        clang_disposeIndex(index);
        return -1;
    }
    if (first_error(tu, err, errlen)) {
        clang_disposeTranslationUnit(tu);
        clang_disposeIndex(index);
        return -1;
    }
    walker w;
    memset(&w, 0, sizeof w);
    w.loop = -1;
    w.bound_loop = -1;
    int rc = 0;
    if (wk_openmp_args(nargs, args)) {
        /* Phase 1 done (tu): directives, device regions, files to blank. */
        incl_ctx ic = { &w, tu };
        clang_visitChildren(clang_getTranslationUnitCursor(tu), wk_find_directives, &ic);
        if (w.nregions > 1)
            qsort(w.regions, (size_t)w.nregions, sizeof *w.regions, wk_region_order);
        clang_getInclusions(tu, wk_note_inclusion, &ic);
        if (w.npatched && !w.oom) {
            struct CXUnsavedFile *uf = calloc((size_t)w.npatched, sizeof *uf);
            const char **a2 = calloc((size_t)nargs + 1, sizeof *a2);
            if (!uf || !a2) {
                w.oom = 1;
            } else {
                for (int i = 0; i < w.npatched; i++) {
                    uf[i].Filename = w.patched[i].name;
                    uf[i].Contents = w.patched[i].patched;
                    uf[i].Length = (unsigned long)w.patched[i].len;
                }
                for (int i = 0; i < nargs; i++)
                    a2[i] = args[i];
                a2[nargs] = "-Wno-unknown-pragmas";
                tu1 = tu;
                tu = NULL;
                ec = clang_parseTranslationUnit2(index, path, a2, nargs + 1, uf,
                                                 (unsigned)w.npatched, CXTranslationUnit_None,
                                                 &tu);
                if (ec != CXError_Success || !tu) {
                    snprintf(err, errlen, "%s: libclang could not parse the file without its "
                             "OpenMP directives (error %d)", path, (int)ec);
                    rc = -1;
                } else if (first_error(tu, err, errlen)) {
                    rc = -1;
                }
            }
            free(uf);
            free(a2);
        }
    }
    w.tu = tu;
    w.ir = rc == 0 && !w.oom ? ir_tu_new(path) : NULL;
    if (w.ir)
        clang_visitChildren(clang_getTranslationUnitCursor(tu), wk_visit_top, &w);
    if (wk_spelling_oom || kx_oom_take())
        w.oom = 1;
    if (w.ir && !w.oom && omp_map_tu(w.ir) != 0)
        w.oom = 1;
    if (w.ir && !w.oom && wk_presume_tu(tu, path, w.ir) != 0)
        w.oom = 1;
    if (rc == 0 && (!w.ir || w.oom)) {
        snprintf(err, errlen, "%s: out of memory while analysing", path);
        rc = -1;
    }
    if (rc == 0) {
        unsigned long long h = IR_HEADERS_HASH_START;
        void *ctx[2] = { tu, &h };
        clang_getInclusions(tu, hash_inclusion, ctx);
        w.ir->headers_hash = h;
        *out = w.ir;
    } else
        ir_tu_free(w.ir);
    for (int i = 0; i < w.nfiles; i++) {
        for (int p = 0; p < w.files[i].npragmas; p++)
            free(w.files[i].pragmas[p].text);
        free(w.files[i].pragmas);
        free(w.files[i].line_off);
        free(w.files[i].scop_line);
    }
    free(w.files);
    while (w.nbind > 0)
        wk_bind_drop_at(&w, w.nbind - 1);
    free(w.bind);
    for (int i = 0; i < w.nsyms; i++)
        free(w.syms[i].name);
    free(w.syms);
    free(w.sym_index);
    for (int i = 0; i < w.nreads; i++)
        free(w.reads[i].name), free(w.reads[i].field);
    free(w.reads);
    free(w.cond_loops);
    wk_free_openmp(&w);
    if (tu)
        clang_disposeTranslationUnit(tu);
    if (tu1)
        clang_disposeTranslationUnit(tu1);
    clang_disposeIndex(index);
    return rc;
}
