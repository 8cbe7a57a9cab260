/*
 * instrument.h -- insert libkeelrt decision calls into a C source.
 *
 * report:  before every outermost loop nest of the main file, a call
 *          keel_decide(&site, values) with the runtime values of the
 *          symbols the nest's models need; the program runs the same code.
 * offload: in addition, every `omp target` pragma attached to a loop gets
 *          `if(target: keel_decide(&site, values))`, so the verdict chooses
 *          where the region runs (its host copy otherwise); such a loop gets
 *          no separate report call.
 *
 * The result is the original text with insertions only.  `#line` directives
 * keep every original line at its number and the file at its name, so
 * diagnostics, __LINE__, __FILE__ and debug information are unchanged.
 */
#ifndef KEEL_PLUGIN_INSTRUMENT_H
#define KEEL_PLUGIN_INSTRUMENT_H

#include <stddef.h>

#include "ir.h"

typedef enum { INSTRUMENT_OFF, INSTRUMENT_REPORT, INSTRUMENT_OFFLOAD } instrument_mode;

/* Instrument the source text src (len bytes) of the file `path` (the
 * resolved path the IR's loops name), whose IR is tu.  name: the file as the
 * compile command names it, for the #line directives, so __FILE__ and debug
 * information are what the plain compile gives.  header: the path of
 * keelrt.h to #include; db_path: the database the sites name.  Returns the
 * number of sites and the new text in *out (malloc'd, NUL-terminated; NULL
 * when there are no sites), or -1 on allocation failure. */
int instrument_source(const ir_tu *tu, const char *path, const char *name, const char *src,
                      size_t len, const char *header, const char *db_path,
                      instrument_mode mode, char **out);

#endif
