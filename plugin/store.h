/*
 * store.h -- loop IR -> attribute database rows.
 */
#ifndef KEEL_PLUGIN_STORE_H
#define KEEL_PLUGIN_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "ir.h"

/* Replace the rows of the translation unit described by `row` with the IR
 * `tu` (NULL: only the translation-unit row, e.g. status "error"), in one
 * transaction.  Returns 0, or -1 with a message (nothing changed). */
int store_tu(db *d, const ir_tu *tu, const db_tu_row *row, char *err, size_t errlen);

/* The same, and before the commit call hook(ctx, d, tu_id, loop_ids) with
 * the new ids of tu's loops (same indices), e.g. to add rows of later
 * analyses in the same transaction.  A hook failure rolls everything back. */
typedef int (*store_hook)(void *ctx, db *d, int64_t tu_id, const int64_t *loop_ids,
                          char *err, size_t errlen);
int store_tu_with(db *d, const ir_tu *tu, const db_tu_row *row, store_hook hook, void *ctx,
                  char *err, size_t errlen);

/* A JSON array of strings; malloc'd, the caller frees it. */
char *store_json_array(int n, char *const *items);

#endif
