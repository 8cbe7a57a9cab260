/*
 * util.c -- keel's utility layer (util.h): string buffer, growable arrays,
 * temporary files under $TMPDIR, whole-file reads and writes, FNV-1a and
 * the one message printer.  Processes are in spawn.c (a library of their own, which
 * libkeelrt does not link).
 */
#define _GNU_SOURCE         /* mkstemps */
#include "util.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- string buffer ---- */

void ku_buf_putn(ku_buf *b, const char *s, size_t n)
{
    assert(b && (s || n == 0));
    /* the buffer owns s: NULL with nothing counted, or len < cap */
    assert(b->s ? b->len < b->cap : b->len == 0 && b->cap == 0);
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p) {
            free(b->s);
            b->s = NULL;
            b->len = b->cap = 0;
            b->oom = 1;
            return;
        }
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void ku_buf_put(ku_buf *b, const char *s)
{
    assert(s);
    ku_buf_putn(b, s, strlen(s));
}

void ku_buf_putc(ku_buf *b, char c)
{
    ku_buf_putn(b, &c, 1);
}

void ku_buf_put_uleb(ku_buf *b, uint64_t v)
{
    char c[10];
    size_t n = 0;
    do {
        c[n] = (char)(v & 0x7f);
        v >>= 7;
        if (v)
            c[n] = (char)(c[n] | 0x80);
        n++;
    } while (v);
    ku_buf_putn(b, c, n);
}

void ku_buf_put_sleb(ku_buf *b, int64_t v)
{
    uint64_t u = (uint64_t)v;
    ku_buf_put_uleb(b, (u << 1) ^ (v < 0 ? UINT64_MAX : 0));
}

void ku_buf_printf(ku_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ku_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void ku_buf_vprintf(ku_buf *b, const char *fmt, va_list ap)
{
    assert(b && fmt);
    char small[256];
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    char *big = n >= 0 && (size_t)n >= sizeof small ? malloc((size_t)n + 1) : NULL;
    if (n < 0 || ((size_t)n >= sizeof small && !big)) {
        va_end(again);
        ku_buf_free(b);
        b->oom = 1;
        return;
    }
    if (big)
        vsnprintf(big, (size_t)n + 1, fmt, again);
    va_end(again);
    ku_buf_putn(b, big ? big : small, (size_t)n);
    free(big);
}

char *ku_buf_take(ku_buf *b)
{
    assert(b && (!b->oom || !b->s));
    char *s = b->oom ? NULL : b->s ? b->s : calloc(1, 1);
    memset(b, 0, sizeof *b);
    return s;
}

void ku_buf_free(ku_buf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

/* ---- growable arrays ---- */

/* Slots allocated for a count n grown by ku_push alone: 0, then 4, then
 * the next power of two. */
static size_t slots(size_t n)
{
    if (n == 0)
        return 0;
    size_t c = 4;
    while (c < n)
        c *= 2;
    return c;
}

void *ku_push(void *arr, int *n, size_t size)
{
    assert(arr && n && size > 0);
    if (*n < 0 || *n == INT32_MAX)
        return NULL;
    size_t have = slots((size_t)*n), need = (size_t)*n + 1;
    char *p;
    memcpy(&p, arr, sizeof p);
    if (have < need) {
        size_t want = slots(need);
        if (want > SIZE_MAX / size)
            return NULL;
        char *q = realloc(p, want * size);
        if (!q)
            return NULL;
        p = q;
        memcpy(arr, &p, sizeof p);
    }
    char *e = p + (size_t)*n * size;
    memset(e, 0, size);
    (*n)++;
    return e;
}

int ku_push_ptr(void *arr, int *n, const void *s)
{
    const void **slot = ku_push(arr, n, sizeof *slot);
    if (!slot)
        return -1;
    *slot = s;
    if (!ku_push(arr, n, sizeof *slot)) {   /* the NULL terminator */
        (*n)--;
        return -1;
    }
    (*n)--;
    return 0;
}

/* ---- hashing ---- */

uint64_t ku_fnv1a64_update(uint64_t h, const void *p, size_t n)
{
    assert(p || n == 0);
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * KU_FNV1A64_PRIME;
    return h;
}

uint64_t ku_fnv1a64(const void *p, size_t n)
{
    return ku_fnv1a64_update(KU_FNV1A64_INIT, p, n);
}

/* ---- temporary files ---- */

const char *ku_tmpdir(void)
{
    const char *t = getenv("TMPDIR");
    struct stat st;
    if (t && t[0] == '/' && strlen(t) < 400 && stat(t, &st) == 0 && S_ISDIR(st.st_mode))
        return t;
    return "/tmp";
}

int ku_mkstemp(char *path, size_t n, const char *dir, const char *prefix, const char *suffix)
{
    assert(path && n > 0 && prefix && suffix);
    int k = snprintf(path, n, "%s/%sXXXXXX%s", dir ? dir : ku_tmpdir(), prefix, suffix);
    if (k < 0 || (size_t)k >= n) {
        if (n)
            path[0] = '\0';
        return -1;
    }
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0)
        path[0] = '\0';
    return fd;
}

int ku_mkdtemp(char *path, size_t n, const char *prefix)
{
    assert(path && n > 0 && prefix);
    int k = snprintf(path, n, "%s/%sXXXXXX", ku_tmpdir(), prefix);
    if (k < 0 || (size_t)k >= n || !mkdtemp(path)) {
        if (n)
            path[0] = '\0';
        return -1;
    }
    return 0;
}

/* ---- files ---- */

int ku_beside_self(const char *rel, int mode, char *out, size_t n)
{
    assert(rel && out);
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return -1;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    char p[PATH_MAX + 256];
    int k = snprintf(p, sizeof p, "%s/%s", exe, rel);
    if (k < 0 || (size_t)k >= sizeof p || (size_t)k >= n || access(p, mode) != 0)
        return -1;
    memcpy(out, p, (size_t)k + 1);
    return 0;
}

char *ku_read_file(const char *path, size_t *len)
{
    assert(path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    ku_buf b = {0};
    char chunk[8192];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
        ku_buf_putn(&b, chunk, k);
    int bad = ferror(f);
    fclose(f);
    size_t n = b.len;
    char *s = ku_buf_take(&b);
    if (bad) {
        free(s);
        return NULL;
    }
    if (s && len)
        *len = n;
    return s;
}

int ku_write_file(const char *path, const char *text, size_t len)
{
    assert(path && (text || len == 0));
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(text, 1, len, f);
    return fclose(f) == 0 && w == len ? 0 : -1;
}

/* ---- messages ---- */

int ku_quiet;

void ku_vmsg(const char *prog, const char *kind, const char *fmt, va_list ap)
{
    assert(prog && fmt);
    if (ku_quiet && kind && strcmp(kind, "warning") == 0)
        return;
    /* one write, so that lines of concurrent processes do not interleave */
    char line[2048];
    int k = kind ? snprintf(line, sizeof line, "%s: %s: ", prog, kind)
                 : snprintf(line, sizeof line, "%s: ", prog);
    if (k < 0 || (size_t)k >= sizeof line)
        k = 0;
    int m = vsnprintf(line + k, sizeof line - (size_t)k - 1, fmt, ap);
    size_t len = m < 0 ? (size_t)k : (size_t)k + (size_t)m;
    if (len > sizeof line - 2)
        len = sizeof line - 2;
    line[len++] = '\n';
    fwrite(line, 1, len, stderr);
}

void ku_msg(const char *prog, const char *kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ku_vmsg(prog, kind, fmt, ap);
    va_end(ap);
}

int ku_fail(char *err, size_t errlen, const char *fmt, ...)
{
    assert(fmt);
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        for (char *p = err; *p; p++)     /* one line, whatever the parts held */
            if (*p == '\n' || *p == '\r')
                *p = ' ';
    }
    return -1;
}
