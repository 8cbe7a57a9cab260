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
 * The result is the original text with insertions only, every inserted
 * statement on lines of its own followed by `#line N` (no file name), so each
 * original line keeps its presumed number, its file name and its columns, and
 * the compiler never quotes keel's text in a diagnostic.  The declarations
 * the calls need are a prelude above the first line, inside
 * `#pragma clang diagnostic ignored "-Weverything"`, as is every call: no
 * header is included (a user's `#define _GNU_SOURCE` on line 1 still comes
 * first), nothing keel writes can warn in any -std or -pedantic mode.
 * A loop whose surroundings keel cannot place a call in safely (after an
 * `#else`, a `_Pragma` or a macro that could be one, a `#line` inside a
 * conditional, ...) is left alone.
 */
#ifndef KEEL_PLUGIN_INSTRUMENT_H
#define KEEL_PLUGIN_INSTRUMENT_H

#include <stddef.h>

#include "ir.h"

typedef enum { INSTRUMENT_OFF, INSTRUMENT_REPORT, INSTRUMENT_OFFLOAD } instrument_mode;

/* Instrument the source text src (len bytes, NUL bytes allowed) of the file
 * `path` (the resolved path the IR's loops name), whose IR is tu.  build:
 * the 16 hex digits keelcc records as this compile's translation_units.hash
 * (the source's bytes and its variant's flags), appended to each site's file
 * as "#h=HASH" so the runtime uses this build's facts only (NULL or not 16
 * hex digits: no suffix).  db_path: the database the sites name.  Returns
 * the number of sites and the new text in *out (malloc'd, NUL-terminated,
 * *out_len bytes; NULL when there are no sites), or -1 on allocation
 * failure. */
int instrument_source(const ir_tu *tu, const char *path, const char *build, const char *src,
                      size_t len, const char *db_path, instrument_mode mode, char **out,
                      size_t *out_len);

/* What instrument_source_ex left alone for the copy's size: nests whose
 * line already had as many blanks from keel's `#line` re-entries as it
 * may (four times its length and 4 KiB: many sites on one line), and the
 * presumed line of the first.  The caller warns once. */
typedef struct {
    int nests;
    int line;
} instrument_skips;

/* instrument_source, telling what it skipped (skips may be NULL). */
int instrument_source_ex(const ir_tu *tu, const char *path, const char *build, const char *src,
                         size_t len, const char *db_path, instrument_mode mode, char **out,
                         size_t *out_len, instrument_skips *skips);

#endif
