/*
 * test_calib.c -- `keel calibrate`'s storage (issue 12 item 3): a
 * calibration with its bandwidth per access pattern and footprint goes
 * into host_calibration + host_bandwidth (schema v7) and comes back
 * exactly; a calibration without the table's rows, or a database whose
 * host_bandwidth table is gone, loads with no per-pattern figures (the
 * model then keeps the profile defaults).  The measured clock's arithmetic
 * and the target-fallback probe's protocol, with stand-in compilers; the
 * TLB figures (schema v15) and the TLB probe's step fit on exact curves;
 * the cache sizes (schema v18) and their reading from a Linux cache
 * listing built here.
 * Nothing is timed here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "calib.h"
#include "check.h"
#include "db.h"
#include "model.h"

static void fill(rt_calibration *c)
{
    memset(c, 0, sizeof *c);
    c->cores = 8, c->freq_hz = 3e9, c->mem_bw = 50e9, c->peak_flops = 1e11;
    c->fork_ns = 1500, c->join_ns = 700, c->sched_ns = 300;
    c->target_fallback_ns = 45000;
    c->page = 4096, c->tlb_entries = 2048, c->tlb_miss_ns = 1.5;
    c->l1 = 49152, c->l2 = 1048576, c->l3 = 33554432;
    for (int k = 0; k < RT_NLAT; k++)
        c->lat[k] = k == RT_LAT_FDIV ? 13.25 : 1.5 + k;
    c->tc_points = 3;
    for (int k = 0; k < 3; k++)
        c->tc_threads[k] = 1 << (2 * k), c->tc_clock[k] = 3e9 - 1e8 * k,
        c->tc_work[k] = 1.2e10 - 1e9 * k, c->tc_bw[k] = 2e10 + 1.5e10 * k;
    c->bw_points = RT_BW_POINTS, c->bw_threads = 8;
    for (int f = 0; f < RT_BW_POINTS; f++) {
        c->bw_fp[f] = 32768.0 * pow(32, f);
        for (int p = 0; p < RT_PATTERNS; p++) {
            c->bw_one[p][f] = 1e9 * (p + 1) + 1e6 * f;
            c->bw_all[p][f] = 8e9 * (p + 1) + 3e6 * f;
        }
    }
}

/* One file of a cache listing: root/cpu0/cache/indexK/name = text. */
static void put(const char *root, int k, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/cpu0", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/cpu0/cache", root);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/cpu0/cache/index%d", root, k);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/cpu0/cache/index%d/%s", root, k, name);
    FILE *f = fopen(path, "w");
    if (f)
        fprintf(f, "%s\n", text), fclose(f);
}

/* The cache sizes read from a Linux listing (calib_cache.c): a 2-CPU
 * Zen 5 guest's -- L1d 48K, L1i 32K, L2 1024K, L3 32768K shared by CPUs
 * 0-1 -- on 2 CPUs: 49152, 1048576, 33554432 B; on 16 CPUs with the L3
 * shared by 8 (0-7): two instances, 64 MiB; no L2 listed: not read. */
static void test_caches(const char *dir)
{
    char root[256], note[300];
    snprintf(root, sizeof root, "%s/sys", dir);
    mkdir(root, 0700);
    static const char *const t[4][4] = { { "1", "Data", "48K", "0" },
                                         { "1", "Instruction", "32K", "0" },
                                         { "2", "Unified", "1024K", "0" },
                                         { "3", "Unified", "32768K", "0-1" } };
    for (int k = 0; k < 4; k++) {
        put(root, k, "level", t[k][0]);
        put(root, k, "type", t[k][1]);
        put(root, k, "size", t[k][2]);
        put(root, k, "shared_cpu_list", t[k][3]);
    }
    double l1, l2, l3;
    CHECK_INT(rt_calibrate_caches(root, 2, &l1, &l2, &l3, note, sizeof note), 0);
    CHECK(l1 == 49152 && l2 == 1048576 && l3 == 33554432);
    CHECK(strstr(note, "cpu0/cache") != NULL);
    put(root, 3, "shared_cpu_list", "0-7");
    CHECK_INT(rt_calibrate_caches(root, 16, &l1, &l2, &l3, note, sizeof note), 0);
    CHECK(l3 == 67108864);
    put(root, 2, "size", "");
    CHECK_INT(rt_calibrate_caches(root, 16, &l1, &l2, &l3, note, sizeof note), 1);
    CHECK(l2 == 0 && l1 == 49152);
    CHECK_STR(strstr(note, "lists no") ? strstr(note, "lists no") : note, "lists no L2");
    /* the pieces: sizes with units, CPU lists */
    CHECK(rt_cache_size_parse("48K") == 49152 && rt_cache_size_parse("32M") == 33554432);
    CHECK(rt_cache_size_parse("512") == 512 && rt_cache_size_parse("KiB") == 0);
    CHECK(rt_cache_size_parse("48KiB") == 49152 && rt_cache_size_parse("48Q") == 0);
    CHECK_INT(rt_cpu_list_count("0-3,8,10-11"), 7);
    CHECK_INT(rt_cpu_list_count("0"), 1);
    CHECK_INT(rt_cpu_list_count("3-1"), 0);
    /* the listing goes */
    static const char *const names[4] = { "level", "type", "size", "shared_cpu_list" };
    char path[512];
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s/cpu0/cache/index%d/%s", root, k, names[i]);
            unlink(path);
        }
        snprintf(path, sizeof path, "%s/cpu0/cache/index%d", root, k);
        rmdir(path);
    }
    snprintf(path, sizeof path, "%s/cpu0/cache", root);
    rmdir(path);
    snprintf(path, sizeof path, "%s/cpu0", root);
    rmdir(path);
    rmdir(root);
    /* no listing at all */
    snprintf(root, sizeof root, "%s/none", dir);
    CHECK_INT(rt_calibrate_caches(root, 2, &l1, &l2, &l3, note, sizeof note), 1);
    CHECK(l1 == 0 && l2 == 0 && l3 == 0);
}

int main(void)
{
    char dir[] = "/tmp/keel-calib-XXXXXX", path[256], err[512];
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/k.db", dir);
    db *d = NULL;
    CHECK_INT(db_open(path, DB_WRITE, &d, err, sizeof err), 0);
    db_close(d);
    {
        /* in WAL mode, as keelcc leaves a database */
        sqlite3 *h = NULL;
        CHECK_INT(sqlite3_open(path, &h), SQLITE_OK);
        CHECK_INT(sqlite3_exec(h, "PRAGMA journal_mode = WAL", NULL, NULL, NULL), SQLITE_OK);
        sqlite3_close(h);
    }

    test_caches(dir);
    {
        /* DRAM arrays (STREAM's rule: 4 x the L3, at least 64 MiB, at most
         * 1/8 of the memory available), in doubles: MiB x 2^17 */
        const double mib = 1048576.0;
        CHECK(rt_dram_doubles(32 * mib, 0) == 128L << 17);       /* this VM */
        CHECK(rt_dram_doubles(307200 * 1024.0, 0) == 1200L << 17);   /* a 300 MiB L3 */
        CHECK(rt_dram_doubles(0, 0) == 64L << 17);
        CHECK(rt_dram_doubles(33 * mib, 0) == 136L << 17);       /* 132 MiB up to 8 MiB blocks */
        CHECK(rt_dram_doubles(307200 * 1024.0, 4096 * mib) == 512L << 17);
        CHECK(rt_dram_doubles(32 * mib, 256 * mib) == 64L << 17);   /* never below 64 MiB */
    }
    rt_calibration c, back;
    fill(&c);
    CHECK_INT(rt_calibration_store(path, &c, err, sizeof err), 0);
    {
        /* the database file alone holds it: a copy made without the -wal
         * file (as `tar keel-*.db` takes it), before any other connection
         * opens and closes the database (the last close checkpoints),
         * loads the same calibration */
        char copy[300], cmd[700];
        rt_calibration c2;
        snprintf(copy, sizeof copy, "%s/copy.db", dir);
        snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, copy);
        CHECK_INT(system(cmd), 0);
        CHECK_INT(rt_calibration_load(copy, &c2, err, sizeof err), 0);
        CHECK_INT(c2.cores, 8);
        CHECK(c2.mem_bw == 50e9);
        unlink(copy);
        snprintf(cmd, sizeof cmd, "rm -f '%s'-wal '%s'-shm", copy, copy);
        CHECK_INT(system(cmd), 0);
    }
    CHECK_INT(rt_calibration_load(path, &back, err, sizeof err), 0);
    CHECK_INT(back.cores, 8);
    CHECK(back.mem_bw == 50e9 && back.fork_ns == 1500 && back.sched_ns == 300);
    CHECK_INT(back.bw_points, RT_BW_POINTS);
    CHECK_INT(back.bw_threads, 8);
    int same = 1;
    for (int f = 0; f < RT_BW_POINTS; f++) {
        same &= back.bw_fp[f] == c.bw_fp[f];
        for (int p = 0; p < RT_PATTERNS; p++)
            same &= back.bw_one[p][f] == c.bw_one[p][f] && back.bw_all[p][f] == c.bw_all[p][f];
    }
    CHECK(same);
    /* what many threads get (schema v17): threads 1, 4, 16 back exactly */
    CHECK_INT(back.tc_points, 3);
    for (int k = 0; k < 3; k++)
        CHECK(back.tc_threads[k] == c.tc_threads[k] && back.tc_clock[k] == c.tc_clock[k] &&
              back.tc_work[k] == c.tc_work[k] && back.tc_bw[k] == c.tc_bw[k]);
    char curve[512];
    rt_thread_curve_format(&c, curve, sizeof curve);
    CHECK_STR(curve, "1:3e+09:1.2e+10:2e+10 4:2.9e+09:1.1e+10:3.5e+10 16:2.8e+09:1e+10:5e+10");
    {
        rt_calibration t;
        memset(&t, 0, sizeof t);
        CHECK_INT(rt_thread_curve_parse("1:2:3:4 2:5:6:7", &t), 2);
        CHECK(t.tc_threads[1] == 2 && t.tc_clock[1] == 5 && t.tc_work[1] == 6 && t.tc_bw[1] == 7);
        /* a list stops at an entry that does not parse or does not ascend */
        CHECK_INT(rt_thread_curve_parse("1:2:3:4 1:5:6:7", &t), 1);
        CHECK_INT(rt_thread_curve_parse("1:2:3", &t), 0);
        CHECK_INT(rt_thread_curve_parse("", &t), 0);
        CHECK_INT(rt_thread_curve_parse(NULL, &t), 0);
        /* no room for every point: the ones that fit */
        rt_thread_curve_format(&c, curve, 30);
        CHECK_STR(curve, "1:3e+09:1.2e+10:2e+10");
    }

    /* 32 rows: 4 patterns x 4 footprints x {1, 8} threads */
    sqlite3 *h = NULL;
    sqlite3_stmt *q = NULL;
    CHECK(sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK);
    CHECK(sqlite3_prepare_v2(h, "SELECT count(*), count(DISTINCT pattern), min(threads),"
                                " max(threads) FROM host_bandwidth", -1, &q, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(q) == SQLITE_ROW);
    CHECK_INT(sqlite3_column_int(q, 0), 32);
    CHECK_INT(sqlite3_column_int(q, 1), 4);
    CHECK_INT(sqlite3_column_int(q, 2), 1);
    CHECK_INT(sqlite3_column_int(q, 3), 8);
    sqlite3_finalize(q);
    /* the CHECK constraint: a pattern keel does not know is refused */
    CHECK(sqlite3_exec(h, "INSERT INTO host_bandwidth VALUES (1, 'diagonal', 1, 1, 1)",
                       NULL, NULL, NULL) != SQLITE_OK);

    /* used by the model: the profile from the stored calibration */
    rt_profile p;
    rt_profile_from_calibration(&back, &p);
    CHECK(rt_pattern_bw(&p, RT_PAT_GATHER, 32768.0, 1) == c.bw_one[RT_PAT_GATHER][0]);
    CHECK(rt_pattern_bw(&p, RT_PAT_UNIT, 1e12, 64) == c.bw_all[RT_PAT_UNIT][RT_BW_POINTS - 1]);
    /* the host fallback of a target region (schema v13): 45000 ns stored,
     * 45 us in the profile, and the CPU model adds it once per target
     * kernel per step: 2 kernels x 3 steps x 45 us = 270 us over the rest */
    CHECK(back.target_fallback_ns == 45000);
    CHECK(p.target_fallback == 45000 * 1e-9);
    rt_launch tl;
    memset(&tl, 0, sizeof tl);
    tl.par_iters = 0, tl.steps = 3, tl.kernels = 2, tl.omp_target = 1;
    rt_estimate te;
    memset(&te, 0, sizeof te);
    rt_cpu_model(&p, 1, &tl, &te);
    CHECK(fabs(te.fallback_s - 90e-6) < 1e-15);
    CHECK(fabs(te.cpu_s - 3 * (te.cpu_compute_s + 90e-6)) < 1e-15);
    /* a sequential (pragma-less) nest pays no fallback */
    tl.host_sequential = 1;
    rt_cpu_model(&p, 1, &tl, &te);
    CHECK(te.fallback_s == 0);
    /* the last-level TLB (schema v15): stored and read back exactly; in
     * the profile the miss is cycles of the calibrated clock: 1.5 ns x
     * 3 GHz = 4.5 cycles */
    CHECK(back.page == 4096 && back.tlb_entries == 2048 && back.tlb_miss_ns == 1.5);
    CHECK(p.page == 4096 && p.tlb_entries == 2048);
    CHECK(fabs(p.tlb_miss_cycles - 4.5) < 1e-12);
    /* Tlb_c = misses / iters x chunk x miss: 1000 iterations with 2000
     * misses on 1 thread = 2000 x 4.5 = 9000 cycles */
    memset(&tl, 0, sizeof tl);
    tl.par_iters = 1000, tl.tlb_misses = 2000, tl.cycles_per_iter = 1;
    rt_cpu_model(&p, 1, &tl, &te);
    CHECK(fabs(te.tlb_c - 9000) < 1e-9);

    /* the caches (schema v18): back exactly, and in the profile (the
     * traffic model's levels) */
    CHECK(back.l1 == 49152 && back.l2 == 1048576 && back.l3 == 33554432);
    CHECK(p.l1 == 49152 && p.l2 == 1048576 && p.l3 == 33554432);
    CHECK(strstr(p.source, "cache sizes the operating system lists") != NULL);

    /* the TLB probe's fit (calib_tlb.c): a curve that is the model's law
     * with C = 2048 entries, lo 0.2 ns and a miss of 1.5 ns -- 0.2 up to
     * 2048 pages, then 0.2 + 1.5 x (1 - 2048 / P): 0.95 at 4096, 1.325 at
     * 8192, 1.5125 at 16384, 1.60625 at 32768 -- gives back 2048 and 1.5 */
    double pg[8] = { 256, 512, 1024, 2048, 4096, 8192, 16384, 32768 };
    double df[8] = { 0.2, 0.2, 0.2, 0.2, 0.95, 1.325, 1.5125, 1.60625 };
    double ent = 0, miss = 0;
    CHECK_INT(rt_tlb_fit(pg, df, 8, &ent, &miss), 0);
    CHECK(ent == 2048 && fabs(miss - 1.5) < 1e-12);
    /* a sharp step (every access past 4096 pages pays 1.5 ns): the law
     * puts C between the last flat point and the first high one */
    double st[8] = { 0.2, 0.2, 0.2, 0.2, 0.2, 1.7, 1.7, 1.7 };
    CHECK_INT(rt_tlb_fit(pg, st, 8, &ent, &miss), 0);
    CHECK(ent > 2048 && ent <= 4096 && miss > 1.5);
    /* no step (every size fits) and too few points: no figure */
    double flat[8] = { 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2 };
    CHECK_INT(rt_tlb_fit(pg, flat, 8, &ent, &miss), 1);
    CHECK(ent == 0 && miss == 0);
    CHECK_INT(rt_tlb_fit(pg, df, 3, &ent, &miss), -1);

    /* the measured clock: the chain's additions over the least disturbed
     * batch (a descheduled or slowed batch only lengthens its time); a
     * batch with no time is skipped, none at all is no figure:
     * 128 x 2^20 additions in 0.032 s = 4194304000 Hz */
    double secs[4] = { 0.05, 0.032, 0, 0.04 };
    CHECK(rt_clock_hz(128.0 * 1048576, secs, 4) == 134217728.0 / 0.032);
    CHECK(fabs(rt_clock_hz(128.0 * 1048576, secs, 4) - 4194304000.0) < 1e-3);
    double none[2] = { 0, -1 };
    CHECK(rt_clock_hz(1e9, none, 2) == 0);

    /* the clock of a calibration: the median of its samples over the run
     * (a sample of 0, no thread CPU clock, is left out): 2.45, 2.5, 2.97,
     * 2.8 GHz -> (2.5 + 2.8) / 2 */
    double ck[5] = { 2.45e9, 2.5e9, 0, 2.97e9, 2.8e9 };
    CHECK(fabs(rt_clock_median(ck, 5) - 2.65e9) < 1e-3);
    CHECK(rt_clock_median(ck + 2, 1) == 0);

    /* a thread's rate with T busy: the median over rounds of T busy over
     * one alone right before; a round with a figure missing is left out.
     * Rounds 5/10, 6/10, 3/6 (a slow round alone), 7/10, and one with no
     * busy figure: ratios 0.5, 0.6, 0.5, 0.7 -> median (0.5 + 0.6) / 2 */
    double alone[5] = { 10, 10, 6, 10, 9 }, busy[5] = { 5, 6, 3, 7, 0 };
    CHECK(fabs(rt_rate_ratio(alone, busy, 5) - 0.55) < 1e-12);
    CHECK(fabs(rt_rate_ratio(alone, busy, 3) - 0.5) < 1e-12);
    CHECK(rt_rate_ratio(alone, busy + 4, 1) == 0);

    /* the dependent-chain latencies (the recurrence bound's): stored as
     * text in the row, back exactly, in the profile */
    int lat_same = 1;
    for (int k = 0; k < RT_NLAT; k++)
        lat_same &= back.lat[k] == c.lat[k] && p.lat[k] == c.lat[k];
    CHECK(lat_same);
    CHECK(sqlite3_prepare_v2(h, "SELECT latencies FROM host_calibration", -1, &q, NULL)
          == SQLITE_OK);
    CHECK(sqlite3_step(q) == SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(q, 0),
              "fadd=1.5 fmul=2.5 fdiv=13.25 iadd=4.5 imul=5.5 idiv=6.5 fsel=7.5 isel=8.5 "
              "stlf=9.5");
    sqlite3_finalize(q);
    /* the profile's text form carries them (keel devices --export) */
    char *txt = NULL;
    size_t tlen = 0;
    FILE *mf = open_memstream(&txt, &tlen);
    rt_profile_write(&p, mf);
    fclose(mf);
    CHECK(txt && strstr(txt, "latency_fdiv = 13.25 cycles\n") != NULL);
    char perr[200];
    const rt_profile *pp = txt ? rt_profile_parse(txt, "t", perr, sizeof perr) : NULL;
    CHECK(pp && pp->lat[RT_LAT_STLF] == 9.5 && pp->lat[RT_LAT_FDIV] == 13.25);
    free(txt);

    /* a newer calibration with one thread only and no patterns: the newest
     * row wins and carries no table */
    rt_calibration one;
    fill(&one);
    one.bw_points = 0, one.cores = 1;
    CHECK_INT(rt_calibration_store(path, &one, err, sizeof err), 0);
    CHECK_INT(rt_calibration_load(path, &back, err, sizeof err), 0);
    CHECK_INT(back.cores, 1);
    CHECK_INT(back.bw_points, 0);
    /* single-threaded table: one row per (pattern, footprint), both figures */
    fill(&one);
    one.bw_threads = 1;
    CHECK_INT(rt_calibration_store(path, &one, err, sizeof err), 0);
    CHECK_INT(rt_calibration_load(path, &back, err, sizeof err), 0);
    CHECK_INT(back.bw_points, RT_BW_POINTS);
    CHECK(back.bw_all[RT_PAT_COLUMN][2] == one.bw_one[RT_PAT_COLUMN][2]);

    /* the table gone (a database written before schema v7 kept its rows
     * only in host_calibration): no per-pattern figures, no error */
    CHECK(sqlite3_exec(h, "DROP TABLE host_bandwidth", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    CHECK_INT(rt_calibration_load(path, &back, err, sizeof err), 0);
    CHECK_INT(back.bw_points, 0);
    CHECK(back.mem_bw == 50e9);
    /* a row measured before schema v13 has no fallback figure: 0, none */
    CHECK(sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK);
    CHECK(sqlite3_exec(h, "UPDATE host_calibration SET target_fallback_ns = NULL", NULL, NULL,
                       NULL) == SQLITE_OK);
    sqlite3_close(h);
    CHECK_INT(rt_calibration_load(path, &back, err, sizeof err), 0);
    CHECK(back.target_fallback_ns == 0);
    rt_profile_from_calibration(&back, &p);
    CHECK(p.target_fallback == 0);
    /* nor a TLB figure before schema v15: the profile keeps the host
     * defaults' (none) */
    CHECK(sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK);
    CHECK(sqlite3_exec(h, "UPDATE host_calibration SET page_bytes = NULL, tlb_entries = NULL,"
                          " tlb_miss_ns = NULL", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    CHECK_INT(rt_calibration_load(path, &back, err, sizeof err), 0);
    CHECK(back.page == 0 && back.tlb_entries == 0 && back.tlb_miss_ns == 0);
    rt_profile_from_calibration(&back, &p);
    CHECK(p.tlb_entries == rt_profile_host_default()->tlb_entries &&
          p.tlb_miss_cycles == rt_profile_host_default()->tlb_miss_cycles);
    /* nor caches before schema v18: the host defaults' (32 KiB L1d
     * estimate, 1 MiB L2, 16 MiB L3) */
    CHECK(sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK);
    CHECK(sqlite3_exec(h, "UPDATE host_calibration SET l1_bytes = NULL, l2_bytes = NULL,"
                          " l3_bytes = NULL", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(h);
    CHECK_INT(rt_calibration_load(path, &back, err, sizeof err), 0);
    CHECK(back.l1 == 0 && back.l2 == 0 && back.l3 == 0);
    rt_profile_from_calibration(&back, &p);
    CHECK(p.l1 == 32768 && p.l2 == 1048576 && p.l3 == 16777216);
    /* nor latencies (a row measured before schema v15): none load, and the
     * profile's are the estimates (rt_latency) */
    CHECK(sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK);
    CHECK(sqlite3_exec(h, "UPDATE host_calibration SET latencies = NULL", NULL, NULL, NULL) ==
          SQLITE_OK);
    sqlite3_close(h);
    CHECK_INT(rt_calibration_load(path, &back, err, sizeof err), 0);
    CHECK(back.lat[RT_LAT_FADD] == 0 && back.mem_bw == 50e9);
    rt_profile_from_calibration(&back, &p);
    int est = 0;
    CHECK(rt_latency(&p, RT_LAT_FDIV, &est) == 13 && est == 1);
    fill(&one);
    one.lat[RT_LAT_FADD] = 2, one.bw_points = 0;     /* host_bandwidth is gone */
    CHECK_INT(rt_calibration_store(path, &one, err, sizeof err), 0);
    CHECK_INT(rt_calibration_load(path, &back, err, sizeof err), 0);
    CHECK(back.lat[RT_LAT_FADD] == 2 && back.lat[RT_LAT_STLF] == 9.5);

    /* the fallback probe, with stand-in compilers (shell scripts): the
     * figure is what the probe prints, the reason is said when there is
     * none.  `nooff` cannot build offload code (fails on
     * -fopenmp-targets); `fake` "builds" a probe that prints 1234.5 */
    char cc[300], note[200];
    double ns = -1;
    snprintf(cc, sizeof cc, "%s/nooff", dir);
    FILE *f = fopen(cc, "w");
    CHECK(f != NULL);
    fputs("#!/bin/sh\ncase \"$1\" in -print-target-triple) echo x86_64-pc-linux-gnu; exit 0;; esac\n"
          "exit 1\n", f);
    fclose(f);
    chmod(cc, 0755);
    CHECK_INT(rt_calibrate_target_cc(cc, &ns, note, sizeof note), 1);
    CHECK(ns == 0);
    CHECK(strstr(note, "cannot build OpenMP offload code (-fopenmp-targets=x86_64-pc-linux-gnu)") != NULL);
    snprintf(cc, sizeof cc, "%s/fake", dir);
    f = fopen(cc, "w");
    CHECK(f != NULL);
    fputs("#!/bin/sh\ncase \"$1\" in -print-target-triple) echo x86_64-pc-linux-gnu; exit 0;; esac\n"
          "while [ \"$1\" != -o ]; do shift; done\n"
          "printf '#!/bin/sh\\n[ \"$OMP_TARGET_OFFLOAD\" = DISABLED ] && echo \"1234.5 1\"\\n' >\"$2\"\n"
          "chmod +x \"$2\"\n", f);
    fclose(f);
    chmod(cc, 0755);
    CHECK_INT(rt_calibrate_target_cc(cc, &ns, note, sizeof note), 0);
    CHECK(ns == 1234.5);
    CHECK(strstr(note, "OMP_TARGET_OFFLOAD=DISABLED") != NULL);
    unlink(cc);
    snprintf(cc, sizeof cc, "%s/nooff", dir), unlink(cc);
    CHECK_INT(rt_calibrate_target_cc("/nonexistent/cc", &ns, note, sizeof note), 1);
    CHECK(strstr(note, "does not run") != NULL);

    /* the load warning: above the cores online, never at or below them */
    char msg[256] = "";
    CHECK_INT(rt_calibrate_load_note("2.70 2.11 4.09 5/85 7481\n", 2, msg, sizeof msg), 1);
    CHECK_STR(msg, "load average 2.7 on 2 cores: other work shares the cores being measured, "
                   "so the figures will be off; calibrate on a quiet machine");
    msg[0] = '\0';
    CHECK_INT(rt_calibrate_load_note("2.00 2.50 3.00 1/80 1\n", 2, msg, sizeof msg), 0);
    CHECK_INT(rt_calibrate_load_note("0.69 2.79 6.27 1/80 1\n", 16, msg, sizeof msg), 0);
    CHECK_INT(rt_calibrate_load_note("", 2, msg, sizeof msg), 0);
    CHECK_INT(rt_calibrate_load_note(NULL, 2, msg, sizeof msg), 0);
    CHECK_INT(rt_calibrate_load_note("9.0", 0, msg, sizeof msg), 0);
    CHECK_STR(msg, "");

    unlink(path);
    char side[300];
    snprintf(side, sizeof side, "%s-wal", path), unlink(side);
    snprintf(side, sizeof side, "%s-shm", path), unlink(side);
    rmdir(dir);
    return check_summary();
}
