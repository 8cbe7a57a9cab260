/* 3DConvolution.h -- sizes of 3DConvolution: 3x3x3 convolution of an NI x NJ x NK volume (OpenMP offload). */
#ifndef KEEL_3DCONVOLUTION_H
#define KEEL_3DCONVOLUTION_H

#if defined(MINI_DATASET)
#define NI 16
#define NJ 16
#define NK 16
#elif defined(SMALL_DATASET)
#define NI 48
#define NJ 48
#define NK 48
#elif defined(MEDIUM_DATASET)
#define NI 128
#define NJ 128
#define NK 128
#elif defined(LARGE_DATASET)
#define NI 256
#define NJ 256
#define NK 256
#else /* EXTRALARGE_DATASET */
#define NI 384
#define NJ 384
#define NK 384
#endif

#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
