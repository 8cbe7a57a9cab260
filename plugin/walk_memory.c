/*
 * walk_memory.c -- loop bounds held in memory, telescoping trip counts and
 * derived pointers.
 *
 * A bound read from memory that the call before the nest can read again
 * (`grid_points[0]`, `s->n`) becomes a named value with its C text, as
 * long as nothing in the nest may write it; the trip counts of a CSR row
 * loop (`for (k = row[i]; k < row[i + 1]; k++)`) telescope to one total
 * over the outer loop; pointers and counters stepped once per iteration
 * are rewritten as inductions of their loop.
 */
#include "walk_int.h"

/* ---- bounds held in memory ------------------------------------------------
 *
 * A loop bound that reads memory -- `i < grid_points[0] - 1`, `i < s->n`,
 * `i < public.allPoints` -- becomes a named value (kx_named) whose name is
 * the read's C text, so the call before the nest can pass it as it passes a
 * variable: `(long long)(s->n)`.  Only reads that are safe to repeat there:
 * an integer, not volatile, not from a macro, with constant subscripts; an
 * element or member of an array or struct object (always there to read),
 * or a read through a pointer that the loop's own entry test performs (the
 * first comparison of its condition, or its init): the call then reads what
 * the loop was about to read, at the same place.  collect_syms passes a
 * read through a pointer only to the nest of the loop whose entry test
 * reads it.  A nest that writes the read (an element of the same array, a
 * member of the same name) makes it loop control (control_check). */

/* Is decl the induction variable of a loop around the one being read?
 * (`rowstr[j]` under the j loop varies in the nest: telescope_children.) */
static int encloses_iv(walker *w, CXCursor decl)
{
    char *ivs[64], *name = wk_cursor_spelling(decl);
    int n = wk_enclosing_ivs(w, ivs, 64), found = 0;
    for (int i = 0; i < n && name && !found; i++)
        found = strcmp(ivs[i], name) == 0;
    free(name);
    return found;
}

kx_expr *wk_named_read(walker *w, CXCursor c)
{
    if (w->bound_loop < 0 || wk_in_macro(c))
        return NULL;
    c = wk_peel(c);
    CXType t = clang_getCursorType(c);
    if (!wk_is_integer_type(t) || clang_isVolatileQualifiedType(t))
        return NULL;
    int through_ptr = 0, nidx = 0;
    char *field = NULL;
    CXCursor cur = c, idx[4];
    for (int steps = 0; steps < 16; steps++) {
        enum CXCursorKind k = clang_getCursorKind(cur);
        child_list l = wk_children(cur);
        CXCursor base;
        if (k == CXCursor_MemberRefExpr && l.n == 1) {
            base = wk_peel(l.c[0]);
            if (!field)
                field = wk_cursor_spelling(cur);
            if (clang_getCanonicalType(clang_getCursorType(base)).kind == CXType_Pointer)
                through_ptr = 1;
        } else if (k == CXCursor_ArraySubscriptExpr && l.n == 2) {
            int64_t v;
            base = wk_peel(l.c[0]);
            CXType bt = clang_getCanonicalType(clang_getCursorType(base));
            if (!wk_integer_value(wk_peel(l.c[1]), &v)) {
                /* a variable subscript: read where the test reads it only
                 * (its value may be out of the array elsewhere) */
                CXCursor d = wk_ref_decl(l.c[1]);
                CXType dt = clang_getCursorType(d);
                if (clang_Cursor_isNull(d) || nidx == 4 || !wk_is_integer_type(dt)
                    || clang_isVolatileQualifiedType(dt) || encloses_iv(w, d))
                    break;
                idx[nidx++] = d;
                through_ptr = 1;
            } else if (v < 0)
                break;
            else if (bt.kind == CXType_ConstantArray) {
                if (v >= clang_getArraySize(bt))
                    break;
            } else
                through_ptr = 1;
        } else if (k == CXCursor_UnaryOperator && l.n == 1
                   && clang_getCursorUnaryOperatorKind(cur) == CXUnaryOperator_Deref) {
            base = wk_peel(l.c[0]);   /* `*len` */
            through_ptr = 1;
        } else if (k == CXCursor_DeclRefExpr && steps > 0) {
            CXCursor d = wk_ref_decl(cur);
            if (clang_Cursor_isNull(d))
                break;
            char *name = wk_extent_text(w, c);
            kx_expr *r = NULL;
            /* the text goes into the call as it is: no comment, line
             * splice, literal or directive that could change its meaning */
            mem_read *m = name && !name[strcspn(name, "/\\\"'#\n\r")]
                        ? ku_push(&w->reads, &w->nreads, sizeof *m) : NULL;
            if (!m) {
                free(name);
                break;
            }
            CXCursor parent = clang_getCursorSemanticParent(d);
            m->name = name;
            m->field = field;
            field = NULL;
            m->type = clang_getCanonicalType(clang_getCursorType(c));
            m->root = d;
            m->through_ptr = through_ptr;
            m->loop = w->bound_loop;
            m->entry = w->bound_entry;
            m->always_visible = clang_getCursorKind(d) == CXCursor_ParmDecl
                             || clang_getCursorKind(parent) == CXCursor_TranslationUnit;
            wk_expansion(clang_getCursorLocation(d), &m->file, NULL, NULL, &m->offset);
            m->nidx = nidx;
            for (int i = 0; i < nidx; i++) {
                struct mem_index *x = &m->idx[i];
                CXCursor xp = clang_getCursorSemanticParent(idx[i]);
                x->decl = idx[i];
                x->always_visible = clang_getCursorKind(idx[i]) == CXCursor_ParmDecl
                                 || clang_getCursorKind(xp) == CXCursor_TranslationUnit;
                wk_expansion(clang_getCursorLocation(idx[i]), &x->file, NULL, NULL, &x->offset);
            }
            r = kx_named(name);
            return r;
        } else
            break;
        cur = base;
    }
    free(field);
    return NULL;
}

/* The read named `name` that collect_syms may pass to the nest rooted at
 * loop `root`, declared before `cut` in `file`; NULL when none. */
const mem_read *wk_passable_read(const walker *w, const char *name, int root, CXFile file,
                                     int cut)
{
    for (int i = w->nreads - 1; i >= 0; i--) {
        const mem_read *m = &w->reads[i];
        if (strcmp(m->name, name) != 0)
            continue;
        /* through a pointer: only where the call goes right before the
         * loop that reads it (not before a device region around it) */
        if (m->through_ptr && !(m->loop == root && m->entry && cut == w->ir->loops[root].offset))
            continue;
        int seen = m->always_visible || (clang_File_isEqual(m->file, file) && m->offset < cut);
        for (int k = 0; k < m->nidx && seen; k++)
            seen = m->idx[k].always_visible
                || (clang_File_isEqual(m->idx[k].file, file) && m->idx[k].offset < cut);
        if (seen)
            return m;
    }
    return NULL;
}

typedef struct {
    const mem_read *m;
    int n;
} read_write;

/* May a store of type `w` change an object of type `r` (C11 6.5p7, the
 * aliasing rule: an object is accessed only through its own type, a
 * signed/unsigned variant, or a character type)?  An unknown type may. */
static int may_alias(CXType w, CXType r)
{
    w = clang_getCanonicalType(w);
    if (r.kind == CXType_Invalid || w.kind == CXType_Invalid || clang_equalTypes(w, r))
        return 1;
    switch (w.kind) {
    case CXType_Char_S: case CXType_Char_U: case CXType_SChar: case CXType_UChar:
        return 1;
    default:
        break;
    }
    return wk_is_integer_type(w) && wk_is_integer_type(r)
           && clang_Type_getSizeOf(w) == clang_Type_getSizeOf(r);
}

/* Does the C text of a read name member f (`->f` or `.f`, whole word)? */
static int names_member(const char *text, const char *f)
{
    size_t n = strlen(f);
    for (const char *p = text; (p = strstr(p, f)) != NULL; p++) {
        int after = (unsigned char)p[n];
        int word_end = !(isalnum(after) || after == '_');
        int member = (p - text >= 1 && p[-1] == '.') || (p - text >= 2 && p[-2] == '-' && p[-1] == '>');
        if (member && word_end)
            return 1;
    }
    return 0;
}

/* Writes that may change a read: an element of its root variable, a member
 * of its name through any path.  A store reached through another member of
 * a struct is not one: straight into that member (`f->total = 0`), it is
 * another object; through the pointer it holds (`f->v[i] *= s`), it may
 * change the read only where the aliasing rule lets its type (`double`
 * never changes `long n`).  Members of a union overlap: they count. */
static enum CXChildVisitResult count_read_write(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    read_write *rw = data;
    CXCursor lhs = wk_stored_operand(c, 1);
    CXType stored = clang_Cursor_isNull(lhs) ? (CXType){ 0 } : clang_getCursorType(wk_peel(lhs));
    int derefs = 0;      /* subscripts and dereferences passed so far */
    while (!clang_Cursor_isNull(lhs)) {
        lhs = wk_peel(lhs);
        enum CXCursorKind lk = clang_getCursorKind(lhs);
        child_list b = wk_children(lhs);
        if (lk == CXCursor_MemberRefExpr && b.n == 1) {
            char *f = wk_cursor_spelling(lhs);
            int same = f && rw->m->field && strcmp(f, rw->m->field) == 0;
            int on_path = !f || names_member(rw->m->name, f);   /* `p->q = ...` for `p->q->n` */
            free(f);
            if (same) {
                rw->n++;
            } else {
                CXCursor fd = clang_getCursorReferenced(lhs);
                int in_union = clang_getCursorKind(clang_getCursorSemanticParent(fd))
                               == CXCursor_UnionDecl;
                if (!in_union && !on_path && (derefs == 0 || !may_alias(stored, rw->m->type)))
                    break;   /* another member, or what it points to, of another type */
            }
            lhs = b.c[0];
        } else if ((lk == CXCursor_ArraySubscriptExpr && b.n == 2)
                   || (lk == CXCursor_UnaryOperator && b.n == 1
                       && clang_getCursorUnaryOperatorKind(lhs) == CXUnaryOperator_Deref)) {
            derefs++;
            lhs = b.c[0];
        } else {
            CXCursor d = wk_ref_decl(lhs);
            if (!clang_Cursor_isNull(d) && clang_equalCursors(d, rw->m->root))
                rw->n++;
            break;
        }
    }
    return CXChildVisit_Recurse;
}

/* After loop `loop`'s body is walked: a read its bounds name that the body
 * or the increment may write makes the loop's control written
 * (ir_set_control_write), as a written variable of the condition does. */
void wk_read_control_check(walker *w, int loop, CXCursor inc, CXCursor body)
{
    ir_loop *L = &w->ir->loops[loop];
    for (int i = 0; i < w->nreads && !(L->control_write && !L->control_maybe); i++) {
        const mem_read *m = &w->reads[i];
        if (m->loop != loop)
            continue;
        read_write rw = { m, 0 };
        if (!clang_Cursor_isNull(body)) {
            count_read_write(body, clang_getNullCursor(), &rw);
            clang_visitChildren(body, count_read_write, &rw);
        }
        if (!clang_Cursor_isNull(inc)) {
            count_read_write(inc, clang_getNullCursor(), &rw);
            clang_visitChildren(inc, count_read_write, &rw);
        }
        for (int k = 0; k < m->nidx; k++) {
            if (!clang_Cursor_isNull(body))
                rw.n += wk_count_writes(body, m->idx[k].decl);
            if (!clang_Cursor_isNull(inc))
                rw.n += wk_count_writes(inc, m->idx[k].decl);
        }
        if (rw.n && ir_set_control_write(L, m->name, 0) != 0)
            w->oom = 1;
    }
}

/* Does the printed form of e read as the same C expression?  An affine
 * polynomial over plain variables does (`lastrow - firstrow + 2`). */
static int prints_as_c(const kx_expr *e)
{
    char **names = NULL;
    if (!e || !kx_is_affine(e) || kx_has_opaque(e))
        return 0;
    int n = kx_symbols(e, &names), ok = n >= 0;
    for (int i = 0; i < n && ok; i++)
        ok = strspn(names[i], "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
             == strlen(names[i]) && !(names[i][0] >= '0' && names[i][0] <= '9');
    kx_free_names(names, n);
    return ok;
}

/* After loop `loop`'s body: a child loop whose trip count is a difference
 * of consecutive elements of one array (`for (k = rowstr[j]; k <
 * rowstr[j+1]; k++)` under `for (j = lo; j < hi; j++)`) runs, summed over
 * the parent's iterations, A[hi] - A[lo] times in all (kx_telescope).  That
 * total becomes a named read of loop `loop`'s entry -- its C text guarded
 * so that it reads A only when the loop runs, as the loop itself does:
 * `(hi > lo ? A[hi] - A[lo] : 0)` -- and the child's trip count its mean
 * per parent iteration, div(total, parent trip), which the runtime
 * multiplies back (to within one iteration per parent iteration). */
void wk_telescope_children(walker *w, int loop)
{
    ir_loop *P = &w->ir->loops[loop];
    /* every iteration of P runs the child's head: no early exit from P */
    if (!P->canonical || !P->iv || P->step != 1 || !P->lower || !P->upper || !P->trip
        || P->n_break || P->n_continue || P->n_goto || P->n_return)
        return;
    for (int k = loop + 1; k < w->ir->nloops; k++) {
        ir_loop *C = &w->ir->loops[k];
        int cond = 0;
        for (int i = 0; i < w->ncond_loops && !cond; i++)
            cond = w->cond_loops[i] == k;
        if (C->parent != loop || cond || !C->trip || !C->canonical || C->step != 1
            || !kx_mentions(C->trip, P->iv))
            continue;
        kx_expr *sum = NULL;
        if (kx_telescope(C->trip, P->iv, P->lower, P->upper, &sum) != 1)
            continue;
        /* C->lower is load.A(x): A a pointer or array variable the walker
         * has seen, x of degree 1 in the parent's variable; the total
         * reads A at x[iv := hi] and x[iv := lo] */
        const sym_info *si = NULL;
        kx_expr *H = NULL, *L = NULL;
        char *lowtext = C->lower ? kx_print(C->lower) : NULL;
        size_t tl = lowtext ? strlen(lowtext) : 0;
        char *open = tl > 7 && !strncmp(lowtext, "load.", 5) ? strchr(lowtext + 5, '(') : NULL;
        if (open && lowtext[tl - 1] == ')') {
            *open = 0;   /* the name between "load." and "(" */
            si = wk_sym_find(w, lowtext + 5);
            *open = '(';
            if (si && !si->addr)
                si = NULL;
        }
        if (si) {
            char err[64];
            lowtext[tl - 1] = 0;
            kx_expr *x = kx_parse(lowtext + 6 + strlen(si->name), err, sizeof err);
            if (x && kx_degree(x, P->iv) == 1) {
                H = kx_subst(x, P->iv, P->upper);
                L = kx_subst(x, P->iv, P->lower);
            }
            kx_free(x);
        }
        free(lowtext);
        char *hs = prints_as_c(H) ? kx_print(H) : NULL, *ls = prints_as_c(L) ? kx_print(L) : NULL;
        if (hs && ls) {
            /* the total, and the first row's start A[lo] */
            kx_expr *named[2] = { NULL, NULL };
            for (int r = 0; r < 2; r++) {
                ku_buf b = { 0 };
                if (r == 0)
                    ku_buf_printf(&b, "((%s) > (%s) ? %s[%s] - %s[%s] : 0)", hs, ls, si->name,
                                  hs, si->name, ls);
                else
                    ku_buf_printf(&b, "((%s) > (%s) ? %s[%s] : 0)", hs, ls, si->name, ls);
                char *name = ku_buf_take(&b);
                mem_read *m = name ? ku_push(&w->reads, &w->nreads, sizeof *m) : NULL;
                if (!m) {
                    free(name);
                    w->oom = 1;
                    continue;
                }
                memset(m, 0, sizeof *m);
                m->name = name;
                m->root = clang_getNullCursor();
                m->through_ptr = 1;
                m->loop = loop;
                m->entry = 1;
                m->always_visible = si->always_visible;
                m->file = si->file;
                m->offset = si->offset;
                named[r] = kx_named(name);
            }
            /* trip: the mean row, div(total, rows); lower: where row iv
             * starts when rows are equal, start + (iv - lo) * mean, exact
             * for the first */
            kx_expr *mean = named[0] && named[1]
                          ? kx_op(KX_DIV, NULL, 2, (kx_expr *[]){ named[0], P->trip }) : NULL;
            kx_expr *ivs = kx_sym(P->iv), *off = kx_sub(ivs, P->lower);
            kx_expr *step = kx_mul(off, mean), *start = kx_add(named[1], step);
            if (mean && start) {
                kx_free(C->trip);
                C->trip = mean;
                mean = NULL;
                kx_free(C->lower);
                C->lower = start;
                start = NULL;
            } else
                w->oom = 1;
            kx_free(mean);
            kx_free(start);
            kx_free(step);
            kx_free(off);
            kx_free(ivs);
            kx_free(named[0]);
            kx_free(named[1]);
        }
        free(hs);
        free(ls);
        kx_free(H);
        kx_free(L);
        kx_free(sum);
    }
}

/* One step statement st of loop `loop` (c its cursor): `k++`, `++k`,
 * `k--`, `k += e`, `k -= e` where k is an integer or pointer variable the
 * loop writes nowhere else and e a polynomial in variables the loop does
 * not write: bind k as a derived induction variable, its value
 * entry + iter * e before the step and entry + (iter + 1) * e after it.
 * A pointer that is not bound to an array is its own base: its accesses
 * are relative to its value on entry of the loop (ir_loop.stepped).
 * Returns 1 when k was bound. */
static int derive_var(walker *w, int loop, CXCursor c, CXCursor init, CXCursor st,
                      const kx_expr *iter, CXCursor var, CXCursor operand, kx_expr *inc,
                      CXCursor rhs);

/* Postfix steps of pointers inside a statement's dereferences (`*d++ =
 * *s++`): the dereference reads the value before the step. */
typedef struct {
    int n;
    CXCursor step[8];
} post_steps;

static enum CXChildVisitResult find_post_step(CXCursor c, CXCursor parent, void *data)
{
    post_steps *ps = data;
    if (clang_getCursorKind(c) == CXCursor_UnaryOperator
        && (clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_PostInc
            || clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_PostDec)
        && clang_getCursorKind(parent) == CXCursor_UnaryOperator
        && clang_getCursorUnaryOperatorKind(parent) == CXUnaryOperator_Deref) {
        if (ps->n < 8)
            ps->step[ps->n] = c;
        ps->n++;
        return CXChildVisit_Continue;
    }
    return CXChildVisit_Recurse;
}

static int derive_step(walker *w, int loop, CXCursor c, CXCursor init, CXCursor st,
                       const kx_expr *iter)
{
    enum CXCursorKind k = clang_getCursorKind(st);
    child_list l = wk_children(st);
    CXCursor var = clang_getNullCursor(), operand = clang_getNullCursor();
    kx_expr *inc = NULL;
    if (k == CXCursor_UnaryOperator && l.n == 1) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(st);
        if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc)
            inc = kx_int(1);
        else if (op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreDec)
            inc = kx_int(-1);
        var = wk_ref_decl(l.c[0]);
        operand = l.c[0];
    } else if (k == CXCursor_CompoundAssignOperator && l.n == 2) {
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(st);
        if (op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign) {
            kx_expr *e = wk_to_expr(w, l.c[1]);
            inc = e && op == CXBinaryOperator_SubAssign ? kx_neg(e) : kx_copy(e);
            kx_free(e);
            var = wk_ref_decl(l.c[0]);
            operand = l.c[0];
        }
    }
    if (!inc) {
        post_steps ps = { .n = 0 };
        clang_visitChildren(st, find_post_step, &ps);
        int bound = 0;
        for (int i = 0; i < ps.n && i < 8 && ps.n <= 8; i++) {
            child_list pl = wk_children(ps.step[i]);
            if (pl.n != 1 || clang_getCanonicalType(clang_getCursorType(pl.c[0])).kind
                                 != CXType_Pointer)
                continue;
            kx_expr *one = kx_int(clang_getCursorUnaryOperatorKind(ps.step[i])
                                  == CXUnaryOperator_PostInc ? 1 : -1);
            bound += derive_var(w, loop, c, init, st, iter, wk_ref_decl(pl.c[0]), pl.c[0], one,
                                clang_getNullCursor());
        }
        return bound > 0;
    }
    return derive_var(w, loop, c, init, st, iter, var, operand, inc,
                      l.n >= 1 ? l.c[l.n - 1] : clang_getNullCursor());
}

/* Bind var, stepped by inc (consumed) in statement st (rhs: the step's
 * expression, whose variables the loop must not write; null: none). */
static int derive_var(walker *w, int loop, CXCursor c, CXCursor init, CXCursor st,
                      const kx_expr *iter, CXCursor var, CXCursor operand, kx_expr *inc,
                      CXCursor rhs)
{
    const ir_loop *L = &w->ir->loops[loop];
    char *vname = clang_Cursor_isNull(var) ? NULL : wk_cursor_spelling(var);
    int own = vname && strcmp(vname, L->iv) == 0;
    free(vname);
    /* a pointer stepped the same way moves over the array it was set
     * from (`double *p = a + 1; ... p++`), or over its own target */
    int pb = clang_Cursor_isNull(var) ? -1 : wk_bind_find(w, var);
    int is_ptr = !clang_Cursor_isNull(var)
                 && clang_getCanonicalType(clang_getCursorType(var)).kind == CXType_Pointer;
    if (pb >= 0 && !w->bind[pb].is_ptr)
        pb = -1;
    int ok = inc && !own && !clang_Cursor_isNull(var) && !kx_has_opaque(inc)
             && (is_ptr || wk_is_integer_type(clang_getCursorType(var)))
             && wk_count_writes(c, var)
                - (clang_Cursor_isNull(init) ? 0 : wk_count_writes(init, var)) == 1;
    if (ok && !clang_Cursor_isNull(w->func_cursor)) {
        /* no pointer kept to k may change it behind the step */
        addr_find af = { var, 0 };
        clang_visitChildren(w->func_cursor, wk_find_addr, &af);
        ok = !af.found;
    }
    if (ok && !clang_Cursor_isNull(rhs)) {
        /* e must not change inside the loop */
        ref_list rl = { .n = 0 };
        clang_visitChildren(rhs, wk_collect_ref, &rl);
        for (int i = 0; i < rl.n && ok; i++)
            ok = wk_count_writes(c, rl.d[i]) == 0;
        ok = ok && rl.n < 16;
    }
    int bound = 0;
    if (ok && is_ptr) {
        binding q = { .inc_offset = -1 };
        int own_base = pb < 0;
        if (own_base && !wk_ptr_value(w, operand, &q)) {
            wk_bind_clear(&q);
            kx_free(inc);
            return 0;
        }
        /* its own base: the name means its value on entry of the loop, so
         * nothing outside the loop may move it (other pointers set from it
         * before the loop then agree) */
        if (own_base && !clang_Cursor_isNull(w->func_cursor)
            && wk_count_writes(w->func_cursor, var) != wk_count_writes(c, var)) {
            wk_bind_clear(&q);
            kx_free(inc);
            return 0;
        }
        const binding *qb = own_base ? &q : &w->bind[pb];
        binding b = { .decl = var, .loop = loop, .inc_offset = wk_start_offset(st), .is_ptr = 1 };
        b.base = strdup(qb->base);
        b.nprefix = qb->nprefix;
        for (int p = 0; p < qb->nprefix; p++)
            b.prefix[p] = kx_copy(qb->prefix[p]);
        b.next = qb->next;
        for (int p = 0; p < qb->next; p++)
            b.ext[p] = qb->ext[p] ? kx_copy(qb->ext[p]) : NULL;
        kx_expr *one = kx_int(1), *t = kx_mul(iter, inc), *it1 = kx_add(iter, one);
        kx_expr *t1 = kx_mul(it1, inc);
        b.off = kx_add(qb->off, t);
        b.after = kx_add(qb->off, t1);
        kx_free(one); kx_free(t); kx_free(it1); kx_free(t1);
        char *pn = wk_cursor_spelling(var);
        if (!pn || ir_add_stepped(&w->ir->loops[loop], pn) != 0)
            w->oom = 1;
        free(pn);
        if (b.base && b.off && b.after) {
            wk_bind_put(w, &b);
            bound = 1;
        } else {
            wk_bind_clear(&b);
        }
        wk_bind_clear(&q);
    } else if (ok) {
        char *vn = wk_cursor_spelling(var), sym[300];
        snprintf(sym, sizeof sym, "%s__L%d", vn ? vn : "", loop);
        /* its value on entry: what the for-init sets, else a symbol */
        kx_expr *k0 = !clang_Cursor_isNull(init) && vn ? wk_init_value(w, init, vn) : NULL;
        if (k0 && kx_has_opaque(k0))
            k0 = (kx_free(k0), NULL);
        free(vn);
        if (!k0)
            k0 = kx_sym(sym);
        kx_expr *one = kx_int(1);
        kx_expr *t = kx_mul(iter, inc), *it1 = kx_add(iter, one);
        kx_expr *t1 = kx_mul(it1, inc);
        binding b = { .decl = var, .loop = loop, .inc_offset = wk_start_offset(st) };
        b.value = kx_add(k0, t);
        b.after = kx_add(k0, t1);
        kx_free(k0); kx_free(one); kx_free(t); kx_free(it1); kx_free(t1);
        if (b.value && b.after) {
            wk_bind_put(w, &b);
            bound = 1;
        } else {
            wk_bind_clear(&b);
        }
    }
    kx_free(inc);
    return bound;
}

/* Derived induction variables of canonical loop `loop` (see above): the
 * steps in its for header besides its own (`i++, p++`, `i++, j += 2`),
 * which run at the end of every iteration, continue or not, and the direct
 * statements of its body that step a variable, when nothing in the body
 * skips them.  Header steps are recorded as statements of the loop after
 * its body (walk_loop), so that the dependence test sees their writes. */
void wk_find_derived(walker *w, int loop, CXCursor c, CXCursor init, CXCursor inc,
                         CXCursor body)
{
    const ir_loop *L = &w->ir->loops[loop];
    if (!L->canonical || !L->iv || !L->lower || (L->step != 1 && L->step != -1))
        return;
    kx_expr *ivs = kx_sym(L->iv);
    kx_expr *iter = L->step == 1 ? kx_sub(ivs, L->lower) : kx_sub(L->lower, ivs);
    kx_free(ivs);
    if (!clang_Cursor_isNull(inc) && iter) {
        CXCursor parts[MAX_CHILDREN];
        int n = wk_comma_parts(inc, parts, MAX_CHILDREN);
        for (int i = 0; i < n; i++) {
            int64_t st;
            if (!wk_in_macro(parts[i]) && !wk_increment_step(w, parts[i], L->iv, &st))
                derive_step(w, loop, c, init, parts[i], iter);
        }
    }
    int jumps = 0;
    if (!clang_Cursor_isNull(body))
        clang_visitChildren(body, wk_find_jump, &jumps);
    if (jumps || clang_Cursor_isNull(body)) {
        kx_free(iter);
        return;
    }
    child_list sl = wk_children(body);   /* the first MAX_CHILDREN statements */
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt) {
        sl.n = 1;                     /* a single statement: the body itself */
        sl.c[0] = body;
    }
    for (int s = 0; s < sl.n && iter; s++)
        derive_step(w, loop, c, init, sl.c[s], iter);
    kx_free(iter);
}
