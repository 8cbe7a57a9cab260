/*
 * kc_int.h -- what the files of keelcc share (private).
 *
 * keelcc is built from one file per step of a compile:
 *   keelcc.c       main: the steps in order, the walker loaded on demand,
 *                  analyse and record
 *   kc_args.c      argument handling: response files, the launcher form,
 *                  keel's options and the compiler's arguments sorted
 *   kc_direct.c    build variants and the direct mode (the build cache)
 *   kc_objcache.c  the object cache: an unchanged single-source -c rebuild
 *                  copies the instrumented object its last compile made
 *   kc_mca.c       the llvm-mca step (plugin/mcarun.c does the work)
 *   kc_instr.c     the instrumentation step and the instrumented compile
 *                  through a VFS overlay
 * Names shared between them carry the kc_ prefix.
 */
#ifndef KEEL_PLUGIN_KC_INT_H
#define KEEL_PLUGIN_KC_INT_H

#define _XOPEN_SOURCE 700   /* realpath */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "ccargs.h"
#include "db.h"
#include "db_direct.h"
#include "instrument.h"
#include "ir.h"
#include "mcarun.h"
#include "store.h"
#include "util.h"
#include "walker.h"

/* The object cache's part of a compile that may store an entry
 * (kc_objcache.c): the dependency file it adds, the compiler's messages. */
typedef struct {
    int want;                 /* -MD -MF depfile added: store after the compile */
    int clean;                /* the compile was the one an entry may hold */
    char depfile[KU_TMP_PATH];
    ku_buf err;               /* the compiler's messages, as printed */
} kc_objstore;

typedef struct {
    const char *db_path;
    const char *compiler;
    int analysis;          /* 0: behave as the plain compiler */
    int dump_ir;
    int quiet;
    int ncc;               /* arguments for the real compiler */
    char **cc;
    int nxcc;              /* the same with response files' contents in */
    char **xcc;            /* place of each @file (the llvm-mca stage's) */
    int nsources;
    char **sources;
    int nclang;            /* arguments for libclang */
    char **clang;
    int compiles;          /* the command compiles (not -E, -M, -MM, ...) */
    int links;             /* ... and links (no -c, -S) */
    int c_or_s;            /* 'c' or 'S' when the command stops there, else 0 */
    int cpp_output;        /* a source the driver takes as preprocessed (a .i, -x
                            * cpp-output): its compile gets the overlay through
                            * -Xclang (the driver drops -ivfsoverlay for it) */
    const char *output;    /* -o value */
    const char *dep_file;  /* -MF value */
    int dep;               /* -MD or -MMD given */
    instrument_mode instrument;
    int mca;               /* run the llvm-mca stage */
    const char *mcpu;      /* --keel-mcpu list, NULL: the host CPU */
    const char *llvm_mca;  /* the llvm-mca program */
    int direct;            /* direct mode: reuse a stored build of the same inputs */
    int objcache;          /* the object cache (KEEL_OBJCACHE, --keel-objcache) */
    kc_objstore *oc;       /* ... this compile's store, NULL: none */
    struct timespec start; /* when keelcc started (direct mode's "too new" rule) */
    int oom;               /* an argument list could not grow */
    int nnotc;             /* inputs not analysed as not C: name, reason, ... */
    char **notc;
    const char *plain_why; /* instrument off: why (stored as each loop's site_why) */
    int nown;              /* the sources this command compiled and recorded, as */
    char own[64][24];      /* build hashes, or "#TU_ID" for a direct-mode hit: its
                            * link packs their sites (the first 64) */
} options;

/* Analyse each source into IR (done while the compiler runs). */
typedef struct {
    char *path;      /* absolute */
    ir_tu *ir;       /* NULL when the analysis failed */
    char err[512];
    mcr_result *mca; /* llvm-mca figures, NULL when the stage did not run */
    store_analysis *an; /* the analyses' results, NULL when they failed */
    char variant[17], hash[17];   /* build_hashes */
    /* direct mode (see direct_lookup) */
    char dkey[33];   /* the build's key, "" when it cannot be cached */
    char search[34]; /* the command's header search list, hashed, and a newline */
    int hit;         /* the database holds this build: nothing above was computed */
    int64_t hit_tu;  /* ... its translation_units row */
    int learn;       /* ... proven by a preprocessor run: add search to the entry */
    int pp;          /* the preprocessor's file list: 0 not made, 1 made, -1 failed */
    ku_buf pp_files; /* ... real paths of the files it entered, in order */
    char pp_variant[17];   /* ... and the variant they give (build_hashes) */
    ku_buf inputs;   /* files the parse read (cache.h's list) */
    int inputs_bad;  /* ... one of them could not be listed */
    char *itext;     /* the instrumented text (made or stored), NULL: none */
    size_t ilen;
    int ihave;       /* 1 itext, 0 nothing to instrument, -1 instrumenting failed */
    int no_sites;    /* the instrumentation read the source and found no nest
                      * the runtime could launch: the llvm-mca stage skips it */
    ku_buf warns;    /* keel's warnings about this source, one per line */
} analysed;

typedef struct {
    char temp[PATH_MAX];      /* instrumented copy, "" when the source is not */
} instrumented;

/* A compile of instrumented copies, running. */
typedef struct {
    pid_t pid;
    int fd;                   /* its stderr, captured */
    char errpath[KU_TMP_PATH];
    char **argv;
} instrumented_job;

/* The llvm-mca step's configuration (targets, errors) and its warnings,
 * held back until the compile's result is known (kc_mca.c). */
extern mcr_config kc_mca_cfg;
extern ku_buf kc_mca_deferred;

/* ---- shared functions (each defined in one of the files above) ---- */

int kc_has_suffix(const char *s, const char *suffix);
int kc_joined_prefix(const char *const *list, const char *s);
int kc_launcher_form(int argc, char **argv);
int kc_parse_args(int argc, char **argv, options *o);
void kc_push(options *o, int *n, char ***arr, const char *s);
void kc_warn(const char *fmt, ...) KU_PRINTF(1, 2);

void kc_mca_flush(int status);
void kc_mca_stage(const options *o, analysed *res);
void kc_mca_early(const options *o, analysed *res);
int kc_mca_configured(void);
void kc_mca_prepare(options *o, const options *user);
void kc_mca_after(const options *o, analysed *res, int status);

void kc_absolute_db(const char *db_path, char *out, size_t n);
int kc_direct_cacheable(const options *o, const analysed *r);
void kc_direct_lookup(const options *o, analysed *res);
uint64_t kc_fnv_flags(uint64_t h, const options *o, unsigned long long hh);
void kc_walker_path(char *out, size_t n);

void kc_build_hashes(const options *o, const char *path, const ir_tu *ir, char variant[17],
                         char build[17]);
void kc_object_of(const options *o, int i, char *out, size_t n);

/* The object cache (kc_objcache.c).  hit: a direct-mode hit whose object
 * is cached gets it copied (1; the compiler's messages printed), else 0.
 * prepare: a compile whose object may be stored gets -MD -MF added (1);
 * store after the compile succeeded (then end, also called by store). */
int kc_objcache_hit(const options *o, analysed *r);
int kc_objcache_prepare(options *o, const analysed *r, kc_objstore *s);
void kc_objcache_store(const options *o, const analysed *r, kc_objstore *s);
void kc_objcache_end(kc_objstore *s);
/* A command that compiles and links, every source a direct-mode hit: each
 * object copied from the cache or compiled alone (and stored), then the
 * link (nuser: o->cc's user arguments).  1 with *status when it did, 0
 * when the command is to run as it would without the cache. */
int kc_objcache_link(options *o, analysed *res, int nuser, int *status);

void kc_add_runtime_link(options *o, const char *lib);
/* A command that compiles and links: the link waits for keelcc to record
 * the compiled sources, then takes a link object with their facts
 * (kc_instr.c).  arm before starting the compile (1: armed), started after
 * it started, request blocks until the linker asks (1) or the compile
 * ended without linking (0), answer makes the object and hands it over,
 * end closes all.  kc_link_wrapper is keelcc run as that linker. */
typedef struct {
    int armed, req[2], ack[2];
    char obj[KU_TMP_PATH];
} kc_link_wait;
int kc_link_wait_arm(options *o, kc_link_wait *w);
void kc_link_wait_started(options *o, kc_link_wait *w);
int kc_link_wait_request(kc_link_wait *w);
void kc_link_wait_answer(const options *o, kc_link_wait *w);
void kc_link_wait_end(kc_link_wait *w);
int kc_link_wrapper(int argc, char **argv);
/* keep: when not NULL, also gets the messages (printed when print is set) */
int kc_finish_instrumented(instrumented_job *j, char *first_error, size_t errlen,
                               const ku_buf *quotes, ku_buf *keep, int print);
int kc_make_copies(const options *o, analysed *res, instrumented *ins, char *overlay,
                       size_t overlay_len, ku_buf *quotes);
void kc_runtime_paths(char *header, char *lib, size_t n);
pid_t kc_start_compiler(char **argv, int stderr_fd, int report);
int kc_start_instrumented(const options *o, const char *overlay, instrumented_job *j);
int kc_wait_compiler(pid_t pid);

#endif
