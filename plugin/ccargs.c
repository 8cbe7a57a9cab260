/*
 * ccargs.c -- the compiler options that take a separate value, and whole-file
 * reads and writes (ccargs.h).
 */
#include "ccargs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cc_value_options[] = {
    "-o", "-MF", "-MT", "-MQ", "-MJ", "-I", "-D", "-U", "-include", "-imacros", "-isystem",
    "-iquote", "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot",
    "-x", "-Xlinker", "-Xclang", "-Xpreprocessor", "-Xassembler", "-Xopenmp-target", "-L",
    "-l", "-target", "--sysroot", "-arch", "-u", "-T", "-z", "-e", "-mllvm", "--param",
    "-dependency-file", "-aux-info", "-ivfsoverlay", "-working-directory", NULL
};

int cc_in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

char *cc_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    /* Read until a short read, keeping one byte free for the NUL. */
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1)
            break;
        char *p = realloc(buf, cap * 2);
        if (!p) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = p;
        cap *= 2;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        if (len)
            *len = n;
    }
    return buf;
}

int cc_write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(text, 1, len, f);
    return fclose(f) == 0 && w == len ? 0 : -1;
}
