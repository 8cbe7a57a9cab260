/*
 * ccargs.c -- the compiler options that take a separate value, and starting
 * the compiler (which may be a launcher and a compiler) (ccargs.h).
 */
#include "ccargs.h"

#include <errno.h>
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

int cc_debug_lines(int n, char *const *argv)
{
    static const char *const yes[] = { "-g", "-g1", "-g2", "-g3", "-ggdb", "-ggdb1", "-ggdb2",
                                       "-ggdb3", "-gline-tables-only", "-gmlt", "-gdwarf",
                                       "-gdwarf-4", "-gdwarf-5", NULL };
    static const char *const no[] = { "-g0", "-ggdb0", "-gline-directives-only", NULL };
    int lines = 0, off = 0;
    for (int i = 1; i < n; i++) {
        const char *a = argv[i];
        if (cc_in_list(cc_value_options, a)) {
            i++;        /* its value is no option */
            continue;
        }
        if (cc_in_list(yes, a))
            lines = 1;
        else if (cc_in_list(no, a))
            lines = 0;
        else if (strcmp(a, "-gno-column-info") == 0 || strncmp(a, "-gsplit-dwarf", 13) == 0
                 || strncmp(a, "-gz", 3) == 0 || strcmp(a, "-gdwarf-2") == 0
                 || strcmp(a, "-gdwarf-3") == 0 || strcmp(a, "-gdwarf64") == 0)
            off = 1;
    }
    return lines && !off;
}

int cc_records_options(int n, char *const *argv)
{
    for (int i = 1; i < n; i++) {
        const char *a = argv[i];
        if (cc_in_list(cc_value_options, a)) {
            if (strcmp(a, "-Xclang") == 0 || strcmp(a, "-mllvm") == 0)
                return 1;       /* cc1 / LLVM options: anything could follow */
            i++;
            continue;
        }
        if (strcmp(a, "-frecord-command-line") == 0 || strcmp(a, "-frecord-gcc-switches") == 0
            || strcmp(a, "-grecord-command-line") == 0 || strcmp(a, "-grecord-gcc-switches") == 0
            || strncmp(a, "-fsave-optimization-record", 26) == 0
            || strncmp(a, "-foptimization-record", 21) == 0 || strncmp(a, "-fdiagnostics-hotness", 21) == 0)
            return 1;
    }
    return 0;
}

/* KEEL_CC may be a launcher and a compiler ("ccache clang-19", "distcc
 * clang-19"): argv[0] is split at blanks into several words, unless it
 * names an executable file as it is (a path with blanks). */
int cc_offload_target(const char *a)
{
    return strncmp(a, "--offload-arch", 14) == 0 || strncmp(a, "-fopenmp-targets", 16) == 0;
}

int cc_spawn(char *const *argv, const ku_io *io, pid_t *pid)
{
    if ((!strchr(argv[0], ' ') && !strchr(argv[0], '\t')) || access(argv[0], X_OK) == 0)
        return ku_spawn(argv, io, pid);
    size_t n = 0, words = 0;
    while (argv[n])
        n++;
    char *copy = strdup(argv[0]);
    char **v = calloc(n + strlen(argv[0]) + 1, sizeof *v);
    int rc = ENOMEM;
    if (copy && v) {
        for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w;
             w = strtok_r(NULL, " \t", &save))
            v[words++] = w;
        for (size_t i = 1; words && i < n; i++)
            v[words++] = argv[i];
        v[words] = NULL;
        rc = words ? ku_spawn(v, io, pid) : ENOENT;
    }
    free(copy);
    free(v);
    return rc;
}
