/*
 * test_model.c -- the CPU, GPU and transfer models against values computed
 * by hand (each hand computation is in the comment above its checks), the
 * built-in profiles, and the verdict for gemm-like and gesummv-like
 * launches built by hand from the kernels' sizes.
 */
#define _POSIX_C_SOURCE 200809L   /* fmemopen */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "facts.h"
#include "history.h"
#include "model.h"
#include "rt.h"

/* |got - want| within 1e-9 relative (or 1e-12 absolute near 0) */
#define NEAR(got, want) CHECK(fabs((double)(got) - (double)(want)) <= \
                              1e-9 * fabs((double)(want)) + 1e-12)

static void test_profiles(void)
{
    const rt_profile *v = rt_profile_find("V100"), *h = rt_profile_find("h100");
    CHECK(v && v->kind == RT_GPU);
    /* chikin Table III */
    CHECK_INT(v->sms, 84);
    NEAR(v->gpu_hz, 1.53e9);
    NEAR(v->gpu_bw, 900e9);
    NEAR(v->bus_bw, 25e9);
    NEAR(v->mem_lat, 1029);
    CHECK_INT(v->max_warps_sm, 64);
    /* chikin Table II */
    const rt_profile *p = rt_profile_find("power9");
    CHECK(p && p->kind == RT_CPU);
    NEAR(p->freq_hz, 3e9);
    NEAR(p->fork_cycles, 3000);
    NEAR(p->join_cycles, 4000);
    NEAR(p->sched_cycles, 10154);
    NEAR(p->loop_overhead, 4);
    /* AC922: 2 x 20 cores x SMT4; llvm-mca's pwr9 */
    CHECK_INT(p->cores, 40);
    CHECK_INT(p->smt, 4);
    CHECK_INT(rt_profile_threads(p), 160);
    CHECK_STR(p->mca_cpu, "pwr9");
    NEAR(p->line, 128);
    CHECK_STR(rt_profile_find("power8")->mca_cpu, "pwr8");
    CHECK_INT(rt_profile_threads(rt_profile_find("power8")), 160);
    CHECK(rt_profile_find("xeon-8480") && rt_profile_find("xeon-8480")->kind == RT_CPU);
    CHECK(rt_profile_find("h100-pcie") && rt_profile_find("h100-pcie")->sms == 114);
    NEAR(v->sector, 32);
    NEAR(v->gpu_l2, 6 * 1048576.0);
    /* boat hull Tables 2 and 3 */
    NEAR(rt_profile_find("gtx470")->bus_bw, 5.1e9);
    NEAR(rt_profile_find("gts250")->bus_bw, 2.1e9);
    NEAR(rt_profile_find("q8300")->mem_bw, 4.7e9);
    NEAR(rt_profile_find("i7-930")->peak_flops, 90e9);
    CHECK(rt_profile_find("k80") && rt_profile_find("a100") && h);
    CHECK(rt_profile_find("nonesuch") == NULL);
    CHECK_STR(rt_profile_find("HOST")->name, "host");
    /* CUDA names */
    CHECK(rt_profile_match_gpu("NVIDIA H100 80GB HBM3") == h);
    CHECK(rt_profile_match_gpu("Tesla V100-SXM2-16GB") == v);
    CHECK(rt_profile_match_gpu("Tesla K80") == rt_profile_find("k80"));
    CHECK(rt_profile_match_gpu("NVIDIA A100-SXM4-40GB") == rt_profile_find("a100"));
    CHECK(rt_profile_match_gpu("GeForce GTX 470") == rt_profile_find("gtx470"));
    CHECK(rt_profile_match_gpu("Radeon") == NULL);
}

/* A built-in copied straight from its image (the runtime's set-up) is the
 * profile lookup publishes, texts and all; other kinds, other names,
 * files and the calibrated host are not built-ins of that kind. */
static void test_profile_into(void)
{
    rt_profile g, c;
    memset(&g, 0x5a, sizeof g);
    CHECK_INT(rt_profile_builtin_into("H100", RT_GPU, &g), 1);
    CHECK(memcmp(&g, rt_profile_find("h100"), sizeof g) == 0);
    CHECK_STR(g.name, "h100");
    CHECK_INT(g.sms, 132);
    CHECK_INT(rt_profile_builtin_into("host", RT_CPU, &c), 1);
    CHECK(memcmp(&c, rt_profile_host_default(), sizeof c) == 0);
    CHECK_STR(c.name, "host");
    NEAR(c.freq_hz, 2e9);
    CHECK(c.mca_cpu == NULL);
    CHECK_INT(rt_profile_builtin_into("power9", RT_CPU, &c), 1);
    CHECK_STR(c.mca_cpu, "pwr9");
    CHECK_INT(rt_profile_builtin_into("h100", RT_CPU, &c), 0);
    CHECK_INT(rt_profile_builtin_into("host", RT_GPU, &g), 0);
    CHECK_INT(rt_profile_builtin_into("power9", RT_GPU, &g), 0);
    CHECK_INT(rt_profile_builtin_into("nonesuch", RT_GPU, &g), 0);
    CHECK_INT(rt_profile_builtin_into("h10", RT_GPU, &g), 0);
    CHECK_INT(rt_profile_builtin_into("./h100", RT_GPU, &g), 0);
    CHECK_INT(rt_profile_builtin_into("", RT_GPU, &g), 0);
    CHECK_STR(g.name, "h100");    /* (a refusal leaves *out as it was) */
}

static void test_cpu(void)
{
    const rt_profile *host = rt_profile_host_default();   /* 2 GHz, 40 GB/s */
    rt_launch in = { 0 };
    rt_estimate e = { 0 };
    /* 1000 iterations, 100 cycles each, 4 threads, 8 MB read:
     *   Chunk_size = 1000/4 = 250, Schedule_times = 1
     *   Loop_overhead_c = 4 x 250 = 1000
     *   Loop_chunk_c = 100 x 250 + 1000 = 26000
     *   Parallel_for_c = 1 x (10154 + 26000) = 36154
     *   Parallel_Region_c = 3000 + 36154 + 4000 = 43154 cycles
     *   compute = 43154 / 2e9 = 21.577 us
     *   bandwidth: Little's law per core 12 lines x 64 B / 90 ns
     *   = 8.5333 GB/s, x 4 cores = 34.133 GB/s < 40 GB/s
     *   memory = 8e6 / 34.133e9 = 8e6 x 90e-9 / 3072 = 234.375 us
     *   cpu = max = 234.375 us (memory bound) */
    in.par_iters = 1000;
    in.cycles_per_iter = 100;
    in.bytes_in = 8e6;
    rt_cpu_model(host, 4, &in, &e);
    CHECK_INT(e.threads, 4);
    NEAR(e.chunk, 250);
    NEAR(e.loop_overhead_c, 1000);
    NEAR(e.loop_chunk_c, 26000);
    NEAR(e.parallel_for_c, 36154);
    NEAR(e.region_c, 43154);
    NEAR(e.cpu_compute_s, 21.577e-6);
    NEAR(e.core_bw, 12 * 64 / 90e-9);
    NEAR(e.cpu_bw, 4 * 12 * 64 / 90e-9);
    NEAR(e.cpu_mem_s, 234.375e-6);
    NEAR(e.cpu_s, 234.375e-6);
    /* with the traffic model's bytes instead of the footprint */
    in.cpu_bytes = 3072;
    rt_cpu_model(host, 4, &in, &e);
    NEAR(e.cpu_mem_s, 90e-9);
    in.cpu_bytes = 0;
    /* 3 threads, no bytes: chunk ceil(1000/3) = 334, overhead 1336,
     * chunk cycles 33400 + 1336 = 34736, for 44890, region 51890 cycles
     * = 25.945 us, compute bound */
    in.bytes_in = 0;
    rt_cpu_model(host, 3, &in, &e);
    NEAR(e.chunk, 334);
    NEAR(e.region_c, 51890);
    NEAR(e.cpu_s, 25.945e-6);
    /* the same with the 100 cycles from llvm-mca's whole block (its
     * increment, compare and branch included): no Loop_overhead_c,
     * chunk cycles 33400, for 43554, region 50554 cycles = 25.277 us */
    in.loop_ctl_in_cycles = 1;
    rt_cpu_model(host, 3, &in, &e);
    NEAR(e.loop_overhead_c, 0);
    NEAR(e.loop_chunk_c, 33400);
    NEAR(e.region_c, 50554);
    NEAR(e.cpu_s, 25.277e-6);
    in.loop_ctl_in_cycles = 0;
    /* threads <= 0: the profile's cores x smt (power9: 40 x 4 = 160);
     * 1000/160 -> chunk 7; SMT: 4 threads share each of 40 cores, so a core
     * runs 4 chunks: Loop_chunk_c = (100 x 7 + 4 x 7) x 4 = 2912,
     * region = 3000 + 10154 + 2912 + 4000 = 20066 cycles = 6.6887 us */
    rt_cpu_model(rt_profile_find("power9"), 0, &in, &e);
    CHECK_INT(e.threads, 160);
    NEAR(e.chunk, 7);
    CHECK_INT(e.cores_used, 40);
    NEAR(e.smt_share, 4);
    NEAR(e.loop_chunk_c, 2912);
    NEAR(e.region_c, 20066);
    /* 20 threads on power9: 20 cores, no sharing: chunk 50,
     * Loop_chunk_c = 100 x 50 + 200 = 5200; power9 Little: 16 x 128 B /
     * 100 ns = 20.48 GB/s per core x 20 = 409.6 GB/s; the built-in states
     * no sockets (one node): mem_bw 200 GB/s; a profile that states 2
     * sockets has the data in one of them (first touch): 200 / 2 = 100 */
    in.bytes_in = 8e6;
    rt_cpu_model(rt_profile_find("power9"), 20, &in, &e);
    NEAR(e.smt_share, 1);
    NEAR(e.loop_chunk_c, 5200);
    NEAR(e.node_bw, 200e9);
    NEAR(e.cpu_bw, 200e9);
    NEAR(e.cpu_mem_s, 40e-6);
    rt_profile p9s = *rt_profile_find("power9");
    p9s.sockets = 2;
    rt_cpu_model(&p9s, 20, &in, &e);
    NEAR(e.node_bw, 100e9);
    NEAR(e.cpu_bw, 100e9);
    NEAR(e.cpu_mem_s, 80e-6);
    /* 4 threads: Little 4 x 20.48 = 81.92 GB/s < 100 GB/s */
    rt_cpu_model(&p9s, 4, &in, &e);
    NEAR(e.cpu_bw, 81.92e9);
    /* a time-stepped region: 10 steps of 3 kernels: fork, join and
     * schedule per kernel, all of it per step:
     * region = 3 x (3000 + 10154 + 4000) + 5200 = 56662 cycles = 18.887 us
     * per step, memory 80 us per step (two sockets) -> 10 x 80 us = 800 us */
    in.steps = 10, in.kernels = 3;
    rt_cpu_model(&p9s, 20, &in, &e);
    NEAR(e.region_c, 56662);
    NEAR(e.cpu_s, 800e-6);
    in.steps = 0, in.kernels = 0, in.bytes_in = 0;
    /* an OpenMP target region run on the host pays the profile's measured
     * host fallback per kernel and step.  One thread at 3 GHz: 1000
     * iterations of 100 cycles: (100 x 1000 + 4 x 1000) + 3000 + 10154 +
     * 4000 = 121154 cycles = 40.385 us; 2 steps x (40.385 us + 1 ms) */
    char err[128];
    const rt_profile *fb = rt_profile_parse("name = fb\nkind = cpu\nclock = 3 GHz\ncores = 1\n"
                                            "mem_bw = 1 GB/s\nfork = 3000 cycles\njoin = 4000 cycles\n"
                                            "schedule = 10154 cycles\nloop_overhead = 4 cycles\n"
                                            "target_fallback = 1 ms\n", "t", err, sizeof err);
    CHECK(fb != NULL);
    if (fb) {
        rt_launch tl = { .par_iters = 1000, .cycles_per_iter = 100, .omp_target = 1, .steps = 2 };
        rt_cpu_model(fb, 1, &tl, &e);
        NEAR(e.region_c, 121154);
        NEAR(e.fallback_s, 1e-3);
        NEAR(e.cpu_s, 2 * (121154 / 3e9 + 1e-3));
        tl.omp_target = 0;
        rt_cpu_model(fb, 1, &tl, &e);
        NEAR(e.cpu_s, 2 * (121154 / 3e9));
    }
    /* Liao-Chapman's Cache_c, TLB part (chikin Fig. 3, Table II): 1000
     * iterations of 100 cycles, 2000 TLB misses in the launch, 14 cycles a
     * miss, 4 threads on 4 cores at 3 GHz:
     *   Chunk_size = 250, Tlb_c = 2000 / 1000 x 250 x 14 = 7000 cycles
     *   Loop_chunk_c = 100 x 250 + 7000 + 4 x 250 = 33000
     *   Parallel_Region_c = 3000 + 10154 + 33000 + 4000 = 50154 cycles
     * on 2 cores (SMT share 2) the chunk's cycles run twice: 66000, region
     * 83154; with no TLB figures the term is 0 */
    const rt_profile *tl = rt_profile_parse("name = tlbhost\nkind = cpu\nclock = 3 GHz\ncores = 4\n"
                                            "mem_bw = 1 GB/s\nfork = 3000 cycles\njoin = 4000 cycles\n"
                                            "schedule = 10154 cycles\nloop_overhead = 4 cycles\n"
                                            "page = 64 KiB\ntlb_entries = 1024\ntlb_miss = 14 cycles\n",
                                            "t", err, sizeof err);
    CHECK(tl != NULL);
    if (tl) {
        NEAR(tl->page, 65536);
        NEAR(tl->tlb_entries, 1024);
        NEAR(tl->tlb_miss_cycles, 14);
        rt_launch tm = { .par_iters = 1000, .cycles_per_iter = 100, .tlb_misses = 2000 };
        rt_cpu_model(tl, 4, &tm, &e);
        NEAR(e.tlb_c, 7000);
        NEAR(e.loop_chunk_c, 33000);
        NEAR(e.region_c, 50154);
        rt_cpu_model(tl, 8, &tm, &e);     /* 8 threads on 4 cores: chunk 125, share 2 */
        NEAR(e.tlb_c, 3500);
        NEAR(e.loop_chunk_c, (100 * 125 + 3500 + 4 * 125) * 2);
        rt_cpu_model(host, 4, &tm, &e);   /* no TLB figures */
        NEAR(e.tlb_c, 0);
    }
    NEAR(rt_profile_find("power9")->tlb_entries, 1024);   /* chikin Table II */
    NEAR(rt_profile_find("power9")->tlb_miss_cycles, 14);
    NEAR(rt_profile_find("power9")->page, 65536);
    /* No OpenMP pragma: the host runs the nest as compiled, one thread and
     * no parallel region, whatever threads are asked for.  gemm's init nest
     * at MINI: 20 iterations of 675 cycles:
     *   Chunk_size = 20, Loop_overhead_c = 4 x 20 = 80
     *   Loop_chunk_c = 675 x 20 + 80 = 13580 = Parallel_for_c (Schedule_c 0)
     *   Parallel_Region_c = 0 + 13580 + 0 = 13580 cycles = 6.79 us at 2 GHz */
    rt_launch seq = { .par_iters = 20, .cycles_per_iter = 675, .host_sequential = 1 };
    rt_cpu_model(host, 4, &seq, &e);
    CHECK_INT(e.threads, 1);
    NEAR(e.fork_c, 0);
    NEAR(e.join_c, 0);
    NEAR(e.schedule_c, 0);
    NEAR(e.loop_chunk_c, 13580);
    NEAR(e.region_c, 13580);
    NEAR(e.cpu_s, 6.79e-6);
}

static void test_gpu(void)
{
    const rt_profile *v = rt_profile_find("v100");
    rt_launch in = { 0 };
    rt_estimate e = { 0 };
    /* Case 2 (memory bound).  V100, 1e6 work items, 100 compute insts,
     * one coalesced access (8 B) x10 and one strided(100) access x10:
     *   blocks = ceil(1e6/128) = 7813; #OMP_Rep = ceil(1e6/(7813*128)) = 1
     *   blocks/SM = min(32, 2048/128, 64/4, ceil(7813/84) = 94) = 16
     *   N = 16 x 4 = 64 warps; active SMs 84; #Rep = ceil(7813/1344) = 6
     *   strided(100): 32*100*8 = 25600 B -> 200 segments -> 32 trans.
     *   #Coal 10, #Uncoal 10, #Uncoal_per_mw 32, #Mem_insts 20, total 120
     *   Mem_L_Uncoal = 1029 + 31*10 = 1339; Mem_L = (1339 + 1029)/2 = 1184
     *   Departure_delay = 10*32*0.5 + 4*0.5 = 162
     *   Mem_cycles = 1339*10 + 1029*10 = 23680; Comp_cycles = 120
     *   Load_bytes_per_warp = (10*256 + 10*1024)/20 = 640
     *   MWP_Without_BW = 1184/162 = 7.308642
     *   BW_per_warp = 1.53e9*640/1184; MWP_peak_BW = 900e9/(BW*84) = 12.955
     *   MWP = 7.308642; CWP_full = 23800/120 = 198.33, CWP = 64
     *   CWP >= MWP: Exec = (23680*64/MWP + 120/20*(MWP-1)) * 6
     *                    = (23680*10368/1184 + 6*6.308642) * 6
     *                    = (207360 + 37.851852) * 6 = 1244387.111 cycles
     *   kernel = Exec / 1.53e9; gpu = kernel + 10 us */
    in.work_items = 1e6;
    in.comp_insts = 100;
    in.naccesses = 2;
    in.acc[0] = (rt_access){ RT_COALESCED, 1, 8, 10 };
    in.acc[1] = (rt_access){ RT_STRIDED, 100, 8, 10 };
    rt_gpu_model(v, &in, &e);
    NEAR(e.blocks, 7813);
    NEAR(e.omp_rep, 1);
    NEAR(e.active_blocks_sm, 16);
    NEAR(e.n_warps, 64);
    NEAR(e.rep, 6);
    NEAR(e.coal_insts, 10);
    NEAR(e.uncoal_insts, 10);
    NEAR(e.uncoal_per_mw, 32);
    NEAR(e.mem_l_uncoal, 1339);
    NEAR(e.mem_l, 1184);
    NEAR(e.departure_delay, 162);
    NEAR(e.mem_cycles, 23680);
    NEAR(e.comp_cycles, 120);
    NEAR(e.load_bytes_per_warp, 640);
    NEAR(e.mwp_without_bw, 1184.0 / 162);
    NEAR(e.bw_per_warp, 1.53e9 * 640 / 1184);
    NEAR(e.mwp_peak_bw, 900e9 / (1.53e9 * 640 / 1184 * 84));
    NEAR(e.mwp, 1184.0 / 162);
    NEAR(e.cwp, 64);
    CHECK_INT(e.hk_case, 2);
    NEAR(e.exec_cycles, (207360 + 6 * (1184.0 / 162 - 1)) * 6);
    NEAR(e.hk_kernel_s, (207360 + 6 * (1184.0 / 162 - 1)) * 6 / 1.53e9);

    /* Case 1 (MWP == N == CWP).  256 work items, 50 insts, one coalesced
     * 4-byte access x5:  blocks 2, blocks/SM 1, active SMs 2, N = 4,
     * #Rep 1; Mem_cycles = 5*1029 = 5145, Comp_cycles = 55,
     * MWP = min(1029/4, ..., 4) = 4, CWP = min(5200/55, 4) = 4:
     * Exec = 5145 + 55 + 55/5*(4-1) = 5233 cycles */
    memset(&in, 0, sizeof in);
    in.work_items = 256;
    in.comp_insts = 50;
    in.naccesses = 1;
    in.acc[0] = (rt_access){ RT_COALESCED, 1, 4, 5 };
    rt_gpu_model(v, &in, &e);
    NEAR(e.blocks, 2);
    NEAR(e.active_sms, 2);
    NEAR(e.n_warps, 4);
    NEAR(e.mwp, 4);
    NEAR(e.cwp, 4);
    CHECK_INT(e.hk_case, 1);
    NEAR(e.exec_cycles, 5233);
    NEAR(e.hk_kernel_s, 5233 / 1.53e9);

    /* Case 3 (compute bound).  1e6 items, one coalesced 4-byte access x1,
     * 1028 compute insts: Mem_cycles = 1029 = Comp_cycles (not greater),
     * CWP_full = 2; BW_per_warp = 1.53e9*128/1029, MWP_peak_BW =
     * 900e9/(BW*84) = 56.30 < 1029/4 -> MWP = 56.30 > CWP = 2:
     * Exec = (Mem_L + Comp*N) * #Rep = (1029 + 1029*64) * 6 = 401310 */
    memset(&in, 0, sizeof in);
    in.work_items = 1e6;
    in.comp_insts = 1028;
    in.naccesses = 1;
    in.acc[0] = (rt_access){ RT_COALESCED, 1, 4, 1 };
    rt_gpu_model(v, &in, &e);
    NEAR(e.cwp, 2);
    NEAR(e.mwp, 900e9 / (1.53e9 * 128 / 1029 * 84));
    CHECK_INT(e.hk_case, 3);
    NEAR(e.exec_cycles, 401310);

    /* #OMP_Rep: 3 x 65536 x 128 items; the grid stops at 65536 blocks, so
     * each thread runs 3 iterations; #Rep = ceil(65536/(16*84)) = 49 */
    in.work_items = 3.0 * 65536 * 128;
    rt_gpu_model(v, &in, &e);
    NEAR(e.blocks, 65536);
    NEAR(e.omp_rep, 3);
    NEAR(e.rep, 49);

    /* stride classes: uniform and coalesced are one transaction; strided(2)
     * of doubles spans 512 B = 4 segments (uncoalesced, 4 per warp);
     * irregular is 32 */
    memset(&in, 0, sizeof in);
    in.work_items = 128;
    in.naccesses = 4;
    in.acc[0] = (rt_access){ RT_UNIFORM, 0, 8, 1 };
    in.acc[1] = (rt_access){ RT_COALESCED, 1, 8, 1 };
    in.acc[2] = (rt_access){ RT_STRIDED, 2, 8, 1 };
    in.acc[3] = (rt_access){ RT_IRREGULAR, 0, 8, 1 };
    rt_gpu_model(v, &in, &e);
    NEAR(e.coal_insts, 2);
    NEAR(e.uncoal_insts, 2);
    NEAR(e.uncoal_per_mw, (4 + 32) / 2.0);
    /* bytes: 32 + 256 + 512 + 1024 = 1824 over 4 instructions */
    NEAR(e.load_bytes_per_warp, 456);
}

/* The bound model the verdict uses (model.c): MVT's second nest at
 * n = 1100 on the V100, as the issue describes it: 1100 work items, 10
 * compute instructions, 1100 memory rounds of one coalesced load each
 * (x2[i] kept in a register), 9.7 MB of sectors.
 *   blocks ceil(1100/128) = 9 on 9 SMs, #Rep = #OMP_Rep = 1: 1 wave
 *   bandwidth = 9.7e6 / 900e9 = 10.78 us
 *   latency   = 1 x 1100 x 1029 / 1.53e9 = 739.80 us   (Little's law)
 *   issue     = 35 warps x 1110 insts / (9 SMs x 4) / 1.53e9 = 0.7053 us;
 *               one warp alone: 1110 / 1.53e9 = 0.7255 us -> 0.7255 us
 *   kernel = 739.80 us (latency), GPU = kernel + 10 us launch
 * and the same as a region of 5 steps of 2 kernels: 5 x (2 x 10 us +
 * kernel). */
static void test_gpu_bounds(void)
{
    const rt_profile *v = rt_profile_find("v100");
    rt_launch in = { 0 };
    rt_estimate e = { 0 };
    in.work_items = 1100;
    in.comp_insts = 10;
    in.naccesses = 1;
    in.acc[0] = (rt_access){ RT_COALESCED, 1, 8, 1100 };
    in.gpu_chain = 1100;
    in.gpu_mem_insts = 1100;
    in.gpu_bytes = 9.7e6;
    rt_gpu_model(v, &in, &e);
    NEAR(e.blocks, 9);
    NEAR(e.waves, 1);
    NEAR(e.warps_total, 35);
    NEAR(e.gpu_bw_s, 9.7e6 / 900e9);
    NEAR(e.gpu_lat_s, 1100.0 * 1029 / 1.53e9);
    NEAR(e.gpu_issue_s, 1110 / 1.53e9);
    CHECK_STR(e.gpu_bound, "latency");
    NEAR(e.kernel_s, 1100.0 * 1029 / 1.53e9);
    NEAR(e.gpu_s, 1100.0 * 1029 / 1.53e9 + 10e-6);
    /* Hong-Kim on the same launch is larger: the reference, not the verdict */
    CHECK(e.hk_kernel_s > e.kernel_s);
    in.steps = 5, in.kernels = 2;
    rt_gpu_model(v, &in, &e);
    NEAR(e.launch_s, 5 * 2 * 10e-6);
    NEAR(e.gpu_s, 5 * (2 * 10e-6 + 1100.0 * 1029 / 1.53e9));
    /* many items, bandwidth bound: 1e8 items, 0.8 GB: 1e8/128 = 781250
     * blocks > 65536 -> #OMP_Rep = ceil(1e8 / (65536 x 128)) = 12,
     * 16 blocks/SM on 84 SMs: #Rep = ceil(65536 / 1344) = 49: 588 waves
     * x 1 round x 1029 cycles; N = 64.  MWP of the chain:
     *   MWP_Without_BW = 1029 / 4 = 257.25 > N: latency 588 x 1029 /
     *   1.53e9 = 395.46 us
     *   bytes per warp = 8e8 / 3125000 warps = 256
     *   BW_per_warp = 1.53e9 x 256 / 1029; MWP_peak_BW = 900e9 /
     *   (BW_per_warp x 84) = 28.1545 < N: the bandwidth bound, 8e8 /
     *   900e9 = 888.9 us (Hong-Kim's per-wave form, 588 x 64 x 84 x 256
     *   / 900e9 = 899.16 us, rounds the partial wave up);
     *   issue 3125000 warps x 2 / 336 / 1.53e9 = 12.16 us */
    memset(&in, 0, sizeof in);
    in.work_items = 1e8;
    in.comp_insts = 1;
    in.naccesses = 1;
    in.acc[0] = (rt_access){ RT_COALESCED, 1, 8, 1 };
    in.gpu_chain = 1;
    in.gpu_mem_insts = 1;
    in.gpu_bytes = 8e8;
    rt_gpu_model(v, &in, &e);
    NEAR(e.omp_rep, 12);
    NEAR(e.rep, 49);
    NEAR(e.lat_mwp_without_bw, 1029.0 / 4);
    NEAR(e.lat_mwp_peak_bw, 900e9 / (1.53e9 * 256 / 1029 * 84));
    NEAR(e.lat_mwp, 64);
    NEAR(e.gpu_lat_s, 588.0 * 1029 / 1.53e9);
    NEAR(e.gpu_bw_s, 8e8 / 900e9);
    NEAR(e.gpu_issue_s, 3125000.0 * 2 / 336 / 1.53e9);
    CHECK_STR(e.gpu_bound, "bandwidth");
    NEAR(e.kernel_s, 8e8 / 900e9);
}

/* Hong-Kim's MWP in the latency bound, from the traffic model's chain.
 * The built-in h100 (132 SMs, DRAM 696 cycles, departure delays 4 / 10),
 * 2048 items: 16 blocks on 16 SMs, N = 4, 1 wave.  A chain of 1000 rounds, 1006 cycles each (an uncoalesced DRAM
 * load, Mem_L_Uncoal = 696 + 31 x 10), departures 1000 x 32 x 10:
 *   MWP_Without_BW = 1006000 / 320000 = 3.14375 < N = 4
 *   latency = 1 x 1006000 x 4 / 3.14375 / clock = 4 x 320000 / clock
 *           (N warps x the departures: the SM's memory pipeline)
 * With departures 1000 x 4 (coalesced) MWP_Without_BW = 251.5, and
 * with 8 bytes of DRAM per warp MWP_peak_BW is huge: MWP = N, Little's
 * law: 1006000 / clock; with a longest item of 3e6 cycles, 3e6 / clock. */
static void test_gpu_mwp(void)
{
    const rt_profile *h = rt_profile_find("h100");
    rt_launch in = { 0 };
    rt_estimate e = { 0 };
    in.work_items = 2048;
    in.comp_insts = 10;
    in.naccesses = 1;
    in.acc[0] = (rt_access){ RT_STRIDED, 1000, 8, 1000 };
    in.gpu_chain = 1000;
    in.gpu_lat_cycles = 1000.0 * (h->mem_lat + 31 * h->dep_uncoal);
    in.gpu_dep_cycles = 1000.0 * 32 * h->dep_uncoal;
    in.gpu_mem_insts = 1000;
    in.gpu_bytes = 64 * 8;
    rt_gpu_model(h, &in, &e);
    NEAR(e.blocks, 16);
    NEAR(e.n_warps, 4);
    NEAR(e.waves, 1);
    NEAR(e.gpu_lat_cycles, 1000.0 * (696 + 310));
    NEAR(e.gpu_dep_cycles, 320000);
    NEAR(e.lat_mwp_without_bw, 1006000.0 / 320000);
    NEAR(e.lat_mwp, 1006000.0 / 320000);
    NEAR(e.gpu_lat_s, 4 * 320000.0 / h->gpu_hz);
    CHECK_STR(e.gpu_bound, "latency");
    in.gpu_dep_cycles = 1000.0 * h->dep_coal;
    rt_gpu_model(h, &in, &e);
    NEAR(e.lat_mwp_without_bw, 1006000.0 / 4000);
    NEAR(e.lat_mwp, 4);
    NEAR(e.gpu_lat_s, 1006000.0 / h->gpu_hz);
    /* the longest item's chain (3e6 cycles) outlasts one wave of the
     * average: the kernel ends with it */
    in.gpu_lat_max_cycles = 3e6;
    rt_gpu_model(h, &in, &e);
    NEAR(e.gpu_lat_s, 3e6 / h->gpu_hz);
    in.gpu_lat_max_cycles = 0;
    /* no chain from the traffic model: one round per memory instruction
     * of Hong-Kim's Mem_L and Departure_delay (the stride-1000 access is
     * 32 transactions: Mem_L_Uncoal 1006, Departure_delay 320) */
    in.gpu_chain = 0, in.gpu_lat_cycles = 0, in.gpu_dep_cycles = 0;
    rt_gpu_model(h, &in, &e);
    NEAR(e.mem_l, 1006);
    NEAR(e.departure_delay, 320);
    NEAR(e.gpu_lat_cycles, 1006000);
    NEAR(e.gpu_dep_cycles, 320000);
    NEAR(e.gpu_lat_s, 4 * 320000.0 / h->gpu_hz);
}

/* Machines as data: units, a user profile, errors, and every built-in
 * written and read back with the same numbers. */
static void test_profile_text(void)
{
    char err[256];
    const rt_profile *p = rt_profile_parse(
        "# a small test host\n"
        "name = tiny\nkind = cpu\ndesc = test\nsource = a\nsource = b\n"
        "clock = 1.5 GHz\ncores = 2\nsmt = 2\nmem_bw = 10 GB/s\nline = 64 B\n"
        "l2 = 512 KiB\nl3 = 3 MiB\nmem_latency = 80 ns  # DRAM\nmlp = 10\n"
        "peak_flops = 48 Gflop/s\nfork = 3000 cycles\nmca_cpu = znver4\n",
        "t", err, sizeof err);
    CHECK(p != NULL);
    if (p) {
        CHECK_STR(p->name, "tiny");
        CHECK_STR(p->source, "a; b");
        NEAR(p->freq_hz, 1.5e9);
        NEAR(p->mem_bw, 10e9);
        NEAR(p->l2, 524288);
        NEAR(p->l3, 3145728);
        NEAR(p->cpu_mem_lat, 80e-9);
        NEAR(p->peak_flops, 48e9);
        NEAR(p->fork_cycles, 3000);
        CHECK_INT(rt_profile_threads(p), 4);
        CHECK_STR(p->mca_cpu, "znver4");
        CHECK(rt_profile_find("tiny") == p);   /* parsed profiles are found by name */
    }
    CHECK(rt_profile_parse("name = x\nclock = 1 GHz\n", "t", err, sizeof err) == NULL);
    CHECK_STR(err, "t: no `kind = cpu` or `kind = gpu` line");
    CHECK(rt_profile_parse("name = x\nkind = cpu\nclock = fast\n", "t", err, sizeof err) == NULL);
    CHECK_STR(err, "t:3: bad value 'fast' for clock");
    CHECK(rt_profile_parse("name = x\nkind = cpu\nwidth = 3\n", "t", err, sizeof err) == NULL);
    CHECK_STR(err, "t:3: unknown key 'width'");
    CHECK(rt_profile_parse("name = x\nkind = gpu\nclock = 1 GHz\n", "t", err, sizeof err) == NULL);
    CHECK_STR(err, "t: profile 'x' needs sms");
    CHECK(rt_profile_parse("name = x\nkind = cpu\ncores = 2.5\n", "t", err, sizeof err) == NULL);
    CHECK_STR(err, "t:3: cores wants an integer");
    /* built-ins are parsed one at a time, on first use: a lookup by name
     * (any case) and the listing give the same profile */
    const rt_profile *h100 = rt_profile_find("H100"), *pcie = rt_profile_find("h100-pcie");
    CHECK(h100 != NULL && pcie != NULL && h100 != pcie);
    CHECK_STR(h100 ? h100->name : "", "h100");
    CHECK(rt_profile_find("h10") == NULL);
    CHECK_INT(rt_profile_count(), 21);
    for (int i = 0; i < rt_profile_count(); i++)
        CHECK(rt_profile_find(rt_profile_at(i)->name) == rt_profile_at(i));
    CHECK(rt_profile_find("host") == rt_profile_host_default());
    CHECK_INT(rt_profile_builtins_agree(err, sizeof err), 0);   /* images = texts */
    for (int i = -1; i < rt_profile_count(); i++) {
        const rt_profile *b = i < 0 ? rt_profile_host_default() : rt_profile_at(i);
        char buf[8192];
        FILE *f = fmemopen(buf, sizeof buf, "w");
        rt_profile_write(b, f);
        fclose(f);
        const rt_profile *r = rt_profile_parse(buf, b->name, err, sizeof err);
        CHECK(r != NULL);
        if (!r)
            continue;
        CHECK_STR(r->name, b->name);
        CHECK_STR(r->source, b->source);
        CHECK_INT(r->kind, b->kind);
        NEAR(r->freq_hz, b->freq_hz);
        NEAR(r->mem_bw, b->mem_bw);
        NEAR(r->l2, b->l2);
        NEAR(r->l3, b->l3);
        NEAR(r->cpu_mem_lat, b->cpu_mem_lat);
        NEAR(r->gpu_hz, b->gpu_hz);
        NEAR(r->gpu_bw, b->gpu_bw);
        NEAR(r->bus_bw, b->bus_bw);
        NEAR(r->gpu_l2, b->gpu_l2);
        NEAR(r->launch_s, b->launch_s);
        NEAR(r->mem_lat, b->mem_lat);
        NEAR(r->page, b->page);
        NEAR(r->tlb_entries, b->tlb_entries);
        NEAR(r->tlb_miss_cycles, b->tlb_miss_cycles);
        CHECK_INT(r->cores, b->cores);
        CHECK_INT(r->sockets, b->sockets);
        CHECK_INT(r->sms, b->sms);
        CHECK_INT(r->schedulers, b->schedulers);
    }
}

/* StarPU-style regression t = a n^b + c (history.c), exact data:
 *   t = 2e-9 n^1.5 at n = 1e4, 4e4, 1.6e5: c = 0 is a candidate -> exact
 *   t = 1e-6 n + 5e-4 at n = 500..4000: min t = 1e-3, c = 0.5 x min t is
 *   a candidate -> a = 1e-6, b = 1, c = 5e-4 */
static void test_history_fit(void)
{
    double n1[] = { 1e4, 4e4, 1.6e5 }, t1[3], n2[] = { 500, 1000, 2000, 4000 }, t2[4];
    for (int i = 0; i < 3; i++)
        t1[i] = 2e-9 * pow(n1[i], 1.5);
    for (int i = 0; i < 4; i++)
        t2[i] = 1e-6 * n2[i] + 5e-4;
    rt_fit f;
    CHECK_INT(rt_history_fit(3, n1, t1, &f), 0);
    CHECK(fabs(f.a - 2e-9) < 1e-15 && fabs(f.b - 1.5) < 1e-9 && f.c == 0);
    CHECK_INT(rt_history_fit(4, n2, t2, &f), 0);
    CHECK(fabs(f.a - 1e-6) < 1e-12 && fabs(f.b - 1) < 1e-9 && fabs(f.c - 5e-4) < 1e-15);
    NEAR(rt_fit_eval(&f, 8000), 1e-6 * 8000 + 5e-4);
    /* fewer than 3 distinct sizes: no regression */
    double n3[] = { 10, 10, 20 }, t3[] = { 1, 1, 2 };
    CHECK_INT(rt_history_fit(3, n3, t3, &f), -1);
}

static void test_xfer(void)
{
    const rt_profile *h = rt_profile_find("h100");
    rt_launch in = { 0 };
    rt_estimate e = { 0 };
    /* t0 = d / B_bus = (1e9 + 5e8) / 25e9 = 0.06 s */
    in.bytes_in = 1e9;
    in.bytes_out = 5e8;
    rt_xfer_model(h, &in, &e);
    NEAR(e.xfer_bytes, 1.5e9);
    NEAR(e.xfer_s, 0.06);
    /* GTX470 (boat hull Table 2, B_bus 5.1 GB/s): 5.1e8 bytes -> 0.1 s */
    in.bytes_in = 5.1e8;
    in.bytes_out = 0;
    rt_xfer_model(rt_profile_find("gtx470"), &in, &e);
    NEAR(e.xfer_s, 0.1);
    in.data_on_device = 1;
    rt_xfer_model(h, &in, &e);
    NEAR(e.xfer_s, 0);
}

/* gemm (NI x NK times NK x NJ) as the facts module builds it (op costs of
 * rt_fallback_stmt_costs; teams over i, threads over j):
 *   cycles per i iteration = NJ*(fmul 1 + 2 accesses*0.5 + loop 1)
 *                          + NK*(loop 1 + NJ*(fadd 1 + fmul 2 + 4*0.5 + loop 1))
 *                          = 3 NJ + NK + 6 NK NJ
 *   work items NI*NJ; compute insts per item = (1 + 2*2) + NK*(3 + 4*2 + 2)
 *   accesses per item: C r/w x1 coalesced; C r/w, B coalesced and A
 *   uniform x NK
 *   bytes in 8 (NI NJ + NI NK + NK NJ), out 8 NI NJ */
static void gemm_launch(double ni, double nj, double nk, rt_launch *in)
{
    memset(in, 0, sizeof *in);
    in->par_iters = ni;
    in->cycles_per_iter = 3 * nj + nk + 6 * nk * nj;
    in->work_items = ni * nj;
    in->comp_insts = 5 + 13 * nk;
    in->naccesses = 6;
    in->acc[0] = (rt_access){ RT_COALESCED, 1, 8, 1 };
    in->acc[1] = (rt_access){ RT_COALESCED, 1, 8, 1 };
    in->acc[2] = (rt_access){ RT_COALESCED, 1, 8, nk };
    in->acc[3] = (rt_access){ RT_COALESCED, 1, 8, nk };
    in->acc[4] = (rt_access){ RT_UNIFORM, 0, 8, nk };
    in->acc[5] = (rt_access){ RT_COALESCED, 1, 8, nk };
    in->flops = ni * (nj + 3 * nk * nj);
    in->bytes_in = 8 * (ni * nj + ni * nk + nk * nj);
    in->bytes_out = 8 * ni * nj;
}

/* gesummv (N x N, y = alpha A x + beta B x), threads over i; per j the
 * two statements each cost fadd 1 + fmul 1 + 4 accesses*0.5 = 4 cycles
 * plus loop 1: cycles per i = 0.5 + 0.5 + (3 + 3*0.5) + 9 N = 5.5 + 9 N;
 * insts per item = 2 + 2 + 9 + N*(10 + 10 + 2); A[i][j] and B[i][j] are
 * strided(N) across threads, x[j] uniform, tmp[i], y[i] coalesced;
 * bytes in 8 (2 N^2 + 3 N), out 16 N. */
static void gesummv_launch(double n, rt_launch *in)
{
    memset(in, 0, sizeof *in);
    in->par_iters = n;
    in->cycles_per_iter = 5.5 + 9 * n;
    in->work_items = n;
    in->comp_insts = 13 + 22 * n;
    in->naccesses = 4;
    in->acc[0] = (rt_access){ RT_COALESCED, 1, 8, 5 + 4 * n };
    in->acc[1] = (rt_access){ RT_STRIDED, (int64_t)n, 8, n };
    in->acc[2] = (rt_access){ RT_STRIDED, (int64_t)n, 8, n };
    in->acc[3] = (rt_access){ RT_UNIFORM, 0, 8, 2 * n };
    in->flops = n * (3 + 4 * n);
    in->bytes_in = 8 * (2 * n * n + 3 * n);
    in->bytes_out = 16 * n;
}

static void test_verdicts(void)
{
    const rt_profile *host = rt_profile_host_default(), *h100 = rt_profile_find("h100");
    rt_launch in;
    rt_estimate e;
    /* gemm MINI (20, 25, 30), 16 threads: cycles/iter = 75 + 30 + 4500
     * = 4605; chunk 2; region = 3000 + 10154 + 4605*2 + 8 + 4000 = 26372
     * cycles = 13.186 us; memory 8*(500+600+750+500)/40e9 = 0.47 us.
     * GPU: 500 items, 4 blocks, N = 4: Mem_cycles = 696*(2 + 4*30)
     * (A's uniform load is a memory instruction too; h100 latency 696) = 84912 cycles
     * = 42.9 us in Hong-Kim (the reference); the verdict: CPU */
    /* (16 threads on the host defaults' 8 cores: two per core, so
     * Loop_chunk_c = (4605 x 2 + 8) x 2 = 18436 and the region
     * 3000 + 10154 + 18436 + 4000 = 35590 cycles) */
    gemm_launch(20, 25, 30, &in);
    CHECK_INT(rt_estimate_all(host, 16, h100, &in, &e), 0);
    NEAR(e.region_c, 35590);
    NEAR(e.cpu_s, 35590 / 2e9);
    NEAR(e.mem_cycles, 696.0 * 122);
    /* gemm EXTRALARGE (2000, 2300, 2600): CPU chunk 125 x 35889500 cycles
     * = 2.24 s; GPU 4.6e6 items all coalesced/uniform, ~0.1 s; transfer
     * 8*(4.6e6 + 5.2e6 + 5.98e6 + 4.6e6) / 25e9 = 6.5216 ms -> GPU */
    gemm_launch(2000, 2300, 2600, &in);
    CHECK_INT(rt_estimate_all(host, 16, h100, &in, &e), 1);
    NEAR(e.xfer_s, 8 * (4.6e6 + 5.2e6 + 5.98e6 + 4.6e6) / 25e9);
    NEAR(e.region_c, 3000 + 10154 + (35889500.0 * 125 + 500) * 2 + 4000);
    CHECK(e.gpu_s + e.xfer_s < 0.2 && e.cpu_s > 2);
    /* gesummv EXTRALARGE (2800): bytes in 8*(2*2800^2 + 3*2800) =
     * 125507200 plus out 16*2800 = 44800, over 40e9 = 3.1388 ms; compute
     * with two threads per core: (175 x 25205.5 + 700) x 2 = 8823325
     * cycles + 17154 = 8840479 cycles = 4.4202 ms (compute bound); the
     * transfer alone is
     * (125507200 + 44800) / 25e9 = 5.02208 ms and the kernel runs only
     * 2800 threads (N = 4 warps on 22 SMs) -> CPU */
    gesummv_launch(2800, &in);
    CHECK_INT(rt_estimate_all(host, 16, h100, &in, &e), 0);
    NEAR(e.cpu_mem_s, (125507200.0 + 44800) / 40e9);
    NEAR(e.cpu_s, 8840479 / 2e9);
    NEAR(e.xfer_s, (125507200.0 + 44800) / 25e9);
    CHECK_INT(e.hk_case, 1);
    /* gesummv MINI (30): CPU as well */
    gesummv_launch(30, &in);
    CHECK_INT(rt_estimate_all(host, 16, h100, &in, &e), 0);
    /* data already on the device and a GPU with more bandwidth than the
     * host: the transfer term vanishes */
    gesummv_launch(2800, &in);
    in.data_on_device = 1;
    rt_estimate_all(host, 16, h100, &in, &e);
    NEAR(e.xfer_s, 0);
}

/* Worth it: the GPU only when the predicted saving exceeds the launch and
 * transfer time once more; faster by less is the CPU, "too small".  Square
 * gemm from 16 to 128 on the h100 profile: every size obeys the rule, and
 * the sizes pass from CPU through "too small" to GPU. */
static void test_worth_it(void)
{
    const rt_profile *host = rt_profile_host_default(), *h100 = rt_profile_find("h100");
    rt_launch in;
    rt_estimate e;
    int seen_small = 0, seen_gpu = 0, seen_cpu = 0, last = -1, order_ok = 1;
    for (int n = 16; n <= 128; n++) {
        gemm_launch(n, n, n, &in);
        int v = rt_estimate_all(host, 16, h100, &in, &e);
        double saving = e.cpu_s - (e.gpu_s + e.xfer_s), fixed = e.launch_s + e.xfer_s;
        CHECK_INT(v, saving > fixed);
        CHECK_INT(e.too_small, saving > 0 && saving <= fixed);
        CHECK(!(v && e.too_small));
        int state = v ? 2 : e.too_small ? 1 : 0;
        if (state < last)
            order_ok = 0;
        last = state;
        seen_small |= state == 1, seen_gpu |= state == 2, seen_cpu |= state == 0;
    }
    CHECK(order_ok);
    CHECK(seen_cpu && seen_small && seen_gpu);
    CHECK(h100->launch_s > 0);
}

/* PMaC per-pattern bandwidth (keel calibrate's table, model.c
 * rt_pattern_bw and the CPU memory term).  Two footprints, 1e6 and 1e8
 * bytes; unit: one thread 10 / 5 GB/s, all threads 40 / 20 GB/s; column:
 * one 2 / 1 GB/s, all 4 / 2 GB/s.  At 1e7 (halfway in log): unit one 7.5,
 * all 30; column one 1.5, all 3 GB/s.  2 cores: unit min(30, 2 x 7.5) = 15,
 * column min(3, 2 x 1.5) = 3 GB/s.  Memory time of 3e9 unit bytes and 1e9
 * column bytes: 3e9 / 15e9 + 1e9 / 3e9 = 0.2 + 0.33333 = 0.53333 s; the
 * bandwidth printed is 4e9 / 0.53333 = 7.5 GB/s. */
static void test_patterns(void)
{
    rt_calibration c = { .freq_hz = 2e9, .cores = 4, .mem_bw = 30e9, .bw_points = 2,
                         .bw_threads = 4, .bw_fp = { 1e6, 1e8 } };
    c.bw_one[RT_PAT_UNIT][0] = 10e9, c.bw_one[RT_PAT_UNIT][1] = 5e9;
    c.bw_all[RT_PAT_UNIT][0] = 40e9, c.bw_all[RT_PAT_UNIT][1] = 20e9;
    c.bw_one[RT_PAT_COLUMN][0] = 2e9, c.bw_one[RT_PAT_COLUMN][1] = 1e9;
    c.bw_all[RT_PAT_COLUMN][0] = 4e9, c.bw_all[RT_PAT_COLUMN][1] = 2e9;
    rt_profile p;
    rt_profile_from_calibration(&c, &p);
    CHECK_INT(p.bw_points, 2);
    NEAR(rt_pattern_bw(&p, RT_PAT_UNIT, 1e7, 2), 15e9);
    NEAR(rt_pattern_bw(&p, RT_PAT_UNIT, 1e7, 8), 30e9);
    NEAR(rt_pattern_bw(&p, RT_PAT_UNIT, 1e5, 8), 40e9);     /* below: the first point */
    NEAR(rt_pattern_bw(&p, RT_PAT_UNIT, 1e9, 1), 5e9);      /* above: the last */
    NEAR(rt_pattern_bw(&p, RT_PAT_COLUMN, 1e7, 2), 3e9);
    NEAR(rt_pattern_bw(&p, RT_PAT_GATHER, 1e7, 2), 0);      /* not measured */
    CHECK_STR(rt_pattern_name(RT_PAT_GATHER), "gather");
    /* all threads slower than one (a loaded machine): one thread's figure */
    p.bw_all[RT_PAT_UNIT][0] = p.bw_all[RT_PAT_UNIT][1] = 1e9;
    NEAR(rt_pattern_bw(&p, RT_PAT_UNIT, 1e7, 2), 7.5e9);
    p.bw_all[RT_PAT_UNIT][0] = 40e9, p.bw_all[RT_PAT_UNIT][1] = 20e9;

    rt_launch in = { .par_iters = 2, .cycles_per_iter = 1, .bytes_in = 1e7, .cpu_bytes = 4e9 };
    in.cpu_bytes_pat[RT_PAT_UNIT] = 3e9, in.cpu_bytes_pat[RT_PAT_COLUMN] = 1e9;
    rt_estimate e;
    memset(&e, 0, sizeof e);
    rt_cpu_model(&p, 2, &in, &e);
    CHECK_INT(e.cpu_bw_calibrated, 1);
    NEAR(e.cpu_pat_bw[RT_PAT_UNIT], 15e9);
    NEAR(e.cpu_pat_bw[RT_PAT_COLUMN], 3e9);
    NEAR(e.cpu_mem_s, 0.2 + 1.0 / 3.0);
    NEAR(e.cpu_bw, 4e9 / (0.2 + 1.0 / 3.0));
    /* bytes of a pattern the table lacks: the profile's default term,
     * 4e9 bytes over min(mem_bw 30 GB/s, 2 cores x Little's law) */
    in.cpu_bytes_pat[RT_PAT_GATHER] = 1e9;
    rt_cpu_model(&p, 2, &in, &e);
    CHECK_INT(e.cpu_bw_calibrated, 0);
    NEAR(e.cpu_mem_s, 4e9 / e.cpu_bw);
    /* an uncalibrated profile ignores the split */
    in.cpu_bytes_pat[RT_PAT_GATHER] = 0;
    rt_cpu_model(rt_profile_host_default(), 2, &in, &e);
    CHECK_INT(e.cpu_bw_calibrated, 0);
}

/* The cache-level term (model.c): lines a column walk or a gather gets
 * from L2 and L3, each at keel calibrate's gather bandwidth at the
 * footprint the level holds.  The host defaults' caches (32 KiB L1, 1 MiB
 * L2, 16 MiB L3) on 4 cores: the L2's footprint is 1 MiB = 1048576 B, the
 * thread's cache 1 MiB + 16 MiB / 4 = 5242880 B.  Gather table at 1e6 and
 * 1e8 B: one thread 20 / 2 GB/s (all threads 80 / 8).  In log between the
 * two: w = ln(1048576 / 1e6) / ln(100) = 0.0102996..., so at 1 MiB one
 * thread 20 - 18 w; at 5242880 B, w' = ln(5.24288) / ln(100).  One core
 * (one thread): 2e9 B from L2 and 1e9 B from L3 take
 * 2e9 / (20e9 - 18e9 w) + 1e9 / (20e9 - 18e9 w'); with compute 1 s (2e9
 * cycles at 2 GHz) and no DRAM bytes the CPU time is 1 s plus that.  With
 * no l1 in the profile, or no table, the term is 0. */
static void test_cache_level(void)
{
    rt_calibration c = { .freq_hz = 2e9, .cores = 4, .mem_bw = 30e9, .bw_points = 2,
                         .bw_threads = 4, .bw_fp = { 1e6, 1e8 } };
    for (int k = 0; k < RT_PATTERNS; k++)
        c.bw_one[k][0] = 20e9, c.bw_one[k][1] = 2e9, c.bw_all[k][0] = 80e9, c.bw_all[k][1] = 8e9;
    rt_profile p;
    rt_profile_from_calibration(&c, &p);
    NEAR(p.l1, 32768);
    double w = log(1048576.0 / 1e6) / log(100.0), w2 = log(5242880.0 / 1e6) / log(100.0);
    double bw2 = 20e9 - 18e9 * w, bw3 = 20e9 - 18e9 * w2;
    rt_launch in = { .par_iters = 1, .cycles_per_iter = 2e9, .host_sequential = 1,
                     .loop_ctl_in_cycles = 1, .cpu_hit_bytes = { 2e9, 1e9 } };
    rt_estimate e;
    memset(&e, 0, sizeof e);
    rt_cpu_model(&p, 1, &in, &e);
    NEAR(e.cache_bw[0], bw2);
    NEAR(e.cache_bw[1], bw3);
    NEAR(e.cpu_cache_s, 2e9 / bw2 + 1e9 / bw3);
    NEAR(e.cpu_compute_s, 1.0);
    NEAR(e.cpu_s, 1.0 + 2e9 / bw2 + 1e9 / bw3);
    /* a parallel loop of 4 iterations on 2 threads whose heaviest chunk
     * does 3e9 cycles against the average's 2 x 1e9: that thread makes 1.5
     * times its share of the cache-level waits; 2 cores draw 2 x one
     * thread's gather bandwidth (below all threads' 80 - 72 w) */
    rt_launch par = in;
    par.host_sequential = 0, par.par_iters = 4, par.cycles_per_iter = 1e9;
    par.chunk_cycles_max = 3e9, par.chunk_threads = 2;
    memset(&e, 0, sizeof e);
    rt_cpu_model(&p, 2, &par, &e);
    NEAR(e.imbalance, 1.5);
    NEAR(e.cache_bw[0], 2 * bw2);
    NEAR(e.cpu_cache_s, 1.5 * (2e9 / (2 * bw2) + 1e9 / (2 * bw3)));
    /* no L1 size: no term */
    p.l1 = 0;
    rt_cpu_model(&p, 1, &in, &e);
    NEAR(e.cpu_cache_s, 0);
    NEAR(e.cpu_s, 1.0);
    /* no calibrated table (the host defaults have an L1): no term */
    rt_cpu_model(rt_profile_host_default(), 1, &in, &e);
    NEAR(e.cpu_cache_s, 0);
    /* the machine file's key */
    char err[200];
    const rt_profile *m = rt_profile_parse("name = l1t\nkind = cpu\nclock = 1 GHz\ncores = 1\n"
                                           "mem_bw = 1 GB/s\nl1 = 48 KiB\n", "test", err,
                                           sizeof err);
    CHECK(m != NULL);
    if (m)
        NEAR(m->l1, 49152);
}

/* The traffic model's reuse across a cache (facts.c rt_reuse_bytes): the
 * independent reference model (Coffman & Denning 1973, sec. 6.3) -- with
 * capacity C and a working set W > C, a share C / W of the re-references
 * hit.  By hand: rep 1e6 B, footprint 1e4 B. */
static void test_reuse(void)
{
    /* W <= C: only the footprint moves (min(rep, fp)) */
    CHECK(rt_reuse_bytes(1e6, 1e4, 4096, 4096) == 1e4);
    CHECK(rt_reuse_bytes(5e3, 1e4, 100, 4096) == 5e3);
    /* W = 2C: h = 1/2: 0.5 x 1e4 + 0.5 x 1e6 = 505000 */
    CHECK(rt_reuse_bytes(1e6, 1e4, 8192, 4096) == 505000);
    /* W = 4C: h = 1/4: 2500 + 750000 = 752500 */
    CHECK(rt_reuse_bytes(1e6, 1e4, 16384, 4096) == 752500);
    /* no cache: every re-reference misses */
    CHECK(rt_reuse_bytes(1e6, 1e4, 16384, 0) == 1e6);
    /* continuous at W = C: just above it, just above the footprint */
    double up = rt_reuse_bytes(1e6, 1e4, 4096 * (1 + 1e-9), 4096);
    CHECK(up > 1e4 && up < 1e4 * (1 + 1e-6) + 1e6 * 1e-9 * 1.01);
}

/* The recurrence bound (Rau's RecMII, model.c): the fact text's chains,
 * latencies from the profile or the estimates, delay / distance. */
static void test_recur(void)
{
    rt_profile p;
    memset(&p, 0, sizeof p);
    p.lat[RT_LAT_FADD] = 2, p.lat[RT_LAT_FDIV] = 13.5, p.lat[RT_LAT_STLF] = 7;
    rt_recur c[RT_MAX_RECUR];
    /* seidel: 6 adds and a divide, distance 1, no memory round trip:
     * 6 x 2 + 13.5 = 25.5 cycles */
    CHECK_INT(rt_recur_parse("A[i][j-1]->A[i][j] dist=1 fadd=6 fdiv=1", c, RT_MAX_RECUR), 1);
    CHECK_INT((long long)(rt_recur_cycles(&p, c, 1) * 1000), 25500);
    /* an add and a divide, distance 1: 2 + 13.5 */
    CHECK_INT(rt_recur_parse("x->y dist=1 fadd=1 fdiv=1", c, RT_MAX_RECUR), 1);
    CHECK_INT((long long)(rt_recur_cycles(&p, c, 1) * 1000), 15500);
    /* bicg's two accumulators (round trip 7 + add 2 = 9) and a chain
     * over 2 iterations ((13.5 + 2 x 2) / 2 = 8.75): the largest, 9 */
    CHECK_INT(rt_recur_parse("q[i]->q[i] dist=1 fadd=1 mem; x[j+2]->x[j] dist=2 fdiv=1 fadd=2",
                             c, RT_MAX_RECUR), 2);
    CHECK_INT((long long)(rt_recur_cycles(&p, c, 2) * 1000), 9000);
    CHECK_INT((long long)(rt_recur_cycles(&p, c + 1, 1) * 1000), 8750);
    /* unset latencies: the estimates (fmul 3, imul 3, idiv 14, iadd 1) */
    CHECK_INT(rt_recur_parse("a->b dist=1 fmul=1 imul=1 idiv=1 iadd=1", c, RT_MAX_RECUR), 1);
    CHECK_INT((long long)(rt_recur_cycles(&p, c, 1) * 1000), 21000);
    int est = 0;
    CHECK_INT((long long)rt_latency(&p, RT_LAT_FADD, &est), 2);
    CHECK_INT(est, 0);
    CHECK_INT((long long)rt_latency(&p, RT_LAT_IDIV, &est), 14);
    CHECK_INT(est, 1);
    /* selects (chainops.h): nussinov's max, an integer compare-and-select
     * (estimate 2), and a double max then a multiply (2 + 3) */
    CHECK_INT(rt_recur_parse("table[i][j]->table[i][j] dist=1 isel=1 all", c, RT_MAX_RECUR), 1);
    CHECK_INT(c[0].ops[RT_LAT_ISEL], 1);
    CHECK_INT((long long)(rt_recur_cycles(&p, c, 1) * 1000), 2000);
    CHECK_INT(rt_recur_parse("x[i-1]->x[i] dist=1 fmul=1 fsel=1", c, RT_MAX_RECUR), 1);
    CHECK_INT((long long)(rt_recur_cycles(&p, c, 1) * 1000), 5000);
    CHECK_INT((long long)rt_latency(&p, RT_LAT_FSEL, &est), 2);
    CHECK_INT(est, 1);
    p.lat[RT_LAT_ISEL] = 1.5;               /* measured (keel calibrate) */
    CHECK_INT(rt_recur_parse("a->a dist=1 isel=2", c, RT_MAX_RECUR), 1);
    CHECK_INT((long long)(rt_recur_cycles(&p, c, 1) * 1000), 3000);
    p.lat[RT_LAT_ISEL] = 0;
    CHECK_STR(rt_lat_name(RT_LAT_ISEL), "isel");
    CHECK_STR(rt_lat_name(RT_LAT_FSEL), "fsel");
    CHECK_INT(rt_lat_find("isel", 4), RT_LAT_ISEL);
    /* the writer's names are the reader's: one list */
    for (int k = 0; k < RT_LAT_STLF; k++)
        CHECK_INT(rt_lat_find(ku_chain_op_name(k), strlen(ku_chain_op_name(k))), k);
    CHECK_STR(rt_lat_name(RT_LAT_STLF), "stlf");
    CHECK_INT(rt_lat_find("stlf", 4), RT_LAT_STLF);
    CHECK_INT(rt_lat_find("fadd=2", 4), RT_LAT_FADD);
    CHECK_INT(rt_lat_find("fad", 3), -1);
    /* the reader: unknown keys skipped, a chain with no distance dropped */
    CHECK_INT(rt_recur_parse(NULL, c, RT_MAX_RECUR), 0);
    CHECK_INT(rt_recur_parse("", c, RT_MAX_RECUR), 0);
    CHECK_INT(rt_recur_parse("a->b fadd=2; x dist=3 fmul=1 zz=9 mem all", c, RT_MAX_RECUR), 1);
    CHECK_INT(c[0].dist, 3);
    CHECK_INT(c[0].mem, 1);
    CHECK_INT(c[0].all, 1);
    CHECK_INT(c[0].ops[RT_LAT_FMUL], 1);
    CHECK_INT(c[0].ops[RT_LAT_FADD], 0);
    CHECK_INT((long long)(rt_recur_cycles(&p, c, 1) * 1000), 3333);   /* (7 + 3) / 3 */
    CHECK_INT((long long)(rt_recur_cycles(&p, c, 0) * 1000), 0);
}

/* The heaviest chunk of schedule(static) over a triangular nest (OpenMP
 * 5.2 11.5.3; libomp: chunks of ceil(n / t) in order).  m = 2600, 16
 * threads, `for (j = i + 1; j < m; j++)`: iteration i does 2599 - i inner
 * iterations; chunks of 163, the last 2600 - 15 x 163 = 155 long.  The
 * first chunk: 163 x 2599 - 162 x 163 / 2 = 423637 - 13203 = 410434; the
 * last: 155 x (154 + 0) / 2 = 11935; the average chunk 3378700 / 16 =
 * 211168.75.  Increasing work (j < i): the last chunk is the heaviest,
 * 155 x (2445 + 2599) / 2 = 390910. */
static void test_heaviest_chunk(void)
{
    CHECK(rt_static_heaviest_chunk(2600, 16, 2599, 0) == 410434);
    CHECK(rt_static_heaviest_chunk(2600, 16, 0, 2599) == 390910);
    /* uniform work: a full chunk, 163 x 7 */
    CHECK(rt_static_heaviest_chunk(2600, 16, 7, 7) == 1141);
    /* one thread: the whole range, 2600 x 2599 / 2 */
    CHECK(rt_static_heaviest_chunk(2600, 1, 2599, 0) == 3378700);
    CHECK(rt_static_heaviest_chunk(0, 16, 1, 1) == 0 && rt_static_heaviest_chunk(10, 0, 1, 1) == 0);
    /* the CPU model: Machine_c x Chunk_size is the heaviest chunk's when
     * bound for these threads, never below the average chunk's */
    rt_profile cpu = *rt_profile_find("power9");
    rt_launch in;
    rt_estimate e;
    memset(&in, 0, sizeof in);
    in.par_iters = 2600, in.cycles_per_iter = 1299.5, in.loop_ctl_in_cycles = 1;
    in.chunk_cycles_max = 410434, in.chunk_threads = 16;
    memset(&e, 0, sizeof e);
    rt_cpu_model(&cpu, 16, &in, &e);
    CHECK(e.chunk == 163 && e.tlb_c == 0);
    CHECK(e.loop_chunk_c == 410434);
    /* bound for other threads: the average chunk, 163 x 1299.5 */
    memset(&e, 0, sizeof e);
    rt_cpu_model(&cpu, 8, &in, &e);
    CHECK(e.loop_chunk_c == 325 * 1299.5);
    in.chunk_threads = 16, in.chunk_cycles_max = 1000;     /* below the average: the average */
    memset(&e, 0, sizeof e);
    rt_cpu_model(&cpu, 16, &in, &e);
    CHECK(e.loop_chunk_c == 163 * 1299.5);
    CHECK(e.imbalance == 1);
    /* the heaviest chunk's thread makes its share of the TLB misses too:
     * 26000 misses over 2600 iterations, 10 an iteration: the average
     * chunk's 163 x 10 x 14 cycles (power9's miss, Table II) = 22820,
     * times 410434 / (163 x 1299.5 = 211818.5) */
    in.chunk_cycles_max = 410434, in.tlb_misses = 26000;
    memset(&e, 0, sizeof e);
    rt_cpu_model(&cpu, 16, &in, &e);
    CHECK(fabs(e.imbalance - 410434 / 211818.5) < 1e-12);
    CHECK(fabs(e.tlb_c - 22820.0 * 410434 / 211818.5) < 1e-6);
    CHECK(fabs(e.loop_chunk_c - (410434 + 22820.0 * 410434 / 211818.5)) < 1e-6);
}

/* What many threads get (keel calibrate's thread curve).  Threads 1, 2, 4;
 * independent additions per thread 10, 9, 6 G/s; triad 10, 12, 20 GB/s.
 * rt_curve_at: linear between the points (3 threads: 9 + (6 - 9) / 2 =
 * 7.5), the nearest end outside.  A thread's rate: 9 / 10 = 0.9 on 2
 * cores, 7.5 / 10 = 0.75 on 3, 0.6 on 4 and beyond, 1 alone.  The compute
 * of a parallel loop of 4 iterations of 1000 cycles on 4 threads at 1 GHz
 * with no overheads: one chunk of 1000 cycles at rate 0.6 = 1000 / 0.6 ns;
 * a sequential nest keeps rate 1.  The triad's shape between one thread's
 * and all threads' pattern figure (test_patterns' unit at 1e7 bytes: one
 * 7.5, all 30 GB/s, measured on 4 threads): 2 threads went (12 - 10) /
 * (20 - 10) = 0.2 of the way: 7.5 + 22.5 x 0.2 = 12 GB/s (below 2 x 7.5);
 * 3 threads (triad 16): 0.6: 7.5 + 13.5 = 21 GB/s (below 3 x 7.5 = 22.5);
 * 4: 30. */
static void test_threads(void)
{
    const double th[3] = { 1, 2, 4 }, work[3] = { 10e9, 9e9, 6e9 };
    NEAR(rt_curve_at(th, work, 3, 3), 7.5e9);
    NEAR(rt_curve_at(th, work, 3, 0.5), 10e9);
    NEAR(rt_curve_at(th, work, 3, 16), 6e9);
    CHECK(rt_curve_at(th, work, 0, 2) == 0);
    rt_profile p = *rt_profile_host_default();
    CHECK(rt_thread_rate(&p, 4) == 1);                  /* no curve: as one thread */
    p.tc_points = 3;
    memcpy(p.tc_threads, th, sizeof th), memcpy(p.tc_work, work, sizeof work);
    p.tc_bw[0] = 10e9, p.tc_bw[1] = 12e9, p.tc_bw[2] = 20e9;
    NEAR(rt_thread_rate(&p, 1), 1);
    NEAR(rt_thread_rate(&p, 2), 0.9);
    NEAR(rt_thread_rate(&p, 3), 0.75);
    NEAR(rt_thread_rate(&p, 8), 0.6);
    p.freq_hz = 1e9, p.cores = 4, p.smt = 1;
    p.fork_cycles = p.join_cycles = p.sched_cycles = 0, p.tlb_miss_cycles = 0;
    rt_launch in;
    rt_estimate e;
    memset(&in, 0, sizeof in);
    in.par_iters = 4, in.cycles_per_iter = 1000, in.loop_ctl_in_cycles = 1;
    memset(&e, 0, sizeof e);
    rt_cpu_model(&p, 4, &in, &e);
    NEAR(e.thread_rate, 0.6);
    NEAR(e.cpu_compute_s, 1000 / 0.6 * 1e-9);
    in.host_sequential = 1;
    memset(&e, 0, sizeof e);
    rt_cpu_model(&p, 4, &in, &e);
    CHECK(e.thread_rate == 1);
    NEAR(e.cpu_compute_s, 4000e-9);
    /* the triad's shape between the pattern table's one thread and all */
    p.bw_points = 2, p.bw_threads = 4, p.bw_fp[0] = 1e6, p.bw_fp[1] = 1e8;
    p.bw_one[RT_PAT_UNIT][0] = 10e9, p.bw_one[RT_PAT_UNIT][1] = 5e9;
    p.bw_all[RT_PAT_UNIT][0] = 40e9, p.bw_all[RT_PAT_UNIT][1] = 20e9;
    NEAR(rt_pattern_bw(&p, RT_PAT_UNIT, 1e7, 1), 7.5e9);
    NEAR(rt_pattern_bw(&p, RT_PAT_UNIT, 1e7, 2), 12e9);
    NEAR(rt_pattern_bw(&p, RT_PAT_UNIT, 1e7, 3), 21e9);
    NEAR(rt_pattern_bw(&p, RT_PAT_UNIT, 1e7, 4), 30e9);
    /* a single point of the curve: the rule without it, min(all, c x one) */
    p.tc_points = 1;
    NEAR(rt_pattern_bw(&p, RT_PAT_UNIT, 1e7, 2), 15e9);
}

int main(void)
{
    test_threads();
    test_recur();
    test_heaviest_chunk();
    test_reuse();
    test_patterns();
    test_cache_level();
    test_profiles();
    test_profile_into();
    test_cpu();
    test_gpu();
    test_xfer();
    test_gpu_bounds();
    test_gpu_mwp();
    test_profile_text();
    test_history_fit();
    test_verdicts();
    test_worth_it();
    return check_summary();
}
