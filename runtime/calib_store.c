/*
 * calib_store.c -- this host's calibration (rt_calibration) to and from
 * the database's host_calibration and host_bandwidth rows: store (keel
 * calibrate) and read (libkeelrt at its first launch).  The SQL is db/'s
 * run-time log (db_log.h); here the rows are keyed by this machine's host
 * name, the per-pattern bandwidth (PMaC) is laid out by footprint and
 * what many threads get is one text, "T:clock:work:triad ...".  A
 * database without host_bandwidth (before schema v7) simply has no
 * per-pattern figures.
 */
#include "calib.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db_calib_pack.h"
#include "db_log.h"

/* "DB: SQLite's message" into err; -1. */
static int sql_err(const char *dbpath, db_log *l, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", dbpath, db_log_errmsg(l));
    return -1;
}

/* This machine's host name, the key of its calibration rows. */
static void host_name(char host[256])
{
    memset(host, 0, 256);
    host[0] = '?';
    gethostname(host, 255);
}

int rt_calibration_store(const char *dbpath, const rt_calibration *c, char *err, size_t errlen)
{
    db_log *l = NULL;
    char host[256];
    int64_t id = 0;
    int rc = -1;
    host_name(host);
    if (db_log_open(dbpath, DB_LOG_WRITE, 30000, &l, err, errlen)) {
        snprintf(err, errlen, "%s: cannot open for writing", dbpath);
        return -1;
    }
    if (db_log_check(l, err, errlen))
        goto done;
    db_calib_row row = { c->cores, c->freq_hz, c->mem_bw, c->peak_flops,
                         c->fork_ns, c->join_ns, c->sched_ns, c->target_fallback_ns,
                         c->page, c->tlb_entries, c->tlb_miss_ns, c->l1, c->l2, c->l3, "", "" };
    rt_thread_curve_format(c, row.thread_curve, sizeof row.thread_curve);
    /* the chain latencies as "fadd=2.01 fmul=3 ..." (cycles) */
    for (int k = 0, n = 0; k < RT_NLAT && n < (int)sizeof row.latencies; k++)
        if (c->lat[k] > 0)
            n += snprintf(row.latencies + n, sizeof row.latencies - (size_t)n, "%s%s=%.4g",
                          n ? " " : "", rt_lat_name(k), c->lat[k]);
    if (db_log_begin(l) || db_calib_add(l, host, &row, &id)) {
        sql_err(dbpath, l, err, errlen);
        goto done;
    }
    for (int f = 0; f < c->bw_points && f < RT_BW_POINTS; f++)
        for (int p = 0; p < RT_PATTERNS; p++)
            for (int w = 0; w < 2; w++) {
                double v = w ? c->bw_all[p][f] : c->bw_one[p][f];
                if (!(v > 0) || (w && c->bw_threads <= 1))
                    continue;        /* one thread only: the row is the same */
                db_bw_row b = { rt_pattern_name(p), c->bw_fp[f], w ? c->bw_threads : 1, v };
                if (db_calib_add_bandwidth(l, id, &b)) {
                    sql_err(dbpath, l, err, errlen);
                    goto done;
                }
            }
    if (db_log_end(l, 1)) {
        sql_err(dbpath, l, err, errlen);
        goto done;
    }
    db_log_checkpoint(l);    /* the database file alone holds the calibration */
    rc = 0;
done:
    if (rc != 0)
        db_log_end(l, 0);
    db_log_close(l);
    return rc;
}

/* The per-pattern rows of one calibration into c while they are read. */
typedef struct {
    rt_calibration *c;
    const double *fp;
    int nfp;
    int (*have)[RT_BW_POINTS];
} bw_load;

static void bandwidth_row(void *ctx, const db_bw_row *r)
{
    bw_load *b = ctx;
    int p = -1, k = -1;
    for (int j = 0; j < RT_PATTERNS && r->pattern; j++)
        if (!strcmp(r->pattern, rt_pattern_name(j)))
            p = j;
    for (int j = 0; j < b->nfp; j++)
        if (b->fp[j] == r->footprint)
            k = j;
    if (p < 0 || k < 0 || !(r->bytes_per_s > 0))
        return;
    if (r->threads == 1)
        b->c->bw_one[p][k] = r->bytes_per_s, b->have[p][k] = 1;
    if (r->threads >= b->c->bw_threads)    /* by ascending threads: the largest last */
        b->c->bw_all[p][k] = r->bytes_per_s, b->c->bw_threads = r->threads;
}

/* The per-pattern rows of calibration `id` into c (c->bw_points 0 when the
 * table is missing or holds no complete set: every pattern at every
 * footprint with one thread; the all-threads figures are those of the
 * largest thread count stored). */
static void bandwidth_load(db_calib_src *l, int64_t id, rt_calibration *c)
{
    double fp[RT_BW_POINTS];
    int have[RT_PATTERNS][RT_BW_POINTS] = { { 0 } };
    c->bw_points = 0;
    int nfp = db_calib_src_footprints(l, id, fp, RT_BW_POINTS);
    if (nfp == 0)
        return;
    bw_load b = { c, fp, nfp, have };
    db_calib_src_each_bandwidth(l, id, bandwidth_row, &b);
    for (int p = 0; p < RT_PATTERNS; p++)
        for (int k = 0; k < nfp; k++)
            if (!have[p][k])
                return;
    memcpy(c->bw_fp, fp, sizeof fp);
    c->bw_points = nfp;
}

/* "fadd=2.01 fmul=3 ..." into lat by RT_LAT_* (unknown names skipped). */
static void latencies_parse(const char *text, double lat[RT_NLAT])
{
    for (const char *t = text; t && *t;) {
        t += strspn(t, " ");
        size_t n = strcspn(t, " ");
        const char *eq = memchr(t, '=', n);
        int k = eq ? rt_lat_find(t, (size_t)(eq - t)) : -1;
        if (k >= 0)
            lat[k] = strtod(eq + 1, NULL);
        t += n;
    }
}

void rt_thread_curve_format(const rt_calibration *c, char *buf, size_t len)
{
    size_t n = 0;
    if (len)
        buf[0] = '\0';
    for (int k = 0; k < c->tc_points && k < RT_TC_POINTS && n < len; k++) {
        int w = snprintf(buf + n, len - n, "%s%.0f:%.6g:%.6g:%.6g", k ? " " : "", c->tc_threads[k],
                         c->tc_clock[k], c->tc_work[k], c->tc_bw[k]);
        if (w < 0 || (size_t)w >= len - n) {      /* no room: the points that fit */
            buf[n] = '\0';
            break;
        }
        n += (size_t)w;
    }
}

int rt_thread_curve_parse(const char *text, rt_calibration *c)
{
    int n = 0;
    for (const char *t = text; t && *t && n < RT_TC_POINTS;) {
        double v[4];
        int used = 0;
        t += strspn(t, " ");
        if (!*t)
            break;
        if (sscanf(t, "%lf:%lf:%lf:%lf%n", &v[0], &v[1], &v[2], &v[3], &used) != 4 || v[0] < 1 ||
            (n > 0 && v[0] <= c->tc_threads[n - 1]))
            break;
        c->tc_threads[n] = v[0], c->tc_clock[n] = v[1], c->tc_work[n] = v[2], c->tc_bw[n] = v[3];
        n++;
        t += used;
    }
    c->tc_points = n;
    return n;
}

/* This host's newest calibration through l (dbpath names it in messages). */
static int calibration_read(db_calib_src *l, const char *dbpath, rt_calibration *c, char *err,
                            size_t errlen)
{
    db_calib_row row;
    char host[256];
    int64_t id = 0;
    memset(c, 0, sizeof *c);
    host_name(host);
    /* this host's newest row; another host's is better than nothing? no:
     * a database copied between machines must not carry its calibration */
    int rc = db_calib_src_newest(l, host, &row, &id);
    if (rc < 0)
        snprintf(err, errlen, "%s: %s", dbpath, db_calib_src_errmsg(l));
    if (rc == 0) {
        c->cores = row.cores;
        c->freq_hz = row.freq_hz;
        c->mem_bw = row.mem_bw;
        c->peak_flops = row.peak_flops;
        c->fork_ns = row.fork_ns;
        c->join_ns = row.join_ns;
        c->sched_ns = row.sched_ns;
        c->target_fallback_ns = row.target_fallback_ns;
        latencies_parse(row.latencies, c->lat);
        c->page = row.page_bytes;
        c->tlb_entries = row.tlb_entries;
        c->tlb_miss_ns = row.tlb_miss_ns;
        c->l1 = row.l1_bytes;
        c->l2 = row.l2_bytes;
        c->l3 = row.l3_bytes;
        rt_thread_curve_parse(row.thread_curve, c);
        bandwidth_load(l, id, c);
    }
    return rc;
}

/* calibration_read over a log l (borrowed). */
static int read_log(db_log *l, const char *dbpath, rt_calibration *c, char *err, size_t errlen)
{
    db_calib_src *src = NULL;
    if (db_calib_src_log(l, &src)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = calibration_read(src, dbpath, c, err, errlen);
    db_calib_src_close(src);
    return rc;
}

int rt_calibration_load(const char *dbpath, rt_calibration *c, char *err, size_t errlen)
{
    db_log *l = NULL;
    memset(c, 0, sizeof *c);
    if (db_log_open(dbpath, DB_LOG_READ, 5, &l, err, errlen)) {
        snprintf(err, errlen, "%s: cannot open", dbpath);
        return -1;
    }
    int rc = read_log(l, dbpath, c, err, errlen);
    db_log_close(l);
    return rc;
}

int rt_calibration_read(db *d, const char *dbpath, rt_calibration *c, char *err, size_t errlen)
{
    db_log *l = NULL;
    memset(c, 0, sizeof *c);
    if (db_log_borrow(d, &l, err, errlen))
        return -1;
    int rc = read_log(l, dbpath, c, err, errlen);
    db_log_close(l);
    return rc;
}

int rt_calibration_read_log(db_log *l, const char *dbpath, rt_calibration *c, char *err,
                            size_t errlen)
{
    memset(c, 0, sizeof *c);
    return read_log(l, dbpath, c, err, errlen);
}

int rt_calibration_read_packed(const void *bytes, size_t n, rt_calibration *c, char *err,
                               size_t errlen)
{
    db_calib_src *src = NULL;
    memset(c, 0, sizeof *c);
    if (db_calib_src_packed(bytes, n, &src, err, errlen))
        return -1;
    int rc = calibration_read(src, "packed calibration", c, err, errlen);
    db_calib_src_close(src);
    return rc;
}
