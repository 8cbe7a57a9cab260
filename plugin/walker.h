/*
 * walker.h -- parse a C file with libclang and build its loop IR.
 *
 * The walker (walker.c and the walk_*.c files, listed in walk_int.h) is
 * the only code in keel that sees a CXCursor (testsuite/arch/clang_home.sh
 * keeps it so).  It parses the file with the compile's own preprocessor and
 * language flags, visits every function definition outside system headers,
 * and records every loop (for, while, do) with its header, the pragmas that
 * annotate it (read from the source text, since OpenMP directives parsed by
 * libclang hide their loops), and every statement of its body with array
 * accesses, scalar references, operation counts and calls.  Preprocessed
 * input is recorded at the locations its line markers name.
 */
#ifndef KEEL_PLUGIN_WALKER_H
#define KEEL_PLUGIN_WALKER_H

#include <stddef.h>

#include "ir.h"

/* Parse `path` with the clang arguments args[0..nargs-1] (only -I/-D/-U/
 * -std and similar; no inputs, no -o) and build its IR into *out (owned by
 * the caller, free with ir_tu_free).  Returns 0, or -1 with a one-line
 * message in err, e.g. "x.c:3:9: error: expected ';' after expression". */
int walk_file(const char *path, int nargs, const char *const *args, ir_tu **out,
              char *err, size_t errlen);

/* When set, walk_file calls it with the name of every file its successful
 * parse read (the main file and each header, as clang names them): keelcc's
 * direct mode hashes them (plugin/cache.h). */
extern void (*walk_file_read)(void *ctx, const char *name);
extern void *walk_file_read_ctx;

#endif
