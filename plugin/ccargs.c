/*
 * ccargs.c -- the compiler options that take a separate value (ccargs.h).
 */
#include "ccargs.h"

#include <stddef.h>

const char *const cc_value_options[] = {
    "-o", "-MF", "-MT", "-MQ", "-MJ", "-I", "-D", "-U", "-include", "-imacros", "-isystem",
    "-iquote", "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot",
    "-x", "-Xlinker", "-Xclang", "-Xpreprocessor", "-Xassembler", "-Xopenmp-target", "-L",
    "-l", "-target", "--sysroot", "-arch", "-u", "-T", "-z", "-e", "-mllvm", "--param",
    "-dependency-file", "-aux-info", "-ivfsoverlay", "-working-directory", NULL
};
