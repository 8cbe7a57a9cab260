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
 * A nest's stored model (keelcc built it from its IR: nest_build.h,
 * nest_pack.h; db_nest_stored) must be of the current format, and the
 * database route must have loaded it (no expression text parsed,
 * rt_facts_parsed); every nest is also built from its rows
 * (rt_facts_load_rows, the route of older databases): the two models must
 * be equal member by member (expressions kx_equal, doubles as bits), with
 * the launch's place, label and per-loop facts, and so must their
 * symbols, every per-site launch and every estimate.
 * `dump` prints the fast mode's launches with rt_facts_bind_on, so that a
 * build before a change can be compared with a build after it (diff).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_nest.h"
#include "expr.h"
#include "facts.h"
#include "roots.h"
#include "nest.h"

/* ---- two models member by member ------------------------------------------ */

static int same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

static int same_expr(const kx_expr *a, const kx_expr *b)
{
    return a == b || (a && b && kx_equal(a, b));
}

static int same_f64(double a, double b)
{
    return !memcmp(&a, &b, sizeof a);
}

static const char *loop_diff(const nest_loop *a, const nest_loop *b)
{
    if (a->id != b->id || a->parent != b->parent || a->line != b->line || a->col != b->col)
        return "a loop's place";
    if (!same_str(a->iv, b->iv) || !same_expr(a->trip, b->trip) ||
        !same_expr(a->lower, b->lower) || a->step != b->step || !same_expr(a->last, b->last))
        return "a loop's bounds";
    if (a->bounded != b->bounded || !same_str(a->gpu_map, b->gpu_map) ||
        a->nchildren != b->nchildren || a->parallel != b->parallel || a->thread != b->thread ||
        a->spread != b->spread || a->thread_on_path != b->thread_on_path || a->kroot != b->kroot)
        return "a loop's mapping";
    if (a->nmca != b->nmca)
        return "a loop's llvm-mca figures";
    for (int i = 0; i < a->nmca; i++)
        if (!same_str(a->mca[i].target, b->mca[i].target) ||
            !same_f64(a->mca[i].cycles, b->mca[i].cycles) ||
            !same_f64(a->mca[i].rthru, b->mca[i].rthru))
            return "a loop's llvm-mca figures";
    if (a->nrec != b->nrec || memcmp(a->rec, b->rec, sizeof a->rec[0] * (size_t)a->nrec))
        return "a loop's recurrences";
    return NULL;
}

static const char *acc_diff(const nest_acc *a, const nest_acc *b, int nloops)
{
    if (a->id != b->id || a->stmt != b->stmt || !same_str(a->array, b->array) ||
        !same_str(a->text, b->text) || a->elem != b->elem || a->is_write != b->is_write ||
        a->ndims != b->ndims)
        return "an access";
    for (int j = 0; j < a->ndims; j++)
        if (!same_str(a->index[j], b->index[j]) || !same_expr(a->extent[j], b->extent[j]))
            return "an access's subscripts or extents";
    for (int i = 0; i < a->ndims * nloops; i++)
        if (!same_expr(a->diff[i], b->diff[i]))
            return "an access's differences";
    for (int k = 0; k < nloops; k++)
        if (!same_expr(a->lin[k], b->lin[k]))
            return "an access's linearised strides";
    if (!same_expr(a->stride, b->stride) || a->no_thread != b->no_thread || a->arr != b->arr ||
        a->read_first != b->read_first)
        return "an access's derived fields";
    return NULL;
}

/* NULL when a and b are equal member by member, else what differs. */
static const char *model_diff(const nest_model *a, const nest_model *b)
{
    const char *w = NULL;
    if (a->nloops != b->nloops || a->nstmts != b->nstmts || a->naccs != b->naccs ||
        a->nov != b->nov)
        return "the counts";
    if (a->region != b->region || a->omp_target != b->omp_target || a->uneven != b->uneven ||
        a->nsyms != b->nsyms)
        return "the nest's flags or symbols";
    for (int i = 0; i < a->nsyms; i++)
        if (strcmp(a->syms[i], b->syms[i]))
            return "the symbols";
    for (int k = 0; !w && k < a->nloops; k++)
        w = loop_diff(&a->loops[k], &b->loops[k]);
    for (int s = 0; !w && s < a->nstmts; s++) {
        const nest_stmt *x = &a->stmts[s], *y = &b->stmts[s];
        if (x->id != y->id || x->loop != y->loop || x->line != y->line ||
            x->conditional != y->conditional || !same_f64(x->cpu_cycles, y->cpu_cycles) ||
            !same_f64(x->gpu_insts, y->gpu_insts) || !same_f64(x->flops, y->flops) ||
            x->acc0 != y->acc0 || x->nacc != y->nacc)
            w = "a statement";
    }
    for (int i = 0; !w && i < a->naccs; i++)
        w = acc_diff(&a->accs[i], &b->accs[i], a->nloops);
    for (int i = 0; !w && i < a->nov; i++)
        if (a->ov[i].acc != b->ov[i].acc || !same_str(a->ov[i].base, b->ov[i].base) ||
            !same_expr(a->ov[i].offset, b->ov[i].offset) ||
            a->ov[i].checkable != b->ov[i].checkable)
            w = "the overlap condition";
    return w;
}

/* The launch's own facts: where it is, its label, its per-loop facts. */
static const char *head_diff(const rt_facts *a, const rt_facts *b)
{
    if (rt_facts_loop_id(a) != rt_facts_loop_id(b) || rt_facts_line(a) != rt_facts_line(b) ||
        !same_str(rt_facts_file(a), rt_facts_file(b)) ||
        !same_str(rt_facts_function(a), rt_facts_function(b)) ||
        !same_str(rt_facts_source_hash(a), rt_facts_source_hash(b)))
        return "the launch's place";
    if (!same_str(rt_facts_label(a), rt_facts_label(b)))
        return "the label";
    for (int k = 0; k < DB_NLOOP_FACTS; k++)
        if (!same_str(rt_facts_fact(a, k), rt_facts_fact(b, k)))
            return "a per-loop fact";
    return NULL;
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
    if (db_each_loop(d, NULL, roots_add, &v, err, sizeof err) != 0) {
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
    long binds = 0, bound = 0, rows_binds = 0;
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
        /* the same nest from its rows: the same model */
        rt_facts *g = NULL;
        if (!dumping) {
            const char *why = NULL;
            unsigned char *sb = NULL;
            size_t sl = 0;
            int sr = db_nest_stored(d, rt_facts_loop_id(f), &sb, &sl, err, sizeof err);
            stored += sr == 0 && db_nest_current(sb, sl);
            parsing += rt_facts_parsed(f) > 0;
            if (sr < 0)
                why = err;
            else if (sr == 0 && !db_nest_current(sb, sl))
                why = "stored in another format";
            else if (sr == 0 && rt_facts_parsed(f) != 0)
                why = "the database route parsed expression texts";
            else if (rt_facts_load_rows(d, rt_facts_loop_id(f), &g, err, sizeof err) != 0)
                why = err;
            else if (!(why = model_diff(rt_facts_model(f), rt_facts_model(g))))
                why = head_diff(f, g);
            if (why) {
                printf("FAIL %s:%d: stored model: %s\n", v.file[r], v.line[r], why);
                fails++;
            }
            free(sb);
        }
        if (g) {
            int pn = rt_facts_symbols(g, &pnames);
            int same = pn == n && rt_facts_loop_id(g) == rt_facts_loop_id(f);
            for (int k = 0; same && k < n; k++)
                same = !strcmp(names[k], pnames[k]);
            if (!same && fails++ < 20)
                printf("FAIL %s:%d: rows route: other symbols or loop\n", v.file[r], v.line[r]);
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
                if (!what && g) {          /* the rows route: the same launch */
                    rt_launch pl;
                    char e4[256] = "";
                    int rp = rt_facts_bind_site(g, hosts[h], NULL, threads[h], n64, names, vals,
                                                &pl, e4, sizeof e4);
                    what = rp != rs ? "rows: return code" : strcmp(e3, e4) ? "rows: message"
                         : rp == 0 && differs(&pl, &site) ? "rows: launch" : NULL;
                    if (!what && rp == 0) {
                        const rt_profile *cpu = hosts[h] ? hosts[h] : rt_profile_host_default();
                        rt_estimate ea, eb;
                        int va = rt_estimate_all(cpu, threads[h], h100, &site, &ea);
                        int vb = rt_estimate_all(cpu, threads[h], h100, &pl, &eb);
                        if (va != vb || memcmp(&ea, &eb, sizeof ea))
                            what = "rows: estimate";
                    }
                    rows_binds += !what;
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
        printf("fastpath: %d nests (%d with symbols; %d stored models, %d parsing text), %ld "
               "bindings (%ld evaluated, %ld from the rows alike), %d differing\n", nests, symbolic,
               stored, parsing, binds, bound, rows_binds, fails);
    roots_free(&v);
    db_close(d);
    if (nests != atoi(argv[2])) {
        printf("FAIL: %d nests, want %s\n", nests, argv[2]);
        return 1;
    }
    return fails ? 1 : 0;
}
