/*
 * scan.c -- corpus kernels: prefix sums and recurrences (carried by their
 * loop), next to the differences and shifts that are parallel.  Labels as
 * in sparse.c.
 */

/* Inclusive prefix sum in place. */
void prefix_inplace(int n, double *a)
{
    for (int i = 1; i < n; i++) // V:sequential I:stream
        a[i] += a[i - 1];
}

/* Inclusive prefix sum into a second array. */
void prefix_copy(int n, const double *a, double *b)
{
    b[0] = a[0];
    for (int i = 1; i < n; i++) // V:sequential I:stream
        b[i] = b[i - 1] + a[i];
}

/* Running sum kept in a scalar and stored every iteration. */
void running_sum(int n, const double *a, double *b)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) { // V:sequential I:reduction,stream
        s += a[i];
        b[i] = s;
    }
}

/* First-order linear recurrence x[i] = c*x[i-1] + b[i]. */
void linear_recurrence(int n, double c, const double *b, double *x)
{
    for (int i = 1; i < n; i++) // V:sequential I:stream
        x[i] = c * x[i - 1] + b[i];
}

/* Backward differences: each element from two inputs, no carried dependence. */
void differences(int n, const double *a, double *d)
{
    for (int i = 1; i < n; i++) // V:parallel I:stencil
        d[i] = a[i] - a[i - 1];
}

/* Shift left in place: reads the element the next iteration overwrites. */
void shift_left(int n, double *a)
{
    for (int i = 0; i < n - 1; i++) // V:sequential I:stream
        a[i] = a[i + 1];
}

/* Exclusive scan through a scalar carry. */
void exclusive_scan(int n, const int *a, int *b)
{
    int carry = 0;
    for (int i = 0; i < n; i++) { // V:sequential I:reduction,stream
        b[i] = carry;
        carry += a[i];
    }
}

/* Stream compaction: the output position is a counter advanced conditionally. */
int compact(int n, const double *a, double *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) // V:sequential I:-
        if (a[i] != 0.0)
            out[k++] = a[i];
    return k;
}
