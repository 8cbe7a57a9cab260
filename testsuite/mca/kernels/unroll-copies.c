/* Which copy did the unroller unroll?  Each loop is versioned into a vector
 * copy and a scalar copy (runtime alias checks), and the unroll remarks do
 * not say which copy they were about; compiled for plain x86-64 at -O2:
 *   edge_rows' j loop: one remark (2), about the vector copy (VF 2,
 *     unrolled by 2: 4 source iterations per assembly iteration);
 *   copy_back's first p loop: remarks 2 and 4, the vector copy (VF 2 x
 *     IC 2) unrolled by 2 (8), the scalar one by 4; its second p loop:
 *     remarks 2 and 5, the vector copy by 2 (8), the scalar one by 5;
 *   scale_rows' j loop: one remark (2), about the scalar copy (the vector
 *     copy, VF 2 x IC 2, runs 4). */
#define W 600
#define H 400

void edge_rows(int h, double out[W][H], double in[W][H], double a, double b, double c)
{
    for (int j = 0; j < H; j++) {
        out[0][j] = a * in[0][j];
        out[1][j] = a * in[1][j] + b * in[0][j] + c * out[0][j];
    }
}

void copy_back(int n, int m, double dst[W][H], double tmp[H], double src[W][H])
{
    for (int r = 0; r < n; r++) {
        for (int p = 0; p < H; p++)
            tmp[p] = src[r][p] * 0.5;
        for (int p = 0; p < H; p++)
            dst[r][p] = tmp[p];
    }
}

void scale_rows(int n, double x[W][H], double y[W][H])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < H; j++)
            y[i][j] = x[i][j] * 3.0 + y[i][j];
}
