/*
 * probes.c -- corpus kernels: unsafe shapes.  Every loop here whose label
 * is sequential carries a dependence that hides behind a local pointer, a
 * local index, a counter, a struct member or a compound assignment through
 * an unusual lvalue; calling any of them parallel (or a reduction) is the
 * error keel must never make.  Labels as in sparse.c.
 */

void ptr_local_prefix(int n, double *a)
{
    for (int i = 1; i < n; i++) { // V:sequential I:stream
        double *p = a + i;
        *p += *(p - 1);
    }
}

void ptr_local_copy(int n, double *d)
{
    for (int i = 1; i < n; i++) { // V:sequential I:stream
        double *p = &d[i];
        p[0] = 0.5 * p[-1] + 1.0;
    }
}

void ptr_local_parallel(int n, const double *a, double *b)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        double *p = b + i;
        *p = 2.0 * a[i];
    }
}

/* The pointer is set before the loop: p[i] is a[i + 1]. */
void ptr_alias_outside(int n, double *a)
{
    double *p = a + 1;
    for (int i = 0; i < n - 1; i++) // V:sequential I:stream
        p[i] = a[i] * 0.5;
}

/* A walking pointer. */
void ptr_walk(int n, double *a)
{
    double *p = a + 1;
    for (int i = 1; i < n; i++) { // V:sequential I:stream
        *p = *(p - 1) + 1.0;
        p++;
    }
}

void counter_prefix(int n, double *b)
{
    int k = 1;
    for (int i = 1; i < n; i++) { // V:sequential I:stream
        b[k] += b[k - 1];
        k++;
    }
}

void counter_prefix_pluseq(int n, double *b)
{
    int k = 1;
    for (int i = 1; i < n; i++) { // V:sequential I:stream
        b[k] += b[k - 1];
        k += 1;
    }
}

/* The second update of each iteration meets the first of the next; both
 * are += updates, which commute: an array reduction, not a parallel loop
 * (label corrected from sequential, see the commit message). */
void counter_overlap(int n, const double *x, double *e)
{
    int m = 0;
    for (int i = 0; i < n; i++) { // V:reduction I:stream
        e[m] += x[i];
        m += 1;
        e[m] += x[i];
    }
}

/* Counter stepping by two: independent elements. */
void counter_stride2(int n, const double *x, double *e)
{
    int m = 0;
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        e[m] = x[i];
        m += 2;
    }
}

void local_index_prev(int n, double *c)
{
    for (int i = 1; i < n; i++) { // V:sequential I:stream
        int j = i - 1;
        c[i] += c[j];
    }
}

void local_index_scatter(int n, const int *idx, const double *in, double *out)
{
    for (int i = 0; i < n; i++) { // V:unknown I:scatter
        int j = idx[i];
        out[j] = in[i];
    }
}

/* An index variable declared outside and set in the body. */
void local_index_outer(int n, double *c)
{
    int j;
    for (int i = 2; i < n; i++) { // V:sequential I:stream
        j = i - 2;
        c[i] = c[j] + 1.0;
    }
}

/* The index set at the end of the body is used at the start of the next iteration. */
void index_from_previous(int n, double *c)
{
    int j = 0;
    for (int i = 1; i < n; i++) { // V:sequential I:-
        c[j] = c[i] + 1.0;
        j = i;
    }
}

/* A scalar through a pointer parameter accumulated every iteration. */
void sum_into_pointer(int n, const double *a, double *sum)
{
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        *sum += a[i];
}

/* A conditional write ahead of the current element. */
void conditional_ahead(int n, double *a)
{
    for (int i = 0; i < n - 1; i++) // V:sequential I:stream
        if (a[i] < 0.0)
            a[i + 1] = 0.0;
}

/* A carried value through a scalar temporary. */
void carry_scalar(int n, double *a)
{
    double t = 0.0;
    for (int i = 0; i < n; i++) { // V:sequential I:stream
        a[i] = a[i] + t;
        t = a[i] * 0.5;
    }
}

/* Flattening copy with a counter across a 2-deep nest. */
void flatten_counter(int n, int m, const double A[n][m], double *b)
{
    int k = 0;
    for (int i = 0; i < n; i++) // V:parallel I:-
        for (int j = 0; j < m; j++) { // V:parallel I:stream
            b[k] = A[i][j];
            k++;
        }
}

/* A write through a pointer to pointer element. */
void write_through_table(int n, double **rows)
{
    for (int i = 1; i < n; i++) // V:sequential I:stream
        rows[i][0] = rows[i - 1][0] + 1.0;
}

/* A temporary row rewritten before it is read in every iteration: private
 * to the i loop (added with the privatisation, after the code). */
void private_row(int n, int m, const double A[n][m], double B[n][m], double *tmp)
{
    for (int i = 0; i < n; i++) { // V:parallel I:-
        for (int j = 0; j < m; j++) // V:parallel I:stream
            tmp[j] = 2.0 * A[i][j];
        for (int j = 0; j < m; j++) // V:parallel I:stream
            B[i][j] = tmp[j] + 1.0;
    }
}

/* The temporary is read before it is rewritten: the previous row flows in. */
void stale_row(int n, int m, const double A[n][m], double B[n][m], double *tmp)
{
    for (int i = 0; i < n; i++) { // V:sequential I:-
        for (int j = 0; j < m; j++) // V:parallel I:stream
            B[i][j] = tmp[j] + 1.0;
        for (int j = 0; j < m; j++) // V:parallel I:stream
            tmp[j] = 2.0 * A[i][j];
    }
}

/* Rewritten only under a condition: not private. */
void maybe_row(int n, int m, const double A[n][m], double B[n][m], double *tmp)
{
    for (int i = 0; i < n; i++) { // V:sequential I:-
        if (A[i][0] > 0.0)
            for (int j = 0; j < m; j++) // V:parallel I:stream
                tmp[j] = 2.0 * A[i][j];
        for (int j = 0; j < m; j++) // V:parallel I:stream
            B[i][j] = tmp[j] + 1.0;
    }
}
