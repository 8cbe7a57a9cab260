/*
 * html.c -- `keel report --html FILE [DB]`: one self-contained HTML page
 * (no network, no external files; charts are inline SVG, html_chart.c)
 * that a person reads in a browser.
 *
 * It holds, for the chosen host CPU profile and GPU profiles (--host,
 * --device LIST; keel devices lists them):
 *   - first, what to port first: the ranking of rank.c (the same as
 *     `keel report`) for the first device -- the top ten, then every other
 *     nest behind a "more" switch -- each row linked to its nest;
 *   - a summary (sources, functions, nests, loops; per device how many
 *     nests the GPU wins at the reference size --size N);
 *   - a roofline chart per device, of the nests ranked highest;
 *   - the boat-hull view per algorithm class, at most 4 nests a chart;
 *   - per source and function, each nest with its loops: idioms, class,
 *     parallel verdict, strides (coalescing summary), llvm-mca cycles per
 *     iteration, a small chart of its time against N, and per device the
 *     crossover size (the smallest N, every size symbol of the nest set to
 *     N, at which GPU + transfers beats the CPU; "never" up to 2^20 or when
 *     not parallel; "cannot evaluate" marked apart from "CPU wins"), plus
 *     the decisions the runtime logged for the nest.
 *
 * Every prediction comes from runtime/sweep.c, i.e. rt_facts_bind and
 * rt_estimate_all, the functions keel_decide and keel explain call, so the
 * numbers are those of `keel explain --sweep '*=LO:HI'`.  The page is
 * written as well-formed XHTML-compatible HTML5 (every element closed,
 * text escaped) so an XML parser can check it.  Its one inline script only
 * checks the page in the browser that shows it: every ranking link leads
 * to a nest, every nest is reached from the ranking, and no script error
 * happened; it writes the outcome into #selfcheck (and errors into
 * #script-errors), which the browser test reads.
 */
#define _XOPEN_SOURCE 700

#include "keel.h"
#include "html.h"

#include "db.h"
#include "db_report.h"
#include "facts.h"
#include "model.h"
#include "rt.h"
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


static char *dupz(const char *s)
{
    return strdup(s ? s : "");
}

static int collect(void *ctx, const db_loop_summary *s)
{
    rows *rs = ctx;
    row *r = ku_push(&rs->r, &rs->n, sizeof *rs->r);
    if (!r)
        return 1;
    r->file = dupz(s->file);
    r->function = dupz(s->function);
    r->iv = dupz(s->iv);
    r->trip = dupz(s->trip);
    r->idioms = dupz(s->idioms);
    r->cls = dupz(s->algorithm_class);
    r->parallel = dupz(s->parallel);
    r->coalescing = dupz(s->coalescing);
    r->line = s->line;
    r->col = s->col;
    r->depth = s->depth;
    r->has_cycles = s->has_cycles;
    r->cycles = s->cycles_per_iter;
    r->loop_id = s->loop_id;
    return 0;
}


/* "a|b(c) ^ d|e -> f|g" -> "b ^ e -> g": the patterns of a class without
 * their ranges, the key of the boat-hull view. */
static char *hull_class(const char *cls)
{
    if (!cls || !*cls)
        return strdup("(no class)");
    size_t n = strlen(cls);
    char *out = malloc(n + 1), *o = out;
    if (!out)
        return NULL;
    const char *p = cls;
    while (*p) {
        const char *bar = strchr(p, '|');
        if (!bar)
            break;
        const char *q = bar + 1;
        int depth = 0;
        while (*q && !(depth == 0 && *q == ' ')) {
            if (*q == '(')
                depth++;
            else if (*q == ')')
                depth--;
            else if (depth == 0)
                *o++ = *q;
            q++;
        }
        /* separator " ^ " or " -> " */
        while (*q == ' ' || *q == '^' || *q == '-' || *q == '>') {
            if (*q == '^') {
                memcpy(o, " ^ ", 3);
                o += 3;
            } else if (*q == '>') {
                memcpy(o, " -> ", 4);
                o += 4;
            }
            q++;
        }
        p = q;
    }
    *o = 0;
    if (!out[0]) {
        free(out);
        return strdup(cls);
    }
    return out;
}

/* The idioms of every loop of a nest, each once, in order of appearance. */
static char *nest_label(const rows *rs, const nest *ns)
{
    char buf[512] = "";
    for (int i = ns->first; i < ns->first + ns->nrows; i++) {
        const char *p = rs->r[i].idioms;
        while (p && *p) {
            const char *c = strchr(p, ',');
            size_t n = c ? (size_t)(c - p) : strlen(p);
            char word[64];
            keel_fmtn(word, sizeof word, "%.*s", (int)n, p);
            int seen = 0;
            for (const char *b = buf; (b = strstr(b, word)) != NULL; b += n)
                if ((b == buf || b[-1] == ',') && (b[n] == ',' || b[n] == 0))
                    seen = 1;
            if (!seen && word[0] && strlen(buf) + n + 2 < sizeof buf) {
                if (buf[0])
                    strcat(buf, ",");
                strcat(buf, word);
            }
            p += n + (c != NULL);
        }
    }
    return strdup(buf);
}


/* ---- the page ------------------------------------------------------------- */

/* The table of a nest's logged decisions: the newest MAXROWS (a run over
 * many sizes logs one per size), the caption saying how many there are. */
#define MAXROWS 20
typedef struct {
    FILE *o;
    int num, line, n;
    const char *file;
    long long all;
} dec_table;

static int decision_row(void *ctx, const db_decision_row *r)
{
    dec_table *t = ctx;
    FILE *o = t->o;
    if (t->n++ == 0) {
        fprintf(o, "<h4>N%d ", t->num);
        html_esc(o, t->file);
        fprintf(o, ":%d</h4>\n", t->line);
    }
    if (t->n == 1) {
        fputs("<table class=\"dec\"><caption>decisions logged at run time (newest first", o);
        if (t->all > MAXROWS)
            fprintf(o, "; the newest %d of %lld", MAXROWS, t->all);
        fputs(")</caption><tr><th>sizes</th><th>device</th><th>threads</th><th>cpu</th>"
              "<th>gpu</th><th>xfer</th><th>verdict</th><th>when</th></tr>\n", o);
    }
    char c[32], g[32], x[32];
    rt_format_time(c, sizeof c, r->cpu_s);
    rt_format_time(g, sizeof g, r->gpu_s);
    rt_format_time(x, sizeof x, r->xfer_s);
    fputs("<tr><td>", o);
    html_esc(o, r->bindings);
    fputs("</td><td>", o);
    html_esc(o, r->device);
    fprintf(o, "</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>", r->threads, c, g, x);
    html_esc(o, r->verdict);
    fputs("</td><td>", o);
    html_esc(o, r->decided_at);
    fputs("</td></tr>\n", o);
    return 0;
}

static int decisions(FILE *o, db *d, long long loop_id, int num, const char *file,
                     int line)
{
    dec_table t = { .o = o, .num = num, .line = line, .file = file,
                    .all = db_report_decision_count(d, loop_id, NULL) };
    if (db_report_decisions(d, loop_id, MAXROWS, decision_row, &t) < 0)
        return 0;
    if (t.n)
        fputs("</table>\n", o);
    return t.n;
}

static void measured(FILE *o, const nest *n, const char *file, int line, int heading)
{
    if (!n->nmeas)
        return;
    if (heading) {
        fprintf(o, "<h4>N%d ", n->num);
        html_esc(o, file);
        fprintf(o, ":%d</h4>\n", line);
    }
    fputs("<table class=\"meas\"><caption>measured history (mean per size and device)</caption>"
          "<tr><th>sizes</th><th>device</th><th>samples</th><th>mean</th></tr>\n", o);
    for (int j = 0; j < n->nmeas; j++) {
        char t[32];
        rt_format_time(t, sizeof t, n->meas[j].t);
        fputs("<tr><td>", o);
        html_esc(o, n->meas[j].what);
        fprintf(o, "</td><td>%s</td><td>%d</td><td>%s</td></tr>\n", n->meas[j].gpu ? "gpu" : "cpu",
                n->meas[j].samples, t);
    }
    fputs("</table>\n", o);
}

/* Logged decisions of a nest on device dev as points of the boat-hull
 * view: x is the geometric mean of the launch's sizes (exact for a nest of
 * one size symbol), y its CPU and GPU + transfer times. */
static int decision_point(void *ctx, const char *b, double cpu_s, double gpu_xfer_s)
{
    nest *n = ctx;
    if (n->ndec >= MAXDEC)
        return 1;
    double logsum = 0;
    int k = 0;
    for (const char *p = b ? strchr(b, '=') : NULL; p; p = strchr(p + 1, '=')) {
        double v = atof(p + 1);
        if (v >= 1) {
            logsum += log(v);
            k++;
        }
    }
    if (!k)
        return 0;
    n->dec[n->ndec].n = exp(logsum / k);
    n->dec[n->ndec].cpu_s = cpu_s;
    n->dec[n->ndec].gpu_s = gpu_xfer_s;
    keel_fmtn(n->dec[n->ndec].what, sizeof n->dec[0].what, "%s", b);
    n->ndec++;
    return 0;
}

static void load_decisions(db *d, long long loop_id, const char *dev, nest *n)
{
    if (db_report_decision_points(d, loop_id, dev, MAXDEC, decision_point, n))
        return;
    n->ndec_all = n->ndec;
    n->ndec_all = db_report_decision_count(d, loop_id, dev);
}

/* The geometric mean of the values of "a=1,b=2" (0 when none). */
static double size_of(const char *b)
{
    double logsum = 0;
    int k = 0;
    for (const char *p = b ? strchr(b, '=') : NULL; p; p = strchr(p + 1, '='))
        if (atof(p + 1) >= 1) {
            logsum += log(atof(p + 1));
            k++;
        }
    return k ? exp(logsum / k) : 0;
}

/* Measured times of a nest (the history table libkeelrt writes when it
 * exists: per size key and device, samples and their mean). */
static int history_row(void *ctx, const db_history_row *r)
{
    nest *n = ctx;
    double x = size_of(r->size_key);
    if (x <= 0)
        return 0;
    int k = n->nmeas;
    measure *m = ku_push(&n->meas, &k, sizeof *m);
    if (!m || !(m->what = strdup(r->size_key)))
        return 1;               /* out of memory: the rows so far */
    m->n = x;
    m->gpu = r->device && strcmp(r->device, "gpu") == 0;
    m->samples = r->samples;
    m->t = r->mean_s;
    n->nmeas++;
    return 0;
}

static void load_history(db *d, long long loop_id, nest *n)
{
    db_report_history(d, loop_id, history_row, n);   /* 1: no table, nothing measured */
}

static void xover_text(char *b, size_t n, const nest *ns, int dev)
{
    if (!ns->loaded)
        keel_fmtn(b, n, "-");
    else if (ns->not_parallel)
        keel_fmtn(b, n, "never (%s)", ns->serial ? ns->serial : "not parallel");
    else if (ns->xover_status[dev] < 0)
        keel_fmtn(b, n, "-");
    else if (ns->nneed == 0)
        keel_fmtn(b, n, ns->xover_status[dev] ? "GPU (fixed sizes)" : "never (fixed sizes)");
    else if (ns->xover_status[dev] == 1)
        keel_fmtn(b, n, "%lld", ns->xover[dev]);
    else
        keel_fmtn(b, n, "never");
}

/* ---- the ranking (rank.c) on the first screen ------------------------------ */

#define RANK_TOP 10             /* rows shown before the "more" switch */
#define ROOF_NESTS 6            /* nests per roofline: 6 pairs and 2 ceilings */
#define HULL_PER_CHART 4        /* nests per boat-hull chart: 8 curves */
#define HULL_PER_CLASS 12       /* nests drawn per class */

static const char *verdict_class(const keel_rank_nest *n)
{
    const char *v = keel_rank_verdict(n);
    return strcmp(v, "GPU") == 0 ? "gpu" : strcmp(v, "CPU") == 0 ? "cpu" : "unk";
}

static void rank_head(FILE *o, const char *id)
{
    fprintf(o, "<table class=\"ranking\"%s%s%s><tr><th>rank</th><th>nest</th><th>location</th>"
               "<th>function</th><th>verdict</th><th>at</th><th>cpu</th><th>gpu+xfer</th>"
               "<th>saves</th><th>crossover</th><th>why not on the GPU</th></tr>\n",
            id ? " id=\"" : "", id ? id : "", id ? "\"" : "");
}

/* The last two parts of a path ("gemm/gemm.c"): the location column stays
 * narrow, the whole path is the cell's title. */
static const char *tail_path(const char *p)
{
    const char *last = strrchr(p, '/');
    if (!last)
        return p;
    const char *q = last;
    while (q > p && q[-1] != '/')
        q--;
    return q > p ? q : p;
}

static void rank_row(FILE *o, const keel_rank_nest *n, int pos)
{
    char at[32], cpu[32], gpu[32], save[32], x[32], why[512];
    keel_rank_basis_text(n, at, sizeof at);
    keel_rank_times_text(n, cpu, gpu, save, sizeof cpu);
    keel_rank_xover_text(n, x, sizeof x);
    keel_why_text(n, why, sizeof why);
    const char *vc = verdict_class(n);
    fprintf(o, "<tr class=\"rank r-%s\" data-nest=\"%d\" data-reason=\"%s\"><td class=\"num\">%d"
               "</td><td><a href=\"#nest-%d\">N%d</a></td><td class=\"loc\" title=\"", vc,
            n->num, keel_why_name(n->why), pos, n->num, n->num);
    html_esc(o, n->file);
    fputs("\">", o);
    html_esc(o, tail_path(n->file));
    fprintf(o, ":%d</td><td>", n->line);
    html_esc(o, n->function);
    fprintf(o, "</td><td class=\"verdict\">%s</td><td>", keel_rank_verdict(n));
    html_esc(o, at);
    fprintf(o, "</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
               "<td class=\"num\">", cpu, gpu, save);
    html_esc(o, x);
    fputs("</td><td>", o);
    html_esc(o, why[0] ? why : "-");
    /* the nest as keelcc left it: no call before it, no sized answer */
    if (n->site && !strcmp(n->site, "none")) {
        fputs("<br/><small class=\"site-why\">not instrumented because ", o);
        html_esc(o, n->site_why ? n->site_why : "?");
        fputs("</small>", o);
    }
    if (n->no_answer) {
        fputs("<br/><small class=\"no-answer\">no answer because ", o);
        html_esc(o, n->no_answer);
        fputs("</small>", o);
    }
    fputs("</td></tr>\n", o);
}

static void ranking(FILE *o, const keel_ranking *rk, const rt_profile *gpu, const rt_profile *host,
                    int threads, long long size)
{
    fputs("<section id=\"ranking\"><h2>What to port first</h2>\n<p>Nests ranked by the time"
          " running them on <b>", o);
    html_esc(o, gpu->name);
    fputs("</b> would save over the host CPU (<b>", o);
    html_esc(o, host->name);
    fprintf(o, "</b>, %d thread%s): ", threads, threads == 1 ? "" : "s");
    if (rk->with_launches)
        fprintf(o, "%d of %d nests at the sizes the program ran (its logged launches, summed),"
                   " the others at N=%lld (every size symbol; --size).", rk->with_launches,
                rk->n, size);
    else
        fprintf(o, "no launches are logged, so every nest at N=%lld (every size symbol; --size)."
                   " Run the program to rank at its own sizes.", size);
    fputs(" <span class=\"v-gpu\">GPU</span>: the GPU wins there;"
          " <span class=\"v-cpu\">CPU</span>: the CPU is the better place, the last column"
          " says why; <span class=\"v-unk\">unknown</span>: the models cannot evaluate the nest."
          " Each nest links to its table and chart below.</p>\n", o);
    rank_head(o, "ranking-table");
    for (int k = 0; k < rk->n && k < RANK_TOP; k++)
        rank_row(o, &rk->v[k], k + 1);
    fputs("</table>\n", o);
    if (rk->n > RANK_TOP) {
        fprintf(o, "<details><summary>the other %d nests</summary>\n", rk->n - RANK_TOP);
        rank_head(o, NULL);
        for (int k = RANK_TOP; k < rk->n; k++)
            rank_row(o, &rk->v[k], k + 1);
        fputs("</table></details>\n", o);
    }
    fputs("</section>\n", o);
}

static void free_nests(rows *rs, nest *ns, int nn)
{
    for (int i = 0; i < rs->n; i++) {
        row *r = &rs->r[i];
        free(r->file); free(r->function); free(r->iv); free(r->trip); free(r->idioms);
        free(r->cls); free(r->parallel); free(r->coalescing);
    }
    for (int k = 0; ns && k < nn; k++) {
        free(ns[k].label);
        free(ns[k].hull_class);
        for (int j = 0; j < ns[k].nmeas; j++)
            free(ns[k].meas[j].what);
        free(ns[k].meas);
    }
    free(ns);
    free(rs->r);
}

/* The page's script, in two parts: the first (in <head>) catches every
 * script error into #script-errors; the second (at the end) checks that
 * every ranking link leads to a nest and every nest is linked from the
 * ranking, and writes the outcome into #selfcheck.  Neither holds '<' or
 * '&', so the page stays well-formed XML. */
static const char script_head[] =
    "window.keelErrors=[];"
    "window.onerror=function(msg,src,line){"
    "window.keelErrors.push(String(msg)+' (line '+line+')');"
    "var e=document.getElementById('script-errors');"
    "if(e){e.textContent='script errors: '+window.keelErrors.join('; ');}};";

static const char script_check[] =
    "(function(){var bad=[],seen={};"
    "var links=document.querySelectorAll('#ranking a[href^=\"#nest-\"]');"
    "for(var i=0;i!==links.length;i++){var id=links[i].getAttribute('href').slice(1);"
    "if(!document.getElementById(id)){bad.push('no '+id);}seen[id]=1;}"
    "var nests=document.querySelectorAll('tr.nest');"
    "for(var j=0;j!==nests.length;j++){if(!seen[nests[j].id]){bad.push(nests[j].id+' not ranked');}}"
    "if(!document.getElementById('ranking-table')){bad.push('no ranking');}"
    "if(window.keelErrors.length){bad.push(window.keelErrors.length+' script errors');}"
    "var c=document.getElementById('selfcheck');"
    "c.setAttribute('data-status',bad.length?'fail':'ok');"
    "c.setAttribute('data-nests',String(nests.length));"
    "c.setAttribute('data-ranked',String(links.length));"
    "c.textContent='page check: '+(bad.length?bad.join('; '):'ok, '+nests.length+"
    "' nests, each reached from the ranking');})();";

static const char css[] =
    "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:1400px}"
    "h1{font-size:1.6em}h2{border-bottom:1px solid #aaa;margin-top:1.6em}"
    "h3{font-family:monospace;font-size:1.05em;background:#eef;padding:.2em .4em}"
    "h4{margin:.8em 0 .3em 0}"
    "table{border-collapse:collapse;font-size:.85em;margin:.3em 0 1em 0}"
    "th,td{border:1px solid #ccc;padding:.15em .4em;text-align:left;vertical-align:top}"
    "th{background:#f3f3f3}tr.nest td{border-top:2px solid #888}"
    "td.num{text-align:right;font-family:monospace}td.loc{font-family:monospace;white-space:nowrap}"
    "td.cls{font-family:monospace;font-size:.9em;max-width:28em;overflow-wrap:anywhere}"
    "td.gpu{background:#fde2e2}td.cpu{background:#e2ecfd}"
    "figure{display:inline-block;margin:.5em 1em .5em 0;vertical-align:top}"
    "figcaption{font-size:.85em;max-width:720px}"
    ".tick{font-size:10px;fill:#555}.lab{font-size:12px}.roof{font-size:11px;text-anchor:end}"
    ".pt{font-size:10px}caption{text-align:left;font-style:italic}"
    "td.unk,tr.r-unk td,.noeval{background:repeating-linear-gradient(45deg,#eee 0,#eee 4px,"
    "#fff 4px,#fff 8px);color:#555}"
    "tr.r-gpu td.verdict{background:#fde2e2;color:#b00;font-weight:bold}"
    "tr.r-cpu td.verdict{background:#e2ecfd;color:#147}tr.r-unk td.verdict{font-style:italic}"
    ".v-gpu{color:#b00;font-weight:bold}.v-cpu{color:#147}.v-unk{color:#555;font-style:italic}"
    "table.ranking td{white-space:nowrap}table.ranking td:last-child{white-space:normal;max-width:40em}"
    "td.chart{padding:0}.noeval{padding:1em;max-width:260px;font-size:.85em}"
    ".legend{font-size:10px;color:#444;padding:0 .3em}"
    "#selfcheck{font-size:.75em;color:#888;margin:0}#script-errors{color:#b00;margin:0}"
    "details summary{cursor:pointer;margin:.3em 0}.note{font-size:.85em}";

static int set_size(void *dest, const char *arg)
{
    if (keel_parse_ll(arg, 1, (long long)1 << 40, dest))
        return keel_say(2, "bad --size '%s' (want 1 to %lld)", arg, (long long)1 << 40);
    return 0;
}

static int no_json(void *dest, const char *arg)
{
    (void)dest, (void)arg;
    return keel_say(2, "report --html writes HTML: --json is for keel report without --html");
}

/* One report being written: the options, the profiles, the database and
 * what was read from it.  The page owns rs, ns and rk (report_free). */
typedef struct {
    const char *dbpath, *file;
    long long size;
    const rt_profile *const *gpus;
    int ndev, threads, threads_given;
    rt_profile host;
    db *d;
    rows rs;
    nest *ns;         /* NULL when it could not be allocated */
    int nn;
    keel_ranking rk;
} report;

static void report_free(report *h)
{
    free_nests(&h->rs, h->ns, h->nn);
    keel_ranking_free(&h->rk);
    db_close(h->d);
}

/* The nests: an outermost loop and the rows after it that are deeper. */
static void group_nests(report *h)
{
    h->ns = calloc((size_t)h->rs.n + 1, sizeof *h->ns);
    for (int i = 0; h->ns && i < h->rs.n; i++) {
        if (h->rs.r[i].depth == 0 || h->nn == 0) {
            h->ns[h->nn].first = i;
            h->ns[h->nn].num = h->nn + 1;
            h->nn++;
        }
        h->ns[h->nn - 1].nrows++;
    }
}

/* A nest's predictions at the reference size, its crossovers, its hull
 * points (first device), its logged decisions and measured history. */
static void predict_nest(report *h, nest *n)
{
    const row *r = &h->rs.r[n->first];
    n->label = nest_label(&h->rs, n);
    n->hull_class = hull_class(r->cls);
    rt_facts *f = NULL;
    if (rt_facts_load(h->d, r->file, r->line, r->col, &f, n->err, sizeof n->err) != 0) {
        rt_facts_free(f);
        return;
    }
    const char *const *need;
    n->nneed = rt_facts_symbols(f, &need);
    n->loaded = 1;
    n->ref_ok = 1;
    char err[512];
    for (int dv = 0; dv < h->ndev; dv++) {
        rt_sweep s = { .host = &h->host, .gpu = h->gpus[dv], .threads = h->threads,
                       .threads_given = h->threads_given, .sym = "*" };
        if (rt_sweep_at(f, &s, h->size, &n->ref[dv], n->err, sizeof n->err))
            n->ref_ok = 0;
        n->not_parallel = n->ref[dv].not_parallel;
        n->serial = n->ref[dv].serial;
        n->xover_status[dv] = rt_sweep_crossover(f, &s, 1, XOVER_HI, &n->xover[dv], n->err,
                                                 sizeof n->err);
        if (dv == 0)
            for (long long v = HULL_LO; v <= HULL_HI && n->nhull < 16; v *= 2)
                if (rt_sweep_at(f, &s, v, &n->hull[n->nhull], err, sizeof err) == 0)
                    n->nhull++;
    }
    rt_facts_free(f);
    load_decisions(h->d, r->loop_id, h->gpus[0]->name, n);
    load_history(h->d, r->loop_id, n);
}

/* The ranking: rank.c's, for the first device; its N-numbers are ours.
 * 0, or -1 with the reason in err. */
static int rank_nests(report *h, char *err, size_t errlen)
{
    keel_rank_opts ro = { .host = &h->host, .gpu = h->gpus[0], .threads = h->threads,
                          .threads_given = h->threads_given, .size = h->size, .file = h->file };
    if (!h->ns)
        return ku_fail(err, errlen, "out of memory");
    if (keel_rank(h->d, &ro, &h->rk, err, errlen))
        return -1;
    for (int k = 0; k < h->rk.n; k++) {
        int i = h->rk.v[k].num - 1;
        if (i >= 0 && i < h->nn) {
            h->ns[i].rank = &h->rk.v[k];
            h->ns[i].rank_pos = k + 1;
        }
    }
    return 0;
}

/* <head>, the title paragraph (database, profiles), the page check. */
static void write_head(FILE *o, const report *h)
{
    char now[32];
    time_t tt = time(NULL);
    strftime(now, sizeof now, "%Y-%m-%d %H:%M UTC", gmtime(&tt));
    fputs("<!DOCTYPE html>\n<html lang=\"en\" xmlns=\"http://www.w3.org/1999/xhtml\"><head>"
          "<meta charset=\"utf-8\"/><title>keel report</title><style>", o);
    fputs(css, o);
    fputs("</style><script>", o);
    fputs(script_head, o);
    fputs("</script></head>\n<body>\n<h1>keel report</h1>\n<p>Database <code>", o);
    html_esc(o, h->dbpath);
    fprintf(o, "</code>, written %s. Host CPU profile <b>", now);
    html_esc(o, h->host.name);
    fputs("</b> (", o);
    html_esc(o, h->host.desc);
    fprintf(o, "; %d thread%s for nests with OpenMP pragmas%s), GPU profile%s", h->threads,
            h->threads == 1 ? "" : "s",
            h->threads_given ? ", and for every nest (--threads)" : ", one for the others",
            h->ndev > 1 ? "s" : "");
    for (int dv = 0; dv < h->ndev; dv++) {
        fputs(dv ? ", <b>" : " <b>", o);
        html_esc(o, h->gpus[dv]->name);
        fputs("</b>", o);
    }
    fputs(". Predictions are keel's models (the ones keel_decide runs): Liao-Chapman + roofline"
          " on the CPU, Hong-Kim + boat-hull transfer on the GPU.</p>\n", o);
    fputs("<p id=\"selfcheck\" data-status=\"not-run\">page check: not run (scripts off)</p>"
          "<p id=\"script-errors\"></p>\n", o);
}

/* The summary table: sources, functions, nests, loops, GPU wins per device. */
static void write_summary(FILE *o, const report *h)
{
    const rows *rs = &h->rs;
    int nsrc = 0, nfun = 0;
    for (int i = 0; i < rs->n; i++) {
        if (i == 0 || strcmp(rs->r[i].file, rs->r[i - 1].file))
            nsrc++, nfun++;
        else if (strcmp(rs->r[i].function, rs->r[i - 1].function))
            nfun++;
    }
    fprintf(o, "<h2 id=\"summary\">Summary</h2>\n<table class=\"summary\"><tr><th>sources</th>"
               "<th>functions</th><th>nests</th><th>loops</th>");
    for (int dv = 0; dv < h->ndev; dv++) {
        fputs("<th>GPU wins at N=", o);
        fprintf(o, "%lld on ", h->size);
        html_esc(o, h->gpus[dv]->name);
        fputs("</th>", o);
    }
    fprintf(o, "</tr>\n<tr><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">"
               "%d</td><td class=\"num\">%d</td>", nsrc, nfun, h->nn, rs->n);
    for (int dv = 0; dv < h->ndev; dv++) {
        int w = 0;
        for (int k = 0; k < h->nn; k++)
            w += h->ns[k].ref_ok && h->ns[k].ref[dv].gpu_wins;
        fprintf(o, "<td class=\"num\">%d of %d</td>", w, h->nn);
    }
    fputs("</tr></table>\n<p>Sections: <a href=\"#roofline\">roofline</a>, <a href=\"#hull\">"
          "boat-hull view per class</a>, <a href=\"#nests\">nests per source and function</a>."
          "</p>\n", o);
}

/* A roofline chart per device, of the nests ranked highest. */
static void write_rooflines(FILE *o, const report *h)
{
    fputs("<h2 id=\"roofline\">Roofline per device</h2>\n", o);
    for (int dv = 0; dv < h->ndev; dv++) {
        int order[ROOF_NESTS], norder = 0;
        for (int k = 0; k < h->rk.n && norder < ROOF_NESTS; k++) {
            int i = h->rk.v[k].num - 1;
            const rt_sweep_point *pt = i >= 0 && i < h->nn ? &h->ns[i].ref[dv] : NULL;
            if (pt && h->ns[i].ref_ok && pt->flops > 0 && pt->bytes > 0)
                order[norder++] = i;
        }
        html_roofline(o, &h->host, h->gpus[dv], dv, h->ns, order, norder, h->size);
    }
}

/* The boat-hull view: per class its nests in rank order, HULL_PER_CHART a
 * chart, at most HULL_PER_CLASS (the rest are in their tables with their
 * own charts). */
static void write_hulls(FILE *o, const report *h)
{
    const nest *ns = h->ns;
    int nn = h->nn;
    fputs("<h2 id=\"hull\">Boat-hull view per class</h2>\n<p>Classes in the boat-hull notation,"
          " ranges left out; predicted time of each nest against its problem size on the host"
          " and on ", o);
    html_esc(o, h->gpus[0]->name);
    fputs(".</p>\n", o);
    int *members = calloc((size_t)nn + 1, sizeof *members);
    char *done = calloc((size_t)nn + 1, 1);
    for (int k0 = 0; members && done && k0 < h->rk.n; k0++) {
        int k = h->rk.v[k0].num - 1;
        if (k < 0 || k >= nn || done[k] || !ns[k].hull_class)
            continue;
        int nm = 0, nclass = 0;
        for (int j0 = k0; j0 < h->rk.n; j0++) {
            int j = h->rk.v[j0].num - 1;
            if (j >= 0 && j < nn && !done[j] && ns[j].hull_class
                && strcmp(ns[j].hull_class, ns[k].hull_class) == 0) {
                done[j] = 1;
                nclass++;
                if (ns[j].nhull > 0 && nm < HULL_PER_CLASS)
                    members[nm++] = j;
            }
        }
        int parts = (nm + HULL_PER_CHART - 1) / HULL_PER_CHART;
        for (int part = 0; part < parts; part++) {
            int m0 = part * HULL_PER_CHART;
            int mn = nm - m0 < HULL_PER_CHART ? nm - m0 : HULL_PER_CHART;
            html_hull_chart(o, ns[k].hull_class, part + 1, parts, ns, members + m0, mn,
                            &h->host, h->gpus[0]);
        }
        if (nclass > nm && nm > 0) {
            fputs("<p class=\"note\">Class <code>", o);
            html_esc(o, ns[k].hull_class);
            fprintf(o, "</code>: the %d nests ranked highest of its %d are drawn.</p>\n", nm,
                    nclass);
        }
    }
    free(members);
    free(done);
}

/* The heading of a source and of a function's nest table, as k starts them. */
static void write_nest_heading(FILE *o, const report *h, int k)
{
    const row *r0 = &h->rs.r[h->ns[k].first];
    int new_file = k == 0 || strcmp(r0->file, h->rs.r[h->ns[k - 1].first].file);
    int new_fun = new_file || strcmp(r0->function, h->rs.r[h->ns[k - 1].first].function);
    if (new_fun && k > 0)
        fputs("</table>\n", o);
    if (new_file) {
        fputs("<h3>", o);
        html_esc(o, r0->file);
        fputs("</h3>\n", o);
    }
    if (new_fun) {
        fputs("<h4>", o);
        html_esc(o, r0->function);
        fputs("</h4>\n<table class=\"nests\"><tr><th>nest</th><th>loop</th><th>iv</th>"
              "<th>trip</th><th>idioms</th><th>class</th><th>parallel</th><th>strides</th>"
              "<th>cycles/iter</th><th>time against N</th>", o);
        for (int dv = 0; dv < h->ndev; dv++) {
            fputs("<th>crossover ", o);
            html_esc(o, h->gpus[dv]->name);
            fputs("</th>", o);
        }
        fputs("</tr>\n", o);
    }
}

/* A nest's first cell: its anchor, crossovers as data, its rank. */
static void write_nest_cell(FILE *o, const report *h, const nest *n, const row *r)
{
    fprintf(o, "<tr class=\"nest\" id=\"nest-%d\" data-file=\"", n->num);
    html_esc(o, r->file);
    fprintf(o, "\" data-line=\"%d\"", r->line);
    for (int dv = 0; dv < h->ndev; dv++) {
        char b[64];
        xover_text(b, sizeof b, n, dv);
        fputs(" data-crossover-", o);
        html_esc(o, h->gpus[dv]->name);
        fputs("=\"", o);
        html_esc(o, b);
        fputs("\"", o);
    }
    fprintf(o, "><td rowspan=\"%d\"><b>N%d</b>", n->nrows, n->num);
    if (n->rank)
        fprintf(o, "<br/><small>rank %d<br/><span class=\"v-%s\">%s</span></small>",
                n->rank_pos, verdict_class(n->rank), keel_rank_verdict(n->rank));
    fputs("</td>", o);
}

/* One loop's cells: place, iv, trip, idioms, class, verdict, strides, cycles. */
static void write_loop_cells(FILE *o, const row *r)
{
    fprintf(o, "<td class=\"loc\">%*s%d:%d</td><td>", 0, "", r->line, r->col);
    for (int s = 0; s < r->depth; s++)
        fputs("&#183;", o);
    html_esc(o, r->iv[0] ? r->iv : "-");
    fputs("</td><td class=\"loc\">", o);
    html_esc(o, r->trip[0] ? r->trip : "-");
    fputs("</td><td>", o);
    html_esc(o, r->idioms[0] ? r->idioms : "-");
    fputs("</td><td class=\"cls\">", o);
    html_esc(o, r->cls[0] ? r->cls : "");
    fputs("</td><td>", o);
    html_esc(o, r->parallel[0] ? r->parallel : "-");
    fputs("</td><td>", o);
    html_esc(o, r->coalescing[0] ? r->coalescing : "-");
    fputs("</td><td class=\"num\">", o);
    if (r->has_cycles)
        fprintf(o, "%.2f", r->cycles);
    else
        fputs("-", o);
    fputs("</td>", o);
}

/* A nest's chart cell and its crossover cell per device. */
static void write_nest_predictions(FILE *o, const report *h, const nest *n)
{
    char why[512] = "";
    if (n->rank)
        keel_why_text(n->rank, why, sizeof why);
    else if (n->err[0])
        keel_fmtn(why, sizeof why, "%s", n->err);
    fprintf(o, "<td rowspan=\"%d\" class=\"chart\">", n->nrows);
    html_nest_chart(o, n, why);
    fputs("</td>", o);
    for (int dv = 0; dv < h->ndev; dv++) {
        char b[64];
        xover_text(b, sizeof b, n, dv);
        int win = n->ref_ok && n->ref[dv].gpu_wins;
        int unknown = !n->loaded || !n->ref_ok
                      || (n->xover_status[dv] < 0 && !n->not_parallel);
        fprintf(o, "<td class=\"num %s\"><span class=\"xover\">",
                unknown ? "unk" : win ? "gpu" : "cpu");
        html_esc(o, b);
        fputs("</span>", o);
        if (n->ref_ok) {
            char c[32], g[32];
            rt_format_time(c, sizeof c, n->ref[dv].cpu_s);
            rt_format_time(g, sizeof g, n->ref[dv].gpu_s + n->ref[dv].xfer_s);
            fprintf(o, "<br/><small>N=%lld: cpu %s, gpu+xfer %s</small>", h->size, c, g);
        } else if (n->err[0]) {
            fputs("<br/><small>", o);
            html_esc(o, n->err);
            fputs("</small>", o);
        }
        fputs("</td>", o);
    }
}

/* Per source and function, each nest with its loops. */
static void write_nests(FILE *o, const report *h)
{
    fputs("<h2 id=\"nests\">Nests per source and function</h2>\n<p>Crossover: the smallest"
          " problem size N (every size symbol of the nest = N) at which the GPU with its"
          " transfers beats the CPU, searched up to 2^20; the same as <code>keel explain"
          " FILE:LINE --sweep '*=1:1048576'</code>.</p>\n", o);
    for (int k = 0; k < h->nn; k++) {
        const nest *n = &h->ns[k];
        write_nest_heading(o, h, k);
        for (int i = n->first; i < n->first + n->nrows; i++) {
            const row *r = &h->rs.r[i];
            if (i == n->first)
                write_nest_cell(o, h, n, r);
            else
                fputs("<tr>", o);
            write_loop_cells(o, r);
            if (i == n->first)
                write_nest_predictions(o, h, n);
            else
                for (int dv = 0; dv < h->ndev; dv++)
                    fputs("<td></td>", o);
            fputs("</tr>\n", o);
        }
    }
    if (h->nn)
        fputs("</table>\n", o);
}

/* Decisions, after the tables: one block per nest that has any. */
static void write_decisions(FILE *o, const report *h)
{
    int any_meas = 0;
    for (int k = 0; k < h->nn; k++)
        any_meas |= h->ns[k].nmeas > 0;
    if (db_report_decision_count(h->d, 0, NULL) > 0 || any_meas) {
        fputs("<h2 id=\"decisions\">Logged decisions and measured history</h2>\n<p>Launches"
              " the runtime decided (libkeelrt, with the real sizes) and the times it measured,"
              " per nest.</p>\n", o);
        for (int k = 0; k < h->nn; k++) {
            const row *r0 = &h->rs.r[h->ns[k].first];
            int nd = decisions(o, h->d, r0->loop_id, h->ns[k].num, r0->file, r0->line);
            measured(o, &h->ns[k], r0->file, r0->line, nd == 0);
        }
    }
}

/* The whole page, in the order of the file's prose block. */
static void write_page(FILE *o, const report *h)
{
    write_head(o, h);
    ranking(o, &h->rk, h->gpus[0], &h->host, h->threads, h->size);
    write_summary(o, h);
    write_rooflines(o, h);
    write_hulls(o, h);
    write_nests(o, h);
    write_decisions(o, h);
    fputs("<p><small>Written by keel report --html; no external resources. Its one script"
          " checks the page (#selfcheck) and shows script errors.</small></p>\n<script>", o);
    fputs(script_check, o);
    fputs("</script>\n</body></html>\n", o);
}

int keel_cmd_html(int argc, char **argv)
{
    const char *out_path = NULL, *file = NULL, *devlist = "h100", *hostname = NULL;
    int threads = 0, npos;
    long long size = 1000;
    const keel_opt opts[] = {
        KEEL_OPT_TEXT("html", &out_path),
        KEEL_OPT_TEXT("device", &devlist),
        KEEL_OPT_TEXT("host", &hostname),
        KEEL_OPT_INT("threads", &threads, 1, 1 << 20),     /* strict, as explain --threads */
        KEEL_OPT_CALL("size", &size, set_size),
        KEEL_OPT_TEXT("file", &file),
        KEEL_OPT_ACT("json", NULL, no_json),
        KEEL_OPT_LAST,
    };
    char **pos;
    int r = keel_getopts("report --html", "report", opts, argc, argv, -1, &pos, &npos);
    if (r >= 0)
        return r;
    if (npos > 1)
        return keel_say(2, "too many arguments for report --html");
    if (!out_path)
        return keel_say(2, "report --html needs FILE");
    report h = { .dbpath = npos ? pos[0] : keel_default_db(), .file = file, .size = size };

    keel_machines mach;
    r = keel_machines_pick(h.dbpath, devlist, hostname, threads, &mach);
    if (r >= 0)
        return r;
    h.gpus = mach.gpus;
    h.ndev = mach.ndev;
    h.threads_given = mach.threads_given;
    h.host = mach.host;
    h.threads = mach.threads;

    char err[512] = "";
    if (db_open(h.dbpath, DB_READONLY, &h.d, err, sizeof err))
        return keel_say(1, "%s", err);
    err[0] = 0;
    db_loop_filter flt = { .file = file, .file_match = DB_FILE_SUFFIX };
    if (db_each_loop(h.d, &flt, collect, &h.rs, err, sizeof err) != 0) {
        db_close(h.d);
        return keel_say(1, "%s", err[0] ? err : "out of memory");
    }
    group_nests(&h);
    for (int k = 0; h.ns && k < h.nn; k++)
        predict_nest(&h, &h.ns[k]);
    if (rank_nests(&h, err, sizeof err)) {
        report_free(&h);
        return keel_say(1, "%s", err);
    }

    FILE *o = fopen(out_path, "w");
    if (!o) {
        int e = errno;   /* before db_close, which may set it */
        report_free(&h);
        return keel_say(1, "%s: cannot write: %s", out_path, strerror(e));
    }
    write_page(o, &h);
    int werr = ferror(o);
    int cerr = fclose(o) != 0;
    report_free(&h);
    if (cerr || werr)
        return keel_say(1, "%s: write failed", out_path);
    printf("%s\n", out_path);
    return 0;
}
