/*
 * ccargs.h -- what keelcc knows of the compiler's command line, and how it
 * starts the compiler.
 *
 * keelcc and its llvm-mca stage both walk the compile's arguments and must
 * agree on which options consume the next argument as their value (so that
 * the value is never taken for an input file): one list, here.  Both start
 * the compiler, which KEEL_CC may give as a launcher and a compiler: one
 * function, here.  Files, processes and messages are util/util.h's.
 */
#ifndef KEEL_PLUGIN_CCARGS_H
#define KEEL_PLUGIN_CCARGS_H

#include <stddef.h>

#include "util.h"

/* Options whose value is the next argument when not joined (-o x, -I dir,
 * -MF file, -Xlinker opt, ...); NULL-terminated. */
extern const char *const cc_value_options[];

/* Is s one of the strings of the NULL-terminated list? */
int cc_in_list(const char *const *list, const char *s);

/* Does compiler argument a name clang's offload targets (-fopenmp-targets=,
 * --offload-arch=): the command builds an offload image? */
int cc_offload_target(const char *a);

/* Does the compile (argv[1..n-1], the compiler's arguments) write debug
 * line tables into its object, with columns?  The last option that says
 * decides: -g, -g1 -g2 -g3, -ggdb (and -ggdb1..3), -gline-tables-only,
 * -gmlt, -gdwarf, -gdwarf-N say yes; -g0, -ggdb0 no.  -gno-column-info
 * (no columns), -gsplit-dwarf and -gz (tables elsewhere, or compressed)
 * are no as well. */
int cc_debug_lines(int n, char *const *argv);

/* Could adding options to the compile show in its object: does it record
 * its own command line (-frecord-command-line, -grecord-command-line,
 * -grecord-gcc-switches and the -gcc- spellings), or write remarks of its
 * own (-fsave-optimization-record, -foptimization-record-*)? */
int cc_records_options(int n, char *const *argv);

/* ku_spawn, with a compiler given as several words ("ccache clang-19",
 * KEEL_CC) split at blanks first.  0 with *pid, or an errno value. */
int cc_spawn(char *const *argv, const ku_io *io, pid_t *pid);

#endif
