/*
 * h100-smt-probe.c -- which CPUs of this machine share a core: built by
 * bench/h100-bundle.sh, run by the bundle's run.sh (bench/h100-run.sh)
 * into smt.txt.  Nothing here is a test and nothing in keel reads it.
 *
 * A virtual machine's CPUs may be hardware threads of fewer cores (lscpu
 * inside it can say one thread per core either way).  Two threads on the
 * two hardware threads of one core share its issue ports: a thread of
 * independent additions keeps about half its rate, beside a thread on
 * another core nearly all of it.  For CPU a (0 and 1) and every other CPU
 * b: a thread pinned to a alone, then threads pinned to a and b at once,
 * each a batch of independent additions timed on its own CPU clock
 * (descheduling does not count), ROUNDS rounds; printed: the median over
 * the rounds of a's rate beside b over a's rate alone.  A CPU whose ratio
 * is far below the others' is a's sibling.
 *
 * cc -O2 -pthread bench/h100-smt-probe.c -o smt-probe; ./smt-probe
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { ROUNDS = 3, ITERS = 1 << 22 };

static volatile unsigned long sink;
static pthread_barrier_t start;

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* eight independent chains of additions; additions per second */
static double batch(void)
{
    unsigned long y[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    double t0 = cpu_s();
    for (unsigned long i = 0; i < ITERS; i++)
        for (int k = 0; k < 8; k++) {
            y[k] += i;
            __asm__ volatile("" : "+r"(y[k]));
        }
    double t = cpu_s() - t0;
    sink = y[0] + y[1] + y[2] + y[3] + y[4] + y[5] + y[6] + y[7];
    return t > 0 ? 8.0 * ITERS / t : 0;
}

struct job { int cpu, together; double rate; };

static void *run(void *p)
{
    struct job *j = p;
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(j->cpu, &s);
    if (pthread_setaffinity_np(pthread_self(), sizeof s, &s)) {
        j->rate = 0;
        return NULL;
    }
    if (j->together)
        pthread_barrier_wait(&start);
    batch();                                  /* warms the clock up */
    if (j->together)
        pthread_barrier_wait(&start);
    j->rate = batch();
    return NULL;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 2) {
        printf("smt-probe: %ld CPU online, no pair to test\n", n);
        return 0;
    }
    pthread_barrier_init(&start, NULL, 2);
    printf("# CPU a's rate of independent additions beside a thread on CPU b, over a's alone\n"
           "# (median of %d rounds; a sibling hardware thread shows about 0.5-0.7)\n", ROUNDS);
    for (int a = 0; a < 2 && a < n; a++)
        for (int b = 0; b < n; b++) {
            if (b == a)
                continue;
            double r[ROUNDS];
            for (int k = 0; k < ROUNDS; k++) {
                struct job alone = { a, 0, 0 }, ja = { a, 1, 0 }, jb = { b, 1, 0 };
                pthread_t t0, t1, t2;
                pthread_create(&t0, NULL, run, &alone);
                pthread_join(t0, NULL);
                pthread_create(&t1, NULL, run, &ja);
                pthread_create(&t2, NULL, run, &jb);
                pthread_join(t1, NULL);
                pthread_join(t2, NULL);
                r[k] = alone.rate > 0 ? ja.rate / alone.rate : 0;
            }
            qsort(r, ROUNDS, sizeof r[0], cmp);
            printf("cpu %d beside cpu %2d: %.2f\n", a, b, r[ROUNDS / 2]);
            fflush(stdout);
        }
    return 0;
}
