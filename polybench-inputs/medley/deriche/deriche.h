/* deriche.h -- sizes of deriche: recursive Deriche edge filter of a W x H image. */
#ifndef DERICHE_H
#define DERICHE_H

#if defined(MINI_DATASET)
#define W 64
#define H 64
#elif defined(SMALL_DATASET)
#define W 192
#define H 128
#elif defined(MEDIUM_DATASET)
#define W 720
#define H 480
#elif defined(LARGE_DATASET)
#define W 4096
#define H 2160
#else /* EXTRALARGE_DATASET */
#define W 7680
#define H 4320
#endif

#define _PB_W POLYBENCH_LOOP_BOUND(W, w)
#define _PB_H POLYBENCH_LOOP_BOUND(H, h)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
