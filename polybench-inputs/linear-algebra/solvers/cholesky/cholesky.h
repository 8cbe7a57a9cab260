/* cholesky.h -- sizes of cholesky: A = L*L^T in place, A is N x N symmetric positive definite. */
#ifndef CHOLESKY_H
#define CHOLESKY_H

#if defined(MINI_DATASET)
#define N 40
#elif defined(SMALL_DATASET)
#define N 120
#elif defined(MEDIUM_DATASET)
#define N 400
#elif defined(LARGE_DATASET)
#define N 2000
#else /* EXTRALARGE_DATASET */
#define N 4000
#endif

#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
