/* nussinov.h -- sizes of nussinov: RNA secondary structure (base-pair maximisation) of a sequence of N bases. */
#ifndef NUSSINOV_H
#define NUSSINOV_H

#if defined(MINI_DATASET)
#define N 60
#elif defined(SMALL_DATASET)
#define N 180
#elif defined(MEDIUM_DATASET)
#define N 500
#elif defined(LARGE_DATASET)
#define N 2500
#else /* EXTRALARGE_DATASET */
#define N 5500
#endif

#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

/* Scores are small integers; a base is one of 0 (A), 1 (C), 2 (G), 3 (U). */
#ifndef DATA_TYPE
#define DATA_TYPE int
#endif
typedef char base;

#endif
