/*
 * linkobj.h -- the link step's small objects without a compiler run.
 *
 * keelcc's link object holds a few weak hidden byte arrays (the database's
 * name, the packed facts, the packed calibration).  Compiling its C text
 * costs a compiler start-up (about 25 ms of CPU with clang-19, more than a
 * warm rebuild's whole overhead otherwise), so keelcc writes the ELF
 * relocatable object itself where it knows the format: 64-bit
 * little-endian ELF for x86-64 and AArch64, the machines a native
 * clang-19 targets by default there.  Each array is what the C
 * initialiser `const unsigned char NAME[] = "..."` gives: the bytes and a
 * terminating NUL, in .rodata, 16-byte aligned, a weak hidden object
 * symbol of that size; the object also has an empty .note.GNU-stack, so
 * that the stack stays non-executable.  Elsewhere lobj_write says it
 * cannot, and the caller compiles the C text as before.
 *
 * The real linker's name (`CC -print-prog-name=ld`, another compiler
 * start-up per link) is kept per compiler, as llvm-mca's version is
 * (mcarun.c): lobj_linker.
 */
#ifndef KEEL_PLUGIN_LINKOBJ_H
#define KEEL_PLUGIN_LINKOBJ_H

#include <stddef.h>

typedef struct {
    const char *name;               /* the symbol */
    const unsigned char *bytes;     /* its bytes, a NUL added after them */
    size_t len;
} lobj_sym;

/* Write the object with syms[0..n-1] to path (created or truncated, mode
 * 0600 when created).  0; 1 when this machine's object format is not one
 * it writes (nothing written); -1 with a message when writing failed. */
int lobj_write(const char *path, const lobj_sym *syms, int n, char *err, size_t errlen);

/* The object file's bytes for syms, as lobj_write writes them (malloc'd,
 * *len set); NULL when out of memory or the format is not known here
 * (*unsupported then 1). */
unsigned char *lobj_image(const lobj_sym *syms, int n, size_t *len, int *unsupported);

/* The linker `compiler -print-prog-name=ld` names (an absolute path to an
 * executable), into ld[n]: from the kept answer when the compiler, the
 * search variables (PATH, COMPILER_PATH) and the machine are those it was
 * asked under, else by running the compiler (and keeping its answer in
 * ku_tmpdir()/keel-ld-UID-HASH).  0, or -1 when there is none. */
int lobj_linker(const char *compiler, char *ld, size_t n);

#endif
