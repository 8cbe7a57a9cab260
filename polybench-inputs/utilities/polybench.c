/*
 * polybench.c -- allocation, timing and checksums for keel's PolyBench-style
 * programs (see polybench.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "polybench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void *polybench_alloc_data(size_t count, size_t elem_size)
{
    void *p = NULL;
    size_t bytes = count * elem_size;
    /* Aligned like PolyBench's allocator, zeroed so every run starts equal. */
    if (posix_memalign(&p, 4096, bytes ? bytes : 1) != 0) {
        fprintf(stderr, "polybench: cannot allocate %zu bytes\n", bytes);
        exit(1);
    }
    memset(p, 0, bytes);
    return p;
}

void polybench_free_data(void *p)
{
    free(p);
}

/* Wall clock (CLOCK_MONOTONIC) and the process's CPU time, user and
 * system over all its threads (CLOCK_PROCESS_CPUTIME_ID): on a shared
 * machine a descheduled process lengthens the first, not the second. */
static struct timespec timer_t0, timer_t1, cpu_t0, cpu_t1;

void polybench_timer_start(void)
{
#if defined(_OPENMP) && defined(POLYBENCH_OFFLOAD_WARMUP)
    /* Offload timing: start the device (context, image load) before the
     * clock starts, so the kernel time is the kernel and its transfers. */
#pragma omp target
    { }
#endif
#if defined(_OPENMP) && defined(POLYBENCH_OMP_WARMUP)
    /* Host timing: start the OpenMP runtime (its thread pool, the host
     * path of a target region) before the clock starts; the first
     * construct of a process pays that once, milliseconds, and it is no
     * part of the kernel.  A `target teams` region run on the host starts
     * its league of teams the first time too (6-13 ms measured on a 2-core
     * VM, 1-33 us a region after), so one is run here as well. */
#pragma omp parallel
    { }
#pragma omp target
    { }
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 1; i++) { }
#endif
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_t0);
    clock_gettime(CLOCK_MONOTONIC, &timer_t0);
}

void polybench_timer_stop(void)
{
    clock_gettime(CLOCK_MONOTONIC, &timer_t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu_t1);
}

void polybench_timer_print(void)
{
#ifdef POLYBENCH_TIME
    double s = (double)(timer_t1.tv_sec - timer_t0.tv_sec)
             + (double)(timer_t1.tv_nsec - timer_t0.tv_nsec) * 1e-9;
    double c = (double)(cpu_t1.tv_sec - cpu_t0.tv_sec)
             + (double)(cpu_t1.tv_nsec - cpu_t0.tv_nsec) * 1e-9;
    fprintf(stderr, "time: %.6f s\n", s);
    fprintf(stderr, "cpu: %.6f s\n", c);
#endif
}

/* A position-weighted sum, so that permuted or shifted results differ. */
double polybench_checksum(const double *data, size_t count)
{
    double sum = 0.0;
    for (size_t k = 0; k < count; k++)
        sum += data[k] * (double)(k % 7 + 1);
    return sum;
}

void polybench_print_checksum(const char *name, const double *data, size_t count)
{
    printf("%s checksum: %.12e\n", name, polybench_checksum(data, count));
}
