/* Associative folds of one scalar or one element: reductions. */
typedef struct { double top; int where; } best;

int all_positive(int n, const double *a)
{
    int ok = 1;
    for (int i = 0; i < n; i++) // V:reduction
        ok = ok && a[i] > 0.0;
    return ok;
}

int any_negative(int n, const double *a)
{
    int neg = 0;
    for (int i = 0; i < n; i++) // V:reduction
        neg = neg || a[i] < 0.0;
    return neg;
}

unsigned flags_or(int n, const unsigned *m)
{
    unsigned f = 0;
    for (int i = 0; i < n; i++) // V:reduction
        f |= m[i];
    return f;
}

unsigned flags_and(int n, const unsigned *m)
{
    unsigned f = ~0u;
    for (int i = 0; i < n; i++) // V:reduction
        f &= m[i];
    return f;
}

unsigned parity(int n, const unsigned *m)
{
    unsigned x = 0;
    for (int i = 0; i < n; i++) // V:reduction
        x ^= m[i];
    return x;
}

void member_max(best *b, int n, const double *a)
{
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        if (a[i] > b->top)
            b->top = a[i];
}

void row_best(int n, int m, const double *c, double *t)
{
    for (int i = 0; i < n; i++) // V:parallel
        for (int k = 0; k < m; k++) // V:reduction
            t[i] = t[i] >= c[i * m + k] ? t[i] : c[i * m + k];
}

int argmin(int n, const double *a)
{
    double lo = a[0];
    int at = 0;
    for (int i = 1; i < n; i++) { // V:reduction
        if (a[i] < lo) {
            lo = a[i];
            at = i;
        }
    }
    return at;
}

double not_a_fold(int n, const double *a)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) // V:sequential
        s = s * a[i] + 1.0;
    return s;
}

void member_argmax(best *b, int n, const double *a)
{
    for (int i = 0; i < n; i++) { // V:reduction I:reduction
        if (a[i] > b->top) {
            b->top = a[i];
            b->where = i;
        }
    }
}

void member_last_use(best *b, int n, const double *a, double *out)
{
    for (int i = 0; i < n; i++) { // V:sequential
        if (a[i] > b->top)
            b->top = a[i];
        out[i] = b->top;
    }
}
