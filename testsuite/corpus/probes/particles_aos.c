/*
 * particles_aos.c -- particles as an array of structures: a kick-drift
 * step through p[i].member, the centre of mass (three sums), and a
 * pairwise force accumulation (each particle sums over all others).
 */
#include "probe.h"

struct particle { double x, y, vx, vy, m, fx; };

static void kick_drift(long n, struct particle *p, double dt)
{
    for (long i = 0; i < n; i++) { // V:parallel I:stream
        p[i].vx += dt * p[i].fx / p[i].m;
        p[i].x += dt * p[i].vx;
        p[i].y += dt * p[i].vy;
    }
}

static void centre(long n, const struct particle *p, double *cx, double *cy)
{
    double sx = 0.0, sy = 0.0, sm = 0.0;
    for (long i = 0; i < n; i++) { // V:reduction I:reduction
        sx += p[i].m * p[i].x;
        sy += p[i].m * p[i].y;
        sm += p[i].m;
    }
    *cx = sx / sm;
    *cy = sy / sm;
}

static void forces(long n, struct particle *p)
{
    for (long i = 0; i < n; i++) { // V:parallel I:stream
        double f = 0.0;
        for (long j = 0; j < n; j++) { // V:reduction I:reduction
            double d = p[j].x - p[i].x;
            f += p[j].m * d / (d * d + 0.01);
        }
        p[i].fx = f;
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 20000 : 100;
    struct particle *p = calloc((size_t)n, sizeof *p);
    double *v = probe_alloc(5 * n), cx, cy;
    if (!p) return 1;
    probe_fill(v, 5 * n, 89);
    for (long i = 0; i < n; i++) { // V:parallel I:stream
        p[i].x = v[5 * i];
        p[i].y = v[5 * i + 1];
        p[i].vx = v[5 * i + 2] - 0.5;
        p[i].vy = v[5 * i + 3] - 0.5;
        p[i].m = 1.0 + v[5 * i + 4];
    }
    forces(n, p);
    kick_drift(n, p, 0.01);
    centre(n, p, &cx, &cy);
    printf("%.9e %.9e\n", cx, cy);
    free(p); free(v);
    return 0;
}
