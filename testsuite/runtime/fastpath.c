/*
 * fastpath.c -- the per-call binding gives the plain evaluation's launch,
 * bit for bit.
 *
 *   fastpath DB NESTS ROUNDS     compare, exit 1 on any difference
 *   fastpath DB NESTS ROUNDS dump   print every launch (hex floats)
 *
 * For every outermost nest of DB (the polybench inputs built by
 * agree.sh), ROUNDS random bindings of the nest's free symbols (sizes from
 * 0 to 4096 with the small ones 0, 1, 2, negatives and a few huge values
 * that overflow mixed in, from a
 * fixed-seed generator), each bound on three hosts (the default, one
 * thread; a 16-core host profile; one whose llvm-mca CPU is another, so
 * that the per-site plan's cached pick does not apply) with
 * rt_facts_bind_mode in both modes -- `reference` evaluates every
 * subscript difference where the model reads it, the fast mode once per
 * call -- and with rt_facts_bind_site, the per-site fast path keel_decide
 * uses.  Every field of the launch (doubles compared as bits), the return
 * code and the message must be equal, and so must the models' estimates
 * (rt_estimate_all against the H100 profile, compared as bytes).
 * Each nest is also packed (db_nest_pack, the form keelcc's link step puts
 * into a program) and loaded from the packed bytes (rt_facts_load_packed):
 * its symbols, every per-site launch and every estimate must equal the
 * database route's, byte for byte.  Where keelcc stored the nest packed
 * (schema 18, db_nest_stored), the stored bytes must be the link step's
 * (db_nest_pack with ipda's pool) byte for byte, and the database route
 * must have parsed no expression text (rt_facts_parsed).
 * `dump` prints the fast mode's launches with rt_facts_bind_on, so that a
 * build before a change can be compared with a build after it (diff).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_nest.h"
#include "expr_pack.h"
#include "facts.h"

typedef struct {
    int n, cap;
    char **file;
    int *line, *col;
} roots;

static int add_root(void *ctx, const db_loop_summary *r)
{
    roots *v = ctx;
    if (r->depth != 0)
        return 0;
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 64;
        v->file = realloc(v->file, sizeof *v->file * (size_t)v->cap);
        v->line = realloc(v->line, sizeof *v->line * (size_t)v->cap);
        v->col = realloc(v->col, sizeof *v->col * (size_t)v->cap);
        if (!v->file || !v->line || !v->col)
            return 1;
    }
    v->file[v->n] = strdup(r->file);
    v->line[v->n] = r->line;
    v->col[v->n++] = r->col;
    return 0;
}

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static long long pick(void)
{
    switch (next() % 8) {
    case 0: return (long long)(next() % 3);          /* 0, 1, 2 */
    case 1: return -(long long)(next() % 5);         /* a negative size */
    case 2: if (next() % 4 == 0)                     /* near int64's end: overflow */
                return (long long)(next() >> (1 + next() % 3));
        return (long long)(next() % 4097);
    default: return (long long)(next() % 4097);
    }
}

/* Every field of the launch, doubles as bits: the first differing name. */
#define D(x) do { if (memcmp(&a->x, &b->x, sizeof a->x)) return #x; } while (0)
static const char *differs(const rt_launch *a, const rt_launch *b)
{
    D(par_iters); D(cycles_per_iter); D(work_items); D(comp_insts); D(naccesses);
    for (int i = 0; i < a->naccesses && i < RT_MAX_ACCESSES; i++) {
        D(acc[i].cls); D(acc[i].stride); D(acc[i].elem_size); D(acc[i].count);
    }
    D(flops); D(bytes_in); D(bytes_out); D(data_on_device); D(not_parallel);
    D(host_sequential); D(cpu_bytes); D(gpu_bytes);
    for (int i = 0; i < RT_PATTERNS; i++)
        D(cpu_bytes_pat[i]);
    D(cpu_hit_bytes[0]); D(cpu_hit_bytes[1]);
    D(tlb_misses); D(gpu_chain); D(gpu_lat_cycles); D(gpu_lat_max_cycles); D(gpu_dep_cycles); D(gpu_mem_insts); D(steps);
    D(omp_target); D(kernels); D(mca_exact);
    if (strcmp(a->mca_target, b->mca_target))
        return "mca_target";
    return NULL;
}
#undef D

static void dump(const char *file, int line, int rc, const char *err, const rt_launch *l)
{
    printf("%s:%d rc %d %s\n", file, line, rc, rc ? err : "");
    if (rc)
        return;
    printf("  %a %a %a %a %d %a %a %a %d %d %d %a %a %a %a %a %a %a %d %a %s %d\n", l->par_iters,
           l->cycles_per_iter, l->work_items, l->comp_insts, l->naccesses, l->flops, l->bytes_in,
           l->bytes_out, l->data_on_device, l->not_parallel, l->host_sequential, l->cpu_bytes,
           l->gpu_bytes, l->tlb_misses, l->gpu_chain, l->gpu_lat_cycles, l->gpu_mem_insts,
           l->steps, l->omp_target, l->kernels, l->mca_target, l->mca_exact);
    for (int i = 0; i < RT_PATTERNS; i++)
        printf("  pat%d %a\n", i, l->cpu_bytes_pat[i]);
    for (int i = 0; i < l->naccesses && i < RT_MAX_ACCESSES; i++)
        printf("  acc %d %lld %d %a\n", (int)l->acc[i].cls, (long long)l->acc[i].stride,
               l->acc[i].elem_size, l->acc[i].count);
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: fastpath DB NESTS ROUNDS [dump]\n");
        return 2;
    }
    int rounds = atoi(argv[3]), dumping = argc == 5 && !strcmp(argv[4], "dump");
    char err[512];
    db *d;
    if (db_open_read(argv[1], &d, err, sizeof err) != 0) {
        fprintf(stderr, "fastpath: %s\n", err);
        return 2;
    }
    roots v = { 0 };
    if (db_each_loop(d, NULL, add_root, &v, err, sizeof err) != 0) {
        fprintf(stderr, "fastpath: %s\n", err);
        return 2;
    }
    rt_profile big = *rt_profile_host_default(), other = *rt_profile_host_default();
    big.cores = 16;
    other.mca_cpu = "znver5";
    const rt_profile *hosts[3] = { NULL, &big, &other };
    int threads[3] = { 1, 0, 4 };
    const rt_profile *h100 = rt_profile_find("h100");
    int nests = 0, fails = 0, symbolic = 0, stored = 0, parsing = 0;
    long binds = 0, bound = 0, packed_binds = 0;
    for (int r = 0; r < v.n; r++) {
        rt_facts *f;
        if (rt_facts_load(d, v.file[r], v.line[r], v.col[r], &f, err, sizeof err) != 0) {
            printf("FAIL %s:%d: cannot load: %s\n", v.file[r], v.line[r], err);
            fails++;
            continue;
        }
        nests++;
        const char *const *names, *const *pnames;
        int n = rt_facts_symbols(f, &names);
        /* the same nest from its packed form */
        rt_facts *g = NULL;
        unsigned char *packed = NULL;
        size_t plen = 0;
        if (!dumping &&
            (db_nest_pack(d, rt_facts_loop_id(f), kx_pool_build, &packed, &plen, err, sizeof err) != 0 ||
             rt_facts_load_packed(packed, plen, &g, err, sizeof err) != 0)) {
            printf("FAIL %s:%d: packed route: %s\n", v.file[r], v.line[r], err);
            fails++;
        }
        /* the packed nest keelcc stored with the build (schema 18) is the
         * link step's byte for byte, and the database route loaded it:
         * no expression text parsed */
        if (!dumping) {
            unsigned char *sb = NULL;
            size_t sl = 0;
            int sr = db_nest_stored(d, rt_facts_loop_id(f), &sb, &sl, err, sizeof err);
            stored += sr == 0;
            parsing += rt_facts_parsed(f) > 0;
            if (sr < 0 || (sr == 0 && (!packed || sl != plen || memcmp(sb, packed, sl)))) {
                printf("FAIL %s:%d: stored packed nest: %s\n", v.file[r], v.line[r],
                       sr < 0 ? err : "differs from the link step's");
                fails++;
            } else if (sr == 0 && rt_facts_parsed(f) != 0) {
                printf("FAIL %s:%d: database route parsed %d expression texts\n", v.file[r],
                       v.line[r], rt_facts_parsed(f));
                fails++;
            }
            free(sb);
        }
        free(packed);
        if (g) {
            int pn = rt_facts_symbols(g, &pnames);
            int same = pn == n && rt_facts_loop_id(g) == rt_facts_loop_id(f);
            for (int k = 0; same && k < n; k++)
                same = !strcmp(names[k], pnames[k]);
            if (!same && fails++ < 20)
                printf("FAIL %s:%d: packed route: other symbols or loop\n", v.file[r], v.line[r]);
        }
        symbolic += n > 0;
        long long vals[64];
        for (int i = 0; i < rounds; i++) {
            for (int k = 0; k < n && k < 64; k++)
                vals[k] = pick();
            for (int h = 0; h < 3; h++) {
                rt_launch fast, ref, site;
                char e1[256] = "", e2[256] = "";
                int n64 = n < 64 ? n : 64;
                if (dumping) {
                    int rc = rt_facts_bind_on(f, hosts[h], NULL, threads[h], n64, names, vals, &fast,
                                              e1, sizeof e1);
                    dump(v.file[r], v.line[r], rc, e1, &fast);
                    continue;
                }
                int rf = rt_facts_bind_mode(f, hosts[h], NULL, threads[h], n64, names, vals, 0,
                                            &fast, e1, sizeof e1);
                int rr = rt_facts_bind_mode(f, hosts[h], NULL, threads[h], n64, names, vals, 1,
                                            &ref, e2, sizeof e2);
                char e3[256] = "";
                int rs = rt_facts_bind_site(f, hosts[h], NULL, threads[h], n64, names, vals, &site,
                                            e3, sizeof e3);
                binds++;
                const char *what = rf != rr ? "return code" : strcmp(e1, e2) ? "message"
                                 : rf == 0 ? differs(&fast, &ref) : NULL;
                if (!what)
                    what = rs != rr ? "site: return code" : strcmp(e3, e2) ? "site: message"
                         : rs == 0 && differs(&site, &ref) ? "site: launch" : NULL;
                if (!what && rr == 0) {     /* the models see the same launch */
                    const rt_profile *cpu = hosts[h] ? hosts[h] : rt_profile_host_default();
                    rt_estimate ea, eb;
                    int va = rt_estimate_all(cpu, threads[h], h100, &site, &ea);
                    int vb = rt_estimate_all(cpu, threads[h], h100, &ref, &eb);
                    if (va != vb || memcmp(&ea, &eb, sizeof ea))
                        what = "site: estimate";
                }
                if (!what && g) {          /* the packed route: the same launch */
                    rt_launch pl;
                    char e4[256] = "";
                    int rp = rt_facts_bind_site(g, hosts[h], NULL, threads[h], n64, names, vals,
                                                &pl, e4, sizeof e4);
                    what = rp != rs ? "packed: return code" : strcmp(e3, e4) ? "packed: message"
                         : rp == 0 && differs(&pl, &site) ? "packed: launch" : NULL;
                    if (!what && rp == 0) {
                        const rt_profile *cpu = hosts[h] ? hosts[h] : rt_profile_host_default();
                        rt_estimate ea, eb;
                        int va = rt_estimate_all(cpu, threads[h], h100, &site, &ea);
                        int vb = rt_estimate_all(cpu, threads[h], h100, &pl, &eb);
                        if (va != vb || memcmp(&ea, &eb, sizeof ea))
                            what = "packed: estimate";
                    }
                    packed_binds += !what;
                }
                bound += rf == 0;
                if (what && fails++ < 20)
                    printf("FAIL %s:%d round %d host %d: %s differs\n", v.file[r], v.line[r], i,
                           h, what);
            }
        }
        rt_facts_free(f);
        rt_facts_free(g);
    }
    if (!dumping)
        printf("fastpath: %d nests (%d with symbols; %d stored packed, %d parsing text), %ld "
               "bindings (%ld evaluated, %ld packed alike), %d differing\n", nests, symbolic,
               stored, parsing, binds, bound, packed_binds, fails);
    for (int r = 0; r < v.n; r++)
        free(v.file[r]);
    free(v.file), free(v.line), free(v.col);
    db_close(d);
    if (nests != atoi(argv[2])) {
        printf("FAIL: %d nests, want %s\n", nests, argv[2]);
        return 1;
    }
    return fails ? 1 : 0;
}
