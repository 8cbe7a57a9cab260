/* jacobi-2d.h -- sizes of jacobi-2d: TSTEPS sweeps of a 5-point average over an N x N grid. */
#ifndef JACOBI_2D_H
#define JACOBI_2D_H

#if defined(MINI_DATASET)
#define TSTEPS 20
#define N 30
#elif defined(SMALL_DATASET)
#define TSTEPS 40
#define N 90
#elif defined(MEDIUM_DATASET)
#define TSTEPS 100
#define N 250
#elif defined(LARGE_DATASET)
#define TSTEPS 500
#define N 1300
#else /* EXTRALARGE_DATASET */
#define TSTEPS 1000
#define N 2800
#endif

#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
