/*
 * nest_build.h -- keelcc's loop IR (ir.h) and launch facts (launch.h) to
 * the model of one launch nest (nest.h), the types the runtime evaluates.
 *
 * nest_build lays out the nest launched at IR loop `root` as the model
 * wants it: loops in preorder with each loop's children by line, column
 * and IR order, statements by line, column and IR order, accesses in IR
 * order; every expression a copy in canonical form; the launch facts
 * (parallel verdicts, GPU roles, strides along the nest's loops with a
 * variable, statement costs, the overlap condition) put in place, and
 * nest_derive run last.  What the IR does not hold the caller passes in:
 * the database ids (per IR loop, statement and access, in IR order), each
 * loop's recurrence fact text, and, after nest_build, llvm-mca's figures
 * (nest_add_mca, before nest_encode).  A stride or offset text that does
 * not parse leaves the nest without a model (1), as the runtime's reader
 * of its rows refuses it.
 *
 * Ownership: *out is the caller's to nest_free, also after a failure.
 */
#ifndef KEEL_NEST_BUILD_H
#define KEEL_NEST_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "ir.h"
#include "launch.h"
#include "nest.h"

typedef struct {
    const ir_tu *tu;
    const launch_result *lr;
    const int64_t *loop_ids;          /* per IR loop */
    const int64_t *stmt_ids;          /* per statement, IR order (loop, statement) */
    const int64_t *acc_ids;           /* per access, IR order (loop, statement, access) */
    const char *const *recurrence;    /* per IR loop, NULL entries: none; NULL: none at all */
} nest_build_in;

/* 0 with *out; 1 with a message when a launch fact's text does not parse;
 * -1 with a message (out of memory). */
int nest_build(const nest_build_in *in, int root, nest_model *out, char *err, size_t errlen);

#endif
