/*
 * crc32.c -- table-driven CRC-32: building the 256-entry table (each
 * entry independent, eight shift steps each carried in a local), and the
 * checksum of a buffer (the running value feeds the next table index).
 */
#include "probe.h"

static void crc_table(unsigned *t)
{
    for (unsigned n = 0; n < 256; n++) { // V:parallel I:stream S:t=1
        unsigned c = n;
        for (int k = 0; k < 8; k++) // V:sequential I:-
            c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        t[n] = c;
    }
}

static unsigned crc32(const unsigned *t, const unsigned char *buf, long n)
{
    unsigned crc = 0xFFFFFFFFu;
    for (long i = 0; i < n; i++) // V:sequential I:gather,reduction
        crc = t[(crc ^ buf[i]) & 0xFFu] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

int main(int argc, char **argv)
{
    int large = probe_large(argc, argv);
    long n = large ? 4000000 : 1000;
    unsigned t[256];
    int *v = probe_alloc_int(n);
    unsigned char *buf = malloc((size_t)n);
    if (!buf) return 1;
    probe_fill_int(v, n, 91, 256);
    for (long i = 0; i < n; i++) // V:parallel I:stream
        buf[i] = (unsigned char)v[i];
    crc_table(t);
    printf("%08x\n", crc32(t, buf, n));
    free(v); free(buf);
    return 0;
}
