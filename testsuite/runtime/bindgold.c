/*
 * bindgold.c -- the binder's and the models' every output, as text, for a
 * golden file (bindgold.sh).
 *
 *     rt_bindgold DB SETS STRIP [STRIP2]
 *
 * For every nest of DB (its root loops, in db_each_loop's order) and SETS
 * deterministic sets of values for its symbols (the first three fixed:
 * all 1, all 16, all 4000; the others drawn from a fixed xorshift stream:
 * small, negative, zero, large), binds the nest with rt_facts_bind_site
 * on six host profiles (the built-in host default, one with 16 cores, one
 * asking llvm-mca figures for znver5, power9, xeon-8480, and one made by
 * rt_profile_from_calibration from a fixed calibration: no figure of this
 * machine enters) at several thread counts, prints every field of the
 * launch as a hex float, the estimates of three GPU profiles, and the
 * run-time overlap check of the nest's bases at addresses apart, adjacent,
 * equal, near zero and near the top of the address space.  The same
 * symbol array is passed at every call, as a keel_site does, so that the
 * first call binds by name and the later ones through the site's plan.
 * STRIP (or STRIP2) is cut from the front of file names (the folders of
 * the sources).  Exit 0, or 2 when DB does not open.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "facts.h"
#include "roots.h"
#include "model.h"
#include "overlap.h"

static uint64_t rng = 0x1234567u;

static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static long long pick(int set)
{
    if (set < 3)
        return set == 0 ? 1 : set == 1 ? 16 : 4000;
    switch (next() % 10) {
    case 0: return (long long)(next() % 3);
    case 1: return -(long long)(next() % 3);
    case 2: return (long long)(next() % 200000);
    case 3: return (long long)(next() % 64);
    default: return (long long)(next() % 5000);
    }
}

static void print_launch(const rt_launch *l)
{
    printf(" L %a %a %a %d %a %a %d %a %a %a %d %d %d %a %a %a %a %a %a %a %a %a\n", l->par_iters,
           l->cycles_per_iter, l->recur_cycles, l->loop_ctl_in_cycles, l->work_items,
           l->comp_insts, l->naccesses, l->flops, l->bytes_in, l->bytes_out, l->data_on_device,
           l->not_parallel, l->host_sequential, l->cpu_bytes, l->gpu_bytes, l->cpu_hit_bytes[0],
           l->cpu_hit_bytes[1], l->tlb_misses, l->gpu_chain, l->gpu_lat_cycles,
           l->gpu_lat_max_cycles, l->gpu_dep_cycles);
    printf("  M %a %a %d %d %a %s %d %d %a %d P", l->gpu_mem_insts, l->steps, l->omp_target,
           l->target_host_code, l->kernels, l->mca_target[0] ? l->mca_target : "-", l->mca_exact,
           l->trip_bounds, l->chunk_cycles_max, l->chunk_threads);
    for (int i = 0; i < RT_PATTERNS; i++)
        printf(" %a", l->cpu_bytes_pat[i]);
    printf("\n  A");
    for (int i = 0; i < l->naccesses && i < RT_MAX_ACCESSES; i++)
        printf(" %d/%lld/%d/%a", (int)l->acc[i].cls, (long long)l->acc[i].stride,
               l->acc[i].elem_size, l->acc[i].count);
    printf("\n");
}

int main(int argc, char **argv)
{
    char err[512];
    db *d;
    if ((argc != 4 && argc != 5) || db_open_read(argv[1], &d, err, sizeof err)) {
        fprintf(stderr, "rt_bindgold: usage: rt_bindgold DB SETS STRIP [STRIP2] (or: %s)\n",
                argc >= 4 ? err : "wrong arguments");
        return 2;
    }
    int sets = atoi(argv[2]);
    size_t strip = strlen(argv[3]), strip2 = argc > 4 ? strlen(argv[4]) : 0;
    roots v = { 0 };
    if (db_each_loop(d, NULL, roots_add, &v, err, sizeof err)) {
        fprintf(stderr, "rt_bindgold: %s\n", err);
        return 2;
    }
    rt_profile big = *rt_profile_host_default(), other = *rt_profile_host_default();
    big.cores = 16;
    other.mca_cpu = "znver5";
    /* a fixed calibration (figures of no machine) */
    rt_calibration cal;
    memset(&cal, 0, sizeof cal);
    cal.freq_hz = 3e9, cal.mem_bw = 20e9, cal.peak_flops = 1e11;
    cal.fork_ns = 900, cal.join_ns = 400, cal.sched_ns = 50;
    cal.lat[0] = 4, cal.lat[1] = 3;
    cal.page = 4096, cal.tlb_entries = 1536, cal.tlb_miss_ns = 8;
    cal.l1 = 49152, cal.l2 = 1310720, cal.l3 = 12582912, cal.cores = 8;
    cal.bw_points = 3, cal.bw_threads = 8;
    double fps[3] = { 32768, 1048576, 268435456 };
    for (int i = 0; i < 3; i++) {
        cal.bw_fp[i] = fps[i];
        for (int p = 0; p < RT_PATTERNS; p++) {
            cal.bw_one[p][i] = (90e9 / (i + 1)) / (p + 1);
            cal.bw_all[p][i] = (400e9 / (i * 3 + 1)) / (p + 1);
        }
    }
    cal.tc_points = 3;
    double tt[3] = { 1, 4, 8 }, tcl[3] = { 3e9, 2.9e9, 2.8e9 }, tw[3] = { 3e9, 2.7e9, 2.4e9 },
           tb[3] = { 20e9, 60e9, 90e9 };
    for (int i = 0; i < 3; i++)
        cal.tc_threads[i] = tt[i], cal.tc_clock[i] = tcl[i], cal.tc_work[i] = tw[i],
        cal.tc_bw[i] = tb[i];
    rt_profile calp;
    rt_profile_from_calibration(&cal, &calp);
    const rt_profile *hosts[6] = { rt_profile_host_default(), &big, &other,
                                   rt_profile_find("power9"), rt_profile_find("xeon-8480"),
                                   &calp };
    int threads[6] = { 1, 0, 4, 0, 8, 6 };
    const char *gn[3] = { "h100", "v100", "k80" };
    for (int h = 0; h < 6; h++)
        if (!hosts[h]) {
            fprintf(stderr, "rt_bindgold: no built-in host profile %d\n", h);
            return 2;
        }
    for (int r = 0; r < v.n; r++) {
        const char *fname = !strncmp(v.file[r], argv[3], strip) ? v.file[r] + strip
                            : strip2 && !strncmp(v.file[r], argv[4], strip2) ? v.file[r] + strip2
                            : v.file[r];
        rt_facts *f;
        if (rt_facts_load(d, v.file[r], v.line[r], v.col[r], &f, err, sizeof err)) {
            printf("NEST %s:%d load fails: %s\n", fname, v.line[r], err);
            continue;
        }
        if (!strcmp(rt_facts_function(f), "init_array")) {  /* the kernels' nests only */
            rt_facts_free(f);
            continue;
        }
        const char *const *names;
        int n = rt_facts_symbols(f, &names);
        if (n > 60)
            n = 60;
        const rt_overlap *ov = rt_facts_overlap(f);
        /* the site's symbol array: the facts' symbols, then "&base" */
        const char *all[128];
        char bn[64][80];
        int na = 0;
        for (int k = 0; k < n; k++)
            all[na++] = names[k];
        int nb = ov ? ov->nbases : 0;
        if (nb > 60)
            nb = 60;
        for (int b = 0; b < nb; b++) {
            snprintf(bn[b], sizeof bn[b], "&%s", ov->bases[b].name);
            all[na++] = bn[b];
        }
        rt_ov_plan *op = NULL;
        char why[256] = "";
        int oprc = ov ? rt_overlap_prepare(ov, na, all, &op, why, sizeof why) : 0;
        printf("NEST %s:%d syms", fname, v.line[r]);
        for (int k = 0; k < na; k++)
            printf(" %s", all[k]);
        printf(" prepare %d %s\n", oprc, oprc ? why : "");
        long long vals[128];
        for (int s = 0; s < sets; s++) {
            for (int k = 0; k < n; k++)
                vals[k] = pick(s);
            for (int b = 0; b < nb; b++)    /* apart, 64 bytes apart, two equal */
                vals[n + b] = (s % 3 == 2 && b == 1)
                                  ? 0x10000000LL
                                  : 0x10000000LL + (long long)b * ((s % 3 == 1) ? 64 : (1LL << 36));
            if (s % 7 == 5)                 /* near the top of the address space */
                for (int b = 0; b < nb; b++)
                    vals[n + b] = (long long)(0xffffffffffff0000ULL - (unsigned long long)b * 0x100000ULL);
            if (s % 7 == 6)                 /* near zero */
                for (int b = 0; b < nb; b++)
                    vals[n + b] = (long long)b * 0x100000LL;
            printf("SET %d:", s);
            for (int k = 0; k < na; k++)
                printf(" %lld", vals[k]);
            printf("\n");
            for (int h = 0; h < 6; h++) {
                rt_launch l;
                char e1[256] = "";
                int rc = rt_facts_bind_site(f, hosts[h], NULL, threads[h], na, all, vals, &l, e1,
                                            sizeof e1);
                if (rc) {
                    printf(" host %d fails: %s\n", h, e1);
                    continue;
                }
                printf(" host %d", h);
                print_launch(&l);
                printf("  E");
                for (int g = 0; g < 3; g++) {
                    const rt_profile *gp = rt_profile_find(gn[g]);
                    rt_estimate e;
                    int vd = rt_estimate_all(hosts[h], threads[h], gp, &l, &e);
                    printf(" %s %d %a %a %a %s %d", gn[g], vd, e.cpu_s, e.gpu_s, e.xfer_s,
                           e.gpu_bound ? e.gpu_bound : "-", e.too_small);
                }
                printf("\n");
            }
            if (ov) {
                char w2[256] = "";
                int c = rt_overlap_check(ov, op, na, all, vals, w2, sizeof w2);
                printf(" overlap %d %s\n", c, c ? w2 : "");
            }
        }
        rt_overlap_plan_free(op);
        rt_facts_free(f);
    }
    roots_free(&v);
    db_close(d);
    return 0;
}
