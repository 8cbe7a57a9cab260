/* gesummv.h -- sizes of gesummv: y := alpha*A*x + beta*B*x with A, B of N x N (OpenMP offload). */
#ifndef GESUMMV_H
#define GESUMMV_H

#if defined(MINI_DATASET)
#define N 30
#elif defined(SMALL_DATASET)
#define N 90
#elif defined(MEDIUM_DATASET)
#define N 250
#elif defined(LARGE_DATASET)
#define N 1300
#else /* EXTRALARGE_DATASET */
#define N 2800
#endif

#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
