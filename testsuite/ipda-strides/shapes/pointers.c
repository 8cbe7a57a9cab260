/* Pointers advanced by a constant each iteration, in the for header or in
 * the body: their accesses are affine in the iteration. */
void dup_scaled(int n, float *dst, const float *src)
{
    for (int i = 0; i < n; i++, dst++, src++) // V:parallel
        *dst = 3.0f * *src;
}

void running(int n, double *x)
{
    double *p = x + 1;
    for (int i = 1; i < n; i++, p++) // V:sequential
        *p = p[-1] * 0.5 + 2.0;
}

void in_place_scale(int n, double *x)
{
    double *p = x;
    for (int i = 0; i < n; i++, p++) // V:parallel
        p[0] *= 0.75;
}

void carry_next(int n, int *x)
{
    int *p = x;
    for (int i = 0; i + 1 < n; i++, p++) // V:sequential
        p[1] += *p;
}

void body_steps(int n, double *dst, const double *src)
{
    for (int i = 0; i < n; i++) { // V:parallel
        *dst = *src + 1.0;
        dst++;
        src++;
    }
}

void odd_to_even(int n, double *x)
{
    double *p = x;
    for (int i = 0; i < n; i++, p += 2) // V:parallel
        p[0] = p[1];
}

void backward(int n, double *x)
{
    double *p = x + n - 1;
    for (int i = 0; i < n - 1; i++, p--) // V:sequential
        p[-1] += p[0];
}

void companion_shift(int n, double *a)
{
    int j;
    int i;
    for (i = 0, j = 1; i < n - 1; i++, j++) // V:sequential
        a[i] = a[j];
}

void companion_disjoint(int n, double *a, const double *b)
{
    int j;
    int i;
    for (i = 0, j = n; i < n; i++, j++) // V:parallel
        a[i] = b[j];
}

void param_prefix(int n, long *p)
{
    for (int i = 1; i < n; i++) { // V:sequential
        p++;
        *p += p[-1];
    }
}

void post_steps(int n, float *d, const float *s)
{
    for (int i = 0; i < n; i++) // V:parallel I:stream
        *d++ = *s++ * 0.5f;
}

void post_prefix(int n, double *x)
{
    double *p = x + 1;
    for (int i = 1; i < n; i++) { // V:sequential
        double v = p[-1];
        *p++ = v + 1.0;
    }
}

void add_own_element(int n, double *x)
{
    double *bias = &x[10];
    for (int i = 0; i < n; i++) // V:sequential
        x[i] += *bias;
}

void minus_row(int n, int m, double g[n][m])
{
    const double *r = g[3];
    for (int i = 0; i < n; i++) // V:sequential
        for (int j = 0; j < m; j++) // V:parallel
            g[i][j] -= r[j];
}
