/*
 * history.c -- measured times and StarPU-style history / regression
 * models (history.h).  Only prepared statements with bound parameters.
 */
#include "history.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char create_sql[] =
    "CREATE TABLE IF NOT EXISTS history(\n"
    "  loop_id INTEGER NOT NULL,\n"
    "  size_key TEXT NOT NULL,\n"
    "  n REAL NOT NULL,\n"
    "  device TEXT NOT NULL CHECK (device IN ('cpu', 'gpu')),\n"
    "  samples INTEGER NOT NULL,\n"
    "  mean_s REAL NOT NULL,\n"
    "  m2 REAL NOT NULL,\n"
    "  PRIMARY KEY (loop_id, size_key, device))";

/* Welford's update in one statement: every right-hand side reads the old
 * row, so the new mean is mean + (x - mean) / (samples + 1) and m2 grows
 * by (x - mean) * (x - new mean). */
static const char upsert_sql[] =
    "INSERT INTO history(loop_id, size_key, n, device, samples, mean_s, m2)"
    " VALUES (?1, ?2, ?3, ?4, 1, ?5, 0)"
    " ON CONFLICT(loop_id, size_key, device) DO UPDATE SET"
    "  samples = samples + 1,"
    "  mean_s = mean_s + (excluded.mean_s - mean_s) / (samples + 1),"
    "  m2 = m2 + (excluded.mean_s - mean_s) *"
    "       (excluded.mean_s - (mean_s + (excluded.mean_s - mean_s) / (samples + 1))),"
    "  n = excluded.n";

/* k samples with mean m and sum of squared deviations q added to a row
 * (Chan, Golub & LeVeque's pairwise combination; every right-hand side
 * reads the old row):  N = n + k,  mean' = mean + (m - mean) k / N,
 * m2' = m2 + q + (m - mean)^2 n k / N. */
static const char merge_sql[] =
    "INSERT INTO history(loop_id, size_key, n, device, samples, mean_s, m2)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
    " ON CONFLICT(loop_id, size_key, device) DO UPDATE SET"
    "  samples = samples + excluded.samples,"
    "  mean_s = mean_s + (excluded.mean_s - mean_s) * excluded.samples"
    "           / (samples + excluded.samples),"
    "  m2 = m2 + excluded.m2 + (excluded.mean_s - mean_s) * (excluded.mean_s - mean_s)"
    "       * samples * excluded.samples / (samples + excluded.samples),"
    "  n = excluded.n";

/* upsert_sql or merge_sql for one (loop, size key, device) row: the device
 * checked, the table created, the statement prepared with the row's key
 * bound (?1-?4); NULL when any of it fails. */
static sqlite3_stmt *prepare_row(sqlite3 *h, const char *sql, int64_t loop_id, const char *key,
                                 double n, const char *device)
{
    sqlite3_stmt *st = NULL;
    if ((strcmp(device, "cpu") && strcmp(device, "gpu")) ||
        sqlite3_exec(h, create_sql, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
        return NULL;
    sqlite3_bind_int64(st, 1, loop_id);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 3, n);
    sqlite3_bind_text(st, 4, device, -1, SQLITE_STATIC);
    return st;
}

/* Step and finalize st: 0 when it ran. */
static int step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

int rt_history_merge_h(sqlite3 *h, int64_t loop_id, const char *key, double n,
                       const char *device, long long samples, double mean, double m2)
{
    sqlite3_stmt *st;
    if (samples < 1 || !(mean > 0) || !isfinite(mean) || !(m2 >= 0) || !isfinite(m2) ||
        !(st = prepare_row(h, merge_sql, loop_id, key, n, device)))
        return -1;
    sqlite3_bind_int64(st, 5, samples);
    sqlite3_bind_double(st, 6, mean);
    sqlite3_bind_double(st, 7, m2);
    return step_done(st);
}

double rt_fit_eval(const rt_fit *f, double n)
{
    return f->a * pow(n, f->b) + f->c;
}

int rt_history_fit(int k, const double *n, const double *t, rt_fit *out)
{
    int distinct = 0;
    double tmin = INFINITY;
    for (int i = 0; i < k; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = n[j] == n[i];
        distinct += !seen && n[i] > 0 && t[i] > 0;
        if (t[i] > 0 && t[i] < tmin)
            tmin = t[i];
    }
    if (distinct < 3)
        return -1;
    double best = INFINITY;
    for (int s = 0; s < 10; s++) {
        double c = tmin * s / 10.0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        int m = 0;
        for (int i = 0; i < k; i++) {
            if (!(n[i] > 0) || !(t[i] - c > 0))
                continue;
            double x = log(n[i]), y = log(t[i] - c);
            sx += x, sy += y, sxx += x * x, sxy += x * y, m++;
        }
        double den = m * sxx - sx * sx;
        if (m < 3 || fabs(den) < 1e-300)
            continue;
        double b = (m * sxy - sx * sy) / den, la = (sy - b * sx) / m;
        rt_fit f = { exp(la), b, c };
        double err = 0;
        for (int i = 0; i < k; i++)
            if (n[i] > 0 && t[i] > 0) {
                double r = (rt_fit_eval(&f, n[i]) - t[i]) / t[i];
                err += r * r;
            }
        if (err < best - 1e-15) {
            best = err;
            *out = f;
        }
    }
    return isinf(best) ? -1 : 0;
}

static int open_rw(const char *path, sqlite3 **h, int create, char *err, size_t errlen)
{
    if (sqlite3_open_v2(path, h, create ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, NULL)
        != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path, *h ? sqlite3_errmsg(*h) : "cannot open");
        sqlite3_close(*h);
        *h = NULL;
        return -1;
    }
    sqlite3_busy_timeout(*h, 2000);
    return 0;
}

int rt_history_add_h(sqlite3 *h, int64_t loop_id, const char *key, double n,
                     const char *device, double seconds)
{
    sqlite3_stmt *st;
    if (!(seconds > 0) || !isfinite(seconds) ||
        !(st = prepare_row(h, upsert_sql, loop_id, key, n, device)))
        return -1;
    sqlite3_bind_double(st, 5, seconds);
    return step_done(st);
}

int rt_history_add(const char *dbpath, int64_t loop_id, const char *key, double n,
                   const char *device, double seconds, char *err, size_t errlen)
{
    sqlite3 *h = NULL;
    if (strcmp(device, "cpu") && strcmp(device, "gpu"))
        return snprintf(err, errlen, "device '%s' is neither cpu nor gpu", device), -1;
    if (!(seconds > 0) || !isfinite(seconds))
        return snprintf(err, errlen, "bad time %g", seconds), -1;
    if (open_rw(dbpath, &h, 1, err, errlen))
        return -1;
    int rc = rt_history_add_h(h, loop_id, key, n, device, seconds);
    if (rc)
        snprintf(err, errlen, "%s: %s", dbpath, sqlite3_errmsg(h));
    sqlite3_close(h);
    return rc;
}

typedef struct {
    const char *name;
    long long value;
} kv;

static int cmp_kv(const void *a, const void *b)
{
    return strcmp(((const kv *)a)->name, ((const kv *)b)->name);
}

int rt_history_key(int n, const char *const *names, const long long *values, char *buf,
                   size_t len)
{
    kv small[16], *v = n <= 16 ? small : malloc(sizeof *v * (size_t)n);
    if (!v)
        return -1;
    int m = 0;
    for (int i = 0; i < n; i++)       /* sizes only: not the base addresses "&p" */
        if (!names[i] || names[i][0] != '&')
            v[m].name = names[i] ? names[i] : "?", v[m++].value = values[i];
    n = m;
    qsort(v, (size_t)n, sizeof *v, cmp_kv);
    size_t used = 0;
    int rc = 0;
    buf[0] = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        int w = snprintf(buf + used, len - used, "%s%s=%lld", i ? "," : "", v[i].name, v[i].value);
        if (w < 0 || (size_t)w >= len - used)
            rc = -1;
        else
            used += (size_t)w;
    }
    if (v != small)
        free(v);
    return rc;
}

int rt_history_lookup(const char *dbpath, int64_t loop_id, const char *key, double n,
                      rt_history_pred *out, char *err, size_t errlen)
{
    sqlite3 *h = NULL;
    memset(out, 0, sizeof *out);
    if (open_rw(dbpath, &h, 0, err, errlen))
        return -1;
    int rc = rt_history_lookup_h(h, loop_id, key, n, out);
    sqlite3_close(h);
    return rc;
}

void rt_history_rows_free(rt_history_rows *r)
{
    for (int i = 0; i < r->n; i++)
        free(r->key[i]);
    free(r->key), free(r->gpu), free(r->size), free(r->samples), free(r->mean);
    memset(r, 0, sizeof *r);
}

int rt_history_rows_load_h(sqlite3 *h, int64_t loop_id, rt_history_rows *out)
{
    sqlite3_stmt *st = NULL;
    memset(out, 0, sizeof *out);
    if (sqlite3_prepare_v2(h, "SELECT device, size_key, n, samples, mean_s FROM history"
                              " WHERE loop_id = ?1 ORDER BY n", -1, &st, NULL) != SQLITE_OK)
        return 0;                 /* no table: nothing measured yet */
    sqlite3_bind_int64(st, 1, loop_id);
    int cap = 0, rc = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (out->n == cap) {
            int c = cap ? 2 * cap : 16;
            char **k = realloc(out->key, sizeof *k * (size_t)c);
            if (k) out->key = k;
            int *g = k ? realloc(out->gpu, sizeof *g * (size_t)c) : NULL;
            if (g) out->gpu = g;
            int *sm = g ? realloc(out->samples, sizeof *sm * (size_t)c) : NULL;
            if (sm) out->samples = sm;
            double *sz = sm ? realloc(out->size, sizeof *sz * (size_t)c) : NULL;
            if (sz) out->size = sz;
            double *mn = sz ? realloc(out->mean, sizeof *mn * (size_t)c) : NULL;
            if (mn) out->mean = mn;
            if (!mn) {
                rc = -1;
                break;
            }
            cap = c;
        }
        const char *dev = (const char *)sqlite3_column_text(st, 0);
        const char *sk = (const char *)sqlite3_column_text(st, 1);
        int i = out->n;
        out->key[i] = strdup(sk ? sk : "");
        if (!out->key[i]) {
            rc = -1;
            break;
        }
        out->gpu[i] = dev && strcmp(dev, "gpu") == 0;
        out->size[i] = sqlite3_column_double(st, 2);
        out->samples[i] = sqlite3_column_int(st, 3);
        out->mean[i] = sqlite3_column_double(st, 4);
        out->n++;
    }
    sqlite3_finalize(st);
    if (rc)
        rt_history_rows_free(out);
    return rc;
}

void rt_history_predict(const rt_history_rows *r, const char *key, double n, rt_history_pred *out)
{
    memset(out, 0, sizeof *out);
    enum { MAXP = 256 };
    double ns[2][MAXP], ts[2][MAXP];
    int k[2] = { 0, 0 };
    for (int i = 0; i < r->n; i++) {
        int d = r->gpu[i];
        if (!strcmp(r->key[i], key)) {
            if (d)
                out->gpu_samples = r->samples[i], out->gpu_s = r->mean[i];
            else
                out->cpu_samples = r->samples[i], out->cpu_s = r->mean[i];
        }
        if (k[d] < MAXP)
            ns[d][k[d]] = r->size[i], ts[d][k[d]++] = r->mean[i];
    }
    for (int d = 0; d < 2; d++) {
        int distinct = 0;
        for (int i = 0; i < k[d]; i++)
            distinct += i == 0 || ns[d][i] != ns[d][i - 1];
        if (d)
            out->gpu_sizes = distinct;
        else
            out->cpu_sizes = distinct;
    }
    int fc = rt_history_fit(k[0], ns[0], ts[0], &out->cpu_fit) == 0;
    int fg = rt_history_fit(k[1], ns[1], ts[1], &out->gpu_fit) == 0;
    if (out->cpu_samples >= RT_HISTORY_TRUST && out->gpu_samples >= RT_HISTORY_TRUST) {
        out->decides = 1;
        out->how = "measured";
    } else if (fc && fg) {
        out->decides = 1;
        out->how = "regression";
        out->cpu_s = rt_fit_eval(&out->cpu_fit, n);
        out->gpu_s = rt_fit_eval(&out->gpu_fit, n);
    }
}

int rt_history_lookup_h(sqlite3 *h, int64_t loop_id, const char *key, double n,
                        rt_history_pred *out)
{
    rt_history_rows r;
    memset(out, 0, sizeof *out);
    if (rt_history_rows_load_h(h, loop_id, &r))
        return 0;
    rt_history_predict(&r, key, n, out);
    rt_history_rows_free(&r);
    return 0;
}
