/*
 * instrument.h -- insert libkeelrt decision calls into a C source.
 *
 * report:  before every outermost loop nest that could be offloaded (a loop
 *          of the nest is parallel or a reduction, the outermost loop's trip
 *          count is known, and every value the nest's trip counts need is a
 *          variable the program can read just before the loop without
 *          changing what it does), a call keel_decide(&site, values); the
 *          program runs the same code.  Other nests get no call.
 * offload: in addition, every `omp target` pragma attached to a loop gets
 *          `if(target: keel_decide(&site, values))`, so the verdict chooses
 *          where the region runs (its host copy otherwise); such a loop gets
 *          no separate report call.
 *
 * The result is the original text with insertions only: keel's text goes
 * where it moves no byte of the user's to another line or column (a blank
 * line, the end of a line), each instrumented block declaring what its
 * call needs inside `_Pragma("clang diagnostic ignored \"-Weverything\"")`,
 * so every line keeps its physical and presumed number and its columns,
 * and nothing keel writes can warn in any -std or -pedantic mode.  A loop
 * sharing a line with other code gets lines of its own followed by
 * `#line N` (no file name), where no empty body follows it.  No header is
 * included.
 * A loop whose surroundings keel cannot place a call in safely (after an
 * `#else`, a `_Pragma` or a macro that could be one, a `#line` inside a
 * conditional, ...) is left alone.
 */
#ifndef KEEL_PLUGIN_INSTRUMENT_H
#define KEEL_PLUGIN_INSTRUMENT_H

#include <stddef.h>

#include "ir.h"
#include "parallel.h"

typedef enum { INSTRUMENT_OFF, INSTRUMENT_REPORT, INSTRUMENT_OFFLOAD } instrument_mode;

/* Instrument the source text src (len bytes, NUL bytes allowed) of the file
 * `path` (the resolved path the IR's loops name), whose IR is tu.  build:
 * the 16 hex digits keelcc records as this compile's translation_units.hash
 * (the source's bytes and its variant's flags), appended to each site's file
 * as "#h=HASH" so the runtime uses this build's facts only (NULL or not 16
 * hex digits: no suffix).  db_path: the database the sites name, NULL: the
 * one the link names (INSTRUMENT_LINK_DB, defined by keelcc's link step, so
 * that the object holds no build folder).  Returns
 * the number of sites and the new text in *out (malloc'd, NUL-terminated,
 * *out_len bytes; NULL when there are no sites), or -1 on allocation
 * failure. */
int instrument_source(const ir_tu *tu, const char *path, const char *build, const char *src,
                      size_t len, const char *db_path, instrument_mode mode, char **out,
                      size_t *out_len);
/* The same with the IPDA result of tu already computed (keelcc passes the
 * one store_analyse made, so a file is analysed once); NULL: computed here. */
int instrument_source_with(const ir_tu *tu, const par_result *par, const char *path,
                           const char *build, const char *src, size_t len, const char *db_path,
                           instrument_mode mode, char **out, size_t *out_len);

/* What instrumentation did with one loop: a keel_decide call before it
 * (INSTRUMENT_SITE_CALL), the verdict on its `omp target` construct's
 * if(target: ...) clause (INSTRUMENT_SITE_CLAUSE), or nothing, `why` then
 * saying why not in one line, e.g. "inner loop of the nest at line 12",
 * "preprocessor branch around the nest: #else on line 40 above it",
 * "no loop of the nest is parallel or a reduction (line 5: unknown: ...)". */
typedef enum { INSTRUMENT_SITE_NONE, INSTRUMENT_SITE_CALL, INSTRUMENT_SITE_CLAUSE } instrument_site_kind;
typedef struct {
    instrument_site_kind kind;
    char why[512];
} instrument_site;

/* A term of an evaluator message (kx's text) as the user wrote it, for a
 * reason: ?"MIN(i,j)" (an atom keel keeps as text) as `MIN(i,j)`,
 * load.idx(i) as `idx[i]`, call.f(n) as `f(n)`, anything else as it is;
 * at most n - 1 bytes. */
void instrument_term_text(const char *t, char *out, size_t n);

/* instrument_source_with that also fills sites[0..tu->nloops-1] (NULL:
 * not filled), the loops' plan: the same choice as the text's, so what
 * it says is what the text does. */
int instrument_source_sites(const ir_tu *tu, const par_result *par, const char *path,
                            const char *build, const char *src, size_t len, const char *db_path,
                            instrument_mode mode, char **out, size_t *out_len,
                            instrument_site *sites);

/* on: write profile-neutral text from now on -- keel adds no branch to
 * the user's functions (for builds with source-based coverage or
 * instrumentation profiles, whose counts and function hashes must be the
 * plain build's); report calls are then made at every launch. */
void instrument_set_profile_neutral(int on);

/* A prefix map of the compile (-ffile-prefix-map=OLD=NEW,
 * -fmacro-prefix-map, -fdebug-prefix-map): the database and source paths
 * the sites embed are rewritten as the compiler rewrites its own (the last
 * map given whose OLD -- old_len bytes of old -- begins the path), so the
 * objects do not depend on the build folder.  The strings must outlive
 * instrumentation.  -1 when too many maps were given (the rest ignored). */
int instrument_add_prefix_map(const char *old, size_t old_len, const char *new_prefix);

/* path with the last matching prefix map applied (malloc'd), NULL when out
 * of memory. */
char *instrument_mapped_path(const char *path);

/* The sites of loops whose file is `stored` (the resolved path the IR
 * names) name their source `given`: the name the compiler was given (as
 * __FILE__ spells it, prefix maps applied), not the resolved path, so an
 * object does not depend on the build folder.  NULL: the stored path.  The
 * strings must outlive the instrumentation of that source. */
void instrument_site_source(const char *stored, const char *given);

/* The weak hidden symbol a linked program or library defines with the
 * absolute path of its database (keelcc's link step); sites compiled with a
 * relative database point at it. */
#define INSTRUMENT_LINK_DB "keel_link_db"
/* The link step's table of packed facts (db_nest.h's link table), which
 * libkeelrt reads through a weak reference of the same name. */
#define INSTRUMENT_LINK_FACTS "keel_link_facts"
/* ... and its packed calibration of the host it links on (db_calib_pack.h). */
#define INSTRUMENT_LINK_CALIB "keel_link_calib"

#endif
