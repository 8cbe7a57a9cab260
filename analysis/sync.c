/*
 * sync.c -- nests that never go to the GPU (see sync.h): OpenMP
 * synchronisation constructs recorded by the front end (ir_loop.sync),
 * synchronisation calls, spin-waits, and calls whose work the nest's cost
 * leaves out.  Names are matched as the C and POSIX standards and OpenMP
 * spell them; nothing here knows a particular program.
 */
#include "sync.h"

#include "callee.h"
#include "omp_pragmas.h"

#include <stdio.h>
#include <string.h>

int sync_directive(const char *pragma_text)
{
    if (!pragma_text)
        return 0;
    static const unsigned words[] = { OMP_CRITICAL, OMP_ATOMIC, OMP_BARRIER, OMP_FLUSH,
                                      OMP_ORDERED };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (omp_text_has_word(pragma_text, words[i]))
            return 1;
    return 0;
}

static int prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

int sync_call(const char *name)
{
    static const char *const exact[] = {
        "omp_set_lock", "omp_unset_lock", "omp_test_lock",
        "omp_set_nest_lock", "omp_unset_nest_lock", "omp_test_nest_lock",
        "atomic_thread_fence", "atomic_signal_fence",
    };
    static const char *const pre[] = {
        "pthread_mutex_", "pthread_spin_", "pthread_cond_", "pthread_barrier_",
        "pthread_rwlock_", "sem_", "atomic_", "__atomic_", "__sync_", "__c11_atomic_",
    };
    if (!name)
        return 0;
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (strcmp(name, exact[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof pre / sizeof *pre; i++)
        if (prefix(name, pre[i]))
            return 1;
    return 0;
}

/* name is one of `bases` or, when f_l, that base with an f or l suffix
 * (C's float and long double forms: sqrtf, sqrtl). */
static int named(const char *name, const char *const *bases, size_t n, int f_l)
{
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(bases[i]);
        if (strncmp(name, bases[i], k) == 0
            && (name[k] == '\0'
                || (f_l && (name[k] == 'f' || name[k] == 'l') && name[k + 1] == '\0')))
            return 1;
    }
    return 0;
}

int sync_math_function(const char *name)
{
    /* C11 7.12 (<math.h>), double forms */
    static const char *const math[] = {
        "sqrt", "cbrt", "hypot", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
        "pow", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
        "asinh", "acosh", "atanh", "fabs", "floor", "ceil", "round", "trunc", "rint",
        "nearbyint", "lround", "llround", "lrint", "fmod", "remainder", "fmin", "fmax",
        "fdim", "fma", "erf", "erfc", "tgamma", "lgamma", "copysign", "ldexp", "frexp",
        "modf", "scalbn",
    };
    return name && named(name, math, sizeof math / sizeof *math, 1);
}

int sync_call_harmless(const char *name)
{
    static const char *const exact[] = {
        /* timers: they read a clock (and the NPB-style timer_* keep it in
         * their own table); no work, nothing the loop reads */
        "timer_start", "timer_stop", "timer_clear", "timer_read", "wtime", "elapsed_time",
        "omp_get_wtime", "omp_get_wtick", "clock", "clock_gettime", "gettimeofday", "time",
        /* OpenMP's queries of the team */
        "omp_get_thread_num", "omp_get_num_threads", "omp_get_max_threads",
        "omp_get_num_procs", "omp_in_parallel",
        /* <stdlib.h>'s integer absolute values */
        "abs", "labs", "llabs",
    };
    return name && (named(name, exact, sizeof exact / sizeof *exact, 0)
                    || sync_math_function(name));
}

/* A loop that writes nothing, calls nothing and never leaves early, yet
 * reads memory to decide whether to go on: only another thread can end it. */
static int spin_wait(const ir_tu *tu, int l)
{
    const ir_loop *L = &tu->loops[l];
    if (L->kind == IR_FOR && L->canonical)
        return 0;
    int reads = 0;
    for (int k = l; k < tu->nloops && ir_loop_within(tu, k, l); k++) {
        const ir_loop *m = &tu->loops[k];
        if (m->n_break || m->n_return || m->n_goto)
            return 0;
        for (int s = 0; s < m->nstmts; s++) {
            const ir_stmt *st = &m->stmts[s];
            if (st->ncalls)
                return 0;
            for (int a = 0; a < st->nacc; a++) {
                if (st->acc[a].is_write)
                    return 0;
                reads = 1;
            }
            for (int a = 0; a < st->nscalars; a++) {
                if (st->scalars[a].is_write)
                    return 0;
                reads = 1;
            }
        }
    }
    return reads;
}

/* A barrier or flush written in loop k's body outside every work-shared
 * loop of the subtree of l (a sequential loop the whole team runs, around
 * `omp for` loops) only separates those loops: kernels end in one anyway.
 * Inside a work-shared loop (or a loop within one) it orders threads of
 * that loop.  1: it matters. */
static int sync_matters(const ir_tu *tu, int l, int k)
{
    const ir_loop *m = &tu->loops[k];
    if (!omp_text_has_word(m->sync, OMP_BARRIER) && !omp_text_has_word(m->sync, OMP_FLUSH))
        return 1;
    int in = k;   /* the innermost loop of k's subtree around the pragma */
    for (int j = k + 1; j < tu->nloops && ir_loop_within(tu, j, k); j++)
        if (tu->loops[j].line <= m->sync_line && m->sync_line <= tu->loops[j].end_line)
            in = j;
    for (int j = in; j >= 0; j = tu->loops[j].parent) {
        for (int p = 0; p < tu->loops[j].npragmas; p++)
            if (omp_text_is_parallel_loop(tu->loops[j].pragmas[p]))
                return 1;
        if (j == l)
            break;
    }
    return 0;
}

static int holds(const ir_tu *tu, int l, int calls, char *reason, size_t reasonlen);

int sync_loop_holds(const ir_tu *tu, int l, char *reason, size_t reasonlen)
{
    return holds(tu, l, 0, reason, reasonlen);
}

/* calls: also synchronisation calls (the dependence test reads those
 * itself: an atomic add is a reduction there) */
static int holds(const ir_tu *tu, int l, int calls, char *reason, size_t reasonlen)
{
    for (int k = l; k < tu->nloops && ir_loop_within(tu, k, l); k++) {
        const ir_loop *m = &tu->loops[k];
        /* critical and atomic updates are the dependence test's to read
         * (a histogram under `omp atomic` is a reduction): only the
         * nest's GPU mapping stops at them */
        if (m->sync && sync_matters(tu, l, k)
            && (calls || !(omp_text_has_word(m->sync, OMP_CRITICAL)
                           || omp_text_has_word(m->sync, OMP_ATOMIC)))) {
            const char *t = m->sync;
            if (strncmp(t, "#pragma", 7) == 0)
                t += 7;
            t += strspn(t, " \t");
            snprintf(reason, reasonlen, "synchronisation: %s (line %d)", t, m->sync_line);
            return 1;
        }
        for (int s = 0; calls && s < m->nstmts; s++)
            for (int c = 0; c < m->stmts[s].ncalls; c++)
                if (sync_call(m->stmts[s].calls[c])) {
                    snprintf(reason, reasonlen, "synchronisation: calls %s (line %d)",
                             m->stmts[s].calls[c], m->stmts[s].line);
                    return 1;
                }
        if (spin_wait(tu, k)) {
            snprintf(reason, reasonlen, "synchronisation: spin-wait on shared data (line %d)",
                     m->line);
            return 1;
        }
    }
    return 0;
}

int sync_nest_blocked(const ir_tu *tu, int root, char *reason, size_t reasonlen)
{
    if (holds(tu, root, 1, reason, reasonlen))
        return 1;
    for (int k = root; k < tu->nloops && ir_loop_within(tu, k, root); k++) {
        const ir_loop *m = &tu->loops[k];
        for (int s = 0; s < m->nstmts; s++) {
            if (!m->stmts[s].ncalls)
                continue;
            launch_cost add;
            int rc = callee_stmt_cost(tu, k, s, &add, reason, reasonlen);
            if (rc < 0)
                snprintf(reason, reasonlen, "cost of callee %s unknown: out of memory",
                         m->stmts[s].calls[0]);
            if (rc != 0)
                return 1;
        }
    }
    return 0;
}
