/* gramschmidt.h -- sizes of gramschmidt: A = Q*R, A and Q are M x N (M >= N), R is N x N. */
#ifndef GRAMSCHMIDT_H
#define GRAMSCHMIDT_H

#if defined(MINI_DATASET)
#define M 30
#define N 20
#elif defined(SMALL_DATASET)
#define M 80
#define N 60
#elif defined(MEDIUM_DATASET)
#define M 240
#define N 200
#elif defined(LARGE_DATASET)
#define M 1200
#define N 1000
#else /* EXTRALARGE_DATASET */
#define M 2600
#define N 2000
#endif

#define _PB_M POLYBENCH_LOOP_BOUND(M, m)
#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
