/*
 * test_overlap.c -- the run-time overlap check (runtime/overlap.h) on
 * conditions built by hand: exact element and byte ranges for rising and
 * falling loops, a 2-D row-major nest and a triangular one, the verdict for
 * apart, adjacent, shifted and identical bases, and every way the check
 * can be impossible (then the answer is never the GPU).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "expr.h"
#include "overlap.h"

static kx_expr *E(const char *text)
{
    char err[128];
    kx_expr *e = kx_parse(text, err, sizeof err);
    if (!e) {
        fprintf(stderr, "bad test expression %s: %s\n", text, err);
        exit(2);
    }
    return e;
}

/* elements and bytes of access a, or CHECK that it fails with `why` */
static void range(const rt_overlap *o, int a, uint64_t addr, int n, const char *const *nm,
                  const long long *v, int64_t elo, int64_t ehi, uint64_t blo, uint64_t bhi)
{
    int64_t e0 = -7, e1 = -7;
    uint64_t b0 = 0, b1 = 0;
    char why[160] = "";
    CHECK_INT(rt_overlap_elems(o, a, n, nm, v, &e0, &e1, why, sizeof why), 0);
    CHECK_INT(e0, elo);
    CHECK_INT(e1, ehi);
    CHECK_INT(rt_overlap_bytes(o, a, addr, n, nm, v, &b0, &b1, why, sizeof why), 0);
    CHECK_INT(b0, blo);
    CHECK_INT(b1, bhi);
    if (why[0])
        fprintf(stderr, "access %d: %s\n", a, why);
}

int main(void)
{
    /* 1. for (i = 0; i < n; i++) out[i] = in[i - 1] + in[i + 1];  (doubles) */
    kx_expr *zero = E("0"), *n_ = E("n"), *i_ = E("i"), *im1 = E("i - 1"), *ip1 = E("i + 1");
    rt_ov_loop l1[] = { { -1, "i", zero, n_, 1 } };
    rt_ov_base b1[] = { { "out", 1 }, { "in", 1 } };
    rt_ov_access a1[] = { { 0, 0, i_, 8, 1, "out[i]" }, { 1, 0, im1, 8, 0, "in[i - 1]" },
                          { 1, 0, ip1, 8, 0, "in[i + 1]" } };
    rt_overlap o1 = { 1, l1, 2, b1, 3, a1 };
    const char *nm1[] = { "n", "&out", "&in" };
    long long v1[] = { 100, 0, 0 };
    range(&o1, 0, 4096, 3, nm1, v1, 0, 99, 4096, 4896);
    range(&o1, 1, 8192, 3, nm1, v1, -1, 98, 8184, 8984);
    range(&o1, 2, 8192, 3, nm1, v1, 1, 100, 8200, 9000);

    rt_ov_plan *slot = NULL;
    char why[160] = "";
    CHECK_INT(rt_overlap_prepare(&o1, 3, nm1, &slot, why, sizeof why), 0);
    CHECK(rt_overlap_plan_slot(slot, 0) == 1 && rt_overlap_plan_slot(slot, 1) == 2);
    CHECK(rt_overlap_plan_compiled(slot));
    /* in's bytes [in - 8, in + 808): out right below, 8 bytes apart */
    v1[1] = 4096, v1[2] = 4096 + 808;
    CHECK_INT(rt_overlap_check(&o1, slot, 3, nm1, v1, why, sizeof why), 0);
    v1[2] = 4096 + 807;       /* one byte of in[-1] in out[99] */
    CHECK_INT(rt_overlap_check(&o1, slot, 3, nm1, v1, why, sizeof why), 1);
    CHECK_STR(why, "overlap: out (written) and in");
    /* the smoother called with in == out */
    v1[2] = 4096;
    CHECK_INT(rt_overlap_check(&o1, slot, 3, nm1, v1, why, sizeof why), 1);
    /* in after out's end but reaching back into it through in[i - 1] */
    v1[2] = 4096 + 800;
    CHECK_INT(rt_overlap_check(&o1, slot, 3, nm1, v1, why, sizeof why), 1);
    /* out right above in's last byte (in + 808) */
    v1[1] = 8192 + 808, v1[2] = 8192;
    CHECK_INT(rt_overlap_check(&o1, slot, 3, nm1, v1, why, sizeof why), 0);
    rt_overlap_plan_free(slot);

    /* 2. for (i = n - 1; i >= 0; i -= 2) y[i] = x[n - 1 - i];  (floats): a
     * falling loop, i = 99, 97, ..., 1 at n = 100 (its trip count h = 50) */
    kx_expr *nm1e = E("n - 1"), *half = E("h"), *rev = E("n - 1 - i");
    rt_ov_loop l2[] = { { -1, "i", nm1e, half, -2 } };
    rt_ov_base b2[] = { { "y", 1 }, { "x", 1 } };
    rt_ov_access a2[] = { { 0, 0, i_, 4, 1, "y[i]" }, { 1, 0, rev, 4, 0, "x[n - 1 - i]" } };
    rt_overlap o2 = { 1, l2, 2, b2, 2, a2 };
    const char *nm2[] = { "&y", "n", "&x", "h" };
    long long v2[] = { 0, 100, 0, 50 };
    range(&o2, 0, 1000, 4, nm2, v2, 1, 99, 1004, 1400);
    range(&o2, 1, 2000, 4, nm2, v2, 0, 98, 2000, 2396);
    CHECK_INT(rt_overlap_prepare(&o2, 4, nm2, &slot, why, sizeof why), 0);
    CHECK(rt_overlap_plan_slot(slot, 0) == 0 && rt_overlap_plan_slot(slot, 1) == 2);
    CHECK(rt_overlap_plan_compiled(slot));
    /* shift_scale(a + 1, a): y = x + 4 bytes */
    v2[0] = 2004, v2[2] = 2000;
    CHECK_INT(rt_overlap_check(&o2, slot, 4, nm2, v2, why, sizeof why), 1);
    CHECK_STR(why, "overlap: y (written) and x");
    /* y's first byte touched is y + 4: y = x + 392 puts y[1] on x's end */
    v2[0] = 2000 + 392;
    CHECK_INT(rt_overlap_check(&o2, slot, 4, nm2, v2, why, sizeof why), 0);
    v2[0] = 2000 + 391;
    CHECK_INT(rt_overlap_check(&o2, slot, 4, nm2, v2, why, sizeof why), 1);
    rt_overlap_plan_free(slot);
    /* a negative stride in the offset: for (i = 0; i < n; i++) z[-3 * i + 7] */
    kx_expr *neg = E("-3 * i + 7");
    rt_ov_loop l2b[] = { { -1, "i", zero, n_, 1 } };
    rt_ov_access a2b[] = { { 0, 0, neg, 2, 1, "z[-3 * i + 7]" } };
    rt_ov_base b2b[] = { { "z", 1 } };
    rt_overlap o2b = { 1, l2b, 1, b2b, 1, a2b };
    const char *nm2b[] = { "n" };
    long long v2b[] = { 10 };
    /* i = 0..9: elements 7 down to -20, shorts */
    range(&o2b, 0, 100, 1, nm2b, v2b, -20, 7, 60, 116);

    /* 3. 2-D row-major: for (i = 1; i < n - 1; i++) for (j = 0; j < m; j++)
     *        B[i][j] = A[i - 1][j] + A[i + 1][j];  (doubles, rows of m) */
    kx_expr *one = E("1"), *nm2e = E("n - 2"), *m_ = E("m");
    kx_expr *bij = E("i * m + j"), *aup = E("(i - 1) * m + j"), *adn = E("(i + 1) * m + j");
    rt_ov_loop l3[] = { { -1, "i", one, nm2e, 1 }, { 0, "j", zero, m_, 1 } };
    rt_ov_base b3[] = { { "B", 1 }, { "A", 1 } };
    rt_ov_access a3[] = { { 0, 1, bij, 8, 1, "B[i][j]" }, { 1, 1, aup, 8, 0, "A[i - 1][j]" },
                          { 1, 1, adn, 8, 0, "A[i + 1][j]" } };
    rt_overlap o3 = { 2, l3, 2, b3, 3, a3 };
    const char *nm3[] = { "n", "m", "&B", "&A" };
    long long v3[] = { 20, 50, 0, 0 };
    /* i = 1..18, j = 0..49: B elements 50..949, A 0..899 and 100..999 */
    range(&o3, 0, 65536, 4, nm3, v3, 50, 949, 65936, 73136);
    range(&o3, 1, 0, 4, nm3, v3, 0, 899, 0, 7200);
    range(&o3, 2, 0, 4, nm3, v3, 100, 999, 800, 8000);
    CHECK_INT(rt_overlap_prepare(&o3, 4, nm3, &slot, why, sizeof why), 0);
    /* B writes [B + 400, B + 7600), A is read in [A, A + 8000): B = A +
     * 7600 puts B[1][0] right after A's last element (apart), one byte
     * lower they share; below A, B + 7600 must not pass A */
    v3[3] = 1 << 20;
    v3[2] = v3[3] + 7600;
    CHECK_INT(rt_overlap_check(&o3, slot, 4, nm3, v3, why, sizeof why), 0);
    v3[2] = v3[3] + 7599;
    CHECK_INT(rt_overlap_check(&o3, slot, 4, nm3, v3, why, sizeof why), 1);
    CHECK_STR(why, "overlap: B (written) and A");
    v3[2] = v3[3] - 7600;
    CHECK_INT(rt_overlap_check(&o3, slot, 4, nm3, v3, why, sizeof why), 0);
    v3[2] = v3[3] - 7599;
    CHECK_INT(rt_overlap_check(&o3, slot, 4, nm3, v3, why, sizeof why), 1);
    /* the compiled plan answers exactly as the check by name, sizes that
     * overflow (the plan hands those to the check by name) included */
    CHECK(rt_overlap_plan_compiled(slot) && rt_overlap_plan_flat(slot));
    {
        const long long sz[] = { -5, 0, 1, 2, 3, 20, 1000, 1LL << 31, 1LL << 40, INT64_MAX / 2,
                                 INT64_MAX };
        const long long dx[] = { -(1LL << 40), -8000, -7600, -7599, 0, 7599, 7600, 1LL << 40 };
        int cases = 0, differ = 0, seen[3] = { 0, 0, 0 };
        for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++)
            for (size_t j = 0; j < sizeof sz / sizeof sz[0]; j++)
                for (size_t k = 0; k < sizeof dx / sizeof dx[0]; k++) {
                    long long v[] = { sz[i], sz[j], (1LL << 50) + dx[k], 1LL << 50 };
                    char w1[160] = "", w2[160] = "";
                    int r1 = rt_overlap_check(&o3, slot, 4, nm3, v, w1, sizeof w1);
                    int r2 = rt_overlap_check_named(&o3, slot, 4, nm3, v, w2, sizeof w2);
                    cases++;
                    if (r1 != r2 || (r1 && strcmp(w1, w2))) {
                        fprintf(stderr, "n=%lld m=%lld d=%lld: %d %s / %d %s\n", sz[i], sz[j],
                                dx[k], r1, w1, r2, w2);
                        differ++;
                    }
                    seen[r2 + 1]++;
                }
        CHECK_INT(cases, 968);
        CHECK_INT(differ, 0);
        CHECK(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);   /* -1, 0 and 1 all met */
    }
    rt_overlap_plan_free(slot);

    /* a triangular nest: for (i = 0; i < n; i++) for (j = i; j < n; j++)
     * C[i][j]: j's bounds over i's box give j = 0..n - 1 */
    kx_expr *nmi = E("n - i"), *cij = E("i * n + j");
    rt_ov_loop l4[] = { { -1, "i", zero, n_, 1 }, { 0, "j", i_, nmi, 1 } };
    rt_ov_base b4[] = { { "C", 1 } };
    rt_ov_access a4[] = { { 0, 1, cij, 4, 1, "C[i][j]" } };
    rt_overlap o4 = { 2, l4, 1, b4, 1, a4 };
    const char *nm4[] = { "n" };
    long long v4[] = { 10 };
    range(&o4, 0, 0, 1, nm4, v4, 0, 99, 0, 400);
    /* its box is not rectangular: no flat form, the corners are evaluated */
    CHECK_INT(rt_overlap_prepare(&o4, 1, nm4, &slot, why, sizeof why), -1);   /* C not passed */
    {
        const char *nm4b[] = { "n", "&C" };
        CHECK_INT(rt_overlap_prepare(&o4, 2, nm4b, &slot, why, sizeof why), 0);
        CHECK(rt_overlap_plan_compiled(slot) && !rt_overlap_plan_flat(slot));
        rt_overlap_plan_free(slot);
    }

    /* a rectangular three-level nest with a falling loop and a strided
     * one: for (i = 0; i < n; i++) for (j = m - 1; j >= 0; j--)
     *     for (k = 2; k < 2 + 3 * p; k += 3) X[i][j][k] = Y[k * m - 2 * i + j + 5] + Z[7]
     * (X of m x p rows, doubles; Y floats).  The flat form (per-variable
     * extremes) answers as the check by name for every size, the ones
     * that overflow included. */
    kx_expr *two = E("2"), *m1 = E("m - 1"), *p_ = E("p");
    kx_expr *xo = E("i * m * p + j * p + k"), *yo = E("k * m - 2 * i + j + 5"), *zo = E("7");
    rt_ov_loop l10[] = { { -1, "i", zero, n_, 1 }, { 0, "j", m1, m_, -1 }, { 1, "k", two, p_, 3 } };
    rt_ov_base b10[] = { { "X", 1 }, { "Y", 1 }, { "Z", 1 } };
    rt_ov_access a10[] = { { 0, 2, xo, 8, 1, "X[i][j][k]" }, { 1, 2, yo, 4, 0, "Y[...]" },
                           { 2, 2, zo, 8, 0, "Z[7]" } };
    rt_overlap o10 = { 3, l10, 3, b10, 3, a10 };
    const char *nm10[] = { "n", "m", "p", "&X", "&Y", "&Z" };
    CHECK_INT(rt_overlap_prepare(&o10, 6, nm10, &slot, why, sizeof why), 0);
    CHECK(rt_overlap_plan_flat(slot));
    {
        /* n = m = p = 4: X elements 2 .. 3*4*4 + 3*4 + 11 = 71, Y from
         * 2*4 - 6 + 0 + 5 = 7 to 11*4 + 3 + 5 = 52 */
        range(&o10, 0, 0, 6, nm10, (const long long[]){ 4, 4, 4, 0, 0, 0 }, 2, 71, 16, 576);
        range(&o10, 1, 0, 6, nm10, (const long long[]){ 4, 4, 4, 0, 0, 0 }, 7, 52, 28, 212);
        const long long sz[] = { -3, 0, 1, 2, 5, 1000, 1LL << 20, 1LL << 31, 1LL << 42,
                                 INT64_MAX / 3, INT64_MAX };
        const long long dy[] = { -(1LL << 44), -212, -211, 0, 575, 576, 1LL << 44 };
        int cases = 0, differ = 0, seen[3] = { 0, 0, 0 };
        for (size_t i = 0; i < sizeof sz / sizeof sz[0]; i++)
            for (size_t j = 0; j < sizeof sz / sizeof sz[0]; j++)
                for (size_t k = 0; k < sizeof sz / sizeof sz[0]; k += 2)
                    for (size_t d = 0; d < sizeof dy / sizeof dy[0]; d++) {
                        long long v[] = { sz[i], sz[j], sz[k], 1LL << 52, (1LL << 52) + dy[d],
                                          1LL << 53 };
                        char w1[160] = "", w2[160] = "";
                        int r1 = rt_overlap_check(&o10, slot, 6, nm10, v, w1, sizeof w1);
                        int r2 = rt_overlap_check_named(&o10, slot, 6, nm10, v, w2, sizeof w2);
                        cases++;
                        if (r1 != r2 || (r1 && strcmp(w1, w2))) {
                            fprintf(stderr, "n=%lld m=%lld p=%lld d=%lld: %d %s / %d %s\n", v[0],
                                    v[1], v[2], dy[d], r1, w1, r2, w2);
                            differ++;
                        }
                        seen[r2 + 1]++;
                    }
        CHECK_INT(cases, 11 * 11 * 6 * 7);
        CHECK_INT(differ, 0);
        CHECK(seen[0] > 0 && seen[1] > 0 && seen[2] > 0);
    }
    rt_overlap_plan_free(slot);

    /* no check possible: each reason, and never "apart" */
    rt_ov_access a5[] = { { 0, 0, NULL, 8, 1, "out[idx[i]]" }, { 1, 0, i_, 8, 0, "in[i]" } };
    rt_overlap o5 = { 1, l1, 2, b1, 2, a5 };
    CHECK_INT(rt_overlap_prepare(&o5, 3, nm1, &slot, why, sizeof why), -1);
    CHECK_STR(why, "overlap unchecked: out[idx[i]] has no bounded extent");
    CHECK(slot == NULL);
    const char *nm6[] = { "n", "&out" };
    CHECK_INT(rt_overlap_prepare(&o1, 2, nm6, &slot, why, sizeof why), -1);
    CHECK_STR(why, "overlap unchecked: the call does not pass in");
    rt_ov_base b7[] = { { "out", 1 }, { "s->in", 0 } };
    rt_overlap o7 = { 1, l1, 2, b7, 3, a1 };
    CHECK_INT(rt_overlap_prepare(&o7, 3, nm1, &slot, why, sizeof why), -1);
    CHECK_STR(why, "overlap unchecked: s->in cannot be read before the loop");
    kx_expr *sq = E("i * i");
    rt_ov_access a8[] = { { 0, 0, sq, 8, 1, "out[i * i]" }, { 1, 0, i_, 8, 0, "in[i]" } };
    rt_overlap o8 = { 1, l1, 2, b1, 2, a8 };
    CHECK_INT(rt_overlap_prepare(&o8, 3, nm1, &slot, why, sizeof why), 0);
    v1[0] = 100, v1[1] = 0, v1[2] = 1 << 30;
    CHECK_INT(rt_overlap_check(&o8, slot, 3, nm1, v1, why, sizeof why), -1);
    CHECK_STR(why, "overlap unchecked: out[i * i] is not affine in its loops");
    rt_overlap_plan_free(slot);
    const char *nm9[] = { "&out", "&in" };   /* n not passed: no bound */
    long long v9[] = { 0, 1 << 30 };
    CHECK_INT(rt_overlap_prepare(&o1, 2, nm9, &slot, why, sizeof why), 0);
    CHECK_INT(rt_overlap_check(&o1, slot, 2, nm9, v9, why, sizeof why), -1);
    CHECK(!strncmp(why, "overlap unchecked: ", 19));
    rt_overlap_plan_free(slot);

    kx_expr *all[] = { zero, n_, i_, im1, ip1, nm1e, half, rev, neg, one, nm2e, m_, bij, aup,
                       adn, nmi, cij, sq, two, m1, p_, xo, yo, zo };
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        kx_free(all[k]);
    return check_summary();
}
