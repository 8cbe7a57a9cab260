/*
 * kl.h -- "kl", a tiny numeric and text library used as keel's offline "real
 * project": several sources, a private config header found by a quoted
 * include, header inline functions with loops, and the loop shapes real
 * projects have (struct-member bounds, sizeof bounds, loops whose head sets
 * their bound, getline loops, volatile counters, #line, pragmas).
 */
#ifndef KL_H
#define KL_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    size_t len;
    double *v;
} kl_vec;

int kl_vec_init(kl_vec *x, size_t len, double first, double step);
void kl_vec_free(kl_vec *x);
void kl_axpy(double a, const kl_vec *x, kl_vec *y);
double kl_dot(const kl_vec *x, const kl_vec *y);
void kl_scale(int n, double *a, double s);
double kl_sum(int n, const double *a);

void kl_matmul(int n, const double *a, const double *b, double *c);
void kl_transpose(int n, const double *a, double *t);

unsigned kl_histogram(int n, const int *data, unsigned *bins, int nbins);
double kl_prefix(int n, double *a);
int kl_primes_below(int n);
unsigned kl_table_size(const unsigned nums[], unsigned lim);

size_t kl_count_words(FILE *f, size_t *lines);
unsigned long kl_hash(const char *s);
int kl_drain(void);

/* A loop in a header: analysed, never instrumented (not the main file). */
static inline int kl_clamp_all(int n, int *a, int lo, int hi)
{
    int changed = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] < lo) { a[i] = lo; changed++; }
        if (a[i] > hi) { a[i] = hi; changed++; }
    }
    return changed;
}

#endif
