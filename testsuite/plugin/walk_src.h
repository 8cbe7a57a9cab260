/*
 * walk_src.h -- for the front end's unit tests: write a C source into a
 * test's temporary folder and walk it with libclang (walk_file).
 *
 * walk_src_in returns the unit's IR (the caller frees it with ir_tu_free),
 * or NULL with the walker's message on stderr.
 */
#ifndef KEEL_TESTSUITE_WALK_SRC_H
#define KEEL_TESTSUITE_WALK_SRC_H

#include <stdio.h>

#include "walker.h"

static ir_tu *walk_src_in(const char *dir, const char *name, const char *src, int nargs,
                          const char *const *args)
{
    char path[256], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fputs(src, f);
    fclose(f);
    ir_tu *tu = NULL;
    if (walk_file(path, nargs, args, &tu, err, sizeof err) != 0) {
        fprintf(stderr, "walk %s: %s\n", name, err);
        return NULL;
    }
    return tu;
}

#endif
