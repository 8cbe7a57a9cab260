/* floyd-warshall.h -- sizes of floyd-warshall: all-pairs shortest paths of a graph of N vertices. */
#ifndef FLOYD_WARSHALL_H
#define FLOYD_WARSHALL_H

#if defined(MINI_DATASET)
#define N 60
#elif defined(SMALL_DATASET)
#define N 180
#elif defined(MEDIUM_DATASET)
#define N 500
#elif defined(LARGE_DATASET)
#define N 2800
#else /* EXTRALARGE_DATASET */
#define N 5600
#endif

#define _PB_N POLYBENCH_LOOP_BOUND(N, n)

#ifndef DATA_TYPE
#define DATA_TYPE double
#endif

#endif
