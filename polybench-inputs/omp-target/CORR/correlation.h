/* correlation.h -- sizes of correlation: Pearson correlation of M variables over N observations (OpenMP offload). */
#ifndef CORRELATION_H
#define CORRELATION_H

#if defined(MINI_DATASET)
#define M 28
#define N 32
#elif defined(SMALL_DATASET)
#define M 80
#define N 100
#elif defined(MEDIUM_DATASET)
#define M 240
#define N 260
#elif defined(LARGE_DATASET)
#define M 1200
#define N 1400
#else /* EXTRALARGE_DATASET */
#define M 2600
#define N 3000
#endif

#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
