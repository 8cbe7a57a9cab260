/*
 * mcarun.c -- keelcc's llvm-mca stage (mcarun.h): the processes.
 *
 * Per source: one `clang -S` per group of targets (the compile's own
 * target, and each cross CPU), every source's at once, into a private
 * temporary folder (never the user's -o, never the user's -MF); a large
 * source's may start before its IR exists (mcr_early_start) and are
 * stopped if it turns out to need none;
 * analysis/mca.c maps the assembly to the loop IR; each (loop, target)
 * block is hashed with the target and llvm-mca's version and looked up in
 * the cache; the misses of all the command's sources run through one
 * llvm-mca process per target (code regions), a block that fails there
 * through a process of its own, at most cfg->jobs at a time.
 */
#include "mcarun.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ccargs.h"
#include "db_json.h"
#include "mca.h"
#include "mcaobj.h"

/* ---- processes ------------------------------------------------------------ */

/* Start argv with stdin from /dev/null, stdout/stderr to files (NULL:
 * /dev/null); pid or -1.  Exit statuses: ku_wait's (128 + N: signal N). */
static pid_t spawn(char *const *argv, const char *out, const char *errf)
{
    ku_io io = { .in = "/dev/null", .out = out ? out : "/dev/null",
                 .err = errf ? errf : "/dev/null", .err_fd = -1 };
    pid_t pid;
    return cc_spawn(argv, &io, &pid) == 0 ? pid : -1;
}

/* The first line of a file, for messages. */
static void first_line(const char *path, char *out, size_t n)
{
    char *t = ku_read_file(path, NULL);
    out[0] = '\0';
    if (!t)
        return;
    char *p = t;
    /* Skip "In file included from" context lines. */
    while (strncmp(p, "In file included", 16) == 0 && strchr(p, '\n'))
        p = strchr(p, '\n') + 1;
    size_t k = strcspn(p, "\n");
    if (k >= n)
        k = n - 1;
    memcpy(out, p, k);
    out[k] = '\0';
    free(t);
}

/* ---- llvm-mca's JSON, read by db/'s one JSON helper ------------------------ */

static void figures_of(const db_json_mca *f, mca_figures *out)
{
    out->cycles_per_iter = f->cycles_per_iter;
    out->block_rthroughput = f->block_rthroughput;
    out->ipc = f->ipc;
    out->uops_per_iter = f->uops_per_iter;
    snprintf(out->resource, sizeof out->resource, "%s", f->resource);
    out->resource_cycles = f->resource_cycles;
}

int mcr_parse_json(const char *json, int region, mca_figures *out, char *err, size_t errlen)
{
    db_json_mca f;
    int rc = db_json_mca_region(json, region, &f, err, errlen);
    figures_of(&f, out);
    return rc;
}

int mcr_parse_json_all(const char *json, int nregions, mca_figures *out, char *err,
                       size_t errlen)
{
    db_json_mca *f = calloc((size_t)nregions + 1, sizeof *f);
    if (!f)
        return ku_fail(err, errlen, "out of memory");
    int rc = db_json_mca_regions(json, nregions, f, err, errlen);
    for (int k = 0; k < nregions; k++)
        figures_of(&f[k], &out[k]);
    free(f);
    return rc;
}

/* ---- configuration ---------------------------------------------------------- */

static const struct { const char *prefix, *triple; int vscale; } cross[] = {
    { "pwr", "powerpc64le-linux-gnu", 1 },
    { "power", "powerpc64le-linux-gnu", 1 },
    { "neoverse-v1", "aarch64-linux-gnu", 2 },     /* 256-bit SVE */
    { "a64fx", "aarch64-linux-gnu", 4 },           /* 512-bit SVE */
    { "neoverse", "aarch64-linux-gnu", 1 },
    { "cortex-a", "aarch64-linux-gnu", 1 },
    { "cortex-x", "aarch64-linux-gnu", 1 },
    { "apple-", "aarch64-linux-gnu", 1 },
    { "ampere", "aarch64-linux-gnu", 1 },
    { "thunderx", "aarch64-linux-gnu", 1 },
    { NULL, NULL, 0 }
};

/* llvm-mca's name of a triple's backend, as `--version` lists it. */
static const char *backend_of(const char *triple)
{
    if (strncmp(triple, "powerpc64le", 11) == 0) return "ppc64le";
    if (strncmp(triple, "powerpc64", 9) == 0) return "ppc64";
    if (strncmp(triple, "aarch64", 7) == 0) return "aarch64";
    if (strncmp(triple, "x86_64", 6) == 0) return "x86-64";
    if (strncmp(triple, "riscv64", 7) == 0) return "riscv64";
    return NULL;
}

/* `llvm-mca --version` (the version for the cache keys, the host CPU) costs
 * a process start-up, about 0.1 s of CPU, on every keelcc run.  Its text is
 * kept in ku_tmpdir()/keel-mcaver-UID-HASH, HASH over the program's resolved
 * path, inode, size and modification time and the machine's name: a new
 * llvm-mca or another machine gets its own file.  0 with the path, or -1
 * (no file: run it every time). */
static int version_path(const char *mca, char *out, size_t n)
{
    char path[4096] = "";
    if (strchr(mca, '/')) {
        snprintf(path, sizeof path, "%s", mca);
    } else {
        const char *p = getenv("PATH");
        while (p && *p && !path[0]) {
            size_t k = strcspn(p, ":");
            snprintf(path, sizeof path, "%.*s/%s", (int)k, p, mca);
            if (k == 0 || access(path, X_OK) != 0)
                path[0] = '\0';
            p += k + (p[k] == ':');
        }
    }
    struct stat st;
    struct utsname u;
    if (!path[0] || stat(path, &st) != 0 || uname(&u) != 0)
        return -1;
    char id[4096 + 400];
    snprintf(id, sizeof id, "%s|%llu|%lld|%lld.%09ld|%s", path, (unsigned long long)st.st_ino,
             (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
             u.nodename);
    uint64_t h = ku_fnv1a64_update(KU_FNV_KEEL_START, id, strlen(id));
    int k = snprintf(out, n, "%s/keel-mcaver-%u-%016llx", ku_tmpdir(), (unsigned)getuid(),
                     (unsigned long long)h);
    return k > 0 && (size_t)k < n ? 0 : -1;
}

/* The kept text when it is a plain file of ours that names a version. */
static char *read_kept_version(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != getuid())
        return NULL;
    char *t = ku_read_file(path, NULL);
    if (t && !strstr(t, "LLVM version")) {
        free(t);
        t = NULL;
    }
    return t;
}

void mcr_config_init(mcr_config *cfg, const char *list, const char *mca)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->mca = strdup(mca);
    cfg->host_target = -1;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cfg->jobs = n < 1 ? 1 : n > 16 ? 16 : (int)n;
    cfg->batch_lines = MCR_BATCH_LINES;

    char dir[KU_TMP_PATH], kept[KU_TMP_PATH];
    int have_kept = version_path(cfg->mca, kept, sizeof kept) == 0;
    char *ver = have_kept ? read_kept_version(kept) : NULL;
    if (!ver && ku_mkdtemp(dir, sizeof dir, "keelmca-") == 0) {
        char out[512], errf[512];
        snprintf(out, sizeof out, "%s/v", dir);
        snprintf(errf, sizeof errf, "%s/e", dir);
        char *argv[] = { cfg->mca, "--version", NULL };
        pid_t pid = spawn(argv, out, errf);
        int st = pid < 0 ? -1 : ku_wait(pid);
        if (st == 0)
            ver = ku_read_file(out, NULL);
        if (ver && strstr(ver, "LLVM version") && have_kept)
            rename(out, kept);      /* atomic: readers see all of it or nothing */
        unlink(out);
        unlink(errf);
        rmdir(dir);
    }
    snprintf(cfg->host_cpu, sizeof cfg->host_cpu, "host");
    if (!ver || !strstr(ver, "LLVM version")) {
        /* Still one row per loop and target, each with this reason. */
        char msg[512];
        snprintf(msg, sizeof msg, "llvm-mca '%s' cannot run", mca);
        cfg->error = strdup(msg);
        free(ver);
        ver = NULL;
    } else {
        const char *v = strstr(ver, "LLVM version") + 12;
        sscanf(v, " %63s", cfg->version);
        const char *h = strstr(ver, "Host CPU:");
        if (h)
            sscanf(h + 9, " %63s", cfg->host_cpu);
    }

    /* The targets. */
    char *copy = strdup(list && *list ? list : cfg->host_cpu);
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        if (!*tok)
            continue;
        mcr_target *t = ku_push(&cfg->t, &cfg->ntargets, sizeof *t);
        if (!t) {
            cfg->error = strdup("out of memory reading the target CPUs");
            break;
        }
        t->vscale = 1;
        char *at = strchr(tok, '@');
        if (at) {
            *at = '\0';
            t->triple = strdup(at + 1);
        }
        t->cpu = strdup(tok);
        for (int k = 0; !at && cross[k].prefix; k++)
            if (strncmp(tok, cross[k].prefix, strlen(cross[k].prefix)) == 0) {
                t->triple = strdup(cross[k].triple);
                t->vscale = cross[k].vscale;
                break;
            }
        if (t->triple && ver) {
            const char *be = backend_of(t->triple);
            const char *reg = strstr(ver, "Registered Targets:");
            int found = 0;
            if (be && reg) {
                char pat[64];
                snprintf(pat, sizeof pat, "\n    %s ", be);
                found = strstr(reg, pat) != NULL;
            }
            if (!found) {
                char msg[256];
                snprintf(msg, sizeof msg, "llvm-mca has no backend for %s (target %s)", t->triple, t->cpu);
                t->skip = strdup(msg);
            }
        } else if (!t->triple && cfg->host_target < 0) {
            cfg->host_target = cfg->ntargets - 1;
        }
    }
    free(copy);
    free(ver);
}

void mcr_config_free(mcr_config *cfg)
{
    for (int i = 0; i < cfg->ntargets; i++) {
        free(cfg->t[i].cpu);
        free(cfg->t[i].triple);
        free(cfg->t[i].skip);
    }
    free(cfg->t);
    free(cfg->mca);
    free(cfg->error);
}

/* ---- the assembly compile ---------------------------------------------------- */

static int starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* Dropped with their value: outputs, dependency files, link-only options. */
static const char *const drop_with_value[] = {
    "-o", "-MF", "-MT", "-MQ", "-MJ", "-Xlinker", "-L", "-l", "-u", "-T", "-z", "-e",
    "-dependency-file", NULL
};

/* Is a (value-less) user option left out of the assembly compile? */
static int drop_flag(const char *a, int cross_target)
{
    if (strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0 || strcmp(a, "-E") == 0
        || strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0 || strcmp(a, "-MP") == 0
        || strcmp(a, "-MG") == 0 || starts(a, "-Wp,") || starts(a, "-Wl,") || starts(a, "-g")
        || starts(a, "-flto") || starts(a, "-save-temps") || starts(a, "-fsave-optimization-record")
        || starts(a, "-foptimization-record") || starts(a, "-o") || starts(a, "-MF")
        || starts(a, "-MT") || starts(a, "-MQ") || starts(a, "-l") || starts(a, "-L")
        || strcmp(a, "-shared") == 0 || strcmp(a, "-static") == 0 || strcmp(a, "-pie") == 0
        || strcmp(a, "-rdynamic") == 0 || strcmp(a, "-pipe") == 0)
        return 1;
    if (cross_target && (starts(a, "--target=") || starts(a, "-march=") || starts(a, "-mcpu=")
                         || starts(a, "-mtune=") || starts(a, "-m") || starts(a, "--offload")))
        return 1;
    return 0;
}

typedef struct {
    int target;         /* the first target of the group */
    char *triple;       /* NULL: own target */
    char asm_path[512], yaml_path[512], err_path[512];
    pid_t pid;
    int status;
    int given;          /* asm_text and yaml came from the user's object */
    char *asm_text, *yaml;
    mca_plan *plan;
    char *error;
} group;

/* A malloc'd formatted string. */
static char *dupf(const char *fmt, const char *a)
{
    size_t n = strlen(fmt) + strlen(a) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, fmt, a);
    return s;
}

/* The assembly compile's arguments; the strings it allocates are stored in
 * owned[0..3] (free them after the spawn). */
static char **build_cc(int ncc, char *const *cc, const char *source, const group *g,
                       const mcr_target *t, char *owned[4])
{
    char **argv = calloc((size_t)ncc + 16, sizeof *argv);
    if (!argv)
        return NULL;
    int n = 0, cross_target = g->triple != NULL, offload = 0;
    argv[n++] = cc[0];
    for (int i = 1; i < ncc; i++) {
        const char *a = cc[i];
        if (cc_in_list(cc_value_options, a) && i + 1 < ncc) {
            if (!cc_in_list(drop_with_value, a) && !(cross_target && strcmp(a, "-target") == 0)) {
                argv[n++] = (char *)a;
                argv[n++] = cc[i + 1];
            }
            i++;
            continue;
        }
        if (a[0] != '-' || strcmp(a, "-") == 0)
            continue;   /* inputs: only `source` is compiled */
        if (cc_offload_target(a))
            offload = 1;
        if (!drop_flag(a, cross_target))
            argv[n++] = (char *)a;
    }
    static char S[] = "-S", G[] = "-gline-tables-only", R[] = "-fsave-optimization-record",
                RP[] = MCR_REMARK_PASSES, O[] = "-o", HOST[] = "--offload-host-only",
                ISYS[] = "-isystem";
    argv[n++] = S;
    argv[n++] = G;
    argv[n++] = R;
    argv[n++] = RP;
    if (offload && !cross_target)
        argv[n++] = HOST;
    if ((owned[0] = dupf("-foptimization-record-file=%s", g->yaml_path)))
        argv[n++] = owned[0];
    if (cross_target) {
        if ((owned[1] = dupf("--target=%s", g->triple)))
            argv[n++] = owned[1];
        if ((owned[2] = dupf("-mcpu=%s", t->cpu)))
            argv[n++] = owned[2];
        /* Debian's libc6-dev-*-cross headers, which clang does not find alone. */
        char inc[512];
        struct stat sb;
        snprintf(inc, sizeof inc, "/usr/%s/include", g->triple);
        if (stat(inc, &sb) == 0) {
            argv[n++] = ISYS;
            if ((owned[3] = strdup(inc)))
                argv[n++] = owned[3];
        }
    }
    argv[n++] = O;
    argv[n++] = (char *)g->asm_path;
    argv[n++] = (char *)source;
    argv[n] = NULL;
    return argv;
}

/* ---- results ------------------------------------------------------------------ */

static const char *keep(mcr_result *r, const char *s)
{
    if (!s)
        return NULL;
    char **ns = ku_push(&r->strings, &r->nstrings, sizeof *ns);
    return ns ? *ns = strdup(s) : NULL;
}

static void set_reason(mcr_result *r, int t, int l, const char *why)
{
    db_mca_row *row = &r->r[t * r->nloops + l].row;
    row->ok = 0;
    row->reason = keep(r, why);
}

/* A 128-bit FNV-1a style hash of the block, target and llvm-mca version. */
static void block_key(const char *body, const mcr_target *t, const char *version, char out[33])
{
    uint64_t h1 = KU_FNV_KEEL_START, h2 = 0x84222325cbf29ce4ULL;
    /* the last part names the options that change llvm-mca's figures */
    const char *parts[5] = { body, t->cpu, t->triple ? t->triple : "", version,
                             "skip-unsupported=lack-sched" };
    for (int p = 0; p < 5; p++) {
        h1 = ku_fnv1a64_update(h1, parts[p], strlen(parts[p]) + 1);   /* with its NUL */
        for (const unsigned char *s = (const unsigned char *)parts[p];; s++) {
            h2 = (h2 ^ *s) * KU_FNV1A64_PRIME;
            h2 ^= h2 >> 29;
            if (!*s)
                break;
        }
    }
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
}

typedef struct {
    char key[33];
    int target;
    const char *body;
    db_mca_figs figs;
    int have;           /* figures known (cache or run) */
    pid_t pid;
    char in[512], out[512], err[512];
} job;

static void finish_job(job *j, int status, mcr_result *r)
{
    char *json = status == 0 ? ku_read_file(j->out, NULL) : NULL;
    char msg[200];
    memset(&j->figs, 0, sizeof j->figs);
    /* An unknown CPU: a warning (with default figures) or an error. */
    char *e = ku_read_file(j->err, NULL);
    int unknown_cpu = e && strstr(e, "is not a recognized processor");
    free(e);
    if (unknown_cpu) {
        snprintf(j->figs.reason, sizeof j->figs.reason, "llvm-mca does not know this CPU");
    } else if (json) {
        mca_figures f;
        if (mcr_parse_json(json, 0, &f, msg, sizeof msg) == 0) {
            j->figs.ok = 1;
            j->figs.cycles_per_iter = f.cycles_per_iter;
            j->figs.block_rthroughput = f.block_rthroughput;
            j->figs.ipc = f.ipc;
            j->figs.uops_per_iter = f.uops_per_iter;
            snprintf(j->figs.top_resource, sizeof j->figs.top_resource, "%s", f.resource);
            j->figs.top_resource_cycles = f.resource_cycles;
        } else {
            snprintf(j->figs.reason, sizeof j->figs.reason, "llvm-mca output unreadable: %s", msg);
        }
    } else {
        first_line(j->err, msg, sizeof msg);
        snprintf(j->figs.reason, sizeof j->figs.reason, "llvm-mca failed: %s",
                 msg[0] ? msg : "no output");
    }
    free(json);
    j->have = 1;
    unlink(j->in);
    unlink(j->out);
    unlink(j->err);
    (void)r;
}

/* Does this llvm-mca take -skip-unsupported-instructions (LLVM 19 and
 * later)?  With it, an instruction the CPU's scheduling model does not
 * describe is left out of the simulation instead of failing the whole
 * block: POWER8's model has no entry for `mtctr`, the count-register move
 * that sets up every counted inner loop, so without it no pwr8 block that
 * holds an inner loop's setup gets figures.  Such an instruction is one of
 * the block's setup instructions, not of its steady-state iteration. */
static int skips_unscheduled(const mcr_config *cfg)
{
    return atoi(cfg->version) >= 19;
}

/* The llvm-mca command for target t on input `in`, into argv (8 slots). */
static void mca_argv(const mcr_config *cfg, const mcr_target *t, char *in, char *mcpu,
                     size_t mcpu_n, char *mtriple, size_t mtriple_n, char **argv)
{
    int n = 0;
    snprintf(mcpu, mcpu_n, "-mcpu=%s", t->cpu);
    argv[n++] = cfg->mca;
    argv[n++] = "--json";
    /* a view keel does not read: it does not change the simulation */
    argv[n++] = "--instruction-info=false";
    argv[n++] = mcpu;
    if (t->triple) {
        snprintf(mtriple, mtriple_n, "-mtriple=%s", t->triple);
        argv[n++] = mtriple;
    }
    if (skips_unscheduled(cfg))
        argv[n++] = "-skip-unsupported-instructions=lack-sched";
    argv[n++] = in;
    argv[n] = NULL;
}

/* The assembly comment of target t, for the region markers. */
static const char *comment_of(const mcr_target *t)
{
    if (t->triple)
        return strncmp(t->triple, "aarch64", 7) == 0 || strncmp(t->triple, "arm64", 5) == 0
               ? "//" : "#";
#if defined(__aarch64__)
    return "//";
#else
    return "#";
#endif
}

/* A batch: several blocks of one target in one llvm-mca process, each its
 * own code region (`# LLVM-MCA-BEGIN bK` ... `# LLVM-MCA-END bK` in the
 * input file; llvm-mca simulates every region on its own, so a block's
 * figures are those of a run of its own), saving a process start-up per
 * block.  A batch that fails as a whole hands its blocks back to one
 * process each, so that each gets its own figures or reason. */
typedef struct {
    int target;
    int *jobs, njobs;     /* indices into the job array, in region order */
    int lines;            /* their instruction lines */
    pid_t pid;
    char in[512], out[512], err[512];
} batch;

/* A block's instruction lines (what llvm-mca's simulation time follows). */
static int line_count(const char *body)
{
    int n = 0;
    for (const char *p = body; p && *p; p++)
        n += *p == '\n';
    return n;
}

static void run_batches(const mcr_config *cfg, job *jobs, int njobs, const char *dir,
                        mcr_result *r)
{
    batch *b = NULL;
    int nb = 0, oom = 0;
    for (int t = 0; t < cfg->ntargets && !oom; t++) {
        int miss = 0;
        for (int k = 0; k < njobs; k++)
            miss += !jobs[k].have && jobs[k].target == t;
        if (miss < 2)
            continue;           /* one block: the plain path */
        /* One process per target, or per cfg->batch_lines instruction
         * lines at most cfg->jobs: a large file's blocks (NPB bt.c: 150
         * blocks, 7,800 lines, about 1 s of simulation) run on every core
         * once the compiles are done; a small one (gemm: a few hundred
         * lines) pays llvm-mca's start-up once.  Each region is simulated
         * on its own, so the figures do not depend on the split. */
        int lines = 0;
        for (int k = 0; k < njobs; k++)
            if (!jobs[k].have && jobs[k].target == t)
                lines += line_count(jobs[k].body);
        int per = cfg->batch_lines > 0 ? cfg->batch_lines : MCR_BATCH_LINES;
        int nchunks = lines / per;
        if (nchunks > cfg->jobs)
            nchunks = cfg->jobs;
        if (nchunks > miss)
            nchunks = miss;
        if (nchunks < 1)
            nchunks = 1;
        int first = nb;
        for (int c = 0; c < nchunks; c++) {
            batch *x = ku_push(&b, &nb, sizeof *x);
            if (!x) {
                oom = 1;
                break;
            }
            x->target = t;
            x->lines = 0;
        }
        /* each block to the chunk with the fewest lines so far, in job
         * order (the region order of every chunk follows the jobs') */
        for (int k = 0; k < njobs && !oom; k++)
            if (!jobs[k].have && jobs[k].target == t) {
                batch *x = &b[first];
                for (int c = first + 1; c < nb; c++)
                    if (b[c].lines < x->lines)
                        x = &b[c];
                int *slot = ku_push(&x->jobs, &x->njobs, sizeof *slot);
                if (!slot)
                    oom = 1;
                else
                    *slot = k;
                x->lines += line_count(jobs[k].body);
            }
    }
    for (int i = 0; i < nb && !oom; i++) {
        batch *x = &b[i];
        const mcr_target *t = &cfg->t[x->target];
        snprintf(x->in, sizeof x->in, "%s/batch%d.s", dir, i);
        snprintf(x->out, sizeof x->out, "%s/batch%d.json", dir, i);
        snprintf(x->err, sizeof x->err, "%s/batch%d.err", dir, i);
        ku_buf text = {0};
        const char *cm = comment_of(t);
        for (int q = 0; q < x->njobs; q++) {
            ku_buf_printf(&text, "%s LLVM-MCA-BEGIN b%d\n", cm, x->jobs[q]);
            ku_buf_put(&text, jobs[x->jobs[q]].body);
            ku_buf_printf(&text, "%s LLVM-MCA-END b%d\n", cm, x->jobs[q]);
        }
        char mcpu[128], mtriple[160], *argv[8];
        mca_argv(cfg, t, x->in, mcpu, sizeof mcpu, mtriple, sizeof mtriple, argv);
        x->pid = text.s && ku_write_file(x->in, text.s, text.len) == 0
               ? spawn(argv, x->out, x->err) : -1;
        ku_buf_free(&text);
        if (x->pid > 0)
            r->mca_runs++;
    }
    for (int i = 0; i < nb && !oom; i++) {
        batch *x = &b[i];
        int status = x->pid > 0 ? ku_wait(x->pid) : -1;
        char *json = status == 0 ? ku_read_file(x->out, NULL) : NULL;
        char *e = json ? ku_read_file(x->err, NULL) : NULL;
        /* a CPU llvm-mca does not know: the plain path says so per block */
        int ok = json && !(e && strstr(e, "is not a recognized processor"));
        mca_figures *figs = ok ? calloc((size_t)x->njobs, sizeof *figs) : NULL;
        char msg[200];
        ok = figs && mcr_parse_json_all(json, x->njobs, figs, msg, sizeof msg) == 0;
        for (int q = 0; ok && q < x->njobs; q++) {
            job *j = &jobs[x->jobs[q]];
            const mca_figures *f = &figs[q];
            memset(&j->figs, 0, sizeof j->figs);
            j->figs.ok = 1;
            j->figs.cycles_per_iter = f->cycles_per_iter;
            j->figs.block_rthroughput = f->block_rthroughput;
            j->figs.ipc = f->ipc;
            j->figs.uops_per_iter = f->uops_per_iter;
            snprintf(j->figs.top_resource, sizeof j->figs.top_resource, "%s", f->resource);
            j->figs.top_resource_cycles = f->resource_cycles;
            j->have = 1;
        }
        free(figs);
        free(json);
        free(e);
        unlink(x->in);
        unlink(x->out);
        unlink(x->err);
    }
    for (int i = 0; i < nb; i++)
        free(b[i].jobs);
    free(b);
}

/* Run the jobs without figures: first in batches, then what is left one
 * process each, at most `width` at a time. */
static void run_jobs(const mcr_config *cfg, job *jobs, int njobs, const char *dir, mcr_result *r)
{
    run_batches(cfg, jobs, njobs, dir, r);
    int running = 0, next = 0;
    while (next < njobs || running > 0) {
        while (next < njobs && running < cfg->jobs) {
            job *j = &jobs[next++];
            if (j->have)
                continue;
            const mcr_target *t = &cfg->t[j->target];
            snprintf(j->in, sizeof j->in, "%s/b%d.s", dir, (int)(j - jobs));
            snprintf(j->out, sizeof j->out, "%s/b%d.json", dir, (int)(j - jobs));
            snprintf(j->err, sizeof j->err, "%s/b%d.err", dir, (int)(j - jobs));
            if (ku_write_file(j->in, j->body, strlen(j->body)) != 0) {
                snprintf(j->figs.reason, sizeof j->figs.reason, "cannot write %s", j->in);
                j->have = 1;
                continue;
            }
            char mcpu[128], mtriple[160], *argv[8];
            mca_argv(cfg, t, j->in, mcpu, sizeof mcpu, mtriple, sizeof mtriple, argv);
            j->pid = spawn(argv, j->out, j->err);
            if (j->pid < 0) {
                snprintf(j->figs.reason, sizeof j->figs.reason, "cannot start llvm-mca");
                j->have = 1;
                continue;
            }
            r->mca_runs++;
            running++;
        }
        if (running == 0)
            continue;
        /* Only our own children: keelcc's compiler process is one too. */
        int reaped = 0;
        for (int k = 0; k < next; k++) {
            int st = -1;
            if (jobs[k].have || jobs[k].pid <= 0)
                continue;
            int done = ku_poll(jobs[k].pid, &st);
            if (done == 0)
                continue;
            finish_job(&jobs[k], done > 0 ? st : -1, r);
            running--;
            reaped = 1;
        }
        if (!reaped) {
            struct timespec ts = { 0, 1000000 };   /* 1 ms */
            nanosleep(&ts, NULL);
        }
    }
}

/* One source's share of a stage run (mcr_run_tus): its result, its
 * temporary folder, its assembly compiles (groups) and, per (target,
 * loop), the index of its job in the run's shared job array. */
typedef struct {
    const ir_tu *tu;
    const char *source;
    void *wctx;
    mcr_result *r;
    int failed;         /* every row has its reason already */
    char dir[KU_TMP_PATH];
    group *g;
    int *gof, ng;
    int spawned;        /* its assembly compiles are started */
    int *jof;
} tu_run;

/* Allocate the result, every row a reason-less failure; NULL when out of
 * memory. */
static mcr_result *new_result(const mcr_config *cfg, const ir_tu *tu)
{
    mcr_result *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->ntargets = cfg->ntargets;
    r->nloops = tu->nloops;
    r->r = calloc((size_t)(cfg->ntargets * tu->nloops) + 1, sizeof *r->r);
    r->host_cycles = malloc(sizeof *r->host_cycles * ((size_t)tu->nloops + 1));
    if (!r->r || !r->host_cycles) {
        mcr_result_free(r);
        return NULL;
    }
    for (int l = 0; l < tu->nloops; l++)
        r->host_cycles[l] = NAN;
    for (int t = 0; t < cfg->ntargets; t++)
        for (int l = 0; l < tu->nloops; l++) {
            db_mca_row *row = &r->r[t * tu->nloops + l].row;
            row->target = cfg->t[t].cpu;
            row->triple = cfg->t[t].triple;
            row->ok = 0;
            row->reason = NULL;
        }
    return r;
}

static void fail_all(const mcr_config *cfg, tu_run *u, const char *why)
{
    for (int t = 0; t < cfg->ntargets; t++)
        for (int l = 0; l < u->tu->nloops; l++)
            set_reason(u->r, t, l, why);
    u->failed = 1;
}

/* Start the source's assembly compiles: its temporary folder, one group
 * per own-target set and cross CPU, each compile spawned.  Needs no IR.
 * 0, or -1 with why (every row then gets it). */
static int tu_spawn(const mcr_config *cfg, tu_run *u, int ncc, char *const *cc,
                    mcr_warn_fn warn, const char **why, const char *given_asm,
                    const char *given_yaml)
{
    char msg[1024];
    if (ku_mkdtemp(u->dir, sizeof u->dir, "keelmca-") != 0) {
        snprintf(msg, sizeof msg, "%s: mca: cannot create a temporary folder: %s", u->source,
                 strerror(errno));
        warn(u->wctx, msg);
        *why = "no temporary folder for the assembly";
        return -1;
    }
    /* Groups: the own target (all CPUs without a triple), each cross CPU. */
    u->g = calloc((size_t)cfg->ntargets + 1, sizeof *u->g);
    u->gof = calloc((size_t)cfg->ntargets + 1, sizeof *u->gof);
    for (int t = 0; t < cfg->ntargets && u->g && u->gof; t++) {
        u->gof[t] = -1;
        if (cfg->t[t].skip)
            continue;
        if (!cfg->t[t].triple) {
            for (int k = 0; k < u->ng; k++)
                if (!u->g[k].triple)
                    u->gof[t] = k;
            if (u->gof[t] >= 0)
                continue;
        }
        group *G = &u->g[u->ng];
        G->target = t;
        G->triple = cfg->t[t].triple;
        snprintf(G->asm_path, sizeof G->asm_path, "%s/g%d.s", u->dir, u->ng);
        snprintf(G->yaml_path, sizeof G->yaml_path, "%s/g%d.yaml", u->dir, u->ng);
        snprintf(G->err_path, sizeof G->err_path, "%s/g%d.err", u->dir, u->ng);
        u->gof[t] = u->ng++;
    }
    if (!u->g || !u->gof) {
        *why = "out of memory";
        return -1;
    }
    for (int k = 0; k < u->ng; k++) {
        if (given_asm && !u->g[k].triple) {
            /* the own target's assembly is the user's object's: no compile */
            u->g[k].given = 1;
            u->g[k].pid = -1;
            u->g[k].asm_text = strdup(given_asm);
            u->g[k].yaml = given_yaml ? strdup(given_yaml) : NULL;
            continue;
        }
        char *owned[4] = { NULL, NULL, NULL, NULL };
        char **argv = build_cc(ncc, cc, u->source, &u->g[k], &cfg->t[u->g[k].target], owned);
        u->g[k].pid = argv ? spawn(argv, NULL, u->g[k].err_path) : -1;
        for (int o = 0; o < 4; o++)
            free(owned[o]);
        free(argv);
    }
    u->spawned = 1;
    return 0;
}

/* Stop and reap the source's assembly compiles (started early for a
 * source that turned out to need none) and remove their files: every
 * file of the source's own folder, which also holds the temporary output
 * a stopped compiler leaves (clang writes g0.s-XXXXXX, then renames it). */
static void tu_drop_compiles(tu_run *u)
{
    int stopped = 0;
    for (int k = 0; u->g && k < u->ng; k++) {
        group *G = &u->g[k];
        if (G->pid > 0) {
            kill(G->pid, SIGKILL);
            ku_wait(G->pid);
            G->pid = -1;
            stopped = 1;
        }
        unlink(G->asm_path);
        unlink(G->yaml_path);
        unlink(G->err_path);
    }
    DIR *d = stopped && u->dir[0] ? opendir(u->dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        char p[KU_TMP_PATH + 300];
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0
            && snprintf(p, sizeof p, "%s/%s", u->dir, e->d_name) < (int)sizeof p)
            unlink(p);
    }
    if (d)
        closedir(d);
}

/* Phase 1: start the source's assembly compiles (all sources' at once),
 * unless they were started before its IR was known (mcr_early_start). */
static void tu_start(const mcr_config *cfg, tu_run *u, int ncc, char *const *cc,
                     mcr_warn_fn warn, const char *given_asm, const char *given_yaml)
{
    const char *why = NULL;
    if (cfg->error || u->tu->nloops == 0) {
        tu_drop_compiles(u);
        fail_all(cfg, u, cfg->error);
        return;
    }
    if (!u->spawned && tu_spawn(cfg, u, ncc, cc, warn, &why, given_asm, given_yaml) != 0)
        fail_all(cfg, u, why);
}

/* Phase 2: wait for the assembly, map it to the loops and add one job per
 * distinct (block, target) of the whole run to jobs[*njobs...]. */
static void tu_plan(const mcr_config *cfg, tu_run *u, job *jobs, int *njobs, db *cache,
                    mcr_warn_fn warn)
{
    char msg[1024];
    if (u->failed)
        return;
    const ir_tu *tu = u->tu;
    mcr_result *r = u->r;
    for (int k = 0; k < u->ng; k++) {
        group *G = &u->g[k];
        G->status = G->given ? 0 : G->pid < 0 ? -1 : ku_wait(G->pid);
        if (G->status == 0 && !G->given) {
            G->asm_text = ku_read_file(G->asm_path, NULL);
            G->yaml = ku_read_file(G->yaml_path, NULL);
        }
        if (!G->asm_text) {
            char line[512];
            first_line(G->err_path, line, sizeof line);
            snprintf(msg, sizeof msg, "assembly compile%s%s failed: %s",
                     G->triple ? " for " : "", G->triple ? G->triple : "",
                     line[0] ? line : "no output");
            G->error = strdup(msg);
            snprintf(msg, sizeof msg, "%s: mca: %s", u->source, G->error);
            warn(u->wctx, msg);
        } else if (mca_plan_build(tu, G->asm_text, G->yaml, cfg->t[G->target].vscale,
                                  &G->plan, msg, sizeof msg) != 0) {
            G->error = strdup(msg);
        }
        /* Assembly loops that map to no source loop (inlined callees,
         * loops the optimiser made) are normal and cost the user nothing:
         * no warning (the unmapped count stays in the plan). */
        unlink(G->asm_path);
        unlink(G->yaml_path);
        unlink(G->err_path);
    }
    u->jof = calloc((size_t)(cfg->ntargets * tu->nloops) + 1, sizeof *u->jof);
    if (!u->jof) {
        fail_all(cfg, u, "out of memory");
        return;
    }
    for (int t = 0; t < cfg->ntargets; t++) {
        for (int l = 0; l < tu->nloops; l++) {
            int idx = t * tu->nloops + l;
            u->jof[idx] = -1;
            if (cfg->t[t].skip) {
                set_reason(r, t, l, cfg->t[t].skip);
                continue;
            }
            group *G = &u->g[u->gof[t]];
            if (G->error) {
                set_reason(r, t, l, G->error);
                continue;
            }
            const mca_loop_plan *P = &G->plan->loops[l];
            db_mca_row *row = &r->r[idx].row;
            if (P->ncopies) {
                row->asm_label = keep(r, P->label);
                row->asm_copies = P->ncopies;
                row->asm_innermost = P->asm_innermost;
                row->vector = P->vector;
                row->vf = P->vf;
                row->ic = P->ic;
                row->unroll = P->unroll;
                row->src_iters_per_asm_iter = P->iters_per_asm;
            }
            if (!P->body) {
                set_reason(r, t, l, P->reason ? P->reason : "no assembly for this loop");
                continue;
            }
            char key[33];
            block_key(P->body, &cfg->t[t], cfg->version, key);
            for (int k = 0; k < *njobs && u->jof[idx] < 0; k++)
                if (strcmp(jobs[k].key, key) == 0)
                    u->jof[idx] = k;
            if (u->jof[idx] >= 0)
                continue;
            job *j = &jobs[*njobs];
            memcpy(j->key, key, sizeof key);
            j->target = t;
            j->body = P->body;
            if (cache && db_mca_cache_get(cache, key, &j->figs, msg, sizeof msg) == 1)
                j->have = 1;
            u->jof[idx] = (*njobs)++;
        }
    }
}

/* Phase 3: the source's figures from the run's jobs. */
static void tu_finish(const mcr_config *cfg, tu_run *u, job *jobs, int njobs, mcr_warn_fn warn)
{
    char msg[1024];
    const ir_tu *tu = u->tu;
    mcr_result *r = u->r;
    if (u->failed || !u->jof)
        return;
    /* Figures per (loop, target), cycles per source iteration, whole iterations. */
    int nfail = 0;
    char first_fail[256] = "";
    double *c = malloc(sizeof *c * ((size_t)tu->nloops + 1));
    for (int t = 0; t < cfg->ntargets && c; t++) {
        for (int l = 0; l < tu->nloops; l++) {
            c[l] = NAN;
            int k = u->jof[t * tu->nloops + l];
            if (k < 0)
                continue;
            db_mca_row *row = &r->r[t * tu->nloops + l].row;
            if (!jobs[k].have || !jobs[k].figs.ok) {
                const char *why = jobs[k].have ? jobs[k].figs.reason : "llvm-mca did not run";
                set_reason(r, t, l, why);
                if (!nfail++)
                    snprintf(first_fail, sizeof first_fail, "%s", why);
                continue;
            }
            row->ok = 1;
            row->figs = jobs[k].figs;
            int per = row->src_iters_per_asm_iter > 0 ? row->src_iters_per_asm_iter : 1;
            row->has_cycles_per_src_iter = 1;
            row->cycles_per_src_iter = row->figs.cycles_per_iter / per;
            c[l] = row->cycles_per_src_iter;
        }
        if (cfg->t[t].skip || u->g[u->gof[t]].error)
            continue;
        for (int l = 0; l < tu->nloops; l++) {
            db_mca_row *row = &r->r[t * tu->nloops + l].row;
            kx_expr *w = mca_whole_iter_mcycles(tu, u->g[u->gof[t]].plan, c, l);
            char *text = w ? kx_print(w) : NULL;
            row->whole_iter_millicycles = keep(r, text);
            if (t == cfg->host_target) {
                int64_t v;
                if (row->has_cycles_per_src_iter && row->asm_innermost)
                    r->host_cycles[l] = row->cycles_per_src_iter;
                else if (w && kx_is_const(w, &v))
                    r->host_cycles[l] = (double)v / 1000.0;
            }
            free(text);
            kx_free(w);
        }
    }
    free(c);
    if (nfail) {
        snprintf(msg, sizeof msg, "%s: mca: %d loop block%s without figures: %s", u->source,
                 nfail, nfail == 1 ? "" : "s", first_fail);
        warn(u->wctx, msg);
    }
    /* Cache entries to write back: every block of this source with figures
     * or a failure of llvm-mca (once each). */
    for (int k = 0; k < njobs; k++) {
        int used = 0;
        for (int x = 0; x < cfg->ntargets * tu->nloops && !used; x++)
            used = u->jof[x] == k;
        if (!used || !jobs[k].have)
            continue;
        int n1 = r->ncache, n2 = r->ncache, n3 = r->ncache;
        char **nk = ku_push(&r->cache_key, &n1, sizeof *nk);
        int *nt = ku_push(&r->cache_target, &n2, sizeof *nt);
        db_mca_figs *nf = ku_push(&r->cache_figs, &n3, sizeof *nf);
        if (!nk || !nt || !nf)
            break;          /* figures kept, only the cache misses them */
        *nk = strdup(jobs[k].key);
        *nt = jobs[k].target;
        *nf = jobs[k].figs;
        r->ncache++;
    }
}

static void tu_free(tu_run *u)
{
    for (int k = 0; u->g && k < u->ng; k++) {
        free(u->g[k].asm_text);
        free(u->g[k].yaml);
        free(u->g[k].error);
        mca_plan_free(u->g[k].plan);
    }
    free(u->g);
    free(u->gof);
    free(u->jof);
    if (u->dir[0])
        rmdir(u->dir);
}

/* The stage over several sources at once: every assembly compile starts
 * together, and the llvm-mca blocks of all sources go to one process per
 * target (run_jobs), so a command with several sources pays llvm-mca's
 * start-up once per target, not once per source and target. */
/* Assembly compiles started before the sources' IR is known: per source,
 * a tu_run with its folder and groups (spawned set), or not started. */
struct mcr_early {
    int n;
    tu_run *u;
};

mcr_early *mcr_early_start(const mcr_config *cfg, int n, const int *want, int ncc,
                           char *const *cc, const char *const *sources, mcr_warn_fn warn,
                           void *const *wctx)
{
    if (cfg->error)
        return NULL;
    mcr_early *e = calloc(1, sizeof *e);
    tu_run *u = calloc((size_t)n + 1, sizeof *u);
    if (!e || !u) {
        free(e);
        free(u);
        return NULL;
    }
    e->n = n;
    e->u = u;
    for (int i = 0; i < n; i++) {
        if (!want[i])
            continue;
        u[i].source = sources[i];
        u[i].wctx = wctx[i];
        const char *why;
        if (tu_spawn(cfg, &u[i], ncc, cc, warn, &why, NULL, NULL) != 0) {
            /* started again, the ordinary way, if the stage still wants it */
            tu_drop_compiles(&u[i]);
            tu_free(&u[i]);
            memset(&u[i], 0, sizeof u[i]);
        }
    }
    return e;
}

void mcr_early_free(mcr_early *e)
{
    for (int i = 0; e && i < e->n; i++) {
        tu_drop_compiles(&e->u[i]);
        tu_free(&e->u[i]);
    }
    if (e)
        free(e->u);
    free(e);
}

void mcr_run_tus(const mcr_config *cfg, int n, const ir_tu *const *tus, int ncc, char *const *cc,
                 const char *const *sources, db *cache, mcr_warn_fn warn, void *const *wctx,
                 mcr_result **out)
{
    mcr_run_tus_early(cfg, n, tus, ncc, cc, sources, cache, warn, wctx, out, NULL);
}

static void run_tus(const mcr_config *cfg, int n, const ir_tu *const *tus, int ncc,
                    char *const *cc, const char *const *sources, db *cache, mcr_warn_fn warn,
                    void *const *wctx, mcr_result **out, mcr_early *early,
                    const char *const *given_asm, const char *const *given_yaml)
{
    tu_run *u = calloc((size_t)n + 1, sizeof *u);
    int total = 0;
    for (int i = 0; i < n; i++) {
        out[i] = NULL;
        tu_run *pre = early && i < early->n && early->u[i].spawned ? &early->u[i] : NULL;
        if (pre && (!u || !tus[i])) {
            /* started early, not wanted after all (no site, no IR) */
            tu_drop_compiles(pre);
            tu_free(pre);
            memset(pre, 0, sizeof *pre);
            continue;
        }
        if (!u || !tus[i])
            continue;
        if (pre) {
            u[i] = *pre;        /* its folder and running compiles */
            memset(pre, 0, sizeof *pre);
        }
        u[i].tu = tus[i];
        u[i].source = sources[i];
        u[i].wctx = wctx[i];
        u[i].r = new_result(cfg, tus[i]);
        if (!u[i].r) {
            tu_drop_compiles(&u[i]);
            tu_free(&u[i]);
            u[i].tu = NULL;
            continue;
        }
        total += cfg->ntargets * tus[i]->nloops;
        tu_start(cfg, &u[i], ncc, cc, warn, given_asm ? given_asm[i] : NULL,
                 given_yaml ? given_yaml[i] : NULL);
    }
    job *jobs = u ? calloc((size_t)total + 1, sizeof *jobs) : NULL;
    int njobs = 0;
    for (int i = 0; i < n; i++) {
        if (!u || !u[i].tu)
            continue;
        if (!jobs)
            fail_all(cfg, &u[i], "out of memory");
        tu_plan(cfg, &u[i], jobs, &njobs, cache, warn);
    }
    char dir[KU_TMP_PATH];
    mcr_result dummy;
    memset(&dummy, 0, sizeof dummy);
    if (njobs > 0 && ku_mkdtemp(dir, sizeof dir, "keelmca-") == 0) {
        run_jobs(cfg, jobs, njobs, dir, &dummy);
        rmdir(dir);
    }
    for (int i = 0; u && i < n; i++) {
        if (!u[i].tu)
            continue;
        tu_finish(cfg, &u[i], jobs, njobs, warn);
        u[i].r->mca_runs = dummy.mca_runs;
        out[i] = u[i].r;
        tu_free(&u[i]);
    }
    free(jobs);
    free(u);
}

void mcr_run_tus_early(const mcr_config *cfg, int n, const ir_tu *const *tus, int ncc,
                       char *const *cc, const char *const *sources, db *cache, mcr_warn_fn warn,
                       void *const *wctx, mcr_result **out, mcr_early *early)
{
    run_tus(cfg, n, tus, ncc, cc, sources, cache, warn, wctx, out, early, NULL, NULL);
}

void mcr_run_tus_given(const mcr_config *cfg, int n, const ir_tu *const *tus, int ncc,
                       char *const *cc, const char *const *sources, db *cache, mcr_warn_fn warn,
                       void *const *wctx, mcr_result **out, const char *const *asm_text,
                       const char *const *yaml)
{
    run_tus(cfg, n, tus, ncc, cc, sources, cache, warn, wctx, out, NULL, asm_text, yaml);
}

/* The llvm-objdump beside llvm-mca: the same folder and version suffix
 * ("llvm-mca-19" -> "llvm-objdump-19"), into out; -1 when the llvm-mca
 * program's name is not llvm-mca's. */
static int objdump_of(const char *mca, char *out, size_t n)
{
    const char *base = strrchr(mca, '/');
    base = base ? base + 1 : mca;
    if (strncmp(base, "llvm-mca", 8) != 0)
        return -1;
    int k = snprintf(out, n, "%.*sllvm-objdump%s", (int)(base - mca), mca, base + 8);
    return k > 0 && (size_t)k < n ? 0 : -1;
}

int mcr_object_asm(const mcr_config *cfg, const char *object, char **asm_text, char *err,
                   size_t errlen)
{
    char prog[1024], dir[KU_TMP_PATH], out[KU_TMP_PATH + 16];
    *asm_text = NULL;
    if (objdump_of(cfg->mca, prog, sizeof prog) != 0)
        return ku_fail(err, errlen, "no llvm-objdump beside %s", cfg->mca);
    size_t olen;
    char *obj = ku_read_file(object, &olen);
    if (!obj)
        return ku_fail(err, errlen, "cannot read the object %s", object);
    if (ku_mkdtemp(dir, sizeof dir, "keelmca-") != 0) {
        free(obj);
        return ku_fail(err, errlen, "cannot create a temporary folder");
    }
    snprintf(out, sizeof out, "%s/d", dir);
    char *argv[] = { prog, "-d", "-r", "--no-show-raw-insn", "--no-print-imm-hex", (char *)object,
                     NULL };
    pid_t pid = spawn(argv, out, NULL);
    int st = pid < 0 ? -1 : ku_wait(pid);
    char *dis = st == 0 ? ku_read_file(out, NULL) : NULL;
    unlink(out);
    rmdir(dir);
    int rc = dis ? mco_asm_from_object((const unsigned char *)obj, olen, dis, asm_text, err,
                                       errlen)
                 : ku_fail(err, errlen, "%s did not run", prog);
    free(dis);
    free(obj);
    return rc;
}

mcr_result *mcr_run_tu(const mcr_config *cfg, const ir_tu *tu, int ncc, char *const *cc,
                       const char *source, db *cache, mcr_warn_fn warn, void *wctx)
{
    mcr_result *r = NULL;
    mcr_run_tus(cfg, 1, &tu, ncc, cc, &source, cache, warn, &wctx, &r);
    return r;
}

void mcr_result_free(mcr_result *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->nstrings; i++)
        free(r->strings[i]);
    free(r->strings);
    for (int i = 0; i < r->ncache; i++)
        free(r->cache_key[i]);
    free(r->cache_key);
    free(r->cache_target);
    free(r->cache_figs);
    free(r->host_cycles);
    free(r->r);
    free(r);
}

int mcr_store(const mcr_config *cfg, const mcr_result *r, db *d, int64_t tu_id,
              const int64_t *loop_ids, char *err, size_t errlen)
{
    for (int t = 0; t < r->ntargets; t++)
        for (int l = 0; l < r->nloops; l++)
            if (db_mca_add_result(d, loop_ids[l], &r->r[t * r->nloops + l].row, err, errlen))
                return -1;
    for (int k = 0; k < r->ncache; k++)
        if (db_mca_cache_put(d, tu_id, r->cache_key[k], cfg->t[r->cache_target[k]].cpu,
                             cfg->version, &r->cache_figs[k], err, errlen))
            return -1;
    for (int l = 0; l < r->nloops; l++) {
        if (isnan(r->host_cycles[l]))
            continue;
        db_loop_facts f = { .has_cycles = 1, .cycles_per_iter = r->host_cycles[l] };
        if (db_set_loop_facts(d, loop_ids[l], &f, err, errlen))
            return -1;
    }
    return 0;
}
