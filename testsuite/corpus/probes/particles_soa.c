/*
 * particles_soa.c -- particles as a structure of arrays: a drift step on
 * every coordinate, and the kinetic energy (a sum over particles).
 */
#include "probe.h"

struct particles { double *x, *y, *vx, *vy, *m; long n; };

static void drift(struct particles *p, double dt)
{
    long n = p->n;
    double *x = p->x, *y = p->y;
    const double *vx = p->vx, *vy = p->vy;
    for (long i = 0; i < n; i++) { // V:parallel I:stream S:x=1,y=1,vx=1,vy=1
        x[i] += dt * vx[i];
        y[i] += dt * vy[i];
    }
}

static double kinetic(const struct particles *p)
{
    double e = 0.0;
    for (long i = 0; i < p->n; i++) // V:reduction I:reduction
        e += 0.5 * p->m[i] * (p->vx[i] * p->vx[i] + p->vy[i] * p->vy[i]);
    return e;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    struct particles p = { probe_alloc(n), probe_alloc(n), probe_alloc(n), probe_alloc(n),
                           probe_alloc(n), n };
    probe_fill(p.x, n, 84);
    probe_fill(p.y, n, 85);
    probe_fill(p.vx, n, 86);
    probe_fill(p.vy, n, 87);
    probe_fill(p.m, n, 88);
    drift(&p, 0.01);
    printf("%.9e %.9e %.9e\n", probe_sum(p.x, n), probe_sum(p.y, n), kinetic(&p));
    free(p.x); free(p.y); free(p.vx); free(p.vy); free(p.m);
    return 0;
}
