/*
 * db_json.h -- keel's one JSON helper.  Every JSON text keel writes or
 * reads goes through SQLite's JSON functions (json_quote,
 * json_group_array, json_group_object, json_each, json_extract) on a
 * private in-memory connection, so no escaping or parsing rule is written
 * by hand and every document written is valid JSON by construction:
 *
 *   - the document writer of every `keel ... --json` (db_json_new ...),
 *   - JSON arrays of strings as keelcc stores them (pragmas, calls, the
 *     compile arguments: db_json_array_of) and their items joined for the
 *     text forms (db_json_list_text),
 *   - the readers of two foreign formats: a compile database
 *     (compile_commands.json, keel scan) and llvm-mca's --json report
 *     (keelcc's llvm-mca stage).
 *
 * Text that is not UTF-8.  JSON is UTF-8 (RFC 8259) while a stored path or
 * statement holds whatever bytes the file system or the source had.  The
 * writer replaces each byte that is not part of a well-formed UTF-8
 * sequence (a stray continuation byte, a truncated or overlong sequence, a
 * surrogate, a code point above U+10FFFF, bytes C0, C1, F5..FF) with
 * U+FFFD, the Unicode replacement character, in keys, strings and stored
 * lists alike; well-formed text is written unchanged.  db_json_utf8 is
 * that rule on its own.
 *
 * None of this touches a keel database; the connections are private to
 * this module.  Errors are values: the writer keeps its first failure and
 * hands it out with the document; the readers return -1 with a one-line
 * message.
 */
#ifndef KEEL_DB_JSON_H
#define KEEL_DB_JSON_H

#include <stddef.h>

/* ---- the document writer ------------------------------------------------- */

/* A JSON document under construction.  Members are added to the innermost
 * open object (with a key) or array (key ignored, pass NULL); the first
 * failure sticks and db_json_doc reports it.  Owned by the caller: free
 * with db_json_free; every string passed in is copied. */
typedef struct db_json db_json;

db_json *db_json_new(void);                      /* NULL: out of memory */
void db_json_free(db_json *j);                   /* NULL is fine */
void db_json_object(db_json *j, const char *key);  /* open an object */
void db_json_array(db_json *j, const char *key);   /* open an array */
void db_json_end(db_json *j);                      /* close the innermost */
void db_json_str(db_json *j, const char *key, const char *s);   /* NULL: null */
void db_json_int(db_json *j, const char *key, long long v);
void db_json_num(db_json *j, const char *key, double v);        /* NaN, inf: null */
void db_json_bool(db_json *j, const char *key, int v);
void db_json_null(db_json *j, const char *key);
/* Stored JSON text of a list (pragmas, calls, parallel): its array as an
 * array; NULL as null; any other text as a one-item array of that text. */
void db_json_list(db_json *j, const char *key, const char *text);
/* A comma-separated list ("matmul,reduction") as an array of strings (a
 * JSON array is taken as db_json_list takes it); NULL as null. */
void db_json_csv(db_json *j, const char *key, const char *text);
/* The finished document (owned by j, valid until db_json_free), or NULL
 * with *why set to the first failure ("JSON: ..."; "JSON: unfinished
 * document" when an object or array is still open). */
const char *db_json_doc(db_json *j, const char **why);

/* ---- lists of strings ------------------------------------------------------ */

/* items[0..n-1] as a JSON array of strings, e.g. ["-O2","-c"]: a new
 * string (caller frees), NULL when out of memory.  Bytes are kept as they
 * are (the text is stored, not printed: see db_json_utf8). */
char *db_json_array_of(int n, char *const *items);
/* A stored JSON list's items joined by sep, "-" for NULL or an empty
 * list, the text itself when it is not a JSON array.  A new string
 * (caller frees), NULL when out of memory. */
char *db_json_list_text(const char *text, const char *sep);
/* Close the one connection the two list functions above share for the
 * process (it opens on their first use and is never closed otherwise); a
 * later call opens it again.  The allocation-failure tests close it so
 * that every block a run allocated is free again. */
void db_json_lists_close(void);

/* s with every byte outside a well-formed UTF-8 sequence replaced by
 * U+FFFD (EF BF BD): NULL when s is valid UTF-8 already (use s), else a
 * new string (caller frees).  *oom is set when the copy failed. */
char *db_json_utf8(const char *s, int *oom);

/* ---- reading a compile database -------------------------------------------- */

/* One entry of compile_commands.json.  directory, file and command are
 * NULL when absent (or not text); has_args: `arguments` is an array, its
 * items in args[0..nargs-1] (an item that is JSON null is NULL; a number
 * is its text).  Valid only during the callback. */
typedef struct {
    int index;                  /* position in the array, 0 first */
    const char *directory, *file, *command;
    int has_args, nargs;
    const char *const *args;
} db_json_compdb_entry;
/* 0 to go on, anything else stops the walk and is returned. */
typedef int (*db_json_compdb_fn)(void *ctx, const db_json_compdb_entry *e);
/* Call fn for each entry of the compile database text (read from path,
 * for messages) in order.  0 after the last, fn's non-zero value, or -1
 * with "PATH: not a compile database (want a JSON array)" or "PATH:
 * <SQLite's message>". */
int db_json_compdb_each(const char *text, const char *path, db_json_compdb_fn fn, void *ctx,
                        char *err, size_t errlen);

/* ---- reading llvm-mca's --json report -------------------------------------- */

/* The figures of one code region (analysis/mca.h's mca_figures, field for
 * field). */
typedef struct {
    double cycles_per_iter;      /* TotalCycles / Iterations */
    double block_rthroughput;    /* BlockRThroughput */
    double ipc;                  /* IPC */
    double uops_per_iter;        /* TotaluOps / Iterations */
    char resource[64];           /* the resource with the highest pressure, "" if none */
    double resource_cycles;      /* its ResourceUsage summed over the block */
} db_json_mca;
/* Code region `region` (0: the first) of llvm-mca's --json output: 0, or
 * -1 with a message when the text is not such output. */
int db_json_mca_region(const char *json, int region, db_json_mca *out, char *err,
                       size_t errlen);
/* Regions 0..nregions-1 at once into out[] (the output is split into its
 * regions once, so each is parsed once): 0, or -1 with the first failure. */
int db_json_mca_regions(const char *json, int nregions, db_json_mca *out, char *err,
                        size_t errlen);

#endif
