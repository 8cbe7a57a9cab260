/*
 * struct_alias.c -- vectors as structs holding a data pointer.  z += x
 * where z's data starts one element after x's in the same buffer carries
 * a true dependence (z[i] is x[i+1]); two buffers do not.
 */
#include "probe.h"

struct vec { double *v; long n; };

static void vec_add(struct vec *z, const struct vec *x)
{
    long n = z->n;
    for (long i = 0; i < n; i++) // V:unknown I:stream A:args
        z->v[i] += x->v[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    double *buf = probe_alloc(n + 1), *other = probe_alloc(n);
    probe_fill(buf, n + 1, 7);
    probe_fill(other, n, 8);
    struct vec x = { buf, n }, z = { buf + 1, n }, w = { other, n - 2 };
    probe_overlap_begin(large);
    vec_add(&z, &x);
    probe_overlap_end(large);
    vec_add(&w, &x);
    printf("%.9e %.9e\n", probe_sum(buf, n + 1), probe_sum(other, n));
    free(buf); free(other);
    return 0;
}
