/*
 * report.c -- `keel report [DB]`: what to port first.  The ranking of
 * rank.c (nests by the time the GPU would save, at the logged launch
 * sizes or at --size N) as a table of the top N nests (--top N, --all)
 * or as JSON (--json: every ranked nest).  The idiom listing of PIR that
 * `keel report` printed before is `keel report --idioms` (keel.c).
 */
#define _XOPEN_SOURCE 700

#include "keel.h"
#include "util.h"
#include "rank.h"

#include "db.h"
#include "db_report.h"
#include "rt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The files keelcc compiled but could not analyse: none of their loops is
 * ranked, so the report names them. */
typedef struct {
    char *path, *variant, *message;
} failed_unit_row;
typedef struct {
    failed_unit_row *v;
    int n;
    int oom;
} failed_units;

static char *dup_or_null(const char *s, int *oom)
{
    char *d = s ? strdup(s) : NULL;
    if (s && !d)
        *oom = 1;
    return d;
}

static int failed_unit(void *ctx, const char *path, const char *variant, const char *message)
{
    failed_units *f = ctx;
    failed_unit_row *r = ku_push(&f->v, &f->n, sizeof *f->v);
    if (!r)
        return f->oom = 1;
    r->path = dup_or_null(path, &f->oom);
    r->variant = dup_or_null(variant, &f->oom);
    r->message = dup_or_null(message, &f->oom);
    return 0;
}

static void failed_units_free(failed_units *f)
{
    for (int i = 0; i < f->n; i++) {
        free(f->v[i].path);
        free(f->v[i].variant);
        free(f->v[i].message);
    }
    free(f->v);
}

static int print_json(const keel_ranking *r, const keel_machines *m, long long size,
                      const failed_units *fu)
{
    keel_json *j = keel_json_new();
    if (!j)
        return keel_say(1, "out of memory");
    keel_json_object(j, NULL);
    keel_json_str(j, "host", m->host.name);
    keel_json_int(j, "threads", m->threads);
    keel_json_str(j, "device", m->gpus[0]->name);
    keel_json_int(j, "size", size);
    keel_json_int(j, "nests", r->n);
    keel_json_int(j, "ranked_at_launches", r->with_launches);
    keel_json_array(j, "ranking");
    for (int k = 0; k < r->n; k++) {
        const keel_rank_nest *n = &r->v[k];
        char why[512], x[32];
        keel_json_object(j, NULL);
        keel_json_int(j, "rank", k + 1);
        keel_json_int(j, "nest", n->num);
        keel_json_str(j, "file", n->file);
        keel_json_int(j, "line", n->line);
        keel_json_int(j, "col", n->col);
        keel_json_str(j, "function", n->function);
        keel_json_csv(j, "idioms", n->idioms);
        keel_json_int(j, "loops", n->nloops);
        keel_json_str(j, "verdict", keel_rank_verdict(n));
        keel_json_int(j, "launches", n->launches);
        keel_json_int(j, "logged", n->logged);
        if (n->launches || !n->size)
            keel_json_null(j, "size");
        else
            keel_json_int(j, "size", n->size);
        int have = n->launches || n->size;
        if (have && (n->evaluated || n->cpu_s > 0)) {
            keel_json_num(j, "cpu_s", n->cpu_s);
            keel_json_num(j, "gpu_s", n->gpu_s);
            keel_json_num(j, "xfer_s", n->xfer_s);
        } else {
            keel_json_null(j, "cpu_s");
            keel_json_null(j, "gpu_s");
            keel_json_null(j, "xfer_s");
        }
        keel_json_num(j, "saves_s", n->save_s);
        keel_json_int(j, "gpu_launches", n->gpu_launches);
        keel_rank_xover_text(n, x, sizeof x);
        if (n->xover_status == 1 && n->nneed > 0 && n->why != KEEL_WHY_NOT_PARALLEL)
            keel_json_int(j, "crossover", n->xover);
        else
            keel_json_null(j, "crossover");
        keel_json_str(j, "crossover_text", x);
        if (n->why == KEEL_WHY_NONE) {
            keel_json_null(j, "reason");
            keel_json_null(j, "reason_text");
        } else {
            keel_why_text(n, why, sizeof why);
            keel_json_str(j, "reason", keel_why_name(n->why));
            keel_json_str(j, "reason_text", why);
        }
        if (n->port_better) {
            keel_json_num(j, "best_mapping_gpu_s", n->port_gpu_s);
            keel_json_str(j, "best_mapping", n->port);
        } else {
            keel_json_null(j, "best_mapping_gpu_s");
            keel_json_null(j, "best_mapping");
        }
        keel_json_str(j, "site", n->site);
        keel_json_str(j, "site_why", n->site_why);
        keel_json_str(j, "no_answer", n->no_answer);
        keel_json_end(j);
    }
    keel_json_end(j);
    keel_json_array(j, "not_analysed");
    for (int i = 0; i < fu->n; i++) {
        keel_json_object(j, NULL);
        const failed_unit_row *u = &fu->v[i];
        keel_json_str(j, "file", u->path);
        if (u->variant)
            keel_json_str(j, "variant", u->variant);
        else
            keel_json_null(j, "variant");
        keel_json_str(j, "reason", u->message ? u->message : "the analysis failed");
        keel_json_end(j);
    }
    keel_json_end(j);
    keel_json_end(j);
    int rc = keel_json_print(j, stdout);
    keel_json_free(j);
    return rc;
}

static void print_failed(const failed_units *fu)
{
    if (fu->n)
        printf("\nNot analysed (keelcc compiled them but could not read them; their loops are"
               " in no ranking):\n");
    for (int i = 0; i < fu->n; i++) {
        const failed_unit_row *u = &fu->v[i];
        printf("  %s%s%s%s: %s\n", keel_short_path(u->path), u->variant ? " (" : "",
               u->variant ? keel_printable(u->variant) : "", u->variant ? ")" : "",
               u->message ? keel_printable(u->message) : "the analysis failed");
    }
}

/* Of the nests shown, those the program never decides at run time (no
 * keel_decide call before them: not instrumented because ...) and those
 * keel gives no verdict that follows their sizes (no answer because ...);
 * a build without instrumentation is said once. */
static void print_reasons(const keel_ranking *r, int shown)
{
    int head = 0;
    const char *off = NULL;
    for (int k = 0; k < shown; k++) {
        const keel_rank_nest *n = &r->v[k];
        int none = n->site && !strcmp(n->site, "none");
        if (n->site && !strcmp(n->site, "off") && !off)
            off = n->site_why ? n->site_why : "built without instrumentation";
        if (!none && !n->no_answer)
            continue;
        if (!head++)
            printf("\nWhy keel does not decide these nests at run time, or cannot answer for"
                   " them:\n");
        printf("  - N%d %s:%d\n", n->num, keel_short_path(n->file), n->line);
        if (none)
            printf("      not instrumented because %s\n",
                   keel_printable(n->site_why ? n->site_why : "?"));
        if (n->no_answer)
            printf("      no answer because %s\n", keel_printable(n->no_answer));
    }
    if (off)
        printf("\nNo nest has a keel_decide call: %s.\n", keel_printable(off));
}

static void print_text(const keel_ranking *r, const keel_machines *m, long long size, int top)
{
    int shown = top > 0 && top < r->n ? top : r->n;
    printf("What to port first: nests ranked by the time the GPU (%s) would save over the"
           " host CPU (%s, %d thread%s).\n", m->gpus[0]->name, m->host.name, m->threads,
           m->threads == 1 ? "" : "s");
    if (r->with_launches)
        printf("%d of %d nests ranked at the sizes the program ran (logged launches), the"
               " others at N=%lld (every size symbol; --size).\n", r->with_launches, r->n, size);
    else
        printf("No launches logged: every nest at N=%lld (every size symbol; --size); run the"
               " program to rank at its sizes.\n", size);
    if (r->n == 0) {
        printf("no loop nests in the database\n");
        return;
    }
    /* column widths: the location and the function fit their widest entry */
    int wloc = 8, wfun = 8;
    char loc[4096];
    for (int k = 0; k < shown; k++) {
        keel_fmtn(loc, sizeof loc, "%s:%d", keel_short_path(r->v[k].file), r->v[k].line);
        int l = (int)strlen(loc), f = (int)strlen(keel_printable(r->v[k].function));
        wloc = l > wloc ? l : wloc;
        wfun = f > wfun ? f : wfun;
    }
    if (wloc > 60)
        wloc = 60;
    if (wfun > 24)
        wfun = 24;
    printf("\n%4s  %-5s %-*s  %-*s  %-7s  %-12s %9s %9s %9s  %-9s  %s\n", "RANK", "NEST",
           wloc, "LOCATION", wfun, "FUNCTION", "VERDICT", "AT", "CPU", "GPU+XFER", "SAVES",
           "CROSSOVER", "REASON");
    for (int k = 0; k < shown; k++) {
        const keel_rank_nest *n = &r->v[k];
        char nest[16], at[32], cpu[32], gpu[32], save[32], x[32], why[512];
        keel_fmtn(nest, sizeof nest, "N%d", n->num);
        keel_fmtn(loc, sizeof loc, "%s:%d", keel_short_path(n->file), n->line);
        size_t ll = strlen(loc);
        char cut[4096];
        const char *lp = loc;
        if ((int)ll > wloc) {                   /* keep the end, say what is cut */
            keel_fmtn(cut, sizeof cut, "...%s", loc + ll - (wloc - 3));
            lp = cut;
        }
        keel_rank_basis_text(n, at, sizeof at);
        keel_rank_times_text(n, cpu, gpu, save, sizeof cpu);
        keel_rank_xover_text(n, x, sizeof x);
        keel_why_text(n, why, sizeof why);
        printf("%4d  %-5s %-*s  %-*.*s  %-7s  %-12s %9s %9s %9s  %-9s  %s\n", k + 1, nest,
               wloc, lp, wfun, wfun, keel_printable(n->function), keel_rank_verdict(n), at, cpu,
               gpu, save, x, why[0] ? keel_printable(why) : "-");
    }
    if (shown < r->n)
        printf("(the top %d of %d nests: --all for every one, --top N for more)\n", shown, r->n);
    int ports = 0;
    for (int k = 0; k < shown; k++)
        ports += r->v[k].port_better;
    if (ports)
        printf("\nWhat a good port would give (the best legal mapping keel sees, at N=%lld;"
               " the verdicts above are about the code as compiled):\n", size);
    for (int k = 0; k < shown; k++)
        if (r->v[k].port_better)
            printf("  N%-4d %s:%d  %s\n", r->v[k].num, keel_short_path(r->v[k].file),
                   r->v[k].line, keel_printable(r->v[k].port));
    print_reasons(r, shown);
}

int keel_cmd_rank(const char *dbpath, const char *file, int json, int top, long long size,
                  const char *devlist, const char *hostname, int threads)
{
    keel_machines m;
    int rc = keel_machines_pick(dbpath, devlist, hostname, threads, &m);
    if (rc >= 0)
        return rc;
    db *d;
    char err[512];
    if (db_open(dbpath, DB_READONLY, &d, err, sizeof err))
        return keel_say(1, "%s", err);
    keel_rank_opts o = { .host = &m.host, .gpu = m.gpus[0], .threads = m.threads,
                         .threads_given = m.threads_given, .size = size, .file = file };
    keel_ranking r;
    if (keel_rank(d, &o, &r, err, sizeof err)) {
        db_close(d);
        return keel_say(1, "%s", err);
    }
    failed_units fu = { 0 };
    db_report_failed_units(d, file, failed_unit, &fu);
    db_close(d);
    if (fu.oom)
        rc = keel_say(1, "out of memory");
    else if (json)
        rc = print_json(&r, &m, size, &fu);
    else {
        print_text(&r, &m, size, top);
        print_failed(&fu);
        rc = 0;
    }
    failed_units_free(&fu);
    keel_ranking_free(&r);
    return rc;
}
