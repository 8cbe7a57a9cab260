/*
 * html.h -- what the files of `keel report --html` share:
 *
 *   html.c        the page: options, the nests and their predictions, the
 *                 ranking (rank.c) on the first screen, the tables, the
 *                 logged decisions and the measured history, its self-check
 *   html_chart.c  the charts, inline SVG: a small time-against-size chart
 *                 per nest, the roofline per device, the boat-hull view per
 *                 class
 *
 * A nest is an outermost loop and the rows after it that are deeper, in
 * the order db_each_loop gives them; N1, N2 ... are the numbers rank.c
 * gives the same nests, and the page's anchors are nest-K.
 */
#ifndef KEEL_CLI_HTML_H
#define KEEL_CLI_HTML_H

#include <stdio.h>

#include "model.h"
#include "rank.h"
#include "sweep.h"

#define MAXDEV KEEL_MAXDEV
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
    const char *serial;     /* not parallel: the loop's label (rt_facts_serial_label) */
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
    const keel_rank_nest *rank;  /* its entry in the ranking (rank.c), NULL: none */
    int rank_pos;                /* 1-based place in the ranking */
} nest;

typedef struct {
    int n;
    row *r;
} rows;

/* s as HTML text (markup characters as entities, control bytes as blanks). */
void html_esc(FILE *o, const char *s);

/* Roofline of GPU profile gpu (device column dev) against the host: the
 * ceilings, and the nests of `order` (at most 8, those ranked highest with
 * points at the reference size) as a labelled CPU circle and GPU square
 * joined by a line. */
void html_roofline(FILE *o, const rt_profile *host, const rt_profile *gpu, int dev,
                   const nest *ns, const int *order, int norder, long long size);

/* Boat-hull view of class cls: the nests members[0..nm-1] (at most 4: 8
 * curves), part `part` of `parts` of the class. */
void html_hull_chart(FILE *o, const char *cls, int part, int parts, const nest *ns,
                     const int *members, int nm, const rt_profile *host, const rt_profile *gpu);

/* The small chart of one nest: CPU and GPU + transfer time against N on
 * the first device, the crossover and the logged launch sizes marked;
 * "cannot evaluate" with the reason where there is no curve. */
void html_nest_chart(FILE *o, const nest *n, const char *why);

#endif
