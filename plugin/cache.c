/*
 * cache.c -- keelcc's direct mode: hashing the inputs of a build and the
 * list of files its parse read (cache.h).
 */
#define _XOPEN_SOURCE 700   /* realpath */
#include "cache.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void dc_init(dc_hash *h)
{
    h->a = KU_FNV_KEEL_START;
    h->b = 0x84222325cbf29ce4ULL;
}

void dc_bytes(dc_hash *h, const void *p, size_t n)
{
    const unsigned char *s = p;
    uint64_t b = h->b;
    h->a = ku_fnv1a64_update(h->a, p, n);      /* FNV-1a; b: FNV with a shift */
    for (size_t i = 0; i < n; i++) {
        b = (b ^ s[i]) * KU_FNV1A64_PRIME;
        b ^= b >> 29;
    }
    h->b = b;
}

void dc_str(dc_hash *h, const char *s)
{
    if (s)
        dc_bytes(h, s, strlen(s) + 1);
    else
        dc_bytes(h, "\xff", 1);
}

int dc_file(dc_hash *h, const char *path)
{
    size_t len;
    char *t = ku_read_file(path, &len);
    if (!t)
        return -1;
    dc_bytes(h, &len, sizeof len);
    dc_bytes(h, t, len);
    free(t);
    return 0;
}

void dc_program(dc_hash *h, const char *prog)
{
    char path[PATH_MAX + 1] = "", real[PATH_MAX];
    if (strchr(prog, '/')) {
        snprintf(path, sizeof path, "%s", prog);
    } else {
        const char *p = getenv("PATH");
        while (p && *p && !path[0]) {
            size_t k = strcspn(p, ":");
            if (k > 0 && snprintf(path, sizeof path, "%.*s/%s", (int)k, p, prog) < (int)sizeof path
                && access(path, X_OK) == 0) {
                /* found */
            } else {
                path[0] = '\0';
            }
            p += k + (p[k] == ':');
        }
    }
    struct stat st;
    if (!path[0] || !realpath(path, real) || stat(real, &st) != 0) {
        dc_str(h, "missing");
        dc_str(h, prog);
        return;
    }
    dc_str(h, real);
    long long v[3] = { (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                       (long long)st.st_mtim.tv_nsec };
    dc_bytes(h, v, sizeof v);
}

void dc_hex(const dc_hash *h, char out[33])
{
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h->a, (unsigned long long)h->b);
}

/* 64-bit FNV-1a of a file's bytes (dc_bytes' first half, the only one
 * a list keeps: the second lane is not computed); -1 when unreadable. */
static int hash_file(const char *path, uint64_t *out, size_t *size)
{
    size_t len;
    char *t = ku_read_file(path, &len);
    if (!t)
        return -1;
    *out = ku_fnv1a64_update(KU_FNV_KEEL_START, t, len);
    free(t);
    *size = len;
    return 0;
}

static int too_new(const struct timespec *t, const struct timespec *since)
{
    /* one second of slack: file times come from a coarser clock */
    return t->tv_sec + 1 > since->tv_sec
           || (t->tv_sec + 1 == since->tv_sec && t->tv_nsec >= since->tv_nsec);
}

int dc_inputs_add(ku_buf *list, const char *path, const struct timespec *since)
{
    struct stat st;
    uint64_t h;
    size_t size;
    if (strchr(path, '\n') || stat(path, &st) != 0 || too_new(&st.st_mtim, since)
        || too_new(&st.st_ctim, since) || hash_file(path, &h, &size) != 0)
        return -1;
    ku_buf_printf(list, "%016llx %zu %s\n", (unsigned long long)h, size, path);
    return list->oom ? -1 : 0;
}

int dc_inputs_next(const char **p, unsigned long long *hash, size_t *size, char *path,
                   size_t pathlen)
{
    if (!**p)
        return 0;
    const char *nl = strchr(*p, '\n');
    int off = 0;
    if (!nl || sscanf(*p, "%16llx %zu %n", hash, size, &off) != 2 || off <= 0
        || (size_t)(nl - *p - off) >= pathlen)
        return -1;
    memcpy(path, *p + off, (size_t)(nl - *p - off));
    path[nl - *p - off] = '\0';
    *p = nl + 1;
    return 1;
}

/* The lines of a list already checked, as a set (open addressing over
 * the lines' FNV-1a): a header entered again (guarded, or included from
 * several headers) is one line many times over, hashed once. */
typedef struct {
    const char **slot;
    size_t mask;
} line_set;

/* 1 when line (up to and with its newline) was in the set, else 0 after
 * adding it (also 0 when there is no set: every line is then checked). */
static int line_seen(line_set *s, const char *line)
{
    if (!s->slot)
        return 0;
    size_t n = strcspn(line, "\n") + 1;
    size_t k = (size_t)ku_fnv1a64_update(KU_FNV_KEEL_START, line, n) & s->mask;
    for (; s->slot[k]; k = (k + 1) & s->mask)
        if (memcmp(s->slot[k], line, n) == 0)
            return 1;    /* the same bytes up to a newline: the same line */
    s->slot[k] = line;
    return 0;
}

int dc_inputs_same(const char *list)
{
    char path[PATH_MAX + 1];
    unsigned long long want;
    size_t size, got_size, lines = 0, cap = 16;
    int rc;
    for (const char *p = list; (p = strchr(p, '\n')); p++)
        lines++;
    while (cap < 2 * lines)
        cap *= 2;
    line_set seen = { calloc(cap, sizeof *seen.slot), cap - 1 };
    const char *line = list;
    while ((rc = dc_inputs_next(&list, &want, &size, path, sizeof path)) == 1) {
        uint64_t h;
        struct stat st;
        int again = line_seen(&seen, line);
        line = list;
        if (again)
            continue;     /* the very line checked above holds here too */
        /* the size first: a changed file usually fails without a read */
        if (stat(path, &st) != 0 || (size_t)st.st_size != size
            || hash_file(path, &h, &got_size) != 0 || h != want || got_size != size) {
            free(seen.slot);
            return 0;
        }
    }
    free(seen.slot);
    return rc == 0;
}
