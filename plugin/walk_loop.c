/*
 * walk_loop.c -- loops, their headers, and the statements around them.
 *
 * A for/while/do adds a loop to the IR: its location and byte offsets (for
 * instrumentation), its induction variable, bounds and step read from the
 * header (the parts of a `for` told apart by the offsets of its `;`
 * tokens), the writes to its control, its pragmas and OpenMP region, and
 * the integer variables its nest needs at launch.  Every other statement
 * inside a loop becomes an ir_stmt; function definitions outside system
 * headers are walked statement by statement from here.
 */
#include "walk_int.h"

/* ---- loops --------------------------------------------------------------- */

/* The variable a cursor names (after peeling), or NULL. */
static char *var_name(CXCursor c)
{
    c = wk_peel(c);
    return clang_getCursorKind(c) == CXCursor_DeclRefExpr ? wk_cursor_spelling(c) : NULL;
}

/* Flatten a comma expression into its parts. */
int wk_comma_parts(CXCursor c, CXCursor *out, int max)
{
    c = wk_peel(c);
    if (clang_getCursorKind(c) == CXCursor_BinaryOperator
        && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Comma) {
        child_list l = wk_children(c);
        if (l.n == 2) {
            int n = wk_comma_parts(l.c[0], out, max);
            return n + wk_comma_parts(l.c[1], out + n, max - n);
        }
    }
    if (max <= 0)
        return 0;
    out[0] = c;
    return 1;
}

/* Initial value given to var by a for-init (assignment or declaration). */
kx_expr *wk_init_value(walker *w, CXCursor init, const char *var)
{
    CXCursor parts[MAX_CHILDREN];
    int n;
    if (clang_getCursorKind(init) == CXCursor_DeclStmt) {
        child_list l = wk_children(init);
        n = l.n;
        memcpy(parts, l.c, sizeof(CXCursor) * (size_t)n);
    } else {
        n = wk_comma_parts(init, parts, MAX_CHILDREN);
    }
    for (int i = 0; i < n; i++) {
        CXCursor p = parts[i];
        child_list l = wk_children(p);
        if (clang_getCursorKind(p) == CXCursor_VarDecl) {
            char *name = wk_cursor_spelling(p);
            int match = name && strcmp(name, var) == 0;
            free(name);
            if (match && l.n >= 1)
                return wk_to_expr(w, l.c[l.n - 1]);
        } else if (clang_getCursorKind(p) == CXCursor_BinaryOperator
                   && clang_getCursorBinaryOperatorKind(p) == CXBinaryOperator_Assign && l.n == 2) {
            char *name = var_name(l.c[0]);
            int match = name && strcmp(name, var) == 0;
            free(name);
            if (match)
                return wk_to_expr(w, l.c[1]);
        }
    }
    return NULL;
}

/* Step of var in a for-increment: ++, --, += c, -= c, v = v + c, v = c + v,
 * v = v - c.  Returns 1 and *step when found (*step 0: not a constant). */
int wk_increment_step(walker *w, CXCursor inc, const char *var, int64_t *step)
{
    CXCursor parts[MAX_CHILDREN];
    int n = wk_comma_parts(inc, parts, MAX_CHILDREN);
    for (int i = 0; i < n; i++) {
        CXCursor p = parts[i];
        child_list l = wk_children(p);
        enum CXCursorKind k = clang_getCursorKind(p);
        char *name = l.n >= 1 ? var_name(l.c[0]) : NULL;
        int match = name && strcmp(name, var) == 0;
        free(name);
        if (!match)
            continue;
        int64_t v = 0;
        if (k == CXCursor_UnaryOperator) {
            enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(p);
            if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc)
                *step = 1;
            else if (op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreDec)
                *step = -1;
            else
                continue;
            return 1;
        }
        if (k == CXCursor_CompoundAssignOperator && l.n == 2) {
            enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(p);
            kx_expr *e = wk_to_expr(w, l.c[1]);
            int c = e && kx_is_const(e, &v);
            kx_free(e);
            if (op == CXBinaryOperator_AddAssign)
                *step = c ? v : 0;
            else if (op == CXBinaryOperator_SubAssign)
                *step = c ? -v : 0;
            else
                *step = 0;
            return 1;
        }
        if (k == CXCursor_BinaryOperator && l.n == 2
            && clang_getCursorBinaryOperatorKind(p) == CXBinaryOperator_Assign) {
            /* v = e: the step is e - v when that is a constant. */
            kx_expr *e = wk_to_expr(w, l.c[1]), *vs = kx_sym(var);
            kx_expr *d = e && vs ? kx_sub(e, vs) : NULL;
            *step = d && kx_is_const(d, &v) ? v : 0;
            kx_free(e);
            kx_free(vs);
            kx_free(d);
            return 1;
        }
    }
    return 0;
}

/* What for_header reads from a for loop's condition: the induction
 * variable, the bound it is compared with, and the comparison (iv OP
 * bound). */
typedef struct {
    char *iv;
    kx_expr *bound;
    enum CXBinaryOperatorKind op;
} for_cond;

/* Comparison k with its sides swapped: n > i is i < n. */
static enum CXBinaryOperatorKind swap_sides(enum CXBinaryOperatorKind k)
{
    return k == CXBinaryOperator_LT ? CXBinaryOperator_GT
         : k == CXBinaryOperator_GT ? CXBinaryOperator_LT
         : k == CXBinaryOperator_LE ? CXBinaryOperator_GE
         : k == CXBinaryOperator_GE ? CXBinaryOperator_LE : k;
}

/* Comparison k of sides l->c[0] and l->c[1], neither of them a variable
 * the increment steps (i + m <= n, n - 1 > i): the variable the increment
 * steps with coefficient +-1 in lhs - rhs, into *fc. */
static void cond_affine(walker *w, const child_list *l, enum CXBinaryOperatorKind k,
                        CXCursor inc, for_cond *fc)
{
    CXCursor parts[MAX_CHILDREN];
    int np = clang_Cursor_isNull(inc) ? 0 : wk_comma_parts(inc, parts, MAX_CHILDREN);
    for (int i = 0; i < np && !fc->iv; i++) {
        child_list pl = wk_children(parts[i]);
        char *v = pl.n >= 1 ? var_name(pl.c[0]) : NULL;
        int64_t st = 0;
        if (!v || !wk_increment_step(w, inc, v, &st)) {
            free(v);
            continue;
        }
        kx_expr *a = wk_to_expr(w, l->c[0]), *b = wk_to_expr(w, l->c[1]);
        kx_expr *d = a && b ? kx_sub(a, b) : NULL, *cf = d ? kx_coeff(d, v) : NULL;
        int64_t cv = 0;
        if (d && cf && kx_degree(d, v) == 1 && kx_is_const(cf, &cv) && (cv == 1 || cv == -1)) {
            kx_expr *vs = kx_sym(v), *t = kx_mul(cf, vs);
            kx_expr *rest = kx_sub(d, t);
            if (rest && !kx_mentions(rest, v)) {
                /* cv = 1: v + rest OP 0, v OP -rest; cv = -1: rest OP v */
                fc->iv = v;
                v = NULL;
                fc->bound = cv == 1 ? kx_neg(rest) : kx_copy(rest);
                fc->op = cv == 1 ? k : swap_sides(k);
            }
            kx_free(vs);
            kx_free(t);
            kx_free(rest);
        }
        kx_free(a);
        kx_free(b);
        kx_free(d);
        kx_free(cf);
        free(v);
    }
}

/* Comparison k of sides l->c[0] and l->c[1]: `iv OP bound` or `bound OP
 * iv` when a side is a variable the increment steps, else cond_affine. */
static void cond_compare(walker *w, const child_list *l, enum CXBinaryOperatorKind k,
                         CXCursor inc, for_cond *fc)
{
    char *left = var_name(l->c[0]), *right = var_name(l->c[1]);
    int64_t dummy;
    if (left && wk_increment_step(w, inc, left, &dummy)) {
        fc->iv = left;
        fc->bound = wk_to_expr(w, l->c[1]);
        fc->op = k;
        free(right);
    } else if (right && wk_increment_step(w, inc, right, &dummy)) {
        fc->iv = right;
        fc->bound = wk_to_expr(w, l->c[0]);
        fc->op = swap_sides(k);
        free(left);
    } else {
        free(left);
        free(right);
        cond_affine(w, l, k, inc, fc);
    }
}

/* Phase 1 of for_header: the condition names the induction variable, `iv
 * OP bound` or `bound OP iv`; in a conjunction, the first comparison that
 * does.  Its bound is read with w->bound_entry set when the comparison is
 * evaluated whenever the condition is (the leftmost ones). */
static void header_cond(walker *w, int loop, CXCursor cond, CXCursor inc, for_cond *fc)
{
    CXCursor stack[MAX_CHILDREN];
    int leftmost[MAX_CHILDREN];   /* evaluated whenever the condition is */
    int ns = 0;
    if (!clang_Cursor_isNull(cond)) {
        leftmost[ns] = 1;
        stack[ns++] = wk_peel(cond);
    }
    w->bound_loop = loop;
    while (ns > 0 && !fc->iv) {
        int first = leftmost[--ns];
        CXCursor c = stack[ns];
        w->bound_entry = first;
        if (clang_getCursorKind(c) != CXCursor_BinaryOperator)
            continue;
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(c);
        child_list l = wk_children(c);
        if (l.n != 2)
            continue;
        if (k == CXBinaryOperator_LAnd) {
            if (ns + 2 <= MAX_CHILDREN) {
                leftmost[ns] = 0;
                stack[ns++] = wk_peel(l.c[1]);
                leftmost[ns] = first;
                stack[ns++] = wk_peel(l.c[0]);
            }
            continue;
        }
        if (k < CXBinaryOperator_LT || k > CXBinaryOperator_NE || k == CXBinaryOperator_EQ)
            continue;
        cond_compare(w, &l, k, inc, fc);
    }
    w->bound_loop = -1;
}

/* Phase 2 of for_header, when the condition gave no variable: the first
 * variable increment inc steps, or NULL. */
static char *header_inc_var(CXCursor inc)
{
    char *iv = NULL;
    CXCursor parts[MAX_CHILDREN];
    int n = wk_comma_parts(inc, parts, MAX_CHILDREN);
    for (int i = 0; i < n && !iv; i++) {
        child_list l = wk_children(parts[i]);
        if (l.n >= 1)
            iv = var_name(l.c[0]);
    }
    return iv;
}

/* Phase 3 of for_header: the step of fc->iv, its lower bound from the init
 * (read as on entry) and its exclusive upper bound from fc's comparison
 * when the step's direction allows one, set on loop `loop`; takes fc's
 * variable and bound. */
static void header_bounds(walker *w, int loop, CXCursor init, CXCursor inc, for_cond *fc)
{
    enum CXBinaryOperatorKind op = fc->op;
    int64_t step = 0;
    if (!clang_Cursor_isNull(inc))
        wk_increment_step(w, inc, fc->iv, &step);
    w->bound_loop = loop;
    w->bound_entry = 1;   /* the init runs on entry */
    kx_expr *lower = clang_Cursor_isNull(init) ? NULL : wk_init_value(w, init, fc->iv);
    w->bound_loop = -1;
    kx_expr *upper = NULL;
    if (fc->bound) {
        kx_expr *one = kx_int(1);
        if ((step > 0 && op == CXBinaryOperator_LT) || (step < 0 && op == CXBinaryOperator_GT)
            || (op == CXBinaryOperator_NE && (step == 1 || step == -1)))
            upper = kx_copy(fc->bound);
        else if (step > 0 && op == CXBinaryOperator_LE)
            upper = kx_add(fc->bound, one);
        else if (step < 0 && op == CXBinaryOperator_GE)
            upper = kx_sub(fc->bound, one);
        kx_free(one);
        kx_free(fc->bound);
    }
    ir_set_bounds(&w->ir->loops[loop], fc->iv, lower, upper, step);
    free(fc->iv);
}

/* Fill the header of for loop `loop` from its init/cond/inc cursors (any
 * may be null), in three phases over one for_cond: the comparison that
 * names the induction variable, else the variable the increment steps;
 * then its step and bounds.  No variable: no bounds. */
static void for_header(walker *w, int loop, CXCursor init, CXCursor cond, CXCursor inc)
{
    for_cond fc = { NULL, NULL, CXBinaryOperator_Invalid };
    header_cond(w, loop, cond, inc, &fc);
    if (!fc.iv && !clang_Cursor_isNull(inc))
        fc.iv = header_inc_var(inc);
    if (!fc.iv) {
        ir_set_bounds(&w->ir->loops[loop], NULL, NULL, NULL, 0);
        return;
    }
    header_bounds(w, loop, init, inc, &fc);
}

static void walk_stmt(walker *w, CXCursor c);
static enum CXChildVisitResult walk_child(CXCursor c, CXCursor parent, void *data);

/* A statement outside loops: it kills the bindings of what it writes; a
 * declaration of a pointer from an array (`double *p = a + 1;`) binds it. */
static void bind_outside(walker *w, CXCursor c)
{
    for (int i = w->nbind - 1; i >= 0; i--)
        if (wk_count_writes(c, w->bind[i].decl) > 0)
            wk_bind_drop_at(w, i);
    if (clang_getCursorKind(c) != CXCursor_DeclStmt)
        return;
    child_list l = wk_children(c);
    for (int i = 0; i < l.n; i++) {
        child_list v = wk_children(l.c[i]);
        if (clang_getCursorKind(l.c[i]) != CXCursor_VarDecl || v.n < 1
            || clang_getCanonicalType(clang_getCursorType(l.c[i])).kind != CXType_Pointer)
            continue;
        binding b = { .decl = l.c[i], .loop = -1, .inc_offset = -1, .is_ptr = 1 };
        if (wk_ptr_value(w, v.c[v.n - 1], &b))
            wk_bind_put(w, &b);
        else
            wk_bind_clear(&b);
    }
}

/* Byte offsets of the loop in its file, -1 when it comes from a macro.  The
 * extent of a loop whose body is a simple statement ends at the start of its
 * final `;`; with a compound body it ends just past the `}`. */
static void set_offsets(walker *w, ir_loop *l, CXSourceRange r)
{
    CXFile f1, f2, s1, s2;
    int o1, o2;
    unsigned so1, so2;
    wk_expansion(clang_getRangeStart(r), &f1, NULL, NULL, &o1);
    wk_expansion(clang_getRangeEnd(r), &f2, NULL, NULL, &o2);
    clang_getSpellingLocation(clang_getRangeStart(r), &s1, NULL, NULL, &so1);
    clang_getSpellingLocation(clang_getRangeEnd(r), &s2, NULL, NULL, &so2);
    source_file *sf = wk_get_file(w, f1);
    if (!sf || !sf->buf || !clang_File_isEqual(f1, f2) || !clang_File_isEqual(f1, s1)
        || !clang_File_isEqual(f2, s2) || (int)so1 != o1 || (int)so2 != o2
        || o2 < o1 || (size_t)o2 >= sf->len)
        return;
    if (sf->buf[o2] == ';' || sf->buf[o2] == '}')
        o2++;
    else if (!(o2 > o1 && sf->buf[o2 - 1] == '}'))
        return;   /* a body ending in anything else: leave it alone */
    l->offset = o1;
    l->end_offset = o2;
}

static int name_in(char **names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

static void add_expr_syms(walker *w, ir_loop *root, int first, CXFile file, const kx_expr *e,
                          int cut)
{
    if (!e)
        return;
    char **names = NULL;
    int n = kx_symbols(e, &names);
    for (int i = 0; i < n; i++) {
        const char *name = names[i];
        int is_iv = 0;
        for (int k = first; k < w->ir->nloops && !is_iv; k++)
            is_iv = w->ir->loops[k].iv && strcmp(w->ir->loops[k].iv, name) == 0;
        if (is_iv || name_in(root->syms, root->nsyms, name))
            continue;
        if (wk_passable_read(w, name, first, file, cut)) {
            if (ir_add_sym(root, name) < 0)
                w->oom = 1;
            continue;
        }
        const sym_info *si = wk_sym_find(w, name);
        if (si && si->integer && (si->always_visible
                                  || (clang_File_isEqual(si->file, file) && si->offset < cut)))
            ir_add_sym(root, name);
    }
    kx_free_names(names, n);
}

/* The symbols the runtime needs for the nest rooted at `loop` (the loop and
 * every loop after it in pre-order, which are its descendants once the
 * walk of the loop is complete). */
/* ir_access.base of an access of the nest whose call goes before `cut`:
 * its name is a pointer variable or an array object visible there. */
static int access_base(const walker *w, const ir_access *ac, CXFile file, int cut)
{
    if (ac->base == IR_BASE_MEMBER)
        return IR_BASE_MEMBER;
    const sym_info *si = wk_sym_find(w, ac->array);
    return si && si->addr && (si->always_visible
                              || (clang_File_isEqual(si->file, file) && si->offset < cut))
           ? si->addr : IR_BASE_OTHER;
}

static void collect_syms(walker *w, int loop, CXFile file)
{
    ir_loop *root = &w->ir->loops[loop];
    if (root->offset < 0)
        return;
    /* A nest in a device region is decided before the region: only what is
     * declared before the region can be read there. */
    int cut = root->region_offset >= 0 && root->region_offset < root->offset
              ? root->region_offset : root->offset;
    /* what the accesses' names are, seen from before this loop (an
     * enclosing loop's walk, ending later, decides for its whole nest) */
    for (int k = loop; k < w->ir->nloops; k++)
        for (int s = 0; s < w->ir->loops[k].nstmts; s++)
            for (int a = 0; a < w->ir->loops[k].stmts[s].nacc; a++) {
                ir_access *ac = &w->ir->loops[k].stmts[s].acc[a];
                ac->base = access_base(w, ac, file, cut);
            }
    for (int k = loop; k < w->ir->nloops; k++) {
        ir_loop *l = &w->ir->loops[k];
        add_expr_syms(w, root, loop, file, l->lower, cut);
        add_expr_syms(w, root, loop, file, l->upper, cut);
        for (int s = 0; s < l->nstmts; s++)
            for (int a = 0; a < l->stmts[s].nacc; a++) {
                ir_access *ac = &l->stmts[s].acc[a];
                for (int d = 0; d < ac->ndims; d++)
                    add_expr_syms(w, root, loop, file, ac->index[d], cut);
                for (int d = 0; d < ac->nextents; d++)
                    add_expr_syms(w, root, loop, file, ac->extent[d], cut);
            }
    }
}

static enum CXChildVisitResult last_child(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    *(CXCursor *)data = c;
    return CXChildVisit_Continue;
}

/* A while or do loop with a computable trip count, read as the for loop it
 * is: `i = e; while (i < n) { ...; i++; }` -- the last statement of the
 * body steps a variable (++, --, += c, -= c), nothing else in the loop
 * writes it, no jump leaves or skips the body, the condition compares it
 * (in any equivalent form) and the statement just before the loop sets it.
 * A do loop runs its body once even when the condition fails at once; that
 * single iteration carries nothing, so the same bounds are safe. */
static void while_header(walker *w, int loop, CXCursor prev, CXCursor cond, CXCursor body)
{
    if (clang_Cursor_isNull(cond) || clang_Cursor_isNull(body) || clang_Cursor_isNull(prev))
        return;
    int jumps = 0;
    clang_visitChildren(body, wk_find_jump, &jumps);
    /* `while (i-- > e)`, `while (i++ < e)`: the step in the condition, the
     * body sees i = i0 - 1 down to e (i0 + 1 up to e) */
    CXCursor cp = wk_peel(cond);
    child_list cl = wk_children(cp);
    if (!jumps && clang_getCursorKind(cp) == CXCursor_BinaryOperator && cl.n == 2) {
        enum CXBinaryOperatorKind k = clang_getCursorBinaryOperatorKind(cp);
        CXCursor u = wk_peel(cl.c[0]);
        child_list ul = wk_children(u);
        enum CXUnaryOperatorKind uk = clang_getCursorKind(u) == CXCursor_UnaryOperator
                                      ? clang_getCursorUnaryOperatorKind(u) : CXUnaryOperator_Invalid;
        int step = k == CXBinaryOperator_GT && uk == CXUnaryOperator_PostDec ? -1
                 : k == CXBinaryOperator_LT && uk == CXUnaryOperator_PostInc ? 1 : 0;
        CXCursor var = step && ul.n == 1 ? wk_ref_decl(ul.c[0]) : clang_getNullCursor();
        if (!clang_Cursor_isNull(var) && wk_is_integer_type(clang_getCursorType(var))
            && wk_count_writes(body, var) == 0 && wk_count_writes(cl.c[1], var) == 0) {
            char *vn = wk_cursor_spelling(var);
            kx_expr *i0 = vn ? wk_init_value(w, prev, vn) : NULL, *e = wk_to_expr(w, cl.c[1]);
            kx_expr *one = kx_int(step);
            if (vn && i0 && e && one && !kx_has_opaque(i0) && !kx_has_opaque(e)) {
                ir_set_bounds(&w->ir->loops[loop], vn, kx_add(i0, one), kx_add(e, one), step);
                if (!w->ir->loops[loop].canonical)
                    ir_set_bounds(&w->ir->loops[loop], NULL, NULL, NULL, 0);
            }
            kx_free(i0);
            kx_free(e);
            kx_free(one);
            free(vn);
            return;
        }
    }
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        return;
    CXCursor inc = clang_getNullCursor();
    clang_visitChildren(body, last_child, &inc);
    if (jumps || clang_Cursor_isNull(inc))
        return;
    child_list il = wk_children(inc);
    CXCursor var = il.n >= 1 ? wk_ref_decl(il.c[0]) : clang_getNullCursor();
    if (clang_Cursor_isNull(var) || wk_count_writes(body, var) != 1 || wk_count_writes(cond, var) != 0)
        return;
    for_header(w, loop, prev, cond, inc);
    ir_loop *L = &w->ir->loops[loop];
    char *vn = wk_cursor_spelling(var);
    int same = L->iv && vn && strcmp(L->iv, vn) == 0;
    free(vn);
    if (!same || !L->canonical)
        ir_set_bounds(L, NULL, NULL, NULL, 0);
}

/* The pointer or array variables a subtree reads an element of (`*p`,
 * `p[e]`; the first 16). */
static enum CXChildVisitResult collect_derefs(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    ref_list *rl = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    int el = k == CXCursor_ArraySubscriptExpr
             || (k == CXCursor_UnaryOperator
                 && clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref);
    if (!el)
        return CXChildVisit_Recurse;
    child_list l = wk_children(c);
    CXCursor d = l.n >= 1 ? wk_ref_decl(wk_peel(l.c[0])) : clang_getNullCursor();
    if (clang_Cursor_isNull(d))
        return CXChildVisit_Recurse;
    for (int i = 0; i < rl->n; i++)
        if (clang_equalCursors(rl->d[i], d))
            return CXChildVisit_Recurse;
    if (rl->n < 16)
        rl->d[rl->n++] = d;
    return CXChildVisit_Recurse;
}



/* Writes of an element of a pointer or array variable: `*p = `, `p[e] op=`,
 * `++*p`. */
static enum CXChildVisitResult count_elem_write(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    write_count *ew = data;
    CXCursor lhs = wk_stored_operand(c, 0);
    if (!clang_Cursor_isNull(lhs)) {
        lhs = wk_peel(lhs);
        enum CXCursorKind lk = clang_getCursorKind(lhs);
        if (lk == CXCursor_ArraySubscriptExpr
            || (lk == CXCursor_UnaryOperator
                && clang_getCursorUnaryOperatorKind(lhs) == CXUnaryOperator_Deref)) {
            child_list b = wk_children(lhs);
            CXCursor d = b.n >= 1 ? wk_ref_decl(wk_peel(b.c[0])) : clang_getNullCursor();
            if (!clang_Cursor_isNull(d) && clang_equalCursors(d, ew->decl))
                ew->n++;
        }
    }
    return CXChildVisit_Recurse;
}

/* Loop control (see ir_loop.control_write): a canonical loop whose body
 * (or the increment, for a variable of the condition other than the
 * induction variable) writes its induction variable or a variable of its
 * condition is not canonical: which iterations run depends on the body.
 * A while/do loop read as a for loop has exactly one write of its variable
 * in the body, its step.  A variable whose address the function keeps in a
 * pointer may be written through it: checked after the body is walked
 * (control_maybe). */
static void control_check(walker *w, int loop, ir_loop_kind kind, CXCursor cond, CXCursor inc,
                          CXCursor body, ref_list *kept)
{
    ir_loop *L = &w->ir->loops[loop];
    kept->n = 0;
    if (!L->canonical || !L->iv || clang_Cursor_isNull(cond) || clang_Cursor_isNull(body))
        return;
    ref_list rl = { .n = 0 };
    wk_collect_vars(cond, clang_getNullCursor(), &rl);
    clang_visitChildren(cond, wk_collect_vars, &rl);
    if (rl.n > 16) {
        ir_set_control_write(L, L->iv, 1);
        return;
    }
    for (int i = 0; i < rl.n; i++) {
        char *name = wk_cursor_spelling(rl.d[i]);
        if (!name)
            continue;
        int is_iv = strcmp(name, L->iv) == 0;
        int writes = wk_count_writes(body, rl.d[i]);
        if (!is_iv && !clang_Cursor_isNull(inc))
            writes += wk_count_writes(inc, rl.d[i]);
        if (writes > (is_iv && kind != IR_FOR)) {
            if (ir_set_control_write(L, name, 0) != 0)
                w->oom = 1;
        } else if (!clang_Cursor_isNull(w->func_cursor)) {
            addr_find af = { rl.d[i], 0 };
            clang_visitChildren(w->func_cursor, wk_find_addr, &af);
            if (af.found && kept->n < 16)
                kept->d[kept->n++] = rl.d[i];
        }
        free(name);
    }
    /* an element the condition reads (`i < *len`, `i < n[0]`) written by
     * the body or the increment */
    ref_list dl = { .n = 0 };
    collect_derefs(cond, clang_getNullCursor(), &dl);
    clang_visitChildren(cond, collect_derefs, &dl);
    for (int i = 0; i < dl.n && !(L->control_write && !L->control_maybe); i++) {
                write_count ew = { dl.d[i], 0 };
        clang_visitChildren(body, count_elem_write, &ew);
        if (!clang_Cursor_isNull(inc)) {
            count_elem_write(inc, clang_getNullCursor(), &ew);
            clang_visitChildren(inc, count_elem_write, &ew);
        }
        if (!ew.n)
            continue;
        char *name = wk_cursor_spelling(dl.d[i]);
        size_t len = name ? strlen(name) : 0;
        char *el = name ? malloc(len + 2) : NULL;
        if (el) {
            el[0] = '*';
            memcpy(el + 1, name, len + 1);
        }
        if (!el || ir_set_control_write(L, el, 0) != 0)
            w->oom = 1;
        free(el);
        free(name);
    }
}

/* After the body: a variable of the control whose address is kept may
 * change through any write of the nest through a pointer. */
static void control_check_after(walker *w, int loop, const ref_list *kept)
{
    ir_loop *L = &w->ir->loops[loop];
    if (!kept->n || (L->control_write && !L->control_maybe))
        return;
    int writes = 0;
    for (int k = loop; k < w->ir->nloops && !writes; k++)
        for (int s = 0; s < w->ir->loops[k].nstmts && !writes; s++)
            for (int a = 0; a < w->ir->loops[k].stmts[s].nacc && !writes; a++)
                writes = w->ir->loops[k].stmts[s].acc[a].is_write;
    if (!writes)
        return;
    char *name = wk_cursor_spelling(kept->d[0]);
    if (!name || ir_set_control_write(L, name, 1) != 0)
        w->oom = 1;
    free(name);
}

/* Does statement prev end right before loop c starts (only blanks, `;`,
 * comments and preprocessor lines between)?  Then the value prev gives a
 * variable is its value on entry of the loop (no `if (i++)` between). */
static int adjacent(walker *w, CXCursor prev, CXCursor c)
{
    CXFile f1, f2;
    int o1, o2;
    wk_expansion(clang_getRangeEnd(clang_getCursorExtent(prev)), &f1, NULL, NULL, &o1);
    wk_expansion(clang_getRangeStart(clang_getCursorExtent(c)), &f2, NULL, NULL, &o2);
    source_file *sf = wk_get_file(w, f1);
    if (!sf || !sf->buf || !clang_File_isEqual(f1, f2) || o1 < 0 || o2 < o1
        || (size_t)o2 > sf->len)
        return 0;
    const char *b = sf->buf;
    for (int o = o1; o < o2; o++) {
        if (b[o] == ' ' || b[o] == '\t' || b[o] == '\n' || b[o] == '\r' || b[o] == ';')
            continue;
        if (b[o] == '/' && o + 1 < o2 && b[o + 1] == '/') {
            while (o < o2 && b[o] != '\n')
                o++;
            continue;
        }
        if (b[o] == '/' && o + 1 < o2 && b[o + 1] == '*') {
            o += 2;
            while (o + 1 < o2 && !(b[o] == '*' && b[o + 1] == '/'))
                o++;
            o++;
            continue;
        }
        if (b[o] == '#') {
            while (o < o2 && b[o] != '\n')
                o += b[o] == '\\' && o + 1 < o2 ? 2 : 1;
            continue;
        }
        return 0;
    }
    return 1;
}

/* The parts of a for header (init, cond, inc, body; a missing one stays
 * the null cursor). */
static void for_parts(walker *w, CXSourceRange r, const child_list *l, CXCursor *init,
                      CXCursor *cond, CXCursor *inc, CXCursor *body)
{
    /* Tell init/cond/inc/body apart by the offsets of the header's
     * top-level `;` and `)` tokens. */
    CXToken *toks = NULL;
    unsigned ntoks = 0;
    int semi[2] = { -1, -1 }, rparen = -1, nsemi = 0, depth = 0;
    clang_tokenize(w->tu, r, &toks, &ntoks);
    for (unsigned i = 0; i < ntoks && rparen < 0; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Punctuation)
            continue;
        CXString s = clang_getTokenSpelling(w->tu, toks[i]);
        const char *t = clang_getCString(s);
        int o;
        wk_expansion(clang_getTokenLocation(w->tu, toks[i]), NULL, NULL, NULL, &o);
        if (strcmp(t, "(") == 0)
            depth++;
        else if (strcmp(t, ")") == 0 && --depth == 0)
            rparen = o;
        else if (strcmp(t, ";") == 0 && depth == 1 && nsemi < 2)
            semi[nsemi++] = o;
        clang_disposeString(s);
    }
    clang_disposeTokens(w->tu, toks, ntoks);
    /* A header written by a macro (`FOR(i, n) body`): the tokens of the
     * range are the macro's name and arguments, not the header's `;`s;
     * a complete header has four children. */
    CXFile sf, ef;
    unsigned so, eo;
    clang_getSpellingLocation(clang_getRangeStart(r), &sf, NULL, NULL, &so);
    clang_getExpansionLocation(clang_getRangeStart(r), &ef, NULL, NULL, &eo);
    if (so != eo || !clang_File_isEqual(sf, ef))
        nsemi = 0;
    if (nsemi == 2 && rparen >= 0) {
        for (int i = 0; i < l->n; i++) {
            int o = wk_start_offset(l->c[i]);
            if (o < semi[0])
                *init = l->c[i];
            else if (o < semi[1])
                *cond = l->c[i];
            else if (o < rparen)
                *inc = l->c[i];
            else
                *body = l->c[i];
        }
    } else if (l->n == 4) {   /* a for inside a macro expansion */
        *init = l->c[0];
        *cond = l->c[1];
        *inc = l->c[2];
        *body = l->c[3];
    } else if (l->n > 0) {
        *body = l->c[l->n - 1];
    }
}

/* `i = e; for (; i < n; i++)`: the statement just before the loop sets
 * its induction variable, whose first value is then e. */
static void init_before(walker *w, int loop, CXCursor prev, CXCursor c, CXCursor init)
{
    ir_loop *fl = &w->ir->loops[loop];
    if (clang_Cursor_isNull(init) && !clang_Cursor_isNull(prev) && fl->iv && !fl->lower
        && fl->upper && fl->step != 0 && adjacent(w, prev, c)) {
        kx_expr *lo = wk_init_value(w, prev, fl->iv);
        if (lo && !kx_has_opaque(lo)) {
            char *iv = strdup(fl->iv);
            kx_expr *up = kx_copy(fl->upper);
            if (iv && up)
                ir_set_bounds(fl, iv, lo, up, fl->step);
            else
                kx_free(lo), kx_free(up);
            free(iv);
        } else {
            kx_free(lo);
        }
    }
}

static void walk_loop(walker *w, CXCursor c, ir_loop_kind kind)
{
    CXCursor prev = w->prev_stmt;
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile file;
    int line, col, end_line;
    wk_expansion(clang_getRangeStart(r), &file, &line, &col, NULL);
    wk_expansion(clang_getRangeEnd(r), NULL, &end_line, NULL, NULL);
    char *fname = wk_file_name(file);
    int loop = fname ? ir_add_loop(w->ir, w->func, w->loop, kind, fname, line, col) : -1;
    free(fname);
    if (loop < 0) {
        w->oom = 1;
        return;
    }
    w->ir->loops[loop].end_line = end_line;
    set_offsets(w, &w->ir->loops[loop], r);
    if (w->conditional > 0) {   /* telescope_children: not every iteration runs it */
        int *cl = ku_push(&w->cond_loops, &w->ncond_loops, sizeof *cl);
        if (cl)
            *cl = loop;
        else
            w->oom = 1;
    }

    child_list l = wk_children(c);
    CXCursor null = clang_getNullCursor();
    CXCursor init = null, cond = null, inc = null, body = null;
    if (kind == IR_FOR) {
        for_parts(w, r, &l, &init, &cond, &inc, &body);
        for_header(w, loop, init, cond, inc);
        init_before(w, loop, prev, c, init);
    } else {
        ir_set_bounds(&w->ir->loops[loop], NULL, NULL, NULL, 0);
        if (l.n == 2) {
            cond = kind == IR_WHILE ? l.c[0] : l.c[1];
            body = kind == IR_WHILE ? l.c[1] : l.c[0];
        }
        while_header(w, loop, clang_Cursor_isNull(prev) || !adjacent(w, prev, c)
                                  ? clang_getNullCursor() : prev, cond, body);
    }
    ref_list kept;
    control_check(w, loop, kind, cond, inc, body, &kept);
    wk_attach_pragmas(w, loop, file);
    {
        int start;
        wk_expansion(clang_getRangeStart(r), NULL, NULL, NULL, &start);
        wk_attach_regions(w, &w->ir->loops[loop], start);
    }
    wk_find_derived(w, loop, c, kind == IR_FOR ? init : clang_getNullCursor(),
                 kind == IR_FOR ? inc : clang_getNullCursor(), body);
    wk_bind_enter_loop(w, loop, c);

    int saved_loop = w->loop, saved_cond = w->conditional, saved_switch = w->switch_depth;
    w->loop = loop;
    w->conditional = 0;
    w->switch_depth = 0;
    /* a while/do condition runs every iteration; so does the condition of
     * a for loop whose trip count is not known (parallel.c reads it) */
    if ((kind != IR_FOR || !w->ir->loops[loop].canonical) && !clang_Cursor_isNull(cond))
        wk_record_stmt(w, cond);
    w->prev_stmt = clang_getNullCursor();
    if (!clang_Cursor_isNull(body))
        walk_stmt(w, body);
    /* the other steps of a for header (`i++, p++`, `i++, x *= 2`) run after
     * the body: statements of the loop, so that their writes are seen */
    if (kind == IR_FOR && w->ir->loops[loop].iv && !clang_Cursor_isNull(inc)) {
        CXCursor parts[MAX_CHILDREN];
        int n = wk_comma_parts(inc, parts, MAX_CHILDREN);
        for (int i = 0; i < n; i++) {
            int64_t st;
            if (!wk_increment_step(w, parts[i], w->ir->loops[loop].iv, &st))
                wk_record_stmt(w, parts[i]);
        }
    }
    if (kind == IR_FOR)
        wk_read_control_check(w, loop, inc, body);
    wk_telescope_children(w, loop);
    control_check_after(w, loop, &kept);
    wk_bind_drop_loop(w, loop);
    w->loop = saved_loop;
    w->conditional = saved_cond;
    w->switch_depth = saved_switch;
    collect_syms(w, loop, file);
}

/* Count a goto/return in the current loop and every loop it leaves. */
static void count_exit(walker *w, int is_return)
{
    for (int l = w->loop; l >= 0; l = w->ir->loops[l].parent) {
        if (is_return)
            w->ir->loops[l].n_return++;
        else
            w->ir->loops[l].n_goto++;
    }
}

static enum CXChildVisitResult walk_child(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    walker *w = data;
    walk_stmt(w, c);
    w->prev_stmt = c;     /* loop-form: what a while loop after it starts from */
    return CXChildVisit_Continue;
}

/* An integer constant expression equal to 0 (the `0` of `while (0)`). */
static int is_zero_literal(CXCursor c)
{
    int64_t v;
    c = wk_peel(c);
    return clang_getCursorKind(c) == CXCursor_IntegerLiteral && wk_integer_value(c, &v) && v == 0;
}

static void walk_stmt(walker *w, CXCursor c)
{
    child_list l = wk_children(c);
    switch (clang_getCursorKind(c)) {
    case CXCursor_ForStmt:
        walk_loop(w, c, IR_FOR);
        return;
    case CXCursor_WhileStmt:
        walk_loop(w, c, IR_WHILE);
        return;
    case CXCursor_DoStmt:
        /* `do { ... } while (0)`: a macro's statement wrapper, not a loop. */
        if (l.n == 2 && is_zero_literal(l.c[1])) {
            walk_stmt(w, l.c[0]);
            return;
        }
        walk_loop(w, c, IR_DO);
        return;
    case CXCursor_UnexposedStmt:
        /* An attributed statement (`#pragma GCC unroll`, `#pragma clang
         * loop`, `#pragma unroll`, `[[...]]`) wraps the statement it
         * annotates: walk that.  Anything else is a plain statement. */
        if (l.n >= 1 && clang_isStatement(clang_getCursorKind(l.c[l.n - 1]))) {
            clang_visitChildren(c, walk_child, w);
            return;
        }
        if (w->loop >= 0)
            wk_record_stmt(w, c);
        return;
    case CXCursor_CompoundStmt:
    case CXCursor_LabelStmt:
        /* Not through child_list: a block may hold any number of statements. */
        w->prev_stmt = clang_getNullCursor();
        clang_visitChildren(c, walk_child, w);
        return;
    case CXCursor_IfStmt:
        if (l.n < 2)
            return;
        if (w->loop >= 0) {
            w->ir->loops[w->loop].n_if++;
            wk_record_stmt(w, l.c[0]);
        }
        w->conditional++;
        for (int i = 1; i < l.n; i++) {
            w->prev_stmt = clang_getNullCursor();
            walk_stmt(w, l.c[i]);
        }
        w->conditional--;
        return;
    case CXCursor_SwitchStmt:
        if (l.n < 2)
            return;
        wk_record_stmt(w, l.c[0]);
        w->conditional++;
        w->switch_depth++;
        w->prev_stmt = clang_getNullCursor();
        walk_stmt(w, l.c[l.n - 1]);
        w->switch_depth--;
        w->conditional--;
        return;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
        w->prev_stmt = clang_getNullCursor();
        if (l.n >= 1)
            walk_stmt(w, l.c[l.n - 1]);
        return;
    case CXCursor_BreakStmt:
        if (w->loop >= 0 && w->switch_depth == 0)
            w->ir->loops[w->loop].n_break++;
        return;
    case CXCursor_ContinueStmt:
        if (w->loop >= 0)
            w->ir->loops[w->loop].n_continue++;
        return;
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        count_exit(w, 0);
        return;
    case CXCursor_ReturnStmt:
        count_exit(w, 1);
        if (l.n >= 1)
            wk_record_stmt(w, c);
        return;
    case CXCursor_NullStmt:
        return;
    default:
        if (w->loop >= 0)
            wk_record_stmt(w, c);
        else
            bind_outside(w, c);
        return;
    }
}

static enum CXChildVisitResult walk_body(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
        walk_stmt(data, c);
    return CXChildVisit_Continue;
}

enum CXChildVisitResult wk_visit_top(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    walker *w = data;
    if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
        return CXChildVisit_Continue;
    CXSourceLocation loc = clang_getCursorLocation(c);
    if (clang_Location_isInSystemHeader(loc))
        return CXChildVisit_Continue;
    CXFile file;
    int line, col;
    wk_expansion(loc, &file, &line, &col, NULL);
    char *name = wk_cursor_spelling(c), *fname = wk_file_name(file);
    w->func = name ? ir_add_function(w->ir, name, fname, line, col) : -1;
    if (w->func >= 0)
        w->ir->funcs[w->func].inline_def = clang_Cursor_isFunctionInlined(c)
            && clang_getCursorLinkage(c) == CXLinkage_External;
    w->func_cursor = c;
    free(name);
    free(fname);
    if (w->func < 0) {
        w->oom = 1;
        return CXChildVisit_Break;
    }
    while (w->nbind > 0)
        wk_bind_drop_at(w, w->nbind - 1);
    /* Every child, not the first MAX_CHILDREN: a function with 16 or more
     * parameters has its body after them. */
    clang_visitChildren(c, walk_body, w);
    while (w->nbind > 0)
        wk_bind_drop_at(w, w->nbind - 1);
    return w->oom ? CXChildVisit_Break : CXChildVisit_Continue;
}
