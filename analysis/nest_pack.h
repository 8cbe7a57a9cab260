/*
 * nest_pack.h -- one launch nest's model (nest.h) as bytes: what keelcc
 * stores in the database per launch site (table nest_packs) and links
 * into a program, and what the runtime decodes straight back into a
 * nest_model.  db/ stores and links the bytes without reading them.
 *
 * Besides the model the bytes carry the launch's head (nest_head): the
 * launch loop's database id, file, function, build hash, line, the union
 * of the nest's idioms and the launch loop's per-loop facts by name.
 *
 * The form: "KEELNEST", u32 version (NEST_PACK_VERSION), u32 length of
 * the whole, u64 FNV-1a of the bytes from offset 24 on, u64 the launch
 * loop's id (the one field db/ reads; keel merge, which moves ids,
 * writes the model again for them), then the rest of the head and the model, every
 * member of nest.h's types in declaration order, derived ones included
 * (no declared member is left out: a new member joins the writer and the
 * reader, and the version goes up): integers as LEB128 (signed ones
 * zigzag-mapped), doubles as their 8 bytes little-endian, strings as
 * length + 1 (0: NULL) and their bytes, expressions as a flag byte (0: NULL) and ipda's binary form
 * (expr_pack.h: kx_encode).  No expression is kept as text.  Every index
 * is checked on decoding (a parent before its child, a statement's loop,
 * an access's statement, counts against the bytes left): bytes that are
 * truncated, corrupt, or of another version are refused whole with one
 * message ("packed facts: format version 2, this runtime reads 3"), and
 * nothing of them is used.
 *
 * Ownership: nest_encode appends to the caller's buffer; nest_decode fills
 * the caller's nest_model and nest_head, both in one block of memory
 * that nest_free releases (nest_head_free then only empties the head; a
 * failed decode leaves both empty).  The head's strings live as long as
 * the model.
 */
#ifndef KEEL_NEST_PACK_H
#define KEEL_NEST_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "nest.h"
#include "util.h"

#define NEST_PACK_MAGIC "KEELNEST"
#define NEST_PACK_VERSION 3       /* 1 and 2: rows packed by db/, no longer read */
#define NEST_PACK_HEADER 32

typedef struct {
    int64_t root;             /* loops.id of the launch loop */
    char *file, *function;    /* the launch loop's, as stored */
    char *hash;               /* its build's hash, NULL none */
    char *label;              /* the nest's idioms, comma-separated, each once; NULL none */
    int line;
    int nfacts;               /* the launch loop's known per-loop facts */
    char **fact_name, **fact; /* by name (db/loop_facts.h's columns) */
    int in_model;             /* 1: its strings and arrays lie in the decoded model's
                               * block (nest.h), freed with it */
} nest_head;

void nest_head_free(nest_head *h);     /* frees members, leaves it empty; NULL fine */

/* Append the packed form of (h, n) to b (b->oom after an allocation
 * failure). */
void nest_encode(const nest_head *h, const nest_model *n, ku_buf *b);

/* Decode bytes[0..len): 0 with *h and *n filled, or -1 with one message
 * (both left empty). */
int nest_decode(const void *bytes, size_t len, nest_head *h, nest_model *n, char *err,
                size_t errlen);

/* The version of a packed form's header (0: not one at all): to tell an
 * older form from a damaged one. */
unsigned nest_pack_version(const void *bytes, size_t len);

#endif
