/* Running counters stepped in an inner loop and read as subscripts there
 * (`b[k]; k++`): inside that loop k is an induction, across the outer
 * loop its value is what the earlier iterations left, so the outer loop
 * carries k (no reduction); reset before the inner loop, k is private.
 * And a scalar set first in every iteration, then scaled in place
 * (`v = a[i]; v *= b[i]`): private, no reduction. */
void unpack_rows(int nr, int m, double *out, const double *buf)
{
    int k = 0;
    for (int r = 0; r < nr; r++) { // V:sequential I:-
        for (int i = 0; i < m; i++) { // V:parallel I:stream
            out[r * m + i] = buf[k];
            k++;
        }
    }
}

void unpack_cells(int nc, const int *cell, const int *cnt, double *out, const double *buf)
{
    int k = 0;
    for (int c = 0; c < nc; c++) { // V:sequential I:-
        int off = cell[c] * 8;
        for (int i = off; i < off + cnt[c]; i++) { // V:parallel I:gather
            out[i] = buf[k];
            ++k;
        }
    }
}

void pack_rows(int nr, int m, const double *in, double *buf)
{
    int k = 0;
    for (int r = 0; r < nr; r++) { // V:sequential I:-
        for (int i = 0; i < m; i++) { // V:parallel I:stream
            buf[k] = 2.0 * in[r * m + i];
            k += 1;
        }
    }
}

void reset_rows(int nr, int m, double *out, const double *buf)
{
    for (int r = 0; r < nr; r++) { // V:parallel I:-
        int k = r * m;
        for (int i = 0; i < m; i++) { // V:parallel I:stream
            out[r * m + i] = buf[k];
            k++;
        }
    }
}

void count_rows(int nr, int m, const double *a, int *n)
{
    int k = 0;
    for (int r = 0; r < nr; r++) { // V:reduction I:-
        for (int i = 0; i < m; i++) // V:reduction I:reduction
            if (a[r * m + i] > 0.0)
                k++;
    }
    *n = k;
}

void gate(int n, const float *a, const float *b, float *y)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        float v = a[i];
        v *= 1.0f / (1.0f + v * v);
        v *= b[i];
        y[i] = v;
    }
}

void phase(int n, const double *k0, double e, double *re)
{
    for (int i = 0; i < n; i++) { // V:parallel I:stream
        double p = k0[i] * e;
        if (i % 3 == 1)
            p -= 0.5 * p * p;
        else if (i % 3 == 2)
            p -= 0.25 * p;
        re[i] = p;
    }
}
