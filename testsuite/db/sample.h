/*
 * sample.h -- write the fixed sample database of sample.c.
 */
#ifndef KEEL_TESTSUITE_DB_SAMPLE_H
#define KEEL_TESTSUITE_DB_SAMPLE_H

#include <stddef.h>
#include "db.h"

/* Create or update dbpath with the two sample TUs under prefix (e.g.
 * "/src"); 0 or -1 with a message. */
int sample_write(const char *dbpath, const char *prefix, char *err, size_t errlen);

#endif
