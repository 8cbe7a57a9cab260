/*
 * rank.h -- "what do I port first": every loop nest of a database ranked by
 * the time running it on the GPU would save, for `keel report` (text and
 * JSON) and the first screen of `keel report --html`.  Both print the
 * ranking this one function computes, so they never disagree.
 *
 * A nest is an outermost loop and the loops inside it, numbered N1, N2 ...
 * in file and line order (the numbers and the `nest-K` anchors of the HTML
 * page).  Each is evaluated with the runtime's own models (runtime/sweep.h:
 * rt_facts_bind + rt_estimate_all, what keel_decide runs):
 *   - at the sizes the program really ran: the launch sizes logged in the
 *     decisions table, each as often as it was logged (the table is a
 *     sample: at most 100 rows per site and run);
 *   - else, when nothing was logged for the nest, at the problem size N
 *     (every size symbol = N) the user gives.
 * The saving is the sum over those launches of max(0, cpu - (gpu + xfer))
 * -- the runtime keeps a launch on the CPU where the CPU is faster -- and
 * 0 for a nest that cannot go to the GPU.  Nests with logged launches rank
 * before the others (the program ran them); then by saving, then by
 * predicted CPU time, then by number.
 *
 * When a nest is not worth porting, keel_why says why, as one value of an
 * enum and a detail text (which dependence, which symbol cannot be
 * evaluated, ...).  Reasons keelcc stores for a nest (unknown callee,
 * synchronisation, too small, skipped) come in through one hook,
 * stored_reason() in rank.c; a new reason is a new enum value, its name and
 * its text in keel_why_name / keel_why_text, nothing else.
 */
#ifndef KEEL_CLI_RANK_H
#define KEEL_CLI_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "model.h"

typedef enum {
    KEEL_WHY_NONE = 0,          /* the GPU wins: worth porting */
    KEEL_WHY_CPU_FASTER,        /* parallel and evaluated: the CPU wins at every size */
    KEEL_WHY_TOO_SMALL,         /* the GPU wins only above the sizes ranked at */
    KEEL_WHY_NOT_PARALLEL,      /* a dependence keeps it sequential (detail: which) */
    KEEL_WHY_NOT_EVALUABLE,     /* a bound or size the models cannot evaluate */
    KEEL_WHY_NO_FACTS,          /* no GPU verdict possible: no launch facts stored */
    KEEL_WHY_UNKNOWN_CALLEE,    /* a call whose cost is unknown (stored reason) */
    KEEL_WHY_SYNC,              /* synchronisation inside the nest (stored reason) */
    KEEL_WHY_SKIPPED,           /* keelcc skipped the nest (stored reason: why) */
    KEEL_WHY_COUNT
} keel_why;

/* "gpu-wins", "cpu-faster", "too-small", "not-parallel", "not-evaluable",
 * "no-facts", "unknown-callee", "synchronisation", "skipped": the JSON
 * code and the HTML class of a reason. */
const char *keel_why_name(keel_why w);

/* What the ranking knows of one nest. */
typedef struct {
    int num;                    /* N1, N2 ...: file and line order */
    int64_t loop_id;            /* its outermost loop */
    char *file, *function, *idioms;
    int line, col, nloops;
    int nneed;                  /* size symbols the nest needs (0: fixed sizes) */
    int launches;               /* logged launches evaluated (0: at `size`) */
    long long logged;           /* decisions logged for the nest in all */
    long long size;             /* the size N when launches == 0 */
    int evaluated;              /* the times below are the models' */
    double cpu_s, gpu_s, xfer_s;   /* predicted, summed over the launches */
    double save_s;              /* sum of max(0, cpu - gpu - xfer) when it can go */
    int gpu_launches;           /* launches the GPU wins */
    int xover_status;           /* 1 found, 0 never up to 2^20, -1 not evaluated */
    long long xover;
    keel_why why;
    char detail[320];           /* the why's particulars, "" when none */
    int port_better;            /* a legal mapping keel sees beats the compiled one (bestmap.h) */
    double port_gpu_s;          /* its GPU kernel time at N (the compiled one's when not) */
    char port[600];             /* what to change and what it gives (at N), "" when nothing */
    char *site, *site_why;      /* what keelcc's instrumentation did (loops.site, site_why) */
    char *no_answer;            /* why keel gives no verdict that follows its sizes */
} keel_rank_nest;

typedef struct {
    int n;
    keel_rank_nest *v;          /* in rank order */
    int with_launches;          /* nests ranked at logged launches */
} keel_ranking;

typedef struct {
    const rt_profile *host, *gpu;
    int threads, threads_given;
    long long size;             /* N for nests without logged launches */
    const char *file;           /* NULL, or only nests of files ending in it */
} keel_rank_opts;

/* Rank every nest of d.  0, or -1 with a message (out of memory, database
 * unreadable). */
int keel_rank(db *d, const keel_rank_opts *o, keel_ranking *out, char *err, size_t errlen);
void keel_ranking_free(keel_ranking *r);

/* The verdict word of a nest: "GPU", "CPU" or "unknown" (no model figures
 * to compare). */
const char *keel_rank_verdict(const keel_rank_nest *n);
/* One line saying why a nest is not offloaded ("" when the GPU wins):
 * the reason's text and its detail. */
void keel_why_text(const keel_rank_nest *n, char *buf, size_t len);

/* The crossover of a nest as text: the size, "never", "GPU" (fixed sizes,
 * the GPU wins) or "-" (not evaluated). */
void keel_rank_xover_text(const keel_rank_nest *n, char *buf, size_t len);

/* Where a nest was ranked: "12 launches", "N=1000", "fixed sizes", "-". */
void keel_rank_basis_text(const keel_rank_nest *n, char *buf, size_t len);

/* The predicted CPU and GPU + transfer times and the saving as text, each
 * in a buffer of len bytes ("-" where there is none). */
void keel_rank_times_text(const keel_rank_nest *n, char *cpu, char *gpu, char *save, size_t len);

/* The profiles a report runs on: the GPU profiles of devlist (comma-
 * separated), the host CPU profile (hostname, or this host with the
 * calibration stored in dbpath), the host threads.  Returns -1 to go on,
 * else the exit status after its one-line message. */
#define KEEL_MAXDEV 8
typedef struct {
    const rt_profile *gpus[KEEL_MAXDEV];
    int ndev;
    rt_profile host;
    int host_named;             /* --host named a profile other than this host */
    int threads, threads_given;
} keel_machines;
int keel_machines_pick(const char *dbpath, const char *devlist, const char *hostname,
                       int threads, keel_machines *m);

#endif
