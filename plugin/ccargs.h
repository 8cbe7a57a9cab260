/*
 * ccargs.h -- what keelcc knows of the compiler's command line.
 *
 * keelcc and its llvm-mca stage both walk the compile's arguments and must
 * agree on which options consume the next argument as their value (so that
 * the value is never taken for an input file): one list, here.
 */
#ifndef KEEL_PLUGIN_CCARGS_H
#define KEEL_PLUGIN_CCARGS_H

/* Options whose value is the next argument when not joined (-o x, -I dir,
 * -MF file, -Xlinker opt, ...); NULL-terminated. */
extern const char *const cc_value_options[];

#endif
