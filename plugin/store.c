/*
 * store.c -- write a translation unit's loop IR into the attribute database.
 *
 * The only place that knows both the IR (analysis/) and the database rows
 * (db/): it prints every expression in ipda's text form and hands plain
 * rows to the writer, all in one transaction per translation unit.
 */
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* JSON string literal of s appended to buf (of size cap, used *len). */
static void json_string(char *buf, size_t cap, size_t *len, const char *s)
{
    if (*len + 1 < cap)
        buf[(*len)++] = '"';
    for (; *s && *len + 8 < cap; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            buf[(*len)++] = '\\';
            buf[(*len)++] = (char)ch;
        } else if (ch < 0x20) {
            *len += (size_t)snprintf(buf + *len, cap - *len, "\\u%04x", ch);
        } else {
            buf[(*len)++] = (char)ch;
        }
    }
    if (*len + 1 < cap)
        buf[(*len)++] = '"';
    buf[*len] = '\0';
}

char *store_json_array(int n, char *const *items)
{
    size_t cap = 2 + 1;
    for (int i = 0; i < n; i++)
        cap += strlen(items[i]) * 6 + 3 + 8;
    char *buf = malloc(cap);
    if (!buf)
        return NULL;
    size_t len = 0;
    buf[len++] = '[';
    for (int i = 0; i < n; i++) {
        if (i)
            buf[len++] = ',';
        json_string(buf, cap, &len, items[i]);
    }
    buf[len++] = ']';
    buf[len] = '\0';
    return buf;
}

static char *print_or_null(const kx_expr *e)
{
    return e ? kx_print(e) : NULL;
}

static int store_stmt(db *d, int64_t loop_id, const ir_stmt *s, char *err, size_t errlen)
{
    char *calls = s->ncalls ? store_json_array(s->ncalls, s->calls) : NULL;
    db_stmt_row row = {
        .line = s->line, .col = s->col, .text = s->text ? s->text : "",
        .conditional = s->conditional,
        .fadd = s->ops.fadd, .fmul = s->ops.fmul, .fdiv = s->ops.fdiv,
        .ffma = s->ops.ffma, .fmath = s->ops.fmath,
        .iadd = s->ops.iadd, .imul = s->ops.imul, .idiv = s->ops.idiv, .cmp = s->ops.cmp,
        .calls = calls,
    };
    int64_t stmt_id;
    int rc = db_add_stmt(d, loop_id, &row, &stmt_id, err, errlen);
    free(calls);
    for (int a = 0; a < s->nacc && rc == 0; a++) {
        const ir_access *ac = &s->acc[a];
        char **idx = calloc((size_t)ac->ndims + 1, sizeof *idx);
        char **ext = calloc((size_t)ac->nextents + 1, sizeof *ext);
        if (!idx || !ext) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
        } else {
            for (int k = 0; k < ac->ndims; k++)
                idx[k] = print_or_null(ac->index[k]);
            for (int k = 0; k < ac->nextents; k++)
                ext[k] = print_or_null(ac->extent[k]);
            db_access_row ar = {
                .array = ac->array, .elem_size = ac->elem_size, .is_write = ac->is_write,
                .ndims = ac->ndims, .index = (const char *const *)idx,
                .nextents = ac->nextents, .extent = (const char *const *)ext,
                .affine = ac->affine, .line = ac->line, .col = ac->col,
            };
            int64_t id;
            rc = db_add_access(d, stmt_id, &ar, &id, err, errlen);
            for (int k = 0; k < ac->ndims; k++)
                free(idx[k]);
            for (int k = 0; k < ac->nextents; k++)
                free(ext[k]);
        }
        free(idx);
        free(ext);
    }
    for (int v = 0; v < s->nscalars && rc == 0; v++) {
        db_scalar_row sr = { .name = s->scalars[v].name, .is_write = s->scalars[v].is_write,
                             .line = s->scalars[v].line, .col = s->scalars[v].col };
        rc = db_add_scalar(d, stmt_id, &sr, err, errlen);
    }
    return rc;
}

static const char *kind_name(ir_loop_kind k)
{
    return k == IR_FOR ? "for" : k == IR_WHILE ? "while" : "do";
}

int store_tu(db *d, const ir_tu *tu, const db_tu_row *row, char *err, size_t errlen)
{
    return store_tu_with(d, tu, row, NULL, NULL, err, errlen);
}

int store_tu_with(db *d, const ir_tu *tu, const db_tu_row *row, store_hook hook, void *ctx,
                  char *err, size_t errlen)
{
    int64_t tu_id;
    if (db_begin_tu(d, row, &tu_id, err, errlen) != 0)
        return -1;
    int rc = 0;
    int64_t *func_ids = calloc((size_t)(tu ? tu->nfuncs : 0) + 1, sizeof *func_ids);
    int64_t *loop_ids = calloc((size_t)(tu ? tu->nloops : 0) + 1, sizeof *loop_ids);
    if (!func_ids || !loop_ids) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    for (int f = 0; tu && rc == 0 && f < tu->nfuncs; f++) {
        db_function_row fr = { .name = tu->funcs[f].name, .file = tu->funcs[f].file,
                               .line = tu->funcs[f].line, .col = tu->funcs[f].col };
        rc = db_add_function(d, tu_id, &fr, &func_ids[f], err, errlen);
    }
    for (int i = 0; tu && rc == 0 && i < tu->nloops; i++) {
        const ir_loop *l = &tu->loops[i];
        char *lower = print_or_null(l->lower), *upper = print_or_null(l->upper);
        char *trip = print_or_null(l->trip);
        char *pragmas = store_json_array(l->npragmas, l->pragmas);
        db_loop_row lr = {
            .parent_id = l->parent >= 0 ? loop_ids[l->parent] : 0,
            .file = l->file, .line = l->line, .col = l->col, .end_line = l->end_line,
            .depth = l->depth, .kind = kind_name(l->kind), .canonical = l->canonical,
            .iv = l->iv, .lower = lower, .upper = upper, .step = l->step, .trip = trip,
            .pragmas = pragmas,
            .n_if = l->n_if, .n_break = l->n_break, .n_continue = l->n_continue,
            .n_goto = l->n_goto, .n_return = l->n_return,
        };
        rc = db_add_loop(d, func_ids[l->function], &lr, &loop_ids[i], err, errlen);
        free(lower);
        free(upper);
        free(trip);
        free(pragmas);
        for (int s = 0; rc == 0 && s < l->nstmts; s++)
            rc = store_stmt(d, loop_ids[i], &l->stmts[s], err, errlen);
    }
    if (rc == 0 && hook)
        rc = hook(ctx, d, tu_id, loop_ids, err, errlen);
    free(func_ids);
    free(loop_ids);
    if (rc == 0)
        return db_commit_tu(d, err, errlen);
    db_rollback_tu(d);
    return -1;
}
