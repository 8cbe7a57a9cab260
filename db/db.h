/*
 * db.h -- the program attribute database: open, migrate, write, read.
 *
 * One SQLite file holds what keelcc learned about every translation unit it
 * compiled (schema in db/SCHEMA.md).  Writers are keelcc processes, often
 * many at once under `make -j`: the database is in WAL mode with a busy
 * timeout, and each translation unit is written in one IMMEDIATE
 * transaction that first deletes the rows the same source path had before,
 * so recompiling a file replaces its rows and concurrent writers lose
 * nothing.  Readers are the `keel` tool and libkeelrt.
 *
 * db/ knows nothing of the loop IR: the writer takes plain rows whose
 * symbolic expressions are already printed in ipda's text form (expr.h).
 *
 * Errors are values: every function that can fail returns 0 on success or
 * -1 with a one-line message in err (NUL-terminated, at most errlen bytes).
 */
#ifndef KEEL_DB_DB_H
#define KEEL_DB_DB_H

#include <stddef.h>
#include <stdint.h>

#define DB_SCHEMA_VERSION 1   /* PRAGMA user_version of the current schema */

typedef struct db db;

enum {
    DB_READONLY = 0,   /* open an existing database for reading; never creates */
    DB_WRITE    = 1    /* open or create, migrate to the current schema */
};

/* Open the database at path.  Readonly: fails with a one-line message when
 * the file is missing, is not an SQLite database, is not a keel database, or
 * has another schema version.  Write: creates the file and the schema when
 * needed, migrates an older keel schema, refuses a newer one. */
int db_open(const char *path, int mode, db **out, char *err, size_t errlen);
void db_close(db *d);                      /* NULL is fine */
int db_schema_version(db *d);

/* ---- writer -------------------------------------------------------------- */

typedef struct {
    const char *path;       /* absolute path of the main source file */
    const char *hash;       /* content hash of the source (hex) */
    const char *args;       /* compile arguments, JSON array text */
    const char *compiler;   /* the real compiler that was run, e.g. "clang-19" */
    const char *directory;  /* working directory of the compile */
    const char *status;     /* "ok" or "error" (analysis failed; no loops) */
    const char *message;    /* NULL or why the analysis failed */
} db_tu_row;

typedef struct {
    const char *name;
    const char *file;       /* file that holds the definition */
    int line, col;
} db_function_row;

typedef struct {
    int64_t parent_id;      /* id of the enclosing loop, 0 for an outermost loop */
    const char *file;
    int line, col;          /* of the `for` / `while` / `do` keyword */
    int end_line;
    int depth;              /* 0 for an outermost loop */
    const char *kind;       /* "for", "while", "do" */
    int canonical;          /* 1: for loop with recognised iv, bounds, constant step */
    const char *iv;         /* induction variable or NULL */
    const char *lower;      /* expressions (text form) or NULL when unknown */
    const char *upper;      /* exclusive bound in the direction of the step */
    int64_t step;           /* 0 when unknown */
    const char *trip;       /* trip count expression or NULL */
    const char *pragmas;    /* JSON array of pragma texts, e.g. ["omp parallel for"] */
    int n_if, n_break, n_continue, n_goto, n_return;
} db_loop_row;

typedef struct {
    int line, col;
    const char *text;       /* source text of the statement */
    int conditional;        /* 1 when under an if/?: inside the loop */
    /* operation counts per execution of the statement */
    int fadd, fmul, fdiv, ffma, fmath;   /* float add/sub, mul, div, fma candidates, math calls */
    int iadd, imul, idiv, cmp;           /* integer ops (beyond addressing), comparisons */
    const char *calls;      /* JSON array of other called function names, or NULL */
} db_stmt_row;

typedef struct {
    const char *array;      /* name of the array or pointer */
    int elem_size;          /* bytes, 0 when unknown */
    int is_write;
    int ndims;              /* number of subscripts */
    const char *const *index;    /* ndims expressions, outermost first */
    int nextents;           /* declared dimensions (0 for a plain pointer) */
    const char *const *extent;   /* nextents expressions; NULL entry = unknown */
    int affine;             /* every index affine */
    int line, col;
} db_access_row;

typedef struct {
    const char *name;
    int is_write;
    int line, col;
} db_scalar_row;

/* Begin the transaction for one translation unit and replace its old rows. */
int db_begin_tu(db *d, const db_tu_row *tu, int64_t *tu_id, char *err, size_t errlen);
int db_add_function(db *d, int64_t tu_id, const db_function_row *f, int64_t *id,
                    char *err, size_t errlen);
int db_add_loop(db *d, int64_t function_id, const db_loop_row *l, int64_t *id,
                char *err, size_t errlen);
int db_add_stmt(db *d, int64_t loop_id, const db_stmt_row *s, int64_t *id,
                char *err, size_t errlen);
int db_add_access(db *d, int64_t stmt_id, const db_access_row *a, int64_t *id,
                  char *err, size_t errlen);
int db_add_scalar(db *d, int64_t stmt_id, const db_scalar_row *s,
                  char *err, size_t errlen);
/* Commit, or roll back everything since db_begin_tu (the old rows stay). */
int db_commit_tu(db *d, char *err, size_t errlen);
void db_rollback_tu(db *d);

#endif
