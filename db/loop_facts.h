/*
 * loop_facts.h -- the per-loop scalar facts, one line each.
 *
 * A per-loop fact is a text keelcc works out for a loop after the walk
 * (an analysis verdict, a label) and stores in a column of `loops`.  Each
 * line of DB_LOOP_FACTS names one; everything else follows from the list:
 * the members of db_loop_facts (what keelcc's store fills) and of
 * db_loop_info (what the reader loads), the UPDATE of db_set_loop_facts,
 * the columns db_get_loop selects, the ALTER TABLE ADD COLUMN that a
 * database opened for writing gets when it lacks the column (a database
 * written before a fact existed reads the fact as NULL), the fact's line
 * in `keel show` and the runtime's copy of the launch loop's value
 * (rt_facts_fact).  So a new fact is one line here, the store that fills
 * it, and the reader that uses it.
 *
 * X(name, show) -- name: the C member and the SQL column (TEXT; NULL:
 * unknown); show: `keel show`'s label for a line of its own (and the key
 * of show --json), printed when the fact is known, or NULL where keel show
 * prints the fact in a form of its own (the four older facts).
 */
#ifndef KEEL_DB_LOOP_FACTS_H
#define KEEL_DB_LOOP_FACTS_H

#define DB_LOOP_FACTS(X)                                                          \
    X(idioms, NULL)           /* comma-separated idioms, "" for none (v4) */      \
    X(algorithm_class, NULL)  /* boat-hull class of an outermost nest (v4) */     \
    X(parallel, NULL)         /* IPDA's verdict: parallel, reduction, ... (v2) */ \
    X(coalescing, NULL)       /* thread loops: their accesses' strides (v2) */    \
    X(serial_why, "why serial") /* not parallel: IPDA's reason, e.g. "calls g (line 5)" */ \
    X(site, NULL)             /* keelcc's instrumentation: "call", "clause", "none", "off" */ \
    X(site_why, NULL)         /* site "none"/"off": why, e.g. "inner loop of the nest at line 3" */ \
    X(no_answer, NULL)        /* outermost: why keel gives no verdict that follows sizes */ \
    X(recurrence, "recurrence") /* innermost: chains carried through it (analysis/recur.h) */ \
    X(offload, "offload")     /* -fopenmp builds: "image" (the command names offload targets), \
                               * "host" (target regions compile to host code), NULL unknown */

enum {
#define DB_LOOP_FACT_ENUM_(name, show) DB_LOOP_FACT_##name,
    DB_LOOP_FACTS(DB_LOOP_FACT_ENUM_)
#undef DB_LOOP_FACT_ENUM_
    DB_NLOOP_FACTS
};

/* The column names and keel show labels in list order (db.c). */
extern const char *const db_loop_fact_names[DB_NLOOP_FACTS];
extern const char *const db_loop_fact_show[DB_NLOOP_FACTS];

#endif
