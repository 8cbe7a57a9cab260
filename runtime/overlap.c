/*
 * overlap.c -- the run-time overlap check (overlap.h): the byte range each
 * access of an overlap condition touches, from its element offset and the
 * bounds of the loops around it, and whether a written range meets a range
 * of another base.
 *
 * Runs on a launch with new values only (a memo hit never gets here), with
 * no allocation: loop depth and bases are bounded (MAX_DEPTH, MAX_BASES;
 * deeper nests or more bases cannot be checked, so they stay on the CPU).
 */
#include "overlap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 12, MAX_BASES = 64 };

typedef struct {
    const rt_overlap *o;
    const int *path;          /* loop indices, outermost first */
    int depth;                /* loop variables bound: path[0..depth-1] */
    const int64_t *iv;        /* their values */
    int n;
    const char *const *names;
    const long long *values;
} ov_ctx;

static int lookup(void *vctx, const char *name, int64_t *value)
{
    const ov_ctx *c = vctx;
    for (int t = 0; t < c->depth; t++) {
        const char *iv = c->o->loops[c->path[t]].iv;
        if (iv && !strcmp(iv, name)) {
            *value = c->iv[t];
            return 1;
        }
    }
    for (int i = 0; i < c->n; i++)
        if (c->names[i] && c->names[i][0] != '&' && !strcmp(c->names[i], name)) {
            *value = c->values[i];
            return 1;
        }
    return 0;
}

/* Is e of degree <= 1 in each of the first d loop variables of the path,
 * with no opaque atom naming one (the extremes are at the corners)? */
static int corner_exact(const rt_overlap *o, const int *path, int d, const kx_expr *e)
{
    for (int t = 0; t < d; t++) {
        const char *iv = o->loops[path[t]].iv;
        if (iv && (kx_degree(e, iv) > 1 || (kx_has_opaque(e) && kx_mentions(e, iv))))
            return 0;
    }
    return 1;
}

/* min/max of e over the corners of the box lo[0..d-1], hi[0..d-1]. */
static int corners(ov_ctx *c, const kx_expr *e, int d, const int64_t *lo, const int64_t *hi,
                   int64_t *mn, int64_t *mx, char *why, size_t whylen)
{
    int64_t v[MAX_DEPTH];
    c->iv = v;
    c->depth = d;
    for (unsigned m = 0; m < 1u << d; m++) {
        for (int t = 0; t < d; t++)
            v[t] = (m >> t) & 1 ? hi[t] : lo[t];
        int64_t x;
        char e2[96];
        if (kx_eval(e, lookup, c, &x, e2, sizeof e2)) {
            snprintf(why, whylen, "%s", e2);
            return -1;
        }
        if (m == 0 || x < *mn)
            *mn = x;
        if (m == 0 || x > *mx)
            *mx = x;
    }
    return 0;
}

int rt_overlap_elems(const rt_overlap *o, int a, int n, const char *const *names,
                     const long long *values, int64_t *lo, int64_t *hi, char *why,
                     size_t whylen)
{
    const rt_ov_access *ac = &o->accs[a];
    int rev[MAX_DEPTH + 1], path[MAX_DEPTH], d = 0;
    if (!ac->offset)
        return snprintf(why, whylen, "%s has no bounded offset", ac->text), -1;
    for (int k = ac->loop; k >= 0; k = o->loops[k].parent) {
        if (!o->loops[k].iv)
            continue;               /* repeats the same offsets */
        if (d == MAX_DEPTH)
            return snprintf(why, whylen, "nest deeper than %d loops", MAX_DEPTH), -1;
        rev[d++] = k;
    }
    for (int t = 0; t < d; t++)
        path[t] = rev[d - 1 - t];
    ov_ctx c = { o, path, 0, NULL, n, names, values };
    int64_t ivlo[MAX_DEPTH], ivhi[MAX_DEPTH];
    for (int j = 0; j < d; j++) {
        const rt_ov_loop *l = &o->loops[path[j]];
        if (!l->lower || !l->trip || l->step == 0)
            return snprintf(why, whylen, "loop %s has no known bounds", l->iv), -1;
        if (!corner_exact(o, path, j, l->lower) || !corner_exact(o, path, j, l->trip))
            return snprintf(why, whylen, "bounds of loop %s are not affine in the outer loops",
                            l->iv), -1;
        int64_t l0, l1, t0;
        /* lower and trip over the outer box; the last value of the
         * variable at each corner is lower + step (trip - 1) */
        int64_t first_lo = 0, first_hi = 0, last_lo = 0, last_hi = 0;
        int64_t v[MAX_DEPTH];
        for (unsigned m = 0; m < 1u << j; m++) {
            for (int t = 0; t < j; t++)
                v[t] = (m >> t) & 1 ? ivhi[t] : ivlo[t];
            c.iv = v;
            c.depth = j;
            char e2[96];
            if (kx_eval(l->lower, lookup, &c, &l0, e2, sizeof e2) ||
                kx_eval(l->trip, lookup, &c, &t0, e2, sizeof e2))
                return snprintf(why, whylen, "%s", e2), -1;
            __int128 last = (__int128)l0 + (__int128)l->step * (t0 > 1 ? t0 - 1 : 0);
            if (last > INT64_MAX || last < INT64_MIN)
                return snprintf(why, whylen, "loop %s overflows", l->iv), -1;
            l1 = (int64_t)last;
            if (m == 0 || l0 < first_lo) first_lo = l0;
            if (m == 0 || l0 > first_hi) first_hi = l0;
            if (m == 0 || l1 < last_lo) last_lo = l1;
            if (m == 0 || l1 > last_hi) last_hi = l1;
        }
        ivlo[j] = first_lo < last_lo ? first_lo : last_lo;
        ivhi[j] = first_hi > last_hi ? first_hi : last_hi;
    }
    if (!corner_exact(o, path, d, ac->offset))
        return snprintf(why, whylen, "%s is not affine in its loops", ac->text), -1;
    if (corners(&c, ac->offset, d, ivlo, ivhi, lo, hi, why, whylen))
        return -1;
    return 0;
}

int rt_overlap_bytes(const rt_overlap *o, int a, uint64_t addr, int n, const char *const *names,
                     const long long *values, uint64_t *lo, uint64_t *hi, char *why,
                     size_t whylen)
{
    int64_t e0, e1;
    if (rt_overlap_elems(o, a, n, names, values, &e0, &e1, why, whylen))
        return -1;
    int elem = o->accs[a].elem;
    if (elem <= 0)
        return snprintf(why, whylen, "%s has no element size", o->accs[a].text), -1;
    __int128 b0 = (__int128)addr + (__int128)elem * e0;
    __int128 b1 = (__int128)addr + (__int128)elem * ((__int128)e1 + 1);
    if (b0 < 0 || b1 > (__int128)UINT64_MAX)
        return snprintf(why, whylen, "%s lies outside the address space", o->accs[a].text), -1;
    *lo = (uint64_t)b0;
    *hi = (uint64_t)b1;
    return 0;
}

int rt_overlap_prepare(const rt_overlap *o, int n, const char *const *names, int **slot,
                       char *why, size_t whylen)
{
    *slot = NULL;
    if (o->nbases > MAX_BASES)
        return snprintf(why, whylen, "overlap unchecked: more than %d bases", MAX_BASES), -1;
    for (int a = 0; a < o->naccs; a++)
        if (!o->accs[a].offset || o->accs[a].elem <= 0)
            return snprintf(why, whylen, "overlap unchecked: %s has no bounded extent",
                            o->accs[a].text), -1;
    int *s = calloc((size_t)o->nbases + 1, sizeof *s);
    if (!s)
        return snprintf(why, whylen, "out of memory"), -1;
    for (int b = 0; b < o->nbases; b++) {
        const char *nm = o->bases[b].name;
        if (!o->bases[b].checkable) {
            free(s);
            return snprintf(why, whylen, "overlap unchecked: %s cannot be read before the loop",
                            nm), -1;
        }
        s[b] = -1;
        for (int i = 0; i < n && s[b] < 0; i++)
            if (names[i] && names[i][0] == '&' && !strcmp(names[i] + 1, nm))
                s[b] = i;
        if (s[b] < 0) {
            free(s);
            return snprintf(why, whylen, "overlap unchecked: the call does not pass %s", nm), -1;
        }
    }
    *slot = s;
    return 0;
}

int rt_overlap_check(const rt_overlap *o, const int *slot, int n, const char *const *names,
                     const long long *values, char *why, size_t whylen)
{
    /* per base: the hull of all its ranges and of its written ones */
    uint64_t alo[MAX_BASES], ahi[MAX_BASES], wlo[MAX_BASES], whi[MAX_BASES];
    unsigned char have[MAX_BASES], wr[MAX_BASES];
    if (o->nbases > MAX_BASES)
        return snprintf(why, whylen, "overlap unchecked: more than %d bases", MAX_BASES), -1;
    memset(have, 0, sizeof have);
    memset(wr, 0, sizeof wr);
    for (int a = 0; a < o->naccs; a++) {
        const rt_ov_access *ac = &o->accs[a];
        uint64_t lo, hi;
        char e2[160];
        int b = ac->base;
        if (rt_overlap_bytes(o, a, (uint64_t)values[slot[b]], n, names, values, &lo, &hi, e2,
                             sizeof e2))
            return snprintf(why, whylen, "overlap unchecked: %s", e2), -1;
        if (!have[b] || lo < alo[b]) alo[b] = lo;
        if (!have[b] || hi > ahi[b]) ahi[b] = hi;
        have[b] = 1;
        if (ac->is_write) {
            if (!wr[b] || lo < wlo[b]) wlo[b] = lo;
            if (!wr[b] || hi > whi[b]) whi[b] = hi;
            wr[b] = 1;
        }
    }
    for (int x = 0; x < o->nbases; x++)
        for (int y = 0; y < o->nbases && wr[x]; y++)
            if (y != x && have[y] && wlo[x] < ahi[y] && alo[y] < whi[x] && whi[x] > wlo[x]
                && ahi[y] > alo[y])
                return snprintf(why, whylen, "overlap: %s (written) and %s", o->bases[x].name,
                                o->bases[y].name), 1;
    return 0;
}
