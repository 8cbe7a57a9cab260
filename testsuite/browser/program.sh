# program.sh DIR -- writes DIR/k.c, the program both tests of this folder
# build: 13 loop nests of known kinds, and a main that runs five of them at
# known sizes (n = 300 for the matmul and the copy, 90000 for s1..s3).
#   N1  mm      matmul, parallel: the GPU wins at n = 300
#   N2  recur   a first-order recurrence: not parallel (distance 1)
#   N3  copy    a stream: the GPU wins only from a crossover above n = 1000
#   N4  scale   bound count(n), a call: the models cannot evaluate it
#   N5..N13     s1..s9, streams x[i] = k * x[i] (N5..N7 run, the others not)
mkdir -p "$1"
{
cat <<'C'
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) int count(int n) { return n; }
void mm(int n, double A[n][n], double B[n][n], double C[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i][j] += A[i][k] * B[k][j];
}

void recur(int n, double *x)
{
    for (int i = 1; i < n; i++)
        x[i] = x[i - 1] * 0.5 + x[i];
}

void copy(int n, double *restrict a, const double *restrict b)
{
    for (int i = 0; i < n; i++)
        a[i] = b[i];
}

void scale(int n, double *restrict x)
{
    for (int i = 0; i < count(n); i++)
        x[i] *= 2;
}
C
for k in 1 2 3 4 5 6 7 8 9; do
    printf 'void s%d(int n, double *x)\n{\n    for (int i = 0; i < n; i++)\n        x[i] = %d * x[i];\n}\n\n' $k $k
done
cat <<'C'
int main(void)
{
    int n = 300;
    double (*A)[n] = calloc(n * n, 8), (*B)[n] = calloc(n * n, 8), (*C)[n] = calloc(n * n, 8);
    double *x = calloc(2 * n * n, 8);
    mm(n, A, B, C);
    recur(n * n, x);
    copy(n, x, x + n);
    scale(n, x);
    s1(n * n, x);
    s2(n * n, x);
    s3(n * n, x);
    printf("%g\n", C[1][1] + x[2]);
    return 0;
}
C
} > "$1/k.c"
