/*
 * check.h -- the unit-test harness: exact-value checks, a summary line.
 *
 * A test program calls CHECK(cond), CHECK_INT(got, want), CHECK_STR(got,
 * want) as often as it likes and ends with `return check_summary();`, which
 * prints "N passed, N failed" and returns non-zero when anything failed.
 */
#ifndef KEEL_TESTSUITE_CHECK_H
#define KEEL_TESTSUITE_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond) \
    do { \
        if (cond) check_passed++; \
        else { check_failed++; fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); } \
    } while (0)

#define CHECK_INT(got, want) \
    do { \
        long long check_g_ = (long long)(got), check_w_ = (long long)(want); \
        if (check_g_ == check_w_) check_passed++; \
        else { check_failed++; fprintf(stderr, "%s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, #got, check_g_, check_w_); } \
    } while (0)

#define CHECK_STR(got, want) \
    do { \
        const char *check_g_ = (got), *check_w_ = (want); \
        if (check_g_ && check_w_ && strcmp(check_g_, check_w_) == 0) check_passed++; \
        else { check_failed++; fprintf(stderr, "%s:%d: %s = \"%s\", want \"%s\"\n", __FILE__, __LINE__, #got, check_g_ ? check_g_ : "(null)", check_w_ ? check_w_ : "(null)"); } \
    } while (0)

static int check_summary(void)
{
    printf("%d passed, %d failed\n", check_passed, check_failed);
    return check_failed != 0;
}

#endif
