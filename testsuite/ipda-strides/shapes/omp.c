/* OpenMP clauses as evidence; a pragma never hides a dependence. */
void boxes(int n, const int *kind, const double *a, const double *b, double *out)
{
    int sel;
#pragma omp parallel for private(sel)
    for (int i = 0; i < n; i++) { // V:parallel
        if (kind[i] > 0)
            sel = i;
        else
            sel = n - 1 - i;
        out[i] = a[sel] + b[sel];
    }
}

void wrong_pragma(int n, double *a)
{
#pragma omp parallel for
    for (int i = 1; i < n; i++) // V:sequential
        a[i] = a[i - 1] + 1.0;
}

double sum_clause(int n, const double *a)
{
    double s = 0.0, t = 0.0;
#pragma omp parallel for reduction(+:s, t)
    for (int i = 0; i < n; i++) { // V:reduction
        s = s + a[i];
        t += a[i] * a[i];
    }
    return s + t;
}

void private_but_read_first(int n, const double *a, double *b)
{
    double last = 0.0;
#pragma omp parallel for private(last)
    for (int i = 0; i < n; i++) { // V:sequential
        b[i] = last;
        last = a[i];
    }
}
