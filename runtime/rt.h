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
/* A CUDA GPU through libcuda.so.1 (dlopen): 1 with its profile
 * (rt_profile_for_cuda) and the name CUDA reports, 0 when there is none.
 * A derived profile's source text is allocated once per call and never
 * freed (a process detects its GPU once). */
int rt_cuda_detect(rt_profile *out, char *name, size_t namelen);

/* What CUDA's driver reports of a device (cuDeviceGetAttribute), by
 * RT_CU_*; negative where it reports nothing.  rt_cu_attr_id[k] is
 * attribute k's number in cuda.h's CUdevice_attribute (gpu_attrs.c). */
enum { RT_CU_SMS, RT_CU_CLOCK_KHZ, RT_CU_MEM_CLOCK_KHZ, RT_CU_BUS_BITS, RT_CU_L2,
       RT_CU_THREADS_SM, RT_CU_BLOCKS_SM, RT_CU_WARP, RT_CU_CC_MAJOR, RT_CU_CC_MINOR,
       RT_CU_INTEGRATED, RT_CU_NATTR };
extern const int rt_cu_attr_id[RT_CU_NATTR];
typedef struct {
    int v[RT_CU_NATTR];
} rt_cuda_attrs;
/* Every attribute unreported (-1). */
void rt_cuda_attrs_none(rt_cuda_attrs *a);
/* The GPU profile of a device from its attributes alone, into *out (name
 * "cuda"), its source text written into src (srclen > 0 bytes; 1024 suffice),
 * which out->source then points to: 0, or -1 when the built-in it takes
 * its latencies from is missing (no profile).  Pure: no libcuda. */
int rt_profile_from_cuda_attrs(const rt_cuda_attrs *a, rt_profile *out, char *src,
                               size_t srclen);
/* The profile of CUDA device `name` with attributes *a: the built-in its
 * name matches (rt_profile_match_gpu) when the reported SM count agrees
 * with it or is unreported (1), else rt_profile_from_cuda_attrs (0, or -1
 * with no profile).  Pure: no libcuda. */
int rt_profile_for_cuda(const char *name, const rt_cuda_attrs *a, rt_profile *out, char *src,
                        size_t srclen);
/* The built-in profile `name` ("host": the host defaults; case ignored)
 * when it is of kind `kind` (RT_CPU | RT_GPU), copied straight from its
 * image into *out (its texts point into the read-only image): 1, or 0
 * when no built-in of that kind has that name (a user profile or a file
 * may still: rt_profile_find).  Publishes nothing, takes no lock. */
int rt_profile_builtin_into(const char *name, int kind, rt_profile *out);
/* "41.2 ms", "0.9 us", "1.25 s" */
void rt_format_time(char *buf, size_t n, double s);

#endif
