/* atax.h -- sizes of atax: y := A^T*(A*x), A is M x N. */
#ifndef ATAX_H
#define ATAX_H

#if defined(MINI_DATASET)
#define M 38
#define N 42
#elif defined(SMALL_DATASET)
#define M 116
#define N 124
#elif defined(MEDIUM_DATASET)
#define M 390
#define N 410
#elif defined(LARGE_DATASET)
#define M 1900
#define N 2100
#else /* EXTRALARGE_DATASET */
#define M 1800
#define N 2200
#endif

#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
