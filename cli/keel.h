/*
 * keelcmd.h -- the `keel` tool's whole-project commands, each in its own
 * file beside keel.c:
 *
 *   scan.c   keel scan -p BUILD_DIR: every C translation unit of a compile
 *            database (compile_commands.json) analysed by keelcc
 *            --keel-analysis=only, in parallel, resumable
 *   merge.c  keel merge OUT.db IN.db...: databases of several machines or
 *            build trees made one (newest analysis of a source wins)
 *   html.c   keel report --html FILE: one self-contained page
 *
 * Each takes the arguments after the command name and returns the exit
 * status (0 success, 1 database error or failed files, 2 usage error);
 * messages are one line "keel: ..." on stderr.
 */
#ifndef KEEL_DB_KEELCMD_H
#define KEEL_DB_KEELCMD_H

#include <stddef.h>

/* "keel: <message>" and a newline on stderr; returns code (keel.c). */
int keel_say(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* snprintf for messages and bounded paths, where cutting is intended. */
int keel_fmtn(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

int keel_cmd_scan(int argc, char **argv, const char *default_db);
int keel_cmd_merge(int argc, char **argv);
/* keel report --html FILE [--device LIST] [--host NAME] [--threads N]
 * [--size N] [--file PATH] [DB] (argv holds every report argument). */
int keel_cmd_html(int argc, char **argv, const char *default_db);

#define KEEL_CMD_USAGE \
    "  scan -p BUILD_DIR [DB]     analyse every C file of BUILD_DIR/compile_commands.json\n" \
    "                             with its own flags, without compiling (CMake, Meson,\n" \
    "                             Bear); unchanged files are skipped\n" \
    "      -j N                   N files at once (default: processors online)\n" \
    "      --no-mca               no llvm-mca cycles (no assembly compiles)\n" \
    "      --force                analyse unchanged files again\n" \
    "  merge OUT.db IN.db...      combine databases: the newest analysis of each source\n" \
    "                             wins, decisions and host calibrations are appended\n" \
    "  report --html FILE [DB]    one self-contained HTML page: nests, roofline per\n" \
    "                             device, boat-hull view per class, crossover sizes\n" \
    "      --device LIST          GPU profiles, comma-separated (default h100)\n" \
    "      --host NAME            CPU profile (default: host)\n" \
    "      --threads N            host threads for nests with OpenMP pragmas\n" \
    "      --size N               problem size of the roofline points (default 1000)\n" \
    "  explain FILE:LINE --sweep SYM=LO:HI [DB]\n" \
    "                             CPU and GPU+transfer times from LO to HI (x2 steps)\n" \
    "                             and the crossover size; SYM * sets every symbol the\n" \
    "                             nest needs, the others come from --set\n"

#endif
