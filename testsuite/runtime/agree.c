/*
 * agree.c -- `keel show` and `keel explain` describe one model.
 *
 * For every outermost loop nest in a database, load the nest as libkeelrt
 * (and so `keel explain`) sees it (rt_facts_load) and read each of its
 * loops, accesses and statements as `keel show` reads them (db_get_loop,
 * db_get_stride), then compare field by field:
 *   trip       the trip count text;
 *   parallel   explain's offload verdict against show's IPDA verdict and
 *              OpenMP mapping (parallel, or an OpenMP loop construct that
 *              shares the iterations);
 *   mapping    explain's thread loops are show's thread loops (the loops
 *              with a coalescing summary), and each access's thread loop
 *              is the one show names;
 *   strides    each access's stride along its thread loop, as text;
 *   counts     each statement's flops (show: fadd + fmul + fdiv + fmath).
 * Every mismatch is printed; the exit status is 1 on any, or when the
 * number of nests compared is not NESTS.
 *
 *   agree DB NESTS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "facts.h"
#include "roots.h"

static int fails;

static void mismatch(const char *file, int line, const char *what, int at, const char *show,
                     const char *explain)
{
    printf("MISMATCH %s:%d %s (line %d): show %s, explain %s\n", file, line, what, at,
           show ? show : "-", explain ? explain : "-");
    fails++;
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: agree DB NESTS\n");
        return 2;
    }
    char err[512];
    db *d;
    if (db_open_read(argv[1], &d, err, sizeof err) != 0) {
        fprintf(stderr, "agree: %s\n", err);
        return 2;
    }
    roots v = { 0 };
    if (db_each_loop(d, NULL, roots_add, &v, err, sizeof err) != 0) {
        fprintf(stderr, "agree: %s\n", err);
        return 2;
    }
    int nests = 0, nloops = 0, naccs = 0;
    for (int r = 0; r < v.n; r++) {
        const char *file = v.file[r];
        int line = v.line[r];
        rt_facts *f;
        if (rt_facts_load(d, file, line, v.col[r], &f, err, sizeof err) != 0) {
            printf("MISMATCH %s:%d: explain cannot load the nest: %s\n", file, line, err);
            fails++;
            continue;
        }
        nests++;
        for (int k = 0; k < rt_facts_nloops(f); k++, nloops++) {
            rt_loop_view lv;
            db_loop_info *l = NULL;
            if (rt_facts_loop_view(f, k, &lv) != 0 || db_get_loop(d, lv.id, &l, err, sizeof err)) {
                printf("MISMATCH %s:%d: loop %d unreadable\n", file, line, k);
                fails++;
                rt_facts_view_free(&lv, NULL);
                continue;
            }
            if (!same(l->trip, lv.trip))
                mismatch(file, line, "trip", lv.line, l->trip, lv.trip);
            int show_par = (l->parallel && strcmp(l->parallel, "parallel") == 0) ||
                           (l->gpu_map && strcmp(l->gpu_map, "seq") != 0);
            if (show_par != lv.parallel)
                mismatch(file, line, "parallel", lv.line,
                         l->parallel ? l->parallel : "(no verdict)",
                         lv.parallel ? "parallel" : "sequential");
            if ((l->coalescing != NULL) != lv.thread)
                mismatch(file, line, "thread loop", lv.line,
                         l->coalescing ? "thread loop" : "not a thread loop",
                         lv.thread ? "map threads" : "not a thread loop");
            /* statement counts: the flops explain's models use */
            for (int s = 0; s < l->nstmts; s++)
                for (int a = 0; a < rt_facts_naccesses(f); a++) {
                    rt_access_view av;
                    if (rt_facts_access_view(f, a, &av) == 0 && av.stmt_id == l->stmts[s].id) {
                        const db_stmt_info *st = &l->stmts[s];
                        double want = st->fadd + st->fmul + st->fdiv + st->fmath;
                        if (want != av.stmt_flops) {
                            char x[32], y[32];
                            snprintf(x, sizeof x, "%g", want);
                            snprintf(y, sizeof y, "%g", av.stmt_flops);
                            mismatch(file, line, "statement flops", st->line, x, y);
                        }
                        rt_facts_view_free(NULL, &av);
                        break;
                    }
                    rt_facts_view_free(NULL, &av);
                }
            rt_facts_view_free(&lv, NULL);
            db_free_loop(l);
        }
        for (int a = 0; a < rt_facts_naccesses(f); a++, naccs++) {
            rt_access_view av;
            if (rt_facts_access_view(f, a, &av) != 0) {
                printf("MISMATCH %s:%d: access %d unreadable\n", file, line, a);
                fails++;
                continue;
            }
            int tline = 0, fs = 0;
            char *st = NULL, *cls = NULL, *in = NULL, *icls = NULL;
            int g = db_get_stride(d, av.id, &tline, &st, &cls, &in, &icls, &fs, err, sizeof err);
            char at[32];
            snprintf(at, sizeof at, "access %lld", (long long)av.id);
            if (g < 0) {
                printf("MISMATCH %s:%d: %s: %s\n", file, line, at, err);
                fails++;
            } else if (g == 1 && av.thread_line != 0) {
                char y[32];
                snprintf(y, sizeof y, "thread loop line %d", av.thread_line);
                mismatch(file, line, at, line, "no thread loop", y);
            } else if (g == 0) {
                if (tline != av.thread_line) {
                    char x[32], y[32];
                    snprintf(x, sizeof x, "thread loop line %d", tline);
                    snprintf(y, sizeof y, "thread loop line %d", av.thread_line);
                    mismatch(file, line, at, line, x, y);
                } else if (!same(st, av.stride))
                    mismatch(file, line, at, tline, st, av.stride);
            }
            free(st), free(cls), free(in), free(icls);
            rt_facts_view_free(NULL, &av);
        }
        rt_facts_free(f);
    }
    printf("agree: %d nests, %d loops, %d accesses compared, %d mismatched\n", nests, nloops,
           naccs, fails);
    roots_free(&v);
    db_close(d);
    if (nests != atoi(argv[2])) {
        printf("FAIL: %d nests, want %s\n", nests, argv[2]);
        return 1;
    }
    return fails ? 1 : 0;
}
