/*
 * walk_int.h -- what the files of the walker module share (private).
 *
 * The walker (walker.h: walk_file) is the only code in keel that sees a
 * CXCursor; it is built from these files, each one phase of the walk:
 *   walker.c       walk_file: parse (twice with -fopenmp), walk, presumed lines
 *   walk_source.c  libclang helpers, source buffers and their #pragma lines
 *   walk_expr.c    expressions -> kx_expr, declared extents
 *   walk_bind.c    values of locals known at a point (bindings)
 *   walk_memory.c  loop bounds held in memory, telescoping and derived pointers
 *   walk_access.c  accesses, scalars and operation counts of a statement,
 *                  and where each value read goes (ir_flow)
 *   walk_loop.c    loops and their headers, statements, function definitions
 *   walk_omp.c     OpenMP sources: directives blanked, device regions
 * Names shared between them carry the wk_ prefix; the walker struct is the
 * scratch state of one walk.
 */
#ifndef KEEL_PLUGIN_WALK_INT_H
#define KEEL_PLUGIN_WALK_INT_H

#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700   /* realpath */
#endif
#include "walker.h"

#include <clang-c/Index.h>
#include "omp_pragmas.h"
#include "sync.h"
#include "util.h"
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CHILDREN 16
#define MAX_DIMS 8

enum { MODE_READ = 1, MODE_WRITE = 2, MODE_RW = 3 };

/* A #pragma line of a source file. */
typedef struct {
    int line;        /* line of the #pragma */
    int last_line;   /* last line, after backslash continuations */
    char *text;      /* "omp parallel for", whitespace collapsed */
} pragma_line;

/* A source file seen by the walker: its buffer and its pragmas. */
typedef struct {
    CXFile file;
    const char *buf;
    size_t len;
    int npragmas;
    pragma_line *pragmas;
    /* Indexes that keep a big file linear: where each line starts, and
     * after pragma i whether a `scop` region is open (and its line). */
    int nlines;
    size_t *line_off;
    int *scop_line;   /* per pragma: line of the open scop, 0 when none */
} source_file;

/* What the instrumentation must know about a variable an expression names. */
typedef struct {
    char *name;
    int integer;         /* integer, character, bool or enum type */
    int always_visible;  /* a parameter or a file-scope variable */
    CXFile file;         /* where a local is declared, and at which offset */
    int offset;
    int addr;            /* IR_BASE_POINTER, IR_BASE_ARRAY (an array object), else 0 */
} sym_info;

typedef struct {
    CXTranslationUnit tu;
    ir_tu *ir;
    int func;            /* current function */
    int loop;            /* innermost enclosing loop, -1 outside loops */
    int conditional;     /* > 0 under if/switch/?: inside the current loop */
    int switch_depth;    /* switches inside the current loop (break is theirs) */
    ir_stmt *stmt;       /* statement being scanned, NULL outside */
    int nfiles;
    source_file *files;
    int nsyms;           /* variables seen in expressions: the last reference */
    sym_info *syms;
    int *sym_index;      /* open-addressed hash of syms by name: index + 1, 0 empty */
    int sym_slots;       /* its size, a power of two, 0 before the first symbol */
    int nreads;          /* memory reads a loop bound names (mem_read) */
    struct mem_read *reads;
    int ncond_loops;     /* loops that start under an if/?:/switch of their parent */
    int *cond_loops;
    int bound_loop;      /* >= 0: converting a bound of this loop (for_header) */
    int bound_entry;     /* ... one its entry test is sure to evaluate */
    int oom;
    int nbind;           /* values of locals known at this point (see bindings) */
    struct binding *bind;
    int stmt_offset;     /* start of the statement being scanned */
    CXCursor prev_stmt;  /* the statement before the current one in its block */
    int scan_depth, expr_depth;   /* recursion of scan() and to_expr() */
    /* The flow of values within the statement being scanned (ir.h,
     * ir_flow; walk_access.c): where the value of the node being scanned
     * goes and through which operations; the template of the read of a
     * read-modify-write (`x += e`, `x++`: its operation) that the next
     * such reference takes (rw_set); a comparison that counts as part of
     * its conditional's select (not again on its own). */
    ir_flow flow;
    ir_flow rw;
    int rw_set;
    CXCursor flow_free;
    /* OpenMP: files parsed from a copy with executable directives blanked
     * (their original text, for pragmas and statement texts) and the
     * outermost directives of the first (-fopenmp) parse. */
    CXCursor func_cursor; /* the function being walked */
    int npatched;
    struct patched_file *patched;
    int nregions;
    struct omp_region *regions;
} walker;

/* A source file whose executable OpenMP directives were blanked for the
 * parse the walker walks; orig is the text as written. */
struct patched_file {
    char *name;          /* as libclang names it */
    char *orig, *patched;
    size_t len;
};

/* An outermost OpenMP directive of the -fopenmp parse (the AST shows no
 * directive below it: its statement is an opaque CapturedStmt). */
struct omp_region {
    char *file;          /* resolved path */
    int target;          /* opens a device region: target, target data, target ... */
    int line, col;       /* wk_expansion location of the directive */
    int line_offset;     /* offset of the start of that line */
    int end_offset;      /* one past its statement, -1 unknown */
    char *macro_text;    /* directive text when it comes from a _Pragma in a macro */
};

/* The first MAX_CHILDREN wk_children of a cursor (n) and how many it has in
 * all (total).  Code that needs every child of a node that may have more
 * (a block, a function's parameters and body) visits them instead. */
typedef struct {
    int n, total;
    CXCursor c[MAX_CHILDREN];
} child_list;

typedef struct binding {
    CXCursor decl;
    int loop;            /* loop whose body made it, -1 at function level */
    int is_ptr;
    kx_expr *value;      /* integer: its value */
    char *base;          /* pointer: p[e] is base[prefix...][off + e] */
    int nprefix;
    kx_expr *prefix[MAX_DIMS];
    kx_expr *off;
    int next;            /* declared extents of base */
    kx_expr *ext[MAX_DIMS];
    int inc_offset;      /* derived induction variable: its step statement, else -1 */
    kx_expr *after;      /* and its value after that statement */
} binding;

typedef struct {
    int n;
    CXCursor d[16];
} ref_list;

typedef struct {
    CXCursor decl;
    int found;
} addr_find;

typedef struct {
    CXCursor decl;
    int n;
} write_count;

typedef struct mem_read {
    char *name;          /* C text, as the call evaluates it */
    char *field;         /* the last member's name, NULL for an element */
    CXType type;         /* the read's type (canonical); kind Invalid: unknown */
    CXCursor root;       /* the variable the read starts from */
    int through_ptr;     /* dereferences a pointer */
    int loop, entry;     /* the loop whose bound reads it; in its entry test */
    int always_visible;  /* root is a parameter or a file-scope variable */
    CXFile file;         /* else where root is declared */
    int offset;
    int nidx;            /* variables of its subscripts (`m3[lt]`) */
    struct mem_index {
        CXCursor decl;
        int always_visible;
        CXFile file;
        int offset;
    } idx[4];
} mem_read;

typedef struct {
    walker *w;
    CXTranslationUnit tu;
} incl_ctx;

/* Set when a text copy failed (wk_file_name, wk_cursor_spelling): walk_file
 * then fails as out of memory, whatever the caller did with the NULL it got. */
extern _Thread_local int wk_spelling_oom;

/* ---- shared functions (each defined in one of the files above) ---- */

void wk_attach_pragmas(walker *w, int loop, CXFile f);
child_list wk_children(CXCursor c);
void wk_collapse_spaces(char *s);
char *wk_cursor_spelling(CXCursor c);
void wk_expansion(CXSourceLocation loc, CXFile *file, int *line, int *col, int *offset);
char *wk_extent_text(walker *w, CXCursor c);
char *wk_file_name(CXFile f);
source_file *wk_get_file(walker *w, CXFile f);
int wk_is_float(CXCursor c);
CXCursor wk_peel(CXCursor c);
int wk_start_offset(CXCursor c);

int wk_base_extents(CXCursor base, kx_expr **ext, int max);
char *wk_base_name_of(walker *w, CXCursor base);
kx_expr *wk_bind_value(const walker *w, CXCursor decl);
int wk_enclosing_ivs(walker *w, char **ivs, int max);
int wk_integer_value(CXCursor c, int64_t *v);
int wk_is_integer_type(CXType t);
kx_expr *wk_named_read(walker *w, CXCursor c);
void wk_note_symbol(walker *w, CXCursor decl);
sym_info *wk_sym_find(const walker *w, const char *name);
CXCursor wk_ref_decl(CXCursor c);
int wk_subscript_chain(CXCursor c, CXCursor *base, CXCursor *index);
kx_expr *wk_to_expr(walker *w, CXCursor c);
kx_expr *wk_unknown_expr(walker *w, CXCursor c);

void wk_bind_clear(binding *b);
void wk_bind_drop(walker *w, CXCursor decl);
void wk_bind_drop_at(walker *w, int i);
void wk_bind_drop_loop(walker *w, int loop);
void wk_bind_enter_loop(walker *w, int loop, CXCursor c);
int wk_bind_find(const walker *w, CXCursor decl);
void wk_bind_put(walker *w, binding *b);
void wk_bind_written(walker *w, CXCursor c);
int wk_bound_access(const binding *b, int n, kx_expr **idx, kx_expr ***out,
                        kx_expr **ext);
enum CXChildVisitResult wk_collect_ref(CXCursor c, CXCursor parent, void *data);
enum CXChildVisitResult wk_collect_vars(CXCursor c, CXCursor parent, void *data);
int wk_comma_parts(CXCursor c, CXCursor *out, int max);
int wk_count_writes(CXCursor root, CXCursor decl);
enum CXChildVisitResult wk_find_addr(CXCursor c, CXCursor parent, void *data);
enum CXChildVisitResult wk_find_jump(CXCursor c, CXCursor parent, void *data);
int wk_in_macro(CXCursor c);
int wk_increment_step(walker *w, CXCursor inc, const char *var, int64_t *step);
kx_expr *wk_init_value(walker *w, CXCursor init, const char *var);
const binding *wk_ptr_binding(walker *w, CXCursor base);
int wk_ptr_value(walker *w, CXCursor e, binding *b);
CXCursor wk_stored_operand(CXCursor c, int address_taken);

void wk_find_derived(walker *w, int loop, CXCursor c, CXCursor init, CXCursor inc,
                         CXCursor body);
const mem_read *wk_passable_read(const walker *w, const char *name, int root, CXFile file,
                                     int cut);
void wk_read_control_check(walker *w, int loop, CXCursor inc, CXCursor body);
void wk_telescope_children(walker *w, int loop);

void wk_record_stmt(walker *w, CXCursor c);

void wk_attach_regions(walker *w, ir_loop *l, int offset);
enum CXChildVisitResult wk_find_directives(CXCursor c, CXCursor parent, void *data);
void wk_free_openmp(walker *w);
void wk_note_inclusion(CXFile f, CXSourceLocation *stack, unsigned n, CXClientData data);
int wk_openmp_args(int nargs, const char *const *args);
int wk_region_order(const void *pa, const void *pb);

int wk_presume_tu(CXTranslationUnit tu, const char *path, ir_tu *ir);

enum CXChildVisitResult wk_visit_top(CXCursor c, CXCursor parent, void *data);

#endif
