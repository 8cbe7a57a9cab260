/*
 * calib_cache.c -- this host's caches, for `keel calibrate`: the L1 data
 * cache and the L2 of one core, the L3 of the whole host.
 *
 * The sizes are read, not measured: Linux lists each cache of a CPU under
 * /sys/devices/system/cpu/cpuN/cache/indexK/ (files `level`, `type` --
 * Data, Instruction or Unified --, `size` such as "48K", and
 * `shared_cpu_list`, the CPUs that share that instance), taken from the
 * processor's own cache descriptors (CPUID leaf 4 on Intel, 0x8000001D on
 * AMD).  The traffic model takes an L3 of the whole host and divides it
 * among the cores, so the L3 is an instance's size times the instances the
 * online CPUs have: CPUs online / the CPUs sharing cpu0's.  A tree without
 * a figure leaves it 0 (the host defaults' then) and says which.
 */
#include "calib.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first line of root/rel into buf; 0, or -1 when it cannot be read. */
static int read_line(const char *root, const char *rel, char *buf, size_t len)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", root, rel) >= sizeof path)
        return -1;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *ok = fgets(buf, (int)len, f);
    fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\r\n")] = '\0';
    return 0;
}

/* "48K", "1024K", "32M", "512" (bytes) -> bytes; 0 when not a size. */
double rt_cache_size_parse(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || !(v > 0))
        return 0;
    while (*end == ' ')
        end++;
    double mul = 1;
    switch (toupper((unsigned char)*end)) {
    case 'K': mul = 1024; end++; break;
    case 'M': mul = 1024.0 * 1024; end++; break;
    case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
    default: break;
    }
    if (*end == 'i' || *end == 'B')      /* "KiB", "KB" */
        end += *end == 'i' ? 1 : 0;
    if (*end == 'B')
        end++;
    return *end ? 0 : v * mul;
}

/* CPUs in a list such as "0-3,8,10-11"; 0 when it does not parse. */
int rt_cpu_list_count(const char *s)
{
    int n = 0;
    while (*s) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s || a < 0)
            return 0;
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            if (end == s + 1 || b < a)
                return 0;
            s = end;
        }
        n += (int)(b - a + 1);
        if (*s == ',')
            s++;
        else if (*s)
            return 0;
    }
    return n;
}

int rt_calibrate_caches(const char *root, int cpus, double *l1, double *l2, double *l3,
                        char *note, size_t notelen)
{
    *l1 = *l2 = *l3 = 0;
    if (!root)
        root = "/sys/devices/system/cpu";
    for (int k = 0; k < 16; k++) {
        char rel[64], level[16], type[32], size[32], shared[256];
        snprintf(rel, sizeof rel, "cpu0/cache/index%d/level", k);
        if (read_line(root, rel, level, sizeof level))
            continue;
        snprintf(rel, sizeof rel, "cpu0/cache/index%d/type", k);
        if (read_line(root, rel, type, sizeof type))
            continue;
        snprintf(rel, sizeof rel, "cpu0/cache/index%d/size", k);
        if (read_line(root, rel, size, sizeof size))
            continue;
        double bytes = rt_cache_size_parse(size);
        int lv = atoi(level);
        if (!(bytes > 0) || !strcmp(type, "Instruction"))
            continue;
        if (lv == 1 && !strcmp(type, "Data"))
            *l1 = bytes;
        else if (lv == 2)
            *l2 = bytes;
        else if (lv == 3) {
            int share = 0;
            snprintf(rel, sizeof rel, "cpu0/cache/index%d/shared_cpu_list", k);
            if (!read_line(root, rel, shared, sizeof shared))
                share = rt_cpu_list_count(shared);
            int inst = share > 0 && cpus > share ? (cpus + share - 1) / share : 1;
            *l3 = bytes * inst;
        }
    }
    if (*l1 > 0 && *l2 > 0) {
        snprintf(note, notelen, "%s/cpu0/cache (the CPU's cache descriptors)", root);
        return 0;
    }
    snprintf(note, notelen, "not read: %s/cpu0/cache lists no %s", root,
             *l1 > 0 ? "L2" : "L1 data cache");
    return 1;
}
