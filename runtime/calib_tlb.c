/*
 * calib_tlb.c -- `keel calibrate`'s TLB probe: how many pages the core's
 * last-level (second-level) TLB maps, what a miss of it costs, and which
 * page the programs' arrays are mapped with.  Part of the keel tool only.
 *
 * The method is Saavedra and Smith's ("Measuring cache and TLB performance
 * and their effect on benchmark run times", IEEE Trans. Computers 44(10),
 * 1995) and lmbench's (McVoy and Staelin, USENIX 1996): time one access
 * per page over a growing number of pages P; while the P pages fit the TLB
 * the time stays flat, past its entries every access pays a page walk.
 * Two walks are timed at each P, one thread, on the thread's CPU clock,
 * the fastest of several batches:
 *   - the page walk: P loads, one per 4 KiB page, the pages in order with
 *     the line inside the page advancing by one each page (so the P lines
 *     spread over the cache's sets) -- a column walk through a matrix whose
 *     rows are a page and a line long;
 *   - the same P loads on P consecutive lines (a handful of pages).
 * Their difference per load is the TLB's share alone: the data lines are
 * the same number in both.  The loads are independent, as a column walk's
 * are, so the cost measured is what overlapping page walks cost a loop
 * (a dependent pointer chase would measure one walk's full latency, which
 * an array walk never waits for).  The difference is fitted with the
 * traffic model's own reuse law for a walk over W pages with a reach of C
 * (facts.c, rt_reuse_bytes: a share min(1, C / W) of the pages hits, the
 * independent reference model of Coffman and Denning, which is also what
 * an adaptive replacement keeps of a cyclic sweep):
 *     diff(P) = lo + miss x max(0, 1 - C / P)
 * -- least squares for lo and miss at each C of a fine grid, the C with
 * the least squared error.  C is the entries the model's reach uses,
 * miss the ns a missing access adds (the caller converts it to cycles of
 * the measured clock).  A set-associative TLB in a virtual machine
 * (nested page walks) rises gradually rather than in one step; this law
 * follows that rise with the two figures the model has.
 *
 * The probe maps its pages with madvise(MADV_NOHUGEPAGE): it measures the
 * base page's TLB.  Which page a program's arrays get is the kernel's
 * choice: with transparent huge pages "always" an anonymous mapping of
 * 2 MiB or more is backed by huge pages (the page reported is then the
 * huge page, from /proc/meminfo); with "madvise" or "never" -- and malloc
 * does not madvise -- by base pages.  The second-level TLBs of current x86
 * cores (Intel Golden Cove, AMD Zen 4/5) hold 4 KiB and 2 MiB entries in
 * the same array, so the entries measured apply to either.
 */
#define _DEFAULT_SOURCE
#include "calib.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Pages the probe walks: 2^(k/4) for k = 32..60, 256 to 32768 pages (a
 * 128 MiB mapping; the kernel backs every page the walk touches). */
#define TLB_K0 32
#define TLB_K1 60

int rt_tlb_fit(const double *pages, const double *diff_ns, int n, double *entries, double *miss_ns)
{
    *entries = 0, *miss_ns = 0;
    if (n < 4)
        return -1;
    double best_c = 0, best_m = 0, best_sse = -1;
    /* C on a grid of 2^(k/16) pages over the range walked; for each, lo
     * and miss by least squares (a straight line in x = max(0, 1 - C/P)) */
    for (int k = 0; k < 16 * 40; k++) {
        double c = pow(2.0, k / 16.0);
        if (c < pages[0])
            continue;
        if (c > pages[n - 1])
            break;
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (int i = 0; i < n; i++) {
            double x = pages[i] > c ? 1 - c / pages[i] : 0;
            sx += x, sy += diff_ns[i], sxx += x * x, sxy += x * diff_ns[i];
        }
        double den = n * sxx - sx * sx;
        if (!(den > 0))
            continue;
        double m = (n * sxy - sx * sy) / den, lo = (sy - m * sx) / n, sse = 0;
        for (int i = 0; i < n; i++) {
            double x = pages[i] > c ? 1 - c / pages[i] : 0, d = diff_ns[i] - lo - m * x;
            sse += d * d;
        }
        if (best_sse < 0 || sse < best_sse)
            best_sse = sse, best_c = c, best_m = m;
    }
    /* no rise (the TLB holds every size tried): the law fits no better
     * than a constant */
    double mean = 0, sse0 = 0;
    for (int i = 0; i < n; i++)
        mean += diff_ns[i] / n;
    for (int i = 0; i < n; i++)
        sse0 += (diff_ns[i] - mean) * (diff_ns[i] - mean);
    if (best_sse < 0 || !(best_m > 0) || !(sse0 > 1e-20 * n * mean * mean) ||
        !(best_sse < sse0 * (1 - 1e-6)))
        return 1;
    *entries = best_c;
    *miss_ns = best_m;
    return 0;
}

static volatile uint64_t tlb_sink;

/* ns per load of `loads` loads of the n addresses base + off[i], in
 * order, repeated; the fastest of `batches`. */
static double walk_ns(const char *base, const size_t *off, long n, long loads, int batches)
{
    long reps = loads / n > 0 ? loads / n : 1;
    double best = 0;
    for (int b = 0; b <= batches; b++) {               /* batch 0 warms up */
        uint64_t s = 0;
        double t0 = rt_thread_cpu_s();
        for (long r = 0; r < reps; r++)
            for (long i = 0; i < n; i++) {
                s += *(const volatile uint64_t *)(base + off[i]);
                __asm__ volatile("" : "+r"(s));
            }
        double t1 = rt_thread_cpu_s();
        tlb_sink += s;
        double t = t0 >= 0 && t1 > t0 ? (t1 - t0) / ((double)reps * n) * 1e9 : 0;
        if (b > 0 && t > 0 && (best == 0 || t < best))
            best = t;
    }
    return best;
}

/* "always" when transparent huge pages back every anonymous mapping. */
static int thp_always(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char line[128] = "";
    if (!f)
        return 0;
    if (!fgets(line, sizeof line, f))
        line[0] = '\0';
    fclose(f);
    return strstr(line, "[always]") != NULL;
}

static double huge_page_bytes(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    double kb = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Hugepagesize: %lf kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024;
}

int rt_calibrate_tlb(rt_tlb_curve *curve, double *page, double *entries, double *miss_ns,
                     char *note, size_t notelen)
{
    long base_page = sysconf(_SC_PAGESIZE);
    *page = 0, *entries = 0, *miss_ns = 0;
    if (curve)
        curve->n = 0;
    if (base_page <= 0)
        base_page = 4096;
    long pmax = 1L << (TLB_K1 / 4);
    size_t len = (size_t)pmax * (size_t)base_page + (size_t)base_page;
    char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED) {
        snprintf(note, notelen, "not measured: cannot map %zu bytes", len);
        return -1;
    }
#ifdef MADV_NOHUGEPAGE
    madvise(buf, len, MADV_NOHUGEPAGE);
#endif
    size_t *off = malloc((size_t)pmax * sizeof *off);
    if (!off) {
        munmap(buf, len);
        snprintf(note, notelen, "not measured: out of memory");
        return -1;
    }
    size_t lines = (size_t)base_page / 64;
    for (long i = 0; i < pmax; i++)      /* back every page the walk touches */
        memset(buf + (size_t)i * base_page + (i % lines) * 64, (int)(i & 0x7f), 64);
    int n = 0;
    double pages[TLB_K1 - TLB_K0 + 1], diff[TLB_K1 - TLB_K0 + 1];
    long last = 0;
    for (int k = TLB_K0; k <= TLB_K1; k++) {
        long p = (long)(pow(2.0, k / 4.0) + 0.5);
        if (p == last)
            continue;
        last = p;
        for (long i = 0; i < p; i++)
            off[i] = (size_t)i * base_page + (i % lines) * 64;
        double t_pages = walk_ns(buf, off, p, 1L << 18, 7);
        for (long i = 0; i < p; i++)
            off[i] = (size_t)i * 64;
        double t_lines = walk_ns(buf, off, p, 1L << 18, 7);
        pages[n] = p, diff[n] = t_pages - t_lines;
        if (curve && n < RT_TLB_POINTS)
            curve->pages[n] = p, curve->page_ns[n] = t_pages, curve->line_ns[n] = t_lines,
            curve->n = n + 1;
        n++;
    }
    free(off);
    munmap(buf, len);
    int rc = rt_tlb_fit(pages, diff, n, entries, miss_ns);
    if (rc != 0) {
        snprintf(note, notelen, "not measured: no step in the page walk up to %ld pages", pmax);
        return 1;
    }
    double huge = huge_page_bytes();
    int always = thp_always() && huge > 0;
    *page = always ? huge : (double)base_page;
    snprintf(note, notelen, "%ld-byte pages, transparent huge pages %s: the programs' arrays "
             "get %.0f-byte pages", base_page, always ? "always" : "not always (madvise/never)",
             *page);
    return 0;
}
