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
/* The same for OMP_NUM_THREADS's value s (NULL: unset), as read already. */
int rt_threads_for(const char *s);
/* A CUDA GPU through libcuda.so.1 (dlopen): 1 with its profile and the
 * name CUDA reports, 0 when there is none. */
int rt_cuda_detect(rt_profile *out, char *name, size_t namelen);
/* The built-in profile `name` ("host": the host defaults; case ignored)
 * when it is of kind `kind` (RT_CPU | RT_GPU), copied straight from its
 * image into *out (its texts point into the read-only image): 1, or 0
 * when no built-in of that kind has that name (a user profile or a file
 * may still: rt_profile_find).  Publishes nothing, takes no lock. */
int rt_profile_builtin_into(const char *name, int kind, rt_profile *out);
/* "41.2 ms", "0.9 us", "1.25 s" */
void rt_format_time(char *buf, size_t n, double s);

#endif
