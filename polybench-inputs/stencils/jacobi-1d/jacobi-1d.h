/* jacobi-1d.h -- sizes of jacobi-1d: TSTEPS sweeps of a 3-point average over a 1-D array of N points. */
#ifndef JACOBI_1D_H
#define JACOBI_1D_H

#if defined(MINI_DATASET)
#define TSTEPS 20
#define N 30
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
