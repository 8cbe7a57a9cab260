/*
 * gpu-probe.cu -- measures the numbers a keel GPU profile holds, on the GPU
 * at hand, and prints them as profile lines (machines as data):
 *   bus_bw       host->device cudaMemcpy from pageable memory (what an
 *                OpenMP `map(to:)` of malloc'ed data does), 256 MiB
 *   launch       an empty kernel launched and synchronised, mean of 2000
 *   mem_bw       a grid-stride copy kernel over 2 x 1 GiB
 *   mem_latency, l2_latency, l1_latency
 *                one thread chasing a random cyclic chain of pointers over
 *                1 GiB / 4 MiB / 8 KiB (clock64 cycles per load)
 * Build: nvcc -O2 -o gpu-probe bench/gpu-probe.cu.  Nothing here is a test.
 */
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void empty() {}

__global__ void copy(const double *a, double *b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        b[i] = a[i];
}

__global__ void chase(const unsigned *next, unsigned start, int steps, unsigned *sink,
                      long long *cycles)
{
    unsigned p = start;
    for (int i = 0; i < 1000; i++)      /* warm the caches / TLB */
        p = next[p];
    long long t0 = clock64();
    for (int i = 0; i < steps; i++)
        p = next[p];
    long long t1 = clock64();
    *sink = p;
    *cycles = t1 - t0;
}

static double now()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

static int latency(size_t bytes, double *out)
{
    size_t n = bytes / sizeof(unsigned);
    /* a random cycle through n/16 slots, 64 bytes apart (no two on a line) */
    size_t slots = n / 16;
    std::vector<unsigned> perm(slots), next(n, 0);
    for (size_t i = 0; i < slots; i++) perm[i] = (unsigned)i;
    srand(1);
    for (size_t i = slots - 1; i > 0; i--) {
        size_t j = (size_t)rand() % (i + 1);
        unsigned t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    for (size_t i = 0; i < slots; i++)
        next[perm[i] * 16] = perm[(i + 1) % slots] * 16;
    unsigned *d, *sink;
    long long *cyc, c;
    CK(cudaMalloc(&d, n * sizeof(unsigned)));
    CK(cudaMalloc(&sink, sizeof(unsigned)));
    CK(cudaMalloc(&cyc, sizeof(long long)));
    CK(cudaMemcpy(d, next.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    int steps = 20000;
    chase<<<1, 1>>>(d, perm[0] * 16, steps, sink, cyc);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(&c, cyc, sizeof c, cudaMemcpyDeviceToHost));
    *out = (double)c / steps;
    cudaFree(d), cudaFree(sink), cudaFree(cyc);
    return 0;
}

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    CK(cudaFree(0));   /* context */
    printf("# measured by bench/gpu-probe.cu on %s\n", p.name);
    printf("sms = %d\nmax_threads_sm = %d\nl2 = %d B\n", p.multiProcessorCount,
           p.maxThreadsPerMultiProcessor, p.l2CacheSize);

    size_t nb = 256u << 20;
    char *h = (char *)malloc(nb);
    void *dd;
    CK(cudaMalloc(&dd, nb));
    for (size_t i = 0; i < nb; i += 4096) h[i] = (char)i;
    CK(cudaMemcpy(dd, h, nb, cudaMemcpyHostToDevice));
    double t0 = now();
    for (int r = 0; r < 5; r++)
        CK(cudaMemcpy(dd, h, nb, cudaMemcpyHostToDevice));
    double t1 = now();
    printf("bus_bw = %.4g GB/s   # pageable host->device, 256 MiB\n", 5.0 * nb / (t1 - t0) / 1e9);
    CK(cudaMemcpy(h, dd, nb, cudaMemcpyDeviceToHost));
    t0 = now();
    for (int r = 0; r < 5; r++)
        CK(cudaMemcpy(h, dd, nb, cudaMemcpyDeviceToHost));
    t1 = now();
    printf("# device->host pageable: %.4g GB/s\n", 5.0 * nb / (t1 - t0) / 1e9);
    free(h);
    cudaFree(dd);

    empty<<<1, 32>>>();
    CK(cudaDeviceSynchronize());
    t0 = now();
    for (int r = 0; r < 2000; r++) {
        empty<<<1, 32>>>();
        cudaDeviceSynchronize();
    }
    t1 = now();
    printf("launch = %.3g us   # empty kernel + synchronise\n", (t1 - t0) / 2000 * 1e6);

    size_t n = (1u << 30) / sizeof(double);
    double *a, *b;
    CK(cudaMalloc(&a, n * sizeof(double)));
    CK(cudaMalloc(&b, n * sizeof(double)));
    CK(cudaMemset(a, 0, n * sizeof(double)));
    copy<<<p.multiProcessorCount * 8, 256>>>(a, b, n);
    CK(cudaDeviceSynchronize());
    t0 = now();
    for (int r = 0; r < 10; r++)
        copy<<<p.multiProcessorCount * 8, 256>>>(a, b, n);
    CK(cudaDeviceSynchronize());
    t1 = now();
    printf("mem_bw = %.4g GB/s   # copy kernel, read + write\n",
           10.0 * 2 * n * sizeof(double) / (t1 - t0) / 1e9);
    cudaFree(a), cudaFree(b);

    double lat;
    if (latency(1u << 30, &lat)) return 1;
    printf("mem_latency = %.0f cycles   # pointer chase over 1 GiB\n", lat);
    if (latency(4u << 20, &lat)) return 1;
    printf("l2_latency = %.0f cycles   # pointer chase over 4 MiB\n", lat);
    if (latency(8u << 10, &lat)) return 1;
    printf("l1_latency = %.0f cycles   # pointer chase over 8 KiB\n", lat);
    return 0;
}
