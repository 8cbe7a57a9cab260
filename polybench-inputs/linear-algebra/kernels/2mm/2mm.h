/* 2mm.h -- sizes of 2mm: D := alpha*A*B*C + beta*D, A is NI x NK, B is NK x NJ, C is NJ x NL. */
#ifndef KERNEL_2MM_H
#define KERNEL_2MM_H

#if defined(MINI_DATASET)
#define NI 16
#define NJ 18
#define NK 22
#define NL 24
#elif defined(SMALL_DATASET)
#define NI 40
#define NJ 50
#define NK 70
#define NL 80
#elif defined(MEDIUM_DATASET)
#define NI 180
#define NJ 190
#define NK 210
#define NL 220
#elif defined(LARGE_DATASET)
#define NI 800
#define NJ 900
#define NK 1100
#define NL 1200
#else /* EXTRALARGE_DATASET */
#define NI 1600
#define NJ 1800
#define NK 2200
#define NL 2400
#endif

#define _PB_NI POLYBENCH_LOOP_BOUND(NI, ni)
#define _PB_NJ POLYBENCH_LOOP_BOUND(NJ, nj)
#define _PB_NK POLYBENCH_LOOP_BOUND(NK, nk)
#define _PB_NL POLYBENCH_LOOP_BOUND(NL, nl)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
