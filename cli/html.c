/*
 * html.c -- `keel report --html FILE [DB]`: one self-contained HTML page
 * (no network, no scripts, no external files; charts are inline SVG) that a
 * person reads in a browser.
 *
 * It holds, for the chosen host CPU profile and GPU profiles (--host,
 * --device LIST; keel devices lists them):
 *   - a summary (sources, functions, nests, loops; per device how many
 *     nests the GPU wins at the reference size --size N);
 *   - a roofline chart per device (roofline lecture: attainable =
 *     min(peak, AI x bandwidth)): the host's and the GPU's ceilings, and
 *     each nest as two points at its arithmetic intensity (flops / bytes of
 *     the launch at size N): the CPU model's and the GPU model's predicted
 *     flop rate.  The GPU's compute ceiling is the Hong-Kim issue rate the
 *     model assumes (SMs x 32 lanes x clock / issue cycles), the profiles
 *     hold no other;
 *   - the boat-hull view per algorithm class (boat hull model: time against
 *     data size, one curve per device, the lower hull is where the nest
 *     should run): per class, each nest's CPU time and GPU + transfer time
 *     for N = 16 .. 16384 on the first device, crossovers marked;
 *   - per source and function, each nest with its loops: idioms, class,
 *     parallel verdict, strides (coalescing summary), llvm-mca cycles per
 *     iteration, and per device the crossover size (the smallest N, every
 *     size symbol of the nest set to N, at which GPU + transfers beats the
 *     CPU; "never" up to 2^20 or when not parallel), plus the decisions the
 *     runtime logged for the nest (measured launches with their sizes).
 *
 * Every prediction comes from runtime/sweep.c, i.e. rt_facts_bind and
 * rt_estimate_all, the functions keel_decide and keel explain call, so the
 * numbers are those of `keel explain --sweep '*=LO:HI'`.  The page is
 * written as well-formed XHTML-compatible HTML5 (every element closed,
 * text escaped) so an XML parser can check it.
 */
#define _XOPEN_SOURCE 700

#include "keel.h"

#include "calib.h"
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

#define MAXDEV 8
#define HULL_LO 16
#define HULL_HI 16384
#define XOVER_HI (1LL << 20)

typedef struct {
    char *file, *function, *iv, *trip, *idioms, *cls, *parallel, *coalescing;
    int line, col, depth, has_cycles;
    double cycles;
    long long loop_id;
} row;

/* One size and device of a nest's measured history. */
typedef struct {
    double n, t;
    int gpu, samples;
    char *what;                  /* the size key */
} measure;

/* Logged launches drawn per nest: the latest ones (the chart's marks
 * would cover each other); the caption says how many there are. */
#define MAXDEC 16

typedef struct {
    int first, nrows;        /* rows of this nest */
    int num;                 /* N1, N2 ... */
    char *label;             /* idioms of the nest, joined */
    char *hull_class;        /* class pattern without ranges */
    int loaded, nneed;
    int xover_status[MAXDEV];    /* 1 found, 0 never, -1 error */
    long long xover[MAXDEV];
    int not_parallel;
    char err[256];
    rt_sweep_point ref[MAXDEV];  /* at --size */
    int ref_ok;
    int nhull;
    rt_sweep_point hull[16];     /* first device */
    int ndec;                    /* logged decisions on the first device: the */
    struct { double n, cpu_s, gpu_s; char what[96]; } dec[MAXDEC];   /* latest MAXDEC */
    long long ndec_all;          /* ... of this many */
    int nmeas;                   /* measured history (libkeelrt's history table), all */
    measure *meas;
} nest;

typedef struct {
    int n;
    row *r;
} rows;

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

/* ---- HTML text ------------------------------------------------------------ */

static void esc(FILE *o, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '&': fputs("&amp;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\'': fputs("&#39;", o); break;
        default:
            if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
                fputc(' ', o);
            else
                fputc(*s, o);
        }
    }
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

/* ---- charts --------------------------------------------------------------- */

static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22",
};
#define NPAL 10

typedef struct {
    double x0, x1, y0, y1;   /* log10 ranges */
    int w, h, ml, mr, mt, mb;
} axes;

static double px(const axes *a, double v)
{
    return a->ml + (log10(v) - a->x0) / (a->x1 - a->x0) * (a->w - a->ml - a->mr);
}

static double py(const axes *a, double v)
{
    return a->h - a->mb - (log10(v) - a->y0) / (a->y1 - a->y0) * (a->h - a->mt - a->mb);
}

static void axes_draw(FILE *o, const axes *a, const char *xlabel, const char *ylabel,
                      const char *(*xtick)(double, char *, size_t),
                      const char *(*ytick)(double, char *, size_t))
{
    fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"#444\"/>\n",
            a->ml, a->mt, a->w - a->ml - a->mr, a->h - a->mt - a->mb);
    char b[32];
    for (int e = (int)ceil(a->x0); e <= (int)floor(a->x1); e++) {
        double x = px(a, pow(10, e));
        fprintf(o, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                   "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%s</text>\n",
                x, a->mt, x, a->h - a->mb, x, a->h - a->mb + 14, xtick(pow(10, e), b, sizeof b));
    }
    for (int e = (int)ceil(a->y0); e <= (int)floor(a->y1); e++) {
        double y = py(a, pow(10, e));
        fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                   "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"tick\">%s</text>\n",
                a->ml, y, a->w - a->mr, y, a->ml - 4, y + 4, ytick(pow(10, e), b, sizeof b));
    }
    fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"lab\">", (a->w + a->ml) / 2,
            a->h - 6);
    esc(o, xlabel);
    fprintf(o, "</text><text x=\"14\" y=\"%d\" text-anchor=\"middle\" class=\"lab\""
               " transform=\"rotate(-90 14 %d)\">", (a->h - a->mb + a->mt) / 2,
            (a->h - a->mb + a->mt) / 2);
    esc(o, ylabel);
    fputs("</text>\n", o);
}

static const char *tick_num(double v, char *b, size_t n)
{
    if (v >= 1e6 || v < 1e-2)
        keel_fmtn(b, n, "1e%d", (int)lround(log10(v)));
    else
        keel_fmtn(b, n, "%g", v);
    return b;
}

static const char *tick_time(double v, char *b, size_t n)
{
    int e = (int)lround(log10(v));
    static const char *const unit[] = { "ns", "us", "ms", "s" };
    if (e >= -9 && e <= 2) {
        int u = (e + 9) / 3;
        if (u > 3)
            u = 3;
        double scaled = v / pow(10, (u - 3) * 3);
        keel_fmtn(b, n, "%g %s", scaled, unit[u]);
    } else
        keel_fmtn(b, n, "1e%d s", e);
    return b;
}

/* Roofline of one device: host and GPU ceilings, nests as points. */
static void roofline(FILE *o, const rt_profile *host, const rt_profile *gpu, int dev,
                     const nest *ns, int nn, long long size)
{
    double gpu_peak = gpu->sms * 32.0 * gpu->gpu_hz / (gpu->issue_cycles > 0 ? gpu->issue_cycles : 1);
    double ymax = fmax(host->peak_flops, gpu_peak) * 3;
    double ymin = ymax / 1e7;
    for (int i = 0; i < nn; i++) {
        const rt_sweep_point *p = &ns[i].ref[dev];
        if (!ns[i].ref_ok || p->flops <= 0)
            continue;
        if (p->cpu_s > 0)
            ymin = fmin(ymin, p->flops / p->cpu_s / 3);
        if (p->gpu_s > 0)
            ymin = fmin(ymin, p->flops / p->gpu_s / 3);
    }
    axes a = { .x0 = log10(1.0 / 64), .x1 = log10(1024), .y0 = floor(log10(ymin)),
               .y1 = ceil(log10(ymax)), .w = 720, .h = 420, .ml = 64, .mr = 20, .mt = 20,
               .mb = 40 };
    fprintf(o, "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
               " viewBox=\"0 0 %d %d\" role=\"img\" class=\"roofline\" data-device=\"",
            a.w, a.h, a.w, a.h);
    esc(o, gpu->name);
    fputs("\">\n<title>roofline ", o);
    esc(o, gpu->name);
    fputs("</title>\n", o);
    axes_draw(o, &a, "arithmetic intensity (flop/byte)", "flop/s", tick_num, tick_num);
    /* ceilings: min(peak, AI * bandwidth) */
    const struct { const char *who; double peak, bw; const char *color; } roof[2] = {
        { host->name, host->peak_flops, host->mem_bw, "#1f77b4" },
        { gpu->name, gpu_peak, gpu->gpu_bw, "#d62728" },
    };
    for (int k = 0; k < 2; k++) {
        double ridge = roof[k].peak / roof[k].bw, xa = pow(10, a.x0), xb = pow(10, a.x1);
        double r = fmin(fmax(ridge, xa), xb);
        fprintf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%.1f,%.1f"
                   " %.1f,%.1f %.1f,%.1f\"><title>",
                roof[k].color, px(&a, xa), py(&a, fmin(xa * roof[k].bw, roof[k].peak)),
                px(&a, r), py(&a, fmin(r * roof[k].bw, roof[k].peak)), px(&a, xb),
                py(&a, fmin(xb * roof[k].bw, roof[k].peak)));
        esc(o, roof[k].who);
        fprintf(o, ": %.3g GFLOP/s, %.3g GB/s</title></polyline>\n", roof[k].peak / 1e9,
                roof[k].bw / 1e9);
        fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" class=\"roof\" fill=\"%s\">", px(&a, xb) - 4,
                py(&a, roof[k].peak) - 5, roof[k].color);
        esc(o, roof[k].who);
        fprintf(o, ": %.0f GFLOP/s, %.0f GB/s</text>\n", roof[k].peak / 1e9, roof[k].bw / 1e9);
    }
    double lab[256][2];
    int nlab = 0;
    for (int i = 0; i < nn; i++) {
        const rt_sweep_point *p = &ns[i].ref[dev];
        if (!ns[i].ref_ok || p->flops <= 0 || p->bytes <= 0)
            continue;
        double ai = p->flops / p->bytes;
        if (ai < pow(10, a.x0) || ai > pow(10, a.x1))
            continue;
        double x = px(&a, ai);
        if (p->cpu_s > 0)
            fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#1f77b4\"><title>N%d cpu:"
                       " AI %.3g, %.3g GFLOP/s</title></circle>\n",
                    x, py(&a, p->flops / p->cpu_s), ns[i].num, ai, p->flops / p->cpu_s / 1e9);
        if (p->gpu_s > 0 && !p->not_parallel) {
            double y = py(&a, p->flops / p->gpu_s);
            fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"#d62728\">"
                       "<title>N%d gpu: AI %.3g, %.3g GFLOP/s</title></rect>\n",
                    x - 4, y - 4, ns[i].num, ai, p->flops / p->gpu_s / 1e9);
        }
        /* a label where no other label is yet (hover shows every point) */
        double lx = x + 5, ly = py(&a, p->flops / (p->cpu_s > 0 ? p->cpu_s : 1)) - 5;
        int clash = 0;
        for (int j = 0; j < nlab; j++)
            clash |= fabs(lab[j][0] - lx) < 22 && fabs(lab[j][1] - ly) < 11;
        if (!clash && nlab < 256) {
            lab[nlab][0] = lx;
            lab[nlab++][1] = ly;
            fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" class=\"pt\">N%d</text>\n", lx, ly,
                    ns[i].num);
        }
    }
    fputs("</svg><figcaption>", o);
    esc(o, gpu->name);
    fprintf(o, " against %s: ceilings min(peak, AI &#215; bandwidth); each nest N<i>k</i> at"
               " size %lld (every size symbol = %lld): circle = CPU model, square = GPU model"
               " (kernel + launch, no transfer).</figcaption></figure>\n", host->name, size, size);
    (void)dev;
}

/* Boat-hull view of one class: time against N, CPU solid, GPU + transfer
 * dashed, crossovers marked. */
static void hull_chart(FILE *o, const char *cls, const nest *ns, int nn, const int *members,
                       int nm, const rt_profile *host, const rt_profile *gpu)
{
    double tmin = 1e30, tmax = 0;
    for (int k = 0; k < nm; k++) {
        const nest *n = &ns[members[k]];
        for (int j = 0; j < n->nhull; j++) {
            double c = n->hull[j].cpu_s, g = n->hull[j].gpu_s + n->hull[j].xfer_s;
            if (c > 0) tmin = fmin(tmin, c), tmax = fmax(tmax, c);
            if (g > 0) tmin = fmin(tmin, g), tmax = fmax(tmax, g);
        }
    }
    int ndec = 0, nmeas = 0;
    for (int k = 0; k < nm; k++) {
        ndec += ns[members[k]].ndec;
        nmeas += ns[members[k]].nmeas;
        for (int j = 0; j < ns[members[k]].nmeas; j++)
            if (ns[members[k]].meas[j].t > 0) {
                tmin = fmin(tmin, ns[members[k]].meas[j].t);
                tmax = fmax(tmax, ns[members[k]].meas[j].t);
            }
    }
    if (tmax <= 0)
        return;
    axes a = { .x0 = log10(HULL_LO), .x1 = log10(HULL_HI), .y0 = floor(log10(tmin)),
               .y1 = ceil(log10(tmax)), .w = 720, .h = 360, .ml = 64, .mr = 20, .mt = 20,
               .mb = 40 };
    if (a.y1 <= a.y0)
        a.y1 = a.y0 + 1;
    fputs("<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"360\""
          " viewBox=\"0 0 720 360\" role=\"img\" class=\"hull\" data-class=\"", o);
    esc(o, cls);
    fputs("\">\n<title>boat hull ", o);
    esc(o, cls);
    fputs("</title>\n", o);
    axes_draw(o, &a, "problem size N (every size symbol)", "predicted time", tick_num,
              tick_time);
    for (int k = 0; k < nm; k++) {
        const nest *n = &ns[members[k]];
        const char *color = palette[k % NPAL];
        for (int side = 0; side < 2; side++) {
            fprintf(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
                    color, side ? " stroke-dasharray=\"6,4\"" : "");
            for (int j = 0; j < n->nhull; j++) {
                double t = side ? n->hull[j].gpu_s + n->hull[j].xfer_s : n->hull[j].cpu_s;
                if (t > 0)
                    fprintf(o, "%s%.1f,%.1f", j ? " " : "", px(&a, (double)n->hull[j].n),
                            py(&a, t));
            }
            fprintf(o, "\"><title>N%d %s</title></polyline>\n", n->num,
                    side ? "gpu + transfer" : "cpu");
        }
        if (n->xover_status[0] == 1 && n->xover[0] >= HULL_LO && n->xover[0] <= HULL_HI) {
            double x = px(&a, (double)n->xover[0]);
            fprintf(o, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\""
                       " stroke-dasharray=\"2,3\"><title>N%d crossover %lld</title></line>\n",
                    x, a.mt, x, a.h - a.mb, color, n->num, n->xover[0]);
        }
        for (int j = 0; j < n->ndec; j++) {
            double x = n->dec[j].n;
            if (x < HULL_LO || x > HULL_HI)
                continue;
            for (int side = 0; side < 2; side++) {
                double t = side ? n->dec[j].gpu_s : n->dec[j].cpu_s;
                if (t < pow(10, a.y0) || t > pow(10, a.y1))
                    continue;
                if (side)
                    fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"none\""
                               " stroke=\"%s\" stroke-width=\"1.5\">", px(&a, x) - 4, py(&a, t) - 4,
                            color);
                else
                    fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"none\" stroke=\"%s\""
                               " stroke-width=\"1.5\">", px(&a, x), py(&a, t), color);
                fprintf(o, "<title>N%d logged launch ", n->num);
                esc(o, n->dec[j].what);
                fprintf(o, ": %s</title></%s>\n", side ? "gpu + transfer" : "cpu",
                        side ? "rect" : "circle");
            }
        }
        for (int j = 0; j < n->nmeas; j++) {
            double x = n->meas[j].n, t = n->meas[j].t;
            if (x < HULL_LO || x > HULL_HI || t < pow(10, a.y0) || t > pow(10, a.y1))
                continue;
            if (n->meas[j].gpu)
                fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\">",
                        px(&a, x) - 4, py(&a, t) - 4, color);
            else
                fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\">", px(&a, x),
                        py(&a, t), color);
            fprintf(o, "<title>N%d measured ", n->num);
            esc(o, n->meas[j].what);
            fprintf(o, " on the %s: mean of %d</title></%s>\n", n->meas[j].gpu ? "gpu" : "cpu",
                    n->meas[j].samples, n->meas[j].gpu ? "rect" : "circle");
        }
        if (n->nhull > 0) {
            const rt_sweep_point *l = &n->hull[n->nhull - 1];
            fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" class=\"pt\" fill=\"%s\">N%d</text>\n",
                    px(&a, (double)l->n) - 30, py(&a, l->cpu_s) - 4, color, n->num);
        }
    }
    fputs("</svg><figcaption>", o);
    esc(o, cls);
    fputs(": ", o);
    for (int k = 0; k < nm; k++) {
        fprintf(o, "%s<span style=\"color:%s\">N%d</span>", k ? ", " : "", palette[k % NPAL],
                ns[members[k]].num);
    }
    fprintf(o, ". Solid: CPU (%s), dashed: GPU + transfer (", host->name);
    esc(o, gpu->name);
    fputs("); dotted: crossover. The lower of the two curves is where the nest should run.", o);
    if (ndec) {
        long long all = 0;
        for (int k = 0; k < nm; k++)
            all += ns[members[k]].ndec_all;
        fputs(" Hollow marks: launches the runtime logged (circle CPU, square GPU + transfer),"
              " at the geometric mean of their sizes", o);
        if (all > ndec)
            fprintf(o, "; the latest %d per nest are drawn, %d of the %lld logged", MAXDEC,
                    ndec, all);
        fputs(".", o);
    }
    if (nmeas)
        fputs(" Filled marks: measured times from the history (circle CPU, square GPU with"
              " transfers), mean per size.", o);
    fputs("</figcaption></figure>\n", o);
    (void)nn;
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
        esc(o, t->file);
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
    esc(o, r->bindings);
    fputs("</td><td>", o);
    esc(o, r->device);
    fprintf(o, "</td><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>", r->threads, c, g, x);
    esc(o, r->verdict);
    fputs("</td><td>", o);
    esc(o, r->decided_at);
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
        esc(o, file);
        fprintf(o, ":%d</h4>\n", line);
    }
    fputs("<table class=\"meas\"><caption>measured history (mean per size and device)</caption>"
          "<tr><th>sizes</th><th>device</th><th>samples</th><th>mean</th></tr>\n", o);
    for (int j = 0; j < n->nmeas; j++) {
        char t[32];
        rt_format_time(t, sizeof t, n->meas[j].t);
        fputs("<tr><td>", o);
        esc(o, n->meas[j].what);
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
        keel_fmtn(b, n, "never (not parallel)");
    else if (ns->xover_status[dev] < 0)
        keel_fmtn(b, n, "-");
    else if (ns->nneed == 0)
        keel_fmtn(b, n, ns->xover_status[dev] ? "GPU (fixed sizes)" : "never (fixed sizes)");
    else if (ns->xover_status[dev] == 1)
        keel_fmtn(b, n, "%lld", ns->xover[dev]);
    else
        keel_fmtn(b, n, "never");
}

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
    ".pt{font-size:10px}caption{text-align:left;font-style:italic}";

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

int keel_cmd_html(int argc, char **argv)
{
    const char *out_path = NULL, *dbpath = NULL, *file = NULL, *devlist = "h100",
               *hostname = NULL;
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
    dbpath = npos ? pos[0] : keel_default_db();

    /* profiles */
    const rt_profile *gpus[MAXDEV];
    int ndev = 0;
    char *dl = strdup(devlist), *save = NULL;
    for (char *t = dl ? strtok_r(dl, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
        const rt_profile *p = rt_profile_find(t);
        if (!p || p->kind != RT_GPU) {
            keel_say(2, "no GPU profile '%s' (see keel devices)", t);
            free(dl);
            return 2;
        }
        if (ndev == MAXDEV) {       /* one column each: a cap, said rather than cut */
            keel_say(2, "--device takes at most %d GPU profiles", MAXDEV);
            free(dl);
            return 2;
        }
        gpus[ndev++] = p;
    }
    free(dl);
    if (ndev == 0)
        return keel_say(2, "--device needs at least one GPU profile");
    rt_profile host = *rt_profile_host_default();
    if (hostname) {
        const rt_profile *hp = rt_profile_find(hostname);
        if (!hp || hp->kind != RT_CPU)
            return keel_say(2, "no CPU profile '%s' (see keel devices)", hostname);
        host = *hp;
        if (hp == rt_profile_host_default())    /* "host": calibrated, as with no --host */
            hostname = NULL;
    }

    char err[512] = "";
    db *d;
    if (db_open(dbpath, DB_READONLY, &d, err, sizeof err))
        return keel_say(1, "%s", err);
    if (!hostname) {
        rt_calibration cal;
        if (rt_calibration_load(dbpath, &cal, err, sizeof err) == 0)
            rt_profile_from_calibration(&cal, &host);
    }
    int threads_given = threads > 0;
    if (!threads_given)
        threads = hostname ? host.cores : rt_default_threads();

    rows rs = { 0 };
    err[0] = 0;
    db_loop_filter flt = { .file = file, .file_match = DB_FILE_SUFFIX };
    if (db_each_loop(d, &flt, collect, &rs, err, sizeof err) != 0) {
        db_close(d);
        return keel_say(1, "%s", err[0] ? err : "out of memory");
    }
    /* nests: an outermost loop and the rows after it that are deeper */
    nest *ns = calloc((size_t)rs.n + 1, sizeof *ns);
    int nn = 0;
    for (int i = 0; ns && i < rs.n; i++) {
        if (rs.r[i].depth == 0 || nn == 0) {
            ns[nn].first = i;
            ns[nn].num = nn + 1;
            nn++;
        }
        ns[nn - 1].nrows++;
    }
    for (int k = 0; ns && k < nn; k++) {
        nest *n = &ns[k];
        const row *r = &rs.r[n->first];
        n->label = nest_label(&rs, n);
        n->hull_class = hull_class(r->cls);
        rt_facts *f = NULL;
        if (rt_facts_load(d, r->file, r->line, r->col, &f, n->err, sizeof n->err) != 0) {
            rt_facts_free(f);
            continue;
        }
        const char *const *need;
        n->nneed = rt_facts_symbols(f, &need);
        n->loaded = 1;
        n->ref_ok = 1;
        for (int dv = 0; dv < ndev; dv++) {
            rt_sweep s = { .host = &host, .gpu = gpus[dv], .threads = threads,
                           .threads_given = threads_given, .sym = "*" };
            if (rt_sweep_at(f, &s, size, &n->ref[dv], n->err, sizeof n->err))
                n->ref_ok = 0;
            n->not_parallel = n->ref[dv].not_parallel;
            n->xover_status[dv] = rt_sweep_crossover(f, &s, 1, XOVER_HI, &n->xover[dv], n->err,
                                                     sizeof n->err);
            if (dv == 0)
                for (long long v = HULL_LO; v <= HULL_HI && n->nhull < 16; v *= 2)
                    if (rt_sweep_at(f, &s, v, &n->hull[n->nhull], err, sizeof err) == 0)
                        n->nhull++;
        }
        rt_facts_free(f);
        load_decisions(d, r->loop_id, gpus[0]->name, n);
        load_history(d, r->loop_id, n);
    }

    FILE *o = fopen(out_path, "w");
    if (!o) {
        int e = errno;   /* before db_close, which may set it */
        db_close(d);
        return keel_say(1, "%s: cannot write: %s", out_path, strerror(e));
    }
    char now[32];
    time_t tt = time(NULL);
    strftime(now, sizeof now, "%Y-%m-%d %H:%M UTC", gmtime(&tt));
    fputs("<!DOCTYPE html>\n<html lang=\"en\" xmlns=\"http://www.w3.org/1999/xhtml\"><head>"
          "<meta charset=\"utf-8\"/><title>keel report</title><style>", o);
    fputs(css, o);
    fputs("</style></head>\n<body>\n<h1>keel report</h1>\n<p>Database <code>", o);
    esc(o, dbpath);
    fprintf(o, "</code>, written %s. Host CPU profile <b>", now);
    esc(o, host.name);
    fputs("</b> (", o);
    esc(o, host.desc);
    fprintf(o, "; %d thread%s for nests with OpenMP pragmas%s), GPU profile%s", threads,
            threads == 1 ? "" : "s",
            threads_given ? ", and for every nest (--threads)" : ", one for the others",
            ndev > 1 ? "s" : "");
    for (int dv = 0; dv < ndev; dv++) {
        fputs(dv ? ", <b>" : " <b>", o);
        esc(o, gpus[dv]->name);
        fputs("</b>", o);
    }
    fputs(". Predictions are keel's models (the ones keel_decide runs): Liao-Chapman + roofline"
          " on the CPU, Hong-Kim + boat-hull transfer on the GPU.</p>\n", o);

    /* summary */
    int nsrc = 0, nfun = 0;
    for (int i = 0; i < rs.n; i++) {
        if (i == 0 || strcmp(rs.r[i].file, rs.r[i - 1].file))
            nsrc++, nfun++;
        else if (strcmp(rs.r[i].function, rs.r[i - 1].function))
            nfun++;
    }
    fprintf(o, "<h2 id=\"summary\">Summary</h2>\n<table class=\"summary\"><tr><th>sources</th>"
               "<th>functions</th><th>nests</th><th>loops</th>");
    for (int dv = 0; dv < ndev; dv++) {
        fputs("<th>GPU wins at N=", o);
        fprintf(o, "%lld on ", size);
        esc(o, gpus[dv]->name);
        fputs("</th>", o);
    }
    fprintf(o, "</tr>\n<tr><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">"
               "%d</td><td class=\"num\">%d</td>", nsrc, nfun, nn, rs.n);
    for (int dv = 0; dv < ndev; dv++) {
        int w = 0;
        for (int k = 0; k < nn; k++)
            w += ns[k].ref_ok && ns[k].ref[dv].gpu_wins;
        fprintf(o, "<td class=\"num\">%d of %d</td>", w, nn);
    }
    fputs("</tr></table>\n<p>Sections: <a href=\"#roofline\">roofline</a>, <a href=\"#hull\">"
          "boat-hull view per class</a>, <a href=\"#nests\">nests per source and function</a>."
          "</p>\n", o);

    fputs("<h2 id=\"roofline\">Roofline per device</h2>\n", o);
    for (int dv = 0; dv < ndev; dv++)
        roofline(o, &host, gpus[dv], dv, ns, nn, size);

    fputs("<h2 id=\"hull\">Boat-hull view per class</h2>\n<p>Classes in the boat-hull notation,"
          " ranges left out; predicted time of each nest against its problem size on the host"
          " and on ", o);
    esc(o, gpus[0]->name);
    fputs(".</p>\n", o);
    int *members = calloc((size_t)nn + 1, sizeof *members);
    char *done = calloc((size_t)nn + 1, 1);
    for (int k = 0; members && done && k < nn; k++) {
        if (done[k] || !ns[k].hull_class)
            continue;
        int nm = 0;
        for (int j = k; j < nn; j++)
            if (!done[j] && ns[j].hull_class && strcmp(ns[j].hull_class, ns[k].hull_class) == 0) {
                done[j] = 1;
                if (ns[j].nhull > 0 && nm < NPAL * 2)
                    members[nm++] = j;
            }
        if (nm)
            hull_chart(o, ns[k].hull_class, ns, nn, members, nm, &host, gpus[0]);
    }
    free(members);
    free(done);

    fputs("<h2 id=\"nests\">Nests per source and function</h2>\n<p>Crossover: the smallest"
          " problem size N (every size symbol of the nest = N) at which the GPU with its"
          " transfers beats the CPU, searched up to 2^20; the same as <code>keel explain"
          " FILE:LINE --sweep '*=1:1048576'</code>.</p>\n", o);
    for (int k = 0; k < nn; k++) {
        const nest *n = &ns[k];
        const row *r0 = &rs.r[n->first];
        int new_file = k == 0 || strcmp(r0->file, rs.r[ns[k - 1].first].file);
        int new_fun = new_file || strcmp(r0->function, rs.r[ns[k - 1].first].function);
        if (new_fun && k > 0)
            fputs("</table>\n", o);
        if (new_file) {
            fputs("<h3>", o);
            esc(o, r0->file);
            fputs("</h3>\n", o);
        }
        if (new_fun) {
            fputs("<h4>", o);
            esc(o, r0->function);
            fputs("</h4>\n<table class=\"nests\"><tr><th>nest</th><th>loop</th><th>iv</th>"
                  "<th>trip</th><th>idioms</th><th>class</th><th>parallel</th><th>strides</th>"
                  "<th>cycles/iter</th>", o);
            for (int dv = 0; dv < ndev; dv++) {
                fputs("<th>crossover ", o);
                esc(o, gpus[dv]->name);
                fputs("</th>", o);
            }
            fputs("</tr>\n", o);
        }
        for (int i = n->first; i < n->first + n->nrows; i++) {
            const row *r = &rs.r[i];
            if (i == n->first) {
                fprintf(o, "<tr class=\"nest\" id=\"nest-%d\" data-file=\"", n->num);
                esc(o, r->file);
                fprintf(o, "\" data-line=\"%d\"", r->line);
                for (int dv = 0; dv < ndev; dv++) {
                    char b[64];
                    xover_text(b, sizeof b, n, dv);
                    fputs(" data-crossover-", o);
                    esc(o, gpus[dv]->name);
                    fputs("=\"", o);
                    esc(o, b);
                    fputs("\"", o);
                }
                fprintf(o, "><td rowspan=\"%d\"><b>N%d</b></td>", n->nrows, n->num);
            } else
                fputs("<tr>", o);
            fprintf(o, "<td class=\"loc\">%*s%d:%d</td><td>", 0, "", r->line, r->col);
            for (int s = 0; s < r->depth; s++)
                fputs("&#183;", o);
            esc(o, r->iv[0] ? r->iv : "-");
            fputs("</td><td class=\"loc\">", o);
            esc(o, r->trip[0] ? r->trip : "-");
            fputs("</td><td>", o);
            esc(o, r->idioms[0] ? r->idioms : "-");
            fputs("</td><td class=\"cls\">", o);
            esc(o, r->cls[0] ? r->cls : "");
            fputs("</td><td>", o);
            esc(o, r->parallel[0] ? r->parallel : "-");
            fputs("</td><td>", o);
            esc(o, r->coalescing[0] ? r->coalescing : "-");
            fputs("</td><td class=\"num\">", o);
            if (r->has_cycles)
                fprintf(o, "%.2f", r->cycles);
            else
                fputs("-", o);
            fputs("</td>", o);
            for (int dv = 0; dv < ndev; dv++) {
                if (i != n->first) {
                    fputs("<td></td>", o);
                    continue;
                }
                char b[64];
                xover_text(b, sizeof b, n, dv);
                int win = n->ref_ok && n->ref[dv].gpu_wins;
                fprintf(o, "<td class=\"num %s\"><span class=\"xover\">", win ? "gpu" : "cpu");
                esc(o, b);
                fputs("</span>", o);
                if (n->ref_ok) {
                    char c[32], g[32];
                    rt_format_time(c, sizeof c, n->ref[dv].cpu_s);
                    rt_format_time(g, sizeof g, n->ref[dv].gpu_s + n->ref[dv].xfer_s);
                    fprintf(o, "<br/><small>N=%lld: cpu %s, gpu+xfer %s</small>", size, c, g);
                } else if (n->err[0]) {
                    fputs("<br/><small>", o);
                    esc(o, n->err);
                    fputs("</small>", o);
                }
                fputs("</td>", o);
            }
            fputs("</tr>\n", o);
        }
    }
    if (nn)
        fputs("</table>\n", o);
    /* decisions, after the tables: one block per nest that has any */
    int any_meas = 0;
    for (int k = 0; k < nn; k++)
        any_meas |= ns[k].nmeas > 0;
    if (db_report_decision_count(d, 0, NULL) > 0 || any_meas) {
        fputs("<h2 id=\"decisions\">Logged decisions and measured history</h2>\n<p>Launches"
              " the runtime decided (libkeelrt, with the real sizes) and the times it measured,"
              " per nest.</p>\n", o);
        for (int k = 0; k < nn; k++) {
            const row *r0 = &rs.r[ns[k].first];
            int nd = decisions(o, d, r0->loop_id, ns[k].num, r0->file, r0->line);
            measured(o, &ns[k], r0->file, r0->line, nd == 0);
        }
    }
    fputs("<p><small>Written by keel report --html; no scripts, no external resources.</small>"
          "</p>\n</body></html>\n", o);
    int werr = ferror(o);
    if (fclose(o) != 0 || werr) {
        db_close(d);
        return keel_say(1, "%s: write failed", out_path);
    }
    for (int i = 0; i < rs.n; i++) {
        row *r = &rs.r[i];
        free(r->file); free(r->function); free(r->iv); free(r->trip); free(r->idioms);
        free(r->cls); free(r->parallel); free(r->coalescing);
    }
    for (int k = 0; k < nn; k++) {
        free(ns[k].label);
        free(ns[k].hull_class);
        for (int j = 0; j < ns[k].nmeas; j++)
            free(ns[k].meas[j].what);
        free(ns[k].meas);
    }
    free(ns);
    free(rs.r);
    db_close(d);
    printf("%s\n", out_path);
    return 0;
}
