/*
 * ir.c -- construction, queries and the text dump of the loop IR (ir.h).
 *
 * Records live in growable arrays (doubling capacity).  Appending may move
 * an array, which is why records refer to each other by index.
 */
#include "ir.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Grow *arr (elements of `size` bytes, count *n) by one zeroed element and
 * return it (util.h's ku_push: every IR array is grown by it alone). */
static void *grow(void *arr_p, int *n, size_t size)
{
    return ku_push(arr_p, n, size);
}

static char *dup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

ir_tu *ir_tu_new(const char *path)
{
    ir_tu *tu = calloc(1, sizeof *tu);
    if (tu && path && !(tu->path = dup(path))) {
        free(tu);
        return NULL;
    }
    return tu;
}

static void free_stmt(ir_stmt *s)
{
    free(s->text);
    for (int i = 0; i < s->ncalls; i++)
        free(s->calls[i]);
    free(s->calls);
    for (int i = 0; i < s->nacc; i++) {
        ir_access *a = &s->acc[i];
        free(a->array);
        for (int d = 0; d < a->ndims; d++)
            kx_free(a->index[d]);
        free(a->index);
        for (int d = 0; d < a->nextents; d++)
            kx_free(a->extent[d]);
        free(a->extent);
    }
    free(s->acc);
    for (int i = 0; i < s->nscalars; i++)
        free(s->scalars[i].name);
    free(s->scalars);
}

unsigned long long ir_headers_hash_add(unsigned long long h, const char *contents, size_t len)
{
    if (contents)
        h = ku_fnv1a64_update(h, contents, len);
    return ku_fnv1a64_update(h, "\xff", 1);       /* a file boundary */
}

void ir_tu_free(ir_tu *tu)
{
    if (!tu)
        return;
    for (int i = 0; i < tu->nfuncs; i++) {
        free(tu->funcs[i].name);
        free(tu->funcs[i].file);
    }
    free(tu->funcs);
    for (int i = 0; i < tu->nnotes; i++)
        free(tu->notes[i]);
    free(tu->notes);
    for (int i = 0; i < tu->nloops; i++) {
        ir_loop *l = &tu->loops[i];
        free(l->file);
        free(l->iv);
        kx_free(l->lower);
        kx_free(l->upper);
        kx_free(l->trip);
        for (int p = 0; p < l->npragmas; p++)
            free(l->pragmas[p]);
        free(l->pragmas);
        for (int s = 0; s < l->nstmts; s++)
            free_stmt(&l->stmts[s]);
        free(l->stmts);
        for (int k = 0; k < l->nsyms; k++)
            free(l->syms[k]);
        free(l->syms);
        free(l->gpu_teams);
        free(l->gpu_threads);
        free(l->control_write);
        free(l->sync);
        for (int k = 0; k < l->nstepped; k++)
            free(l->stepped[k]);
        free(l->stepped);
    }
    free(tu->loops);
    free(tu->path);
    free(tu);
}

int ir_add_function(ir_tu *tu, const char *name, const char *file, int line, int col)
{
    ir_function *f = grow(&tu->funcs, &tu->nfuncs, sizeof *f);
    if (!f)
        return -1;
    f->name = dup(name);
    f->file = dup(file);
    if ((name && !f->name) || (file && !f->file)) {
        free(f->name);
        free(f->file);
        tu->nfuncs--;
        return -1;
    }
    f->line = line;
    f->col = col;
    f->inline_def = 0;
    return tu->nfuncs - 1;
}

int ir_add_loop(ir_tu *tu, int function, int parent, ir_loop_kind kind,
                const char *file, int line, int col)
{
    ir_loop *l = grow(&tu->loops, &tu->nloops, sizeof *l);
    if (!l)
        return -1;
    /* a loop's parent is added before it: nest_end and depth rely on it */
    assert(parent >= -1 && parent < tu->nloops - 1);
    l->function = function;
    l->parent = parent;
    l->depth = parent < 0 ? 0 : tu->loops[parent].depth + 1;
    l->kind = kind;
    if (file && !(l->file = dup(file))) {
        tu->nloops--;
        return -1;
    }
    l->line = l->end_line = line;
    l->col = col;
    l->offset = l->end_offset = -1;
    l->region_offset = l->region_end_offset = -1;
    l->gpu_fastest = -1;
    /* keep the nests' index ranges: the new loop ends every nest around it,
     * which holds only if the previous loop was inside its parent */
    int n = tu->nloops - 1;
    l->nest_end = n + 1;
    if (parent >= 0 && tu->loops[parent].nest_end != n)
        tu->unordered = 1;
    for (int a = parent; a >= 0; a = tu->loops[a].parent)
        tu->loops[a].nest_end = n + 1;
    return n;
}

int ir_add_pragma(ir_loop *l, const char *text)
{
    char **p = grow(&l->pragmas, &l->npragmas, sizeof *p);
    if (!p)
        return -1;
    if (text && !(*p = dup(text))) {
        l->npragmas--;
        return -1;
    }
    return l->npragmas - 1;
}

int ir_add_stmt(ir_loop *l, int line, int col, const char *text, int conditional)
{
    ir_stmt *s = grow(&l->stmts, &l->nstmts, sizeof *s);
    if (!s)
        return -1;
    s->line = line;
    s->col = col;
    if (text && !(s->text = dup(text))) {
        l->nstmts--;
        return -1;
    }
    s->conditional = conditional;
    return l->nstmts - 1;
}

/* The loop variables a subscript may be affine in are known to the caller
 * (the walker passes them through ir_is_affine_in); here an access is
 * affine when none of its subscripts has an opaque atom.  The walker
 * refines the flag with the nest's loop variables. */
int ir_add_access(ir_stmt *s, const char *array, int elem_size, int is_write,
                  int ndims, kx_expr **index, int nextents, kx_expr **extent,
                  int line, int col)
{
    ir_access *a = grow(&s->acc, &s->nacc, sizeof *a);
    if (a && array && !(a->array = dup(array))) {
        s->nacc--;
        a = NULL;
    }
    if (!a) {
        for (int d = 0; d < ndims; d++)
            kx_free(index[d]);
        for (int d = 0; d < nextents; d++)
            kx_free(extent[d]);
        free(index);
        free(extent);
        return -1;
    }
    a->elem_size = elem_size;
    a->is_write = is_write;
    a->ndims = ndims;
    a->index = index;
    a->nextents = nextents;
    a->extent = extent;
    a->affine = 1;
    for (int d = 0; d < ndims; d++)
        if (!index[d] || kx_has_opaque(index[d]))
            a->affine = 0;
    a->line = line;
    a->col = col;
    return s->nacc - 1;
}

int ir_add_scalar(ir_stmt *s, const char *name, int is_write, int line, int col)
{
    ir_scalar *v = grow(&s->scalars, &s->nscalars, sizeof *v);
    if (!v)
        return -1;
    if (name && !(v->name = dup(name))) {
        s->nscalars--;
        return -1;
    }
    v->is_write = is_write;
    v->line = line;
    v->col = col;
    return s->nscalars - 1;
}

int ir_nest_end(const ir_tu *tu, int l)
{
    return tu->unordered || l < 0 || l >= tu->nloops ? tu->nloops : tu->loops[l].nest_end;
}

int ir_loop_within(const ir_tu *tu, int l, int anc)
{
    if (!tu->unordered)
        return anc >= 0 && anc <= l && l < tu->nloops && l < tu->loops[anc].nest_end;
    for (; l >= 0; l = tu->loops[l].parent)
        if (l == anc)
            return 1;
    return 0;
}

char *ir_access_str(const ir_access *a)
{
    ku_buf b = {0};
    ku_buf_put(&b, a->array);
    for (int k = 0; k < a->ndims; k++) {
        char *s = kx_print(a->index[k]);
        ku_buf_printf(&b, "[%s]", s ? s : "?");
        free(s);
    }
    return ku_buf_take(&b);
}

void ir_access_text(const ir_access *a, char *buf, size_t cap)
{
    char *s = ir_access_str(a);
    snprintf(buf, cap, "%s", s ? s : a->array);
    free(s);
}

int ir_add_note(ir_tu *tu, const char *text)
{
    char **p = grow(&tu->notes, &tu->nnotes, sizeof *p);
    if (!p)
        return -1;
    *p = dup(text);
    if (!*p) {
        tu->nnotes--;
        return -1;
    }
    return tu->nnotes - 1;
}

int ir_add_sym(ir_loop *l, const char *name)
{
    char **p = grow(&l->syms, &l->nsyms, sizeof *p);
    if (!p)
        return -1;
    if (name && !(*p = dup(name))) {
        l->nsyms--;
        return -1;
    }
    return l->nsyms - 1;
}

int ir_add_stepped(ir_loop *l, const char *name)
{
    for (int k = 0; k < l->nstepped; k++)
        if (strcmp(l->stepped[k], name) == 0)
            return 0;
    char **p = grow(&l->stepped, &l->nstepped, sizeof *p);
    if (!p)
        return -1;
    if (!(*p = dup(name))) {
        l->nstepped--;
        return -1;
    }
    return 0;
}

int ir_set_control_write(ir_loop *l, const char *name, int maybe)
{
    if (l->control_write && !l->control_maybe)
        return 0;          /* a certain write is already known */
    char *n = dup(name);
    if (!n)
        return -1;
    free(l->control_write);
    l->control_write = n;
    l->control_maybe = maybe;
    l->canonical = 0;
    kx_free(l->trip);
    l->trip = NULL;
    return 0;
}

int ir_add_call(ir_stmt *s, const char *name)
{
    char **p = grow(&s->calls, &s->ncalls, sizeof *p);
    if (!p)
        return -1;
    if (name && !(*p = dup(name))) {
        s->ncalls--;
        return -1;
    }
    return s->ncalls - 1;
}

/* span + k - 1 divided by k, or span itself when k is 1. */
static kx_expr *ceil_div(kx_expr *span, int64_t k)
{
    if (k == 1)
        return span;
    kx_expr *km1 = kx_int(k - 1), *kk = kx_int(k);
    kx_expr *num = kx_add(span, km1);
    kx_expr *args[2] = { num, kk };
    kx_expr *q = kx_op(KX_DIV, NULL, 2, args);
    kx_free(span);
    kx_free(km1);
    kx_free(kk);
    kx_free(num);
    return q;
}

void ir_set_bounds(ir_loop *l, const char *iv, kx_expr *lower, kx_expr *upper,
                   int64_t step)
{
    free(l->iv);
    kx_free(l->lower);
    kx_free(l->upper);
    kx_free(l->trip);
    l->iv = dup(iv);
    l->lower = lower;
    l->upper = upper;
    l->step = step;
    l->trip = NULL;
    l->canonical = iv && lower && upper && step != 0;
    if (!l->canonical)
        return;
    if (step > 0)
        l->trip = ceil_div(kx_sub(upper, lower), step);
    else
        l->trip = ceil_div(kx_sub(lower, upper), -step);
}

int ir_is_affine_in(const kx_expr *e, char *const *ivs, int n)
{
    if (!e || kx_has_opaque(e))
        return 0;
    for (int a = 0; a < n; a++) {
        if (kx_degree(e, ivs[a]) > 1)
            return 0;
        kx_expr *c = kx_coeff(e, ivs[a]);
        int mixed = 0;
        for (int b = 0; b < n && c; b++)
            if (b != a && kx_mentions(c, ivs[b]))
                mixed = 1;
        kx_free(c);
        if (mixed)
            return 0;
    }
    return 1;
}

int ir_children(const ir_tu *tu, int parent, int **out)
{
    int n = 0;
    *out = malloc(sizeof(int) * (size_t)(tu->nloops ? tu->nloops : 1));
    if (!*out)
        return 0;
    if (parent >= 0 && !tu->unordered) {
        /* in pre-order the children are the nests that tile the parent's */
        for (int i = parent + 1; i < tu->loops[parent].nest_end; i = tu->loops[i].nest_end)
            (*out)[n++] = i;
        return n;
    }
    for (int i = 0; i < tu->nloops; i++)
        if (tu->loops[i].parent == parent)
            (*out)[n++] = i;
    return n;
}

/* ---- dump ---------------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path ? path : "?";
}

static void put_expr(FILE *out, const kx_expr *e)
{
    char *s = e ? kx_print(e) : NULL;
    fputs(s ? s : "?", out);
    free(s);
}

/* Strings are written in double quotes with \" \\ \n escaped. */
static void put_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if (*s == '\n') {
            fputs("\\n", out);
            continue;
        }
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Names of omp_map_role values (analysis/omp_pragmas.h; kept here so that the IR
 * dump needs no more than ir.c). */
static const char *ir_gpu_map_name(int r)
{
    static const char *const n[] = { "", "grid", "teams", "threads", "collapsed", "seq" };
    return r >= 0 && r < 6 ? n[r] : "?";
}

static const char *kind_name(ir_loop_kind k)
{
    return k == IR_FOR ? "for" : k == IR_WHILE ? "while" : "do";
}

/* " to=a3 fadd=1 opaque": where a read's value goes (access 3, or s1:
 * scalar 1) and through what; nothing for a read that goes nowhere. */
static void put_flow(FILE *out, const ir_flow *f)
{
    if (f->to_kind == IR_FLOW_NONE)
        return;
    fprintf(out, " to=%c%d", f->to_kind == IR_FLOW_ACCESS ? 'a' : 's', f->to);
    for (int k = 0; k < KU_CHAIN_NOPS; k++)
        if (f->ops[k])
            fprintf(out, " %s=%d", ku_chain_op_name(k), f->ops[k]);
    if (f->opaque)
        fputs(" opaque", out);
}

void ir_dump(const ir_tu *tu, FILE *out)
{
    fprintf(out, "tu %s\n", base_name(tu->path));
    for (int f = 0; f < tu->nfuncs; f++)
        fprintf(out, "function %s %s:%d\n", tu->funcs[f].name,
                base_name(tu->funcs[f].file), tu->funcs[f].line);
    for (int i = 0; i < tu->nloops; i++) {
        const ir_loop *l = &tu->loops[i];
        fprintf(out, "loop %d %s %s:%d:%d fn=%s depth=%d parent=%d", i, kind_name(l->kind),
                base_name(l->file), l->line, l->col, tu->funcs[l->function].name,
                l->depth, l->parent);
        if (l->iv)
            fprintf(out, " iv=%s", l->iv);
        if (l->lower) {
            fputs(" lower=", out);
            put_expr(out, l->lower);
        }
        if (l->upper) {
            fputs(" upper=", out);
            put_expr(out, l->upper);
        }
        if (l->step)
            fprintf(out, " step=%lld", (long long)l->step);
        if (l->trip) {
            fputs(" trip=", out);
            put_expr(out, l->trip);
        }
        if (!l->canonical)
            fputs(" noncanonical", out);
        if (l->control_write)
            fprintf(out, " control=%s%s", l->control_write, l->control_maybe ? "?" : "");
        for (int k = 0; k < l->nstepped; k++)
            fprintf(out, "%s%s", k ? "," : " stepped=", l->stepped[k]);
        for (int p = 0; p < l->npragmas; p++) {
            fputs(" pragma=", out);
            put_quoted(out, l->pragmas[p]);
        }
        if (l->n_if || l->n_break || l->n_continue || l->n_goto || l->n_return)
            fprintf(out, " if=%d break=%d continue=%d goto=%d return=%d", l->n_if,
                    l->n_break, l->n_continue, l->n_goto, l->n_return);
        for (int k = 0; k < l->nsyms; k++)
            fprintf(out, "%s%s", k ? "," : " syms=", l->syms[k]);
        if (l->gpu_map)
            fprintf(out, " gpu=%s", ir_gpu_map_name(l->gpu_map));
        if (l->gpu_collapse > 1)
            fprintf(out, " collapse=%d", l->gpu_collapse);
        if (l->gpu_fastest >= 0)
            fprintf(out, " fastest=%d", l->gpu_fastest);
        if (l->gpu_teams)
            fprintf(out, " teams=%s", l->gpu_teams);
        if (l->gpu_threads)
            fprintf(out, " threads=%s", l->gpu_threads);
        if (l->region_line)
            fprintf(out, " region=%d", l->region_line);
        fputc('\n', out);
        for (int s = 0; s < l->nstmts; s++) {
            const ir_stmt *st = &l->stmts[s];
            const ir_ops *o = &st->ops;
            fprintf(out, "  stmt %d:%d%s ", st->line, st->col, st->conditional ? " cond" : "");
            put_quoted(out, st->text);
            fprintf(out, " fadd=%d fmul=%d fdiv=%d ffma=%d fmath=%d iadd=%d imul=%d idiv=%d cmp=%d\n",
                    o->fadd, o->fmul, o->fdiv, o->ffma, o->fmath, o->iadd, o->imul,
                    o->idiv, o->cmp);
            for (int a = 0; a < st->nacc; a++) {
                const ir_access *ac = &st->acc[a];
                fprintf(out, "    %c %s", ac->is_write ? 'W' : 'R', ac->array);
                for (int d = 0; d < ac->ndims; d++) {
                    fputc('[', out);
                    put_expr(out, ac->index[d]);
                    fputc(']', out);
                }
                fputs(" extents=", out);
                if (ac->nextents == 0)
                    fputs("ptr", out);
                for (int d = 0; d < ac->nextents; d++) {
                    fputc('[', out);
                    if (ac->extent[d])
                        put_expr(out, ac->extent[d]);
                    fputc(']', out);
                }
                fprintf(out, " elem=%d%s", ac->elem_size, ac->affine ? "" : " nonaffine");
                put_flow(out, &ac->flow);
                fputc('\n', out);
            }
            for (int v = 0; v < st->nscalars; v++) {
                fprintf(out, "    %s %s", st->scalars[v].is_write ? "SW" : "SR",
                        st->scalars[v].name);
                put_flow(out, &st->scalars[v].flow);
                fputc('\n', out);
            }
            for (int c = 0; c < st->ncalls; c++)
                fprintf(out, "    call %s\n", st->calls[c]);
        }
    }
}
