/*
 * mcaobj.h -- the llvm-mca stage's input from the user's own object: an
 * x86-64 ELF relocatable built with debug line tables, turned into the
 * assembly text analysis/mca.c reads (what `clang -S -gline-tables-only`
 * writes: `.file` and `.loc` directives, `.LBB` block labels, and the
 * verbose loop comments `=>This Inner Loop Header: Depth=N`, `in Loop:
 * Header=... Depth=N`, `Parent Loop ... Depth=N`).
 *
 * Inputs: the object's bytes (its DWARF .debug_line, relocated here) and
 * `llvm-objdump -d -r --no-show-raw-insn` of it.  Blocks start at branch
 * targets and after branches; loops are the natural loops of each
 * function's control-flow graph (a back edge to a block that dominates
 * its source, the loops of one header merged), as LLVM's MachineLoopInfo
 * finds them for the verbose comments.  Padding (`nop`) is left out:
 * clang's assembly has `.p2align` there.  Branches inside a function name
 * their block's label, calls and tail calls the relocation's symbol.
 *
 * Anything this cannot read exactly -- another machine or ELF class, a
 * DWARF version other than 4 or 5, compressed sections, more than one
 * line-table unit, an indirect jump (a jump table: edges it cannot see),
 * a branch into another function's middle -- is -1 with the reason, and the
 * caller compiles to assembly as it does without an object.
 *
 * Pure: no processes.  Ownership: *out is malloc'd, the caller frees it.
 */
#ifndef KEEL_PLUGIN_MCAOBJ_H
#define KEEL_PLUGIN_MCAOBJ_H

#include <stddef.h>

/* The assembly text of object `obj` (len bytes) whose disassembly is
 * `objdump` (that one object's).  0 and *out, or -1 and a message. */
int mco_asm_from_object(const unsigned char *obj, size_t len, const char *objdump, char **out,
                        char *err, size_t errlen);

#endif
