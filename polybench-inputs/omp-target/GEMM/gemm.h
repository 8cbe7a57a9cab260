/* gemm.h -- sizes of gemm: C := alpha*A*B + beta*C, A is NI x NK, B is NK x NJ (OpenMP offload). */
#ifndef GEMM_H
#define GEMM_H

#if defined(MINI_DATASET)
#define NI 20
#define NJ 25
#define NK 30
#elif defined(SMALL_DATASET)
#define NI 60
#define NJ 70
#define NK 80
#elif defined(MEDIUM_DATASET)
#define NI 200
#define NJ 220
#define NK 240
#elif defined(LARGE_DATASET)
#define NI 1000
#define NJ 1100
#define NK 1200
#else /* EXTRALARGE_DATASET */
#define NI 2000
#define NJ 2300
#define NK 2600
#endif

#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
