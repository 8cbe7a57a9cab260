/*
 * store.h -- loop IR -> attribute database rows.
 */
#ifndef KEEL_PLUGIN_STORE_H
#define KEEL_PLUGIN_STORE_H

#include <stddef.h>

#include "db.h"
#include "ir.h"

/* Replace the rows of the translation unit described by `row` with the IR
 * `tu` (NULL: only the translation-unit row, e.g. status "error"), in one
 * transaction.  Returns 0, or -1 with a message (nothing changed). */
int store_tu(db *d, const ir_tu *tu, const db_tu_row *row, char *err, size_t errlen);

/* A JSON array of strings; malloc'd, the caller frees it. */
char *store_json_array(int n, char *const *items);

#endif
