/*
 * probe.h -- what every probe program shares: its size (small for the
 * output comparison, large for the GPU verdict), deterministic data and a
 * checksum.  `prog` runs at the small size; `prog large` at the large one
 * (the harness reads only the verdicts of that run).  The loops here carry
 * labels like the probes' own, for the GPU check; they are not scored.
 */
#ifndef PROBE_H
#define PROBE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* small unless the first argument is "large" */
static inline int probe_large(int argc, char **argv)
{
    return argc > 1 && strcmp(argv[1], "large") == 0;
}

/* Around a call whose pointer arguments overlap, in the large run: the
 * harness allows no GPU verdict between the two marks. */
static inline void probe_overlap_begin(int large) { if (large) fputs("probe: overlap\n", stderr); }
static inline void probe_overlap_end(int large) { if (large) fputs("probe: end\n", stderr); }

/* a[i] = a small pseudo-random value in [0, 1), from a 32-bit LCG */
static inline void probe_fill(double *a, long n, unsigned seed)
{
    unsigned s = seed * 2654435761u + 1u;
    for (long i = 0; i < n; i++) { // V:sequential I:stream
        s = s * 1664525u + 1013904223u;
        a[i] = (double)(s >> 8) / 16777216.0;
    }
}

static inline void probe_fill_int(int *a, long n, unsigned seed, int mod)
{
    unsigned s = seed * 2654435761u + 7u;
    for (long i = 0; i < n; i++) { // V:sequential I:stream
        s = s * 1664525u + 1013904223u;
        a[i] = (int)((s >> 8) % (unsigned)mod);
    }
}

static inline double *probe_alloc(long n)
{
    double *p = calloc((size_t)(n > 0 ? n : 1), sizeof *p);
    if (!p) { fputs("out of memory\n", stderr); exit(1); }
    return p;
}

static inline int *probe_alloc_int(long n)
{
    int *p = calloc((size_t)(n > 0 ? n : 1), sizeof *p);
    if (!p) { fputs("out of memory\n", stderr); exit(1); }
    return p;
}

/* the checksum printed: a weighted sum, so that order errors show */
static inline double probe_sum(const double *a, long n)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        s += a[i] * (double)(1 + i % 7);
    return s;
}

static inline long probe_isum(const int *a, long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) // V:reduction I:reduction
        s += (long)a[i] * (1 + i % 5);
    return s;
}
#endif
