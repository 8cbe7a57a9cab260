/*
 * oom.h -- allocation-failure injection for the allocation-failure loops.
 *
 * A test linked with oom.c and the linker's --wrap for malloc, calloc,
 * realloc, free, strdup and strndup routes every allocation made by the
 * code linked statically into it (keel's own libraries and the test) through
 * a counter.  oom_arm(n) makes the n-th allocation from then on fail (and
 * only that one, as SQLite's and isl's fault loops do); oom_disarm() stops
 * counting.  SQLite's own allocator is hooked as well (oom_sqlite_hook,
 * before any other SQLite call), so the database library's failures come
 * from the same counter.  Every live block is kept in a table, so a test
 * compares oom_live() before and after a run: a leak on an error path
 * shows as a difference (blocks allocated by libc or libclang internals
 * are not counted; blocks freed by them would not be either).
 */
#ifndef KEEL_TESTSUITE_OOM_H
#define KEEL_TESTSUITE_OOM_H

#include <stddef.h>
#include <stdio.h>

void oom_arm(long n);          /* fail the n-th allocation from now (n >= 1) */
void oom_disarm(void);
int oom_fired(void);           /* 1 when the armed failure happened */
long oom_count(void);          /* allocations counted since the last oom_arm */
long oom_live(void);           /* blocks allocated and not yet freed */
int oom_sqlite_hook(void);     /* route SQLite's allocator here; 0 or -1 */
/* Mark every live block as old; oom_print_new lists the blocks allocated
 * since and still live, each with the address of the call that made it
 * (for addr2line). */
void oom_snapshot(void);
void oom_print_new(FILE *out);
void oom_hit(void);            /* called as the armed failure happens */

#endif
