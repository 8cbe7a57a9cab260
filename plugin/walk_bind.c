/*
 * walk_bind.c -- values of locals known at a point of the walk (bindings).
 *
 * A local set from an expression and not changed since holds that
 * expression (`int j = idx[i]` makes `out[j]` out[idx[i]]); a counter
 * stepped once per iteration is a derived induction variable.  This file
 * makes, looks up and drops those bindings as the walk enters and leaves
 * loops and statements, and tells which variables a loop writes.
 */
#include "walk_int.h"

/* ---- values of locals (bindings) ----------------------------------------
 *
 * Inside a loop body a local set from an expression and not changed since
 * holds that expression: after `int j = idx[i]` the access `out[j]` is
 * out[idx[i]] (indirect); after `double *p = a + i`, `p[-1]` is a[i - 1];
 * after `const double *r = A[i]`, `r[j]` is A[i][j].  A counter stepped
 * once per iteration, unconditionally, by a loop-invariant amount (`k++`,
 * `iy += incy`) is a derived induction variable of its loop n:
 *     k = k__L<n> + (iv - lower) * inc      (before its step statement)
 * with k__L<n> its value on entry of loop n (or what the for-init sets);
 * parallel.c reads the suffix.  Steps in the for header (`i++, p++`) and
 * postfix steps under a dereference (`*d++ = *s++`) count too.  A stepped
 * pointer moves over the array it was set from, or, set from nothing the
 * walker knows (a parameter), over its own name, meaning its value on
 * entry of the loop; either way the loop lists it in ir_loop.stepped.
 * A binding dies when its variable is written otherwise, at the end of the
 * loop body that made it, and, on entry of a loop, when that loop writes
 * the variable.  A variable that is not bound stays itself, and parallel.c
 * treats a subscript naming a variable the loop writes as untestable.
 * Pointers set outside loops (`double *p = a + 1;`) are bound too, as long
 * as nothing writes them. */

void wk_bind_clear(binding *b)
{
    kx_free(b->value);
    free(b->base);
    for (int i = 0; i < b->nprefix; i++)
        kx_free(b->prefix[i]);
    kx_free(b->off);
    for (int i = 0; i < b->next; i++)
        kx_free(b->ext[i]);
    kx_free(b->after);
    memset(b, 0, sizeof *b);
}

int wk_bind_find(const walker *w, CXCursor decl)
{
    for (int i = w->nbind - 1; i >= 0; i--)
        if (clang_equalCursors(w->bind[i].decl, decl))
            return i;
    return -1;
}

/* A copy of the value of integer variable decl, NULL when it is not bound. */
kx_expr *wk_bind_value(const walker *w, CXCursor decl)
{
    int i = wk_bind_find(w, decl);
    return i >= 0 && !w->bind[i].is_ptr && w->bind[i].value ? kx_copy(w->bind[i].value) : NULL;
}

void wk_bind_drop_at(walker *w, int i)
{
    wk_bind_clear(&w->bind[i]);
    w->bind[i] = w->bind[--w->nbind];
}

void wk_bind_drop(walker *w, CXCursor decl)
{
    int i = wk_bind_find(w, decl);
    if (i >= 0)
        wk_bind_drop_at(w, i);
}

/* Takes *b (its expressions) whether it succeeds or not. */
void wk_bind_put(walker *w, binding *b)
{
    wk_bind_drop(w, b->decl);
    binding *nb = ku_push(&w->bind, &w->nbind, sizeof *nb);
    if (!nb) {
        wk_bind_clear(b);
        w->oom = 1;
        return;
    }
    *nb = *b;
}

void wk_bind_drop_loop(walker *w, int loop)
{
    for (int i = w->nbind - 1; i >= 0; i--)
        if (w->bind[i].loop == loop)
            wk_bind_drop_at(w, i);
}

/* The declaration a (peeled) DeclRefExpr names, or a null cursor. */
CXCursor wk_ref_decl(CXCursor c)
{
    c = wk_peel(c);
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return clang_getNullCursor();
    CXCursor d = clang_getCursorReferenced(c);
    enum CXCursorKind k = clang_getCursorKind(d);
    return k == CXCursor_VarDecl || k == CXCursor_ParmDecl ? d : clang_getNullCursor();
}

/* The expression c stores to: the left side of `=` or `op=`, the operand
 * of ++/-- (and of `&` when address_taken: a pointer to it may write it);
 * a null cursor when c stores nothing. */
CXCursor wk_stored_operand(CXCursor c, int address_taken)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_BinaryOperator && k != CXCursor_CompoundAssignOperator
        && k != CXCursor_UnaryOperator)
        return clang_getNullCursor();
    child_list l = wk_children(c);
    if ((k == CXCursor_BinaryOperator && l.n == 2
         && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign)
        || (k == CXCursor_CompoundAssignOperator && l.n == 2))
        return l.c[0];
    if (k == CXCursor_UnaryOperator && l.n == 1) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
        if ((op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec)
            || (address_taken && op == CXUnaryOperator_AddrOf))
            return l.c[0];
    }
    return clang_getNullCursor();
}

/* Writes of a variable in a subtree: assignment, compound assignment,
 * ++/--, its address taken, or a declaration of it. */
static enum CXChildVisitResult count_write(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    write_count *wc = data;
    CXCursor target = c;
    if (clang_getCursorKind(c) != CXCursor_VarDecl) {
        CXCursor lhs = wk_stored_operand(c, 1);
        target = clang_Cursor_isNull(lhs) ? lhs : wk_ref_decl(lhs);
    }
    if (!clang_Cursor_isNull(target) && clang_equalCursors(target, wc->decl))
        wc->n++;
    return CXChildVisit_Recurse;
}

int wk_count_writes(CXCursor root, CXCursor decl)
{
    write_count wc = { decl, 0 };
    count_write(root, clang_getNullCursor(), &wc);
    clang_visitChildren(root, count_write, &wc);
    return wc.n;
}

/* Fill b (decl, loop and inc_offset set by the caller) from a pointer
 * expression: q, q + e, e + q, q - e, &X[..][e], X[i] (a row of a 2-D
 * array), with q a pointer or array variable (or a bound pointer). */
int wk_ptr_value(walker *w, CXCursor e, binding *b)
{
    e = wk_peel(e);
    enum CXCursorKind k = clang_getCursorKind(e);
    child_list l = wk_children(e);
    /* p++, p--: the value before the step */
    if (k == CXCursor_UnaryOperator && l.n == 1
        && (clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_PostInc
            || clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_PostDec)
        && clang_getCursorKind(wk_peel(l.c[0])) == CXCursor_DeclRefExpr)
        return wk_ptr_value(w, l.c[0], b);
    if (k == CXCursor_DeclRefExpr) {
        CXCursor d = wk_ref_decl(e);
        if (clang_Cursor_isNull(d))
            return 0;
        int i = wk_bind_find(w, d);
        if (i >= 0 && w->bind[i].is_ptr) {
            const binding *q = &w->bind[i];
            b->base = strdup(q->base);
            b->nprefix = q->nprefix;
            for (int p = 0; p < q->nprefix; p++)
                b->prefix[p] = kx_copy(q->prefix[p]);
            b->off = kx_copy(q->off);
            b->next = q->next;
            for (int p = 0; p < q->next; p++)
                b->ext[p] = q->ext[p] ? kx_copy(q->ext[p]) : NULL;
            return b->base != NULL;
        }
        CXType t = clang_getCanonicalType(clang_getCursorType(d));
        if (t.kind != CXType_Pointer && t.kind != CXType_ConstantArray
            && t.kind != CXType_IncompleteArray && t.kind != CXType_VariableArray)
            return 0;
        wk_note_symbol(w, d);     /* the base of the accesses through it */
        /* a variable of its own: only pointers to scalars and 1-D arrays */
        b->next = wk_base_extents(e, b->ext, MAX_DIMS);
        if (b->next > 1) {
            for (int p = 0; p < b->next; p++)
                kx_free(b->ext[p]);
            b->next = 0;
            return 0;
        }
        b->base = wk_cursor_spelling(e);
        b->off = kx_int(0);
        return 1;
    }
    if (k == CXCursor_BinaryOperator && l.n == 2) {
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
        if (op != CXBinaryOperator_Add && op != CXBinaryOperator_Sub)
            return 0;
        int left_ptr = clang_getCanonicalType(clang_getCursorType(wk_peel(l.c[0]))).kind
                       == CXType_Pointer;
        if (op == CXBinaryOperator_Sub && !left_ptr)
            return 0;
        CXCursor pc = left_ptr ? l.c[0] : l.c[1], ic = left_ptr ? l.c[1] : l.c[0];
        if (!wk_is_integer_type(clang_getCursorType(wk_peel(ic))) || !wk_ptr_value(w, pc, b))
            return 0;
        kx_expr *d = wk_to_expr(w, ic);
        kx_expr *o = d ? (op == CXBinaryOperator_Add ? kx_add(b->off, d) : kx_sub(b->off, d))
                       : NULL;
        kx_free(d);
        kx_free(b->off);
        b->off = o;
        return o != NULL;
    }
    CXCursor sub = clang_getNullCursor();
    if (k == CXCursor_UnaryOperator && clang_getCursorUnaryOperatorKind(e) == CXUnaryOperator_AddrOf
        && l.n == 1 && clang_getCursorKind(wk_peel(l.c[0])) == CXCursor_ArraySubscriptExpr)
        sub = wk_peel(l.c[0]);
    else if (k == CXCursor_ArraySubscriptExpr) {
        CXType t = clang_getCanonicalType(clang_getCursorType(e));
        if (t.kind == CXType_ConstantArray || t.kind == CXType_VariableArray
            || t.kind == CXType_IncompleteArray)
            sub = e;       /* X[i] decays to the address of row i */
    }
    if (clang_Cursor_isNull(sub))
        return 0;
    CXCursor base, index[MAX_DIMS];
    int n = wk_subscript_chain(sub, &base, index);
    if (n < 1 || clang_getCursorKind(base) != CXCursor_DeclRefExpr
        || wk_bind_find(w, wk_ref_decl(base)) >= 0)
        return 0;
    b->next = wk_base_extents(base, b->ext, MAX_DIMS);
    int rows = k == CXCursor_ArraySubscriptExpr;    /* X[i]: one more dimension, offset 0 */
    if (n + rows > b->next + (b->next == 0) || n + rows > MAX_DIMS) {
        for (int p = 0; p < b->next; p++)
            kx_free(b->ext[p]);
        b->next = 0;
        return 0;
    }
    b->base = wk_cursor_spelling(base);
    for (int d = 0; d < n - 1 + rows; d++)
        b->prefix[b->nprefix++] = wk_to_expr(w, index[d]);
    b->off = rows ? kx_int(0) : wk_to_expr(w, index[n - 1]);
    return 1;
}

/* The access through pointer binding b with subscripts idx[0..n-1] (n >= 1,
 * consumed): *name, the new subscripts (malloc'd) and extents. */
int wk_bound_access(const binding *b, int n, kx_expr **idx, kx_expr ***out,
                        kx_expr **ext)
{
    int m = b->nprefix + n;
    kx_expr **v = calloc((size_t)m, sizeof *v);
    if (!v)
        return -1;
    for (int p = 0; p < b->nprefix; p++)
        v[p] = kx_copy(b->prefix[p]);
    v[b->nprefix] = kx_add(b->off, idx[0]);
    kx_free(idx[0]);
    for (int d = 1; d < n; d++)
        v[b->nprefix + d] = idx[d];
    for (int p = 0; p < b->next; p++)
        ext[p] = b->ext[p] ? kx_copy(b->ext[p]) : NULL;
    *out = v;
    return m;
}

/* The binding of the variable a pointer-base cursor names, or NULL. */
const binding *wk_ptr_binding(walker *w, CXCursor base)
{
    CXCursor d = wk_ref_decl(base);
    if (clang_Cursor_isNull(d))
        return NULL;
    int i = wk_bind_find(w, d);
    return i >= 0 && w->bind[i].is_ptr ? &w->bind[i] : NULL;
}

/* A write of the variable c names (a DeclRefExpr) by statement s: kills its
 * binding unless it is the step of a derived induction variable. */
void wk_bind_written(walker *w, CXCursor c)
{
    CXCursor d = wk_ref_decl(c);
    if (clang_Cursor_isNull(d))
        return;
    int i = wk_bind_find(w, d);
    if (i >= 0 && !(w->bind[i].inc_offset >= 0 && w->stmt_offset == w->bind[i].inc_offset))
        wk_bind_drop_at(w, i);
}

/* Entry of loop `loop` (cursor c): kill the bindings of what it writes
 * (but its own derived induction variables, made just before). */
void wk_bind_enter_loop(walker *w, int loop, CXCursor c)
{
    for (int i = w->nbind - 1; i >= 0; i--)
        if (w->bind[i].loop != loop && wk_count_writes(c, w->bind[i].decl) > 0)
            wk_bind_drop_at(w, i);
}

/* The variables a subtree names (the first 16; n counts them all). */
enum CXChildVisitResult wk_collect_ref(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    ref_list *rl = data;
    CXCursor d = wk_ref_decl(c);
    if (!clang_Cursor_isNull(d)) {
        if (rl->n < 16)
            rl->d[rl->n] = d;
        rl->n++;
    }
    return CXChildVisit_Recurse;
}

/* Does a subtree hold a continue, break, goto or return? */
enum CXChildVisitResult wk_find_jump(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ContinueStmt || k == CXCursor_BreakStmt || k == CXCursor_GotoStmt
        || k == CXCursor_IndirectGotoStmt || k == CXCursor_ReturnStmt) {
        *(int *)data = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

/* The distinct variables a subtree names (the first 16; n counts them). */
enum CXChildVisitResult wk_collect_vars(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    ref_list *rl = data;
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return CXChildVisit_Recurse;
    CXCursor d = wk_ref_decl(c);
    if (clang_Cursor_isNull(d))
        return CXChildVisit_Continue;
    for (int i = 0; i < rl->n && i < 16; i++)
        if (clang_equalCursors(rl->d[i], d))
            return CXChildVisit_Continue;
    if (rl->n < 16)
        rl->d[rl->n] = d;
    rl->n++;
    return CXChildVisit_Continue;
}

/* `&v` anywhere but as a direct argument of a call (`scanf("%d", &n)`
 * lends the address for the call; `int *p = &n` keeps it). */
enum CXChildVisitResult wk_find_addr(CXCursor c, CXCursor parent, void *data)
{
    addr_find *af = data;
    if (clang_getCursorKind(c) == CXCursor_UnaryOperator
        && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf) {
        child_list l = wk_children(c);
        CXCursor d = l.n == 1 ? wk_ref_decl(l.c[0]) : clang_getNullCursor();
        if (!clang_Cursor_isNull(d) && clang_equalCursors(d, af->decl)
            && clang_getCursorKind(parent) != CXCursor_CallExpr) {
            af->found = 1;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* Is the cursor's start inside a macro expansion? */
int wk_in_macro(CXCursor c)
{
    CXSourceLocation loc = clang_getRangeStart(clang_getCursorExtent(c));
    CXFile sf, ef;
    unsigned so, eo;
    clang_getSpellingLocation(loc, &sf, NULL, NULL, &so);
    clang_getExpansionLocation(loc, &ef, NULL, NULL, &eo);
    return so != eo || !clang_File_isEqual(sf, ef);
}
