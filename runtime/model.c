/*
 * model.c -- built-in device profiles and the three models (pure functions).
 *
 * CPU: the Liao-Chapman compile-time cost model for OpenMP as used by
 *   Chikin et al. (papers/chikin-cpu-gpu-selection.txt, Fig. 3, Table II),
 *   restricted to one statically scheduled `parallel for` (the only
 *   work-sharing construct our loop nests produce), bounded below by a
 *   memory roofline (roofline-lecture.txt: time >= bytes / bandwidth).
 * GPU: the Hong-Kim MWP/CWP model as given in chikin Figs. 4-5 with its
 *   #OMP_Rep factor (chikin section IV.B), the coalesced / uncoalesced
 *   memory instruction counts coming from per-access stride classes
 *   (chikin IV.C), plus a fixed kernel launch overhead.
 * Transfer: the boat hull model's t0 = d / B_bus (boat-hull-model.txt,
 *   section "data transfers", Tables 2 and 3 for B_bus).
 *
 * Numbers that no paper gives are marked "estimate" where they are set;
 * README.md ("The models") lists the known limits.
 */
#include "model.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

/* ---- profiles ------------------------------------------------------------ */

/* Liao-Chapman overheads, chikin Table II (POWER9, measured with the EPCC
 * micro-benchmarks): Parallel Startup 3000, Synchronization Overhead 4000,
 * Par. Schedule Overhead static 10154, Loop_overhead_per_iter 4 cycles.
 * Profiles without their own measurement reuse them (an assumption). */
#define TABLE2_OVERHEADS .fork_cycles = 3000, .join_cycles = 4000, \
                         .sched_cycles = 10154, .loop_overhead = 4

/* Hong & Kim, ISCA 2009, Table 6 (GTX280): Departure_del_coal 4 and
 * Departure_del_uncoal 10 cycles; no later figure is published for the
 * newer GPUs, so every GPU profile reuses them (an assumption). */
#define HK_DEPARTURE .dep_coal = 4, .dep_uncoal = 10

/* OpenMP offload grid: 128 threads per team and at most 65536 teams
 * (estimate of what clang's libomptarget launches for a plain
 * `teams distribute parallel for`); launch + target-region overhead
 * 10 us (estimate, a few us of cuLaunchKernel plus the runtime's work). */
#define OMP_GRID .threads_per_block = 128, .max_blocks = 65536, .launch_s = 10e-6

static const rt_profile profiles[] = {
    /* ---- CPUs ---- */
    { .name = "power9", .kind = RT_CPU,
      .desc = "IBM POWER9 (AC922 host of Chikin et al.), 20 cores x SMT8",
      .source = "chikin Table II (3 GHz, overheads); 160 threads as in its section IV.E; "
                "bandwidth estimate 200 GB/s (~60% of 2 x 8 DDR4-2666 channels); "
                "peak estimate 20 cores x 3 GHz x 16 flop/cycle",
      .freq_hz = 3e9, .cores = 160, .mem_bw = 200e9, .peak_flops = 960e9,
      TABLE2_OVERHEADS },
    { .name = "q8300", .kind = RT_CPU,
      .desc = "Intel Core 2 Quad Q8300, 4 threads",
      .source = "boat-hull Table 3 (40 GFLOPS, STREAM 4.7 GB/s, 4 threads); 2.5 GHz Intel spec; "
                "overheads of chikin Table II reused",
      .freq_hz = 2.5e9, .cores = 4, .mem_bw = 4.7e9, .peak_flops = 40e9,
      TABLE2_OVERHEADS },
    { .name = "i7-930", .kind = RT_CPU,
      .desc = "Intel Core i7-930 (Nehalem), 8 threads",
      .source = "boat-hull Table 3 (90 GFLOPS, STREAM 12.2 GB/s, 8 threads); 2.8 GHz Intel spec; "
                "overheads of chikin Table II reused",
      .freq_hz = 2.8e9, .cores = 8, .mem_bw = 12.2e9, .peak_flops = 90e9,
      TABLE2_OVERHEADS },
    /* ---- GPUs ---- */
    { .name = "v100", .kind = RT_GPU,
      .desc = "NVIDIA Tesla V100 over NVLink 2 (Chikin et al.)",
      .source = "chikin Table III (84 SMs, 1.53 GHz, 900 GB/s, NVLink 25 GB/s, 64 warps and "
                "2048 threads/SM, issue 1 cycle, memory latency 1029 cycles); 32 blocks/SM "
                "CUDA cc 7.0; departure delays Hong-Kim Table 6",
      .sms = 84, .gpu_hz = 1.53e9, .gpu_bw = 900e9, .bus_bw = 25e9,
      .max_warps_sm = 64, .max_threads_sm = 2048, .max_blocks_sm = 32,
      .issue_cycles = 1, .mem_lat = 1029, HK_DEPARTURE, OMP_GRID },
    { .name = "k80", .kind = RT_GPU,
      .desc = "NVIDIA Tesla K80 (one GK210 of the board) over PCIe 3.0",
      .source = "NVIDIA K80 datasheet (13 SMX per GK210, 875 MHz boost, 240 GB/s per GPU); "
                "CUDA cc 3.7 (64 warps, 2048 threads, 16 blocks/SM); bus 10 GB/s estimate "
                "(practical PCIe 3.0 x16); latency 1029 cycles of chikin Table III reused",
      .sms = 13, .gpu_hz = 0.875e9, .gpu_bw = 240e9, .bus_bw = 10e9,
      .max_warps_sm = 64, .max_threads_sm = 2048, .max_blocks_sm = 16,
      .issue_cycles = 1, .mem_lat = 1029, HK_DEPARTURE, OMP_GRID },
    { .name = "a100", .kind = RT_GPU,
      .desc = "NVIDIA A100 SXM4 40GB over PCIe 4.0",
      .source = "NVIDIA A100 datasheet (108 SMs, 1.41 GHz boost, 1555 GB/s); CUDA cc 8.0 "
                "(64 warps, 2048 threads, 32 blocks/SM); bus 25 GB/s estimate (practical "
                "PCIe 4.0 x16); latency 1029 cycles of chikin Table III reused",
      .sms = 108, .gpu_hz = 1.41e9, .gpu_bw = 1555e9, .bus_bw = 25e9,
      .max_warps_sm = 64, .max_threads_sm = 2048, .max_blocks_sm = 32,
      .issue_cycles = 1, .mem_lat = 1029, HK_DEPARTURE, OMP_GRID },
    { .name = "h100", .kind = RT_GPU,
      .desc = "NVIDIA H100 SXM5 80GB over PCIe 5.0",
      .source = "NVIDIA H100 datasheet (132 SMs, 1.98 GHz boost, 3.35 TB/s); CUDA cc 9.0 "
                "(64 warps, 2048 threads, 32 blocks/SM); bus 50 GB/s estimate (practical "
                "PCIe 5.0 x16); latency 1029 cycles of chikin Table III reused",
      .sms = 132, .gpu_hz = 1.98e9, .gpu_bw = 3350e9, .bus_bw = 50e9,
      .max_warps_sm = 64, .max_threads_sm = 2048, .max_blocks_sm = 32,
      .issue_cycles = 1, .mem_lat = 1029, HK_DEPARTURE, OMP_GRID },
    { .name = "gtx470", .kind = RT_GPU,
      .desc = "NVIDIA GeForce GTX470 (Fermi) of the boat hull paper",
      .source = "boat-hull Table 2 (P_coalesced 95 GB/s, B_bus 5.1 GB/s); NVIDIA spec (14 SMs, "
                "1.215 GHz shader clock); CUDA cc 2.0 (48 warps, 1536 threads, 8 blocks/SM); "
                "issue 2 cycles (16-wide groups); latency 600 cycles estimate",
      .sms = 14, .gpu_hz = 1.215e9, .gpu_bw = 95e9, .bus_bw = 5.1e9,
      .max_warps_sm = 48, .max_threads_sm = 1536, .max_blocks_sm = 8,
      .issue_cycles = 2, .mem_lat = 600, HK_DEPARTURE, OMP_GRID },
    { .name = "gts250", .kind = RT_GPU,
      .desc = "NVIDIA GeForce GTS250 (G92b) of the boat hull paper",
      .source = "boat-hull Table 2 (P_coalesced 56 GB/s, B_bus 2.1 GB/s); NVIDIA spec (16 SMs, "
                "1.836 GHz shader clock); CUDA cc 1.1 (24 warps, 768 threads, 8 blocks/SM); "
                "issue 4 cycles (8 SPs, as GTX280 in Hong-Kim); latency 600 cycles estimate",
      .sms = 16, .gpu_hz = 1.836e9, .gpu_bw = 56e9, .bus_bw = 2.1e9,
      .max_warps_sm = 24, .max_threads_sm = 768, .max_blocks_sm = 8,
      .issue_cycles = 4, .mem_lat = 600, HK_DEPARTURE, OMP_GRID },
};

/* Conservative host defaults when the database holds no calibration: a
 * 2 GHz core, 40 GB/s sustained (a dual-channel DDR5 desktop or a small
 * server; generous so that memory-bound nests are not offloaded on a
 * guess), 16 flop/cycle/core, 8 cores, chikin Table II overheads. */
static const rt_profile host_default = {
    .name = "host", .kind = RT_CPU,
    .desc = "this host (conservative defaults; run `keel calibrate`)",
    .source = "defaults: 2 GHz, 40 GB/s, 16 flop/cycle/core, 8 cores; overheads chikin Table II",
    .freq_hz = 2e9, .cores = 8, .mem_bw = 40e9, .peak_flops = 256e9,
    TABLE2_OVERHEADS
};

int rt_profile_count(void)
{
    return (int)(sizeof profiles / sizeof profiles[0]);
}

const rt_profile *rt_profile_at(int i)
{
    return i >= 0 && i < rt_profile_count() ? &profiles[i] : NULL;
}

const rt_profile *rt_profile_host_default(void)
{
    return &host_default;
}

static int eq_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

const rt_profile *rt_profile_find(const char *name)
{
    if (!name)
        return NULL;
    if (eq_nocase(name, "host"))
        return &host_default;
    for (int i = 0; i < rt_profile_count(); i++)
        if (eq_nocase(name, profiles[i].name))
            return &profiles[i];
    return NULL;
}

const rt_profile *rt_profile_match_gpu(const char *cuda_name)
{
    /* Lower-case the name and drop blanks and dashes: "GeForce GTX 470"
     * -> "geforcegtx470", "Tesla V100-SXM2-16GB" -> "teslav100sxm216gb". */
    char s[256];
    size_t n = 0;
    if (!cuda_name)
        return NULL;
    for (const char *p = cuda_name; *p && n + 1 < sizeof s; p++)
        if (*p != ' ' && *p != '-')
            s[n++] = (char)tolower((unsigned char)*p);
    s[n] = 0;
    static const char *const keys[][2] = {
        { "h100", "h100" }, { "a100", "a100" }, { "v100", "v100" }, { "k80", "k80" },
        { "gtx470", "gtx470" }, { "gts250", "gts250" },
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strstr(s, keys[i][0]))
            return rt_profile_find(keys[i][1]);
    return NULL;
}

void rt_profile_from_calibration(const rt_calibration *c, rt_profile *out)
{
    *out = host_default;
    out->desc = "this host (calibrated by `keel calibrate`)";
    out->source = "keel calibrate: STREAM-triad bandwidth, FMA peak, EPCC-style overheads";
    if (c->freq_hz > 0) out->freq_hz = c->freq_hz;
    if (c->cores > 0) out->cores = c->cores;
    if (c->mem_bw > 0) out->mem_bw = c->mem_bw;
    if (c->peak_flops > 0) out->peak_flops = c->peak_flops;
    /* overheads measured in ns -> cycles of this clock */
    if (c->fork_ns > 0) out->fork_cycles = c->fork_ns * 1e-9 * out->freq_hz;
    if (c->join_ns > 0) out->join_cycles = c->join_ns * 1e-9 * out->freq_hz;
    if (c->sched_ns > 0) out->sched_cycles = c->sched_ns * 1e-9 * out->freq_hz;
}

const char *rt_stride_name(rt_stride_class c)
{
    switch (c) {
    case RT_UNIFORM: return "uniform";
    case RT_COALESCED: return "coalesced";
    case RT_STRIDED: return "strided";
    default: return "irregular";
    }
}

/* ---- CPU ----------------------------------------------------------------- */

/* chikin Fig. 3 (Liao & Chapman [14]) for one statically scheduled
 * `parallel for` with no ordered, reduction, cache or synchronisation
 * construct inside (their Cache_c is replaced by the roofline bound):
 *
 *   Parallel_Region_c = Fork_c + max_i(Thread_i_exe_c) + Join_c
 *   Thread_i_exe_c    = Parallel_for_c
 *   Parallel_for_c    = Schedule_times x (Schedule_c + Loop_chunk_c)
 *   Loop_chunk_c      = Machine_c_per_iter x Chunk_size + Loop_overhead_c
 *   Loop_overhead_c   = Loop_overhead_per_iter x Chunk_size        (Table II: 4)
 *
 * static schedule: Chunk_size = ceil(iters / threads), Schedule_times = 1
 * (the slowest thread gets one chunk of the largest size).  Fork_c is
 * Table II's "Parallel Startup", Join_c its "Synchronization Overhead".
 *
 * Roofline (roofline-lecture.txt): the time is at least the bytes moved
 * over the sustained memory bandwidth, so cpu_s = max(compute, memory).
 *
 * A nest with no OpenMP pragma (in->host_sequential) is not a parallel
 * region on the host: it runs as compiled, so the same equations apply with
 * one thread and Fork_c = Join_c = Schedule_c = 0 -- the CPU alternative a
 * GPU launch must beat is the code as it is, not a parallel version of it. */
void rt_cpu_model(const rt_profile *cpu, int threads, const rt_launch *in, rt_estimate *out)
{
    int t = in->host_sequential ? 1 : threads > 0 ? threads : (cpu->cores > 0 ? cpu->cores : 1);
    double iters = in->par_iters > 0 ? in->par_iters : 0;
    out->threads = t;
    out->chunk = ceil(iters / t);
    out->schedule_times = iters > 0 ? 1 : 0;
    out->fork_c = in->host_sequential ? 0 : cpu->fork_cycles;
    out->join_c = in->host_sequential ? 0 : cpu->join_cycles;
    out->schedule_c = in->host_sequential ? 0 : cpu->sched_cycles;
    out->loop_overhead_c = cpu->loop_overhead * out->chunk;
    out->loop_chunk_c = in->cycles_per_iter * out->chunk + out->loop_overhead_c;
    out->parallel_for_c = out->schedule_times * (out->schedule_c + out->loop_chunk_c);
    out->region_c = out->fork_c + out->parallel_for_c + out->join_c;
    out->cpu_compute_s = out->region_c / cpu->freq_hz;
    out->cpu_mem_s = cpu->mem_bw > 0 ? (in->bytes_in + in->bytes_out) / cpu->mem_bw : 0;
    out->cpu_flop_s = cpu->peak_flops > 0 ? in->flops / cpu->peak_flops : 0;
    out->cpu_s = out->cpu_compute_s > out->cpu_mem_s ? out->cpu_compute_s : out->cpu_mem_s;
}

/* ---- GPU ----------------------------------------------------------------- */

/* Transactions of one warp-wide memory instruction and the bytes it moves
 * (128-byte segments for the count, as in Hong-Kim; a uniform access is
 * one transaction of one 32-byte sector). */
static void warp_access(const rt_access *a, double *trans, double *bytes)
{
    double e = a->elem_size > 0 ? a->elem_size : 8;
    switch (a->cls) {
    case RT_UNIFORM:
        *trans = 1, *bytes = 32;
        return;
    case RT_COALESCED:
        *trans = 1, *bytes = 32 * e;
        return;
    case RT_STRIDED: {
        double k = fabs((double)a->stride);
        double span = 32 * k * e;                  /* bytes the warp spans */
        double t = ceil(span / 128);
        *trans = t < 32 ? t : 32;
        *bytes = span < 32 * 32 ? span : 32 * 32;  /* >= one 32-byte sector per thread */
        if (*bytes < 32 * e)
            *bytes = 32 * e;
        return;
    }
    default:
        *trans = 32, *bytes = 32 * 32;
        return;
    }
}

/* Hong & Kim (ISCA 2009) as in chikin Figs. 4-5, per SM:
 *
 *   #Rep            = #Blocks / (#Active_blocks_per_SM x #Active_SMs)   (rounded up)
 *   #OMP_Rep        = ceil(work_items / (#Blocks x threads_per_block))  (chikin IV.B)
 *   N               = #Active_blocks_per_SM x warps_per_block
 *   Mem_L_Coal      = Mem_LD
 *   Mem_L_Uncoal    = Mem_LD + (#Uncoal_per_mw - 1) x Departure_del_uncoal
 *   Mem_L           = Mem_L_Uncoal x weight_uncoal + Mem_L_Coal x weight_coal
 *   Departure_delay = Departure_del_uncoal x #Uncoal_per_mw x weight_uncoal
 *                     + Departure_del_coal x weight_coal
 *   MWP_Without_BW  = Mem_L / Departure_delay
 *   BW_per_warp     = Freq x Load_bytes_per_warp / Mem_L              (Fig. 5)
 *   MWP_peak_BW     = Mem_Bandwidth / (BW_per_warp x #ActiveSM)        (Fig. 5)
 *   MWP             = min(MWP_Without_BW, MWP_peak_BW, N)              (Fig. 5)
 *   Mem_cycles      = Mem_L_Uncoal x #Uncoal_Mem_insts + Mem_L_Coal x #Coal_Mem_insts
 *   Comp_cycles     = #Issue_cycles x #total_insts
 *   CWP_full        = (Mem_cycles + Comp_cycles) / Comp_cycles         (Fig. 5)
 *   CWP             = min(CWP_full, N)                                 (Fig. 5)
 *
 *   case 1, MWP == N == CWP:
 *     Exec = (Mem_cycles + Comp_cycles + Comp_cycles/#Mem_insts x (MWP-1)) x #Rep x #OMP_Rep
 *   case 2, CWP >= MWP or Comp_cycles > Mem_cycles (memory bound):
 *     Exec = (Mem_cycles x N/MWP + Comp_cycles/#Mem_insts x (MWP-1)) x #Rep x #OMP_Rep
 *   case 3, otherwise (MWP > CWP, compute bound):
 *     Exec = (Mem_L + Comp_cycles x N) x #Rep x #OMP_Rep
 *
 * The case conditions follow Hong-Kim's paper; chikin's Fig. 4 prints the
 * three bodies with the labels "MWP > CWP" and "CWP > MWP" the other way
 * round, which contradicts the memory-/compute-bound reading of both
 * bodies.  #Uncoal_per_mw (transactions per uncoalesced instruction) is
 * the count-weighted mean over the uncoalesced accesses; Load_bytes_per_warp
 * the count-weighted mean bytes of one warp memory instruction.  A body
 * with no memory instruction runs Comp_cycles x N per wave (case 3 with
 * Mem_L = 0). */
void rt_gpu_model(const rt_profile *gpu, const rt_launch *in, rt_estimate *out)
{
    double tpb = gpu->threads_per_block > 0 ? gpu->threads_per_block : 128;
    double wpb = ceil(tpb / 32);
    double items = in->work_items > 0 ? in->work_items : 0;
    out->tpb = (int)tpb;
    out->blocks = ceil(items / tpb);
    if (out->blocks > gpu->max_blocks)
        out->blocks = gpu->max_blocks;
    if (out->blocks < 1)
        out->blocks = 1;
    out->omp_rep = items > 0 ? ceil(items / (out->blocks * tpb)) : 0;
    double occ = gpu->max_blocks_sm;
    if (floor(gpu->max_threads_sm / tpb) < occ) occ = floor(gpu->max_threads_sm / tpb);
    if (floor(gpu->max_warps_sm / wpb) < occ) occ = floor(gpu->max_warps_sm / wpb);
    double per_sm = ceil(out->blocks / gpu->sms);
    out->active_blocks_sm = per_sm < occ ? per_sm : occ;
    out->active_sms = out->blocks < gpu->sms ? out->blocks : gpu->sms;
    out->n_warps = out->active_blocks_sm * wpb;
    out->rep = ceil(out->blocks / (out->active_blocks_sm * out->active_sms));

    double coal = 0, uncoal = 0, uncoal_trans = 0, bytes = 0;
    for (int i = 0; i < in->naccesses && i < RT_MAX_ACCESSES; i++) {
        double t, b, c = in->acc[i].count;
        warp_access(&in->acc[i], &t, &b);
        if (t <= 1)
            coal += c;
        else
            uncoal += c, uncoal_trans += c * t;
        bytes += c * b;
    }
    out->coal_insts = coal;
    out->uncoal_insts = uncoal;
    out->mem_insts = coal + uncoal;
    out->uncoal_per_mw = uncoal > 0 ? uncoal_trans / uncoal : 1;
    out->total_insts = in->comp_insts + out->mem_insts;
    double wu = out->mem_insts > 0 ? uncoal / out->mem_insts : 0, wc = out->mem_insts > 0 ? 1 - wu : 0;
    out->mem_l_coal = gpu->mem_lat;
    out->mem_l_uncoal = gpu->mem_lat + (out->uncoal_per_mw - 1) * gpu->dep_uncoal;
    out->mem_l = out->mem_l_uncoal * wu + out->mem_l_coal * wc;
    out->departure_delay = gpu->dep_uncoal * out->uncoal_per_mw * wu + gpu->dep_coal * wc;
    out->mem_cycles = out->mem_l_uncoal * uncoal + out->mem_l_coal * coal;
    out->comp_cycles = gpu->issue_cycles * out->total_insts;
    out->load_bytes_per_warp = out->mem_insts > 0 ? bytes / out->mem_insts : 0;
    double n = out->n_warps, reps = out->rep * out->omp_rep;
    if (out->mem_insts <= 0) {
        out->mwp_without_bw = out->mwp_peak_bw = out->mwp = n;
        out->bw_per_warp = 0;
        out->cwp_full = out->cwp = n;
        out->hk_case = 3;
        out->exec_cycles = out->comp_cycles * n * reps;
    } else {
        out->mwp_without_bw = out->mem_l / out->departure_delay;
        out->bw_per_warp = gpu->gpu_hz * out->load_bytes_per_warp / out->mem_l;
        out->mwp_peak_bw = gpu->gpu_bw / (out->bw_per_warp * out->active_sms);
        double mwp = out->mwp_without_bw;
        if (out->mwp_peak_bw < mwp) mwp = out->mwp_peak_bw;
        if (n < mwp) mwp = n;
        if (mwp < 1) mwp = 1;
        out->mwp = mwp;
        out->cwp_full = out->comp_cycles > 0 ? (out->mem_cycles + out->comp_cycles) / out->comp_cycles : n;
        out->cwp = out->cwp_full < n ? out->cwp_full : n;
        double per_mem = out->comp_cycles / out->mem_insts;
        if (out->mwp >= n && out->cwp >= n) {
            out->hk_case = 1;
            out->exec_cycles = (out->mem_cycles + out->comp_cycles + per_mem * (out->mwp - 1)) * reps;
        } else if (out->cwp >= out->mwp || out->comp_cycles > out->mem_cycles) {
            out->hk_case = 2;
            out->exec_cycles = (out->mem_cycles * n / out->mwp + per_mem * (out->mwp - 1)) * reps;
        } else {
            out->hk_case = 3;
            out->exec_cycles = (out->mem_l + out->comp_cycles * n) * reps;
        }
    }
    out->kernel_s = out->exec_cycles / gpu->gpu_hz;
    out->launch_s = gpu->launch_s;
    out->gpu_s = out->launch_s + out->kernel_s;
}

/* ---- transfer ------------------------------------------------------------ */

/* boat hull model: t0 = d / B_bus, with d the data copied in plus the data
 * copied out ("a copy-in and a copy-out of all the input and output data
 * over a data bus"); nothing moves when the data is already there. */
void rt_xfer_model(const rt_profile *gpu, const rt_launch *in, rt_estimate *out)
{
    out->xfer_bytes = in->data_on_device ? 0 : in->bytes_in + in->bytes_out;
    out->xfer_s = gpu->bus_bw > 0 ? out->xfer_bytes / gpu->bus_bw : 0;
}

/* chikin IV.D: the model with the lowest predicted time wins. */
int rt_estimate_all(const rt_profile *cpu, int threads, const rt_profile *gpu,
                    const rt_launch *in, rt_estimate *out)
{
    memset(out, 0, sizeof *out);
    rt_cpu_model(cpu, threads, in, out);
    rt_gpu_model(gpu, in, out);
    rt_xfer_model(gpu, in, out);
    return out->gpu_s + out->xfer_s < out->cpu_s;
}
