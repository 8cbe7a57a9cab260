/*
 * ccargs.h -- what keelcc knows of the compiler's command line, and the
 * small file helpers its stages share.
 *
 * keelcc and its llvm-mca stage both walk the compile's arguments and must
 * agree on which options consume the next argument as their value (so that
 * the value is never taken for an input file): one list, here.  Both also
 * read and write whole temporary files (instrumented copies, assembly,
 * compiler messages): one pair of functions, here.
 */
#ifndef KEEL_PLUGIN_CCARGS_H
#define KEEL_PLUGIN_CCARGS_H

#include <stddef.h>

/* Options whose value is the next argument when not joined (-o x, -I dir,
 * -MF file, -Xlinker opt, ...); NULL-terminated. */
extern const char *const cc_value_options[];

/* Is s one of the strings of the NULL-terminated list? */
int cc_in_list(const char *const *list, const char *s);

/* The whole file, malloc'd and NUL-terminated (the caller frees it); its
 * length in *len when len is not NULL.  NULL when it cannot be read. */
char *cc_read_file(const char *path, size_t *len);

/* Write len bytes to path (created or truncated).  0, or -1 on failure. */
int cc_write_file(const char *path, const char *text, size_t len);

/* execvp, with a compiler given as several words ("ccache clang-19",
 * KEEL_CC) split at blanks first.  Returns only on failure. */
int cc_execvp(char *const *argv);

#endif
