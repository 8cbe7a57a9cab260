/*
 * replay.c -- plays measured CPU and GPU times through libkeelrt's
 * learning (rt_learn, runtime/history.c) with the times given instead of
 * run, and prints what following it would have cost against the oracle,
 * always offloading and the models alone.
 *
 *   replay [LAUNCHES] < rows
 *
 * Each row: `program dataset model_cpu_s model_gpu_s cpu_s gpu_s` (the
 * models' predicted times, e.g. keel explain's sums over the program's
 * target nests, and the measured ones); '#' starts a comment.  Every
 * program is one site with an rt_learn of its own; each row is launched
 * LAUNCHES times (default 10) in the order given: rt_learn_choose picks
 * the device from the models' times and what the site has measured, the
 * measured time of that device is the launch's time and goes back with
 * rt_learn_add, as keel_done does in an offload build.  The size of a row
 * (the regression's n) is the models' CPU time, which grows with the
 * work.  Nothing is timed here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"

enum { MAXP = 64 };

int main(int argc, char **argv)
{
    int launches = argc > 1 ? atoi(argv[1]) : 10;
    if (launches < 1 || launches > 1000) {
        fprintf(stderr, "replay: LAUNCHES must be 1..1000\n");
        return 2;
    }
    static char names[MAXP][32];
    static rt_learn site[MAXP];
    int np = 0, rows = 0, wrong_model = 0, wrong_learn = 0, gpu_learn = 0;
    double t_oracle = 0, t_gpu = 0, t_model = 0, t_learn = 0;
    char line[512];
    printf("%-10s %-11s %9s %9s %6s  %-5s %s\n", "program", "dataset", "cpu_s", "gpu_s", "model",
           "best", "launches (C cpu, G gpu, * explored)");
    while (fgets(line, sizeof line, stdin)) {
        char prog[32], ds[32];
        double mc, mg, c, g;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        if (sscanf(line, "%31s %31s %lf %lf %lf %lf", prog, ds, &mc, &mg, &c, &g) != 6)
            continue;
        if (!(mc > 0 && mg > 0 && c > 0 && g > 0)) {
            fprintf(stderr, "replay: %s %s: times must be > 0: skipped\n", prog, ds);
            continue;
        }
        int p = 0;
        while (p < np && strcmp(names[p], prog) != 0)
            p++;
        if (p == np) {
            if (np == MAXP) {
                fprintf(stderr, "replay: more than %d programs: %s skipped\n", MAXP, prog);
                continue;
            }
            snprintf(names[np], sizeof names[np], "%s", prog);
            rt_learn_init(&site[np++]);
        }
        char trace[1001 * 2];
        size_t u = 0;
        int model = mg < mc, best = g < c;
        for (int k = 0; k < launches; k++) {
            rt_learn_choice ch;
            rt_learn_choose(&site[p], mc, mc, mg, &ch);
            double t = ch.device ? g : c;
            rt_learn_add(&site[p], mc, ch.device, t);
            t_learn += t;
            wrong_learn += ch.device != best;
            gpu_learn += ch.device;
            trace[u++] = ch.device ? 'G' : 'C';
            if (ch.explore)
                trace[u++] = '*';
        }
        trace[u] = 0;
        t_oracle += launches * (best ? g : c);
        t_gpu += launches * g;
        t_model += launches * (model ? g : c);
        wrong_model += model != best ? launches : 0;
        rows++;
        printf("%-10s %-11s %9.4g %9.4g %6s  %-5s %s\n", prog, ds, c, g, model ? "GPU" : "CPU",
               best ? "GPU" : "CPU", trace);
    }
    int explorations = 0;
    double cost = 0;
    for (int p = 0; p < np; p++)
        explorations += site[p].explorations, cost += rt_learn_cost(&site[p]);
    long total = (long)rows * launches;
    if (!rows) {
        fprintf(stderr, "replay: no rows\n");
        return 1;
    }
    printf("\n%d rows x %d launches = %ld launches of %d programs\n", rows, launches, total, np);
    printf("%-22s %12s %10s %16s\n", "policy", "total s", "/ oracle", "wrong device");
    printf("%-22s %12.4f %10.3f %16d\n", "oracle", t_oracle, 1.0, 0);
    printf("%-22s %12.4f %10.3f %16d\n", "learned (libkeelrt)", t_learn, t_learn / t_oracle,
           wrong_learn);
    printf("%-22s %12.4f %10.3f %16d\n", "models alone", t_model, t_model / t_oracle, wrong_model);
    printf("%-22s %12.4f %10.3f %16s\n", "always GPU", t_gpu, t_gpu / t_oracle, "-");
    printf("explorations: %d (at most %d per program), their cost %.4f s (%.1f%% of the learned"
           " total); launches on the GPU: %d\n", explorations, RT_LEARN_EXPLORE, cost,
           100.0 * cost / t_learn, gpu_learn);
    return 0;
}
