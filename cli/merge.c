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
 * SQL text from an input is ever run -- is db/'s (db_merge.c).
 */
#define _XOPEN_SOURCE 700

#include "keel.h"

#include "db.h"
#include "db_merge.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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
