/* Loops whose body changes their own control: the induction variable or a
 * variable of the condition.  Which iterations run depends on the body, so
 * none may run in parallel.  The label on each loop line is its verdict. */
void skip_large(int m, float *v, float t)
{
    for (int k = 0; k < m; k++) { // V:sequential
        v[k] = v[k] * 2.0f;
        if (v[k] > t)
            k += 3;
    }
}

void pairs(int m, const int *in, int *out)
{
    for (int j = 0; j < m; j++) { // V:sequential
        out[j] = in[j] + in[j + 1];
        j++;
    }
}

void tail_mirror(int len, const long *src, long *dst)
{
    for (int i = 0; i < len; i++) { // V:sequential
        dst[i] = src[len - 1];
        --len;
    }
}

void shrink_from_inner(int rows, int cols, double *g)
{
    for (int r = 0; r < rows; r++) // V:sequential
        for (int c = 0; c < cols; c++) // V:reduction
            if (g[r * cols + c] < 0.0)
                rows = r;
}

void limit_through_pointer(int n, double *w)
{
    int *lim = &n;
    for (int i = 0; i < n; i++) { // V:unknown
        w[i] = w[i] * 0.5;
        if (w[i] < 1e-9)
            (*lim)--;
    }
}

void plain(int n, double *w)
{
    for (int i = 0; i < n; i++) // V:parallel
        w[i] = 0.25 * i;
}

int find_first(int n, const int *a, int key, int *seen)
{
    int found = 0, i;
    for (i = 0; i < n && !found; i++) { // V:sequential
        seen[i] = 1;
        if (a[i] == key)
            found = 1;
    }
    return i;
}

void swap_ends(int n, double *a)
{
    for (int i = 0, j = n - 1; i < j; i++, j--) { // V:sequential
        double t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
