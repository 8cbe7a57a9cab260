/*
 * test_learn.c -- rt_learn (history.h), one site's learning in the
 * process, with times given instead of run: exploring once inside the
 * band, following the measurements, the exploration's expected cost
 * against the budget (a fraction of the site's time) with hand-computed
 * decisions, the cap on explorations and their cost,
 * the models' verdict (with its "too small" margin) where nothing is
 * measured, the one trust rule,
 * the regression a n^b + c carried to nearby sizes, nothing beyond, and
 * the models' time carried through two measured sizes (rt_shape_fit).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "history.h"

static int same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* rt_shape_fit: t = t1 (m / m1)^g through the two measured sizes nearest
 * the models' time asked, by hand */
static void test_shape(void)
{
    rt_shape s;
    /* m 1 and 4, t 2 and 32: g = log 16 / log 4 = 2; at m = 2: 2 x 2^2 = 8 */
    double m1[] = { 1, 4 }, t1[] = { 2, 32 };
    CHECK(rt_shape_fit(2, m1, t1, 2, &s) == 0 && s.points == 2);
    CHECK(fabs(s.g - 2) < 1e-12 && fabs(rt_shape_eval(&s, 2) - 8) < 1e-12);
    /* four sizes: the nearest below and above, else the two nearest on one
     * side.  m 1, 2, 8, 16 with t 10, 20, 80, 320:
     *   at 4: 2 and 8, g = 1: 20 x 4/2 = 40
     *   at 32: 8 and 16, g = log 4 / log 2 = 2: 320 x 2^2 = 1280
     *   at 0.5: 1 and 2, g = 1: 10 x 0.5 = 5
     *   at 8 (a measured size): 8 and 16, through 80 */
    double m2[] = { 16, 1, 8, 2 }, t2[] = { 320, 10, 80, 20 };
    CHECK(rt_shape_fit(4, m2, t2, 4, &s) == 0 && s.points == 2);
    CHECK(fabs(rt_shape_eval(&s, 4) - 40) < 1e-12);
    CHECK(rt_shape_fit(4, m2, t2, 32, &s) == 0 && fabs(rt_shape_eval(&s, 32) - 1280) < 1e-9);
    CHECK(rt_shape_fit(4, m2, t2, 0.5, &s) == 0 && fabs(rt_shape_eval(&s, 0.5) - 5) < 1e-12);
    CHECK(rt_shape_fit(4, m2, t2, 8, &s) == 0 && fabs(rt_shape_eval(&s, 8) - 80) < 1e-12);
    /* measured time falling while the models' rises (m 1 -> 2, t 4 -> 1:
     * g = -2): the bound g = 0, sqrt(4 x 1) = 2 at every m */
    double m3[] = { 1, 2 }, t3[] = { 4, 1 };
    CHECK(rt_shape_fit(2, m3, t3, 10, &s) == 0 && s.g == 0 && s.points == 2);
    CHECK(fabs(rt_shape_eval(&s, 10) - 2) < 1e-12 && fabs(rt_shape_eval(&s, 0.1) - 2) < 1e-12);
    /* two sizes close in the models' time (m 1 and 1.01, t 1 and 1.1: g =
     * log 1.1 / log 1.01 = 9.5786), asked beyond them at m = 2: the error may
     * change from the nearest size's (1.1 / 1.01) by at most the band's 4, so
     * g = 1 + log 4 / log(2 / 1.01) = 3.0291 through (1.01, 1.1): t =
     * 1.1 (2 / 1.01)^3.0291 = 8.7129 = 2 x 4 x 1.1 / 1.01.  Between the two
     * sizes nothing is bounded: at 1.005, 1 x 1.005^9.5786 = 1.04893. */
    double m6[] = { 1, 1.01 }, t6[] = { 1, 1.1 };
    CHECK(rt_shape_fit(2, m6, t6, 2, &s) == 0 && s.points == 2);
    CHECK(fabs(s.g - 3.0291) < 1e-4 && fabs(rt_shape_eval(&s, 2) - 8 * 1.1 / 1.01) < 1e-9);
    CHECK(rt_shape_fit(2, m6, t6, 1.005, &s) == 0 && fabs(s.g - 9.5786) < 1e-4);
    CHECK(fabs(rt_shape_eval(&s, 1.005) - 1.04893) < 1e-5);
    /* below them, at m = 0.5, the same bound through (1, 1): g = 1 + log 4
     * / log 2 = 3, t = 0.5^3 = 0.125 (the error a quarter of the nearest
     * size's), not 0.5^9.58 = 0.0013 */
    CHECK(rt_shape_fit(2, m6, t6, 0.5, &s) == 0 && fabs(s.g - 3) < 1e-12);
    CHECK(fabs(rt_shape_eval(&s, 0.5) - 0.125) < 1e-12);
    /* one usable size (m 0 and t 0 are skipped): its error alone, 6/2 x 5 */
    double m4[] = { 2, 0, 3 }, t4[] = { 6, 1, 0 };
    CHECK(rt_shape_fit(3, m4, t4, 5, &s) == 0 && s.points == 1);
    CHECK(fabs(rt_shape_eval(&s, 5) - 15) < 1e-12);
    /* two sizes equal to the models: the first one's error alone */
    double m5[] = { 2, 2 }, t5[] = { 6, 8 };
    CHECK(rt_shape_fit(2, m5, t5, 4, &s) == 0 && s.points == 1);
    CHECK(rt_shape_fit(0, m5, t5, 4, &s) == -1 && rt_shape_fit(1, m4 + 1, t4 + 1, 4, &s) == -1);
}

/* one site: two sizes measured on each device carry the models' times to a
 * third.  The models say CPU by 2x at every size (CPU 1e-3 n, GPU 2e-3 n,
 * n/1000 s); measured: CPU 2 s and 8 s at n = 1000 and 2000 (g = 2), GPU
 * 1 s and 2 s (g = 1).  At 4000 (models CPU 4 s, GPU 8 s) the CPU is
 * carried to 8 x (4/2)^2 = 32 s, the GPU to 2 x (8/4) = 4 s: the GPU,
 * against the models. */
static void test_learn_shape(void)
{
    rt_learn l;
    rt_learn_choice c;
    rt_learn_init(&l);
    rt_learn_choose(&l, 1000, 1.0, 2.0, &c);
    CHECK(c.device == 0 && c.how == NULL);
    rt_learn_add(&l, 1000, 0, 2.0);
    rt_learn_add(&l, 1000, 1, 1.0);
    /* one size on each device: nothing to carry, the models decide */
    rt_learn_choose(&l, 2000, 2.0, 4.0, &c);
    CHECK(c.device == 0 && c.how == NULL);
    rt_learn_add(&l, 2000, 0, 8.0);
    rt_learn_add(&l, 2000, 1, 2.0);
    rt_learn_choose(&l, 4000, 4.0, 8.0, &c);
    CHECK(c.device == 1 && same(c.how, "history: regression") && c.samples == 4);
    CHECK(fabs(c.cpu_s - 32) < 1e-9 && fabs(c.gpu_s - 4) < 1e-12);
    CHECK(!c.settled);      /* the models' 2x is in the band: measured when it comes again */
    /* between the two: 1500 (models 1.5 s, 3 s): CPU 2 x 1.5^2 = 4.5 s, GPU
     * 1 x 3/2 = 1.5 s */
    rt_learn_choose(&l, 1500, 1.5, 3.0, &c);
    CHECK(c.device == 1 && same(c.how, "history: regression"));
    CHECK(fabs(c.cpu_s - 4.5) < 1e-9 && fabs(c.gpu_s - 1.5) < 1e-12);
    /* beyond RT_LEARN_REACH (4x) of every measured size: the models */
    rt_learn_choose(&l, 9000, 9.0, 18.0, &c);
    CHECK(c.device == 0 && c.how == NULL);
    /* the models' times unknown: nothing to carry them (and fewer than 3
     * sizes for a n^b + c): the models' verdict */
    rt_learn_decide(&l, 3000, 0, 0, 0, &c);
    CHECK(c.device == 0 && c.how == NULL);
}

/* the models of test_rows: CPU n / 1000 s, GPU n / 500 s (n the key's) */
static int calls;
static int rows_model(void *ctx, int n, const char *const *names, const long long *values,
                      double *cpu_s, double *gpu_s)
{
    (void)ctx;
    calls++;
    if (n != 1 || strcmp(names[0], "n"))
        return -1;
    *cpu_s = values[0] / 1000.0, *gpu_s = values[0] / 500.0;
    return 0;
}

/* the database's rows (rt_history_rows, as read): the models' times at
 * each row's key, carried to the asked size as in test_learn_shape --
 * CPU 2 s and 8 s, GPU 1 s and 2 s measured at n = 1000 and 2000 (models
 * CPU 1 and 2 s, GPU 2 and 4 s); at 4000 (models 4 s, 8 s): CPU 8 x 2^2 =
 * 32 s, GPU 2 x 2 = 4 s */
static void test_rows(void)
{
    char *key[] = { "n=1000", "n=1000", "n=2000", "n=2000", "n=x" };
    int gpu[] = { 0, 1, 0, 1, 0 }, samples[] = { 1, 1, 1, 1, 1 };
    double size[] = { 1000, 1000, 2000, 2000, 3000 }, mean[] = { 2, 1, 8, 2, 100 };
    rt_history_rows r = { .n = 5, .cap = 5, .key = key, .gpu = gpu, .samples = samples,
                          .size = size, .mean = mean };
    rt_history_pred hp;
    int tag;
    /* the models asked once per key, not per row: 2 keys ("n=x" is not a
     * size: not asked) */
    CHECK(rt_history_rows_model(&r, rows_model, NULL, &tag) == 0 && r.model && calls == 2);
    CHECK(r.model[0] == 1 && r.model[1] == 2 && r.model[2] == 2 && r.model[3] == 4);
    CHECK(r.model[4] == 0);                     /* "n=x": not a size, not known */
    CHECK(rt_history_rows_model(&r, rows_model, NULL, &tag) == 0 && calls == 2);  /* kept */
    rt_history_predict_at(&r, "n=4000", 4000, 4.0, 8.0, &hp);
    CHECK(hp.decides && same(hp.how, "regression") && hp.shaped);
    CHECK(fabs(hp.cpu_s - 32) < 1e-9 && fabs(hp.gpu_s - 4) < 1e-12);
    CHECK(hp.cpu_sizes == 3 && hp.gpu_sizes == 2 && hp.cpu_samples == 0);
    /* beyond RT_LEARN_REACH (4x) of every measured size: the a n^b + c
     * needs 3 sizes on the GPU, nothing decides */
    rt_history_predict_at(&r, "n=9000", 9000, 9.0, 18.0, &hp);
    CHECK(!hp.decides && !hp.shaped);
    /* a measured size: its means */
    rt_history_predict_at(&r, "n=2000", 2000, 2.0, 4.0, &hp);
    CHECK(hp.decides && same(hp.how, "measured") && !hp.shaped && hp.cpu_s == 8 && hp.gpu_s == 2);
    /* the models' times not known at the size asked: a n^b + c needs 3
     * sizes on both devices, the GPU has 2: nothing decides */
    rt_history_predict_at(&r, "n=4000", 4000, 0, 0, &hp);
    CHECK(!hp.decides && !hp.shaped);
    /* another profile: computed again */
    int other;
    CHECK(rt_history_rows_model(&r, rows_model, NULL, &other) == 0 && calls == 4);
    free(r.model);
    /* both devices: something may decide; one device's rows, or none: nothing */
    CHECK(!rt_history_rows_one_device(&r));
    int cpu_only[] = { 0, 0, 0, 0, 0 }, gpu_only[] = { 1, 1, 1, 1, 1 };
    rt_history_rows c = r, g = r, none = { 0 };
    c.gpu = cpu_only, g.gpu = gpu_only, c.model = g.model = NULL;
    CHECK(rt_history_rows_one_device(&c) && rt_history_rows_one_device(&g));
    CHECK(rt_history_rows_one_device(&none));
    rt_history_predict_at(&c, "n=2000", 2000, 2.0, 4.0, &hp);   /* as it says */
    CHECK(!hp.decides);
}

int main(void)
{
    rt_learn l;
    rt_learn_choice c;

    /* the models say GPU by 2x (in the band): first launch follows them */
    rt_learn_init(&l);
    CHECK(l.budget == RT_LEARN_BUDGET && RT_LEARN_BUDGET == 0.02);
    l.budget = 10;      /* the mechanics first: a budget of 10x the site's time */
    rt_learn_choose(&l, 100, 2.0, 1.0, &c);
    CHECK(c.device == 1 && !c.explore && c.how == NULL && !c.settled);
    rt_learn_add(&l, 100, 1, 3.0);          /* the GPU took 3 s */
    /* the same size again: once on the CPU */
    rt_learn_choose(&l, 100, 2.0, 1.0, &c);
    /* expected cost: the CPU measured nowhere, so the GPU's error here
     * (3 s / 1 s) times the band (4) scales the CPU's 2 s: 24 - 3 = 21 s,
     * within 10 x 3 s */
    CHECK(c.device == 0 && c.explore && same(c.how, "history: exploring") && c.samples == 1);
    CHECK(fabs(c.expect_s - 21.0) < 1e-12 && !c.held_back);
    rt_learn_add(&l, 100, 0, 1.0);          /* the CPU took 1 s */
    /* from then on the measurements: CPU, settled */
    rt_learn_choose(&l, 100, 2.0, 1.0, &c);
    CHECK(c.device == 0 && !c.explore && same(c.how, "history: measured") && c.samples == 2 &&
          c.settled && c.cpu_s == 1.0 && c.gpu_s == 3.0);
    CHECK(l.explorations == 1);
    CHECK(rt_learn_cost(&l) == 0.0);        /* exploring found the faster device */

    /* exploring the slower device costs the difference */
    rt_learn_init(&l);
    l.budget = 10;
    rt_learn_choose(&l, 50, 1.0, 2.0, &c);  /* CPU */
    CHECK(c.device == 0);
    rt_learn_add(&l, 50, 0, 0.5);
    rt_learn_choose(&l, 50, 1.0, 2.0, &c);
    CHECK(c.device == 1 && c.explore);
    rt_learn_add(&l, 50, 1, 1.25);
    rt_learn_choose(&l, 50, 1.0, 2.0, &c);
    CHECK(c.device == 0 && same(c.how, "history: measured"));
    CHECK(rt_learn_cost(&l) == 0.75);

    /* outside the band (20x > RT_LEARN_BAND = 4): the models, settled,
     * never exploring */
    rt_learn_init(&l);
    CHECK(l.band == 4.0);
    for (int i = 0; i < 3; i++) {
        rt_learn_choose(&l, 7, 20.0, 1.0, &c);
        CHECK(c.device == 1 && !c.explore && c.how == NULL && c.settled);
        rt_learn_add(&l, 7, 1, 1.0);
    }
    CHECK(l.explorations == 0);
    /* a band set after init: 13x is inside 13.6, 14x is not */
    rt_learn_init(&l);
    l.band = 13.6;
    rt_learn_choose(&l, 1, 13.0, 1.0, &c);
    CHECK(!c.settled);
    rt_learn_choose(&l, 2, 14.0, 1.0, &c);
    CHECK(c.settled);
    /* a size launched a third time with nothing measured: settled */
    rt_learn_choose(&l, 1, 13.0, 1.0, &c);
    CHECK(!c.settled);
    rt_learn_choose(&l, 1, 13.0, 1.0, &c);
    CHECK(c.settled && c.device == 1 && !c.explore);

    /* the cap: 12 sizes in the band, at most RT_LEARN_EXPLORE explored
     * however large the budget */
    rt_learn_init(&l);
    l.budget = 1000;
    int explored = 0;
    for (int s = 1; s <= 12; s++) {
        rt_learn_choose(&l, s * 1000, 1.0, 1.5, &c);
        rt_learn_add(&l, s * 1000, c.device, 1.0);
        rt_learn_choose(&l, s * 1000, 1.0, 1.5, &c);
        explored += c.explore;
        rt_learn_add(&l, s * 1000, c.device, 2.0);
    }
    CHECK(explored == RT_LEARN_EXPLORE && l.explorations == 8);

    CHECK(rt_learn_cost(&l) == 8.0);
    /* the models' verdict stands where nothing is measured: their times say
     * GPU by 1.5x, their verdict CPU ("too small": the saving does not
     * cover the launch and transfer once more), so the first launch runs
     * on the CPU and the second explores the GPU; measured faster there, the
     * GPU from then on */
    rt_learn_init(&l);
    l.budget = 10;
    rt_learn_decide(&l, 64, 1.5e-5, 1.0e-5, 0, &c);
    CHECK(c.device == 0 && !c.explore && c.how == NULL && !c.settled);
    rt_learn_add(&l, 64, 0, 2.0e-5);
    rt_learn_decide(&l, 64, 1.5e-5, 1.0e-5, 0, &c);
    CHECK(c.device == 1 && c.explore && same(c.how, "history: exploring"));
    rt_learn_add(&l, 64, 1, 0.5e-5);
    rt_learn_decide(&l, 64, 1.5e-5, 1.0e-5, 0, &c);
    CHECK(c.device == 1 && same(c.how, "history: measured") && c.settled);
    /* rt_learn_choose is the verdict of the times alone: GPU */
    rt_learn_init(&l);
    rt_learn_choose(&l, 64, 1.5e-5, 1.0e-5, &c);
    CHECK(c.device == 1 && c.how == NULL);

    /* ---- the default budget, 2% of the site's measured time ---- */
    /* a size alone: exploring is due but costs more than 2% of its time.
     * Models CPU 10 ms, GPU 12 ms (in the band); the CPU took 20 ms; the
     * GPU is measured nowhere: 20/10 x 4 x 12 ms - 20 ms = 76 ms expected,
     * against 2% of 20 ms: held back, not settled (it may fit later) */
    rt_learn_init(&l);
    rt_learn_choose(&l, 10, 0.010, 0.012, &c);
    CHECK(c.device == 0 && !c.explore);
    rt_learn_add(&l, 10, 0, 0.020);
    rt_learn_choose(&l, 10, 0.010, 0.012, &c);
    CHECK(c.device == 0 && !c.explore && c.held_back && !c.settled && c.how == NULL);
    CHECK(fabs(c.expect_s - 0.076) < 1e-12 && l.explorations == 0);
    /* the same size on a site that has run 50 s at a size outside the
     * band (CPU 10 s by the models against GPU 100 s, measured 10 s, five
     * times): 76 ms fits into 2% of 50.02 s, so it explores -- and the
     * models were wrong: the GPU takes 5 ms, the GPU from then on, at no
     * cost */
    rt_learn_init(&l);
    for (int i = 0; i < 5; i++) {
        rt_learn_choose(&l, 1000, 10.0, 100.0, &c);
        CHECK(c.device == 0 && c.settled);
        rt_learn_add(&l, 1000, 0, 10.0);
    }
    rt_learn_choose(&l, 10, 0.010, 0.012, &c);
    CHECK(c.device == 0 && !c.explore);
    rt_learn_add(&l, 10, 0, 0.020);
    rt_learn_choose(&l, 10, 0.010, 0.012, &c);
    CHECK(c.device == 1 && c.explore && !c.held_back && fabs(c.expect_s - 0.076) < 1e-12);
    rt_learn_add(&l, 10, 1, 0.005);
    rt_learn_choose(&l, 10, 0.010, 0.012, &c);
    CHECK(c.device == 1 && same(c.how, "history: measured") && c.settled);
    CHECK(rt_learn_cost(&l) == 0.0 && rt_learn_spent(&l) == 0.0);
    /* the models' error measured on the other device scales its time:
     * GPU 20 s measured where the models said 10 s (ratio 2, five
     * launches, 100 s); at a size in the band (CPU 1 s, GPU 1.5 s by the
     * models) the CPU takes 1 s: the GPU is expected at 2 x 1.5 = 3 s, a
     * cost of 2 s, within 2% of 101 s (2.02 s): explored.  (Without the
     * measured error it would be 1/1 x 4 x 1.5 - 1 = 5 s: held back.) */
    rt_learn_init(&l);
    for (int i = 0; i < 5; i++) {
        rt_learn_choose(&l, 1000, 100.0, 10.0, &c);
        CHECK(c.device == 1 && c.settled);
        rt_learn_add(&l, 1000, 1, 20.0);
    }
    rt_learn_choose(&l, 20, 1.0, 1.5, &c);
    CHECK(c.device == 0 && !c.explore);
    rt_learn_add(&l, 20, 0, 1.0);
    rt_learn_choose(&l, 20, 1.0, 1.5, &c);
    CHECK(c.device == 1 && c.explore && fabs(c.expect_s - 2.0) < 1e-12);
    CHECK(fabs(rt_learn_spent(&l) - 2.0) < 1e-12);  /* expected, until measured */
    /* the GPU took 3.5 s: the exploration cost 2.5 s, more than expected */
    rt_learn_add(&l, 20, 1, 3.5);
    CHECK(rt_learn_cost(&l) == 2.5 && rt_learn_spent(&l) == 2.5);
    rt_learn_choose(&l, 20, 1.0, 1.5, &c);
    CHECK(c.device == 0 && same(c.how, "history: measured"));
    /* another size in the band: the GPU's largest measured error is now
     * 3.5 / 1.5, so 3.5 s expected against the CPU's 1 s (2.5 s), and the
     * budget is 2% of 105.5 s less the 2.5 s spent: held back */
    rt_learn_choose(&l, 30, 1.0, 1.5, &c);
    rt_learn_add(&l, 30, 0, 1.0);
    rt_learn_choose(&l, 30, 1.0, 1.5, &c);
    CHECK(c.device == 0 && !c.explore && c.held_back && fabs(c.expect_s - 2.5) < 1e-12);
    CHECK(l.explorations == 1);

    /* one rule for measured history: one sample on each device */
    CHECK(rt_history_trusted(1, 1) && !rt_history_trusted(1, 0) && !rt_history_trusted(0, 7));
    CHECK(RT_CALIBRATE_SAMPLES == 10);

    /* the regression: CPU 1e-9 n^2, GPU 1e-6 n measured at 3 sizes carry to
     * 3000 (CPU 9 ms, GPU 3 ms: GPU though the models say CPU by 3x) but not
     * to 100000 (beyond 4x of 4000) */
    rt_learn_init(&l);
    double ns[3] = { 1000, 2000, 4000 };
    for (int i = 0; i < 3; i++) {
        rt_learn_add(&l, ns[i], 0, 1e-9 * ns[i] * ns[i]);
        rt_learn_add(&l, ns[i], 1, 1e-6 * ns[i]);
    }
    rt_learn_choose(&l, 3000, 1.0, 3.0, &c);
    CHECK(c.device == 1 && same(c.how, "history: regression") && c.samples == 3);
    CHECK(fabs(c.cpu_s - 9e-3) < 1e-9 && fabs(c.gpu_s - 3e-3) < 1e-9);
    CHECK(!c.settled);                  /* 3x is in the band: measured when it comes again */
    rt_learn_choose(&l, 3000, 1.0, 3.0, &c);   /* seen, measured on neither: not explored */
    CHECK(c.device == 1 && !c.explore);
    rt_learn_choose(&l, 100000, 1.0, 3.0, &c);
    CHECK(c.device == 0 && c.how == NULL);
    /* a launch at a measured size: the measurements */
    rt_learn_choose(&l, 2000, 1.0, 3.0, &c);
    CHECK(c.device == 1 && same(c.how, "history: measured"));   /* 4 ms against 2 ms */

    /* the fit is kept until a sample comes: fitted when asked, stale after
     * rt_learn_add */
    CHECK(l.fit_state == 1 && l.fit_k == 3);
    rt_learn_add(&l, 8000, 0, 1e-9 * 8000 * 8000);
    CHECK(l.fit_state == 0);
    rt_learn_choose(&l, 3000, 1.0, 3.0, &c);
    CHECK(l.fit_state == 1 && l.fit_k == 3);    /* 8000: CPU only, not in it */

    test_shape();
    test_learn_shape();
    test_rows();
    return check_summary();
}
