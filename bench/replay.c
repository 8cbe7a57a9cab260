/*
 * replay.c -- plays measured CPU and GPU times through libkeelrt's
 * learning (rt_learn, runtime/history.c) with the times given instead of
 * run, and prints what following it would have cost against the oracle,
 * always offloading and the models alone.
 *
 *   replay [LAUNCHES [BUDGET]] < rows
 *
 * BUDGET replaces RT_LEARN_BUDGET (a sensitivity check; libkeelrt's value
 * is chosen a priori, history.h).
 *
 * Each row: `program dataset model_cpu_s model_gpu_s cpu_s gpu_s` (the
 * models' predicted times, e.g. keel explain's sums over the program's
 * target nests, and the measured ones); '#' starts a comment.  Every
 * program is one site with an rt_learn of its own; each row is launched
 * LAUNCHES times (default 10) in the order given: rt_learn_choose picks
 * the device from the models' times and what the site has measured, the
 * measured time of that device is the launch's time and goes back with
 * rt_learn_add, as keel_done does in an offload build.  The size of a row
 * (the regression's n) is the models' CPU time, which grows with the
 * work.  It prints what the explorations cost against what they were
 * expected to cost and the launches the budget held back (RT_LEARN_BUDGET,
 * history.h); how well two sizes of a program predict the third, per
 * device: libkeelrt's rt_shape_fit (the models' time on the device carried
 * through two measured rows, history.h) beside three other forms, and
 * per program the form that does best on the other programs (leave one
 * program out); the models' error on the rows (the factor between
 * predicted and measured speedup) and plays them twice: with libkeelrt's
 * exploration band (RT_LEARN_BAND), and with each program's band the 90th
 * percentile of that error over the other programs' rows only (leave one
 * program out).
 * Nothing is timed here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"

enum { MAXP = 64, MAXR = 1024 };

typedef struct {
    char prog[32], ds[32];
    double mc, mg, c, g;        /* the models' times, the measured ones */
    int p;                      /* program index */
} row;

static row R[MAXR];
static double budget = -1;      /* the second argument: RT_LEARN_BUDGET unless given */
static char names[MAXP][32];
static int nrows, np;

/* The models' error on one row: the factor between predicted and measured
 * speedup (>= 1). */
static double row_error(const row *r)
{
    double e = (r->mc / r->mg) / (r->c / r->g);
    return e >= 1 ? e : 1 / e;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile (linear interpolation) of the models' error over the rows
 * of every program except `skip` (-1: all rows); 0 when there are none. */
static double error_quantile(double q, int skip)
{
    static double e[MAXR];
    int k = 0;
    for (int i = 0; i < nrows; i++)
        if (R[i].p != skip)
            e[k++] = row_error(&R[i]);
    if (!k)
        return 0;
    qsort(e, (size_t)k, sizeof e[0], cmp_double);
    double x = q * (k - 1);
    int lo = (int)x, hi = lo + 1 < k ? lo + 1 : lo;
    return e[lo] + (e[hi] - e[lo]) * (x - lo);
}

typedef struct {
    double t_learn, cost, expected;
    int wrong, gpu, explorations, held_back, found, regression;
} outcome;

/* Every row LAUNCHES times through rt_learn, one site per program, with
 * the band of program p given by band_of(p) (0: libkeelrt's default). */
static outcome play(int launches, double (*band_of)(int), int print)
{
    static rt_learn site[MAXP];
    outcome o = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    for (int p = 0; p < np; p++) {
        rt_learn_init(&site[p]);
        double b = band_of ? band_of(p) : 0;
        if (b > 1)
            site[p].band = b;
        if (budget >= 0)
            site[p].budget = budget;
    }
    for (int r = 0; r < nrows; r++) {
        const row *x = &R[r];
        char trace[1001 * 2];
        size_t u = 0;
        int best = x->g < x->c;
        for (int k = 0; k < launches; k++) {
            rt_learn_choice ch;
            rt_learn_choose(&site[x->p], x->mc, x->mc, x->mg, &ch);
            double t = ch.device ? x->g : x->c;
            rt_learn_add(&site[x->p], x->mc, ch.device, t);
            o.t_learn += t;
            o.wrong += ch.device != best;
            o.gpu += ch.device;
            o.held_back += ch.held_back;
            o.regression += ch.how && !strcmp(ch.how, "history: regression");
            if (ch.explore)
                o.expected += ch.expect_s, o.found += ch.device == best && ch.device != (x->mg < x->mc);
            trace[u++] = ch.device ? 'G' : 'C';
            if (ch.explore)
                trace[u++] = '*';
            else if (ch.held_back)
                trace[u++] = '.';
        }
        trace[u] = 0;
        if (print)
            printf("%-10s %-11s %9.4g %9.4g %6s  %-5s %s\n", x->prog, x->ds, x->c, x->g,
                   x->mg < x->mc ? "GPU" : "CPU", best ? "GPU" : "CPU", trace);
    }
    for (int p = 0; p < np; p++)
        o.explorations += site[p].explorations, o.cost += rt_learn_cost(&site[p]);
    return o;
}

/* The two rows of row r's program nearest it by x (one below and one
 * above where there are, else the two nearest on one side), in *a and *b;
 * -1 where there are not two. */
static void nearest_two(int r, const double *x, int *a, int *b)
{
    int lo = -1, hi = -1;
    for (int q = 0; q < nrows; q++) {
        if (q == r || R[q].p != R[r].p || x[q] == x[r])
            continue;
        if (x[q] < x[r] && (lo < 0 || x[q] > x[lo]))
            lo = q;
        if (x[q] > x[r] && (hi < 0 || x[q] < x[hi]))
            hi = q;
    }
    *a = lo, *b = hi;
    if (lo >= 0 && hi >= 0)
        return;
    int side = lo < 0 ? hi : lo, next = -1;
    for (int q = 0; q < nrows && side >= 0; q++) {
        if (q == r || q == side || R[q].p != R[r].p || x[q] == x[side])
            continue;
        int beyond = lo < 0 ? x[q] > x[side] : x[q] < x[side];
        if (beyond && (next < 0 || fabs(x[q] - x[side]) < fabs(x[next] - x[side])))
            next = q;
    }
    *a = side, *b = next;
}

/* The ways two measured sizes of a program can predict a third, on one
 * device: libkeelrt's (rt_shape_fit: t = t1 (m / m1)^g over the models'
 * time m, history.h) and three others for comparison. */
enum { F_SHAPE, F_AFFINE, F_PROP, F_POWER_N, NFORMS };
static const char *form_name[NFORMS] = {
    "t = k m^g (libkeelrt, rt_shape_fit)",
    "t = c + beta m (c, beta >= 0)",
    "t = k m (k: least relative error)",
    "t = a n^b, n the models' CPU time",
};

/* Row r's time on device d predicted by form f from the other rows of its
 * program; 0 where they do not give one. */
static double predict_form(int f, int r, int d)
{
    static double mc[MAXR], md[MAXR], tm[MAXR];
    for (int q = 0; q < nrows; q++)
        mc[q] = R[q].mc, md[q] = d ? R[q].mg : R[q].mc, tm[q] = d ? R[q].g : R[q].c;
    int a, b;
    if (f == F_SHAPE) {
        double m[MAXR], t[MAXR];
        int k = 0;
        for (int q = 0; q < nrows; q++)
            if (q != r && R[q].p == R[r].p)
                m[k] = md[q], t[k++] = tm[q];
        rt_shape s;
        if (rt_shape_fit(k, m, t, md[r], &s) || s.points < 2)
            return 0;
        return rt_shape_eval(&s, md[r]);
    }
    nearest_two(r, f == F_POWER_N ? mc : md, &a, &b);
    if (a < 0 || b < 0)
        return 0;
    if (f == F_POWER_N) {
        double e = log(tm[b] / tm[a]) / log(mc[b] / mc[a]);
        return tm[a] * pow(mc[r] / mc[a], e);
    }
    double ra = md[a] / tm[a], rb = md[b] / tm[b];
    double k = (ra + rb) / (ra * ra + rb * rb);     /* least relative error, c = 0 */
    if (f == F_PROP)
        return k * md[r];
    /* the line through both; off its bounds, the better of c = 0 and beta
     * = 0 by relative squared error */
    double beta = (tm[b] - tm[a]) / (md[b] - md[a]), c = tm[a] - beta * md[a];
    if (beta >= 0 && c >= 0 && isfinite(beta) && isfinite(c))
        return c + beta * md[r];
    double qa = 1 / tm[a], qb = 1 / tm[b], c0 = (qa + qb) / (qa * qa + qb * qb);
    double ek = (k * ra - 1) * (k * ra - 1) + (k * rb - 1) * (k * rb - 1);
    double ec = (c0 * qa - 1) * (c0 * qa - 1) + (c0 * qb - 1) * (c0 * qb - 1);
    return ek <= ec ? k * md[r] : c0;
}

typedef struct {
    int n, within;
    double median, p90;
} spread;

/* Form f's factors (predicted / measured, either way) over every row with
 * two other rows in its program, both devices, of the programs p where
 * use(p) (NULL: all); form_of(p) replaces f per program where given. */
static spread score(int f, int skip, int (*form_of)(int))
{
    static double x[2 * MAXR];
    spread s = { 0, 0, 0, 0 };
    for (int r = 0; r < nrows; r++)
        for (int d = 0; d < 2 && R[r].p != skip; d++) {
            double pred = predict_form(form_of ? form_of(R[r].p) : f, r, d);
            double t = d ? R[r].g : R[r].c, e = pred / t;
            if (!(pred > 0) || !isfinite(pred))
                continue;
            x[s.n++] = e >= 1 ? e : 1 / e;
            s.within += e <= 1.5 && e >= 1 / 1.5;
        }
    if (s.n) {
        qsort(x, (size_t)s.n, sizeof x[0], cmp_double);
        s.median = x[s.n / 2], s.p90 = x[(int)(0.9 * (s.n - 1))];
    }
    return s;
}

/* The form that does best on every program but p: most within 1.5x, then
 * the smaller median factor (leave one program out). */
static int form_lopo(int p)
{
    int best = 0;
    spread sb = score(0, p, NULL);
    for (int f = 1; f < NFORMS; f++) {
        spread sf = score(f, p, NULL);
        if (sf.within > sb.within || (sf.within == sb.within && sf.median < sb.median))
            best = f, sb = sf;
    }
    return best;
}

static int lopo_form[MAXP];
static int lopo_of(int p)
{
    return lopo_form[p];
}

/* Two sizes predict the third: for every program with three rows or more,
 * every device and every row, each form through two other rows of the
 * program evaluated at the row against its measured time: the share
 * within 1.5x and the median factor; and the form chosen on the other
 * programs, per program. */
static void two_sizes(void)
{
    printf("two sizes predict the third (each row from two other rows of its program, per"
           " device; factor predicted / measured either way):\n");
    printf("  %-42s %14s %7s %7s\n", "form", "within 1.5x", "median", "90%");
    for (int f = 0; f < NFORMS; f++) {
        spread s = score(f, -1, NULL);
        if (s.n)
            printf("  %-42s %7d of %3d %7.2f %7.2f\n", form_name[f], s.within, s.n, s.median, s.p90);
    }
    for (int p = 0; p < np; p++)
        lopo_form[p] = form_lopo(p);
    spread s = score(0, -1, lopo_of);
    if (s.n)
        printf("  %-42s %7d of %3d %7.2f %7.2f\n", "each program: the best form on the others",
               s.within, s.n, s.median, s.p90);
    /* libkeelrt's form by the dataset of the row predicted (a diagnosis:
     * nothing is chosen by it) */
    printf("  libkeelrt's form by the row predicted:");
    for (int r = 0; r < nrows; r++) {
        int first = 1, n = 0, within = 0;
        for (int q = 0; q < r && first; q++)
            first = strcmp(R[q].ds, R[r].ds) != 0;
        if (!first)
            continue;
        for (int q = 0; q < nrows; q++)
            for (int d = 0; d < 2 && !strcmp(R[q].ds, R[r].ds); d++) {
                double pred = predict_form(F_SHAPE, q, d), e = pred / (d ? R[q].g : R[q].c);
                if (pred > 0 && isfinite(pred))
                    n++, within += e <= 1.5 && e >= 1 / 1.5;
            }
        printf(" %s %d of %d;", R[r].ds, within, n);
    }
    printf("\n");
}

static double band_lopo(int p)
{
    return error_quantile(0.9, p);
}

static void policy_line(const char *name, double t, double oracle, int wrong)
{
    printf("%-34s %12.4f %10.3f %16d\n", name, t, t / oracle, wrong);
}

int main(int argc, char **argv)
{
    int launches = argc > 1 ? atoi(argv[1]) : 10;
    if (argc > 2 && (budget = atof(argv[2])) < 0) {
        fprintf(stderr, "replay: BUDGET must be >= 0\n");
        return 2;
    }
    if (launches < 1 || launches > 1000) {
        fprintf(stderr, "replay: LAUNCHES must be 1..1000\n");
        return 2;
    }
    char line[512];
    while (fgets(line, sizeof line, stdin)) {
        row x;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        if (sscanf(line, "%31s %31s %lf %lf %lf %lf", x.prog, x.ds, &x.mc, &x.mg, &x.c, &x.g) != 6)
            continue;
        if (!(x.mc > 0 && x.mg > 0 && x.c > 0 && x.g > 0)) {
            fprintf(stderr, "replay: %s %s: times must be > 0: skipped\n", x.prog, x.ds);
            continue;
        }
        if (nrows == MAXR) {
            fprintf(stderr, "replay: more than %d rows: the rest skipped\n", MAXR);
            break;
        }
        int p = 0;
        while (p < np && strcmp(names[p], x.prog) != 0)
            p++;
        if (p == np) {
            if (np == MAXP) {
                fprintf(stderr, "replay: more than %d programs: %s skipped\n", MAXP, x.prog);
                continue;
            }
            snprintf(names[np++], sizeof names[0], "%s", x.prog);
        }
        x.p = p;
        R[nrows++] = x;
    }
    if (!nrows) {
        fprintf(stderr, "replay: no rows\n");
        return 1;
    }
    printf("%-10s %-11s %9s %9s %6s  %-5s %s\n", "program", "dataset", "cpu_s", "gpu_s", "model",
           "best", "launches (C cpu, G gpu, * explored, . held back by the budget)");
    outcome def = play(launches, NULL, 1);
    outcome lopo = play(launches, band_lopo, 0);
    double t_oracle = 0, t_gpu = 0, t_model = 0;
    int wrong_model = 0;
    for (int r = 0; r < nrows; r++) {
        const row *x = &R[r];
        int model = x->mg < x->mc, best = x->g < x->c;
        t_oracle += launches * (best ? x->g : x->c);
        t_gpu += launches * x->g;
        t_model += launches * (model ? x->g : x->c);
        wrong_model += model != best ? launches : 0;
    }
    long total = (long)nrows * launches;
    printf("\n%d rows x %d launches = %ld launches of %d programs\n", nrows, launches, total, np);
    printf("models' error (predicted / measured speedup, either way): median %.2f, 75%% %.2f,"
           " 90%% %.2f; libkeelrt explores predicted speedups in 1/%g..%g (RT_LEARN_BAND)\n",
           error_quantile(0.5, -1), error_quantile(0.75, -1), error_quantile(0.9, -1),
           (double)RT_LEARN_BAND, (double)RT_LEARN_BAND);
    printf("%-34s %12s %10s %16s\n", "policy", "total s", "/ oracle", "wrong device");
    policy_line("oracle", t_oracle, t_oracle, 0);
    policy_line("learned (libkeelrt)", def.t_learn, t_oracle, def.wrong);
    policy_line("learned, 90% error band (LOPO)", lopo.t_learn, t_oracle, lopo.wrong);
    policy_line("models alone", t_model, t_oracle, wrong_model);
    printf("%-34s %12.4f %10.3f %16s\n", "always GPU", t_gpu, t_gpu / t_oracle, "-");
    printf("explorations: %d (at most %d per program), their cost %.4f s (%.2f%% of the learned"
           " total; expected %.4f s); launches on the GPU: %d\n", def.explorations,
           RT_LEARN_EXPLORE, def.cost, 100.0 * def.cost / def.t_learn, def.expected, def.gpu);
    printf("budget: an exploration runs when its expected cost fits in %g%% of its site's measured"
           " time less what earlier explorations cost (%s %g); launches held back by it: %d;"
           " explorations that found a faster device than the models': %d\n",
           100.0 * (budget >= 0 ? budget : RT_LEARN_BUDGET),
           budget >= 0 ? "given, libkeelrt's RT_LEARN_BUDGET is" : "RT_LEARN_BUDGET, chosen a priori:",
           (double)RT_LEARN_BUDGET, def.held_back, def.found);
    printf("launches the regression decided (sizes carried from 2 measured on each device): %d\n",
           def.regression);
    printf("90%% error band, leave-one-program-out: explorations %d, their cost %.4f s (%.1f%%)\n",
           lopo.explorations, lopo.cost, 100.0 * lopo.cost / lopo.t_learn);
    two_sizes();
    return 0;
}
