/* seidel-2d.h -- sizes of seidel-2d: TSTEPS in-place Gauss-Seidel sweeps of a 9-point average over an N x N grid. */
#ifndef SEIDEL_2D_H
#define SEIDEL_2D_H

#if defined(MINI_DATASET)
#define TSTEPS 20
#define N 40
#elif defined(SMALL_DATASET)
#define TSTEPS 40
#define N 120
#elif defined(MEDIUM_DATASET)
#define TSTEPS 100
#define N 400
#elif defined(LARGE_DATASET)
#define TSTEPS 500
#define N 2000
#else /* EXTRALARGE_DATASET */
#define TSTEPS 1000
#define N 4000
#endif

#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
