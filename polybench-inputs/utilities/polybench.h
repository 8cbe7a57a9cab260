/*
 * polybench.h -- keel's own PolyBench-style harness.
 *
 * Written for keel from PolyBench/C's documented conventions (names and
 * structure only): array parameters are spelled with POLYBENCH_nD(...), arrays
 * are allocated on the heap with POLYBENCH_nD_ARRAY_DECL, loop bounds use the
 * _PB_X macros of each kernel header, and the dataset is picked with
 * -DMINI_DATASET, -DSMALL_DATASET, -DMEDIUM_DATASET, -DLARGE_DATASET or
 * -DEXTRALARGE_DATASET (LARGE when none is given, as in PolyBench).
 *
 * Instead of dumping whole arrays, every program prints one checksum line per
 * output array ("name checksum: <value>") so that two builds of a program can
 * be compared exactly.  -DPOLYBENCH_TIME prints the kernel time on stderr;
 * -DPOLYBENCH_OFFLOAD_WARMUP (with -fopenmp) starts the offload device before
 * the timer, so a GPU time holds no device start-up.
 */
#ifndef KEEL_POLYBENCH_H
#define KEEL_POLYBENCH_H

#include <stddef.h>

#if !defined(MINI_DATASET) && !defined(SMALL_DATASET) && !defined(MEDIUM_DATASET) \
    && !defined(LARGE_DATASET) && !defined(EXTRALARGE_DATASET)
#define LARGE_DATASET
#endif

/* Loop bounds: the runtime size parameter (PolyBench's default). */
#define POLYBENCH_LOOP_BOUND(x, y) y

/* Array parameters of fixed, compile-time extents. */
#define POLYBENCH_1D(var, d1, dd1) var[d1]
#define POLYBENCH_2D(var, d1, d2, dd1, dd2) var[d1][d2]
#define POLYBENCH_3D(var, d1, d2, d3, dd1, dd2, dd3) var[d1][d2][d3]

/* Heap arrays: a pointer to the whole array; POLYBENCH_ARRAY(x) is the array. */
#define POLYBENCH_1D_ARRAY_DECL(var, type, d1, dd1) \
    type (*var)[d1] = (type (*)[d1])polybench_alloc_data((size_t)(d1), sizeof(type))
#define POLYBENCH_2D_ARRAY_DECL(var, type, d1, d2, dd1, dd2) \
    type (*var)[d1][d2] = (type (*)[d1][d2])polybench_alloc_data((size_t)(d1) * (d2), sizeof(type))
#define POLYBENCH_3D_ARRAY_DECL(var, type, d1, d2, d3, dd1, dd2, dd3) \
    type (*var)[d1][d2][d3] = (type (*)[d1][d2][d3])polybench_alloc_data((size_t)(d1) * (d2) * (d3), sizeof(type))
#define POLYBENCH_ARRAY(x) (*x)
#define POLYBENCH_FREE_ARRAY(x) polybench_free_data((void *)(x))

/* Kernel timing (only with -DPOLYBENCH_TIME). */
#define polybench_start_instruments polybench_timer_start()
#define polybench_stop_instruments polybench_timer_stop()
#define polybench_print_instruments polybench_timer_print()

/* Checksum of n doubles, printed as "<name> checksum: %.12e" on stdout. */
#define POLYBENCH_CHECKSUM(name, arr, count) \
    polybench_print_checksum(name, (const double *)(arr), (size_t)(count))

void *polybench_alloc_data(size_t count, size_t elem_size);
void polybench_free_data(void *p);
void polybench_timer_start(void);
void polybench_timer_stop(void);
void polybench_timer_print(void);
double polybench_checksum(const double *data, size_t count);
void polybench_print_checksum(const char *name, const double *data, size_t count);

#endif
