/*
 * cache.h -- keelcc's direct mode, the hashing half (the other half, the
 * rows, is db/db_direct.h; the rules are in plugin/keelcc.c).
 *
 * As ccache's direct mode does, a build is known again without parsing it:
 * by a key over everything that goes into it except the headers (keel's
 * and the compiler's identity, the arguments, the source's bytes, the
 * database, the modes), plus a list of every file the parse read with a
 * hash of its contents, checked file by file.  The hashes are 128-bit
 * FNV-1a style (two 64-bit lanes), as the llvm-mca cache's keys
 * (plugin/mcarun.c): a cache key, not a security measure.
 */
#ifndef KEEL_PLUGIN_CACHE_H
#define KEEL_PLUGIN_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "util.h"

typedef struct {
    uint64_t a, b;
} dc_hash;

void dc_init(dc_hash *h);
void dc_bytes(dc_hash *h, const void *p, size_t n);
/* s with its terminating NUL (NULL hashes as a lone 0xff byte). */
void dc_str(dc_hash *h, const char *s);
/* The contents of path; -1 when it cannot be read (h then unchanged). */
int dc_file(dc_hash *h, const char *path);
/* The identity of a program (searched in $PATH when it has no slash):
 * resolved path, size and modification time, as ccache's default
 * compiler check; "missing" when it cannot be found. */
void dc_program(dc_hash *h, const char *prog);
/* 32 hex digits. */
void dc_hex(const dc_hash *h, char out[33]);

/* The file list of a build: "HASH SIZE PATH\n" per file, HASH the 16 hex
 * digits of the contents' 64-bit FNV-1a.  dc_inputs_add fails (-1, the
 * list then unusable) for a file that cannot be read, whose name has a
 * newline, or that was modified at or after `since` less one second (it
 * may have changed while the parse read it: ccache's "too new" rule). */
int dc_inputs_add(ku_buf *list, const char *path, const struct timespec *since);
/* The next line of a list at *p (then moved past it): its hash, size and
 * path (into path[pathlen]).  1, 0 at the end, -1 for a malformed line. */
int dc_inputs_next(const char **p, unsigned long long *hash, size_t *size, char *path,
                   size_t pathlen);
/* 1 when every file of the list still has its hash, else 0. */
int dc_inputs_same(const char *list);

#endif
