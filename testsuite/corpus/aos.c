/*
 * aos.c -- corpus kernels: arrays of structures (particles) and writes
 * through struct members and pointers to elements.  Labels as in sparse.c.
 */
typedef struct {
    double x, y, vx, vy, m;
} particle;

typedef struct {
    double x, v;
} pt;

/* Drift: x += v dt for every particle. */
void drift(int n, particle *p, double dt)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        p[i].x += dt * p[i].vx;
        p[i].y += dt * p[i].vy;
    }
}

/* Kinetic energy of all particles. */
double kinetic(int n, const particle *p)
{
    double e = 0.0;
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        e += 0.5 * p[i].m * (p[i].vx * p[i].vx + p[i].vy * p[i].vy);
    return e;
}

/* Running position: each x from the previous particle's x. */
void chain_positions(int n, pt *p)
{
    for (int i = 1; i < n; i++) // V:sequential I:stream
        p[i].x = p[i - 1].x + p[i].v;
}

/* Shift one field left in place. */
void shift_field(int n, pt *q)
{
    for (int i = 0; i < n - 1; i++) // V:sequential I:stream
        q[i].x = q[i + 1].x;
}

/* Update through a pointer to the element. */
void kick(int n, particle *p, double dt)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        particle *q = &p[i];
        q->vx += dt / q->m;
    }
}

/* Copy one field into another of the same element: no carried dependence. */
void copy_field(int n, pt *p)
{
    for (int i = 0; i < n; i++) // V:parallel I:stream
        p[i].v = p[i].x;
}

/* Accumulate into a struct through a pointer parameter. */
typedef struct {
    double sum;
    int count;
} stats;

void accumulate(int n, const double *a, stats *st)
{
    for (int i = 0; i < n; i++) { // V:reduction I:reduction
        st->sum += a[i];
        st->count += 1;
    }
}

/* Centre of mass: three scalar reductions. */
void centre(int n, const particle *p, double *cx, double *cy)
{
    double sx = 0.0, sy = 0.0, sm = 0.0;
    for (int i = 0; i < n; i++) { // V:reduction I:reduction
        sx += p[i].m * p[i].x;
        sy += p[i].m * p[i].y;
        sm += p[i].m;
    }
    *cx = sx / sm;
    *cy = sy / sm;
}
