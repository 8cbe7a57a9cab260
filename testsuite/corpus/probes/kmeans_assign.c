/*
 * kmeans_assign.c -- the assignment step of k-means on 2-D points: each
 * point finds its nearest centre (an argmin over the centres), then the
 * members of each cluster are counted and summed (histograms).
 */
#include "probe.h"

static void assign(long n, long k, const double *px, const double *py,
                   const double *cx, const double *cy, int *lab)
{
    for (long i = 0; i < n; i++) { // V:parallel I:stream S:px=1,py=1,lab=1,cx=0
        int best = 0;
        double dbest = 1e300;
        for (long c = 0; c < k; c++) { // V:reduction I:reduction
            double dx = px[i] - cx[c], dy = py[i] - cy[c];
            double d = dx * dx + dy * dy;
            if (d < dbest) {
                dbest = d;
                best = (int)c;
            }
        }
        lab[i] = best;
    }
}

static void accumulate(long n, const int *lab, const double *px, double *sx, long *cnt)
{
    for (long i = 0; i < n; i++) { // V:reduction I:histogram
        int c = lab[i];
        sx[c] += px[i];
        cnt[c]++;
    }
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 1000000 : 500, k = 8;
    double *px = probe_alloc(n), *py = probe_alloc(n), *cx = probe_alloc(k), *cy = probe_alloc(k);
    double sx[8] = { 0 };
    long cnt[8] = { 0 };
    int *lab = probe_alloc_int(n);
    probe_fill(px, n, 106);
    probe_fill(py, n, 107);
    probe_fill(cx, k, 108);
    probe_fill(cy, k, 109);
    assign(n, k, px, py, cx, cy, lab);
    accumulate(n, lab, px, sx, cnt);
    printf("%ld %.9e %ld\n", probe_isum(lab, n), probe_sum(sx, k), cnt[0] + 2 * cnt[7]);
    free(px); free(py); free(cx); free(cy); free(lab);
    return 0;
}
