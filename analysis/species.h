/*
 * species.h -- the algorithm class of a loop nest in the notation of the
 * boat-hull paper (section 3.2, Table 1): per array its accessed range and
 * pattern, inputs joined by " ^ ", " -> ", outputs, e.g.
 *
 *   0:ni-1,0:nk-1|chunk(-,0:nk-1) ^ 0:nk-1,0:nj-1|chunk(0:nk-1,-) -> 0:ni-1,0:nj-1|element
 *
 * and the class parameters w, m, d, c, u, f_complexity as ipda expression
 * texts.  Definitions in species.c and testsuite/labels/README.md.
 *
 * Ownership: a species_class owns its strings (species_class_free).
 */
#ifndef KEEL_ANALYSIS_SPECIES_H
#define KEEL_ANALYSIS_SPECIES_H

#include "ir.h"

typedef struct {
    char *text;           /* the class string */
    char *w, *m, *d, *c, *u, *f_complexity;
} species_class;

/* Classify the nest rooted at loop `root` (any loop works; its subtree is
 * the nest).  Returns 0, 1 when the nest has no array access at all (no
 * class; *out zeroed), -1 on allocation failure. */
int species_classify(const ir_tu *tu, int root, species_class *out);
void species_class_free(species_class *c);

#endif
