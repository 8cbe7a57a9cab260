/* symm.h -- sizes of symm: C := alpha*A*B + beta*C, A is M x M symmetric, B and C are M x N. */
#ifndef SYMM_H
#define SYMM_H

#if defined(MINI_DATASET)
#define M 20
#define N 30
#elif defined(SMALL_DATASET)
#define M 60
#define N 80
#elif defined(MEDIUM_DATASET)
#define M 200
#define N 240
#elif defined(LARGE_DATASET)
#define M 1000
#define N 1200
#else /* EXTRALARGE_DATASET */
#define M 2000
#define N 2600
#endif

#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
