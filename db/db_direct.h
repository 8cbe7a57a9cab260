/*
 * db_direct.h -- keelcc's direct-mode entries (table direct_cache,
 * db/SCHEMA.md "Direct mode"): one per stored build, saying which command
 * produced the build's rows (its key), under which header search lists
 * the build is known to read the same files, which files its parse read
 * (with their hashes), the instrumented text that command compiled and
 * the warnings keel printed.  A later keelcc run of a command with the
 * same key over unchanged files finds the entry and skips the parse, the
 * analyses and llvm-mca (plugin/keelcc.c).  Errors as in db.h.
 */
#ifndef KEEL_DB_DIRECT_H
#define KEEL_DB_DIRECT_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"

typedef struct {
    char *inputs;       /* "HASH SIZE PATH\n" per file (plugin/keelcc.c) */
    char *text;         /* instrumented text, NULL: compiled as it is */
    size_t text_len;
    char *warnings;     /* one warning per line, "" for none */
    char *search;       /* search-list hashes, one per line ("" for none) */
    /* read only (db_direct_each): the build's translation_units row and
     * its variant (NULL when it has none) */
    int64_t tu_id;
    const char *variant;
} db_direct_entry;

/* Call fn(ctx, entry) for every entry stored under `key` (most recent
 * first) until it returns nonzero; the entry's strings are valid during
 * the call.  Returns that value, 0 when none did (or the table is missing:
 * an older database), -1 with a message. */
typedef int (*db_direct_fn)(void *ctx, const db_direct_entry *e);
int db_direct_each(db *d, const char *key, db_direct_fn fn, void *ctx, char *err,
                   size_t errlen);

/* Store the entry of the translation unit being written (inside its
 * transaction, db_begin_tu .. db_commit_tu). */
int db_direct_put(db *d, int64_t tu_id, const char *key, const db_direct_entry *e, char *err,
                  size_t errlen);

/* After a hit by another command than the one that recorded build tu_id,
 * in one write transaction: the row names this command's object and
 * arguments (and the time), the other builds of its path that this
 * command's compile replaces go (no variant, or compiled into the same
 * object: as db_begin_tu), and search (one hash and its newline, or NULL)
 * is added to the entry's search lists.  Nothing happens when the build
 * is gone. */
int db_direct_refresh(db *d, int64_t tu_id, const char *object, const char *args,
                      const char *search, char *err, size_t errlen);

#endif
