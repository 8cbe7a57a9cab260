/*
 * nussinov.c -- Nussinov's RNA folding (maximum number of nested base pairs),
 * written from its recurrence.  With seq[0..N-1] a sequence of bases
 * and match(x, y) = 1 when x and y are complementary (A-U or C-G), else 0,
 * the best score of the subsequence seq[i..j] is
 *
 *     table[i][j] = max( table[i+1][j],                  (i unpaired)
 *                        table[i][j-1],                  (j unpaired)
 *                        table[i+1][j-1] + match(i, j),  (i pairs with j,
 *                                                         only if j > i+1)
 *                        max_{i<k<j} table[i][k] + table[k+1][j] )  (split)
 *
 * with table[i][j] = 0 when j <= i.  i runs downwards and j upwards, so every
 * entry it reads is already final.  The answer is table[0][N-1]; the whole
 * table (an int array) is checksummed through a copy into doubles.
 */
#include <stdio.h>

#include "polybench.h"
#include "nussinov.h"

static inline DATA_TYPE max_score(DATA_TYPE s1, DATA_TYPE s2)
{
    return s1 >= s2 ? s1 : s2;
}

static inline DATA_TYPE match(base b1, base b2)
{
    return b1 + b2 == 3 ? 1 : 0;
}

static void init_array(int n, base POLYBENCH_1D(seq, N, n),
                       DATA_TYPE POLYBENCH_2D(table, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++)
        seq[i] = (base)((i * 5 + i / 7 + 1) % 4);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            table[i][j] = 0;
}

static void kernel_nussinov(int n, base POLYBENCH_1D(seq, N, n),
                            DATA_TYPE POLYBENCH_2D(table, N, N, n, n))
{
    int i, j, k;

#pragma scop
    for (i = _PB_N - 1; i >= 0; i--)
        for (j = i + 1; j < _PB_N; j++) {
            table[i][j] = max_score(table[i + 1][j], table[i][j - 1]);
            if (j - 1 > i)
                table[i][j] = max_score(table[i][j], table[i + 1][j - 1] + match(seq[i], seq[j]));
            for (k = i + 1; k < j; k++)
                table[i][j] = max_score(table[i][j], table[i][k] + table[k + 1][j]);
        }
#pragma endscop
}

static void table_to_double(int n, DATA_TYPE POLYBENCH_2D(table, N, N, n, n),
                            double POLYBENCH_2D(out, N, N, n, n))
{
    int i, j;

    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            out[i][j] = (double)table[i][j];
}

int main(void)
{
    int n = N;
    POLYBENCH_1D_ARRAY_DECL(seq, base, N, n);
    POLYBENCH_2D_ARRAY_DECL(table, DATA_TYPE, N, N, n, n);
    POLYBENCH_2D_ARRAY_DECL(table_d, double, N, N, n, n);

    init_array(n, POLYBENCH_ARRAY(seq), POLYBENCH_ARRAY(table));

    polybench_start_instruments;
    kernel_nussinov(n, POLYBENCH_ARRAY(seq), POLYBENCH_ARRAY(table));
    polybench_stop_instruments;
    polybench_print_instruments;

    table_to_double(n, POLYBENCH_ARRAY(table), POLYBENCH_ARRAY(table_d));
    POLYBENCH_CHECKSUM("table", POLYBENCH_ARRAY(table_d), n * n);

    POLYBENCH_FREE_ARRAY(seq);
    POLYBENCH_FREE_ARRAY(table);
    POLYBENCH_FREE_ARRAY(table_d);
    return 0;
}
