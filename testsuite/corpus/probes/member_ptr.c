/*
 * member_ptr.c -- loops that reach their data through pointers held in a
 * structure (a field with its scratch buffer), as solver code keeps
 * state: a scale in place, a smoothing from one member array into
 * another (independent when the two do not overlap, as here), and a sum
 * into a member.
 */
#include "probe.h"

struct field {
    long n;
    double *v;
    double *tmp;
    double total;
};

static void field_scale(struct field *f, double s)
{
    for (long i = 0; i < f->n; i++) // V:parallel I:stream
        f->v[i] *= s;
}

static void field_smooth(struct field *f)
{
    for (long i = 1; i < f->n - 1; i++) // V:parallel I:stencil A:args
        f->tmp[i] = 0.25 * f->v[i - 1] + 0.5 * f->v[i] + 0.25 * f->v[i + 1];
}

static void field_total(struct field *f)
{
    f->total = 0.0;
    for (long i = 0; i < f->n; i++) // V:reduction I:reduction
        f->total += f->tmp[i];
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    struct field f;
    f.n = large ? 4000000 : 1000;
    f.v = probe_alloc(f.n);
    f.tmp = probe_alloc(f.n);
    probe_fill(f.v, f.n, 307);
    field_scale(&f, 1.5);
    field_smooth(&f);
    field_total(&f);
    printf("%.9e %.9e\n", f.total, probe_sum(f.tmp, f.n));
    free(f.v); free(f.tmp);
    return 0;
}
