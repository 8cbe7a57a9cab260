/*
 * threads.c -- how many threads an OpenMP program here would start.
 *
 * The CPU model's default thread count is the team an OpenMP parallel
 * region gets without a num_threads clause: OMP_NUM_THREADS (the first
 * number of its list) when set, else the CPUs this process may run on.
 * Both libgomp and LLVM's libomp size that default team by the process's
 * affinity mask, not by the CPUs online, so a program started under
 * `taskset -c 0-3` on a 16-core host runs 4 threads and keel models 4.
 * The mask is also one system call, where counting the CPUs online reads
 * a file under /sys (three), which a program's first decision pays.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt.h"

int rt_default_threads(void)
{
    return rt_threads_for(getenv("OMP_NUM_THREADS"));
}

int rt_threads_for(const char *s)
{
    if (s && *s) {
        long n = strtol(s, NULL, 10);   /* the first level of a list */
        if (n > 0 && n < 1 << 20)
            return (int)n;
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        /* CPU_COUNT, counted here: glibc's __sched_cpucount is one more
         * symbol for a program's first decision to bind, and a
         * population-count call one more page of code to fault in */
        unsigned long long w[sizeof set / sizeof(unsigned long long)];
        memcpy(w, &set, sizeof w);
        int c = 0;
        for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
            for (unsigned long long x = w[i]; x; x &= x - 1)   /* one CPU a turn */
                c++;
        if (c > 0)
            return c;
    }
    /* a mask wider than cpu_set_t (over 1024 CPUs) or no such call */
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? (int)c : 1;
}
