/*
 * mkdb.c -- `db_mkdb DB PREFIX`: write the sample database (sample.c) for
 * the CLI test.
 */
#include <stdio.h>

#include "sample.h"

int main(int argc, char **argv)
{
    char err[512];
    if (argc != 3) {
        fprintf(stderr, "usage: db_mkdb DB PREFIX\n");
        return 2;
    }
    if (sample_write(argv[1], argv[2], err, sizeof err)) {
        fprintf(stderr, "db_mkdb: %s\n", err);
        return 1;
    }
    return 0;
}
