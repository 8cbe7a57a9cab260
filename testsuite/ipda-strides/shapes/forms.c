/* Counted loops in other spellings: a macro, while and do loops. */
#define EACH(v, count) for (int v = 0; v < (count); v++)

void axpy_macro(int n, double a, const double *x, double *y)
{
    EACH(i, n) // V:parallel
        y[i] += a * x[i];
}

void axpy_macro_line(int n, double a, const double *x, double *y)
{
    EACH(i, n) y[i] += a * x[i]; // V:parallel
}

void shift_macro(int n, double *y)
{
    EACH(i, n - 1) { // V:sequential
        y[i + 1] = y[i];
    }
}

void scale_while(int n, float *v)
{
    int i = 0;
    while (i < n) { // V:parallel
        v[i] = v[i] * 2.0f;
        i++;
    }
}

void scale_do(int n, float *v)
{
    int i = 0;
    do { // V:parallel
        v[i] = v[i] + 1.0f;
        i += 1;
    } while (i < n);
}

void recur_while(int n, float *v)
{
    int i = 1;
    while (i < n) { // V:sequential
        v[i] = v[i - 1] * 0.5f;
        i++;
    }
}

void clear_down(int n, double *c)
{
    int i = n;
    while (i-- > 0) // V:parallel
        c[i] = 0.0;
}

void shift_down(int n, double *c)
{
    int i = n - 1;
    while (i-- > 0) // V:sequential
        c[i] = c[i + 1];
}

void bound_moves(int n, float *v)
{
    int i = 0;
    while (i < n) { // V:sequential
        v[i] = 0.0f;
        n -= v[i] > 1.0f;
        i++;
    }
}

void step_skipped(int n, float *v)
{
    int i = 0;
    while (i < n) { // V:unknown
        if (v[i] < 0.0f) {
            i += 2;
            continue;
        }
        v[i] = 1.0f;
        i++;
    }
}

void from_two(int n, double *a)
{
    int i = 2;
    for (; i < n; i++) // V:sequential
        a[i] = a[i - 2] + 1.0;
}

void fill_no_init(int n, double *a)
{
    int i;
    i = 1;
    for (; i < n; i++) // V:parallel
        a[i] = 0.5;
}

int start_moved(int n, double *a, int x)
{
    int i = 0;
    if (x-- > 0)
        i = x;
    while (i < n) { // V:unknown
        a[i] = 1.0;
        i++;
    }
    return i;
}
