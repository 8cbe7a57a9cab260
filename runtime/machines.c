/*
 * machines.c -- machines as data: the profile text format, its parser and
 * writer, the built-in profiles written in it (each number with its
 * source), and lookup by name, by file, and by CUDA device name.
 *
 * Format (docs/models.md, "Machines as data"): one `key = value` per line, '#'
 * starts a comment, blank lines are ignored.  Numbers take an optional unit:
 * an SI prefix k M G T or a binary one Ki Mi Gi followed by B, Hz, B/s or
 * flop/s, or a time ns us ms s, or the words cycles / threads / warps /
 * blocks (no scaling).  `kind` (cpu | gpu) decides what `clock`, `mem_bw`,
 * `l2` and `mem_latency` mean: CPU latency is a time, GPU latency is cycles
 * of the SM clock (Hong-Kim's Mem_LD).  `source` lines accumulate.
 *
 * Parsed profiles are allocated once and never freed (a process reads a
 * handful).  The built-in texts are parsed at build time: machines_gen
 * (this file with RT_MACHINES_GEN, parser only) writes each parsed profile
 * as an image into machines_table.h (read-only data), and a lookup copies
 * the figures of the one image it asks for, its texts (name, desc, source)
 * pointing into the image itself -- so a program's first decision parses
 * no text, and the figures stay in one place, the texts below
 * (rt_profile_builtins_agree re-parses them to check the images).  The
 * runtime's set-up copies the images it needs straight into its own
 * profiles (rt_profile_builtin_into) and publishes nothing.  Each built-in
 * has a published state (an atomic, set once under a mutex), user profiles
 * live under the same kind of mutex, so lookup is safe from many threads.
 */
#define _POSIX_C_SOURCE 200809L

#include "model.h"
#include "rt.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct machine {
    rt_profile p;
    char name[64], desc[256], source[2048], mca[32];
    struct machine *next;
} machine;

/* ---- built-in profiles ---------------------------------------------------
 * Overheads fork/join/schedule/loop_overhead are chikin Table II (POWER9,
 * EPCC micro-benchmarks); profiles without their own measurement reuse them.
 * Departure delays are Hong & Kim (ISCA 2009) Table 6; the OpenMP grid
 * (128 threads per team, at most 65536 teams) and the 10 us launch +
 * target-region overhead are estimates of clang's libomptarget, kept from
 * the earlier compiled-in profiles. */
#define TABLE2 "fork = 3000 cycles\njoin = 4000 cycles\nschedule = 10154 cycles\n" \
               "loop_overhead = 4 cycles\n"
#define HKGRID "departure_coal = 4 cycles\ndeparture_uncoal = 10 cycles\n" \
               "threads_per_block = 128\nmax_blocks = 65536\nlaunch = 10 us\nsector = 32 B\n"

/* chikin Table III (V100, after Jia et al.): L1 hit 28, L2 hit 193 cycles;
 * reused for the other GPUs with Table III's DRAM latency (an assumption,
 * noted in their sources as "latency ... of chikin Table III reused"). */
/* The host fallback of an OpenMP `target` region (the CPU alternative of an
 * offload region is the host version of the same region, chikin III: "host
 * execution time of the same target region") is no built-in figure: no
 * measurement of IBM XL's fallback on POWER is published.  `keel calibrate`
 * measures this host's (calib_omp.c); a profile file may state its own
 * `target_fallback` with its source. */

/* The TLB figures of chikin Table II (POWER9: 1024 entries, a miss costs 14
 * cycles, measured with libhugetlbfs's TLB cost tools) and the page the
 * paper's RHEL 7 on POWER maps: 64 KiB (the ppc64le kernel's base page).
 * The term they feed is the paper's own (Liao-Chapman's Tlb_c, chikin
 * Fig. 3), but no measured CPU time on a POWER host has checked it (the
 * CPU truth, bench/cpu-truth.sh, runs on hosts with no TLB figures): its
 * source line says so.  The NUMA term (profile key `sockets`: one node's
 * share of mem_bw) has no figure in the built-ins: it is not the paper's,
 * it was added while reading Table I cells, and no CPU truth on a
 * two-node host has measured it; a user profile may set it. */
#define TABLE2_TLB "page = 64 KiB\ntlb_entries = 1024\ntlb_miss = 14 cycles\n"

/* Golden Cove's second-level TLB (Intel 64 and IA-32 Architectures
 * Optimization Reference Manual, Golden Cove microarchitecture: 2048
 * entries shared by 4 KiB and 2 MiB pages); the 4 KiB page of malloc'ed
 * arrays with transparent huge pages on "madvise" and the cost of a miss
 * to a walk of independent loads are estimates (keel calibrate's TLB
 * probe, runtime/calib_tlb.c, measured about 1.4 ns, 3 to 4 cycles, on an
 * x86 KVM guest; no Golden Cove host measured). */
#define GOLDEN_COVE_TLB "source = datasheet: second-level TLB 2048 entries (Intel optimization " \
    "manual, Golden Cove); estimates: 4 KiB pages, a miss adds 3 cycles to a walk of independent " \
    "loads (keel calibrate's TLB probe on an x86 KVM guest)\npage = 4 KiB\ntlb_entries = 2048\n" \
    "tlb_miss = 3 cycles\n"

#define TABLE3_HITS "l1_latency = 28 cycles\nl2_latency = 193 cycles\n"

static const char *const builtin_text[] = {
    /* ---- CPUs ---- */
    "name = power9\nkind = cpu\n"
    "desc = IBM POWER9 (AC922 host of Chikin et al.), 2 x 20 cores x SMT4 = 160 threads\n"
    "source = chikin Table II (3 GHz, overheads); IBM AC922 8335-GTH redbook (2 sockets x 20 "
    "cores, SMT4, 160 threads as in chikin IV.E; 8 DDR4-2666 channels per socket)\n"
    "source = POWER9 user manual (128-byte lines, 512 KiB L2 and 10 MiB L3 per core pair)\n"
    "source = estimates: sustained 200 GB/s (~60% of 340 GB/s peak), DRAM latency 100 ns, "
    "16 outstanding misses per core (POWER8 UM load-miss queue), 8 flop/cycle/core\n"
    "clock = 3 GHz\ncores = 40\nsmt = 4\nmem_bw = 200 GB/s\nline = 128 B\n"
    "l2 = 256 KiB\nl3 = 200 MiB\nmem_latency = 100 ns\nmlp = 16\npeak_flops = 960 Gflop/s\n"
    "source = chikin Table II (TLB: 1024 entries, 14-cycle miss); RHEL 7 ppc64le base pages "
    "of 64 KiB (the paper's RHEL Server 7.3); the TLB term is not checked against measured "
    "CPU times\n"
    "mca_cpu = pwr9\n" TABLE2 TABLE2_TLB,

    "name = power8\nkind = cpu\n"
    "desc = IBM POWER8 (S822LC host of the K80 in Chikin et al.), 2 x 10 cores x SMT8\n"
    "source = chikin section III (3000 MHz, 160 threads); IBM S822LC 8335-GTA redbook (2 "
    "sockets x 10 cores, SMT8, Centaur-buffered DDR4)\n"
    "source = POWER8 user manual (128-byte lines, 512 KiB L2 and 8 MiB L3 per core, "
    "16-entry load-miss queue)\n"
    "source = estimates: sustained 150 GB/s, DRAM latency 110 ns (Centaur buffer), "
    "8 flop/cycle/core; overheads chikin Table II reused\n"
    "clock = 3 GHz\ncores = 20\nsmt = 8\nmem_bw = 150 GB/s\nline = 128 B\n"
    "l2 = 512 KiB\nl3 = 160 MiB\nmem_latency = 110 ns\nmlp = 16\npeak_flops = 480 Gflop/s\n"
    "source = estimate: TLB 1024 entries, 14-cycle miss of chikin Table II (POWER9) reused; "
    "64 KiB ppc64le base pages; the TLB term is not checked against measured CPU times\n"
    "mca_cpu = pwr8\n" TABLE2 TABLE2_TLB,

    "name = xeon-8480\nkind = cpu\n"
    "desc = Intel Xeon Platinum 8480+ (Sapphire Rapids), 56 cores x SMT2\n"
    "source = Intel ARK 8480+ (56 cores, 2 threads/core, 2.0 GHz base, 105 MB L3, 8 x "
    "DDR5-4800 = 307 GB/s peak); Intel optimization manual (64-byte lines, 2 MB L2/core, "
    "16 L1D fill buffers on Golden Cove, 2 x 512-bit FMA = 32 flop/cycle)\n"
    "source = estimates: sustained 245 GB/s (80% of peak), DRAM latency 110 ns; overheads "
    "chikin Table II reused\n"
    "clock = 2 GHz\ncores = 56\nsmt = 2\nmem_bw = 245 GB/s\nline = 64 B\n"
    "l2 = 2 MiB\nl3 = 105 MiB\nmem_latency = 110 ns\nmlp = 16\npeak_flops = 3584 Gflop/s\n"
    "mca_cpu = sapphirerapids\n" TABLE2 GOLDEN_COVE_TLB,

    "name = q8300\nkind = cpu\n"
    "desc = Intel Core 2 Quad Q8300, 4 threads\n"
    "source = boat-hull Table 3 (40 GFLOPS, STREAM 4.7 GB/s, 4 threads); Intel spec (2.5 GHz, "
    "2 x 2 MB L2); 8 fill buffers, latency 80 ns estimates; overheads chikin Table II reused\n"
    "clock = 2.5 GHz\ncores = 4\nsmt = 1\nmem_bw = 4.7 GB/s\nline = 64 B\n"
    "l2 = 1 MiB\nl3 = 0 B\nmem_latency = 80 ns\nmlp = 8\npeak_flops = 40 Gflop/s\n"
    "mca_cpu = core2\n" TABLE2,

    "name = i7-930\nkind = cpu\n"
    "desc = Intel Core i7-930 (Nehalem), 4 cores x SMT2\n"
    "source = boat-hull Table 3 (90 GFLOPS, STREAM 12.2 GB/s, 8 threads); Intel spec (2.8 GHz, "
    "256 KB L2/core, 8 MB L3); 10 fill buffers (Intel optimization manual), latency 70 ns "
    "estimate; overheads chikin Table II reused\n"
    "clock = 2.8 GHz\ncores = 4\nsmt = 2\nmem_bw = 12.2 GB/s\nline = 64 B\n"
    "l2 = 256 KiB\nl3 = 8 MiB\nmem_latency = 70 ns\nmlp = 10\npeak_flops = 90 Gflop/s\n"
    "mca_cpu = nehalem\n" TABLE2,

    /* ---- GPUs ---- */
    "name = v100\nkind = gpu\n"
    "desc = NVIDIA Tesla V100 over NVLink 2 (Chikin et al.)\n"
    "source = chikin Table III (84 SMs, 1.53 GHz, 900 GB/s, NVLink 25 GB/s, 64 warps and 2048 "
    "threads/SM, issue 1 cycle, memory latency 1029 cycles); CUDA cc 7.0 (32 blocks/SM, 4 warp "
    "schedulers/SM); Volta whitepaper (6 MB L2); departure delays Hong-Kim Table 6; L1 and L2 hit "
    "latencies 28 and 193 cycles (chikin Table III)\n"
    "sms = 84\nclock = 1.53 GHz\nmem_bw = 900 GB/s\nbus_bw = 25 GB/s\nmax_warps_sm = 64\n"
    "max_threads_sm = 2048\nmax_blocks_sm = 32\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 6 MiB\n" TABLE3_HITS HKGRID,

    "name = k80\nkind = gpu\n"
    "desc = NVIDIA Tesla K80 (one GK210 of the board) over PCIe 3.0\n"
    "source = NVIDIA K80 datasheet (13 SMX per GK210, 875 MHz boost, 240 GB/s per GPU, 1.5 MB "
    "L2); CUDA cc 3.7 (64 warps, 2048 threads, 16 blocks/SM, 4 warp schedulers/SMX); bus 10 GB/s "
    "estimate (practical PCIe 3.0 x16); latencies (DRAM 1029, L2 193, L1 28 cycles) of chikin Table III reused\n"
    "sms = 13\nclock = 875 MHz\nmem_bw = 240 GB/s\nbus_bw = 10 GB/s\nmax_warps_sm = 64\n"
    "max_threads_sm = 2048\nmax_blocks_sm = 16\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 1536 KiB\n" TABLE3_HITS HKGRID,

    "name = a100\nkind = gpu\n"
    "desc = NVIDIA A100 SXM4 40GB over PCIe 4.0\n"
    "source = NVIDIA A100 datasheet (108 SMs, 1.41 GHz boost, 1555 GB/s, 40 MB L2); CUDA cc 8.0 "
    "(64 warps, 2048 threads, 32 blocks/SM, 4 schedulers); bus 25 GB/s estimate (practical "
    "PCIe 4.0 x16); latencies (DRAM 1029, L2 193, L1 28 cycles) of chikin Table III reused\n"
    "sms = 108\nclock = 1.41 GHz\nmem_bw = 1555 GB/s\nbus_bw = 25 GB/s\nmax_warps_sm = 64\n"
    "max_threads_sm = 2048\nmax_blocks_sm = 32\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 40 MiB\n" TABLE3_HITS HKGRID,

    "name = h100\nkind = gpu\n"
    "desc = NVIDIA H100 SXM5 80GB over PCIe 5.0\n"
    "source = NVIDIA H100 datasheet (132 SMs, 1.98 GHz boost, 3.35 TB/s, 50 MB L2); CUDA cc 9.0 "
    "(64 warps, 2048 threads, 32 blocks/SM, 4 schedulers); bus 25 GB/s estimate: half the "
    "~50 GB/s of pinned PCIe 5.0 x16, as OpenMP maps pageable (malloc'ed) memory through the "
    "driver's staging buffers (the lent machine measured 5.18 GB/s pageable)\n"
    "source = measured on the lent H100 80GB HBM3 by bench/gpu-probe.cu: DRAM 696, L2 410, L1 39 "
    "cycles (pointer chase), empty kernel + synchronise 11.1 us\n"
    "sms = 132\nclock = 1.98 GHz\nmem_bw = 3350 GB/s\nbus_bw = 25 GB/s\nmax_warps_sm = 64\n"
    "max_threads_sm = 2048\nmax_blocks_sm = 32\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 696 cycles\nl2 = 50 MiB\nl1_latency = 39 cycles\nl2_latency = 410 cycles\n"
    HKGRID "launch = 11.1 us\n",

    "name = h100-pcie\nkind = gpu\n"
    "desc = NVIDIA H100 PCIe 80GB over PCIe 5.0\n"
    "source = NVIDIA H100 datasheet, PCIe form factor (114 SMs, 1.755 GHz boost, 2.0 TB/s HBM2e, "
    "50 MB L2); CUDA cc 9.0 (64 warps, 2048 threads, 32 blocks/SM, 4 schedulers); bus 50 GB/s "
    "estimate (practical PCIe 5.0 x16); latencies (DRAM 1029, L2 193, L1 28 cycles) of chikin Table III reused\n"
    "sms = 114\nclock = 1.755 GHz\nmem_bw = 2000 GB/s\nbus_bw = 50 GB/s\nmax_warps_sm = 64\n"
    "max_threads_sm = 2048\nmax_blocks_sm = 32\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 50 MiB\n" TABLE3_HITS HKGRID,

    /* Current cards a CUDA name matches (rt_profile_match_gpu).  SMs, clock
     * and L2 are what the driver reports (published deviceQuery outputs,
     * named in each source) where the datasheet gives CUDA cores only;
     * DRAM bandwidth is the datasheet's. */
    "name = h200\nkind = gpu\n"
    "desc = NVIDIA H200 SXM 141GB over PCIe 5.0\n"
    "source = NVIDIA H200 datasheet (141 GB HBM3e, 4.8 TB/s); CUDA cc 9.0 (64 warps, 2048 "
    "threads, 32 blocks/SM, 4 schedulers)\n"
    "source = estimates: the H100 SXM5's GH100 (132 SMs, 1.98 GHz boost, 50 MB L2, as the h100 "
    "profile; the H200 datasheet gives memory only); bus 25 GB/s as the h100 profile (pageable "
    "memory over PCIe 5.0 x16); DRAM 696, L2 410, L1 39 cycles and 11.1 us launch measured on the "
    "lent H100 (bench/gpu-probe.cu) reused: same SM, HBM3e not measured\n"
    "sms = 132\nclock = 1.98 GHz\nmem_bw = 4800 GB/s\nbus_bw = 25 GB/s\nmax_warps_sm = 64\n"
    "max_threads_sm = 2048\nmax_blocks_sm = 32\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 696 cycles\nl2 = 50 MiB\nl1_latency = 39 cycles\nl2_latency = 410 cycles\n"
    HKGRID "launch = 11.1 us\n",

    "name = a100-80gb\nkind = gpu\n"
    "desc = NVIDIA A100 SXM4 80GB over PCIe 4.0\n"
    "source = NVIDIA A100 datasheet, 80GB SXM (2039 GB/s HBM2e; 108 SMs, 1.41 GHz boost, 40 MB "
    "L2 as the 40GB); CUDA cc 8.0 (64 warps, 2048 threads, 32 blocks/SM, 4 schedulers); bus 25 "
    "GB/s estimate (practical PCIe 4.0 x16); latencies (DRAM 1029, L2 193, L1 28 cycles) of "
    "chikin Table III reused\n"
    "sms = 108\nclock = 1.41 GHz\nmem_bw = 2039 GB/s\nbus_bw = 25 GB/s\nmax_warps_sm = 64\n"
    "max_threads_sm = 2048\nmax_blocks_sm = 32\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 40 MiB\n" TABLE3_HITS HKGRID,

    "name = a100-80gb-pcie\nkind = gpu\n"
    "desc = NVIDIA A100 80GB PCIe over PCIe 4.0\n"
    "source = NVIDIA A100 datasheet, 80GB PCIe (1935 GB/s HBM2e; 108 SMs, 1.41 GHz boost, 40 MB "
    "L2 as the SXM); CUDA cc 8.0 (64 warps, 2048 threads, 32 blocks/SM, 4 schedulers); bus 25 "
    "GB/s estimate (practical PCIe 4.0 x16); latencies (DRAM 1029, L2 193, L1 28 cycles) of "
    "chikin Table III reused\n"
    "sms = 108\nclock = 1.41 GHz\nmem_bw = 1935 GB/s\nbus_bw = 25 GB/s\nmax_warps_sm = 64\n"
    "max_threads_sm = 2048\nmax_blocks_sm = 32\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 40 MiB\n" TABLE3_HITS HKGRID,

    "name = l40s\nkind = gpu\n"
    "desc = NVIDIA L40S (Ada) over PCIe 4.0\n"
    "source = NVIDIA L40S datasheet (864 GB/s GDDR6, 18176 CUDA cores, PCIe 4.0 x16); deviceQuery "
    "of an L40S, cuda-device-query README (142 SMs, 2520 MHz, 96 MiB L2); CUDA cc 8.9 (48 warps, "
    "1536 threads, 24 blocks/SM, 4 schedulers); bus 25 GB/s estimate (practical PCIe 4.0 x16); "
    "latencies (DRAM 1029, L2 193, L1 28 cycles) of chikin Table III reused\n"
    "sms = 142\nclock = 2.52 GHz\nmem_bw = 864 GB/s\nbus_bw = 25 GB/s\nmax_warps_sm = 48\n"
    "max_threads_sm = 1536\nmax_blocks_sm = 24\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 96 MiB\n" TABLE3_HITS HKGRID,

    "name = l4\nkind = gpu\n"
    "desc = NVIDIA L4 (Ada) over PCIe 4.0\n"
    "source = NVIDIA L4 datasheet (300 GB/s GDDR6, 30.3 TFLOPS FP32, PCIe 4.0 x16); deviceQuery "
    "of an L4, CUDA 11.8 demo_suite (58 SMs, 2040 MHz, 48 MiB L2); CUDA cc 8.9 (48 warps, 1536 "
    "threads, 24 blocks/SM, 4 schedulers); bus 25 GB/s estimate (practical PCIe 4.0 x16); "
    "latencies (DRAM 1029, L2 193, L1 28 cycles) of chikin Table III reused\n"
    "sms = 58\nclock = 2.04 GHz\nmem_bw = 300 GB/s\nbus_bw = 25 GB/s\nmax_warps_sm = 48\n"
    "max_threads_sm = 1536\nmax_blocks_sm = 24\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 48 MiB\n" TABLE3_HITS HKGRID,

    "name = a10\nkind = gpu\n"
    "desc = NVIDIA A10 (GA102) over PCIe 4.0\n"
    "source = NVIDIA A10 datasheet (600 GB/s GDDR6, 31.2 TFLOPS FP32, PCIe 4.0 x16); deviceQuery "
    "of an A10, CUDA samples (72 SMs, 1695 MHz, 6 MiB L2); CUDA cc 8.6 (48 warps, 1536 threads, "
    "16 blocks/SM, 4 schedulers); bus 25 GB/s estimate (practical PCIe 4.0 x16); latencies (DRAM "
    "1029, L2 193, L1 28 cycles) of chikin Table III reused\n"
    "sms = 72\nclock = 1.695 GHz\nmem_bw = 600 GB/s\nbus_bw = 25 GB/s\nmax_warps_sm = 48\n"
    "max_threads_sm = 1536\nmax_blocks_sm = 16\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 6 MiB\n" TABLE3_HITS HKGRID,

    "name = t4\nkind = gpu\n"
    "desc = NVIDIA T4 (Turing) over PCIe 3.0\n"
    "source = NVIDIA T4 datasheet (320 GB/s GDDR6, 2560 CUDA cores, PCIe 3.0 x16); deviceQuery of "
    "a T4, CUDA 10.0 samples (40 SMs, 1590 MHz, 4 MiB L2); CUDA cc 7.5 (32 warps, 1024 threads, "
    "16 blocks/SM, 4 schedulers); bus 10 GB/s estimate (practical PCIe 3.0 x16); latencies (DRAM "
    "1029, L2 193, L1 28 cycles) of chikin Table III reused\n"
    "sms = 40\nclock = 1.59 GHz\nmem_bw = 320 GB/s\nbus_bw = 10 GB/s\nmax_warps_sm = 32\n"
    "max_threads_sm = 1024\nmax_blocks_sm = 16\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 4 MiB\n" TABLE3_HITS HKGRID,

    "name = rtx4090\nkind = gpu\n"
    "desc = NVIDIA GeForce RTX 4090 (Ada) over PCIe 4.0\n"
    "source = NVIDIA RTX 4090 specifications (16384 CUDA cores, 2.52 GHz boost, 24 GB GDDR6X on "
    "384 bits at 21 Gbps = 1008 GB/s, PCIe 4.0); Ada whitepaper (72 MB L2); deviceQuery of an RTX "
    "4090, CUDA 12.6 demo_suite (128 SMs, 72 MiB L2); CUDA cc 8.9 (48 warps, 1536 threads, 24 "
    "blocks/SM, 4 schedulers); bus 25 GB/s estimate (practical PCIe 4.0 x16); latencies (DRAM "
    "1029, L2 193, L1 28 cycles) of chikin Table III reused\n"
    "sms = 128\nclock = 2.52 GHz\nmem_bw = 1008 GB/s\nbus_bw = 25 GB/s\nmax_warps_sm = 48\n"
    "max_threads_sm = 1536\nmax_blocks_sm = 24\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 72 MiB\n" TABLE3_HITS HKGRID,

    "name = rtx3090\nkind = gpu\n"
    "desc = NVIDIA GeForce RTX 3090 (GA102) over PCIe 4.0\n"
    "source = NVIDIA RTX 3090 specifications (10496 CUDA cores, 1.70 GHz boost, 24 GB GDDR6X on "
    "384 bits at 19.5 Gbps = 936 GB/s, PCIe 4.0); deviceQuery of an RTX 3090, CUDA 11.8 demo_suite "
    "(82 SMs, 1695 MHz, 6 MiB L2); CUDA cc 8.6 (48 warps, 1536 threads, 16 blocks/SM, 4 "
    "schedulers); bus 25 GB/s estimate (practical PCIe 4.0 x16); latencies (DRAM 1029, L2 193, L1 "
    "28 cycles) of chikin Table III reused\n"
    "sms = 82\nclock = 1.695 GHz\nmem_bw = 936 GB/s\nbus_bw = 25 GB/s\nmax_warps_sm = 48\n"
    "max_threads_sm = 1536\nmax_blocks_sm = 16\nissue_cycles = 1\nschedulers = 4\n"
    "mem_latency = 1029 cycles\nl2 = 6 MiB\n" TABLE3_HITS HKGRID,

    "name = gtx470\nkind = gpu\n"
    "desc = NVIDIA GeForce GTX470 (Fermi) of the boat hull paper\n"
    "source = boat-hull Table 2 (P_coalesced 95 GB/s, B_bus 5.1 GB/s); NVIDIA spec (14 SMs, "
    "1.215 GHz shader clock, 640 KB L2); CUDA cc 2.0 (48 warps, 1536 threads, 8 blocks/SM, 2 "
    "schedulers); issue 2 cycles (16-wide groups); latency 600 cycles estimate\n"
    "sms = 14\nclock = 1.215 GHz\nmem_bw = 95 GB/s\nbus_bw = 5.1 GB/s\nmax_warps_sm = 48\n"
    "max_threads_sm = 1536\nmax_blocks_sm = 8\nissue_cycles = 2\nschedulers = 2\n"
    "mem_latency = 600 cycles\nl2 = 640 KiB\n" HKGRID,

    "name = gts250\nkind = gpu\n"
    "desc = NVIDIA GeForce GTS250 (G92b) of the boat hull paper\n"
    "source = boat-hull Table 2 (P_coalesced 56 GB/s, B_bus 2.1 GB/s); NVIDIA spec (16 SMs, "
    "1.836 GHz shader clock, no L2); CUDA cc 1.1 (24 warps, 768 threads, 8 blocks/SM, 1 "
    "scheduler); issue 4 cycles (8 SPs, as GTX280 in Hong-Kim); latency 600 cycles estimate\n"
    "sms = 16\nclock = 1.836 GHz\nmem_bw = 56 GB/s\nbus_bw = 2.1 GB/s\nmax_warps_sm = 24\n"
    "max_threads_sm = 768\nmax_blocks_sm = 8\nissue_cycles = 4\nschedulers = 1\n"
    "mem_latency = 600 cycles\nl2 = 0 B\n" HKGRID,
};

/* Conservative host defaults when the database holds no calibration: a
 * 2 GHz core, 40 GB/s sustained (a dual-channel DDR5 desktop or a small
 * server; generous so that memory-bound nests are not offloaded on a
 * guess), 16 flop/cycle/core, 8 cores, chikin Table II overheads. */
static const char host_text[] =
    "name = host\nkind = cpu\n"
    "desc = this host (conservative defaults; run `keel calibrate` or set KEEL_HOST)\n"
    "source = defaults: 2 GHz, 8 cores, 40 GB/s, 16 flop/cycle/core; 64-byte lines, 32 KiB L1d, "
    "1 MiB L2, 16 MiB L3, 90 ns, 12 misses/core (x86 estimates); overheads chikin Table II\n"
    "clock = 2 GHz\ncores = 8\nsmt = 1\nmem_bw = 40 GB/s\nline = 64 B\nl1 = 32 KiB\nl2 = 1 MiB\n"
    "l3 = 16 MiB\nmem_latency = 90 ns\nmlp = 12\npeak_flops = 256 Gflop/s\n" TABLE2;

#define NBUILTIN (int)(sizeof builtin_text / sizeof builtin_text[0])

/* builtins[i] holds builtin_text[i]'s profile once asked for (its texts
 * point into the image, see builtin()); index NBUILTIN stands for
 * host_text.  built[i]: 0 not asked for yet, 1 published, -1 the text
 * failed (never published). */
static rt_profile builtins[NBUILTIN + 1];
static _Atomic int built[NBUILTIN + 1];
static pthread_mutex_t builtin_lock = PTHREAD_MUTEX_INITIALIZER;
static int nbuiltins, builtin_index[NBUILTIN];   /* the good ones, in text order */
static pthread_once_t builtin_all_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t user_lock = PTHREAD_MUTEX_INITIALIZER;
static machine *users;       /* loaded user profiles, newest first */

/* ---- parsing -------------------------------------------------------------- */

/* Names compare with ASCII case folded, whatever the program's locale
 * (and without the C library's tables: a first decision looks names up). */
static int ascii_lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static int eq_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (ascii_lower((unsigned char)*a) != ascii_lower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* "3 GHz" -> 3e9, "512 KiB" -> 524288, "100 ns" -> 1e-7, "1029 cycles". */
static int parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno)
        return -1;
    while (*end == ' ' || *end == '\t')
        end++;
    const char *u = end;
    static const struct { const char *u; double f; } time[] = {
        { "ns", 1e-9 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
    };
    for (size_t i = 0; i < sizeof time / sizeof time[0]; i++)
        if (strcmp(u, time[i].u) == 0)
            return *out = v * time[i].f, 0;
    double f = 1;
    switch (*u) {
    case 'k': case 'K': f = 1e3; break;
    case 'M': f = 1e6; break;
    case 'G': f = 1e9; break;
    case 'T': f = 1e12; break;
    }
    if (f != 1) {
        u++;
        if (*u == 'i') {
            f = f == 1e3 ? 1024.0 : f == 1e6 ? 1048576.0 : f == 1e9 ? 1073741824.0 : 1099511627776.0;
            u++;
        }
    }
    static const char *const words[] = { "", "B", "Hz", "B/s", "flop/s", "cycles", "cycle",
                                         "threads", "warps", "blocks" };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(u, words[i]) == 0)
            return *out = v * f, 0;
    return -1;
}

static void copy_str(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = 0;
    return s;
}

/* Parse text into m (m zeroed by the caller).  0, or -1 with a message. */
/* Phase 1: the `kind = cpu|gpu` line, wherever it is (it decides what
 * clock, mem_bw, l2 and mem_latency mean); -1 when there is none. */
static int profile_kind(const char *text)
{
    int kind = -1;
    for (const char *l = text; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        if (n > 4 && strncmp(l, "kind", 4) == 0) {
            char v[64];
            snprintf(v, sizeof v, "%.*s", (int)(n > 60 ? 60 : n), l);
            char *eq = strchr(v, '=');
            if (eq) {
                char *t = trim(eq + 1);
                kind = eq_nocase(t, "cpu") ? RT_CPU : eq_nocase(t, "gpu") ? RT_GPU : -1;
            }
        }
        l = nl ? nl + 1 : NULL;
    }
    return kind;
}

/* Phase 2a: a key whose value is text (name, kind, desc, source,
 * mca_cpu): 1 when it was one, -1 on a bad name, 0 for a numeric key. */
static int text_key(machine *m, const char *key, const char *val, const char *where, char *err,
                    size_t errlen)
{
    if (!strcmp(key, "name")) {
        copy_str(m->name, sizeof m->name, val);
        if (!*val || strchr(val, '/') || strlen(val) >= sizeof m->name)
            return ku_fail(err, errlen, "%s: bad name", where);
        return 1;
    }
    if (!strcmp(key, "kind"))
        return 1;
    if (!strcmp(key, "desc")) {
        copy_str(m->desc, sizeof m->desc, val);
        return 1;
    }
    if (!strcmp(key, "source")) {
        size_t used = strlen(m->source);
        snprintf(m->source + used, sizeof m->source - used, "%s%s", used ? "; " : "", val);
        return 1;
    }
    if (!strcmp(key, "mca_cpu")) {
        copy_str(m->mca, sizeof m->mca, val);
        return 1;
    }
    return 0;
}

/* Phase 2b: a numeric key, from the table of the profile's fields (the
 * same key names a CPU or a GPU field by the kind); 0 or -1 with err. */
static int number_key(rt_profile *p, int kind, const char *key, const char *val,
                      const char *where, char *err, size_t errlen)
{
    double v;
    if (parse_number(val, &v) || v < 0)
        return ku_fail(err, errlen, "%s: bad value '%s' for %s", where, val, key);
    /* one static table: the field's offset for a CPU and for a GPU
     * profile (the same where the key means one thing), int or double */
#define D(f) offsetof(rt_profile, f)
    static const struct { const char *k; size_t cpu, gpu; char isint; } map[] = {
        { "clock", D(freq_hz), D(gpu_hz), 0 },
        { "cores", D(cores), D(cores), 1 }, { "smt", D(smt), D(smt), 1 },
        { "sockets", D(sockets), D(sockets), 1 },
        { "mem_bw", D(mem_bw), D(gpu_bw), 0 },
        { "line", D(line), D(line), 0 },
        { "l1", D(l1), D(l1), 0 },
        { "l2", D(l2), D(gpu_l2), 0 }, { "l3", D(l3), D(l3), 0 },
        { "mem_latency", D(cpu_mem_lat), D(mem_lat), 0 },
        { "mlp", D(mlp), D(mlp), 0 }, { "peak_flops", D(peak_flops), D(peak_flops), 0 },
        { "fork", D(fork_cycles), D(fork_cycles), 0 },
        { "join", D(join_cycles), D(join_cycles), 0 },
        { "schedule", D(sched_cycles), D(sched_cycles), 0 },
        { "loop_overhead", D(loop_overhead), D(loop_overhead), 0 },
        { "sms", D(sms), D(sms), 1 }, { "bus_bw", D(bus_bw), D(bus_bw), 0 },
        { "max_warps_sm", D(max_warps_sm), D(max_warps_sm), 1 },
        { "max_threads_sm", D(max_threads_sm), D(max_threads_sm), 1 },
        { "max_blocks_sm", D(max_blocks_sm), D(max_blocks_sm), 1 },
        { "issue_cycles", D(issue_cycles), D(issue_cycles), 0 },
        { "schedulers", D(schedulers), D(schedulers), 1 },
        { "departure_coal", D(dep_coal), D(dep_coal), 0 },
        { "departure_uncoal", D(dep_uncoal), D(dep_uncoal), 0 },
        { "threads_per_block", D(threads_per_block), D(threads_per_block), 1 },
        { "max_blocks", D(max_blocks), D(max_blocks), 1 },
        { "launch", D(launch_s), D(launch_s), 0 },
        { "sector", D(sector), D(sector), 0 },
        { "l1_latency", D(l1_lat), D(l1_lat), 0 }, { "l2_latency", D(l2_lat), D(l2_lat), 0 },
        { "target_fallback", D(target_fallback), D(target_fallback), 0 },
        { "page", D(page), D(page), 0 }, { "tlb_entries", D(tlb_entries), D(tlb_entries), 0 },
        { "tlb_miss", D(tlb_miss_cycles), D(tlb_miss_cycles), 0 },
        { "latency_fadd", D(lat[RT_LAT_FADD]), D(lat[RT_LAT_FADD]), 0 },
        { "latency_fmul", D(lat[RT_LAT_FMUL]), D(lat[RT_LAT_FMUL]), 0 },
        { "latency_fdiv", D(lat[RT_LAT_FDIV]), D(lat[RT_LAT_FDIV]), 0 },
        { "latency_iadd", D(lat[RT_LAT_IADD]), D(lat[RT_LAT_IADD]), 0 },
        { "latency_imul", D(lat[RT_LAT_IMUL]), D(lat[RT_LAT_IMUL]), 0 },
        { "latency_idiv", D(lat[RT_LAT_IDIV]), D(lat[RT_LAT_IDIV]), 0 },
        { "latency_fsel", D(lat[RT_LAT_FSEL]), D(lat[RT_LAT_FSEL]), 0 },
        { "latency_isel", D(lat[RT_LAT_ISEL]), D(lat[RT_LAT_ISEL]), 0 },
        { "latency_stlf", D(lat[RT_LAT_STLF]), D(lat[RT_LAT_STLF]), 0 },
    };
#undef D
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (key[0] == map[i].k[0] && !strcmp(key, map[i].k)) {
            char *f = (char *)p + (kind == RT_CPU ? map[i].cpu : map[i].gpu);
            if (!map[i].isint)
                memcpy(f, &v, sizeof v);
            else if (v > 1e9 || v != (double)(int)v)
                return ku_fail(err, errlen, "%s: %s wants an integer", where, key);
            else {
                int iv = (int)v;
                memcpy(f, &iv, sizeof iv);
            }
            return 0;
        }
    return ku_fail(err, errlen, "%s: unknown key '%s'", where, key);
}

/* Phase 3: what every model divides by must be there; the defaults of
 * the optional figures.  The missing key's name, or NULL. */
static const char *profile_complete(rt_profile *p, int kind)
{
    const char *miss = NULL;
if (kind == RT_CPU) {
    if (!(p->freq_hz > 0)) miss = "clock";
    else if (p->cores <= 0) miss = "cores";
    else if (!(p->mem_bw > 0)) miss = "mem_bw";
    if (p->smt <= 0) p->smt = 1;
    if (!(p->line > 0)) p->line = 64;
} else {
    if (!(p->gpu_hz > 0)) miss = "clock";
    else if (p->sms <= 0) miss = "sms";
    else if (!(p->gpu_bw > 0)) miss = "mem_bw";
    else if (p->max_warps_sm <= 0 || p->max_threads_sm <= 0 || p->max_blocks_sm <= 0)
        miss = "max_warps_sm, max_threads_sm and max_blocks_sm";
    else if (!(p->mem_lat > 0)) miss = "mem_latency";
    if (!(p->sector > 0)) p->sector = 32;
    if (p->schedulers <= 0) p->schedulers = 1;
    if (!(p->issue_cycles > 0)) p->issue_cycles = 1;
    if (p->threads_per_block <= 0) p->threads_per_block = 128;
    if (p->max_blocks <= 0) p->max_blocks = 65536;
    if (!(p->l1_lat > 0)) p->l1_lat = p->mem_lat;
    if (!(p->l2_lat > 0)) p->l2_lat = p->mem_lat;
}
    return miss;
}

/* A profile's text (`key = value` lines, '#' comments) into m; 0, or -1
 * with err naming ORIGIN and the line. */
/* "origin:lineno" into where (n >= 16), cut to fit: what snprintf would
 * write, without its cost on every line of every built-in profile (the
 * runtime parses them all at its first call). */
static void where_text(char *where, size_t n, const char *origin, int lineno)
{
    char num[16];
    int k = 0;
    unsigned v = lineno > 0 ? (unsigned)lineno : 0;
    do
        num[k++] = (char)('0' + v % 10);
    while ((v /= 10) && k < (int)sizeof num);
    size_t ol = strlen(origin);
    if (ol > n - 2 - (size_t)k)
        ol = n - 2 - (size_t)k;
    memcpy(where, origin, ol);
    where[ol++] = ':';
    while (k > 0)
        where[ol++] = num[--k];
    where[ol] = 0;
}

static int parse_into(machine *m, const char *text, const char *origin, char *err, size_t errlen)
{
    rt_profile *p = &m->p;
    int kind = profile_kind(text ? text : "");
    if (kind < 0)
        return ku_fail(err, errlen, "%s: no `kind = cpu` or `kind = gpu` line", origin);
    char *copy = strdup(text ? text : "");
    if (!copy)
        return ku_fail(err, errlen, "out of memory");
    p->kind = kind;
    int lineno = 0, rc = 0;
    for (char *l = copy, *next; l && rc == 0; l = next) {
        next = strchr(l, '\n');
        if (next)
            *next++ = 0;
        lineno++;
        char *hash = strchr(l, '#');
        if (hash)
            *hash = 0;
        char *t = trim(l);
        if (!*t)
            continue;
        char where[1024];
        where_text(where, sizeof where, origin, lineno);
        char *eq = strchr(t, '=');
        if (!eq) {
            rc = ku_fail(err, errlen, "%s: want `key = value`", where);
            break;
        }
        *eq = 0;
        char *key = trim(t), *val = trim(eq + 1);
        rc = text_key(m, key, val, where, err, errlen);
        if (rc == 0)
            rc = number_key(p, kind, key, val, where, err, errlen);
        else if (rc > 0)
            rc = 0;
    }
    free(copy);
    if (rc)
        return -1;
    if (!m->name[0])
        return ku_fail(err, errlen, "%s: no `name = ...` line", origin);
    const char *miss = profile_complete(p, kind);
    if (miss)
        return ku_fail(err, errlen, "%s: profile '%s' needs %s", origin, m->name, miss);
    p->name = m->name;
    p->desc = m->desc;
    p->source = m->source;
    p->mca_cpu = m->mca[0] ? m->mca : NULL;
    return 0;
}

/* The image of a parsed profile: its text pointers cleared (they point
 * into the machine itself and are set again when it is copied), so that
 * the generated table does not depend on where anything was loaded. */
static void machine_image(machine *m)
{
    m->p.name = m->p.desc = m->p.source = m->p.mca_cpu = NULL;
    m->next = NULL;
}

#ifdef RT_MACHINES_GEN
/* machines_gen.c includes this file for the parser and the texts alone. */
#else
#include "machines_table.h"   /* builtin_image[], builtin_image_ok[] (machines_gen) */

_Static_assert(sizeof builtin_image[0] == sizeof(machine) &&
               sizeof builtin_image / sizeof builtin_image[0] == NBUILTIN + 1,
               "machines_table.h is stale: rebuild machines_gen");

/* Built-in i (NBUILTIN: the host defaults) straight from its image into
 * *out: the figures copied, the texts (name, desc, source, mca_cpu)
 * pointing into the image itself, read-only data that is never copied.
 * The image must be good (builtin_image_ok[i]). */
static void image_profile(int i, rt_profile *out)
{
    const unsigned char *b = builtin_image[i];
    memcpy(out, b + offsetof(machine, p), sizeof *out);
    out->name = (const char *)b + offsetof(machine, name);
    out->desc = (const char *)b + offsetof(machine, desc);
    out->source = (const char *)b + offsetof(machine, source);
    out->mca_cpu = b[offsetof(machine, mca)] ? (const char *)b + offsetof(machine, mca) : NULL;
}

/* The kind of built-in i, read from its image without copying it. */
static int image_kind(int i)
{
    int kind;
    memcpy(&kind, builtin_image[i] + offsetof(machine, p) + offsetof(rt_profile, kind),
           sizeof kind);
    return kind;
}

/* Built-in i (NBUILTIN: the host defaults) from its image, copied on
 * first use (the figures only, see image_profile); NULL when its text
 * does not parse (a test checks that none fails). */
static const rt_profile *builtin(int i)
{
    int st = atomic_load_explicit(&built[i], memory_order_acquire);
    if (st == 0) {
        pthread_mutex_lock(&builtin_lock);
        st = atomic_load_explicit(&built[i], memory_order_relaxed);
        if (st == 0) {
            st = builtin_image_ok[i] ? 1 : -1;
            if (st > 0)
                image_profile(i, &builtins[i]);
            atomic_store_explicit(&built[i], st, memory_order_release);
        }
        pthread_mutex_unlock(&builtin_lock);
    }
    return st > 0 ? &builtins[i] : NULL;
}

int rt_profile_builtins_agree(char *err, size_t errlen)
{
    for (int i = 0; i <= NBUILTIN; i++) {
        machine *m = calloc(1, sizeof *m);
        if (!m)
            return ku_fail(err, errlen, "out of memory");
        char perr[256];
        int ok = parse_into(m, i == NBUILTIN ? host_text : builtin_text[i], "built-in", perr,
                            sizeof perr) == 0;
        machine_image(m);
        int same = ok == builtin_image_ok[i] && (!ok || !memcmp(m, builtin_image[i], sizeof *m));
        free(m);
        if (!same)
            return ku_fail(err, errlen, "built-in profile %d: %s", i,
                           ok ? "its image differs from its text" : perr);
    }
    return 0;
}

/* Whether built-in text t names `name` (its first line is `name = ...`,
 * as every built-in's is), without parsing the rest. */
static int builtin_named(const char *t, const char *name)
{
    /* (as strncmp would, inline: the lookup runs in a program's first
     * decision, where each libc function called first costs its lazy
     * binding, some 800 instructions) */
    for (const char *k = "name = "; *k; k++, t++)
        if (*t != *k)
            return 0;
    for (; *name && *t != '\n'; t++, name++)
        if (ascii_lower((unsigned char)*t) != ascii_lower((unsigned char)*name))
            return 0;
    return !*name && *t == '\n';
}

/* For listing (keel devices): every built-in, in text order. */
static void parse_builtins(void)
{
    for (int i = 0; i < NBUILTIN; i++)
        if (builtin(i))
            builtin_index[nbuiltins++] = i;
}

const rt_profile *rt_profile_parse(const char *text, const char *origin, char *err, size_t errlen)
{
    machine *m = calloc(1, sizeof *m);
    if (!m)
        return ku_fail(err, errlen, "out of memory"), NULL;
    if (parse_into(m, text, origin ? origin : "profile", err, errlen)) {
        free(m);
        return NULL;
    }
    pthread_mutex_lock(&user_lock);
    m->next = users;
    users = m;
    pthread_mutex_unlock(&user_lock);
    return &m->p;
}

const rt_profile *rt_profile_load(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return ku_fail(err, errlen, "%s: %s", path, strerror(errno)), NULL;
    char buf[16384];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    int big = !feof(f);
    fclose(f);
    if (big)
        return ku_fail(err, errlen, "%s: larger than 16 KiB", path), NULL;
    buf[n] = 0;
    if (memchr(buf, 0, n))
        return ku_fail(err, errlen, "%s: not a text file", path), NULL;
    return rt_profile_parse(buf, path, err, errlen);
}

/* ---- writing -------------------------------------------------------------- */

static void put_bytes(FILE *out, const char *k, double v)
{
    if (v >= 1048576 && fmod(v, 1048576) == 0)
        fprintf(out, "%s = %.17g MiB\n", k, v / 1048576);
    else if (v >= 1024 && fmod(v, 1024) == 0)
        fprintf(out, "%s = %.17g KiB\n", k, v / 1024);
    else
        fprintf(out, "%s = %.17g B\n", k, v);
}

void rt_profile_write(const rt_profile *p, FILE *out)
{
    fprintf(out, "# keel machine profile (keel devices --export %s)\n", p->name);
    fprintf(out, "name = %s\nkind = %s\n", p->name, p->kind == RT_CPU ? "cpu" : "gpu");
    if (p->desc && *p->desc)
        fprintf(out, "desc = %s\n", p->desc);
    /* the joined sources go back one per line */
    const char *s = p->source ? p->source : "";
    while (*s) {
        const char *e = strstr(s, "; ");
        size_t n = e ? (size_t)(e - s) : strlen(s);
        fprintf(out, "source = %.*s\n", (int)n, s);
        s += n + (e ? 2 : 0);
    }
    if (p->kind == RT_CPU) {
        fprintf(out, "clock = %.17g GHz\ncores = %d\nsmt = %d\nmem_bw = %.17g GB/s\n",
                p->freq_hz / 1e9, p->cores, p->smt, p->mem_bw / 1e9);
        if (p->sockets > 1)
            fprintf(out, "sockets = %d\n", p->sockets);
        put_bytes(out, "line", p->line);
        if (p->l1 > 0)
            put_bytes(out, "l1", p->l1);
        put_bytes(out, "l2", p->l2);
        put_bytes(out, "l3", p->l3);
        fprintf(out, "mem_latency = %.17g ns\nmlp = %.17g\npeak_flops = %.17g Gflop/s\n",
                p->cpu_mem_lat * 1e9, p->mlp, p->peak_flops / 1e9);
        fprintf(out, "fork = %.17g cycles\njoin = %.17g cycles\nschedule = %.17g cycles\n"
                     "loop_overhead = %.17g cycles\n",
                p->fork_cycles, p->join_cycles, p->sched_cycles, p->loop_overhead);
        if (p->mca_cpu)
            fprintf(out, "mca_cpu = %s\n", p->mca_cpu);
        if (p->target_fallback > 0)
            fprintf(out, "target_fallback = %.17g us\n", p->target_fallback * 1e6);
        if (p->page > 0)
            put_bytes(out, "page", p->page);
        if (p->tlb_entries > 0 || p->tlb_miss_cycles > 0)
            fprintf(out, "tlb_entries = %.17g\ntlb_miss = %.17g cycles\n", p->tlb_entries,
                    p->tlb_miss_cycles);
        for (int k = 0; k < RT_NLAT; k++)
            if (p->lat[k] > 0)
                fprintf(out, "latency_%s = %.17g cycles\n", rt_lat_name(k), p->lat[k]);
    } else {
        fprintf(out, "sms = %d\nclock = %.17g GHz\nmem_bw = %.17g GB/s\nbus_bw = %.17g GB/s\n",
                p->sms, p->gpu_hz / 1e9, p->gpu_bw / 1e9, p->bus_bw / 1e9);
        fprintf(out, "max_warps_sm = %d\nmax_threads_sm = %d\nmax_blocks_sm = %d\n",
                p->max_warps_sm, p->max_threads_sm, p->max_blocks_sm);
        fprintf(out, "issue_cycles = %.17g\nschedulers = %d\nmem_latency = %.17g cycles\n",
                p->issue_cycles, p->schedulers, p->mem_lat);
        put_bytes(out, "l2", p->gpu_l2);
        fprintf(out, "departure_coal = %.17g cycles\ndeparture_uncoal = %.17g cycles\n",
                p->dep_coal, p->dep_uncoal);
        fprintf(out, "threads_per_block = %d\nmax_blocks = %d\nlaunch = %.17g us\n",
                p->threads_per_block, p->max_blocks, p->launch_s * 1e6);
        put_bytes(out, "sector", p->sector);
        fprintf(out, "l1_latency = %.17g cycles\nl2_latency = %.17g cycles\n", p->l1_lat,
                p->l2_lat);
    }
}

/* ---- lookup --------------------------------------------------------------- */

int rt_machines_dir(char *buf, size_t len)
{
    const char *d = getenv("KEEL_MACHINES"), *home = getenv("HOME");
    int n;
    if (d && *d)
        n = snprintf(buf, len, "%s", d);
    else if (home && *home)
        n = snprintf(buf, len, "%s/.config/keel/machines", home);
    else
        return -1;
    return n > 0 && (size_t)n < len ? 0 : -1;
}

int rt_profile_count(void)
{
    pthread_once(&builtin_all_once, parse_builtins);
    return nbuiltins;
}

const rt_profile *rt_profile_at(int i)
{
    pthread_once(&builtin_all_once, parse_builtins);
    return i >= 0 && i < nbuiltins ? &builtins[builtin_index[i]] : NULL;
}

const rt_profile *rt_profile_host_default(void)
{
    return builtin(NBUILTIN);
}

/* The built-in index `name` stands for ("host": NBUILTIN), or -1. */
static int builtin_find(const char *name)
{
    if (eq_nocase(name, "host"))
        return NBUILTIN;
    for (int i = 0; i < NBUILTIN; i++)
        if (builtin_named(builtin_text[i], name))
            return i;
    return -1;
}

int rt_profile_builtin_into(const char *name, int kind, rt_profile *out)
{
    int slash = 0;
    for (const char *c = name; c && *c && !slash; c++)   /* (strchr, inline: builtin_named) */
        slash = *c == '/';
    int i = name && *name && !slash ? builtin_find(name) : -1;
    if (i < 0 || !builtin_image_ok[i] || image_kind(i) != kind)
        return 0;
    image_profile(i, out);
    return 1;
}

const rt_profile *rt_profile_find(const char *name)
{
    char err[256], path[4096];
    if (!name || !*name)
        return NULL;
    if (strchr(name, '/'))
        return rt_profile_load(name, err, sizeof err);
    int b = builtin_find(name);
    const rt_profile *bp = b >= 0 ? builtin(b) : NULL;
    if (bp)
        return bp;
    const rt_profile *hit = NULL;
    pthread_mutex_lock(&user_lock);
    for (machine *m = users; m && !hit; m = m->next)
        if (eq_nocase(name, m->name))
            hit = &m->p;
    pthread_mutex_unlock(&user_lock);
    if (hit)
        return hit;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.')
            return NULL;
    if (rt_machines_dir(path, sizeof path))
        return NULL;
    size_t l = strlen(path);
    if (snprintf(path + l, sizeof path - l, "/%s.machine", name) >= (int)(sizeof path - l))
        return NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    fclose(f);
    return rt_profile_load(path, err, sizeof err);
}

/* cuda_name as words: ASCII letters lower-cased, every run of anything
 * else one blank, a blank at each end ("NVIDIA A100-SXM4-80GB" ->
 * " nvidia a100 sxm4 80gb "), cut to fit n bytes (n >= 3). */
static void gpu_words(const char *cuda_name, char *s, size_t n)
{
    size_t k = 0;
    s[k++] = ' ';
    for (const char *p = cuda_name; *p && k + 2 < n; p++) {
        int c = (unsigned char)*p;
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
            s[k++] = (char)ascii_lower(c);
        else if (s[k - 1] != ' ')
            s[k++] = ' ';
    }
    if (s[k - 1] != ' ')
        s[k++] = ' ';
    s[k] = 0;
}

const rt_profile *rt_profile_match_gpu(const char *cuda_name)
{
    /* Whole words, so that "a10" is not "A100", "l4" not "L40S", "h200"
     * not "GH200"; every word group of a row must be in the name, and the
     * first row that matches wins (the more specific first).  A variant
     * that carries a profile's words ("RTX 4090 D", an A100 MIG slice) is
     * told apart by its SM count (rt_profile_for_cuda). */
    static const struct { const char *all[3], *profile; } rows[] = {
        { { " h100 ", " pcie " }, "h100-pcie" },
        { { " h100 " }, "h100" },
        { { " h200 " }, "h200" },
        { { " a100 ", " 80gb ", " pcie " }, "a100-80gb-pcie" },
        { { " a100 ", " 80gb " }, "a100-80gb" },
        { { " a100 " }, "a100" },
        { { " a10 " }, "a10" },
        { { " l40s " }, "l40s" },
        { { " l4 " }, "l4" },
        { { " t4 " }, "t4" },
        { { " rtx 4090 " }, "rtx4090" },
        { { " rtx 3090 " }, "rtx3090" },
        { { " v100 " }, "v100" },
        { { " k80 " }, "k80" },
        { { " gtx 470 " }, "gtx470" },
        { { " gts 250 " }, "gts250" },
    };
    char s[256];
    if (!cuda_name)
        return NULL;
    gpu_words(cuda_name, s, sizeof s);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        int all = 1;
        for (int w = 0; w < 3 && rows[i].all[w] && all; w++)
            all = strstr(s, rows[i].all[w]) != NULL;
        if (all)
            return rt_profile_find(rows[i].profile);
    }
    return NULL;
}

void rt_profile_from_calibration(const rt_calibration *c, rt_profile *out)
{
    if (builtin_image_ok[NBUILTIN])
        image_profile(NBUILTIN, out);
    else
        memset(out, 0, sizeof *out);
    out->desc = "this host (calibrated by `keel calibrate`)";
    /* [pattern table][caches read] */
    static const char *const src[2][2] = {
        { "keel calibrate: STREAM-triad bandwidth, FMA peak, EPCC-style overheads, host "
          "fallback of a target region, dependent-chain latencies; cache and memory latency "
          "figures of the host defaults",
          "keel calibrate: STREAM-triad bandwidth, FMA peak, EPCC-style overheads, host "
          "fallback of a target region, dependent-chain latencies, cache sizes the operating "
          "system lists; memory latency figures of the host defaults" },
        { "keel calibrate: STREAM-triad bandwidth, bandwidth per access pattern and footprint "
          "(PMaC), FMA peak, EPCC-style overheads, host fallback of a target region, "
          "dependent-chain latencies; cache and memory latency figures of the host defaults",
          "keel calibrate: STREAM-triad bandwidth, bandwidth per access pattern and footprint "
          "(PMaC), FMA peak, EPCC-style overheads, host fallback of a target region, "
          "dependent-chain latencies, cache sizes the operating system lists; memory latency "
          "figures of the host defaults" } };
    int caches = c->l1 > 0 && c->l2 > 0, table = c->bw_points > 0 && c->bw_points <= RT_BW_POINTS;
    out->source = src[table][caches];
    if (c->freq_hz > 0) out->freq_hz = c->freq_hz;
    if (c->cores > 0) out->cores = c->cores, out->smt = 1;
    if (c->mem_bw > 0) out->mem_bw = c->mem_bw;
    if (c->peak_flops > 0) out->peak_flops = c->peak_flops;
    /* overheads measured in ns -> cycles of this clock */
    if (c->fork_ns > 0) out->fork_cycles = c->fork_ns * 1e-9 * out->freq_hz;
    if (c->join_ns > 0) out->join_cycles = c->join_ns * 1e-9 * out->freq_hz;
    if (c->sched_ns > 0) out->sched_cycles = c->sched_ns * 1e-9 * out->freq_hz;
    /* latencies of dependent chains (calib.c), for the recurrence bound */
    for (int k = 0; k < RT_NLAT; k++)
        if (c->lat[k] > 0)
            out->lat[k] = c->lat[k];
    /* the host fallback of a `target` region, measured (calib_omp.c) */
    if (c->target_fallback_ns > 0) out->target_fallback = c->target_fallback_ns * 1e-9;
    /* the last-level TLB (calib_tlb.c): Liao-Chapman's Tlb_c figures, the
     * miss in cycles of this clock */
    if (c->page > 0 && c->tlb_entries > 0 && c->tlb_miss_ns > 0) {
        out->page = c->page;
        out->tlb_entries = c->tlb_entries;
        out->tlb_miss_cycles = c->tlb_miss_ns * 1e-9 * out->freq_hz;
    }
    /* the caches as keel calibrate read them (calib_cache.c): the traffic
     * model's levels and its thread's cache (L2 + L3 / cores) */
    if (caches) {
        out->l1 = c->l1;
        out->l2 = c->l2;
        if (c->l3 > 0)
            out->l3 = c->l3;
    }
    /* bandwidth per access pattern and footprint (PMaC): replaces mem_bw
     * and the Little's-law default in the CPU memory term */
    /* what T threads busy at once get (calib_omp.c): a thread's rate of
     * work and the triad's shape between one thread and all of them */
    if (c->tc_points > 0 && c->tc_points <= RT_TC_POINTS) {
        out->tc_points = c->tc_points;
        memcpy(out->tc_threads, c->tc_threads, sizeof out->tc_threads);
        memcpy(out->tc_clock, c->tc_clock, sizeof out->tc_clock);
        memcpy(out->tc_work, c->tc_work, sizeof out->tc_work);
        memcpy(out->tc_bw, c->tc_bw, sizeof out->tc_bw);
    }
    if (table) {
        out->bw_points = c->bw_points;
        out->bw_threads = c->bw_threads;
        memcpy(out->bw_fp, c->bw_fp, sizeof out->bw_fp);
        memcpy(out->bw_one, c->bw_one, sizeof out->bw_one);
        memcpy(out->bw_all, c->bw_all, sizeof out->bw_all);
    }
}
#endif /* RT_MACHINES_GEN */
