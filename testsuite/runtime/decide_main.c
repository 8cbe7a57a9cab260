/*
 * decide_main.c -- drives keel_decide for rt_decide.sh, one scenario per
 * process (warnings are once per process):
 *
 *   decide_main once FILE LINE [SYM=V ...]     print the verdict of one call
 *   decide_main twice FILE LINE [SYM=V ...]    two calls from two sites (the
 *                                              same loop): one warning at most
 *   decide_main timed FILE LINE [SYM=V ...]    5 launches bracketed as offload-mode
 *                                              instrumentation does (keel_decide,
 *                                              keel_begin, 2 ms of work, keel_done)
 *                                              and one with other values from each
 *                                              of 8 threads; prints the verdicts
 *   decide_main calibrate FILE LINE [SYM=V ...]  4 timed launches: prints the
 *                                              verdicts KEEL_CALIBRATE gives
 *   decide_main threads FILE LINE SYM=V ...    32 threads x 2000 calls on one
 *                                              site, half with other values;
 *                                              prints "threads ok" when every
 *                                              verdict equals the one-thread
 *                                              verdict for its values
 *
 * An argument "&NAME" passes a base address of the nest's overlap
 * condition as instrumentation does: "&NAME=V" the address V, a bare
 * "&NAME" one of its own, 1 TiB from the next (bases far apart).
 *
 * The database is KEEL_DB (the site's db is "unset.db").
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "keelrt.h"

static keel_site site;
static const char *names[16];
static long long vals[16], vals2[16];
static int want1, want2;
static int bad;

static void *worker(void *arg)
{
    long id = (long)arg;
    for (int r = 0; r < 2000; r++) {
        int alt = (r + id) % 2;
        int v = keel_decide(&site, alt ? vals2 : vals);
        if (v != (alt ? want2 : want1))
            __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

/* one launch with the second size, timed as instrumentation does */
static void *timed_worker(void *arg)
{
    struct timespec ms1 = { 0, 1000000 };
    (void)arg;
    int v = keel_decide(&site, vals2);
    long long t = keel_begin(&site, v);
    nanosleep(&ms1, NULL);
    keel_done(&site, t);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    int n = 0;
    for (int i = 4; i < argc && n < 16; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq && argv[i][0] == '&') {
            names[n] = argv[i];
            vals[n] = vals2[n] = (long long)(n + 1) << 40;
            n++;
            continue;
        }
        if (!eq)
            return 2;
        *eq = 0;
        names[n] = argv[i];
        vals[n] = strtoll(eq + 1, NULL, 10);
        vals2[n] = vals[n] > 4 && argv[i][0] != '&' ? vals[n] / 100 + 1 : vals[n];   /* a second size */
        n++;
    }
    site = (keel_site){ "unset.db", argv[2], atoi(argv[3]), 0, n, names, NULL };
    if (!strcmp(argv[1], "once")) {
        printf("%d\n", keel_decide(&site, vals));
        return 0;
    }
    if (!strcmp(argv[1], "twice")) {
        keel_site other = site;
        other.state = NULL;
        int a = keel_decide(&site, vals), b = keel_decide(&other, vals);
        printf("%d %d\n", a, b);
        return 0;
    }
    if (!strcmp(argv[1], "record")) {
        /* 10 CPU runs of 1 ms and 10 GPU runs of 2 ms: trusted history
         * (StarPU's 10 samples) says CPU whatever the models say */
        for (int i = 0; i < 10; i++) {
            keel_record(&site, vals, 0, 1e-3);
            keel_record(&site, vals, 1, 2e-3);
        }
        keel_site fresh = site;
        fresh.state = NULL;
        printf("%d\n", keel_decide(&fresh, vals));
        return 0;
    }
    if (!strcmp(argv[1], "timed") || !strcmp(argv[1], "calibrate")) {
        int n = !strcmp(argv[1], "timed") ? 5 : 4;
        struct timespec ms2 = { 0, 2000000 };
        for (int i = 0; i < n; i++) {
            int v = keel_decide(&site, vals);
            long long t = keel_begin(&site, v);
            nanosleep(&ms2, NULL);
            keel_done(&site, t);
            printf("%d", v);
        }
        if (n == 5) {
            pthread_t t[8];
            for (long i = 0; i < 8; i++)
                pthread_create(&t[i], NULL, timed_worker, NULL);
            for (int i = 0; i < 8; i++)
                pthread_join(t[i], NULL);
            /* a token from no keel_begin, and keel_begin for another site */
            keel_done(&site, 0);
            keel_site other = site;
            other.state = NULL;
            printf(" %lld", keel_begin(&other, 0));
        }
        printf("\n");
        return 0;
    }
    if (!strcmp(argv[1], "threads")) {
        /* reference verdicts from fresh sites, one thread */
        keel_site s1 = site, s2 = site;
        want1 = keel_decide(&s1, vals);
        want2 = keel_decide(&s2, vals2);
        pthread_t t[32];
        for (long i = 0; i < 32; i++)
            pthread_create(&t[i], NULL, worker, (void *)i);
        for (int i = 0; i < 32; i++)
            pthread_join(t[i], NULL);
        printf("%s %d %d\n", bad ? "threads FAILED" : "threads ok", want1, want2);
        return bad != 0;
    }
    return 2;
}
