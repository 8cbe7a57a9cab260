/*
 * walk_expr.c -- expressions of the AST as kx_expr, and declared extents.
 *
 * A bound, subscript or extent becomes a symbolic expression over the
 * variables it names (their values just before the loop, as the runtime
 * will bind them); anything the IR cannot say exactly is opaque, and
 * expressions nested deeper than MAX_EXPR_DEPTH are cut with a reason.
 * The declared dimensions of an array variable (`double A[N][M]`, a
 * parameter `double B[][n]`) give its extents; math functions and the
 * induction variables of the enclosing loops are looked up here too.
 */
#include "walk_int.h"

/* ---- expressions --------------------------------------------------------- */

kx_expr *wk_unknown_expr(walker *w, CXCursor c)
{
    char *text = wk_extent_text(w, c);
    kx_expr *e = kx_op(KX_UNKNOWN, text ? text : "?", 0, NULL);
    free(text);
    return e;
}

int wk_integer_value(CXCursor c, int64_t *v)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    if (!r)
        return 0;
    int ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok)
        *v = clang_EvalResult_getAsLongLong(r);
    clang_EvalResult_dispose(r);
    return ok;
}


int wk_is_integer_type(CXType t)
{
    t = clang_getCanonicalType(t);
    return (t.kind >= CXType_Bool && t.kind <= CXType_Int128) || t.kind == CXType_Enum;
}

/* Remember the declaration a symbol refers to (the latest reference wins:
 * when a nest is finished, its own references are the latest). */
static unsigned sym_hash(const char *s)
{
    unsigned h = 2166136261u;   /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The walker's record of variable `name`, else NULL: one hash probe, so
 * that a file's cost stays linear in its distinct names. */
sym_info *wk_sym_find(const walker *w, const char *name)
{
    if (w->sym_slots == 0)
        return NULL;
    unsigned mask = (unsigned)w->sym_slots - 1;
    for (unsigned h = sym_hash(name) & mask;; h = (h + 1) & mask) {
        int k = w->sym_index[h];
        if (k == 0)
            return NULL;
        if (strcmp(w->syms[k - 1].name, name) == 0)
            return &w->syms[k - 1];
    }
}

/* Enter syms[k] into the index, doubling it past half full; -1 when out
 * of memory. */
static int sym_index_add(walker *w, int k)
{
    if (2 * (w->nsyms + 1) > w->sym_slots) {
        int slots = w->sym_slots ? 2 * w->sym_slots : 64;
        int *index = calloc((size_t)slots, sizeof *index);
        if (!index)
            return -1;
        free(w->sym_index);
        w->sym_index = index;
        w->sym_slots = slots;
        for (int i = 0; i < w->nsyms; i++)
            if (i != k && sym_index_add(w, i) != 0)
                return -1;
    }
    unsigned mask = (unsigned)w->sym_slots - 1, h = sym_hash(w->syms[k].name) & mask;
    while (w->sym_index[h] != 0)
        h = (h + 1) & mask;
    w->sym_index[h] = k + 1;
    return 0;
}

void wk_note_symbol(walker *w, CXCursor decl)
{
    enum CXCursorKind k = clang_getCursorKind(decl);
    if (k != CXCursor_VarDecl && k != CXCursor_ParmDecl)
        return;
    char *name = wk_cursor_spelling(decl);
    if (!name)
        return;
    sym_info *si = wk_sym_find(w, name);
    if (si) {
        free(name);
    } else {
        si = ku_push(&w->syms, &w->nsyms, sizeof *si);
        if (!si) {
            free(name);
            w->oom = 1;
            return;
        }
        si->name = name;
        if (sym_index_add(w, w->nsyms - 1) != 0) {
            w->oom = 1;
            return;
        }
    }
    CXCursor parent = clang_getCursorSemanticParent(decl);
    /* A volatile variable is not a value keel may read again (reads of it
     * are observable): the runtime never gets it. */
    si->integer = wk_is_integer_type(clang_getCursorType(decl))
               && !clang_isVolatileQualifiedType(clang_getCursorType(decl));
    si->always_visible = k == CXCursor_ParmDecl
                      || clang_getCursorKind(parent) == CXCursor_TranslationUnit;
    CXType ct = clang_getCanonicalType(clang_getCursorType(decl));
    int arr = ct.kind == CXType_ConstantArray || ct.kind == CXType_VariableArray
              || ct.kind == CXType_IncompleteArray;
    /* an array parameter is a pointer */
    si->addr = ct.kind == CXType_Pointer || (arr && k == CXCursor_ParmDecl) ? IR_BASE_POINTER
             : arr ? IR_BASE_ARRAY : 0;
    wk_expansion(clang_getCursorLocation(decl), &si->file, NULL, NULL, &si->offset);
}

static kx_expr *binary_expr(walker *w, CXCursor c, kx_expr *(*op)(const kx_expr *, const kx_expr *))
{
    child_list l = wk_children(c);
    if (l.n != 2)
        return wk_unknown_expr(w, c);
    kx_expr *a = wk_to_expr(w, l.c[0]), *b = wk_to_expr(w, l.c[1]);
    kx_expr *r = a && b ? op(a, b) : NULL;
    kx_free(a);
    kx_free(b);
    return r;
}

static kx_expr *opaque_expr(walker *w, kx_opkind kind, const char *name, CXCursor *args,
                            int nargs)
{
    kx_expr *e[MAX_CHILDREN] = { 0 };
    if (nargs > MAX_CHILDREN)
        nargs = MAX_CHILDREN;
    for (int i = 0; i < nargs; i++)
        e[i] = wk_to_expr(w, args[i]);
    kx_expr *r = kx_op(kind, name, nargs, e);
    for (int i = 0; i < nargs; i++)
        kx_free(e[i]);
    return r;
}

/* Resolve a subscript chain A[i][j] into its base cursor and subscripts
 * (outermost first).  Returns the number of subscripts, or -1 when there
 * are more than MAX_DIMS (callers then record an unknown access, never a
 * truncated one). */
int wk_subscript_chain(CXCursor c, CXCursor *base, CXCursor *index)
{
    CXCursor rev[MAX_DIMS];
    int n = 0;
    c = wk_peel(c);
    while (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr) {
        child_list l = wk_children(c);
        if (l.n != 2)
            break;
        if (n == MAX_DIMS)
            return -1;
        rev[n++] = l.c[1];
        c = wk_peel(l.c[0]);
    }
    *base = c;
    for (int i = 0; i < n; i++)
        index[i] = rev[n - 1 - i];
    return n;
}

char *wk_base_name_of(walker *w, CXCursor base)
{
    enum CXCursorKind k = clang_getCursorKind(base);
    if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr)
        return wk_cursor_spelling(base);
    if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(base) == CXUnaryOperator_Deref) {
        child_list l = wk_children(base);
        if (l.n == 1 && clang_getCursorKind(wk_peel(l.c[0])) == CXCursor_DeclRefExpr)
            return wk_cursor_spelling(wk_peel(l.c[0]));
    }
    return wk_extent_text(w, base);
}

/* Convert an integer expression into a kx_expr; what is not a polynomial
 * becomes an opaque atom.  Never returns NULL but on allocation failure. */
static kx_expr *to_expr_node(walker *w, CXCursor c);

/* Integer expressions nested deeper than this become one opaque atom. */
#define MAX_EXPR_DEPTH 256

kx_expr *wk_to_expr(walker *w, CXCursor c)
{
    if (w->expr_depth >= MAX_EXPR_DEPTH)
        return wk_unknown_expr(w, c);
    w->expr_depth++;
    kx_expr *e = to_expr_node(w, c);
    w->expr_depth--;
    return e;
}

/* `x < y ? x : y` (also <=, >, >= and the arms swapped: the expansion
 * of the usual MIN / MAX / min / max macros) is min(x, y) or max(x, y),
 * exactly, by C's semantics; any other conditional is not (NULL). */
static kx_expr *minmax_expr(walker *w, CXCursor c)
{
    child_list l = wk_children(c);
    if (l.n != 3)
        return NULL;
    CXCursor cond = wk_peel(l.c[0]);
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator)
        return NULL;
    enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(cond);
    int less = k == CXBinaryOperator_LT || k == CXBinaryOperator_LE;
    if (!less && k != CXBinaryOperator_GT && k != CXBinaryOperator_GE)
        return NULL;
    child_list xy = wk_children(cond);
    if (xy.n != 2)
        return NULL;
    kx_expr *x = wk_to_expr(w, xy.c[0]), *y = wk_to_expr(w, xy.c[1]);
    kx_expr *a = wk_to_expr(w, l.c[1]), *b = wk_to_expr(w, l.c[2]), *r = NULL;
    int same = kx_equal(x, a) && kx_equal(y, b), swapped = kx_equal(x, b) && kx_equal(y, a);
    if (x && y && (same || swapped)) {
        kx_expr *args[2] = { x, y };
        /* x < y ? x : y is min; x < y ? y : x is max; > the other way round */
        r = kx_op(less == same ? KX_MIN : KX_MAX, NULL, 2, args);
    }
    kx_free(x), kx_free(y), kx_free(a), kx_free(b);
    return r;
}

static kx_expr *to_expr_node(walker *w, CXCursor c)
{
    c = wk_peel(c);
    int64_t v;
    switch (clang_getCursorKind(c)) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
        return wk_integer_value(c, &v) ? kx_int(v) : wk_unknown_expr(w, c);
    case CXCursor_DeclRefExpr: {
        CXCursor ref = clang_getCursorReferenced(c);
        if (clang_getCursorKind(ref) == CXCursor_EnumConstantDecl)
            return kx_int(clang_getEnumConstantDeclValue(ref));
        kx_expr *bv = wk_bind_value(w, ref);
        if (bv)
            return bv;
        wk_note_symbol(w, ref);
        char *name = wk_cursor_spelling(c);
        kx_expr *e = name ? kx_sym(name) : NULL;
        free(name);
        return e;
    }
    case CXCursor_BinaryOperator:
        switch (clang_getCursorBinaryOperatorKind(c)) {
        case CXBinaryOperator_Add:
            return binary_expr(w, c, kx_add);
        case CXBinaryOperator_Sub:
            return binary_expr(w, c, kx_sub);
        case CXBinaryOperator_Mul:
            return binary_expr(w, c, kx_mul);
        case CXBinaryOperator_Div:
        case CXBinaryOperator_Rem: {
            child_list l = wk_children(c);
            if (l.n != 2)
                break;
            return opaque_expr(w, clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Div
                               ? KX_DIV : KX_MOD, NULL, l.c, 2);
        }
        case CXBinaryOperator_Shl: {
            child_list l = wk_children(c);
            if (l.n == 2 && wk_integer_value(wk_peel(l.c[1]), &v) && v >= 0 && v < 62) {
                kx_expr *a = wk_to_expr(w, l.c[0]), *m = kx_int((int64_t)1 << v);
                kx_expr *r = kx_mul(a, m);
                kx_free(a);
                kx_free(m);
                return r;
            }
            break;
        }
        default:
            break;
        }
        return wk_unknown_expr(w, c);
    case CXCursor_UnaryOperator: {
        child_list l = wk_children(c);
        if (l.n != 1)
            return wk_unknown_expr(w, c);
        enum CXUnaryOperatorKind k = clang_getCursorUnaryOperatorKind(c);
        if (k == CXUnaryOperator_Plus)
            return wk_to_expr(w, l.c[0]);
        if (k == CXUnaryOperator_Minus) {
            kx_expr *a = wk_to_expr(w, l.c[0]);
            kx_expr *r = a ? kx_neg(a) : NULL;
            kx_free(a);
            return r;
        }
        kx_expr *r = k == CXUnaryOperator_Deref ? wk_named_read(w, c) : NULL;
        return r ? r : wk_unknown_expr(w, c);
    }
    case CXCursor_MemberRefExpr: {
        kx_expr *r = wk_named_read(w, c);
        return r ? r : wk_unknown_expr(w, c);
    }
    case CXCursor_ArraySubscriptExpr: {
        kx_expr *r = wk_named_read(w, c);
        if (r)
            return r;
        CXCursor base, index[MAX_DIMS];
        int n = wk_subscript_chain(c, &base, index);
        if (n < 0)
            return wk_unknown_expr(w, c);
        if (w->bound_loop >= 0 && !clang_Cursor_isNull(wk_ref_decl(base)))
            wk_note_symbol(w, wk_ref_decl(base));   /* telescope_children asks where it is */
        char *name = wk_base_name_of(w, base);
        r = opaque_expr(w, KX_LOAD, name, index, n);
        free(name);
        return r;
    }
    case CXCursor_ConditionalOperator: {
        kx_expr *r = minmax_expr(w, c);
        return r ? r : wk_unknown_expr(w, c);
    }
    case CXCursor_CallExpr: {
        child_list l = wk_children(c);
        char *name = wk_cursor_spelling(c);
        kx_expr *r = l.n >= 1 && name ? opaque_expr(w, KX_CALL, name, l.c + 1, l.n - 1) : NULL;
        free(name);
        return r ? r : wk_unknown_expr(w, c);
    }
    default:
        return wk_unknown_expr(w, c);
    }
}

/* ---- declared extents ---------------------------------------------------- */

/* The bracketed parts of a type spelling, "double[n][m + 1]" -> "n", "m + 1". */
static int bracket_texts(const char *spelling, char texts[][128], int max)
{
    int n = 0;
    const char *p = strchr(spelling, '[');
    while (p && *p == '[' && n < max) {
        int depth = 0;
        const char *q = p;
        for (; *q; q++) {
            if (*q == '[')
                depth++;
            else if (*q == ']' && --depth == 0)
                break;
        }
        if (!*q)
            break;
        size_t len = (size_t)(q - p - 1);
        if (len >= 128)
            len = 127;
        memcpy(texts[n], p + 1, len);
        texts[n][len] = '\0';
        n++;
        p = q + 1;
    }
    return n;
}

/* Declared extents of an array type, outermost first.  Constant extents come
 * from the type itself (after macro expansion), VLA extents from the type's
 * spelling parsed as an expression (an unknown atom when it is not one). */
static int type_extents(CXType t, kx_expr **ext, int max)
{
    char texts[MAX_DIMS][128];
    CXString sp = clang_getTypeSpelling(t);
    int ntexts = bracket_texts(clang_getCString(sp), texts, MAX_DIMS);
    clang_disposeString(sp);
    int n = 0;
    while (n < max) {
        if (t.kind == CXType_ConstantArray) {
            ext[n] = kx_int(clang_getArraySize(t));
        } else if (t.kind == CXType_IncompleteArray) {
            ext[n] = NULL;
        } else if (t.kind == CXType_VariableArray || t.kind == CXType_DependentSizedArray) {
            char err[64];
            ext[n] = n < ntexts ? kx_parse(texts[n], err, sizeof err) : NULL;
            if (!ext[n] && n < ntexts)
                ext[n] = kx_op(KX_UNKNOWN, texts[n], 0, NULL);
        } else {
            break;
        }
        t = clang_getArrayElementType(t);
        n++;
    }
    return n;
}

/* Declared extents of the variable behind an access base. */
int wk_base_extents(CXCursor base, kx_expr **ext, int max)
{
    int deref = 0;
    if (clang_getCursorKind(base) == CXCursor_UnaryOperator
        && clang_getCursorUnaryOperatorKind(base) == CXUnaryOperator_Deref) {
        child_list l = wk_children(base);
        if (l.n != 1)
            return 0;
        base = wk_peel(l.c[0]);
        deref = 1;
    }
    if (clang_getCursorKind(base) != CXCursor_DeclRefExpr)
        return 0;
    CXCursor decl = clang_getCursorReferenced(base);
    CXType t = clang_getCursorType(clang_Cursor_isNull(decl) ? base : decl);
    if (t.kind == CXType_Pointer) {
        CXType pt = clang_getPointeeType(t);
        if (deref)      /* (*A)[i][j] with A a pointer to a whole array */
            return type_extents(pt, ext, max);
        if (pt.kind == CXType_ConstantArray || pt.kind == CXType_VariableArray) {
            /* double (*A)[M]: the outer extent is unknown */
            ext[0] = NULL;
            return 1 + type_extents(pt, ext + 1, max - 1);
        }
        return 0;
    }
    return deref ? 0 : type_extents(t, ext, max);
}

/* ---- statements: accesses, scalars, ops ---------------------------------- */

/* The enclosing loops' induction variables, innermost last. */
int wk_enclosing_ivs(walker *w, char **ivs, int max)
{
    int n = 0, chain[64], nc = 0;
    for (int l = w->loop; l >= 0 && nc < 64; l = w->ir->loops[l].parent)
        chain[nc++] = l;
    for (int i = nc - 1; i >= 0 && n < max; i--)
        if (w->ir->loops[chain[i]].iv)
            ivs[n++] = w->ir->loops[chain[i]].iv;
    return n;
}
