/*
 * test_gpu_attrs.c -- a CUDA device's profile without a GPU: the names
 * CUDA reports matched to built-in profiles, and the profile derived from
 * the attributes the driver reports (runtime/gpu_attrs.c), with the
 * attribute values of published deviceQuery outputs and every figure
 * computed by hand in the comment above its checks.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "rt.h"

/* |got - want| within 1e-9 relative */
#define NEAR(got, want) CHECK(fabs((double)(got) - (double)(want)) <= \
                              1e-9 * fabs((double)(want)) + 1e-12)

/* The built-in a CUDA name matches, by name ("" for none). */
static const char *matched(const char *cuda_name)
{
    const rt_profile *p = rt_profile_match_gpu(cuda_name);
    return p ? p->name : "";
}

static void test_names(void)
{
    /* names as CUDA reports them (cuDeviceGetName, nvidia-smi) */
    CHECK_STR(matched("NVIDIA H100 80GB HBM3"), "h100");
    CHECK_STR(matched("NVIDIA H100 PCIe"), "h100-pcie");
    CHECK_STR(matched("NVIDIA H200"), "h200");
    CHECK_STR(matched("NVIDIA GH200 480GB"), "");          /* not "h200" */
    CHECK_STR(matched("NVIDIA A100-SXM4-40GB"), "a100");
    CHECK_STR(matched("NVIDIA A100-PCIE-40GB"), "a100");
    CHECK_STR(matched("NVIDIA A100-SXM4-80GB"), "a100-80gb");
    CHECK_STR(matched("NVIDIA A100 80GB PCIe"), "a100-80gb-pcie");
    CHECK_STR(matched("NVIDIA A10"), "a10");
    CHECK_STR(matched("NVIDIA A10G"), "");                 /* another card */
    CHECK_STR(matched("NVIDIA RTX A1000"), "");            /* not "a100" */
    CHECK_STR(matched("NVIDIA L40S"), "l40s");
    CHECK_STR(matched("NVIDIA L40"), "");                  /* not "l4" */
    CHECK_STR(matched("NVIDIA L4"), "l4");
    CHECK_STR(matched("Tesla T4"), "t4");
    CHECK_STR(matched("NVIDIA GeForce RTX 4090"), "rtx4090");
    CHECK_STR(matched("NVIDIA GeForce RTX 3090"), "rtx3090");
    CHECK_STR(matched("NVIDIA GeForce RTX 4080"), "");
    CHECK_STR(matched("Tesla V100-SXM2-16GB"), "v100");
    CHECK_STR(matched("Tesla V100S-PCIE-32GB"), "");       /* V100S: other figures */
    CHECK_STR(matched("Tesla K80"), "k80");
    CHECK_STR(matched("GeForce GTX 470"), "gtx470");
    CHECK_STR(matched("GeForce GTS 250"), "gts250");
    CHECK_STR(matched("nvidia   geforce rtx-4090"), "rtx4090");   /* case, blanks, dashes */
    CHECK_STR(matched("Radeon"), "");
    CHECK_STR(matched(""), "");
    CHECK(rt_profile_match_gpu(NULL) == NULL);
}

static rt_cuda_attrs attrs(int sms, int clock_khz, int mem_khz, int bus_bits, int l2,
                           int threads, int major, int minor)
{
    rt_cuda_attrs a;
    rt_cuda_attrs_none(&a);
    a.v[RT_CU_SMS] = sms;
    a.v[RT_CU_CLOCK_KHZ] = clock_khz;
    a.v[RT_CU_MEM_CLOCK_KHZ] = mem_khz;
    a.v[RT_CU_BUS_BITS] = bus_bits;
    a.v[RT_CU_L2] = l2;
    a.v[RT_CU_THREADS_SM] = threads;
    a.v[RT_CU_WARP] = 32;
    a.v[RT_CU_CC_MAJOR] = major;
    a.v[RT_CU_CC_MINOR] = minor;
    a.v[RT_CU_INTEGRATED] = 0;
    return a;
}

/* The attribute numbers of cuda.h's CUdevice_attribute. */
static void test_attr_ids(void)
{
    CHECK_INT(rt_cu_attr_id[RT_CU_SMS], 16);
    CHECK_INT(rt_cu_attr_id[RT_CU_CLOCK_KHZ], 13);
    CHECK_INT(rt_cu_attr_id[RT_CU_MEM_CLOCK_KHZ], 36);
    CHECK_INT(rt_cu_attr_id[RT_CU_BUS_BITS], 37);
    CHECK_INT(rt_cu_attr_id[RT_CU_L2], 38);
    CHECK_INT(rt_cu_attr_id[RT_CU_THREADS_SM], 39);
    CHECK_INT(rt_cu_attr_id[RT_CU_BLOCKS_SM], 106);
    CHECK_INT(rt_cu_attr_id[RT_CU_WARP], 10);
    CHECK_INT(rt_cu_attr_id[RT_CU_CC_MAJOR], 75);
    CHECK_INT(rt_cu_attr_id[RT_CU_CC_MINOR], 76);
    CHECK_INT(rt_cu_attr_id[RT_CU_INTEGRATED], 18);
}

static void test_derived(void)
{
    rt_profile p;
    char src[1536];
    /* A100-SXM4-40GB as deviceQuery reports it (Paderborn PC2's Noctua
     * documentation): 108 MPs, GPU max clock 1410 MHz, memory clock 1215
     * MHz, 5120-bit bus, L2 41943040 bytes, 2048 threads/MP, cc 8.0;
     * blocks/SM unreported (deviceQuery does not print attribute 106).
     * DRAM 2 x 1215e6 x 5120 / 8 = 1555.2e9 B/s (datasheet 1555 GB/s);
     * 2048 / 32 = 64 warps; cc 8.0's row: 32 blocks, 4 schedulers;
     * latencies, launch and grid of v100 (chikin Table III). */
    rt_cuda_attrs a = attrs(108, 1410000, 1215000, 5120, 41943040, 2048, 8, 0);
    memset(&p, 0x5a, sizeof p);
    CHECK_INT(rt_profile_from_cuda_attrs(&a, &p, src, sizeof src), 0);
    CHECK_STR(p.name, "cuda");
    CHECK_INT(p.kind, RT_GPU);
    CHECK_INT(p.sms, 108);
    NEAR(p.gpu_hz, 1.41e9);
    NEAR(p.gpu_bw, 1555.2e9);
    NEAR(p.gpu_l2, 40 * 1048576.0);
    CHECK_INT(p.max_threads_sm, 2048);
    CHECK_INT(p.max_warps_sm, 64);
    CHECK_INT(p.max_blocks_sm, 32);
    CHECK_INT(p.schedulers, 4);
    NEAR(p.issue_cycles, 1);
    NEAR(p.bus_bw, 25e9);
    NEAR(p.mem_lat, 1029);
    NEAR(p.l2_lat, 193);
    NEAR(p.l1_lat, 28);
    NEAR(p.launch_s, 10e-6);
    NEAR(p.sector, 32);
    NEAR(p.dep_coal, 4);
    NEAR(p.dep_uncoal, 10);
    CHECK_INT(p.threads_per_block, 128);
    CHECK(p.source == src);
    CHECK_STR(p.source,
              "CUDA driver attributes (cuDeviceGetAttribute): 108 SMs, 1410 MHz, 40 MiB L2, "
              "2048 threads/SM, compute capability 8.0, DRAM 2 x 1215 MHz x 5120 bits / 8 = "
              "1555.2 GB/s (double data rate, NVIDIA's peak-bandwidth formula); CUDA C "
              "Programming Guide, compute capability 8.0: 32 blocks/SM, 4 warp schedulers/SM; "
              "issue 1 cycle (the built-in profiles' from cc 3.0 on, chikin Table III); "
              "estimates: bus 25 GB/s (practical PCIe 4.0 x16, the driver reports no link); of "
              "the v100 profile (its sources): latencies DRAM 1029, L2 193, L1 28 cycles, 10 us "
              "launch, departure delays, OpenMP grid");

    /* Tesla T4 (a published CUDA 10.0 deviceQuery): 40 MPs, 1590 MHz,
     * memory 5001 MHz, 256-bit, L2 4194304 bytes, 1024 threads/MP, cc 7.5.
     * DRAM 2 x 5001e6 x 256 / 8 = 320.064e9 (datasheet 320 GB/s); 1024 /
     * 32 = 32 warps; cc 7.5's row: 16 blocks, 4 schedulers. */
    a = attrs(40, 1590000, 5001000, 256, 4194304, 1024, 7, 5);
    CHECK_INT(rt_profile_from_cuda_attrs(&a, &p, src, sizeof src), 0);
    CHECK_INT(p.sms, 40);
    NEAR(p.gpu_hz, 1.59e9);
    NEAR(p.gpu_bw, 320.064e9);
    NEAR(p.gpu_l2, 4 * 1048576.0);
    CHECK_INT(p.max_warps_sm, 32);
    CHECK_INT(p.max_blocks_sm, 16);
    CHECK_INT(p.schedulers, 4);

    /* GeForce RTX 4090 (a published CUDA 12.6 deviceQuery): 128 MPs, 2535
     * MHz, memory 10501 MHz (GDDR6X, 21 Gbps a pin), 384-bit, L2 75497472
     * bytes, 1536 threads/MP, cc 8.9; the driver's 24 blocks/SM.  DRAM
     * 2 x 10501e6 x 384 / 8 = 1008.096e9 (datasheet 1008 GB/s); 48 warps;
     * 4 schedulers. */
    a = attrs(128, 2535000, 10501000, 384, 75497472, 1536, 8, 9);
    a.v[RT_CU_BLOCKS_SM] = 24;
    CHECK_INT(rt_profile_from_cuda_attrs(&a, &p, src, sizeof src), 0);
    NEAR(p.gpu_hz, 2.535e9);
    NEAR(p.gpu_bw, 1008.096e9);
    NEAR(p.gpu_l2, 72 * 1048576.0);
    CHECK_INT(p.max_warps_sm, 48);
    CHECK_INT(p.max_blocks_sm, 24);
    CHECK(strstr(p.source, "1536 threads/SM, 24 blocks/SM, compute capability 8.9") != NULL);

    /* H100 80GB HBM3 (published deviceQuery outputs): 132 MPs, 1980 MHz,
     * memory 2619 MHz, 5120-bit, L2 52428800 bytes, 2048 threads, cc 9.0.
     * DRAM 2 x 2619e6 x 5120 / 8 = 3352.32e9 (datasheet 3.35 TB/s); cc 9
     * takes the h100 profile's measured latencies and launch. */
    a = attrs(132, 1980000, 2619000, 5120, 52428800, 2048, 9, 0);
    a.v[RT_CU_BLOCKS_SM] = 32;
    CHECK_INT(rt_profile_from_cuda_attrs(&a, &p, src, sizeof src), 0);
    NEAR(p.gpu_bw, 3352.32e9);
    NEAR(p.gpu_l2, 50 * 1048576.0);
    NEAR(p.mem_lat, 696);
    NEAR(p.l2_lat, 410);
    NEAR(p.l1_lat, 39);
    NEAR(p.launch_s, 11.1e-6);
    CHECK(strstr(p.source, "of the h100 profile (its sources): latencies DRAM 696") != NULL);

    /* Nothing reported: the v100 profile's figures, each marked estimate
     * (84 SMs, 1530 MHz, 900 GB/s, 6 MiB L2, 2048 threads = 64 warps),
     * 16 blocks and 4 schedulers as estimates, issue 1. */
    rt_cuda_attrs_none(&a);
    CHECK_INT(rt_profile_from_cuda_attrs(&a, &p, src, sizeof src), 0);
    CHECK_INT(p.sms, 84);
    NEAR(p.gpu_hz, 1.53e9);
    NEAR(p.gpu_bw, 900e9);
    NEAR(p.gpu_l2, 6 * 1048576.0);
    CHECK_INT(p.max_warps_sm, 64);
    CHECK_INT(p.max_blocks_sm, 16);
    CHECK_INT(p.schedulers, 4);
    NEAR(p.issue_cycles, 1);
    CHECK(strstr(p.source, "CUDA driver attributes (cuDeviceGetAttribute): none reported; "
                           "estimates: 84 SMs") == p.source);
    CHECK(strstr(p.source, "estimates: 84 SMs of the v100 profile (not reported), 1530 MHz of "
                           "the v100 profile (not reported)") != NULL);
    CHECK(strstr(p.source, "DRAM 900 GB/s of the v100 profile (no memory clock or bus width "
                           "reported)") != NULL);

    /* An integrated GPU: the same formula, marked estimate. */
    a = attrs(16, 1300000, 3200000, 256, 4194304, 1536, 8, 7);
    a.v[RT_CU_INTEGRATED] = 1;
    CHECK_INT(rt_profile_from_cuda_attrs(&a, &p, src, sizeof src), 0);
    NEAR(p.gpu_bw, 2 * 3200e6 * 256 / 8);
    CHECK(strstr(p.source, "estimates: DRAM 2 x 3200 MHz x 256 bits / 8 = 204.8 GB/s") != NULL);
    CHECK(strstr(p.source, "unchecked for an integrated GPU") != NULL);
    CHECK_INT(p.max_blocks_sm, 16);       /* cc 8.7's row */

    /* Older generations from the Guide's rows: cc 6.0 has 2 schedulers;
     * Fermi issues in 2 cycles, cc 1.x in 4. */
    a = attrs(56, 1480000, 715000, 4096, 4194304, 2048, 6, 0);
    CHECK_INT(rt_profile_from_cuda_attrs(&a, &p, src, sizeof src), 0);
    CHECK_INT(p.schedulers, 2);
    CHECK_INT(p.max_blocks_sm, 32);
    a = attrs(14, 1215000, 1674000, 320, 655360, -1, 2, 0);
    CHECK_INT(rt_profile_from_cuda_attrs(&a, &p, src, sizeof src), 0);
    NEAR(p.issue_cycles, 2);
    CHECK_INT(p.max_threads_sm, 1536);
    CHECK_INT(p.max_warps_sm, 48);
    CHECK_INT(p.schedulers, 2);
    a = attrs(16, 1836000, 1100000, 256, 0, 768, 1, 1);
    CHECK_INT(rt_profile_from_cuda_attrs(&a, &p, src, sizeof src), 0);
    NEAR(p.issue_cycles, 4);
    NEAR(p.gpu_l2, 0);
    CHECK_INT(p.schedulers, 1);
    CHECK_INT(p.max_blocks_sm, 8);

    /* a small buffer cuts the text, nothing more */
    char tiny[16];
    a = attrs(108, 1410000, 1215000, 5120, 41943040, 2048, 8, 0);
    CHECK_INT(rt_profile_from_cuda_attrs(&a, &p, tiny, sizeof tiny), 0);
    CHECK_STR(p.source, "CUDA driver att");
}

/* A name match holds when the driver's SM count agrees with the profile;
 * otherwise (a variant, a MIG slice) the derived profile. */
static void test_for_cuda(void)
{
    rt_profile p;
    char src[1536];
    rt_cuda_attrs a = attrs(128, 2535000, 10501000, 384, 75497472, 1536, 8, 9);
    CHECK_INT(rt_profile_for_cuda("NVIDIA GeForce RTX 4090", &a, &p, src, sizeof src), 1);
    CHECK(memcmp(&p, rt_profile_find("rtx4090"), sizeof p) == 0);
    NEAR(p.gpu_bw, 1008e9);
    /* RTX 4090 D: 114 SMs */
    a.v[RT_CU_SMS] = 114;
    CHECK_INT(rt_profile_for_cuda("NVIDIA GeForce RTX 4090 D", &a, &p, src, sizeof src), 0);
    CHECK_STR(p.name, "cuda");
    CHECK_INT(p.sms, 114);
    NEAR(p.gpu_bw, 1008.096e9);
    /* an A100 MIG slice of 14 SMs */
    a = attrs(14, 1410000, 1215000, 5120, 41943040, 2048, 8, 0);
    CHECK_INT(rt_profile_for_cuda("NVIDIA A100-SXM4-40GB MIG 1g.5gb", &a, &p, src, sizeof src),
              0);
    CHECK_INT(p.sms, 14);
    /* no SM count reported: the name decides */
    a.v[RT_CU_SMS] = -1;
    CHECK_INT(rt_profile_for_cuda("NVIDIA A100-SXM4-40GB", &a, &p, src, sizeof src), 1);
    CHECK_STR(p.name, "a100");
    /* a Tesla V100 has 80 SMs enabled, Chikin's Table III gives the die's
     * 84: derived (877 MHz x 4096 bits: 2 x 877e6 x 512 = 898.048e9) */
    a = attrs(80, 1530000, 877000, 4096, 6291456, 2048, 7, 0);
    CHECK_INT(rt_profile_for_cuda("Tesla V100-SXM2-16GB", &a, &p, src, sizeof src), 0);
    CHECK_INT(p.sms, 80);
    NEAR(p.gpu_bw, 898.048e9);
    /* an unknown name: the attributes (L40S-like figures under another name) */
    a = attrs(142, 2505000, 10001000, 384, 100663296, 1536, 8, 9);
    CHECK_INT(rt_profile_for_cuda("NVIDIA RTX 6000 Ada Generation", &a, &p, src, sizeof src), 0);
    CHECK_STR(p.name, "cuda");
    NEAR(p.gpu_bw, 2 * 10001e6 * 384 / 8);
    CHECK_INT(p.max_blocks_sm, 24);
    /* every new built-in matched by its own CUDA name and SM count */
    static const struct { const char *cuda, *name; int sms; } own[] = {
        { "NVIDIA H200", "h200", 132 },           { "NVIDIA A100-SXM4-80GB", "a100-80gb", 108 },
        { "NVIDIA A100 80GB PCIe", "a100-80gb-pcie", 108 }, { "NVIDIA L40S", "l40s", 142 },
        { "NVIDIA L4", "l4", 58 },                 { "NVIDIA A10", "a10", 72 },
        { "Tesla T4", "t4", 40 },                  { "NVIDIA GeForce RTX 3090", "rtx3090", 82 },
    };
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
        a.v[RT_CU_SMS] = own[i].sms;
        CHECK_INT(rt_profile_for_cuda(own[i].cuda, &a, &p, src, sizeof src), 1);
        CHECK_STR(p.name, own[i].name);
    }
}

int main(void)
{
    test_names();
    test_attr_ids();
    test_derived();
    test_for_cuda();
    return check_summary();
}
