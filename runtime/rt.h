/*
 * rt.h -- libkeelrt internals shared with the keel tool (not installed).
 */
#ifndef KEEL_RUNTIME_RT_H
#define KEEL_RUNTIME_RT_H

#include <stddef.h>

#include "model.h"

/* Threads of the CPU model: OMP_NUM_THREADS (its first number) or the
 * CPUs of this process's affinity mask, as an OpenMP runtime sizes its
 * default team (threads.c). */
int rt_default_threads(void);
/* A CUDA GPU through libcuda.so.1 (dlopen): 1 with its profile and the
 * name CUDA reports, 0 when there is none. */
int rt_cuda_detect(rt_profile *out, char *name, size_t namelen);
/* "41.2 ms", "0.9 us", "1.25 s" */
void rt_format_time(char *buf, size_t n, double s);

#endif
