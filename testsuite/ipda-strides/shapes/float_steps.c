/* A floating-point scalar stepped by a loop-invariant amount is a sum,
 * not an induction variable (i*g rounds otherwise than g added i times);
 * an integer one is an induction. */
double g;

double add_invariant(long n)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) // V:reduction
        s += g;
    return s;
}

float add_constant(long n)
{
    float s = 0.0f;
    for (long i = 0; i < n; i++) // V:reduction
        s += 0.1f;
    return s;
}

void offsets(long n, long m, long *out)
{
    long k = 0;
    for (long i = 0; i < n; i++) { // V:parallel
        out[i] = k;
        k += m;
    }
}
