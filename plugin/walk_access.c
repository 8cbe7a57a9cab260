/*
 * walk_access.c -- a statement's array accesses, scalar references and
 * operation counts.
 *
 * A subscript chain is resolved to its base variable and declared extents
 * (a flattened subscript of a known shape is delinearized), a dereference
 * or member access to the memory it names; every operand is scanned for
 * reads and writes, float and integer operations are counted (fused
 * multiply-add pairs apart), and calls other than math functions are
 * listed.  Left-deep operator chains are walked in a loop and expressions
 * nested deeper than MAX_SCAN_DEPTH are cut, with a reason.
 *
 * Each read also gets its flow (ir.h, ir_flow): the write of the statement
 * its value reaches and the operations on the way, from the tree libclang
 * built after preprocessing (a max macro is the conditional expression it
 * expands to).  The walk carries the flow of the node it is in
 * (walker.flow): an assignment starts it at its left operand's write, each
 * operator, conditional expression and fmax/fmin call on the way down adds
 * its operation, a subscript stops it, and another call or a conversion
 * to or from a floating type marks it opaque.
 */
#include "walk_int.h"

static void scan(walker *w, CXCursor c, int mode, int in_subscript);

typedef struct {
    walker *w;
    int in_subscript;
} scan_ctx;

static enum CXChildVisitResult scan_child(CXCursor c, CXCursor parent, void *data);
static void scan_operands(walker *w, CXCursor c, int writes, int in_subscript,
                          const ir_flow *argflow);
static int address_only(walker *w, CXCursor x);

/* Is e >= 0 wherever the loops ch[0..nch-1] run: a constant >= 0 plus
 * loop variables of ch with constant coefficients >= 0, each variable's
 * loop counting up from a start that is itself >= 0 (`k + 1` inside
 * `for (k = 0; ...)`)?  depth bounds the recursion through the starts. */
static int nonneg_in(const kx_expr *e, const ir_loop *const *ch, int nch, int depth)
{
    if (!e || depth > 8)
        return 0;
    kx_expr *rest = kx_copy(e), *zero = kx_int(0);
    int ok = rest && zero;
    for (int k = 0; k < nch && ok; k++) {
        if (!kx_mentions(e, ch[k]->iv))
            continue;
        kx_expr *c = kx_coeff(e, ch[k]->iv), *t;
        int64_t v;
        ok = c && kx_is_const(c, &v) && v >= 0 && kx_degree(e, ch[k]->iv) == 1
             && ch[k]->step > 0 && nonneg_in(ch[k]->lower, ch, nch, depth + 1);
        kx_free(c);
        t = ok ? kx_subst(rest, ch[k]->iv, zero) : NULL;
        kx_free(rest);
        rest = t;
        ok = ok && rest;
    }
    int64_t c0;
    ok = ok && kx_is_const(rest, &c0) && c0 >= 0;
    kx_free(rest);
    kx_free(zero);
    return ok;
}

/* The row length of a subscript whose loop variables all have composite
 * coefficients, as the diagonal `k*n + k` (k's coefficient is n + 1): a
 * program symbol of degree 1 in e whose coefficient mentions a loop
 * variable of ch; malloc'd, NULL when there is none. */
static char *diagonal_size(const kx_expr *e, const ir_loop *const *ch, int nch)
{
    char **names = NULL, *size = NULL;
    int nn = kx_symbols(e, &names);
    for (int i = 0; i < nn && !size; i++) {
        int is_iv = 0;
        for (int k = 0; k < nch && !is_iv; k++)
            is_iv = strcmp(ch[k]->iv, names[i]) == 0;
        if (is_iv || strstr(names[i], "__") || kx_degree(e, names[i]) != 1)
            continue;
        kx_expr *c = kx_coeff(e, names[i]);
        int uses = 0;
        for (int k = 0; k < nch && c && !uses; k++)
            uses = kx_mentions(c, ch[k]->iv);
        kx_free(c);
        if (uses)
            size = strdup(names[i]);
    }
    kx_free_names(names, nn > 0 ? nn : 0);
    return size;
}

/* Delinearisation (as LLVM's, for a symbolic row length): a 1-D subscript
 * S*P + Q of a pointer, S a program symbol that is the coefficient of some
 * enclosing loop variable (or else one whose coefficient mentions a loop
 * variable: the diagonal `k*n + k`, diagonal_size), P and Q affine in the loop variables with
 * constant coefficients and free of S, becomes [P][Q] with extents
 * [?][S] -- but only when the bounds prove 0 <= Q < S: Q is v + c for one
 * enclosing loop variable v (step +-1) with lower(v) + c >= 0 (a constant,
 * or outer loop variables counting up from >= 0: nonneg_in) and
 * S - upper(v) - c >= 0 a constant (v's loop runs, so S > 0).  Linearised
 * again it is the same address, so strides do not change; subscript
 * tests then see `A[i*n + j]` as `A[i][j]`. */
static int delinearize(walker *w, const kx_expr *e, kx_expr **P, kx_expr **Q, char **S)
{
    const ir_loop *ch[64];
    int nch = 0;
    for (int l = w->loop; l >= 0 && nch < 64; l = w->ir->loops[l].parent)
        if (w->ir->loops[l].iv)
            ch[nch++] = &w->ir->loops[l];
    char *size = NULL;
    for (int k = 0; k < nch && !size; k++) {
        kx_expr *c = kx_coeff(e, ch[k]->iv);
        int64_t v;
        char **names = NULL;
        int nn = c && !kx_is_const(c, &v) ? kx_symbols(c, &names) : 0;
        if (nn == 1) {
            kx_expr *sym = kx_sym(names[0]);
            if (sym && kx_equal(sym, c))
                size = strdup(names[0]);
            kx_free(sym);
        }
        kx_free_names(names, nn);
        kx_free(c);
    }
    if (!size)
        size = diagonal_size(e, ch, nch);
    if (!size || kx_degree(e, size) != 1 || kx_has_opaque(e))
        goto fail;
    kx_expr *p = kx_coeff(e, size), *ss = kx_sym(size);
    kx_expr *sp = p && ss ? kx_mul(ss, p) : NULL;
    kx_expr *q = sp ? kx_sub(e, sp) : NULL;
    kx_free(sp);
    kx_free(ss);
    int ok = p && q && !kx_mentions(p, size) && !kx_mentions(q, size);
    /* P and Q: constant coefficients on loop variables */
    for (int k = 0; k < nch && ok; k++) {
        kx_expr *cp = kx_coeff(p, ch[k]->iv), *cq = kx_coeff(q, ch[k]->iv);
        int64_t v;
        ok = cp && cq && kx_is_const(cp, &v) && kx_is_const(cq, &v)
             && kx_degree(p, ch[k]->iv) <= 1 && kx_degree(q, ch[k]->iv) <= 1;
        kx_free(cp);
        kx_free(cq);
    }
    /* 0 <= Q < size */
    const ir_loop *qv = NULL;
    for (int k = 0; k < nch && ok; k++)
        if (kx_mentions(q, ch[k]->iv)) {
            if (qv)
                ok = 0;
            qv = ch[k];
        }
    if (ok && qv) {
        kx_expr *one = kx_int(1), *sv = kx_sym(qv->iv);
        kx_expr *cq = kx_coeff(q, qv->iv), *t = kx_mul(cq, sv);
        kx_expr *c0 = kx_sub(q, t);
        int64_t a, lo, hi;
        ok = kx_is_const(cq, &a) && a == 1 && (qv->step == 1 || qv->step == -1) && qv->lower
             && qv->upper;
        if (ok) {
            /* iv runs over [min, max]: step 1 lower..upper-1, step -1 upper+1..lower */
            kx_expr *mn = qv->step == 1 ? kx_copy(qv->lower) : kx_add(qv->upper, one);
            kx_expr *mx = qv->step == 1 ? kx_sub(qv->upper, one) : kx_copy(qv->lower);
            kx_expr *l0 = kx_add(mn, c0), *h0 = kx_add(mx, c0), *szs = kx_sym(size);
            kx_expr *h1 = kx_sub(szs, h0);      /* size - (max + c) >= 1 */
            ok = ((kx_is_const(l0, &lo) && lo >= 0) || nonneg_in(l0, ch, nch, 0))
                 && kx_is_const(h1, &hi) && hi >= 1;
            kx_free(mn); kx_free(mx); kx_free(l0); kx_free(h0); kx_free(szs); kx_free(h1);
        }
        kx_free(one); kx_free(sv); kx_free(cq); kx_free(t); kx_free(c0);
    } else if (ok) {
        /* Q = 0 (`y[i*incy]`): 0 < size is not proved, and size 0 (a
         * BLAS increment of 0) puts every P on one element: keep the
         * symbolic coefficient, which the dependence test treats as
         * possibly 0 */
        ok = 0;
    }
    if (!ok) {
        kx_free(p);
        kx_free(q);
        goto fail;
    }
    *P = p;
    *Q = q;
    *S = size;
    return 1;
fail:
    free(size);
    return 0;
}

/* The flow of a read just recorded whose reference is also written at
 * record `wr` of kind `kind` (-1: read only): a read only goes where the
 * node goes (walker.flow); the read of a read-modify-write goes to its
 * own write through the operation its operator set (walker.rw), or
 * nowhere known (an address passed to a callee). */
static ir_flow read_flow(walker *w, int kind, int wr)
{
    ir_flow f = { 0 };
    if (wr < 0)
        return w->flow;
    if (w->rw_set) {
        f = w->rw;
        f.to_kind = kind;
        f.to = wr;
        w->rw_set = 0;
    }
    return f;
}

/* Add the read and/or write (mode) of scalar `name` to the statement,
 * with the read's flow. */
static void put_scalar(walker *w, const char *name, int mode, int line, int col)
{
    int rd = mode & MODE_READ ? ir_add_scalar(w->stmt, name, 0, line, col) : -1;
    int wr = mode & MODE_WRITE ? ir_add_scalar(w->stmt, name, 1, line, col) : -1;
    if ((mode & MODE_READ && rd < 0) || (mode & MODE_WRITE && wr < 0))
        w->oom = 1;
    if (rd >= 0)
        w->stmt->scalars[rd].flow = read_flow(w, IR_FLOW_SCALAR, wr);
}

/* Record one access (both passes of mode) of `name` with subscripts
 * idx[0..n-1] and extents ext[0..next-1] (both consumed) at cursor c. */
static void put_access(walker *w, CXCursor c, const char *name, int elem, int mode, int n,
                       kx_expr **idx, int next, kx_expr **ext)
{
    char *ivs[64];
    int nivs = wk_enclosing_ivs(w, ivs, 64);
    int line, col;
    wk_expansion(clang_getCursorLocation(c), NULL, &line, &col, NULL);
    kx_expr *two[2], *text[2];
    char *size = NULL;
    if (n == 1 && next == 0 && idx[0] && delinearize(w, idx[0], &two[0], &two[1], &size)) {
        kx_free(idx[0]);
        idx = two;
        n = 2;
        text[0] = NULL;
        text[1] = kx_sym(size);
        free(size);
        ext = text;
        next = 2;
    }
    int added[2] = { -1, -1 };     /* the read's and the write's records */
    for (int pass = 0; pass < 2; pass++) {
        int is_write = pass == 1;
        if (!(mode & (is_write ? MODE_WRITE : MODE_READ)))
            continue;
        kx_expr **ci = calloc((size_t)(n ? n : 1), sizeof *ci);
        kx_expr **ce = calloc(MAX_DIMS, sizeof *ce);
        if (!ci || !ce) {
            free(ci);
            free(ce);
            w->oom = 1;
            break;
        }
        for (int d = 0; d < n; d++)
            ci[d] = idx[d] ? kx_copy(idx[d]) : NULL;
        for (int d = 0; d < next; d++)
            ce[d] = ext[d] ? kx_copy(ext[d]) : NULL;
        int a = ir_add_access(w->stmt, name, elem < 0 ? 0 : elem, is_write, n, ci, next, ce,
                              line, col);
        if (a < 0) {
            w->oom = 1;         /* ci, ce freed by ir_add_access */
            break;
        }
        {
            ir_access *ac = &w->stmt->acc[a];
            for (int d = 0; d < n && ac->affine; d++)
                ac->affine = ac->index[d] && ir_is_affine_in(ac->index[d], ivs, nivs);
        }
        added[pass] = a;
    }
    if (added[0] >= 0)
        w->stmt->acc[added[0]].flow = read_flow(w, IR_FLOW_ACCESS, added[1]);
    for (int d = 0; d < n; d++)
        kx_free(idx[d]);
    for (int d = 0; d < next; d++)
        kx_free(ext[d]);
}

/* A store or load the walker cannot resolve: array "?" at an unknown
 * subscript, which parallel.c takes as possibly any array. */
static void unknown_access(walker *w, CXCursor c, int mode)
{
    kx_expr *idx[1] = { wk_unknown_expr(w, c) };
    put_access(w, c, "?", 0, mode, 1, idx, 0, NULL);
}

/* The access base[idx...] where base is a pointer expression (a variable,
 * a bound local, p + e, &X[e]); suffix names a struct member path. */
static void ptr_access(walker *w, CXCursor c, CXCursor ptr, const char *suffix, int mode,
                       int n, kx_expr **idx)
{
    binding b = { .inc_offset = -1 };
    int elem = (int)clang_Type_getSizeOf(clang_getCursorType(c));
    if (!wk_ptr_value(w, ptr, &b)) {
        wk_bind_clear(&b);
        for (int d = 0; d < n; d++)
            kx_free(idx[d]);
        unknown_access(w, c, mode);
        scan(w, ptr, MODE_READ, 1);
        return;
    }
    kx_expr **v = NULL, *ext[MAX_DIMS] = { 0 };
    int m = wk_bound_access(&b, n, idx, &v, ext);
    char name[512];
    snprintf(name, sizeof name, "%s%s", b.base, suffix);
    if (m > 0)
        put_access(w, c, name, elem, mode, m, v, b.next, ext);
    else
        w->oom = 1;
    free(v);
    wk_bind_clear(&b);
    scan(w, ptr, MODE_READ, 1);     /* loads inside p + e are reads */
}

/* An access with more than MAX_DIMS subscripts at c (chain: its subscript
 * expression): recorded as an access to an unknown array, which parallel.c
 * takes as possibly any array, with its subscripts scanned for reads and a
 * note on the TU that keelcc prints as a warning. */
static void too_many_subscripts(walker *w, CXCursor c, CXCursor chain, int mode)
{
    int line, col;
    wk_expansion(clang_getCursorLocation(c), NULL, &line, &col, NULL);
    char note[160];
    snprintf(note, sizeof note, "line %d: an access with more than %d subscripts is "
             "recorded as an access to an unknown array", line, MAX_DIMS);
    if (ir_add_note(w->ir, note) < 0)
        w->oom = 1;
    unknown_access(w, c, mode);
    chain = wk_peel(chain);
    while (clang_getCursorKind(chain) == CXCursor_ArraySubscriptExpr) {
        child_list l = wk_children(chain);
        if (l.n != 2)
            break;
        scan(w, l.c[1], MODE_READ, 1);
        chain = wk_peel(l.c[0]);
    }
}

/* The subscripts of the chain `cur` (of the access c): their count, the
 * base in *base, their cursors in index[] and expressions in idx[]; -1 for
 * more than MAX_DIMS (too_many_subscripts has recorded the access). */
static int subscripts(walker *w, CXCursor c, CXCursor cur, int mode, CXCursor *base,
                      CXCursor *index, kx_expr **idx)
{
    int n = wk_subscript_chain(cur, base, index);
    if (n < 0) {
        too_many_subscripts(w, c, cur, mode);
        return -1;
    }
    for (int d = 0; d < n; d++)
        idx[d] = wk_to_expr(w, index[d]);
    return n;
}

/* Subscripts are read; an access inside one (B in A[B[i]]) is a read too. */
static void scan_subscripts(walker *w, const CXCursor *index, int n)
{
    for (int d = 0; d < n; d++)
        scan(w, index[d], MODE_READ, 1);
}

static void add_access(walker *w, CXCursor c, int mode, const char *suffix)
{
    CXCursor base, index[MAX_DIMS];
    kx_expr *idx[MAX_DIMS] = { 0 }, *ext[MAX_DIMS] = { 0 };
    int n = subscripts(w, c, c, mode, &base, index, idx);
    if (n < 0)
        return;
    enum CXCursorKind bk = clang_getCursorKind(base);
    int deref_var = bk == CXCursor_UnaryOperator
                    && clang_getCursorUnaryOperatorKind(base) == CXUnaryOperator_Deref;
    if (n >= 1 && ((bk == CXCursor_DeclRefExpr && wk_ptr_binding(w, base))
                   || (bk != CXCursor_DeclRefExpr && bk != CXCursor_MemberRefExpr && !deref_var))) {
        /* through a bound local pointer, or a computed base (p + 1)[i] */
        ptr_access(w, c, base, suffix, mode, n, idx);
    } else {
        char *bn = wk_base_name_of(w, base);
        char name[512];
        snprintf(name, sizeof name, "%s%s", bn ? bn : "?", suffix);
        free(bn);
        int elem = (int)clang_Type_getSizeOf(clang_getCursorType(c));
        int next = wk_base_extents(base, ext, MAX_DIMS);
        int first = w->stmt ? w->stmt->nacc : 0;
        if (bk == CXCursor_DeclRefExpr)
            wk_note_symbol(w, wk_ref_decl(base));
        put_access(w, c, name, elem, mode, n, idx, next, ext);
        /* `s->out[i]` is named "out", `(*pp)[i]` "pp": not those variables */
        for (int k = first; bk != CXCursor_DeclRefExpr && w->stmt && k < w->stmt->nacc; k++)
            w->stmt->acc[k].base = IR_BASE_MEMBER;
        /* A computed base (p->data[i]) is read as well. */
        if (bk != CXCursor_DeclRefExpr)
            scan(w, base, MODE_READ, 1);
    }
    scan_subscripts(w, index, n);
}

static void add_scalar(walker *w, CXCursor c, int mode)
{
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (rk != CXCursor_VarDecl && rk != CXCursor_ParmDecl)
        return;
    CXType t = clang_getCanonicalType(clang_getCursorType(ref));
    if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray
        || t.kind == CXType_VariableArray)
        return;
    if (mode & MODE_WRITE)
        wk_bind_written(w, c);
    char *name = wk_cursor_spelling(c);
    if (!name)
        return;
    int line, col;
    wk_expansion(clang_getCursorLocation(c), NULL, &line, &col, NULL);
    put_scalar(w, name, mode, line, col);
    free(name);
}

/* *p is the access p[0] and *(p + e) is p[e]; c is the dereference and
 * ptr its (peeled) pointer operand. */
static void add_deref_access(walker *w, CXCursor c, CXCursor ptr, int mode)
{
    kx_expr *idx[1] = { kx_int(0) };
    ptr_access(w, c, ptr, "", mode, 1, idx);
}

/* A member access c (`p[i].x`, `q->v`, `s.sum`, nested) in mode. */
static void add_member(walker *w, CXCursor c, int mode, int in_subscript)
{
    char suffix[512] = "";
    CXCursor cur = wk_peel(c);
    int arrow = 0;
    while (clang_getCursorKind(cur) == CXCursor_MemberRefExpr && !arrow) {
        child_list l = wk_children(cur);
        if (l.n != 1) {
            if (mode & MODE_WRITE)
                unknown_access(w, c, mode);
            return;
        }
        char *f = wk_cursor_spelling(cur), t[512];
        CXCursor d = clang_getCursorReferenced(cur);
        /* members of a union overlap: name the union, not the member */
        int in_union = clang_getCursorKind(clang_getCursorSemanticParent(d)) == CXCursor_UnionDecl;
        snprintf(t, sizeof t, "%s%s%s", in_union ? "" : ".", in_union || !f ? "" : f, suffix);
        memcpy(suffix, t, sizeof suffix);
        free(f);
        CXCursor child = wk_peel(l.c[0]);
        arrow = clang_getCanonicalType(clang_getCursorType(child)).kind == CXType_Pointer;
        cur = child;
    }
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (arrow) {
        kx_expr *idx[1] = { kx_int(0) };
        ptr_access(w, c, cur, suffix, mode, 1, idx);
    } else if (k == CXCursor_ArraySubscriptExpr) {
        /* p[i].x: the accessed type is the member's */
        CXCursor base, index[MAX_DIMS];
        kx_expr *idx[MAX_DIMS] = { 0 }, *ext[MAX_DIMS] = { 0 };
        int n = subscripts(w, c, cur, mode, &base, index, idx);
        if (n < 0)
            return;
        if (clang_getCursorKind(base) == CXCursor_DeclRefExpr && !wk_ptr_binding(w, base)) {
            char *bn = wk_cursor_spelling(base), name[512];
            snprintf(name, sizeof name, "%s%s", bn ? bn : "", suffix);
            free(bn);
            int next = wk_base_extents(base, ext, MAX_DIMS);
            put_access(w, c, name, (int)clang_Type_getSizeOf(clang_getCursorType(c)), mode, n,
                       idx, next, ext);
        } else {
            ptr_access(w, c, base, suffix, mode, n, idx);
        }
        scan_subscripts(w, index, n);
    } else if (k == CXCursor_DeclRefExpr) {
        /* s.sum: the scalar "s.sum"; a write of it also writes s */
        char *bn = wk_cursor_spelling(cur), name[512];
        snprintf(name, sizeof name, "%s%s", bn ? bn : "", suffix);
        free(bn);
        if (mode & MODE_WRITE)
            wk_bind_written(w, cur);
        if (!in_subscript || (mode & MODE_WRITE)) {
            int line, col;
            wk_expansion(clang_getCursorLocation(c), NULL, &line, &col, NULL);
            put_scalar(w, name, (mode & MODE_WRITE) | (mode & MODE_READ || in_subscript ? MODE_READ : 0),
                       line, col);
        }
    } else {
        if (mode & MODE_WRITE)
            unknown_access(w, c, mode);
        scan(w, cur, MODE_READ, in_subscript);
    }
}

/* Count an arithmetic operation of kind op on a value of float type fl. */
static void count_op(ir_ops *o, enum CXBinaryOperatorKind op, int fl)
{
    int *f, *i;     /* op's float and integer counters */
    switch (op) {
    case CXBinaryOperator_Add:
    case CXBinaryOperator_Sub:
    case CXBinaryOperator_AddAssign:
    case CXBinaryOperator_SubAssign:
        f = &o->fadd, i = &o->iadd;
        break;
    case CXBinaryOperator_Mul:
    case CXBinaryOperator_MulAssign:
        f = &o->fmul, i = &o->imul;
        break;
    case CXBinaryOperator_Div:
    case CXBinaryOperator_DivAssign:
    case CXBinaryOperator_Rem:
    case CXBinaryOperator_RemAssign:
        f = &o->fdiv, i = &o->idiv;
        break;
    case CXBinaryOperator_LT:
    case CXBinaryOperator_GT:
    case CXBinaryOperator_LE:
    case CXBinaryOperator_GE:
    case CXBinaryOperator_EQ:
    case CXBinaryOperator_NE:
        f = i = &o->cmp;
        break;
    default:
        return;
    }
    ++*(fl ? f : i);
}

static int is_float_mul(CXCursor c)
{
    c = wk_peel(c);
    return clang_getCursorKind(c) == CXCursor_BinaryOperator
        && clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Mul && wk_is_float(c);
}

/* The KU_CHAIN_* operation binary or compound operator op puts on a
 * value's way (fl: of floating type), -1 for none (`&&`, `||`, `,`, `=`):
 * comparisons, shifts and bit operations are one integer ALU operation. */
static int chain_op(enum CXBinaryOperatorKind op, int fl)
{
    switch (op) {
    case CXBinaryOperator_Add:
    case CXBinaryOperator_Sub:
    case CXBinaryOperator_AddAssign:
    case CXBinaryOperator_SubAssign:
        return fl ? KU_CHAIN_FADD : KU_CHAIN_IADD;
    case CXBinaryOperator_Mul:
    case CXBinaryOperator_MulAssign:
        return fl ? KU_CHAIN_FMUL : KU_CHAIN_IMUL;
    case CXBinaryOperator_Div:
    case CXBinaryOperator_DivAssign:
        return fl ? KU_CHAIN_FDIV : KU_CHAIN_IDIV;
    case CXBinaryOperator_Rem:
    case CXBinaryOperator_RemAssign:
        return KU_CHAIN_IDIV;
    case CXBinaryOperator_LAnd:
    case CXBinaryOperator_LOr:
    case CXBinaryOperator_Comma:
    case CXBinaryOperator_Assign:
        return -1;
    default:
        return KU_CHAIN_IADD;
    }
}

/* The kind of floating type of c's value (CXType_Float, _Double...), or
 * 0 for any other type. */
static int float_kind(CXCursor c)
{
    return wk_is_float(c) ? (int)clang_getCanonicalType(clang_getCursorType(c)).kind : 0;
}

/* Does the value of c change between an integer and a floating type, or
 * between two floating types, in the implicit or explicit conversions
 * (and parentheses) around it (an instruction with a latency of its own,
 * unlike an integer widening)? */
static int converts(CXCursor c)
{
    int fk = float_kind(c);
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(c);
        if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr && k != CXCursor_CStyleCastExpr)
            return 0;
        child_list l = wk_children(c);
        if (l.n == 0 || (k == CXCursor_UnexposedExpr && l.n != 1))
            return 0;
        c = l.c[l.n - 1];
        if (float_kind(c) != fk)
            return 1;
    }
}

/* Is f's way one this walk follows (a value that reaches a write)? */
static int flowing(const ir_flow *f)
{
    return f->to_kind != IR_FLOW_NONE;
}

/* Scan an expression for accesses, scalars, ops and calls.  mode says how
 * the value of c itself is used (read, written, both); in_subscript turns
 * off op and scalar counting (address arithmetic). */
static void scan_node(walker *w, CXCursor c, int mode, int in_subscript);

/* Expressions nested deeper than this (not chains, which scan_node walks
 * in a loop) are not scanned further; the statement records why, as the
 * pseudo-call below, which also keeps analyses from trusting it. */
#define MAX_SCAN_DEPTH 256
#define TOO_DEEP_CALL "keel:expression-nested-too-deep"

static void scan(walker *w, CXCursor c, int mode, int in_subscript)
{
    if (w->scan_depth >= MAX_SCAN_DEPTH) {
        int seen = 0;
        for (int i = 0; i < w->stmt->ncalls && !seen; i++)
            seen = strcmp(w->stmt->calls[i], TOO_DEEP_CALL) == 0;
        if (!seen)
            ir_add_call(w->stmt, TOO_DEEP_CALL);
        return;
    }
    w->scan_depth++;
    ir_flow outer = w->flow;
    if (in_subscript)
        w->flow.to_kind = IR_FLOW_NONE;     /* an address, not the value stored */
    else if (flowing(&w->flow) && converts(c))
        w->flow.opaque = 1;
    scan_node(w, c, mode, in_subscript);
    w->flow = outer;
    w->scan_depth--;
}

/* The flow to the first write recorded from access record na and scalar
 * record ns on (the left operand's, which scanning it added before any
 * write inside its subscripts), with no operation yet; none if there is
 * no such write. */
static ir_flow flow_to_write(const walker *w, int na, int ns)
{
    ir_flow f = { 0 };
    for (int k = na; k < w->stmt->nacc; k++)
        if (w->stmt->acc[k].is_write) {
            f.to_kind = IR_FLOW_ACCESS, f.to = k;
            return f;
        }
    for (int k = ns; k < w->stmt->nscalars; k++)
        if (w->stmt->scalars[k].is_write) {
            f.to_kind = IR_FLOW_SCALAR, f.to = k;
            return f;
        }
    return f;
}

/* scan_node's phases, one per kind of node. */

/* `x = e`: x is written, e read; unconditionally in a loop, an integer or
 * pointer local x holds e from here on (a binding). */
static void scan_assign(walker *w, const child_list *lp, int in_subscript)
{
    const child_list *l = lp;
    CXCursor d = wk_ref_decl(l->c[0]);
    binding b = { .decl = d, .loop = w->loop, .inc_offset = -1 };
    int bound = 0;
    if (!clang_Cursor_isNull(d) && w->loop >= 0 && w->conditional == 0) {
        CXType t = clang_getCanonicalType(clang_getCursorType(d));
        if (wk_is_integer_type(t))
            bound = (b.value = wk_to_expr(w, l->c[1])) != NULL;
        else if (t.kind == CXType_Pointer)
            bound = b.is_ptr = wk_ptr_value(w, l->c[1], &b);
    }
    int na = w->stmt->nacc, ns = w->stmt->nscalars;
    scan(w, l->c[0], MODE_WRITE, in_subscript);
    if (!in_subscript)
        w->flow = flow_to_write(w, na, ns);
    scan(w, l->c[1], MODE_READ, in_subscript);
    if (bound)
        wk_bind_put(w, &b);
    else
        wk_bind_clear(&b);
}

/* A binary operator other than `=`: its operations counted, its operands
 * read, a left-deep chain walked in a loop. */
static void scan_chain(walker *w, CXCursor c, const child_list *lp, int in_subscript)
{
    ir_ops *o = &w->stmt->ops;
    enum CXBinaryOperatorKind op;
    /* `a + b + c + ...` is a left-deep chain, one node per term
     * (thousands in generated code): walk its left spine in a loop,
     * keeping the right operands in order, instead of recursing. */
    CXCursor stack_right[32], *right = stack_right;
    /* the flow of each right operand: the operators above it and its own */
    ir_flow stack_flows[32], *flows = stack_flows;
    ir_flow f = w->flow;
    int nr = 0, cap = 32;
    CXCursor cur = c;
    child_list cl = *lp;
    for (;;) {
        op = clang_getCursorBinaryOperatorKind(cur);
        if (!in_subscript) {
            int fl = wk_is_float(cur) || (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE
                                       && (wk_is_float(cl.c[0]) || wk_is_float(cl.c[1])));
            count_op(o, op, fl);
            if (fl && (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub)
                && (is_float_mul(cl.c[0]) || is_float_mul(cl.c[1])))
                o->ffma++;
            int k = chain_op(op, wk_is_float(cur));
            if (flowing(&f) && k >= 0 && !clang_equalCursors(cur, w->flow_free))
                f.ops[k]++;
        }
        if (nr == cap) {
            CXCursor *nrp = malloc(sizeof *nrp * (size_t)cap * 2);
            ir_flow *nfp = malloc(sizeof *nfp * (size_t)cap * 2);
            if (!nrp || !nfp) {
                free(nrp);
                free(nfp);
                w->oom = 1;
                break;
            }
            memcpy(nrp, right, sizeof *nrp * (size_t)nr);
            memcpy(nfp, flows, sizeof *nfp * (size_t)nr);
            if (right != stack_right)
                free(right), free(flows);
            right = nrp;
            flows = nfp;
            cap *= 2;
        }
        flows[nr] = f;
        right[nr++] = cl.c[1];
        if (flowing(&f) && converts(cl.c[0]))
            f.opaque = 1;
        cur = wk_peel(cl.c[0]);
        if (clang_getCursorKind(cur) != CXCursor_BinaryOperator
            || clang_getCursorBinaryOperatorKind(cur) == CXBinaryOperator_Assign)
            break;
        cl = wk_children(cur);
        if (cl.n != 2)
            break;
    }
    w->flow = f;
    scan(w, cur, MODE_READ, in_subscript);
    while (nr > 0) {
        nr--;
        w->flow = flows[nr];
        scan(w, right[nr], MODE_READ, in_subscript);
    }
    if (right != stack_right)
        free(right), free(flows);
}

/* ++/--, a dereference, an address, a sign or a negation. */
static void scan_unary(walker *w, CXCursor c, const child_list *lp, int mode, int in_subscript)
{
    child_list l = *lp;
    ir_ops *o = &w->stmt->ops;
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    if (l.n != 1)
        return;
    if (op >= CXUnaryOperator_PostInc && op <= CXUnaryOperator_PreDec) {
        if (!in_subscript) {
            if (wk_is_float(c))
                o->fadd++;
            else
                o->iadd++;
            /* the read goes to the write through one addition */
            memset(&w->rw, 0, sizeof w->rw);
            w->rw.ops[wk_is_float(c) ? KU_CHAIN_FADD : KU_CHAIN_IADD] = 1;
            w->rw_set = 1;
        }
        scan(w, l.c[0], MODE_RW, in_subscript);
        w->rw_set = 0;
        return;
    }
    if (op == CXUnaryOperator_Deref
        && clang_getCanonicalType(clang_getCursorType(wk_peel(l.c[0]))).kind == CXType_Pointer) {
        add_deref_access(w, c, wk_peel(l.c[0]), mode);
        return;
    }
    if (op == CXUnaryOperator_AddrOf && address_only(w, l.c[0]))
        return;
    scan(w, l.c[0], MODE_READ, in_subscript);
}

/* Is name fmax/fmin or its float or long double form? */
static int is_select_call(const char *name)
{
    return name && (!strncmp(name, "fmax", 4) || !strncmp(name, "fmin", 4))
           && (!name[4] || ((name[4] == 'f' || name[4] == 'l') && !name[5]));
}

/* The operations on the way from parameter p to the value of expression
 * e (a function's return expression) into *f: for each reference of p,
 * the operations above it, the larger count of each kind over all
 * references kept (a max's operand is named in its comparison and in its
 * arm); opaque for a call or conversion on a way.  Returns 0 when e holds
 * a node this does not follow (then nothing is known of the function). */
static int param_way(CXCursor e, CXCursor p, ir_flow way, CXCursor no_cmp, ir_flow *f,
                     int depth)
{
    if (depth > 64)
        return 0;
    if (converts(e))
        way.opaque = 1;
    e = wk_peel(e);
    child_list l = wk_children(e);
    switch (clang_getCursorKind(e)) {
    case CXCursor_DeclRefExpr:
        if (clang_equalCursors(clang_getCursorReferenced(e), p)) {
            f->to_kind = IR_FLOW_ACCESS;          /* found (the caller sets the target) */
            f->opaque |= way.opaque;
            for (int k = 0; k < KU_CHAIN_NOPS; k++)
                if (way.ops[k] > f->ops[k])
                    f->ops[k] = way.ops[k];
        }
        return 1;
    case CXCursor_IntegerLiteral:
    case CXCursor_FloatingLiteral:
    case CXCursor_CharacterLiteral:
        return 1;
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(e);
        int k = chain_op(op, wk_is_float(e));
        if (l.n != 2 || op == CXBinaryOperator_Assign || op == CXBinaryOperator_Comma)
            return 0;
        if (k >= 0 && !clang_equalCursors(e, no_cmp))
            way.ops[k]++;
        return param_way(l.c[0], p, way, no_cmp, f, depth + 1)
               && param_way(l.c[1], p, way, no_cmp, f, depth + 1);
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(e);
        if (l.n != 1 || (op != CXUnaryOperator_Minus && op != CXUnaryOperator_Plus
                         && op != CXUnaryOperator_LNot && op != CXUnaryOperator_Not))
            return 0;
        return param_way(l.c[0], p, way, no_cmp, f, depth + 1);
    }
    case CXCursor_ConditionalOperator: {
        if (l.n != 3)
            return 0;
        way.ops[wk_is_float(e) ? KU_CHAIN_FSEL : KU_CHAIN_ISEL]++;
        CXCursor cond = wk_peel(l.c[0]);
        return param_way(l.c[0], p, way, cond, f, depth + 1)
               && param_way(l.c[1], p, way, no_cmp, f, depth + 1)
               && param_way(l.c[2], p, way, no_cmp, f, depth + 1);
    }
    default:
        return 0;       /* a call, a load, an assignment...: not a plain expression */
    }
}

/* Flows of the arguments of call c (args[k]: the (k+1)-th child's) when
 * its callee is defined in this file as `{ return e; }`, e an expression
 * of its parameters, literals and operators (nussinov's inline
 * max_score): each the current flow plus the operations from its
 * parameter to e's value, none for a parameter e does not use.  1 when
 * so, 0 otherwise. */
static int call_flows(walker *w, CXCursor c, ir_flow *args)
{
    CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(c));
    if (clang_getCursorKind(def) != CXCursor_FunctionDecl)
        return 0;
    child_list d = wk_children(def);
    if (d.total > d.n || d.n < 1 || clang_getCursorKind(d.c[d.n - 1]) != CXCursor_CompoundStmt)
        return 0;
    child_list body = wk_children(d.c[d.n - 1]);
    if (body.n != 1 || clang_getCursorKind(body.c[0]) != CXCursor_ReturnStmt)
        return 0;
    child_list ret = wk_children(body.c[0]);
    child_list call = wk_children(c);
    int np = 0;
    if (ret.n != 1 || call.total > call.n)
        return 0;
    for (int k = 0; k < d.n; k++) {
        if (clang_getCursorKind(d.c[k]) != CXCursor_ParmDecl)
            continue;
        if (np + 1 >= call.n)
            return 0;
        ir_flow f = { 0 }, way = { 0 };
        if (!param_way(ret.c[0], d.c[k], way, clang_getNullCursor(), &f, 0))
            return 0;
        if (f.to_kind == IR_FLOW_NONE) {
            args[np++] = f;                     /* not used: goes nowhere */
            continue;
        }
        ir_flow a = w->flow;
        a.opaque |= f.opaque;
        for (int o = 0; o < KU_CHAIN_NOPS; o++)
            a.ops[o] += f.ops[o];
        args[np++] = a;
    }
    return np + 1 == call.n;
}

/* A call: a math function counted, any other listed; its arguments read.
 * A call inside a subscript (`h[next(&seed) % m]++`) is listed too: it may
 * write what its arguments point at, so the dependence test must see it
 * (only its operations are not counted there, as address arithmetic). */
static void scan_call(walker *w, CXCursor c, int in_subscript)
{
    ir_ops *o = &w->stmt->ops;
    char *name = wk_cursor_spelling(c);
    if (name) {
        /* OpenMP's thread queries read the team, write nothing: no
         * call the dependence test must stop at */
        if (sync_math_function(name)) {
            if (!in_subscript)
                o->fmath++;
        } else if (strcmp(name, "omp_get_thread_num") != 0
                   && strcmp(name, "omp_get_num_threads") != 0)
            ir_add_call(w->stmt, name);
    }
    /* fmax/fmin (and their float and long double forms) select one of
     * their arguments; a function of this file that returns an expression
     * of its parameters passes each argument through that expression's
     * operations; any other call's latency is not known here */
    ir_flow args[MAX_CHILDREN - 1];
    int summed = 0;
    if (is_select_call(name))
        w->flow.ops[KU_CHAIN_FSEL]++;
    else if (flowing(&w->flow) && !in_subscript)
        summed = call_flows(w, c, args);
    if (!summed && !is_select_call(name))
        w->flow.opaque = 1;
    free(name);
    /* The first child is the callee; arguments are read, and an
     * object whose address is passed (`&x`, `&a[i]`) may be written. */
    scan_operands(w, c, 0, in_subscript, summed ? args : NULL);
}

/* `T x = e;`: x written (and bound to e when it can be), e read. */
static void scan_var_decl(walker *w, CXCursor c, const child_list *lp, int in_subscript)
{
    child_list l = *lp;
    wk_bind_drop(w, c);
    if (l.n >= 1) {
        CXCursor init = l.c[l.n - 1];
        enum CXCursorKind ik = clang_getCursorKind(init);
        if (ik != CXCursor_TypeRef && !clang_isDeclaration(ik)) {
            binding b = { .decl = c, .loop = w->loop, .inc_offset = -1 };
            CXType t = clang_getCanonicalType(clang_getCursorType(c));
            int bound = 0;
            if (wk_is_integer_type(t))
                bound = (b.value = wk_to_expr(w, init)) != NULL;
            else if (t.kind == CXType_Pointer)
                bound = b.is_ptr = wk_ptr_value(w, init, &b);
            if (bound)
                wk_bind_put(w, &b);
            else
                wk_bind_clear(&b);
            char *name = wk_cursor_spelling(c);
            int line, col;
            wk_expansion(clang_getCursorLocation(c), NULL, &line, &col, NULL);
            int v = name ? ir_add_scalar(w->stmt, name, 1, line, col) : -1;
            free(name);
            /* the initialiser's value goes to the local */
            memset(&w->flow, 0, sizeof w->flow);
            if (v >= 0 && !in_subscript)
                w->flow.to_kind = IR_FLOW_SCALAR, w->flow.to = v;
            scan(w, init, MODE_READ, in_subscript);
        }
    }
}

/* Any other node: a store the walker cannot resolve, a builtin that may
 * write what its address operand names, or operands visited in order. */
static void scan_other(walker *w, CXCursor c, const child_list *lp, int mode, int in_subscript)
{
    child_list l = *lp;
    w->flow.opaque = 1;     /* a node whose operation is not counted */
    /* A store the walker cannot resolve makes the loop untestable. */
    if (mode & MODE_WRITE)
        unknown_access(w, c, mode);
    /* An expression clang does not expose with several operands is a
     * builtin such as a C11 atomic (`atomic_fetch_add_explicit(&h[k],
     * 1, ...)`, `__atomic_add_fetch(p, 1, ...)`): it may write the
     * object whose address it is given. */
    if (clang_getCursorKind(c) == CXCursor_UnexposedExpr && l.total > 1) {
        /* atomic_load and __atomic_load_n read their object only */
        char *text = wk_extent_text(w, c);
        const char *ld = text ? strstr(text, "load") : NULL;
        int load = ld && ld < text + strcspn(text, "(");
        free(text);
        scan_operands(w, c, load ? -1 : 1, in_subscript, NULL);
        return;
    }
    /* Any other node (initialiser lists, casts, ...) may have any number
     * of operands: visit them all, not just the first MAX_CHILDREN. */
    scan_ctx ctx = { w, in_subscript };
    clang_visitChildren(c, scan_child, &ctx);
}

static void scan_node(walker *w, CXCursor c, int mode, int in_subscript)
{
    c = wk_peel(c);
    child_list l = wk_children(c);
    ir_ops *o = &w->stmt->ops;
    switch (clang_getCursorKind(c)) {
    case CXCursor_ArraySubscriptExpr:
        add_access(w, c, mode, "");
        return;
    case CXCursor_MemberRefExpr:
        add_member(w, c, mode, in_subscript);
        return;
    case CXCursor_DeclRefExpr:
        /* a write inside a subscript (a[k++]) is a read and a write of k */
        if (!in_subscript)
            add_scalar(w, c, mode);
        else if (mode & MODE_WRITE)
            add_scalar(w, c, MODE_RW);
        return;
    case CXCursor_BinaryOperator:
        if (l.n != 2)
            return;
        if (clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign)
            scan_assign(w, &l, in_subscript);
        else
            scan_chain(w, c, &l, in_subscript);
        return;
    case CXCursor_CompoundAssignOperator: {
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
        if (l.n != 2)
            return;
        int k = -1, na = w->stmt->nacc, ns = w->stmt->nscalars;
        if (!in_subscript) {
            int fl = wk_is_float(l.c[0]);
            count_op(o, op, fl);
            if (fl && (op == CXBinaryOperator_AddAssign || op == CXBinaryOperator_SubAssign)
                && is_float_mul(l.c[1]))
                o->ffma++;
            /* x op= e: x's read and e's value go to x's write through op */
            memset(&w->rw, 0, sizeof w->rw);
            if ((k = chain_op(op, fl)) >= 0)
                w->rw.ops[k] = 1;
            w->rw_set = 1;
        }
        scan(w, l.c[0], MODE_RW, in_subscript);
        w->rw_set = 0;
        if (!in_subscript) {
            w->flow = flow_to_write(w, na, ns);
            if (flowing(&w->flow) && k >= 0)
                w->flow.ops[k] = 1;
        }
        scan(w, l.c[1], MODE_READ, in_subscript);
        return;
    }
    case CXCursor_UnaryOperator:
        scan_unary(w, c, &l, mode, in_subscript);
        return;
    case CXCursor_CallExpr:
        scan_call(w, c, in_subscript);
        return;
    case CXCursor_ConditionalOperator:
        if (l.n == 3) {
            /* every value on the way, the condition's included, goes
             * through one select (with its comparison) */
            if (flowing(&w->flow) && !in_subscript)
                w->flow.ops[wk_is_float(c) ? KU_CHAIN_FSEL : KU_CHAIN_ISEL]++;
            CXCursor cond = wk_peel(l.c[0]), outer_free = w->flow_free;
            if (clang_getCursorKind(cond) == CXCursor_BinaryOperator) {
                enum CXBinaryOperatorKind ck = clang_getCursorBinaryOperatorKind(cond);
                if (ck >= CXBinaryOperator_LT && ck <= CXBinaryOperator_NE)
                    w->flow_free = cond;
            }
            scan(w, l.c[0], MODE_READ, in_subscript);
            w->flow_free = outer_free;
            w->conditional++;
            scan(w, l.c[1], mode, in_subscript);
            scan(w, l.c[2], mode, in_subscript);
            w->conditional--;
        }
        return;
    case CXCursor_VarDecl:
        scan_var_decl(w, c, &l, in_subscript);
        return;
    default:
        scan_other(w, c, &l, mode, in_subscript);
        return;
    }
}

/* `&X[e]...` with X a variable: an address, computed, not loaded; only
 * the subscripts are read (`&pool[i + 1]` reads no element of pool).
 * Returns 1 when it scanned x so, 0 to scan it as a read. */
static int address_only(walker *w, CXCursor x)
{
    x = wk_peel(x);
    if (clang_getCursorKind(x) != CXCursor_ArraySubscriptExpr)
        return 0;
    CXCursor base, index[MAX_DIMS];
    int n = wk_subscript_chain(x, &base, index);
    if (n < 1 || clang_getCursorKind(wk_peel(base)) != CXCursor_DeclRefExpr)
        return 0;
    for (int d = 0; d < n; d++)
        scan(w, index[d], MODE_READ, 1);
    return 1;
}

static enum CXChildVisitResult scan_child(CXCursor c, CXCursor parent, void *data)
{
    (void)parent;
    scan_ctx *ctx = data;
    scan(ctx->w, c, MODE_READ, ctx->in_subscript);
    return CXChildVisit_Continue;
}

/* The operands of a call or builtin c: each is read, and so is the object
 * of an address operand (`&x`, `&a[i]`), which with writes >= 0 may also
 * be written, since the callee gets its address; with writes > 0 so is
 * the element the first operand points at when it is a pointer (`p`,
 * `a + i`: a builtin's target); writes < 0: a load, nothing written. */
static void scan_operands(walker *w, CXCursor c, int writes, int in_subscript,
                          const ir_flow *argflow)
{
    child_list l = wk_children(c);
    if (l.total > l.n) {
        /* more operands than the list holds: read them all */
        scan_ctx ctx = { w, in_subscript };
        clang_visitChildren(c, scan_child, &ctx);
        return;
    }
    ir_flow outer = w->flow;
    for (int k = 0; k < l.n; k++) {
        if (argflow && k > 0 && k <= MAX_CHILDREN - 1)
            w->flow = argflow[k - 1];
        CXCursor a = wk_peel(l.c[k]);
        child_list m = wk_children(a);
        if (clang_getCursorKind(a) == CXCursor_UnaryOperator
            && clang_getCursorUnaryOperatorKind(a) == CXUnaryOperator_AddrOf && m.n == 1) {
            CXCursor x = wk_peel(m.c[0]);
            enum CXCursorKind xk = clang_getCursorKind(x);
            if (xk == CXCursor_ArraySubscriptExpr || xk == CXCursor_MemberRefExpr
                || xk == CXCursor_DeclRefExpr
                || (xk == CXCursor_UnaryOperator
                    && clang_getCursorUnaryOperatorKind(x) == CXUnaryOperator_Deref)) {
                scan(w, x, writes >= 0 ? MODE_RW : MODE_READ, in_subscript);
                continue;
            }
        }
        CXType t = clang_getCanonicalType(clang_getCursorType(a));
        if (writes > 0 && k == 0 && t.kind == CXType_Pointer
            && !clang_isConstQualifiedType(clang_getPointeeType(t))
            && clang_getCanonicalType(clang_getPointeeType(t)).kind != CXType_Void) {
            add_deref_access(w, a, a, MODE_RW);
            continue;
        }
        scan(w, l.c[k], MODE_READ, in_subscript);
    }
    w->flow = outer;
}

/* Record statement (or condition) c as a statement of the current loop. */
void wk_record_stmt(walker *w, CXCursor c)
{
    if (w->loop < 0)
        return;
    ir_loop *l = &w->ir->loops[w->loop];
    int line, col;
    wk_expansion(clang_getCursorLocation(c), NULL, &line, &col, NULL);
    char *text = wk_extent_text(w, c);
    int s = ir_add_stmt(l, line, col, text, w->conditional > 0);
    free(text);
    if (s < 0) {
        w->oom = 1;
        return;
    }
    w->stmt = &l->stmts[s];
    w->stmt_offset = wk_start_offset(c);
    memset(&w->flow, 0, sizeof w->flow);   /* a statement's own value goes nowhere */
    w->rw_set = 0;
    w->flow_free = clang_getNullCursor();
    scan(w, c, MODE_READ, 0);
    w->stmt = NULL;
    /* past the step of a derived induction variable: its later value */
    for (int i = 0; i < w->nbind; i++)
        if (w->bind[i].inc_offset >= 0 && w->bind[i].inc_offset == w->stmt_offset) {
            kx_expr **slot = w->bind[i].is_ptr ? &w->bind[i].off : &w->bind[i].value;
            kx_free(*slot);
            *slot = w->bind[i].after;
            w->bind[i].after = NULL;
            w->bind[i].inc_offset = -1;
        }
    w->stmt_offset = -1;
}
