/*
 * loops.c -- corpus kernels: loops as people write them (while, do, for
 * with break, downward and strided loops, conditions written `i + m <= n`,
 * string loops).  Labels as in sparse.c.  A loop whose trip count depends
 * on the data it reads, or that exits early, is labelled sequential.
 */

void copy_while(int n, const double *a, double *b)
{
    int i = 0;
    while (i < n) { // V:parallel I:stream
        b[i] = a[i];
        i++;
    }
}

void scale_do(int n, const double *a, double *b)
{
    int i = 0;
    do { // V:parallel I:stream
        b[i] = 2.0 * a[i];
        i += 1;
    } while (i < n);
}

void reverse_copy(int n, const double *a, double *b)
{
    for (int i = n - 1; i >= 0; i--) // V:parallel I:stream
        b[i] = a[n - 1 - i];
}

void pairs(int n, const double *a, double *b)
{
    for (int i = 0; i + 1 < n; i += 2) { // V:parallel I:stencil
        b[i] = a[i] + a[i + 1];
        b[i + 1] = a[i] - a[i + 1];
    }
}

/* Windowed difference with the condition written i + m <= n. */
void window_diff(int n, int m, const double *a, double *d)
{
    for (int i = 0; i + m <= n; i++) // V:parallel I:stream
        d[i] = a[i + m] - a[i];
}

/* First index holding key, or -1: exits early. */
int find_first(int n, const int *a, int key)
{
    int pos = -1;
    for (int i = 0; i < n; i++) // V:sequential I:-
        if (a[i] == key) {
            pos = i;
            break;
        }
    return pos;
}

int string_length(const char *s)
{
    int n = 0;
    while (s[n] != '\0') // V:sequential I:-
        n++;
    return n;
}

/* Upper-case an ASCII string up to its terminator. */
void to_upper(const char *s, char *t)
{
    int i;
    for (i = 0; s[i] != '\0'; i++) // V:sequential I:stream
        t[i] = s[i] >= 'a' && s[i] <= 'z' ? s[i] - 32 : s[i];
    t[i] = '\0';
}

/* Clear backwards with the decrement in the condition. */
void clear_down(int n, double *c)
{
    int i = n;
    while (i-- > 0) // V:parallel I:stream
        c[i] = 0.0;
}

/* Sum of a vector with a while loop. */
double sum_while(int n, const double *a)
{
    double s = 0.0;
    int i = 0;
    while (i < n) { // V:reduction I:reduction
        s += a[i];
        i++;
    }
    return s;
}

/* Count characters equal to c in a string of known length. */
int count_char(int n, const char *s, char c)
{
    int k = 0;
    for (int i = 0; i < n; i++) // V:reduction I:reduction
        if (s[i] == c)
            k++;
    return k;
}
