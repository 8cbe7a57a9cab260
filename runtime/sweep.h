/*
 * sweep.h -- the CPU and GPU (+ transfer) predictions of one loop nest as
 * a function of a problem size, and the crossover: the smallest size at
 * which the GPU with its transfers beats the CPU.  Used by
 * `keel explain --sweep SYM=LO:HI` and `keel report --html`.
 *
 * Only the runtime's public pieces are called: rt_facts_bind (facts.h),
 * then rt_estimate_all (model.h), exactly as keel_decide and keel explain
 * do.  The size is given to one symbol, or with SYM "*" to every extent the
 * nest needs (ni = nj = nk = N: "problem size N"); an offset -- a symbol a
 * trip count falls as it grows, `ist` in `iend - ist + 1` -- keeps the value
 * given with the fixed values, else 1, so a sweep never empties a loop.
 * The other symbols take the fixed values given.
 */
#ifndef KEEL_RUNTIME_SWEEP_H
#define KEEL_RUNTIME_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "facts.h"
#include "model.h"

typedef struct {
    const rt_profile *host;
    const rt_profile *gpu;
    int threads;            /* host threads (> 0) */
    int threads_given;      /* 1: run even a pragma-less nest on `threads` */
    int offload;            /* 0: as keelcc recorded; 1: as if built with an offload
                             * image; 2: with none (target regions are host code) */
    int nfixed;             /* fixed values of other symbols */
    const char *const *names;
    const long long *values;
    const char *sym;        /* the swept symbol, "*" for every extent */
} rt_sweep;

typedef struct {
    long long n;
    double cpu_s, gpu_s, xfer_s;
    double flops, bytes;    /* of the launch, for the roofline */
    double items;           /* GPU work items of the launch (its mapping's threads) */
    int not_parallel;
    const char *serial;     /* not parallel: the loop's label (rt_facts_serial_label), static */
    int gpu_wins;           /* the GPU is worth it (rt_estimate_all) and the nest is parallel */
    int too_small;          /* the GPU is faster, by less than its launch and transfer */
} rt_sweep_point;

/* The row's verdict as every output shows it: "GPU", "CPU", "CPU (too
 * small)", or for a nest that is not parallel "CPU (reduction)", "CPU
 * (sequential)", "CPU (unknown)", "CPU (not parallel)". */
const char *rt_sweep_label(const rt_sweep_point *p);

/* Predictions at size n.  0, or -1 with a message (a symbol missing, a
 * value overflowing). */
int rt_sweep_at(const rt_facts *f, const rt_sweep *s, long long n, rt_sweep_point *out,
                char *err, size_t errlen);

/* The smallest n in [lo, hi] where the GPU wins, searched on powers of two
 * and refined by bisection between the last losing and the first winning
 * power (the curves are monotone in practice; a window where the GPU wins
 * and loses again is reported by its first win).  Returns 1 with *n, 0
 * when the GPU never wins in [lo, hi] (*n = the largest size evaluated),
 * -1 with a message when not even lo can be evaluated. */
int rt_sweep_crossover(const rt_facts *f, const rt_sweep *s, long long lo, long long hi,
                       long long *n, char *err, size_t errlen);

/* keel explain --sweep SYM=LO:HI: parse the spec (SYM may be "*"),
 * then print one row per power of two from LO to HI (and HI) with the CPU,
 * GPU, transfer times and the winner, and the crossover line.  Returns the
 * exit status (0; 1 when the nest cannot be evaluated; 2 for a bad spec),
 * messages in err. */
int rt_sweep_print(const rt_facts *f, rt_sweep *s, const char *spec, FILE *out,
                   char *err, size_t errlen);

#endif
