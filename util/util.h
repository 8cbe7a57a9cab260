/*
 * util.h -- keel's small utility layer (libc and POSIX only).
 *
 * One of each thing every part of keel needs, so that no module carries its
 * own copy:
 *
 *   ku_buf      a growing NUL-terminated string buffer; an allocation
 *               failure is sticky (b->oom) and every later append is a
 *               no-op, so a caller checks once at the end;
 *   ku_push     append one zeroed element to a growable array known only by
 *               its pointer and int count (capacity doubles at powers of
 *               two, so no capacity field is needed);
 *   ku_spawn    start a program with posix_spawnp, its stdin/stdout/stderr
 *               redirected to files or a descriptor; ku_wait: the exit
 *               status, 128 + N for a child killed by signal N (the shell's
 *               convention), -1 when it cannot be waited for (spawn.c, the
 *               library keel_spawn: libkeelrt never starts a process);
 *   ku_tmpdir   $TMPDIR when set to an absolute folder, else /tmp;
 *               ku_mkstemp / ku_mkdtemp create files and folders there;
 *   ku_read_file / ku_write_file   whole files;
 *   ku_fnv1a64  the one hash: FNV-1a, 64 bits;
 *   ku_msg      the one warning/error printer ("prog: warning: ...");
 *               ku_fail: format a message into a caller's buffer, return -1
 *               (errors are values).  Both are format-checked.
 *
 * Nothing here exits; every failure is a return value.  assert() states
 * the callers' side of each contract (no NULL where a pointer is needed,
 * a buffer that owns its text); it is live only in the checked libraries
 * the unit tests link, never in what keel ships (CMakeLists.txt).
 */
#ifndef KEEL_UTIL_H
#define KEEL_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define KU_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* ---- string buffer ---- */
typedef struct {
    char *s;          /* NUL-terminated text, NULL while empty */
    size_t len, cap;
    int oom;          /* an append failed; s is freed and NULL */
} ku_buf;

void ku_buf_putn(ku_buf *b, const char *s, size_t n);
void ku_buf_put(ku_buf *b, const char *s);
void ku_buf_putc(ku_buf *b, char c);
/* v as unsigned LEB128 (7 bits a byte, low first, high bit: more); the
 * signed form zigzag-maps v first (0, -1, 1, -2 ... as 0, 1, 2, 3 ...):
 * the integers of keel's packed forms (ipda/expr_pack.h, analysis/nest_pack.h). */
void ku_buf_put_uleb(ku_buf *b, uint64_t v);
void ku_buf_put_sleb(ku_buf *b, int64_t v);
void ku_buf_printf(ku_buf *b, const char *fmt, ...) KU_PRINTF(2, 3);
void ku_buf_vprintf(ku_buf *b, const char *fmt, va_list ap) KU_PRINTF(2, 0);
/* The text (the caller frees it; "" when nothing was appended), or NULL
 * after an allocation failure; the buffer is reset either way. */
char *ku_buf_take(ku_buf *b);
void ku_buf_free(ku_buf *b);

/* ---- growable arrays ----
 * *arr (a pointer to T*) holds *n elements of `size` bytes, allocated by
 * ku_push only (or NULL).  Appends one zeroed element, returns it, ++*n;
 * NULL on allocation failure (the array is unchanged). */
void *ku_push(void *arr, int *n, size_t size);
/* The same for a NULL-terminated pointer list (argv style): appends s. */
int ku_push_ptr(void *arr, int *n, const void *s);

/* ---- processes ---- */
typedef struct {
    const char *in;    /* stdin from this file; NULL: inherited */
    const char *out;   /* stdout to this file (created, truncated); NULL: inherited */
    const char *err;   /* stderr to this file; NULL: inherited (unless err_fd) */
    int err_fd;        /* stderr to this descriptor when >= 0 (and err is NULL) */
    int err_to_out;    /* stderr to where stdout goes (after out; err, err_fd unused) */
    const char *dir;   /* run in this folder (after the redirections); NULL: here */
} ku_io;

/* Start argv[0] (searched in PATH) with argv; io may be NULL (everything
 * inherited; set err_fd to -1 when given).  Returns 0 with *pid, or an errno
 * value (ENOENT for a missing program). */
int ku_spawn(char *const *argv, const ku_io *io, pid_t *pid);
/* Wait for pid: its exit status 0..255, 128 + N when signal N killed it,
 * -1 when it cannot be waited for. */
int ku_wait(pid_t pid);
/* Wait for any child: its pid in *pid and its status as ku_wait gives it;
 * -1 (and *pid -1) when there is no child to wait for. */
int ku_wait_any(pid_t *pid);
/* Has pid ended?  1 with *status (as ku_wait gives it), 0 while it runs,
 * -1 when it cannot be waited for. */
int ku_poll(pid_t pid, int *status);
/* "exit status 2", "killed by signal 9 (Killed)" for a ku_wait result. */
void ku_status_text(int status, char *out, size_t n);

/* ---- temporary files ---- */
/* $TMPDIR when it names an absolute folder (shorter than 400 bytes, so that
 * paths under it fit KU_TMP_PATH), else "/tmp". */
#define KU_TMP_PATH 448
const char *ku_tmpdir(void);
/* Create DIR/PREFIXXXXXXXSUFFIX (mode 0600; dir NULL: ku_tmpdir()); the path
 * in path[n].  Returns the open descriptor, or -1 (path is then ""). */
int ku_mkstemp(char *path, size_t n, const char *dir, const char *prefix, const char *suffix);
/* Create the folder ku_tmpdir()/PREFIXXXXXXX; 0 or -1 (path ""). */
int ku_mkdtemp(char *path, size_t n, const char *prefix);

/* ---- files ---- */
/* The whole file, malloc'd and NUL-terminated; its length in *len when len
 * is not NULL.  NULL when it cannot be read. */
char *ku_read_file(const char *path, size_t *len);
/* The path REL (e.g. "keelcc", "../lib/x.so") relative to the folder of the
 * running executable (/proc/self/exe) in out[n], when that file exists and
 * access(2) allows MODE (R_OK, X_OK).  Returns 0, or -1 with out untouched:
 * the caller's default stays. */
int ku_beside_self(const char *rel, int mode, char *out, size_t n);
/* Write len bytes to path (created or truncated).  0, or -1. */
int ku_write_file(const char *path, const char *text, size_t len);

/* ---- hashing ----
 * FNV-1a, 64 bits (Fowler, Noll, Vo): per byte h = (h ^ byte) * prime,
 * from the offset basis KU_FNV1A64_INIT.  keel's stored hashes (build
 * variants and build hashes, headers hashes, direct-mode and scan keys,
 * the llvm-mca version file) start from KU_FNV_KEEL_START instead, a value
 * one digit short of the basis that they have always used: another start
 * would orphan every database's rows and every cache entry. */
#define KU_FNV1A64_INIT 0xcbf29ce484222325ULL
#define KU_FNV1A64_PRIME 0x100000001b3ULL
#define KU_FNV_KEEL_START 1469598103934665603ULL
/* h continued over n bytes at p. */
uint64_t ku_fnv1a64_update(uint64_t h, const void *p, size_t n);
/* The FNV-1a hash of n bytes at p (from KU_FNV1A64_INIT). */
uint64_t ku_fnv1a64(const void *p, size_t n);
/* h continued by one 64-bit word in one step, (h ^ w) * prime: for a hash
 * table's probe over words (not the byte-wise FNV of the word). */
static inline uint64_t ku_fnv1a64_word(uint64_t h, uint64_t w)
{
    return (h ^ w) * KU_FNV1A64_PRIME;
}

/* ---- messages ---- */
/* When set, ku_msg prints no warnings (errors still print). */
extern int ku_quiet;
/* "PROG: KIND: message\n" on stderr in one write; kind is "warning",
 * "error", ... or NULL for "PROG: message\n". */
void ku_msg(const char *prog, const char *kind, const char *fmt, ...) KU_PRINTF(3, 4);
void ku_vmsg(const char *prog, const char *kind, const char *fmt, va_list ap) KU_PRINTF(3, 0);
/* Format into err[errlen] (when err is not NULL; one line: newlines become
 * spaces) and return -1. */
int ku_fail(char *err, size_t errlen, const char *fmt, ...) KU_PRINTF(3, 4);

#endif
