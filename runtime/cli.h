/*
 * cli.h -- the runtime's commands of the keel tool: devices, calibrate,
 * explain.  Each takes the arguments after the command name and returns
 * the exit status (0, 1 database error, 2 usage error); messages are one
 * line "keel: ..." on stderr.
 */
#ifndef KEEL_RUNTIME_CLI_H
#define KEEL_RUNTIME_CLI_H

int rt_cmd_devices(int argc, char **argv);
int rt_cmd_calibrate(int argc, char **argv, const char *default_db);
int rt_cmd_explain(int argc, char **argv, const char *default_db);
int rt_cmd_history(int argc, char **argv, const char *default_db);

#define RT_CLI_USAGE \
    "  devices                    list the machine profiles (built-in and the\n" \
    "                             user's) with their key numbers and sources\n" \
    "      --add FILE             check a profile file and add it to\n" \
    "                             $KEEL_MACHINES (~/.config/keel/machines)\n" \
    "      --export NAME          print a profile in the text format\n" \
    "  calibrate [DB]             measure this host (bandwidth, flop rate,\n" \
    "                             OpenMP overheads) and store it in DB\n" \
    "  explain FILE:LINE[:COL] --set SYM=V,... [DB]\n" \
    "                             every term of the CPU, GPU and transfer\n" \
    "                             models for one launch, and the verdict\n" \
    "      --device NAME          GPU profile or profile file (default:\n" \
    "                             KEEL_DEVICE, the GPU present, else h100\n" \
    "                             with verdict CPU)\n" \
    "      --host NAME            CPU profile or profile file (default:\n" \
    "                             KEEL_HOST, else this host)\n" \
    "      --threads N            run the nest on N host threads (default:\n" \
    "                             as compiled: one thread without OpenMP\n" \
    "                             pragmas, else OMP_NUM_THREADS or cores)\n" \
    "  history [DB]               measured times per loop, size and device\n" \
    "                             (StarPU-style; >= 10 samples: trusted)\n" \
    "      --add FILE             add measurements: FILE:LINE SYM=V,...\n" \
    "                             cpu|gpu SECONDS per line ('-': stdin)\n"

#endif
