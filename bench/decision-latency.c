/*
 * decision-latency.c -- what keel_decide costs the host program.
 *
 *     decision-latency FILE NSITES LINE
 *     decision-latency FILE 0 timed
 *     decision-latency FILE 0 first
 *     decision-latency FILE CALLS miss [LINE]
 *
 * FILE is the synthetic source whose loops are at lines 3, 9, 15, ...
 * (column 5; FILE as keelcc stored it, as the instrumentation passes it)
 * (one two-level nest per function, see decision-latency.sh) in the
 * database KEEL_DB.  The nests write a through pointer parameters a, b, c:
 * their parallel verdict relies on the three being apart, so each call
 * passes the symbols and the bases' addresses ("&a", "&b", "&c") as the
 * instrumentation does, and a launch the memo has not seen runs the
 * run-time overlap check (runtime/overlap.c).  LINE is a nest over global
 * arrays (no condition).  Prints, tab-separated: first call (database open +
 * facts of one nest), first call of a second site (facts only), the mean
 * first call over NSITES more sites, warm calls with the same values
 * (memo hit), calls alternating two sets of values (both held by the
 * site's memo after the first two calls, so memo hits too; logging off via
 * KEEL_LOG=0 from the script), warm calls of a site whose
 * answer is known to be CPU whatever the values (its call passes none of
 * the symbols the bounds need, as for a `v->length` or `sizeof` bound the
 * runtime cannot evaluate), calls alternating two sets of apart addresses
 * at the same sizes (memo hits), calls alternating two sets of values at
 * the nest without a condition (memo hits), calls cycling through 48 size
 * sets at a second site with the overlap condition, as a nest called by
 * the stages of an FFT is (memo hits once the first round stored them),
 * and the true misses: calls
 * whose sizes change at every call (a new (n, m) each time, so the models
 * run every time) at the nest with the overlap check and at the nest
 * without, all in ns.  With
 * `timed`: the mean cost of a warm launch as offload-mode instrumentation
 * brackets it (keel_decide, keel_begin, keel_done around an empty region;
 * run with logging on so that the runtime really times it), in ns.
 * With `first`: the program's first call alone (the runtime's set-up and
 * the facts of the nest at line 3), in ns, the page faults it took, its
 * verdict and the page faults the process took before main's first call
 * (its start-up: the loader's relocations among them).
 * With `miss`: one first call, then CALLS calls with new sizes at every
 * call (as the miss rows above) at the nest with the overlap check, or at
 * the nest at LINE; prints their mean in ns.  Run under valgrind
 * --tool=callgrind with two values of CALLS, the difference of the totals
 * over the difference of CALLS is the instructions one miss executes (the
 * first call, the database and the facts cancel out).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "keelrt.h"

/* base addresses far apart (1 TiB), and a second apart set */
#define A1 (1LL << 40)
#define B1 (2LL << 40)
#define C1 (3LL << 40)

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 4 && !(argc == 5 && !strcmp(argv[3], "miss")))
        return 2;
    const char *file = argv[1];
    if (!strcmp(argv[3], "first")) {     /* decision-latency FILE 0 first */
        static const char *const fsyms[] = { "n", "m", "&a", "&b", "&c" };
        long long fv[] = { 2000, 1000, A1, B1, C1 };
        keel_site fs = { "unset.db", file, 3, 5, 5, fsyms, NULL };
        struct rusage r0, r1;
        getrusage(RUSAGE_SELF, &r0);
        double f0 = now_ns();
        volatile int fsink = keel_decide(&fs, fv);
        double fns = now_ns() - f0;
        getrusage(RUSAGE_SELF, &r1);
        printf("%.0f\t%ld\t%d\t%ld\n", fns, r1.ru_minflt - r0.ru_minflt, fsink, r0.ru_minflt);
        return 0;
    }
    if (!strcmp(argv[3], "timed")) {     /* decision-latency FILE 0 timed */
        static const char *const tsyms[] = { "n", "m", "&a", "&b", "&c" };
        long long tv[] = { 2000, 1000, A1, B1, C1 };
        keel_site ts = { "unset.db", argv[1], 3, 5, 5, tsyms, NULL };
        volatile int tsink = keel_decide(&ts, tv);
        keel_done(&ts, keel_begin(&ts, tsink));
        enum { TIMED = 1000000 };
        double u0 = now_ns();
        for (int r = 0; r < TIMED; r++) {
            int v = keel_decide(&ts, tv);
            keel_done(&ts, keel_begin(&ts, v));
            tsink += v;
        }
        printf("%.1f\n", (now_ns() - u0) / TIMED);
        return 0;
    }
    static const char *const syms[] = { "n", "m", "&a", "&b", "&c" };
    if (!strcmp(argv[3], "miss") && (argc == 4 || argc == 5)) {
        keel_site ms = { "unset.db", file, argc == 5 ? atoi(argv[4]) : 3, 5, argc == 5 ? 2 : 5,
                         syms, NULL };
        long long mv[] = { 2000, 1000, A1, B1, C1 };
        int calls = atoi(argv[2]);
        volatile int msink = keel_decide(&ms, mv);
        double m0 = now_ns();
        for (int r = 0; r < calls; r++) {
            mv[0] = 1000 + r, mv[1] = 500 + (r * 7) % 1000;
            msink += keel_decide(&ms, mv);
        }
        printf("%.1f\n", (now_ns() - m0) / (calls > 0 ? calls : 1));
        (void)msink;
        return 0;
    }
    int nsites = atoi(argv[2]);
    long long v1[] = { 2000, 1000, A1, B1, C1 }, v2[] = { 20, 10, A1, B1, C1 };
    long long v3[] = { 2000, 1000, C1, A1, B1 };
    keel_site *s = calloc((size_t)nsites + 2, sizeof *s);
    if (!s)
        return 1;
    for (int i = 0; i < nsites + 2; i++)
        s[i] = (keel_site){ "unset.db", file, 3 + 6 * i, 5, 5, syms, NULL };
    volatile int sink = 0;
    double t0 = now_ns();
    sink += keel_decide(&s[0], v1);
    double first = now_ns() - t0;
    t0 = now_ns();
    sink += keel_decide(&s[1], v1);
    double second = now_ns() - t0;
    t0 = now_ns();
    for (int i = 2; i < nsites + 2; i++)
        sink += keel_decide(&s[i], v1);
    double rest = (now_ns() - t0) / (nsites > 0 ? nsites : 1);
    enum { WARM = 10000000, MISS = 200000 };
    t0 = now_ns();
    for (int r = 0; r < WARM; r++)
        sink += keel_decide(&s[0], v1);
    double warm = (now_ns() - t0) / WARM;
    t0 = now_ns();
    for (int r = 0; r < MISS; r++)
        sink += keel_decide(&s[0], (r & 1) ? v1 : v2);
    double miss = (now_ns() - t0) / MISS;
    keel_site cpu = { "unset.db", file, 3, 0, 0, NULL, NULL };
    sink += keel_decide(&cpu, NULL);
    t0 = now_ns();
    for (int r = 0; r < WARM; r++)
        sink += keel_decide(&cpu, NULL);
    double fixed = (now_ns() - t0) / WARM;
    t0 = now_ns();
    for (int r = 0; r < MISS; r++)
        sink += keel_decide(&s[0], (r & 1) ? v1 : v3);
    double moved = (now_ns() - t0) / MISS;
    keel_site g = { "unset.db", file, atoi(argv[3]), 5, 2, syms, NULL };
    sink += keel_decide(&g, v1);
    t0 = now_ns();
    for (int r = 0; r < MISS; r++)
        sink += keel_decide(&g, (r & 1) ? v1 : v2);
    double plain = (now_ns() - t0) / MISS;
    /* a cycle of 48 size sets (the stages of a transform over three
     * dimensions): one round to fill the memo, then timed rounds */
    enum { CYCLE = 48 };
    long long cyc[CYCLE][5];
    for (int k = 0; k < CYCLE; k++) {
        cyc[k][0] = 2 << (k % 12), cyc[k][1] = 4096 >> (k % 12), cyc[k][2] = A1;
        cyc[k][3] = (k / 12) & 1 ? C1 : B1, cyc[k][4] = (k / 24) ? B1 : C1;
    }
    for (int k = 0; k < CYCLE; k++)
        sink += keel_decide(&s[1], cyc[k]);
    t0 = now_ns();
    for (int r = 0; r < MISS; r++)
        sink += keel_decide(&s[1], cyc[r % CYCLE]);
    double cycle = (now_ns() - t0) / MISS;
    /* sizes that change at every call (no memo can hold them: each call
     * is a new (n, m) pair), at the nest with the overlap check and at the
     * one without */
    long long vc[] = { 0, 0, A1, B1, C1 };
    t0 = now_ns();
    for (int r = 0; r < MISS; r++) {
        vc[0] = 1000 + r, vc[1] = 500 + (r * 7) % 1000;
        sink += keel_decide(&s[0], vc);
    }
    double every = (now_ns() - t0) / MISS;
    t0 = now_ns();
    for (int r = 0; r < MISS; r++) {
        vc[0] = 1000 + r, vc[1] = 500 + (r * 7) % 1000;
        sink += keel_decide(&g, vc);
    }
    double every_plain = (now_ns() - t0) / MISS;
    printf("%.0f\t%.0f\t%.0f\t%.1f\t%.0f\t%.1f\t%.0f\t%.0f\t%.0f\t%.0f\t%.1f\t%d\n", first,
           second, rest, warm, miss, fixed, moved, plain, every, every_plain, cycle, sink > 0);
    return 0;
}
