/*
 * histo.c -- corpus kernels: histograms, particle deposit and pair forces
 * (updates of an array through computed indices).  Labels as in sparse.c.
 */

/* Count of each key. */
void histogram_keys(int n, const unsigned char *key, int *h)
{
    for (int i = 0; i < n; i++) // V:reduction I:histogram
        h[key[i]] += 1;
}

/* Bin a value range into nb bins through a local index. */
void histogram_binned(int n, int nb, const float *x, float lo, float scale, int *h)
{
    for (int i = 0; i < n; i++) { // V:reduction I:histogram
        int b = (int)((x[i] - lo) * scale);
        h[b] += 1;
    }
}

/* Nearest-grid-point charge deposit: each particle adds its charge to its cell. */
void deposit_ngp(int np, const double *px, const double *q, double dx, double *rho)
{
    for (int p = 0; p < np; p++) { // V:reduction I:histogram
        int c = (int)(px[p] / dx);
        rho[c] += q[p];
    }
}

/* Spring forces along edges: both ends get a contribution through local indices. */
void edge_forces(int ne, const int *ea, const int *eb, const double *x, double k, double *f)
{
    for (int e = 0; e < ne; e++) { // V:reduction I:gather,histogram
        int i = ea[e];
        int j = eb[e];
        double d = k * (x[j] - x[i]);
        f[i] += d;
        f[j] -= d;
    }
}

/* Neighbour-list force loop: a direct write per particle, indirect reads. */
void neighbour_sum(int n, int maxnb, const int *nbr, const double *q, double *phi)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        double s = 0.0;
        for (int m = 0; m < maxnb; m++) { // V:reduction I:gather,reduction
            int j = nbr[i * maxnb + m];
            s += q[j];
        }
        phi[i] = s;
    }
}

/* Class counts, two-level: per class and total. */
void class_count(int n, const int *cls, int *count)
{
    for (int i = 0; i < n; i++) // V:reduction I:histogram
        count[cls[i]]++;
}
