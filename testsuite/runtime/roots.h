/*
 * roots.h -- the outermost loops of a database, for the runtime's test
 * programs that walk every nest (agree.c, fastpath.c, bindgold.c):
 *
 *     roots v = { 0 };
 *     db_each_loop(d, NULL, roots_add, &v, err, sizeof err);
 *     ... v.file[r], v.line[r], v.col[r] for r < v.n ...
 *     roots_free(&v);
 *
 * in db_each_loop's order.  The roots own their file names.
 */
#ifndef KEEL_TEST_ROOTS_H
#define KEEL_TEST_ROOTS_H

#include <stdlib.h>
#include <string.h>

#include "db.h"

typedef struct {
    int n, cap;
    char **file;
    int *line, *col;
} roots;

/* db_each_loop's callback: a loop of depth 0 appended; 1 (stop) when
 * memory runs out. */
static int roots_add(void *ctx, const db_loop_summary *r)
{
    roots *v = ctx;
    if (r->depth != 0)
        return 0;
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 64;
        v->file = realloc(v->file, sizeof *v->file * (size_t)v->cap);
        v->line = realloc(v->line, sizeof *v->line * (size_t)v->cap);
        v->col = realloc(v->col, sizeof *v->col * (size_t)v->cap);
        if (!v->file || !v->line || !v->col)
            return 1;
    }
    v->file[v->n] = strdup(r->file);
    v->line[v->n] = r->line;
    v->col[v->n++] = r->col;
    return 0;
}

static void roots_free(roots *v)
{
    for (int r = 0; r < v->n; r++)
        free(v->file[r]);
    free(v->file), free(v->line), free(v->col);
    memset(v, 0, sizeof *v);
}

#endif
