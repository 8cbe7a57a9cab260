/*
 * omp.c -- OpenMP directive parser and clang-19's GPU mapping of loop nests
 * (omp_pragmas.h).
 *
 * The parser is a small tokenizer over the pragma text: words up to the
 * first word followed by `(` or a `,` / a word that is a known clause are
 * the directive name; the rest are clauses, each a word with an optional
 * balanced parenthesised argument.  Directive-name words are matched
 * exactly, word by word (`for` never matches inside `former`).
 *
 * The mapping follows what clang-19 generates for NVPTX offload:
 *   - `target teams distribute parallel for [simd]` (and `teams loop`,
 *     which clang lowers to it when it can) is an SPMD kernel: the
 *     (collapsed) iteration space is spread over teams x threads, with
 *     dist_schedule(static, threads) and schedule(static, 1), so consecutive
 *     iterations go to consecutive threads of a team: the fastest thread
 *     index is the innermost loop of the collapsed space, and loops below
 *     run sequentially in each thread;
 *   - `teams distribute` without a combined `parallel for` is a generic-mode
 *     kernel: a team runs its chunk of the loop, and a nested `parallel for`
 *     gives its loop to the team's threads (the fastest index);
 *   - `target parallel for` is one team whose threads share the loop;
 *   - `simd` alone is one lane on NVPTX: the loop is sequential in its thread.
 * Host-only `parallel for` nests are mapped as their direct port
 * (`target teams distribute parallel for` on the same loop) would be.
 */
#include "omp_pragmas.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *word;
    unsigned bit;
} construct_words[] = {
    { "target", OMP_TARGET }, { "teams", OMP_TEAMS }, { "distribute", OMP_DISTRIBUTE },
    { "parallel", OMP_PARALLEL }, { "for", OMP_FOR }, { "do", OMP_FOR },
    { "simd", OMP_SIMD }, { "loop", OMP_LOOP }, { "data", OMP_DATA }, { "enter", OMP_ENTER },
    { "exit", OMP_EXIT }, { "update", OMP_UPDATE }, { "taskloop", OMP_TASKLOOP },
    { "task", OMP_TASK }, { "sections", OMP_SECTIONS }, { "section", OMP_SECTIONS },
    { "single", OMP_SINGLE }, { "master", OMP_MASTER }, { "masked", OMP_MASTER },
    { "critical", OMP_CRITICAL }, { "atomic", OMP_ATOMIC }, { "barrier", OMP_BARRIER },
    { "taskwait", OMP_TASKWAIT }, { "taskyield", OMP_TASKWAIT }, { "taskgroup", OMP_TASK },
    { "flush", OMP_FLUSH }, { "ordered", OMP_ORDERED }, { "declare", OMP_DECLARE },
    { "begin", OMP_DECLARE }, { "end", OMP_DECLARE }, { "threadprivate", OMP_DECLARE },
    { "requires", OMP_DECLARE }, { "allocate", OMP_DECLARE }, { "tile", OMP_TILE },
    { "unroll", OMP_UNROLL }, { "cancel", OMP_OTHER }, { "cancellation", OMP_OTHER },
    { "point", OMP_OTHER }, { "scan", OMP_OTHER }, { "depobj", OMP_OTHER },
    { "scope", OMP_OTHER }, { "metadirective", OMP_OTHER }, { "interop", OMP_OTHER },
    { "dispatch", OMP_OTHER }, { "error", OMP_OTHER }, { "assume", OMP_OTHER },
    { "assumes", OMP_DECLARE }, { "nothing", OMP_OTHER }, { "variant", OMP_DECLARE },
    { "reduction", OMP_DECLARE }, { "mapper", OMP_DECLARE }, { "mask", OMP_OTHER },
    { NULL, 0 }
};

/* Words that are construct words in some directives and clause names in
 * others: after the first construct word these end the name when the
 * directive cannot continue with them. */
static int clause_only(const char *w, unsigned so_far)
{
    /* `simd` is a clause of `ordered`; `update` a clause of `atomic` /
     * `depobj`; `reduction`/`allocate` clauses of many constructs. */
    if (so_far & (OMP_ORDERED | OMP_ATOMIC | OMP_FLUSH))
        return 1;
    if (!(so_far & OMP_DECLARE) && (strcmp(w, "reduction") == 0 || strcmp(w, "allocate") == 0
                                    || strcmp(w, "variant") == 0 || strcmp(w, "mapper") == 0))
        return 1;
    if (strcmp(w, "update") == 0 && !(so_far & OMP_TARGET))
        return 1;
    return 0;
}

static unsigned word_bit(const char *w)
{
    for (int i = 0; construct_words[i].word; i++)
        if (strcmp(construct_words[i].word, w) == 0)
            return construct_words[i].bit;
    return 0;
}

static char *dupn(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* Collapse runs of white space to one space and trim. */
static void squeeze(char *s)
{
    char *w = s;
    int sp = 0;
    for (char *r = s; *r; r++) {
        if (isspace((unsigned char)*r)) {
            sp = w != s;
            continue;
        }
        if (sp)
            *w++ = ' ';
        sp = 0;
        *w++ = *r;
    }
    *w = '\0';
}

void omp_free(omp_directive *d)
{
    if (!d)
        return;
    free(d->name);
    for (int i = 0; i < d->nclauses; i++) {
        free(d->clauses[i].name);
        free(d->clauses[i].args);
    }
    free(d->clauses);
    memset(d, 0, sizeof *d);
}

static int add_clause(omp_directive *d, const char *name, size_t nlen, const char *args,
                      size_t alen, int has_args)
{
    int n = d->nclauses;
    omp_clause *c = ku_push(&d->clauses, &n, sizeof *c);
    if (!c)
        return -1;
    c->name = dupn(name, nlen);
    c->args = has_args ? dupn(args, alen) : NULL;
    if (!c->name || (has_args && !c->args)) {
        free(c->name);
        free(c->args);
        return -1;
    }
    for (char *p = c->name; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    if (c->args)
        squeeze(c->args);
    d->nclauses++;
    return 0;
}

/* Phase 1 of omp_parse: past `[#] [pragma] omp` at the start of text (white
 * space allowed around each), or NULL when text is no OpenMP directive. */
static const char *omp_sentinel(const char *text)
{
    const char *p = text ? text : "";
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '#') {
        p++;
        while (isspace((unsigned char)*p))
            p++;
        if (strncmp(p, "pragma", 6) == 0)
            p += 6;
        while (isspace((unsigned char)*p))
            p++;
    }
    if (strncmp(p, "omp", 3) != 0 || (p[3] && !isspace((unsigned char)p[3])))
        return NULL;
    return p + 3;
}

/* Phase 2 of omp_parse: the directive name from p, construct words until a
 * clause starts, into name[namesz] (*nlen bytes; words that do not fit
 * are dropped) and their bits into d->constructs.  Returns where the
 * clauses start. */
static const char *omp_name(const char *p, omp_directive *d, char *name, size_t namesz,
                            size_t *nlen)
{
    for (;;) {
        while (isspace((unsigned char)*p) || *p == ',')
            p++;
        const char *ws = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        size_t wl = (size_t)(p - ws);
        if (wl == 0 || wl >= 32)
            break;
        char w[32];
        memcpy(w, ws, wl);
        w[wl] = '\0';
        const char *q = p;
        while (isspace((unsigned char)*q))
            q++;
        unsigned bit = word_bit(w);
        /* `declare variant(...)`, `critical(name)`, `flush(list)`,
         * `declare reduction(...)` take an argument as part of the name. */
        int name_arg = *q == '(' && (d->constructs & OMP_DECLARE || bit == OMP_CRITICAL
                                     || bit == OMP_FLUSH || bit == OMP_DECLARE
                                     || strcmp(w, "threadprivate") == 0
                                     || strcmp(w, "allocate") == 0 || strcmp(w, "scan") == 0);
        if (!bit || (d->constructs && clause_only(w, d->constructs))
            || (*q == '(' && !name_arg)) {
            p = ws;
            break;
        }
        /* `cancel for`, `cancellation point parallel`: the construct named
         * is the one cancelled, not this directive's. */
        if (!(*nlen >= 6 && strncmp(name, "cancel", 6) == 0))
            d->constructs |= bit;
        if (*nlen + wl + 2 < namesz) {
            if (*nlen)
                name[(*nlen)++] = ' ';
            memcpy(name + *nlen, w, wl);
            *nlen += wl;
            name[*nlen] = '\0';
        }
        if (name_arg) {   /* skip the argument: it belongs to the name */
            int depth = 0;
            p = q;
            do {
                if (*p == '(')
                    depth++;
                else if (*p == ')')
                    depth--;
                p++;
            } while (*p && depth > 0);
            if (depth)
                break;
        }
    }
    return p;
}

/* Phase 3 of omp_parse: the clauses from p, word [ '(' balanced ')' ],
 * separated by spaces or commas, into d.  -1 with err set when an
 * argument is unbalanced or memory runs out. */
static int omp_clauses(const char *text, const char *p, omp_directive *d, char *err,
                       size_t errlen)
{
    for (;;) {
        while (isspace((unsigned char)*p) || *p == ',')
            p++;
        if (!*p)
            break;
        const char *ws = p;
        while (isalnum((unsigned char)*p) || *p == '_')
            p++;
        size_t wl = (size_t)(p - ws);
        if (wl == 0) {   /* stray punctuation: skip one character */
            p++;
            continue;
        }
        const char *q = p;
        while (isspace((unsigned char)*q))
            q++;
        if (*q == '(') {
            int depth = 0;
            const char *a = q + 1, *r = q;
            for (; *r; r++) {
                if (*r == '(')
                    depth++;
                else if (*r == ')' && --depth == 0)
                    break;
            }
            if (!*r) {
                snprintf(err, errlen, "unbalanced parentheses in '%s'", text);
                return -1;
            }
            if (add_clause(d, ws, wl, a, (size_t)(r - a), 1) != 0)
                return ku_fail(err, errlen, "out of memory");
            p = r + 1;
        } else if (add_clause(d, ws, wl, NULL, 0, 0) != 0) {
            return ku_fail(err, errlen, "out of memory");
        }
    }
    return 0;
}

int omp_parse(const char *text, omp_directive *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    const char *p = omp_sentinel(text);
    if (!p)
        return 0;
    d->is_omp = 1;
    char name[256] = "";
    size_t nlen = 0;
    p = omp_name(p, d, name, sizeof name, &nlen);
    d->name = dupn(name, nlen);
    if (!d->name)
        return ku_fail(err, errlen, "out of memory");
    return omp_clauses(text, p, d, err, errlen);
}

const omp_clause *omp_clause_find(const omp_directive *d, const char *name)
{
    for (int i = 0; i < d->nclauses; i++)
        if (strcmp(d->clauses[i].name, name) == 0)
            return &d->clauses[i];
    return NULL;
}

int omp_loop_lists(const ir_loop *l, const char *clause, const char *var, char *op, size_t cap)
{
    int found = 0;
    size_t vl = strlen(var);
    for (int p = 0; p < l->npragmas && !found; p++) {
        omp_directive d;
        char err[64];
        if (omp_parse(l->pragmas[p], &d, err, sizeof err) != 0 || !d.is_omp
            || !omp_is_loop_construct(&d)) {
            omp_free(&d);
            continue;
        }
        for (int c = 0; c < d.nclauses && !found; c++) {
            const omp_clause *cl = &d.clauses[c];
            if (strcmp(cl->name, clause) != 0 || !cl->args)
                continue;
            const char *list = cl->args, *colon = strchr(list, ':');
            char opt[32] = "";
            if (colon && strcmp(clause, "reduction") == 0) {
                /* reduction([modifier,] op: list) */
                const char *o = list, *comma = strchr(list, ',');
                if (comma && comma < colon)
                    o = comma + 1;
                while (*o == ' ')
                    o++;
                size_t n = (size_t)(colon - o);
                while (n > 0 && o[n - 1] == ' ')
                    n--;
                snprintf(opt, sizeof opt, "%.*s", (int)n, o);
                list = colon + 1;
            }
            for (const char *q = list; *q;) {
                while (*q == ' ' || *q == ',')
                    q++;
                size_t n = strcspn(q, ",:");
                size_t m = n;
                while (m > 0 && q[m - 1] == ' ')
                    m--;
                if (m == vl && strncmp(q, var, vl) == 0) {
                    found = 1;
                    if (op && cap)
                        snprintf(op, cap, "%s", opt);
                    break;
                }
                q += n;
                if (*q == ':')        /* linear(list: step): no more names */
                    break;
            }
        }
        omp_free(&d);
    }
    return found;
}

int omp_collapse(const omp_directive *d)
{
    const omp_clause *c = omp_clause_find(d, "collapse");
    if (!c || !c->args)
        return 1;
    char *end;
    long v = strtol(c->args, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    return *end || v < 1 || v > 64 ? 1 : (int)v;
}

int omp_is_loop_construct(const omp_directive *d)
{
    return d->is_omp && (d->constructs & (OMP_FOR | OMP_SIMD | OMP_DISTRIBUTE | OMP_LOOP
                                          | OMP_TASKLOOP))
        && !(d->constructs & OMP_DECLARE) && !(d->constructs & (OMP_ORDERED | OMP_ATOMIC));
}

int omp_is_standalone(const omp_directive *d)
{
    if (!d->is_omp)
        return 0;
    unsigned c = d->constructs;
    if (c & (OMP_BARRIER | OMP_TASKWAIT | OMP_FLUSH | OMP_ENTER | OMP_EXIT))
        return 1;
    if ((c & OMP_UPDATE) && (c & OMP_TARGET))
        return 1;
    if (c & OMP_DECLARE)
        return 1;
    /* cancel, cancellation point, scan, depobj, error, nothing */
    if ((c & OMP_OTHER) && d->name
        && (strncmp(d->name, "cancel", 6) == 0 || strcmp(d->name, "scan") == 0
            || strcmp(d->name, "depobj") == 0 || strcmp(d->name, "error") == 0
            || strcmp(d->name, "nothing") == 0))
        return 1;
    /* `ordered depend(...)` / `ordered doacross(...)` stand alone */
    if ((c & OMP_ORDERED) && (omp_clause_find(d, "depend") || omp_clause_find(d, "doacross")))
        return 1;
    return 0;
}

int omp_text_is_parallel_loop(const char *text)
{
    omp_directive d;
    char err[128];
    int r = omp_parse(text, &d, err, sizeof err) == 0 && omp_is_loop_construct(&d);
    omp_free(&d);
    return r;
}

int omp_text_is_target_region(const char *text)
{
    omp_directive d;
    char err[128];
    int r = omp_parse(text, &d, err, sizeof err) == 0 && (d.constructs & OMP_TARGET)
            && !(d.constructs & (OMP_ENTER | OMP_EXIT | OMP_DECLARE))
            && !((d.constructs & OMP_UPDATE));
    omp_free(&d);
    return r;
}

int omp_text_has_clause(const char *text, const char *clause)
{
    omp_directive d;
    char err[128];
    int r = omp_parse(text, &d, err, sizeof err) == 0 && omp_clause_find(&d, clause) != NULL;
    omp_free(&d);
    return r;
}

int omp_text_has_word(const char *text, unsigned bits)
{
    omp_directive d;
    char err[128];
    int r = omp_parse(text, &d, err, sizeof err) == 0 && d.is_omp
            && (d.constructs & bits) == bits;
    omp_free(&d);
    return r;
}

/* ---- mapping ------------------------------------------------------------- */

static const char *const role_names[] = { "", "grid", "teams", "threads", "collapsed", "seq" };

const char *omp_map_role_name(omp_map_role r)
{
    return (int)r >= 0 && (int)r < (int)(sizeof role_names / sizeof *role_names) ? role_names[r]
                                                                                  : "";
}

omp_map_role omp_map_role_parse(const char *s)
{
    for (int i = 1; s && i < (int)(sizeof role_names / sizeof *role_names); i++)
        if (strcmp(s, role_names[i]) == 0)
            return (omp_map_role)i;
    return OMP_MAP_NONE;
}

long long omp_default_teams(long long trip, int spmd, int threads)
{
    if (threads <= 0)
        threads = OMP_GPU_DEFAULT_THREADS;
    if (trip <= 0)
        return OMP_GPU_DEFAULT_TEAMS_CAP;
    long long t = spmd ? (trip - 1) / threads + 1 : trip;
    return t < OMP_GPU_DEFAULT_TEAMS_CAP ? t : OMP_GPU_DEFAULT_TEAMS_CAP;
}

/* The union of a loop's attached OpenMP directives (a `target` line above a
 * `teams distribute parallel for` line counts as one combined construct). */
typedef struct {
    unsigned constructs;
    int collapse;
    char *teams, *threads;
} loop_omp;

static char *dup_s(const char *s)
{
    return s ? dupn(s, strlen(s)) : NULL;
}

static int read_loop(const ir_loop *l, loop_omp *o)
{
    memset(o, 0, sizeof *o);
    o->collapse = 1;
    for (int p = 0; p < l->npragmas; p++) {
        omp_directive d;
        char err[128];
        if (omp_parse(l->pragmas[p], &d, err, sizeof err) != 0) {
            omp_free(&d);
            continue;
        }
        if (d.is_omp && !omp_is_standalone(&d)) {
            o->constructs |= d.constructs;
            if (omp_collapse(&d) > o->collapse)
                o->collapse = omp_collapse(&d);
            const omp_clause *c = omp_clause_find(&d, "num_teams");
            if (c && c->args && !o->teams)
                o->teams = dup_s(c->args);
            c = omp_clause_find(&d, "thread_limit");
            if (!c)
                c = omp_clause_find(&d, "num_threads");
            if (c && c->args && !o->threads)
                o->threads = dup_s(c->args);
        }
        omp_free(&d);
    }
    return 0;
}

/* The only child of loop k when it has exactly one, else -1 (the loops of a
 * collapsed space must be perfectly nested; a missing one ends it). */
static int only_child(const ir_tu *tu, int k)
{
    int c = -1;
    for (int j = k + 1; j < tu->nloops && tu->loops[j].depth > tu->loops[k].depth; j++)
        if (tu->loops[j].parent == k) {
            if (c >= 0)
                return -1;
            c = j;
        }
    return c;
}

static void set_seq_below(ir_tu *tu, int k)
{
    for (int j = k + 1; j < tu->nloops && tu->loops[j].depth > tu->loops[k].depth; j++)
        if (tu->loops[j].gpu_map == OMP_MAP_NONE)
            tu->loops[j].gpu_map = OMP_MAP_SEQ;
}

/* Mark loop k (carrying construct o) and its collapsed loops with role;
 * returns the innermost loop of the space. */
static int mark_space(ir_tu *tu, int k, const loop_omp *o, omp_map_role role)
{
    ir_loop *l = &tu->loops[k];
    int inner = k, n = 1;
    for (; n < o->collapse; n++) {
        int c = only_child(tu, inner);
        if (c < 0)
            break;
        tu->loops[inner].gpu_map = OMP_MAP_COLLAPSED;
        inner = c;
    }
    tu->loops[inner].gpu_map = role;
    l->gpu_collapse = n;
    free(l->gpu_teams);
    free(l->gpu_threads);
    l->gpu_teams = dup_s(o->teams);
    l->gpu_threads = dup_s(o->threads);
    if (!(l->gpu_teams || !o->teams) || !(l->gpu_threads || !o->threads))
        return -2;
    return inner;
}

int omp_map_tu(ir_tu *tu)
{
    loop_omp *lo = calloc((size_t)(tu->nloops ? tu->nloops : 1), sizeof *lo);
    if (!lo)
        return -1;
    for (int k = 0; k < tu->nloops; k++) {
        read_loop(&tu->loops[k], &lo[k]);
        tu->loops[k].gpu_map = OMP_MAP_NONE;
        tu->loops[k].gpu_collapse = 0;
        tu->loops[k].gpu_fastest = -1;
    }
    int rc = 0;
    for (int r = 0; r < tu->nloops && rc == 0; r++) {
        if (tu->loops[r].parent >= 0)
            continue;
        /* Visit the nest in pre-order; the first OpenMP loop construct on
         * a path decides, an inner `parallel for` under a `teams
         * distribute` gets the team's threads. */
        int fastest = -1;
        for (int k = r; k < tu->nloops && ir_loop_within(tu, k, r) && rc == 0; k++) {
            const loop_omp *o = &lo[k];
            if (tu->loops[k].gpu_map != OMP_MAP_NONE)
                continue;   /* already inside a mapped space */
            unsigned c = o->constructs;
            int loopish = c & (OMP_FOR | OMP_DISTRIBUTE | OMP_LOOP | OMP_SIMD | OMP_TASKLOOP);
            if (!loopish)
                continue;
            /* Which mapped loop encloses k? */
            int teams_above = 0, mapped_above = 0;
            for (int a = tu->loops[k].parent; a >= 0; a = tu->loops[a].parent) {
                if (tu->loops[a].gpu_map == OMP_MAP_TEAMS)
                    teams_above = 1;
                else if (tu->loops[a].gpu_map != OMP_MAP_NONE)
                    mapped_above = 1;
            }
            if (mapped_above)
                continue;
            omp_map_role role;
            if ((c & OMP_DISTRIBUTE) && (c & OMP_FOR))
                role = OMP_MAP_GRID;                        /* SPMD teams x threads */
            else if ((c & OMP_LOOP) && (c & OMP_TEAMS))
                role = OMP_MAP_GRID;                        /* teams loop */
            else if (c & OMP_DISTRIBUTE)
                role = OMP_MAP_TEAMS;                       /* generic mode */
            else if (teams_above && (c & (OMP_FOR | OMP_LOOP)))
                role = OMP_MAP_THREADS;                     /* the team's threads */
            else if (c & OMP_TARGET && (c & (OMP_FOR | OMP_LOOP)))
                role = OMP_MAP_THREADS;                     /* target parallel for: 1 team */
            else if (c & (OMP_FOR | OMP_LOOP | OMP_TASKLOOP))
                role = teams_above ? OMP_MAP_THREADS : OMP_MAP_GRID;  /* host loop: its port */
            else if (teams_above)
                role = OMP_MAP_SEQ;                          /* simd: one lane on NVPTX */
            else
                role = OMP_MAP_GRID;                         /* host simd loop: its port */
            int inner = mark_space(tu, k, o, role);
            if (inner == -2) {
                rc = -1;
                break;
            }
            if (role == OMP_MAP_TEAMS) {
                if (fastest < 0)
                    fastest = inner;   /* until a nested parallel for takes it */
                continue;
            }
            if (role == OMP_MAP_SEQ) {
                set_seq_below(tu, inner);
                continue;
            }
            if (fastest < 0 || tu->loops[fastest].gpu_map == OMP_MAP_TEAMS)
                fastest = inner;
            set_seq_below(tu, inner);
        }
        tu->loops[r].gpu_fastest = fastest;
        /* Loops inside a mapped loop that no construct maps run inside
         * one team or one work item. */
        for (int k = r + 1; k < tu->nloops && ir_loop_within(tu, k, r); k++)
            if (tu->loops[k].gpu_map == OMP_MAP_NONE)
                for (int a = tu->loops[k].parent; a >= 0; a = tu->loops[a].parent)
                    if (tu->loops[a].gpu_map != OMP_MAP_NONE
                        && tu->loops[a].gpu_map != OMP_MAP_SEQ) {
                        tu->loops[k].gpu_map = OMP_MAP_SEQ;
                        break;
                    }
    }
    for (int k = 0; k < tu->nloops; k++) {
        free(lo[k].teams);
        free(lo[k].threads);
    }
    free(lo);
    return rc;
}

int omp_map_roles(const ir_tu *tu, int *roles)
{
    ir_tu tmp = *tu;
    tmp.loops = malloc(sizeof *tmp.loops * (size_t)(tu->nloops ? tu->nloops : 1));
    if (!tmp.loops)
        return -1;
    memcpy(tmp.loops, tu->loops, sizeof *tmp.loops * (size_t)tu->nloops);
    for (int k = 0; k < tu->nloops; k++)
        tmp.loops[k].gpu_teams = tmp.loops[k].gpu_threads = NULL;
    int rc = omp_map_tu(&tmp);
    for (int k = 0; k < tu->nloops; k++) {
        roles[k] = tmp.loops[k].gpu_map;
        free(tmp.loops[k].gpu_teams);
        free(tmp.loops[k].gpu_threads);
    }
    free(tmp.loops);
    return rc;
}

int omp_is_thread_loop(const ir_tu *tu, const int *roles, int k)
{
    if (roles[k] == OMP_MAP_GRID || roles[k] == OMP_MAP_THREADS)
        return 1;
    if (roles[k] != OMP_MAP_TEAMS)
        return 0;
    for (int c = k + 1; c < tu->nloops; c++)
        if ((roles[c] == OMP_MAP_GRID || roles[c] == OMP_MAP_THREADS) && ir_loop_within(tu, c, k))
            return 0;
    return 1;
}
