/* Calls: pure math functions and timers do not stop the dependence test
 * (a timer's clock is no data of the loop; an address passed to it is
 * still written); anything else does. */
#include <math.h>
#include <time.h>

double now(void);

void roots(int n, const double *a, double *b)
{
    for (int i = 0; i < n; i++) // V:parallel
        b[i] = sqrt(fabs(a[i])) + exp(a[i]) * sin(a[i]) + pow(a[i], 3.0);
}

void roots_recur(int n, double *b)
{
    for (int i = 1; i < n; i++) // V:sequential
        b[i] = sqrt(b[i - 1]);
}

void timed(int n, const double *a, double *b, double *t)
{
    for (int i = 0; i < n; i++) { // V:unknown
        b[i] = a[i] * 2.0;
        t[i] = now();
    }
}

void clocked(int n, const double *a, double *b, struct timespec *ts)
{
    for (int i = 0; i < n; i++) { // V:parallel
        b[i] = a[i] * 2.0;
        clock_gettime(CLOCK_MONOTONIC, &ts[i]);
    }
}

int omp_get_thread_num(void);
int omp_get_num_threads(void);

void tagged(int n, const double *a, double *b, int *who)
{
    for (int i = 0; i < n; i++) { // V:parallel
        b[i] = fmax(a[i], 0.0);
        who[i] = omp_get_thread_num() + omp_get_num_threads();
    }
}
