/*
 * model.h -- device profiles and the CPU, GPU and transfer models.
 *
 * Everything here is a pure function over plain structs: no SQLite, no
 * environment, no clock.  The runtime (keelrt.c), `keel explain` and the
 * tests fill an rt_launch (one loop launch with every symbol already bound
 * to its value), pick two profiles (a host CPU and a GPU) and call
 * rt_estimate, which fills an rt_estimate with every term of every model
 * so that the breakdown can be printed.  The equations and their sources
 * are in model.c and in README.md ("The models").
 *
 * Units: seconds, bytes, bytes/s, Hz; cycles are of the device's clock.
 */
#ifndef KEEL_RUNTIME_MODEL_H
#define KEEL_RUNTIME_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "chainops.h"
#include "nest.h"

enum { RT_CPU = 0, RT_GPU = 1 };

/* PMaC-style bandwidth per access pattern (pmac-idioms-accelerators.txt):
 * what `keel calibrate` measures on this host, per pattern and footprint,
 * with one thread and with all of them (issue 12 item 3).  Bytes are moved
 * bytes at cache-line granularity, as the traffic model counts them (a
 * column walk or a gather moves a line per element). */
enum { RT_PAT_UNIT = 0, RT_PAT_STRIDED, RT_PAT_COLUMN, RT_PAT_GATHER, RT_PATTERNS };
#define RT_BW_POINTS 4
/* Thread counts `keel calibrate` measures many threads at (1, 2, 4, ...,
 * all: 12 points reach 2048 threads). */
#define RT_TC_POINTS 12
const char *rt_pattern_name(int p);

/* Latencies of a dependent chain (rt_profile.lat; `keel calibrate`
 * measures them, calib.c): the operations util/chainops.h lists (a double
 * add, multiply, divide; a 64-bit integer add, multiply, divide; a double
 * and an integer compare-and-select), the names the recurrence fact
 * writes, then a store and a load of the same location (store-to-load
 * forwarding). */
enum { RT_LAT_FADD = KU_CHAIN_FADD, RT_LAT_FMUL = KU_CHAIN_FMUL, RT_LAT_FDIV = KU_CHAIN_FDIV,
       RT_LAT_IADD = KU_CHAIN_IADD, RT_LAT_IMUL = KU_CHAIN_IMUL, RT_LAT_IDIV = KU_CHAIN_IDIV,
       RT_LAT_FSEL = KU_CHAIN_FSEL, RT_LAT_ISEL = KU_CHAIN_ISEL,
       RT_LAT_STLF = KU_CHAIN_NOPS, RT_NLAT };

/* A device.  CPU profiles fill the cpu block, GPU profiles the gpu block. */
typedef struct {
    const char *name;          /* "h100", "power9", "host" ... */
    int kind;                  /* RT_CPU | RT_GPU */
    const char *desc;          /* one line for `keel devices` */
    const char *source;        /* where the numbers come from */
    /* ---- CPU (Liao-Chapman parameters, chikin Table II) ---- */
    double freq_hz;            /* core clock */
    int cores;                 /* physical cores (all sockets) */
    int smt;                   /* hardware threads per core (1: no SMT) */
    int sockets;               /* NUMA nodes mem_bw is spread over (0, 1: one) */
    double mem_bw;             /* sustained memory bandwidth, bytes/s (STREAM triad) */
    double line;               /* cache line, bytes */
    double l2, l3;             /* L2 per core, L3 of the whole host, bytes */
    double l1;                 /* L1 data cache per core, bytes (0: no cache-level term) */
    double cpu_mem_lat;        /* DRAM load latency, seconds */
    double mlp;                /* outstanding cache-line misses one core sustains */
    const char *mca_cpu;       /* llvm-mca -mcpu of this CPU ("pwr9"); NULL: any */
    double target_fallback;    /* seconds an OpenMP `target` region costs when the
                                * offload runtime runs it on the host (0: unknown) */
    double page;               /* virtual-memory page the TLB maps, bytes (0: unknown) */
    double tlb_entries;        /* TLB entries of one core (0: no TLB term) */
    double tlb_miss_cycles;    /* cycles one TLB miss costs (chikin Table II) */
    double peak_flops;         /* flop/s, all cores */
    double fork_cycles;        /* Fork_c: parallel startup */
    double join_cycles;        /* Join_c: synchronisation at the end of the region */
    double sched_cycles;       /* Schedule_c: static schedule overhead */
    double loop_overhead;      /* Loop_overhead_per_iter, cycles */
    double lat[RT_NLAT];            /* latencies, cycles, by RT_LAT_* (0: rt_latency's estimate) */
    /* calibrated bandwidth per pattern (keel calibrate; bw_points 0: none) */
    int bw_points, bw_threads;
    double bw_fp[RT_BW_POINTS];                 /* footprints, bytes, ascending */
    double bw_one[RT_PATTERNS][RT_BW_POINTS];   /* one thread, bytes/s */
    double bw_all[RT_PATTERNS][RT_BW_POINTS];   /* bw_threads threads, bytes/s */
    /* what T threads busy at once get (keel calibrate; tc_points 0: not
     * measured): per thread, the dependent-chain clock and independent
     * additions per second; the STREAM triad over the T threads */
    int tc_points;
    double tc_threads[RT_TC_POINTS];   /* T, ascending, the first 1 */
    double tc_clock[RT_TC_POINTS];     /* Hz, the median thread's */
    double tc_work[RT_TC_POINTS];      /* additions / s, the median thread's */
    double tc_bw[RT_TC_POINTS];        /* bytes / s */
    /* ---- GPU (Hong-Kim parameters, chikin Table III) ---- */
    int sms;                   /* streaming multiprocessors */
    double gpu_hz;             /* SM (processor) clock, the Freq of Hong-Kim */
    double gpu_bw;             /* device memory bandwidth, bytes/s */
    double bus_bw;             /* host<->device practical bandwidth, bytes/s (B_bus) */
    int max_warps_sm, max_threads_sm, max_blocks_sm;
    double issue_cycles;       /* cycles to issue one warp instruction */
    double mem_lat;            /* Mem_LD: DRAM access latency, cycles */
    double dep_coal;           /* Departure_del_coal, cycles */
    double dep_uncoal;         /* Departure_del_uncoal, cycles */
    int threads_per_block;     /* what the OpenMP runtime launches */
    int max_blocks;            /* largest grid the OpenMP runtime launches */
    double launch_s;           /* kernel launch + target-region overhead */
    double sector;             /* DRAM access granule of a warp request, bytes (32) */
    double gpu_l2;             /* L2 cache, bytes */
    int schedulers;            /* warp schedulers per SM (warp instructions / cycle) */
    double l1_lat, l2_lat;     /* load latency on an L1 / L2 hit, cycles */
} rt_profile;

const char *rt_lat_name(int k);           /* "fadd" ... "stlf" */
/* The RT_LAT_* whose name is the len bytes at name, or -1. */
int rt_lat_find(const char *name, size_t len);
/* The profile's latency k in cycles, else the estimate (model.c says
 * where each comes from); *estimate 1 then (may be NULL). */
double rt_latency(const rt_profile *p, int k, int *estimate);

/* A recurrence carried by an innermost loop: keelcc's per-loop fact
 * `recurrence` (analysis/recur.h writes it): chains separated by ';',
 * each "READ->WRITE dist=D [fadd=N] [fmul=N] ... [mem] [all]".  The
 * nest's model type (nest.h); ops by RT_LAT_* (KU_CHAIN_*). */
typedef nest_recur rt_recur;
#define RT_MAX_RECUR NEST_MAX_RECUR
/* Parse fact text into at most max chains; the count (unknown keys are
 * skipped, a chain with no distance >= 1 is dropped): nest_recur_parse,
 * the one parser keelcc's model builder and the rows route use. */
int rt_recur_parse(const char *text, rt_recur *out, int max);
/* Rau's recurrence-constrained initiation interval (model.c): the largest
 * over the chains of delay / distance, cycles per iteration of the loop. */
double rt_recur_cycles(const rt_profile *p, const rt_recur *c, int n);

/* Threads a host profile runs by default: cores x smt. */
int rt_profile_threads(const rt_profile *p);

/* ---- machines as data (machines.c) ----------------------------------------
 * A profile is a text of `key = value` lines ('#' starts a comment); values
 * are numbers with an optional unit (3 GHz, 512 KiB, 25 GB/s, 100 ns,
 * 1029 cycles); `source` may repeat.  README.md ("Machines as data") lists
 * the keys.  Parsed profiles own their strings; they live for the process. */
/* Parse text into a new profile (never freed: profiles live for the process);
 * NULL with a message naming the line on error. */
const rt_profile *rt_profile_parse(const char *text, const char *origin, char *err, size_t errlen);
/* Read and parse one profile file. */
const rt_profile *rt_profile_load(const char *path, char *err, size_t errlen);
/* Write p in the text format (what --export prints; parses back to p). */
void rt_profile_write(const rt_profile *p, FILE *out);
/* Folder of users' profiles: $KEEL_MACHINES, else $HOME/.config/keel/machines. */
int rt_machines_dir(char *buf, size_t len);

/* Built-in profiles (model.c, each with its source). */
int rt_profile_count(void);
const rt_profile *rt_profile_at(int i);
/* A built-in name (case-insensitive), a user profile NAME.machine in
 * rt_machines_dir, or a path (containing '/') to a profile file; NULL. */
const rt_profile *rt_profile_find(const char *name);
/* Match a CUDA device name ("NVIDIA H100 80GB HBM3", "Tesla V100-SXM2-16GB")
 * to a GPU profile; NULL when nothing matches. */
const rt_profile *rt_profile_match_gpu(const char *cuda_name);
/* The conservative host defaults used when no calibration is stored. */
const rt_profile *rt_profile_host_default(void);
/* Whether every built-in's build-time image (machines_table.h) is what
 * its text parses to now: 0, or -1 with err naming the first that is not. */
int rt_profile_builtins_agree(char *err, size_t errlen);

/* How neighbouring GPU threads (consecutive values of the iv mapped to
 * threads) address one access. */
typedef enum {
    RT_UNIFORM = 0,     /* the same element for every thread (stride 0) */
    RT_COALESCED,       /* consecutive elements (stride +-1) */
    RT_STRIDED,         /* stride k elements, |k| > 1 */
    RT_IRREGULAR        /* unknown or not affine */
} rt_stride_class;

const char *rt_stride_name(rt_stride_class c);

/* One memory access of the loop body, per GPU work item. */
typedef struct {
    rt_stride_class cls;
    int64_t stride;       /* elements between neighbouring threads (RT_STRIDED) */
    int elem_size;        /* bytes */
    double count;         /* executions per work item */
} rt_access;

#define RT_MAX_ACCESSES 128

/* One loop launch with every value bound. */
typedef struct {
    /* CPU: the OpenMP parallel loop */
    double par_iters;          /* iterations of the parallel loop */
    double cycles_per_iter;    /* Machine_c_per_iter: one parallel iteration, inner loops included */
    double recur_cycles;       /* of cycles_per_iter, what recurrence bounds changed in
                                * llvm-mca's figures (Rau's MII, rt_recur_cycles) */
    int loop_ctl_in_cycles;    /* 1: cycles_per_iter already holds the parallel loop's own
                                * increment, compare and branch (llvm-mca timed the
                                * loop's whole block): no Loop_overhead_c on top */
    /* GPU: the data-parallel kernel */
    double work_items;         /* GPU threads' work items (parallel iterations mapped to threads) */
    double comp_insts;         /* compute (non-memory) warp instructions per work item */
    int naccesses;
    rt_access acc[RT_MAX_ACCESSES];
    /* both */
    double flops;              /* floating-point operations of the whole launch */
    double bytes_in, bytes_out;   /* data the nest reads / writes (footprint) */
    int data_on_device;        /* 1: no transfer (map clauses say the data is there) */
    int not_parallel;          /* 1: no parallel loop to map: the GPU cannot run it */
    int host_sequential;       /* 1: no OpenMP pragma in the nest: on the host it runs
                                * as compiled, on one thread, with no parallel region */
    /* the shared memory-traffic model (facts.c, README "memory traffic") */
    double cpu_bytes;          /* bytes the CPU moves from DRAM: 128/64-byte lines, reuse */
    double gpu_bytes;          /* bytes the GPU moves from DRAM: 32-byte sectors per warp */
    double cpu_bytes_pat[RT_PATTERNS];  /* cpu_bytes by the access's pattern along its
                                         * innermost loop (sums to cpu_bytes) */
    double cpu_hit_bytes[2];   /* bytes of lines a column walk or a gather (a line or more
                                * apart along its innermost moving loop: no stream the
                                * prefetcher follows) gets from L2 ([0]: L1 misses that
                                * hit L2) and from L3 ([1]: L2 misses that hit the cache
                                * a thread has), per step: the traffic model with the
                                * L1's and the L2's capacity (facts.c) less the level's
                                * below (0: the profile has no l1) */
    double tlb_misses;         /* TLB misses of the whole launch per step: the traffic
                                * model counted at page granule, reuse within the TLB's
                                * reach (0: the host profile has no TLB figures) */
    double gpu_chain;          /* dependent memory rounds of one work item (latency) */
    double gpu_lat_cycles;     /* their latency, cycles: each round's slowest access, a
                                * DRAM, L2 or L1 latency by the traffic model (0: use
                                * gpu_chain x Mem_LD) */
    double gpu_lat_max_cycles; /* the chain latency of the longest work item (a
                                * triangular nest's longest row; 0: gpu_lat_cycles) */
    double gpu_dep_cycles;     /* departure delays of those rounds, cycles: Hong-Kim's
                                * Departure_del_coal per coalesced request and
                                * Departure_del_uncoal x transactions per uncoalesced
                                * one that leaves the SM (0: from the access table) */
    double gpu_mem_insts;      /* memory instructions of one work item (registers excluded) */
    /* time-stepped regions: a sequential loop around parallel nests (issue 10.4) */
    double steps;              /* iterations of the sequential loop (1: a plain nest) */
    int omp_target;            /* 1: the kernels are OpenMP `target` regions */
    int target_host_code;      /* 1: built with no offload image (loop fact `offload`
                                * "host"): a target region is host code, no fallback */
    double kernels;            /* parallel nests (kernels) per step */
    char mca_target[32];       /* llvm-mca CPU whose cycles were used ("" none) */
    int mca_exact;             /* 1: that is the host profile's mca_cpu */
    int trip_bounds;           /* loops whose trip count is an upper bound, not an
                                * average (min/max/div of an enclosing loop's
                                * variable): the work modelled is at most this */
    double chunk_cycles_max;   /* Machine_c of the heaviest chunk of schedule(static)
                                * on chunk_threads threads: the inner work evaluated at
                                * the first and last chunk's iterations (facts.c; 0:
                                * not evaluated, cycles_per_iter x chunk applies) */
    int chunk_threads;         /* the threads chunk_cycles_max was bound for */
} rt_launch;

/* Every term of the models, for one launch. */
typedef struct {
    /* CPU: Liao-Chapman (chikin Fig. 3) + roofline */
    int threads;
    double chunk, schedule_times;
    double fork_c, join_c, schedule_c, loop_overhead_c, loop_chunk_c, parallel_for_c;
    double tlb_c;              /* Cache_c's TLB part: one chunk's misses x miss cycles */
    double machine_c;          /* Machine_c_per_iter x Chunk_size of the slowest thread */
    int heaviest_chunk;        /* 1: machine_c is the heaviest chunk's (above the average's) */
    double region_c;           /* Parallel_Region_c */
    double thread_rate;        /* a thread's rate of work with cores_used busy, of one
                                * thread's alone (rt_thread_rate; 1: one thread) */
    double imbalance;          /* the heaviest chunk's work over the average chunk's
                                * (1: even): the TLB and cache-level terms scale too */
    double cpu_compute_s;      /* (Fork_c + Join_c + Schedule_c + Loop_chunk_c /
                                * thread_rate) / freq */
    double cpu_mem_s;          /* bytes / mem_bw */
    double cpu_cache_s;        /* cache-level term: lines a column walk or a gather gets
                                * from L2 and L3, each at the calibrated cost of an
                                * independent load served there (added to the bound) */
    double cache_bw[2];        /* the bandwidths it used: gather at the L2's and at the
                                * thread's cache's footprint, bytes/s */
    double cpu_flop_s;         /* flops / peak_flops (reported, not in the bound) */
    double cpu_s;              /* steps x max(compute, memory) */
    int cores_used;            /* min(threads, cores): SMT threads share a core */
    double smt_share;          /* threads per core: a core runs that many chunks */
    double core_bw;            /* Little's law: mlp x line / latency, bytes/s per core */
    double cpu_bw;             /* min(mem_bw / sockets, cores_used x core_bw) */
    double node_bw;            /* mem_bw / sockets: one node's memory holds the data */
    double cpu_bytes;          /* the traffic model's bytes */
    int cpu_bw_calibrated;     /* 1: memory time from the calibrated per-pattern table */
    double cpu_pat_bw[RT_PATTERNS];     /* the table's bandwidth used per pattern */
    double fallback_s;         /* host fallback of the target regions (profile) */
    /* GPU: Hong-Kim (chikin Figs. 4-5) */
    int tpb;
    double blocks, active_blocks_sm, active_sms, n_warps, rep, omp_rep;
    double coal_insts, uncoal_insts, mem_insts, uncoal_per_mw, total_insts;
    double mem_l_coal, mem_l_uncoal, mem_l, departure_delay;
    double mem_cycles, comp_cycles;
    double load_bytes_per_warp, bw_per_warp;
    double mwp_without_bw, mwp_peak_bw, mwp, cwp_full, cwp;
    int hk_case;               /* 1: MWP == N == CWP; 2: memory bound; 3: compute bound */
    double exec_cycles;
    double hk_kernel_s;        /* Hong-Kim's prediction (reference, not the verdict) */
    /* bound model: max(bandwidth, latency (Little's law), issue) */
    double gpu_bytes, gpu_bw_s;
    double warps_total, waves, gpu_lat_s;
    double gpu_lat_cycles, gpu_dep_cycles;   /* one warp's chain: latency, departures */
    double lat_mwp_without_bw, lat_mwp_peak_bw;   /* Hong-Kim's MWP limits of the chain */
    double lat_mwp;            /* min(MWP_Without_BW, N): the latency bound's (MWP_peak_BW
                                * is the bandwidth bound) */
    double gpu_issue_s;
    const char *gpu_bound;     /* "bandwidth" | "latency" | "issue" */
    double kernel_s, launch_s, gpu_s;   /* gpu_s = steps x (kernels x launch + kernel) */
    /* transfer: boat hull t0 = d / B_bus */
    double xfer_bytes, xfer_s;
    double steps, kernels;
    /* worth it (rt_estimate_all): 1 when gpu_s + xfer_s < cpu_s but the
     * saving does not exceed the launch and transfer time once more */
    int too_small;
} rt_estimate;

/* The heaviest chunk of an OpenMP schedule(static) (no chunk size) of n
 * iterations on t threads, for a work per iteration affine in the
 * iteration's index: w0 the work of iteration 0, w1 that of iteration
 * n - 1.  Chunks of ceil(n / t) iterations in order, the last one the
 * rest (libomp's static schedule; OpenMP 5.2, 11.5.3: "approximately equal
 * in size", at most one per thread); the heaviest is the first or the
 * last, summed exactly (an affine sum is its length x the mean of its
 * ends).  0 when n < 1 or t < 1. */
double rt_static_heaviest_chunk(double n, int t, double w0, double w1);

/* The models.  threads <= 0 means the profile's cores. */
void rt_cpu_model(const rt_profile *cpu, int threads, const rt_launch *in, rt_estimate *out);
void rt_gpu_model(const rt_profile *gpu, const rt_launch *in, rt_estimate *out);
/* One warp-wide memory instruction of access a: its transactions (Hong-Kim's
 * #Uncoal_per_mw when above 1; 128-byte segments) and the bytes it moves. */
void rt_warp_access(const rt_access *a, double *trans, double *bytes);
void rt_xfer_model(const rt_profile *gpu, const rt_launch *in, rt_estimate *out);
/* All three; returns 1 when the GPU is worth it: the saving cpu_s -
 * (gpu_s + xfer_s) exceeds the launch and transfer time (launch_s +
 * xfer_s), else 0 -- with out->too_small set when the GPU is predicted
 * faster by less than that. */
int rt_estimate_all(const rt_profile *cpu, int threads, const rt_profile *gpu,
                    const rt_launch *in, rt_estimate *out);

/* Host calibration (what `keel calibrate` measures and stores). */
typedef struct {
    double freq_hz, mem_bw, peak_flops;
    double fork_ns, join_ns, sched_ns;   /* EPCC-style overheads */
    double target_fallback_ns;           /* host fallback of a `target` region (0: none) */
    double lat[RT_NLAT];                 /* dependent-chain latencies, cycles (0: none) */
    char target_note[200];               /* how it was measured, or why not (not stored) */
    /* last-level TLB (calib_tlb.c; 0: not measured): the page the programs'
     * arrays get, bytes; entries; ns one miss adds to an array walk */
    double page, tlb_entries, tlb_miss_ns;
    char tlb_note[200];                  /* which page applies, or why not measured (not stored) */
    /* the host's caches (calib_cache.c; 0: not read): L1 data and L2 of
     * one core, L3 of the whole host, bytes */
    double l1, l2, l3;
    char cache_note[200];                /* where they were read, or why not (not stored) */
    int cores;
    /* bandwidth per access pattern and footprint (PMaC); bw_points 0: none */
    int bw_points, bw_threads;
    double bw_fp[RT_BW_POINTS];
    double bw_one[RT_PATTERNS][RT_BW_POINTS], bw_all[RT_PATTERNS][RT_BW_POINTS];
    /* what T threads busy at once get (calib_omp.c; tc_points 0: not
     * measured), as rt_profile's tc_* */
    int tc_points;
    double tc_threads[RT_TC_POINTS], tc_clock[RT_TC_POINTS], tc_work[RT_TC_POINTS],
        tc_bw[RT_TC_POINTS];
} rt_calibration;
/* The curve's value at t threads: linear between the measured thread
 * counts, the nearest end's outside them; 0 when n is 0. */
double rt_curve_at(const double *threads, const double *v, int n, double t);
/* A thread's rate of work with `cores` cores busy, relative to one thread
 * alone: tc_work at cores over tc_work at 1 (1 without the curve; at most
 * 1). */
double rt_thread_rate(const rt_profile *cpu, int cores);

/* Bandwidth of pattern p at footprint fp bytes with `cores` cores busy,
 * from the profile's calibrated table (log-linear between the measured
 * footprints, clamped at the ends): min(all threads' figure, cores x one
 * thread's).  0 when the profile has no table. */
double rt_pattern_bw(const rt_profile *cpu, int p, double fp, int cores);
/* A host profile from a calibration (fills *out; strings are static). */
void rt_profile_from_calibration(const rt_calibration *c, rt_profile *out);

#endif
