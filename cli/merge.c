/*
 * merge.c -- `keel merge OUT.db IN.db...`: make one database of several,
 * e.g. the per-machine databases of a distributed build (distcc, several
 * build trees, CI shards).
 *
 * The command: its options, the checks that every input is a keel
 * database of this schema (db_open refuses others with its message) and
 * that an input is not OUT itself (skipped), and the report per input, as
 * text or --json.  The merge itself -- the newest analysis of each build
 * wins, decisions, calibrations and measured history are appended, no
 * SQL text from an input is ever run -- is db/'s (db_merge.c).  The
 * stored loop models the inputs bring name their nests' ids inside bytes
 * db/ does not read: model_shift, here, writes each again for the ids the
 * merge gave its rows, so merged databases decide from the models keelcc
 * built, as the inputs did.
 */
#define _XOPEN_SOURCE 700

#include "keel.h"

#include "db.h"
#include "db_merge.h"
#include "nest_pack.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* db_merge_model_fn: the stored model in bytes[0..n) decoded, every id it
 * holds (the launch loop's, each loop's, statement's and access's) moved
 * by the merge's shift, encoded again into *out.  -1 (the model dropped:
 * the nest's rows decide) when it does not decode or memory runs out. */
static int model_shift(void *ctx, const void *bytes, size_t n, const db_merge_shift *sh,
                       void **out, size_t *outn)
{
    (void)ctx;
    nest_head h;
    nest_model md;
    char err[160];
    *out = NULL, *outn = 0;
    if (nest_decode(bytes, n, &h, &md, err, sizeof err) != 0)
        return -1;
    h.root += sh->loops;
    for (int i = 0; i < md.nloops; i++)
        md.loops[i].id += sh->loops;
    for (int i = 0; i < md.nstmts; i++)
        md.stmts[i].id += sh->statements;
    for (int i = 0; i < md.naccs; i++)
        md.accs[i].id += sh->accesses;
    ku_buf b = { 0 };
    nest_encode(&h, &md, &b);
    nest_head_free(&h);
    nest_free(&md);
    if (b.oom || !b.s) {
        ku_buf_free(&b);
        return -1;
    }
    *outn = b.len;
    *out = ku_buf_take(&b);
    return 0;
}

int keel_cmd_merge(int argc, char **argv)
{
    int json = 0;
    const keel_opt opts[] = { KEEL_OPT_FLAG("json", &json), KEEL_OPT_LAST };
    int r = keel_getopts("merge", NULL, opts, argc, argv, -1, &argv, &argc);
    if (r >= 0)
        return r;
    char err[1024], ro[PATH_MAX], ri[PATH_MAX];
    if (argc < 2)
        return keel_say(2, "merge needs OUT.db and at least one IN.db (see keel merge --help)");
    /* Every input must be a readable keel database of this schema. */
    for (int i = 1; i < argc; i++) {
        db *in;
        if (db_open(argv[i], DB_READONLY, &in, err, sizeof err))
            return keel_say(1, "%s", err);
        db_close(in);
    }
    db *d;
    if (db_open(argv[0], DB_WRITE, &d, err, sizeof err))
        return keel_say(1, "%s", err);
    db_merger *m = NULL;
    int rc = 0;
    keel_json *j = NULL;
    if (json && !(j = keel_json_new())) {
        rc = keel_say(1, "out of memory");
        goto done;
    }
    if (j) {
        keel_json_object(j, NULL);
        keel_json_str(j, "output", argv[0]);
        keel_json_array(j, "inputs");
    }
    if (db_merge_begin(d, &m, err, sizeof err)) {
        rc = keel_say(1, "%s: %s", argv[0], err);
        goto done;
    }
    db_merge_set_model_fn(m, model_shift, NULL);
    int have_out = realpath(argv[0], ro) != NULL;
    for (int i = 1; i < argc; i++) {
        if (have_out && realpath(argv[i], ri) && strcmp(ro, ri) == 0) {
            if (j) {
                keel_json_object(j, NULL);
                keel_json_str(j, "path", argv[i]);
                keel_json_bool(j, "is_output", 1);
                const char *k[] = { "sources_taken", "sources_kept_out", "decisions_added",
                                    "history_samples_added" };
                for (int x = 0; x < 4; x++)
                    keel_json_int(j, k[x], 0);
                keel_json_end(j);
            } else
                printf("keel merge: %s is the output, skipped\n", argv[i]);
            continue;
        }
        db_merge_stats st;
        if (db_merge_input(m, argv[i], &st, err, sizeof err)) {
            rc = keel_say(1, "%s", err);
            goto done;
        }
        int taken = st.taken, kept = st.kept;
        long long decs = st.decisions, hist = st.history_samples;
        if (j) {
            keel_json_object(j, NULL);
            keel_json_str(j, "path", argv[i]);
            keel_json_bool(j, "is_output", 0);
            keel_json_int(j, "sources_taken", taken);
            keel_json_int(j, "sources_kept_out", kept);
            keel_json_int(j, "decisions_added", decs);
            keel_json_int(j, "history_samples_added", hist);
            keel_json_end(j);
            continue;
        }
        printf("keel merge: %s: %d sources taken, %d not newer than %s's kept out, %lld decisions"
               " added", argv[i], taken, kept, argv[0], decs);
        if (hist)
            printf(", %lld history samples added", hist);
        printf("\n");
    }
    long long ntu, nl;
    db_merge_totals(m, &ntu, &nl);
    if (j) {
        keel_json_end(j);
        keel_json_int(j, "sources", ntu);
        keel_json_int(j, "loops", nl);
        keel_json_end(j);
        rc = keel_json_print(j, stdout);
    } else
        printf("keel merge: %s now holds %lld sources, %lld loops\n", argv[0], ntu, nl);
done:
    keel_json_free(j);
    db_merge_end(m);
    db_close(d);
    return rc;
}
