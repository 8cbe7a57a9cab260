/*
 * history.c -- measured times and StarPU-style history / regression
 * models (history.h): the size key, the fits (the models' times carried
 * through two measured sizes; a n^b + c), the prediction.  The rows
 * are read and written through the run-time log of db/ (db_log.h); and
 * rt_learn, one site's measurements of the running process, which
 * explores the other device once where the models are unsure and the
 * exploration's expected cost fits the site's budget, and follows the
 * measurements from then on (history.h).
 */
#include "history.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_log.h"

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

double rt_shape_eval(const rt_shape *s, double m)
{
    return s->g == 1 ? s->t1 * (m / s->m1) : s->t1 * pow(m / s->m1, s->g);
}

/* The power law through two points, or its bound g = 0 (history.h). */
static void shape_two(double m1, double t1, double m2, double t2, rt_shape *out)
{
    double g = log(t2 / t1) / log(m2 / m1);
    out->points = 2;
    out->m1 = m1;
    if (g >= 0 && isfinite(g))
        out->t1 = t1, out->g = g;
    else
        out->t1 = sqrt(t1 * t2), out->g = 0;
}

/* Beyond the measured sizes, the error t / m may change from the nearest
 * one's by at most the band's factor (RT_LEARN_BAND: as far as the models
 * may be off before learning explores, history.h) where it moves with the
 * models' time (g > 1).  Two sizes close in the models' time turn timing
 * noise into any exponent, which a power law would carry without limit;
 * g < 1 is bounded already (g >= 0: measured time does not fall as the
 * work grows). */
static void shape_bound(rt_shape *s, double m_near, double t_near, double at)
{
    double span = fabs(log(at / m_near));
    if (!(span > 0) || !isfinite(span))
        return;
    double g_max = 1 + log(RT_LEARN_BAND) / span;
    if (s->g > g_max)
        s->m1 = m_near, s->t1 = t_near, s->g = g_max;
}

int rt_shape_fit(int k, const double *m, const double *t, double at, rt_shape *out)
{
    int lo = -1, hi = -1;       /* the nearest at or below `at`, above it */
    for (int i = 0; i < k; i++) {
        if (!(m[i] > 0) || !(t[i] > 0) || !isfinite(m[i]) || !isfinite(t[i]))
            continue;
        if (m[i] <= at && (lo < 0 || m[i] > m[lo]))
            lo = i;
        if (m[i] > at && (hi < 0 || m[i] < m[hi]))
            hi = i;
    }
    if (lo < 0 && hi < 0)
        return -1;
    if (lo < 0 || hi < 0) {     /* an end: the next one beyond on the same side */
        int a = lo >= 0 ? lo : hi, b = -1;
        for (int i = 0; i < k; i++) {
            if (!(m[i] > 0) || !(t[i] > 0) || !isfinite(m[i]) || !isfinite(t[i]))
                continue;
            int beyond = lo >= 0 ? m[i] < m[a] : m[i] > m[a];
            if (beyond && (b < 0 || (lo >= 0 ? m[i] > m[b] : m[i] < m[b])))
                b = i;
        }
        lo = a, hi = b;
    }
    if (hi < 0) {
        out->m1 = m[lo], out->t1 = t[lo], out->g = 1, out->points = 1;
        return 0;
    }
    int a = m[lo] < m[hi] ? lo : hi, z = a == lo ? hi : lo;    /* m[a] < m[z] */
    shape_two(m[a], t[a], m[z], t[z], out);
    if (at > m[z])
        shape_bound(out, m[z], t[z], at);
    else if (at < m[a])
        shape_bound(out, m[a], t[a], at);
    return 0;
}

int rt_history_add(const char *dbpath, int64_t loop_id, const char *key, double n,
                   const char *device, double seconds, char *err, size_t errlen)
{
    db_log *l = NULL;
    if (strcmp(device, "cpu") && strcmp(device, "gpu"))
        return snprintf(err, errlen, "device '%s' is neither cpu nor gpu", device), -1;
    if (!(seconds > 0) || !isfinite(seconds))
        return snprintf(err, errlen, "bad time %g", seconds), -1;
    if (db_log_open(dbpath, DB_LOG_WRITE, 2000, &l, err, errlen) ||
        db_log_check(l, err, errlen)) {
        db_log_close(l);
        return -1;
    }
    int rc = db_history_add(l, loop_id, key, n, device, seconds);
    if (rc)
        snprintf(err, errlen, "%s: %s", dbpath, db_log_errmsg(l));
    else
        db_log_checkpoint(l);    /* the database file alone holds the sample */
    db_log_close(l);
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
    db_log *l = NULL;
    memset(out, 0, sizeof *out);
    if (db_log_open(dbpath, DB_LOG_READ, 2000, &l, err, errlen))
        return -1;
    int rc = rt_history_lookup_h(l, loop_id, key, n, out);
    db_log_close(l);
    return rc;
}

void rt_history_rows_free(rt_history_rows *r)
{
    for (int i = 0; i < r->n; i++)
        free(r->key[i]);
    free(r->key), free(r->gpu), free(r->size), free(r->samples), free(r->mean), free(r->model);
    memset(r, 0, sizeof *r);
}

int rt_history_rows_one_device(const rt_history_rows *r)
{
    for (int i = 1; i < r->n; i++)
        if (r->gpu[i] != r->gpu[0])
            return 0;
    return 1;
}

/* One history row into the rows being read (db_history_each): 0, or -1
 * out of memory. */
static int row_add(void *ctx, const db_history_row *h)
{
    rt_history_rows *out = ctx;
    if (out->n == out->cap) {
        int c = out->cap ? 2 * out->cap : 16;
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
        if (!mn)
            return -1;
        out->cap = c;
    }
    int i = out->n;
    if (!(out->key[i] = strdup(h->size_key)))
        return -1;
    out->gpu[i] = strcmp(h->device, "gpu") == 0;
    out->size[i] = h->n;
    out->samples[i] = h->samples;
    out->mean[i] = h->mean_s;
    out->n++;
    return 0;
}

/* Each device's a n^b + c over the rows (ok[d] 0 where it has fewer than
 * 3 distinct sizes). */
static void rows_fit(const rt_history_rows *r, int ok[2], rt_fit fit[2])
{
    enum { MAXP = 256 };
    double ns[2][MAXP], ts[2][MAXP];
    int k[2] = { 0, 0 };
    for (int i = 0; i < r->n; i++) {
        int d = r->gpu[i];
        if (k[d] < MAXP)
            ns[d][k[d]] = r->size[i], ts[d][k[d]++] = r->mean[i];
    }
    for (int d = 0; d < 2; d++)
        ok[d] = rt_history_fit(k[d], ns[d], ts[d], &fit[d]) == 0;
}

int rt_history_rows_load_h(db_log *l, int64_t loop_id, rt_history_rows *out)
{
    memset(out, 0, sizeof *out);
    int rc = db_history_each(l, loop_id, row_add, out);
    if (rc)
        rt_history_rows_free(out);
    else    /* once per read: the rows change only by reading them again */
        rows_fit(out, out->fit_ok, out->fit), out->fitted = 1;
    return rc ? -1 : 0;
}

void rt_history_predict(const rt_history_rows *r, const char *key, double n, rt_history_pred *out)
{
    memset(out, 0, sizeof *out);
    double prev[2] = { NAN, NAN };
    for (int i = 0; i < r->n; i++) {
        int d = r->gpu[i];
        if (!strcmp(r->key[i], key)) {
            if (d)
                out->gpu_samples = r->samples[i], out->gpu_s = r->mean[i];
            else
                out->cpu_samples = r->samples[i], out->cpu_s = r->mean[i];
        }
        int *sizes = d ? &out->gpu_sizes : &out->cpu_sizes;
        *sizes += !(r->size[i] == prev[d]);
        prev[d] = r->size[i];
    }
    int ok[2];
    rt_fit fit[2];
    if (r->fitted)      /* fitted when the rows were read (rt_history_rows_load_h) */
        ok[0] = r->fit_ok[0], ok[1] = r->fit_ok[1], fit[0] = r->fit[0], fit[1] = r->fit[1];
    else
        rows_fit(r, ok, fit);
    if (ok[0])
        out->cpu_fit = fit[0];
    if (ok[1])
        out->gpu_fit = fit[1];
    if (rt_history_trusted(out->cpu_samples, out->gpu_samples)) {
        out->decides = 1;
        out->how = "measured";
    } else if (ok[0] && ok[1]) {
        out->decides = 1;
        out->how = "regression";
        out->cpu_s = rt_fit_eval(&fit[0], n);
        out->gpu_s = rt_fit_eval(&fit[1], n);
    }
}

int rt_history_rows_model(rt_history_rows *r, rt_history_model_fn fn, void *ctx,
                          const void *model_for)
{
    if (r->model && r->model_for == model_for)
        return 0;
    free(r->model);
    r->model = r->n > 0 ? calloc((size_t)r->n, sizeof *r->model) : NULL;
    r->model_for = model_for;
    if (!r->model)
        return r->n > 0 ? -1 : 0;
    enum { MAXS = 64 };
    double *both = malloc(sizeof *both * 2 * (size_t)r->n);    /* [cpu, gpu] per row */
    if (!both) {
        free(r->model), r->model = NULL;
        return -1;
    }
    for (int i = 0; i < r->n; i++) {
        int j = 0;      /* the same key on the other device: the models asked once */
        while (j < i && strcmp(r->key[j], r->key[i]))
            j++;
        if (j < i) {
            both[2 * i] = both[2 * j], both[2 * i + 1] = both[2 * j + 1];
            double m = both[2 * i + r->gpu[i]];
            r->model[i] = m > 0 && isfinite(m) ? m : 0;
            continue;
        }
        both[2 * i] = both[2 * i + 1] = 0;
        /* "a=1,b=-2" into names and values, in a copy */
        char buf[512], *names[MAXS];
        long long values[MAXS];
        int k = 0, bad = 0;
        if (snprintf(buf, sizeof buf, "%s", r->key[i]) >= (int)sizeof buf)
            continue;
        for (char *p = buf; *p && !bad;) {
            char *eq = strchr(p, '='), *end;
            if (!eq || k == MAXS) {
                bad = 1;
                break;
            }
            *eq = 0;
            names[k] = p;
            values[k++] = strtoll(eq + 1, &end, 10);
            if (end == eq + 1 || (*end && *end != ','))
                bad = 1;
            p = *end ? end + 1 : end;
        }
        double c, g;
        if (!bad && fn(ctx, k, (const char *const *)names, values, &c, &g) == 0) {
            both[2 * i] = c, both[2 * i + 1] = g;
            double m = r->gpu[i] ? g : c;
            r->model[i] = m > 0 && isfinite(m) ? m : 0;
        }
    }
    free(both);
    return 0;
}

void rt_history_predict_at(const rt_history_rows *r, const char *key, double n, double mc,
                           double mg, rt_history_pred *out)
{
    rt_history_predict(r, key, n, out);
    if (!strcmp(out->how ? out->how : "", "measured") || !r->model || !(mc > 0) || !(mg > 0))
        return;
    enum { MAXP = 256 };
    double m[MAXP], t[MAXP], at[2] = { mc, mg }, pred[2];
    for (int d = 0; d < 2; d++) {
        int k = 0, near = 0;
        rt_shape sh;
        for (int i = 0; i < r->n && k < MAXP; i++)
            if (r->gpu[i] == d && r->model[i] > 0) {
                m[k] = r->model[i], t[k++] = r->mean[i];
                near |= n >= r->size[i] / RT_LEARN_REACH && n <= r->size[i] * RT_LEARN_REACH;
            }
        if (!near || rt_shape_fit(k, m, t, at[d], &sh) || sh.points < 2)
            return;
        pred[d] = rt_shape_eval(&sh, at[d]);
        if (!(pred[d] > 0) || !isfinite(pred[d]))
            return;
    }
    out->decides = 1;
    out->how = "regression";
    out->shaped = 1;
    out->cpu_s = pred[0], out->gpu_s = pred[1];
}

int rt_history_lookup_at(const char *dbpath, int64_t loop_id, const char *key, double n,
                         double mc, double mg, rt_history_model_fn fn, void *ctx,
                         rt_history_pred *out, char *err, size_t errlen)
{
    db_log *l = NULL;
    rt_history_rows r;
    memset(out, 0, sizeof *out);
    if (db_log_open(dbpath, DB_LOG_READ, 2000, &l, err, errlen))
        return -1;
    if (rt_history_rows_load_h(l, loop_id, &r) == 0) {
        rt_history_rows_model(&r, fn, ctx, &r);
        rt_history_predict_at(&r, key, n, mc, mg, out);
        rt_history_rows_free(&r);
    }
    db_log_close(l);
    return 0;
}

int rt_history_lookup_h(db_log *l, int64_t loop_id, const char *key, double n,
                        rt_history_pred *out)
{
    rt_history_rows r;
    memset(out, 0, sizeof *out);
    if (rt_history_rows_load_h(l, loop_id, &r))
        return 0;
    rt_history_predict(&r, key, n, out);
    rt_history_rows_free(&r);
    return 0;
}

/* ---- learning in the process --------------------------------------------- */

void rt_learn_init(rt_learn *l)
{
    memset(l, 0, sizeof *l);
    for (int i = 0; i < RT_LEARN_SIZES; i++)
        l->explored[i] = -1;
    l->band = RT_LEARN_BAND;
    l->budget = RT_LEARN_BUDGET;
}

static int learn_find(const rt_learn *l, double n)
{
    for (int i = 0; i < l->n; i++)
        if (l->size[i] == n)
            return i;
    return -1;
}

/* The index of size n, added when there is room, or -1. */
static int learn_slot(rt_learn *l, double n)
{
    int i = learn_find(l, n);
    if (i >= 0 || l->n >= RT_LEARN_SIZES)
        return i;
    i = l->n++;
    l->size[i] = n;
    l->launches[i] = 0;
    l->samples[i][0] = l->samples[i][1] = 0;
    l->mean[i][0] = l->mean[i][1] = 0;
    l->model[i][0] = l->model[i][1] = 0;
    l->expect[i] = 0;
    l->explored[i] = -1;
    return i;
}

/* Each device's time at n from the site's measurements (history.h):
 * where the models gave their times at n (mc, mg > 0), the models' time
 * carried through the 2 measured sizes nearest it on that device
 * (rt_shape_fit; sizes measured with the models' times known) -- with 2
 * such sizes on each device, one of them within RT_LEARN_REACH of n;
 * else t = a n^b + c fitted over the sizes measured on both devices, when
 * 3 or more exist and n lies within RT_LEARN_REACH of one (that fit is
 * kept until a sample is added).  0 and the times, *k_out the measured
 * sizes behind them; -1 when nothing carries to n. */
static int learn_regress(rt_learn *l, double n, double mc, double mg, double *cpu_s,
                         double *gpu_s, int *k_out)
{
    double ns[RT_LEARN_SIZES], tc[RT_LEARN_SIZES], tg[RT_LEARN_SIZES];
    double at[2] = { mc, mg }, out[2];
    int ok = mc > 0 && mg > 0, used = 0;
    for (int d = 0; d < 2 && ok; d++) {
        int k = 0, near = 0;
        for (int i = 0; i < l->n; i++)
            if (l->samples[i][d] > 0 && l->model[i][d] > 0) {
                ns[k] = l->model[i][d], tc[k++] = l->mean[i][d];
                near |= n >= l->size[i] / RT_LEARN_REACH && n <= l->size[i] * RT_LEARN_REACH;
            }
        rt_shape s;
        ok = near && rt_shape_fit(k, ns, tc, at[d], &s) == 0 && s.points == 2;
        if (ok)
            out[d] = rt_shape_eval(&s, at[d]), used += k;
    }
    if (!ok) {
        if (l->fit_state == 0) {    /* the sizes measured on both, fitted once */
            int k = 0;
            for (int i = 0; i < l->n; i++)
                if (l->samples[i][0] > 0 && l->samples[i][1] > 0 && l->size[i] > 0)
                    ns[k] = l->size[i], tc[k] = l->mean[i][0], tg[k] = l->mean[i][1], k++;
            l->fit_state = k >= 3 && rt_history_fit(k, ns, tc, &l->fit[0]) == 0 &&
                                   rt_history_fit(k, ns, tg, &l->fit[1]) == 0
                               ? 1 : -1;
            l->fit_k = k;
        }
        int near = 0;
        for (int i = 0; i < l->n; i++)
            if (l->samples[i][0] > 0 && l->samples[i][1] > 0 && l->size[i] > 0)
                near |= n >= l->size[i] / RT_LEARN_REACH && n <= l->size[i] * RT_LEARN_REACH;
        if (l->fit_state < 0 || !near)
            return -1;
        out[0] = rt_fit_eval(&l->fit[0], n), out[1] = rt_fit_eval(&l->fit[1], n);
        used = l->fit_k;
    }
    *cpu_s = out[0], *gpu_s = out[1], *k_out = used;
    return isfinite(*cpu_s) && isfinite(*gpu_s) && *cpu_s > 0 && *gpu_s > 0 ? 0 : -1;
}

void rt_learn_choose(rt_learn *l, double n, double model_cpu_s, double model_gpu_s,
                     rt_learn_choice *out)
{
    rt_learn_decide(l, n, model_cpu_s, model_gpu_s, model_gpu_s < model_cpu_s, out);
}

/* The expected cost of exploring device o at size i (history.h): the
 * other device's time -- other_s where the regression gave it (> 0), else
 * the models' time scaled by their largest measured error on o over the
 * site's other sizes, or, where o is measured nowhere, by the error of the
 * device in use at i times the band (the models' speedup may be off by
 * that much: that is why the band explores) -- less the time measured at
 * i on the device in use. */
static double learn_expect(const rt_learn *l, int i, int o, double other_s)
{
    double t = l->mean[i][!o];
    if (!(other_s > 0)) {
        double r = 0;
        for (int j = 0; j < l->n; j++)
            if (j != i && l->samples[j][o] > 0 && l->model[j][o] > 0 &&
                l->mean[j][o] / l->model[j][o] > r)
                r = l->mean[j][o] / l->model[j][o];
        if (r == 0)
            r = (l->model[i][!o] > 0 ? t / l->model[i][!o] : 1) * l->band;
        other_s = r * l->model[i][o];
    }
    return other_s > t ? other_s - t : 0;
}

void rt_learn_decide(rt_learn *l, double n, double model_cpu_s, double model_gpu_s,
                     int model_device, rt_learn_choice *out)
{
    memset(out, 0, sizeof *out);
    int model = model_device != 0;
    out->device = model;
    out->cpu_s = model_cpu_s, out->gpu_s = model_gpu_s;
    int i = learn_slot(l, n);
    int seen = i >= 0 && l->launches[i] > 0;
    if (i >= 0) {
        l->launches[i]++;
        if (model_cpu_s > 0 && model_gpu_s > 0)
            l->model[i][0] = model_cpu_s, l->model[i][1] = model_gpu_s;
    }
    if (i >= 0 && rt_history_trusted(l->samples[i][0], l->samples[i][1])) {
        out->cpu_s = l->mean[i][0], out->gpu_s = l->mean[i][1];
        out->device = out->gpu_s < out->cpu_s;
        out->how = "history: measured";
        out->samples = l->samples[i][0] + l->samples[i][1];
        out->settled = 1;
        return;
    }
    double c, g, s = model_cpu_s / model_gpu_s, other_s = 0;
    int k;
    int band = model_cpu_s > 0 && model_gpu_s > 0 && s >= 1 / l->band && s <= l->band;
    if (learn_regress(l, n, model_cpu_s, model_gpu_s, &c, &g, &k) == 0) {
        out->cpu_s = c, out->gpu_s = g;
        out->device = g < c;
        out->how = "history: regression";
        out->samples = k;
        out->settled = !band;       /* in the band: measure it when it comes again */
        if (!band)
            return;
        model = out->device;
        other_s = model ? c : g;
    }
    if (band && seen && l->samples[i][model] > 0 && l->samples[i][!model] == 0 &&
        l->explored[i] < 0 && l->explorations < RT_LEARN_EXPLORE) {
        double x = learn_expect(l, i, !model, other_s);
        out->expect_s = x;
        if (x <= l->budget * l->run_s - rt_learn_spent(l)) {
            l->explorations++;
            l->explored[i] = (signed char)!model;
            l->expect[i] = x;
            out->device = !model;
            out->explore = 1;
            out->how = "history: exploring";
            out->samples = l->samples[i][model];
            out->settled = 0;
            return;
        }
        out->held_back = 1;     /* the site's time grows: it may fit later */
    }
    if (!out->how)
        out->settled = !band || i < 0 || l->explorations >= RT_LEARN_EXPLORE;
    if (out->held_back)
        out->settled = 0;
    /* launches that are never timed (no keel_begin / keel_done around
     * them): nothing will come to learn from */
    if (i >= 0 && l->launches[i] > 2 && !l->samples[i][0] && !l->samples[i][1])
        out->settled = 1;
}

void rt_learn_add(rt_learn *l, double n, int device, double seconds)
{
    int i = learn_slot(l, n), d = device != 0;
    if (i < 0 || !(seconds > 0) || !isfinite(seconds))
        return;
    int c = ++l->samples[i][d];
    l->mean[i][d] += (seconds - l->mean[i][d]) / c;
    l->fit_state = 0;           /* the regression is fitted again when asked */
    l->run_s += seconds;
}

double rt_learn_cost(const rt_learn *l)
{
    double cost = 0;
    for (int i = 0; i < l->n; i++) {
        int e = l->explored[i];
        if (e >= 0 && l->samples[i][0] > 0 && l->samples[i][1] > 0 &&
            l->mean[i][e] > l->mean[i][!e])
            cost += l->mean[i][e] - l->mean[i][!e];
    }
    return cost;
}

double rt_learn_spent(const rt_learn *l)
{
    double spent = rt_learn_cost(l);
    for (int i = 0; i < l->n; i++)
        if (l->explored[i] >= 0 && !(l->samples[i][0] > 0 && l->samples[i][1] > 0))
            spent += l->expect[i];
    return spent;
}
