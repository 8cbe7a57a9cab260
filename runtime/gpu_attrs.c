/*
 * gpu_attrs.c -- a CUDA device's profile from what its driver reports.
 *
 * rt_cuda_detect (keelrt.c) reads device 0's name and a few attributes
 * through libcuda's cuDeviceGetAttribute; everything here is pure (no
 * libcuda, no environment), so that the conversion is tested with the
 * attribute values published deviceQuery outputs show.
 *
 * A device whose name matches a built-in profile (rt_profile_match_gpu)
 * takes that profile when the driver's SM count agrees with it: a
 * variant that carries a profile's name (an A100 MIG slice, "RTX 4090 D",
 * a V100 whose product has 80 of the 84 SMs Chikin's Table III gives)
 * has another count and takes the derived profile instead.  The derived
 * profile takes every figure the driver reports:
 *
 *   sms       MULTIPROCESSOR_COUNT (16)
 *   clock     CLOCK_RATE (13), kHz: deviceQuery's "GPU Max Clock rate",
 *             the boost clock the datasheet profiles use (A100 1410 MHz)
 *   mem_bw    2 x MEMORY_CLOCK_RATE (36, kHz) x GLOBAL_MEMORY_BUS_WIDTH
 *             (37, bits) / 8: the factor 2 is double data rate, as in
 *             NVIDIA's "How to Query Device Properties and Handle Errors
 *             in CUDA C/C++" (Developer blog: 2.0 * memoryClockRate *
 *             (memoryBusWidth / 8) / 1.0e6 GB/s).  The driver reports the
 *             memory clock at half the per-pin data rate for HBM2e, HBM3,
 *             GDDR6 and GDDR6X alike, so the formula gives the datasheet
 *             figure for each: A100-SXM4-40GB 1215 MHz x 5120 bits =
 *             1555.2 GB/s (datasheet 1555), H100 SXM5 2619 MHz x 5120 =
 *             3352.3 (3.35 TB/s), T4 5001 MHz x 256 = 320.1 (320), RTX
 *             4090 10501 MHz x 384 = 1008.1 (1008, GDDR6X at 21 Gbps).
 *             An integrated GPU (INTEGRATED, 18) shares the host's memory,
 *             for which no published output checks the formula: its
 *             figure is marked estimate.
 *   l2        L2_CACHE_SIZE (38), bytes
 *   max_threads_sm  MAX_THREADS_PER_MULTIPROCESSOR (39)
 *   max_warps_sm    that / WARP_SIZE (10)
 *   max_blocks_sm   MAX_BLOCKS_PER_MULTIPROCESSOR (106, drivers of CUDA 11
 *             on); else the compute capability's row below
 *   cc        COMPUTE_CAPABILITY_MAJOR (75), _MINOR (76)
 *
 * (the numbers are CUdevice_attribute's in cuda.h; CLOCK_RATE and
 * MEMORY_CLOCK_RATE stay driver attributes in CUDA 13, which dropped them
 * from the runtime's cudaDeviceProp only).  The driver reports no host
 * link: PCI attributes (33, 34, 50) locate the device but give neither
 * the PCIe generation nor the width, so bus_bw is an estimate, 25 GB/s
 * (practical PCIe 4.0 x16, the a100 profile's).  Warp schedulers per SM
 * and, for an old driver, the resident blocks and threads per SM come
 * from the CUDA C Programming Guide's "Compute Capabilities" appendix
 * (technical specifications per compute capability; the per-architecture
 * sections for the schedulers); issue cycles are the built-in profiles'
 * per generation (1 from cc 3.0 on: chikin Table III's V100; 2 for Fermi,
 * 16-wide groups; 4 for cc 1.x, Hong-Kim's GTX280).  What no attribute
 * gives -- the DRAM, L2 and L1 latencies, launch time, departure delays
 * and the OpenMP grid -- is a built-in profile's: the h100 profile's
 * figures measured on an H100 for compute capability 9.x, the v100
 * profile's (chikin Table III, Hong-Kim Table 6, estimates) otherwise.
 * The derived profile's source text lists each figure with where it came
 * from.  A MIG slice reports its own SMs but the whole board's memory
 * clock and bus: its DRAM figure is the board's, not its share.
 */
#define _POSIX_C_SOURCE 200809L

#include "model.h"
#include "rt.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* CUdevice_attribute numbers (cuda.h, CUDA 11 and later; 106 is new in
 * CUDA 11.0), by RT_CU_*. */
const int rt_cu_attr_id[RT_CU_NATTR] = {
    [RT_CU_SMS] = 16,            /* CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT */
    [RT_CU_CLOCK_KHZ] = 13,      /* CU_DEVICE_ATTRIBUTE_CLOCK_RATE, kHz */
    [RT_CU_MEM_CLOCK_KHZ] = 36,  /* CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, kHz (peak) */
    [RT_CU_BUS_BITS] = 37,       /* CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, bits */
    [RT_CU_L2] = 38,             /* CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, bytes */
    [RT_CU_THREADS_SM] = 39,     /* CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR */
    [RT_CU_BLOCKS_SM] = 106,     /* CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR */
    [RT_CU_WARP] = 10,           /* CU_DEVICE_ATTRIBUTE_WARP_SIZE */
    [RT_CU_CC_MAJOR] = 75,       /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR */
    [RT_CU_CC_MINOR] = 76,       /* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR */
    [RT_CU_INTEGRATED] = 18,     /* CU_DEVICE_ATTRIBUTE_INTEGRATED (shares host memory) */
};

void rt_cuda_attrs_none(rt_cuda_attrs *a)
{
    for (int k = 0; k < RT_CU_NATTR; k++)
        a->v[k] = -1;
}

/* CUDA C Programming Guide, "Compute Capabilities": warp schedulers per SM
 * (the sections per architecture: 1 for cc 1.x, 2 for 2.x and 6.0, 4 for
 * the others), maximum resident blocks and threads per SM (technical
 * specifications per compute capability), by 10 x major + minor. */
static const struct { int cc, schedulers, blocks, threads; } cc_rows[] = {
    { 10, 1, 8, 768 },   { 11, 1, 8, 768 },   { 12, 1, 8, 1024 },  { 13, 1, 8, 1024 },
    { 20, 2, 8, 1536 },  { 21, 2, 8, 1536 },
    { 30, 4, 16, 2048 }, { 32, 4, 16, 2048 }, { 35, 4, 16, 2048 }, { 37, 4, 16, 2048 },
    { 50, 4, 32, 2048 }, { 52, 4, 32, 2048 }, { 53, 4, 32, 2048 },
    { 60, 2, 32, 2048 }, { 61, 4, 32, 2048 }, { 62, 4, 32, 2048 },
    { 70, 4, 32, 2048 }, { 72, 4, 32, 2048 }, { 75, 4, 16, 1024 },
    { 80, 4, 32, 2048 }, { 86, 4, 16, 1536 }, { 87, 4, 16, 1536 }, { 89, 4, 24, 1536 },
    { 90, 4, 32, 2048 },
};

/* Append printf-style text to buf (n bytes), cut to fit. */
static void vadd(char *buf, size_t n, const char *fmt, va_list ap)
{
    size_t used = strlen(buf);
    if (used + 1 < n)
        vsnprintf(buf + used, n - used, fmt, ap);
}

static void add(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(buf, n, fmt, ap);
    va_end(ap);
}

/* "40 MiB", "1536 KiB", "0 B" */
static void size_text(char *buf, size_t n, double b)
{
    if (b >= 1048576 && b == (double)(long long)(b / 1048576) * 1048576)
        snprintf(buf, n, "%.0f MiB", b / 1048576);
    else if (b >= 1024 && b == (double)(long long)(b / 1024) * 1024)
        snprintf(buf, n, "%.0f KiB", b / 1024);
    else
        snprintf(buf, n, "%.0f B", b);
}

/* One list of the source text: "head: a, b, c", items joined by ", ". */
typedef struct {
    char text[512];
    int n;
} src_list;

static void item(src_list *l, const char *fmt, ...)
{
    if (l->n++ > 0 && strlen(l->text) + 3 < sizeof l->text)
        add(l->text, sizeof l->text, ", ");   /* the whole separator or none */
    va_list ap;
    va_start(ap, fmt);
    vadd(l->text, sizeof l->text, fmt, ap);
    va_end(ap);
}

int rt_profile_from_cuda_attrs(const rt_cuda_attrs *a, rt_profile *out, char *src, size_t srclen)
{
    const int *v = a->v;
    int major = v[RT_CU_CC_MAJOR], minor = v[RT_CU_CC_MINOR];
    int cc = major > 0 && minor >= 0 ? 10 * major + minor : -1;
    const char *base = major == 9 ? "h100" : "v100";
    if (!rt_profile_builtin_into(base, RT_GPU, out))
        return -1;
    out->name = "cuda";
    out->desc = "CUDA device with no built-in profile (figures its driver reports)";
    int row = -1;
    for (size_t i = 0; i < sizeof cc_rows / sizeof cc_rows[0]; i++)
        if (cc_rows[i].cc == cc)
            row = (int)i;
    src_list drv = { "", 0 }, guide = { "", 0 }, est = { "", 0 };
    char sz[32];

    if (v[RT_CU_SMS] > 0) {
        out->sms = v[RT_CU_SMS];
        item(&drv, "%d SMs", out->sms);
    } else
        item(&est, "%d SMs of the %s profile (not reported)", out->sms, base);
    if (v[RT_CU_CLOCK_KHZ] > 0) {
        out->gpu_hz = v[RT_CU_CLOCK_KHZ] * 1e3;
        item(&drv, "%g MHz", out->gpu_hz / 1e6);
    } else
        item(&est, "%g MHz of the %s profile (not reported)", out->gpu_hz / 1e6, base);
    if (v[RT_CU_L2] >= 0) {
        out->gpu_l2 = v[RT_CU_L2];
        size_text(sz, sizeof sz, out->gpu_l2);
        item(&drv, "%s L2", sz);
    } else {
        size_text(sz, sizeof sz, out->gpu_l2);
        item(&est, "%s L2 of the %s profile (not reported)", sz, base);
    }
    int warp = v[RT_CU_WARP] > 0 ? v[RT_CU_WARP] : 32;   /* 32 on every cc (Guide) */
    if (v[RT_CU_THREADS_SM] > 0) {
        out->max_threads_sm = v[RT_CU_THREADS_SM];
        item(&drv, "%d threads/SM", out->max_threads_sm);
    } else if (row >= 0) {
        out->max_threads_sm = cc_rows[row].threads;
        item(&guide, "%d threads/SM", out->max_threads_sm);
    } else
        item(&est, "%d threads/SM of the %s profile", out->max_threads_sm, base);
    out->max_warps_sm = out->max_threads_sm / warp;
    if (v[RT_CU_BLOCKS_SM] > 0) {
        out->max_blocks_sm = v[RT_CU_BLOCKS_SM];
        item(&drv, "%d blocks/SM", out->max_blocks_sm);
    } else if (row >= 0) {
        out->max_blocks_sm = cc_rows[row].blocks;
        item(&guide, "%d blocks/SM", out->max_blocks_sm);
    } else {
        out->max_blocks_sm = 16;
        item(&est, "16 blocks/SM (the fewest of cc 7.5 to 9.0)");
    }
    if (cc >= 0)
        item(&drv, "compute capability %d.%d", major, minor);
    if (row >= 0) {
        out->schedulers = cc_rows[row].schedulers;
        item(&guide, "%d warp schedulers/SM", out->schedulers);
    } else {
        out->schedulers = 4;
        item(&est, "4 warp schedulers/SM (as every compute capability from 7.0 to 9.0)");
    }
    out->issue_cycles = major >= 3 ? 1 : major == 2 ? 2 : major == 1 ? 4 : 1;

    int mclk = v[RT_CU_MEM_CLOCK_KHZ], bits = v[RT_CU_BUS_BITS];
    if (mclk > 0 && bits > 0) {
        out->gpu_bw = 2.0 * mclk * 1e3 * bits / 8;
        item(v[RT_CU_INTEGRATED] > 0 ? &est : &drv,
             "DRAM 2 x %g MHz x %d bits / 8 = %.1f GB/s (double data rate, NVIDIA's "
             "peak-bandwidth formula%s)",
             mclk / 1e3, bits, out->gpu_bw / 1e9,
             v[RT_CU_INTEGRATED] > 0 ? ", unchecked for an integrated GPU, which shares "
                                       "the host's memory" : "");
    } else
        item(&est, "DRAM %g GB/s of the %s profile (no memory clock or bus width reported)",
             out->gpu_bw / 1e9, base);
    out->bus_bw = 25e9;
    item(&est, "bus 25 GB/s (practical PCIe 4.0 x16, the driver reports no link)");

    if (major <= 0)
        item(&est, "issue 1 cycle (no compute capability reported)");
    snprintf(src, srclen, "CUDA driver attributes (cuDeviceGetAttribute): %s",
             drv.n ? drv.text : "none reported");
    if (guide.n)
        add(src, srclen, "; CUDA C Programming Guide, compute capability %d.%d: %s", major,
            minor, guide.text);
    if (major > 0)
        add(src, srclen, "; issue %s", major >= 3 ? "1 cycle (the built-in profiles' from cc "
            "3.0 on, chikin Table III)" : major == 2 ? "2 cycles (Fermi, as gtx470)"
            : "4 cycles (cc 1.x, as gts250 and Hong-Kim's GTX280)");
    add(src, srclen, "; estimates: %s", est.text);
    add(src, srclen, "; of the %s profile (its sources): latencies DRAM %g, L2 %g, L1 %g cycles, "
        "%g us launch, departure delays, OpenMP grid", base, out->mem_lat, out->l2_lat,
        out->l1_lat, out->launch_s * 1e6);
    out->source = src;
    return 0;
}

int rt_profile_for_cuda(const char *name, const rt_cuda_attrs *a, rt_profile *out, char *src,
                        size_t srclen)
{
    const rt_profile *p = rt_profile_match_gpu(name);
    if (p && (a->v[RT_CU_SMS] <= 0 || a->v[RT_CU_SMS] == p->sms)) {
        *out = *p;
        return 1;
    }
    return rt_profile_from_cuda_attrs(a, out, src, srclen);
}
