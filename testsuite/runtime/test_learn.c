/*
 * test_learn.c -- rt_learn (history.h), one site's learning in the
 * process, with times given instead of run: exploring once inside the
 * band, following the measurements, the exploration's expected cost
 * against the budget (a fraction of the site's time) with hand-computed
 * decisions, the cap on explorations and their cost,
 * the models' verdict (with its "too small" margin) where nothing is
 * measured, the one trust rule,
 * the regression a n^b + c carried to nearby sizes, nothing beyond.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "history.h"

static int same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
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
    return check_summary();
}
