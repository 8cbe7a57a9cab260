/*
 * ccargs.c -- the compiler options that take a separate value, and whole-file
 * reads and writes (ccargs.h).
 */
#define _POSIX_C_SOURCE 200809L   /* strdup, strtok_r */
#include "ccargs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* KEEL_CC may be a launcher and a compiler ("ccache clang-19", "distcc
 * clang-19"): argv[0] is split at blanks into several words before the
 * exec, unless it names an executable file as it is (a path with blanks).
 * Returns only on failure. */
int cc_execvp(char *const *argv)
{
    if ((!strchr(argv[0], ' ') && !strchr(argv[0], '\t')) || access(argv[0], X_OK) == 0)
        return execvp(argv[0], argv);
    size_t n = 0, words = 0;
    while (argv[n])
        n++;
    char *copy = strdup(argv[0]);
    char **v = calloc(n + strlen(argv[0]) + 1, sizeof *v);
    if (!copy || !v)
        return -1;
    for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        v[words++] = w;
    if (words == 0)
        return -1;
    for (size_t i = 1; i < n; i++)
        v[words++] = argv[i];
    v[words] = NULL;
    return execvp(v[0], v);
}
