/* Indices computed in the body and held in locals: indirect accesses
 * (gather, scatter, histogram), never the same element every iteration. */
void count_bins(int n, const int *bin, int *hist)
{
    for (int i = 0; i < n; i++) { // V:reduction I:histogram
        int b = bin[i];
        hist[b] += 1;
    }
}

void clamp_bins(int n, const int *bin, double *hist, int nb)
{
    for (int i = 0; i < n; i++) { // V:unknown I:histogram
        int b = bin[i];
        if (b >= nb)
            b = nb - 1;
        hist[b] += 0.25 * hist[b - 1];
    }
}

void pick(int n, const int *perm, const double *x, double *y)
{
    for (int i = 0; i < n; i++) { // V:parallel I:gather
        int j = perm[i];
        y[i] = x[j];
    }
}

void spread(int n, const int *perm, const double *x, double *y)
{
    for (int i = 0; i < n; i++) { // V:unknown I:scatter
        int t = perm[i] + 1;
        y[t] = x[i];
    }
}
