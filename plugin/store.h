/*
 * store.h -- loop IR -> attribute database rows.
 */
#ifndef KEEL_PLUGIN_STORE_H
#define KEEL_PLUGIN_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "db.h"
#include "ir.h"
#include "parallel.h"

/* Step 2 of keelcc's pipeline (parse -> analyse -> store): every analysis
 * of tu (IPDA verdicts and strides, idioms, boat-hull classes, counts, the
 * runtime's launch facts), with no database open.  Returns 0 with *out
 * (free with store_analysis_free), or -1 with a message: the caller warns
 * once and stores the IR without analyses.
 *
 * An analysis that fails in part is a note instead, and the rest is kept:
 * IPDA failing ("IPDA failed (...): every loop stored as unknown"; each
 * loop's dependence reason says "not analysed: IPDA failed (...)") or a
 * nest that cannot be classified ("line 12: the nest's algorithm class was
 * not computed (out of memory)").  The caller prints each note as one
 * warning; store_tu_with records them, joined by "; ", as the translation
 * unit's message (status stays "ok"). */
typedef struct store_analysis store_analysis;
int store_analyse(const ir_tu *tu, store_analysis **out, char *err, size_t errlen);
void store_analysis_free(store_analysis *a);      /* NULL is fine */
int store_analysis_nnotes(const store_analysis *a);              /* 0 for NULL */
const char *store_analysis_note(const store_analysis *a, int k); /* NULL when out of range */
/* The IPDA result store_analyse computed, for the instrumentation to reuse
 * (the analysis runs once per file); NULL for NULL or when IPDA failed. */
const par_result *store_analysis_par(const store_analysis *a);
/* What keelcc's instrumentation did with loop `loop`: site "call" (a
 * keel_decide call before the nest), "clause" (an if(target: ...)
 * clause) or "none" with why (copied), stored as loops.site and
 * loops.site_why.  store_analysis_no_sites: every loop "off" for one
 * reason (a build without instrumentation, e.g. "analysed only (keelcc
 * --keel-analysis=only, ...)").  0, or -1 out of memory. */
int store_analysis_set_site(store_analysis *a, int loop, const char *site, const char *why);
int store_analysis_no_sites(store_analysis *a, const char *why);
/* The per-loop fact `offload` of every loop: "image", "host" or NULL
 * (a static string; kc_offload_fact says which). */
void store_analysis_set_offload(store_analysis *a, const char *offload);
/* Why keel gives no CPU/GPU verdict that follows the sizes of the nest
 * rooted at outermost loop `loop` (loops.no_answer), NULL when it gives
 * one: "the trip count of the loop at line 7 holds ?\"MIN(i,j)\", which
 * keel cannot evaluate", "dependence unknown (...): CPU by default", "the
 * trip count of the loop at line 9 is not known (the models assume 128
 * iterations)". */
const char *store_analysis_no_answer(const store_analysis *a, int loop);

/* Step 3: replace the rows of the translation unit described by `row` with
 * the IR `tu` (NULL: only the translation-unit row, e.g. status "error")
 * and the results of store_analyse (NULL: the IR alone), in one
 * transaction, and before the commit call hook(ctx, d, tu_id, loop_ids)
 * (NULL: none) with the new ids of tu's loops (same indices), e.g. to add
 * rows of later analyses in the same transaction.  Returns 0, or -1 with a
 * message (nothing changed; a hook failure rolls everything back). */
typedef int (*store_hook)(void *ctx, db *d, int64_t tu_id, const int64_t *loop_ids,
                          char *err, size_t errlen);
int store_tu_with(db *d, const ir_tu *tu, const store_analysis *an, const db_tu_row *row,
                  store_hook hook, void *ctx, char *err, size_t errlen);
/* Both steps: store_analyse, then store_tu_with without a hook (-1 when
 * either fails; nothing changed). */
int store_tu(db *d, const ir_tu *tu, const db_tu_row *row, char *err, size_t errlen);

/* A JSON array of strings built by db/'s JSON helper (db_json_array_of:
 * SQLite's json_group_array and its escaping, \" \\ \n \t ..., other
 * control bytes \u00XX); malloc'd, the caller frees it; NULL when SQLite
 * or memory fails. */
char *store_json_array(int n, char *const *items);

#endif
