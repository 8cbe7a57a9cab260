/* heat-3d.h -- sizes of heat-3d: TSTEPS explicit heat-equation steps on an N x N x N grid. */
#ifndef HEAT_3D_H
#define HEAT_3D_H

#if defined(MINI_DATASET)
#define TSTEPS 20
#define N 10
#elif defined(SMALL_DATASET)
#define TSTEPS 40
#define N 20
#elif defined(MEDIUM_DATASET)
#define TSTEPS 100
#define N 40
#elif defined(LARGE_DATASET)
#define TSTEPS 500
#define N 120
#else /* EXTRALARGE_DATASET */
#define TSTEPS 1000
#define N 200
#endif

#define _PB_TSTEPS POLYBENCH_LOOP_BOUND(TSTEPS, tsteps)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
