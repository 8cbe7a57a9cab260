/*
 * test_threads.c -- the CPU model's default thread count (threads.c):
 * OMP_NUM_THREADS's first number when set and valid, else the CPUs of the
 * process's affinity mask, as an OpenMP runtime sizes its default team.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>

#include "check.h"
#include "rt.h"

int main(void)
{
    cpu_set_t all;
    CHECK_INT(sched_getaffinity(0, sizeof all, &all), 0);

    setenv("OMP_NUM_THREADS", "3", 1);
    CHECK_INT(rt_default_threads(), 3);
    setenv("OMP_NUM_THREADS", "4,2", 1);          /* nested levels: the first */
    CHECK_INT(rt_default_threads(), 4);

    unsetenv("OMP_NUM_THREADS");
    CHECK_INT(rt_default_threads(), CPU_COUNT(&all));
    setenv("OMP_NUM_THREADS", "0", 1);            /* not a team size: the mask */
    CHECK_INT(rt_default_threads(), CPU_COUNT(&all));
    setenv("OMP_NUM_THREADS", "", 1);
    CHECK_INT(rt_default_threads(), CPU_COUNT(&all));

    /* run on the first CPU of the mask only: one thread, however many
     * CPUs are online */
    cpu_set_t one;
    CPU_ZERO(&one);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &all)) {
            CPU_SET(c, &one);
            break;
        }
    CHECK_INT(sched_setaffinity(0, sizeof one, &one), 0);
    CHECK_INT(rt_default_threads(), 1);
    return check_summary();
}
