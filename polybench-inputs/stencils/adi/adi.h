/* adi.h -- sizes of adi: TSTEPS alternating-direction implicit steps of 2-D heat diffusion on an N x N grid. */
#ifndef ADI_H
#define ADI_H

#if defined(MINI_DATASET)
#define TSTEPS 20
#define N 20
#elif defined(SMALL_DATASET)
#define TSTEPS 40
#define N 60
#elif defined(MEDIUM_DATASET)
#define TSTEPS 100
#define N 200
#elif defined(LARGE_DATASET)
#define TSTEPS 500
#define N 1000
#else /* EXTRALARGE_DATASET */
#define TSTEPS 1000
#define N 2000
#endif

#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
