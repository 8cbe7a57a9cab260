/* spans-nests.c -- nests whose accesses take each route of the site
 * plan's footprint walk (facts.c, bind_spans_plan): constant differences
 * (a span program), a difference that is a symbol (the per-call states),
 * a gather (no difference: unknown from its loop out), an access invariant
 * in a loop, a triangular nest and a time-stepped region.  spans.sh binds
 * them with rt_fastpath against the plain evaluation. */
void constant(int n, int m, double a[n][m], double b[n][m], double c[m])
{
    #pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i][j] = b[i][j] * 2 + c[j];
}

void symbolic(int n, int m, int s, double *a, const double *b)
{
    #pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i * s + j] = b[j * s + i] + b[i * s + j];
}

void gather(int n, int m, double *a, const double *b, const int *idx)
{
    #pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            a[i * m + j] = b[idx[i]] + b[idx[j] * m + i];
}

void invariant(int n, int m, int k, double *y, const double *x, const double *w)
{
    #pragma omp parallel for
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < m; j++)
            s += w[k * m + j] * x[j];
        y[i] = s;
    }
}

void triangle(int n, double a[n][n], double b[n][n])
{
    #pragma omp parallel for
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
            a[i][j] = b[j][i] + a[i][j];
}

void steps(int t, int n, double *u, double *v)
{
    for (int s = 0; s < t; s++) {
        #pragma omp parallel for
        for (int i = 1; i < n - 1; i++)
            v[i] = (u[i - 1] + u[i] + u[i + 1]) / 3;
        #pragma omp parallel for
        for (int i = 1; i < n - 1; i++)
            u[i] = v[i];
    }
}
