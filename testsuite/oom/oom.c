/*
 * oom.c -- the counting allocator behind oom.h.
 *
 * The wrappers keep each live block in an open-addressed table keyed by
 * its address (tombstones on free), so free() of a block this file never
 * saw (allocated inside libc or a shared library) changes nothing.  The
 * table itself is allocated with the real malloc and never counted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "oom.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t k, size_t n);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);

static long armed_at;          /* 0: not armed */
static long counted;
static int fired;

#define TOMB ((void *)1)
static void **table;
static void **origin;          /* per slot: the allocating call's return address */
static size_t cap, used, live;
static void *current_origin;

static size_t slot_of(void *p)
{
    uintptr_t h = (uintptr_t)p;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 7) & (cap - 1);
}

static void remember(void *p);

static void grow(void)
{
    void **old = table, **oldorig = origin;
    size_t oldcap = cap;
    cap = cap ? cap * 2 : 1024;
    table = __real_calloc(cap, sizeof *table);
    origin = __real_calloc(cap, sizeof *origin);
    if (!table || !origin)
        abort();                  /* the test harness itself: no way on */
    used = live = 0;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i] && old[i] != TOMB) {
            current_origin = oldorig[i];
            remember(old[i]);
        }
    __real_free(old);
    __real_free(oldorig);
}

static void remember(void *p)
{
    if (!p)
        return;
    if ((used + 1) * 2 > cap)
        grow();
    size_t i = slot_of(p);
    while (table[i] && table[i] != TOMB)
        i = (i + 1) & (cap - 1);
    if (!table[i])
        used++;
    table[i] = p;
    origin[i] = current_origin;
    live++;
}

static int forget(void *p)
{
    if (!p || !cap)
        return 0;
    size_t i = slot_of(p);
    while (table[i]) {
        if (table[i] == p) {
            table[i] = TOMB;
            live--;
            return 1;
        }
        i = (i + 1) & (cap - 1);
    }
    return 0;
}

/* Record current_origin for the live block p. */
static void origin_set(void *p)
{
    size_t i = slot_of(p);
    while (table[i]) {
        if (table[i] == p) {
            origin[i] = current_origin;
            return;
        }
        i = (i + 1) & (cap - 1);
    }
}

void oom_snapshot(void)
{
    for (size_t i = 0; i < cap; i++)
        if (table[i] && table[i] != TOMB)
            origin[i] = (void *)((uintptr_t)origin[i] | 1);   /* old */
}

void oom_print_new(FILE *out)
{
    for (size_t i = 0; i < cap; i++)
        if (table[i] && table[i] != TOMB && !((uintptr_t)origin[i] & 1))
            fprintf(out, "  leaked block allocated from %p: \"%.40s\"\n", origin[i],
                    (const char *)table[i]);
}

/* Called when the armed allocation fails: a place for a debugger's
 * breakpoint (`break oom_hit`). */
__attribute__((noinline)) void oom_hit(void)
{
    __asm__ volatile("");
}

/* Does this allocation fail? */
static int fail_now(void)
{
    if (!armed_at)
        return 0;
    if (++counted == armed_at) {
        fired = 1;
        oom_hit();
        return 1;
    }
    return 0;
}

void oom_arm(long n) { armed_at = n; counted = 0; fired = 0; }
void oom_disarm(void) { armed_at = 0; }
int oom_fired(void) { return fired; }
long oom_count(void) { return counted; }
long oom_live(void) { return (long)live; }

void *__wrap_malloc(size_t n)
{
    current_origin = __builtin_return_address(0);
    if (fail_now())
        return NULL;
    void *p = __real_malloc(n);
    remember(p);
    return p;
}

void *__wrap_calloc(size_t k, size_t n)
{
    current_origin = __builtin_return_address(0);
    if (fail_now())
        return NULL;
    void *p = __real_calloc(k, n);
    remember(p);
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    current_origin = __builtin_return_address(0);
    if (fail_now())
        return NULL;              /* p stays valid, as realloc promises */
    void *q = __real_realloc(p, n);
    if (q || n == 0) {
        forget(p);
        remember(q);
    }
    return q;
}

void __wrap_free(void *p)
{
    forget(p);
    __real_free(p);
}

char *__wrap_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    void *ra = __builtin_return_address(0);
    char *p = __wrap_malloc(n);
    current_origin = ra;
    if (p)
        origin_set(p);
    if (p)
        memcpy(p, s, n);
    return p;
}

char *__wrap_strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    void *ra = __builtin_return_address(0);
    char *p = __wrap_malloc(n + 1);
    current_origin = ra;
    if (p)
        origin_set(p);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* SQLite's allocator (sqlite3_mem_methods): its own size header, as the
 * methods must report sizes.  Blocks are counted in the same table. */
static void *sq_malloc(int n)
{
    if (n <= 0 || fail_now())
        return NULL;
    sqlite3_int64 *p = __real_malloc((size_t)n + 8);
    if (!p)
        return NULL;
    p[0] = n;
    current_origin = __builtin_return_address(0);
    remember(p);
    return p + 1;
}

static void sq_free(void *q)
{
    if (!q)
        return;
    sqlite3_int64 *p = (sqlite3_int64 *)q - 1;
    forget(p);
    __real_free(p);
}

static void *sq_realloc(void *q, int n)
{
    if (!q)
        return sq_malloc(n);
    if (n <= 0 || fail_now())
        return NULL;
    sqlite3_int64 *p = (sqlite3_int64 *)q - 1;
    sqlite3_int64 *r = __real_realloc(p, (size_t)n + 8);
    if (!r)
        return NULL;
    forget(p);
    r[0] = n;
    remember(r);
    return r + 1;
}

static int sq_size(void *q) { return q ? (int)((sqlite3_int64 *)q)[-1] : 0; }
static int sq_roundup(int n) { return (n + 7) & ~7; }
static int sq_init(void *x) { (void)x; return SQLITE_OK; }
static void sq_shutdown(void *x) { (void)x; }

int oom_sqlite_hook(void)
{
    static const sqlite3_mem_methods m = {
        sq_malloc, sq_free, sq_realloc, sq_size, sq_roundup, sq_init, sq_shutdown, NULL
    };
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &m) != SQLITE_OK)
        return -1;
    /* No lookaside: every SQLite allocation reaches the counter. */
    sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 0, 0);
    return sqlite3_initialize() == SQLITE_OK ? 0 : -1;
}
