/* bindgold-nests.c -- nests the golden binder test (bindgold.sh) adds to
 * the PolyBench-style kernels: a tiled loop whose inner trip is a min()
 * of the tile's variable (a bounded trip count), a gather through an
 * index array, a column walk, an OpenMP loop with a triangular inner
 * loop (the heaviest static chunk), a strided walk with a step, and a
 * bound the runtime cannot evaluate (a structure member). */
#define MIN(a, b) ((a) < (b) ? (a) : (b))

struct vec { int len; double *v; };

void tiled(int n, int b, double a[n][n], double c[n][n])
{
    for (int ii = 0; ii < n; ii += 32)
        for (int i = ii; i < MIN(ii + 32, n); i++)
            for (int j = 0; j < n; j++)
                c[i][j] = a[j][i] * 2.0 + b;
}

void gather(int n, int m, const int *idx, const double *x, double *y)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < m; k++)
            y[i] += x[idx[i * m + k]];
}

void column(int n, int m, double a[n][m], double *s)
{
    for (int j = 0; j < m; j++)
        for (int i = 0; i < n; i++)
            s[j] += a[i][j];
}

void tri(int n, double a[n][n], double *x)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            x[i] += a[i][j] * x[j];
}

void stepped(int n, int s, double *a, double *b)
{
    for (int i = 0; i < n; i += 4)
        for (int j = 0; j < s; j++)
            a[i * s + j] = b[j * n + i] + 1.0;
}

void member(struct vec *v, double *out)
{
    for (int i = 0; i < v->len; i++)
        for (int j = 0; j < 8; j++)
            out[i * 8 + j] = v->v[i] * j;
}
