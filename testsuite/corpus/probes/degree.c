/*
 * degree.c -- graph bookkeeping: vertex degrees from an edge list (two
 * endpoints held in locals, both counted), and the mean of the
 * neighbours' values through the same edge list.
 */
#include "probe.h"

static void degrees(long ne, const int *eu, const int *ev, int *deg)
{
    for (long e = 0; e < ne; e++) { // V:reduction I:histogram
        int u = eu[e], v = ev[e];
        deg[u]++;
        deg[v]++;
    }
}

static void neighbour_sum(long ne, const int *eu, const int *ev, const double *val, double *acc)
{
    for (long e = 0; e < ne; e++) { // V:reduction I:gather,histogram
        int u = eu[e], v = ev[e];
        double vu = val[u], vv = val[v];
        acc[u] += vv;
        acc[v] += vu;
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long nv = large ? 1000000 : 200, ne = 4 * nv;
    int *eu = probe_alloc_int(ne), *ev = probe_alloc_int(ne), *deg = probe_alloc_int(nv);
    double *val = probe_alloc(nv), *acc = probe_alloc(nv);
    probe_fill_int(eu, ne, 30, (int)nv);
    probe_fill_int(ev, ne, 31, (int)nv);
    probe_fill(val, nv, 32);
    degrees(ne, eu, ev, deg);
    neighbour_sum(ne, eu, ev, val, acc);
    printf("%ld %.9e\n", probe_isum(deg, nv), probe_sum(acc, nv));
    free(eu); free(ev); free(deg); free(val); free(acc);
    return 0;
}
