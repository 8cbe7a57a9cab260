/*
 * html_chart.c -- the charts of `keel report --html` (html.h), inline SVG
 * with log-log axes that span the data drawn (decades around it), every
 * curve and mark with a <title> a browser shows on hover:
 *   - per nest a small chart of its predicted CPU and GPU + transfer time
 *     against the problem size N on the first device, the crossover and
 *     the sizes of logged launches marked, or "cannot evaluate" and why;
 *   - per device a roofline (roofline lecture: attainable = min(peak,
 *     AI x bandwidth)) with the host's and the GPU's ceilings and the
 *     nests ranked highest, each a labelled CPU circle and GPU square
 *     joined by a line.  The GPU's compute ceiling is the Hong-Kim issue
 *     rate the model assumes (SMs x 32 lanes x clock / issue cycles), the
 *     profiles hold no other;
 *   - per algorithm class the boat-hull view (boat hull model: time
 *     against data size, the lower hull is where a nest should run), at
 *     most 4 nests (8 curves) a chart.
 * Time axes stop at 10^4 s: a nest whose time at N = 16384 runs to years
 * would squash every other curve; what runs off the top is clipped and
 * the caption says so.
 */
#include "html.h"

#include "keel.h"

#include <math.h>
#include <string.h>

void html_esc(FILE *o, const char *s)
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
    int xs = (int)ceil((a->x1 - a->x0) / 8), ys = (int)ceil((a->y1 - a->y0) * 24 / (a->h - a->mt - a->mb));
    xs = xs < 1 ? 1 : xs;
    ys = ys < 1 ? 1 : ys;
    for (int e = (int)ceil(a->x0); e <= (int)floor(a->x1); e += xs) {
        double x = px(a, pow(10, e));
        fprintf(o, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                   "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"tick\">%s</text>\n",
                x, a->mt, x, a->h - a->mb, x, a->h - a->mb + 14, xtick(pow(10, e), b, sizeof b));
    }
    for (int e = (int)ceil(a->y0); e <= (int)floor(a->y1); e += ys) {
        double y = py(a, pow(10, e));
        fprintf(o, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                   "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"tick\">%s</text>\n",
                a->ml, y, a->w - a->mr, y, a->ml - 4, y + 4, ytick(pow(10, e), b, sizeof b));
    }
    fprintf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"lab\">", (a->w + a->ml) / 2,
            a->h - 6);
    html_esc(o, xlabel);
    fprintf(o, "</text><text x=\"14\" y=\"%d\" text-anchor=\"middle\" class=\"lab\""
               " transform=\"rotate(-90 14 %d)\">", (a->h - a->mb + a->mt) / 2,
            (a->h - a->mb + a->mt) / 2);
    html_esc(o, ylabel);
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


#define TIME_TOP 4      /* log10 of the highest time drawn: 10^4 s */

/* Keep a time axis at most up to 10^4 s (and at least one decade high);
 * 1 when that cut the data. */
static int clip_time(axes *a)
{
    int cut = 0;
    if (a->y1 > TIME_TOP && a->y0 < TIME_TOP) {
        a->y1 = TIME_TOP;
        cut = 1;
    }
    if (a->y1 <= a->y0)
        a->y1 = a->y0 + 1;
    return cut;
}

/* A clip path of the plot area; its number, for clip-path="url(#clipK)". */
static int clip_open(FILE *o, const axes *a)
{
    static int next;
    int k = ++next;
    fprintf(o, "<clipPath id=\"clip%d\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
               "</clipPath>\n", k, a->ml, a->mt, a->w - a->ml - a->mr, a->h - a->mt - a->mb);
    return k;
}

/* A label's baseline near (x, y) where no label placed before overlaps it,
 * inside [top, bottom]: a line down, a line up, two down ... (points of
 * equal nests coincide). */
static double place_label(double (*lab)[2], int *nlab, int cap, double x, double y, double top,
                          double bottom)
{
    double best = y;
    for (int tries = 0; tries < 4 * cap; tries++) {
        int step = (tries + 1) / 2;
        double cand = y + (tries % 2 ? step : -step) * 11.0;
        if (cand < top || cand > bottom)
            continue;
        int clash = 0;
        for (int j = 0; j < *nlab && !clash; j++)
            clash = fabs(lab[j][0] - x) < 44 && fabs(lab[j][1] - cand) < 11;
        if (!clash) {
            best = cand;
            break;
        }
    }
    if (*nlab < cap) {
        lab[*nlab][0] = x;
        lab[(*nlab)++][1] = best;
    }
    return best;
}

void html_roofline(FILE *o, const rt_profile *host, const rt_profile *gpu, int dev,
                   const nest *ns, const int *order, int norder, long long size)
{
    double gpu_peak = gpu->sms * 32.0 * gpu->gpu_hz / (gpu->issue_cycles > 0 ? gpu->issue_cycles : 1);
    const struct { const char *who; double peak, bw; const char *color; } roof[2] = {
        { host->name, host->peak_flops, host->mem_bw, "#1f77b4" },
        { gpu->name, gpu_peak, gpu->gpu_bw, "#d62728" },
    };
    /* the axes: the points drawn and both ridge points, a decade around */
    double ai_lo = 1e30, ai_hi = 0, f_lo = 1e30, f_hi = 0;
    for (int k = 0; k < 2; k++) {
        double ridge = roof[k].peak / roof[k].bw;
        ai_lo = fmin(ai_lo, ridge);
        ai_hi = fmax(ai_hi, ridge);
        f_hi = fmax(f_hi, roof[k].peak);
    }
    for (int k = 0; k < norder; k++) {
        const rt_sweep_point *p = &ns[order[k]].ref[dev];
        double ai = p->flops / p->bytes;
        ai_lo = fmin(ai_lo, ai);
        ai_hi = fmax(ai_hi, ai);
        if (p->cpu_s > 0)
            f_lo = fmin(f_lo, p->flops / p->cpu_s);
        if (p->gpu_s > 0 && !p->not_parallel)
            f_lo = fmin(f_lo, p->flops / p->gpu_s);
    }
    if (f_lo > f_hi)
        f_lo = f_hi / 1e4;
    /* a point less than 0.15 decade from an edge gets the next decade */
    axes a = { .x0 = floor(log10(ai_lo) - 0.15), .x1 = ceil(log10(ai_hi) + 0.15),
               .y0 = floor(log10(f_lo) - 0.15), .y1 = ceil(log10(f_hi) + 0.15),
               .w = 720, .h = 420, .ml = 64, .mr = 20, .mt = 20, .mb = 40 };
    if (a.x1 <= a.x0)
        a.x1 = a.x0 + 1;
    fprintf(o, "<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
               " viewBox=\"0 0 %d %d\" role=\"img\" class=\"roofline\" data-device=\"",
            a.w, a.h, a.w, a.h);
    html_esc(o, gpu->name);
    fputs("\">\n<title>roofline ", o);
    html_esc(o, gpu->name);
    fputs("</title>\n", o);
    axes_draw(o, &a, "arithmetic intensity (flop/byte)", "flop/s", tick_num, tick_num);
    int clip = clip_open(o, &a);
    for (int k = 0; k < 2; k++) {
        double ridge = roof[k].peak / roof[k].bw, xa = pow(10, a.x0), xb = pow(10, a.x1);
        double r = fmin(fmax(ridge, xa), xb);
        fprintf(o, "<polyline clip-path=\"url(#clip%d)\" fill=\"none\" stroke=\"%s\""
                   " stroke-width=\"2\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"><title>", clip,
                roof[k].color, px(&a, xa), py(&a, fmin(xa * roof[k].bw, roof[k].peak)),
                px(&a, r), py(&a, fmin(r * roof[k].bw, roof[k].peak)), px(&a, xb),
                py(&a, fmin(xb * roof[k].bw, roof[k].peak)));
        html_esc(o, roof[k].who);
        fprintf(o, ": %.3g GFLOP/s, %.3g GB/s</title></polyline>\n", roof[k].peak / 1e9,
                roof[k].bw / 1e9);
        fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" class=\"roof\" fill=\"%s\">", px(&a, xb) - 4,
                py(&a, roof[k].peak) - 5, roof[k].color);
        html_esc(o, roof[k].who);
        fprintf(o, ": %.0f GFLOP/s, %.0f GB/s</text>\n", roof[k].peak / 1e9, roof[k].bw / 1e9);
    }
    double lab[32][2];
    int nlab = 0;
    for (int k = 0; k < norder; k++) {
        const nest *n = &ns[order[k]];
        const rt_sweep_point *p = &n->ref[dev];
        const char *color = palette[2 + k % (NPAL - 2)];   /* not the ceilings' blue, red */
        double ai = p->flops / p->bytes, x = px(&a, ai);
        int has_gpu = p->gpu_s > 0 && !p->not_parallel;
        double yc = p->cpu_s > 0 ? py(&a, p->flops / p->cpu_s) : -1;
        double yg = has_gpu ? py(&a, p->flops / p->gpu_s) : -1;
        fprintf(o, "<g class=\"pair\" data-nest=\"%d\">", n->num);
        if (yc >= 0 && yg >= 0)
            fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\""
                       " stroke-width=\"1.5\" stroke-dasharray=\"3,2\"/>", x, yc, x, yg, color);
        if (yc >= 0)
            fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\"><title>N%d cpu:"
                       " AI %.3g, %.3g GFLOP/s</title></circle><text x=\"%.1f\" y=\"%.1f\""
                       " class=\"pt\" fill=\"%s\">N%d cpu</text>",
                    x, yc, color, n->num, ai, p->flops / p->cpu_s / 1e9, x + 7,
                    place_label(lab, &nlab, 32, x + 7, yc + 4, a.mt + 10, a.h - a.mb - 2), color, n->num);
        if (yg >= 0)
            fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"%s\""
                       " stroke=\"#000\" stroke-width=\"0.8\"><title>N%d gpu: AI %.3g,"
                       " %.3g GFLOP/s</title></rect><text x=\"%.1f\" y=\"%.1f\" class=\"pt\""
                       " fill=\"%s\">N%d gpu</text>",
                    x - 4.5, yg - 4.5, color, n->num, ai, p->flops / p->gpu_s / 1e9, x + 7,
                    place_label(lab, &nlab, 32, x + 7, yg + 4, a.mt + 10, a.h - a.mb - 2), color, n->num);
        fputs("</g>\n", o);
    }
    fputs("</svg><figcaption>", o);
    html_esc(o, gpu->name);
    fprintf(o, " against %s: ceilings min(peak, AI &#215; bandwidth). The %d nest%s ranked"
               " highest with a prediction at size %lld (every size symbol = %lld), each a"
               " circle (CPU model) and a square (GPU model: kernel + launch, no transfer) of"
               " one colour, joined: ", host->name, norder, norder == 1 ? "" : "s", size, size);
    for (int k = 0; k < norder; k++) {
        const nest *n = &ns[order[k]];
        fprintf(o, "%s<a href=\"#nest-%d\" style=\"color:%s\">N%d</a>", k ? ", " : "", n->num,
                palette[2 + k % (NPAL - 2)], n->num);
    }
    fputs(". Every nest's figures are in its table below.</figcaption></figure>\n", o);
}

/* A nest's two curves (CPU solid, GPU + transfer dashed) and its crossover. */
static void hull_curves(FILE *o, const axes *a, int clip, const nest *n, const char *color)
{
    for (int side = 0; side < 2; side++) {
        fprintf(o, "<polyline clip-path=\"url(#clip%d)\" fill=\"none\" stroke=\"%s\""
                   " stroke-width=\"2\"%s points=\"", clip, color,
                side ? " stroke-dasharray=\"6,4\"" : "");
        for (int j = 0; j < n->nhull; j++) {
            double t = side ? n->hull[j].gpu_s + n->hull[j].xfer_s : n->hull[j].cpu_s;
            if (t > 0)
                fprintf(o, "%s%.1f,%.1f", j ? " " : "", px(a, (double)n->hull[j].n),
                        py(a, t));
        }
        fprintf(o, "\"><title>N%d %s</title></polyline>\n", n->num,
                side ? "gpu + transfer" : "cpu");
    }
    if (n->xover_status[0] == 1 && n->xover[0] >= HULL_LO && n->xover[0] <= HULL_HI) {
        double x = px(a, (double)n->xover[0]);
        fprintf(o, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\""
                   " stroke-dasharray=\"2,3\"><title>N%d crossover %lld</title></line>\n",
                x, a->mt, x, a->h - a->mb, color, n->num, n->xover[0]);
    }
}

/* A nest's logged launches, hollow: circle CPU, square GPU + transfer. */
static void hull_decisions(FILE *o, const axes *a, const nest *n, const char *color)
{
    for (int j = 0; j < n->ndec; j++) {
        double x = n->dec[j].n;
        if (x < HULL_LO || x > HULL_HI)
            continue;
        for (int side = 0; side < 2; side++) {
            double t = side ? n->dec[j].gpu_s : n->dec[j].cpu_s;
            if (t < pow(10, a->y0) || t > pow(10, a->y1))
                continue;
            if (side)
                fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"none\""
                           " stroke=\"%s\" stroke-width=\"1.5\">", px(a, x) - 4, py(a, t) - 4,
                        color);
            else
                fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"none\" stroke=\"%s\""
                           " stroke-width=\"1.5\">", px(a, x), py(a, t), color);
            fprintf(o, "<title>N%d logged launch ", n->num);
            html_esc(o, n->dec[j].what);
            fprintf(o, ": %s</title></%s>\n", side ? "gpu + transfer" : "cpu",
                    side ? "rect" : "circle");
        }
    }
}

/* A nest's measured times, filled (circle CPU, square GPU), and its label. */
static void hull_measured(FILE *o, const axes *a, const nest *n, const char *color)
{
    for (int j = 0; j < n->nmeas; j++) {
        double x = n->meas[j].n, t = n->meas[j].t;
        if (x < HULL_LO || x > HULL_HI || t < pow(10, a->y0) || t > pow(10, a->y1))
            continue;
        if (n->meas[j].gpu)
            fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"%s\">",
                    px(a, x) - 4, py(a, t) - 4, color);
        else
            fprintf(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\">", px(a, x),
                    py(a, t), color);
        fprintf(o, "<title>N%d measured ", n->num);
        html_esc(o, n->meas[j].what);
        fprintf(o, " on the %s: mean of %d</title></%s>\n", n->meas[j].gpu ? "gpu" : "cpu",
                n->meas[j].samples, n->meas[j].gpu ? "rect" : "circle");
    }
    if (n->nhull > 0 && n->hull[n->nhull - 1].cpu_s <= pow(10, a->y1)) {
        const rt_sweep_point *l = &n->hull[n->nhull - 1];
        fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" class=\"pt\" fill=\"%s\">N%d</text>\n",
                px(a, (double)l->n) - 30, py(a, l->cpu_s) - 4, color, n->num);
    }
}

/* The hull chart's caption: its nests, what the marks are. */
static void hull_caption(FILE *o, const char *cls, int part, int parts, const nest *ns,
                         const int *members, int nm, const rt_profile *host,
                         const rt_profile *gpu, int clipped, int ndec, int nmeas)
{
    fputs("</svg><figcaption>", o);
    html_esc(o, cls);
    if (parts > 1)
        fprintf(o, " (chart %d of %d: at most 4 nests a chart)", part, parts);
    fputs(": ", o);
    for (int k = 0; k < nm; k++) {
        fprintf(o, "%s<span style=\"color:%s\">N%d</span>", k ? ", " : "", palette[k % NPAL],
                ns[members[k]].num);
    }
    fprintf(o, ". Solid: CPU (%s), dashed: GPU + transfer (", host->name);
    html_esc(o, gpu->name);
    fputs("); dotted: crossover. The lower of the two curves is where the nest should run.", o);
    if (clipped)
        fputs(" Times above 10^4 s run off the top of the chart.", o);
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
}

/* Boat-hull view of one class: time against N, CPU solid, GPU + transfer
 * dashed, crossovers marked. */
void html_hull_chart(FILE *o, const char *cls, int part, int parts, const nest *ns,
                     const int *members, int nm, const rt_profile *host, const rt_profile *gpu)
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
    int clipped = clip_time(&a);
    fputs("<figure><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"720\" height=\"360\""
          " viewBox=\"0 0 720 360\" role=\"img\" class=\"hull\" data-class=\"", o);
    html_esc(o, cls);
    fputs("\">\n<title>boat hull ", o);
    html_esc(o, cls);
    fputs("</title>\n", o);
    axes_draw(o, &a, "problem size N (every size symbol)", "predicted time", tick_num,
              tick_time);
    int clip = clip_open(o, &a);
    for (int k = 0; k < nm; k++) {
        const nest *n = &ns[members[k]];
        const char *color = palette[k % NPAL];
        hull_curves(o, &a, clip, n, color);
        hull_decisions(o, &a, n, color);
        hull_measured(o, &a, n, color);
    }
    hull_caption(o, cls, part, parts, ns, members, nm, host, gpu, clipped, ndec, nmeas);
}

void html_nest_chart(FILE *o, const nest *n, const char *why)
{
    if (n->nhull == 0) {
        fputs("<div class=\"noeval\">cannot evaluate", o);
        if (why && why[0]) {
            fputs(": ", o);
            html_esc(o, why);
        }
        fputs("</div>", o);
        return;
    }
    int gpu = !n->not_parallel;
    double tmin = 1e30, tmax = 0;
    for (int j = 0; j < n->nhull; j++) {
        double c = n->hull[j].cpu_s, g = n->hull[j].gpu_s + n->hull[j].xfer_s;
        if (c > 0) tmin = fmin(tmin, c), tmax = fmax(tmax, c);
        if (gpu && g > 0) tmin = fmin(tmin, g), tmax = fmax(tmax, g);
    }
    if (tmax <= 0) {
        fputs("<div class=\"noeval\">cannot evaluate: no times</div>", o);
        return;
    }
    axes a = { .x0 = log10(HULL_LO), .x1 = log10(HULL_HI), .y0 = floor(log10(tmin)),
               .y1 = ceil(log10(tmax)), .w = 280, .h = 160, .ml = 50, .mr = 8, .mt = 8,
               .mb = 32 };
    int clipped = clip_time(&a);
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
               " viewBox=\"0 0 %d %d\" role=\"img\" class=\"nestchart\" data-nest=\"%d\">"
               "<title>N%d: predicted time against N</title>\n", a.w, a.h, a.w, a.h, n->num,
            n->num);
    axes_draw(o, &a, "N", "time", tick_num, tick_time);
    int clip = clip_open(o, &a);
    for (int side = 0; side < 1 + gpu; side++) {
        fprintf(o, "<polyline clip-path=\"url(#clip%d)\" fill=\"none\" stroke=\"%s\""
                   " stroke-width=\"2\"%s points=\"", clip, side ? "#d62728" : "#1f77b4",
                side ? " stroke-dasharray=\"5,3\"" : "");
        for (int j = 0; j < n->nhull; j++) {
            double t = side ? n->hull[j].gpu_s + n->hull[j].xfer_s : n->hull[j].cpu_s;
            if (t > 0)
                fprintf(o, "%s%.1f,%.1f", j ? " " : "", px(&a, (double)n->hull[j].n), py(&a, t));
        }
        fprintf(o, "\"><title>%s</title></polyline>\n", side ? "GPU + transfer" : "CPU");
    }
    if (gpu && n->xover_status[0] == 1 && n->xover[0] >= HULL_LO && n->xover[0] <= HULL_HI) {
        double x = px(&a, (double)n->xover[0]);
        fprintf(o, "<line class=\"xover\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\""
                   " stroke=\"#2ca02c\" stroke-width=\"1.5\" stroke-dasharray=\"2,2\">"
                   "<title>crossover N=%lld</title></line><text x=\"%.1f\" y=\"%d\""
                   " class=\"pt\" fill=\"#2ca02c\">%lld</text>\n", x, a.mt, x, a.h - a.mb,
                n->xover[0], x + 3, a.mt + 10, n->xover[0]);
    }
    for (int j = 0; j < n->ndec; j++) {     /* logged launch sizes: marks on the N axis */
        double x = n->dec[j].n;
        if (x < HULL_LO || x > HULL_HI)
            continue;
        fprintf(o, "<path d=\"M%.1f,%d l-4,7 l8,0 z\" fill=\"#555\"><title>launch ",
                px(&a, x), a.h - a.mb);
        html_esc(o, n->dec[j].what);
        fputs("</title></path>\n", o);
    }
    fputs("</svg>", o);
    fprintf(o, "<div class=\"legend\"><span style=\"color:#1f77b4\">&#8212; CPU</span>%s%s%s%s"
               "</div>", gpu ? " <span style=\"color:#d62728\">- - GPU + xfer</span>" : " (not"
               " parallel: no GPU curve)", gpu && n->xover_status[0] == 1 ? " <span"
               " style=\"color:#2ca02c\">: crossover</span>" : "", n->ndec ? " &#9650; logged"
               " sizes" : "", clipped ? "; above 10^4 s clipped" : "");
}
