/* 2DConvolution.h -- sizes of 2DConvolution: 3x3 convolution of an NI x NJ image (OpenMP offload). */
#ifndef KEEL_2DCONVOLUTION_H
#define KEEL_2DCONVOLUTION_H

#if defined(MINI_DATASET)
#define NI 64
#define NJ 64
#elif defined(SMALL_DATASET)
#define NI 256
#define NJ 256
#elif defined(MEDIUM_DATASET)
#define NI 1024
#define NJ 1024
#elif defined(LARGE_DATASET)
#define NI 4096
#define NJ 4096
#else /* EXTRALARGE_DATASET */
#define NI 8192
#define NJ 8192
#endif

#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
