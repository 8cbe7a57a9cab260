#!/bin/sh
# agree.sh BIN AGREE SRC [FASTPATH [EXPRPACK]] -- build every polybench input with keelcc (MINI
# dataset, no llvm-mca stage: the compared facts do not depend on it) and
# check with AGREE (agree.c) that `keel show` and `keel explain` agree on
# every nest: parallel verdict, mapping, strides, counts.
set -eu
BIN=$1
AGREE=$2
SRC=$3
FASTPATH=${4:-}
EXPRPACK=${5:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-agree-XXXXXX")
trap 'rm -rf "$work"' EXIT
KEEL_MCA=off make -s -C "$SRC/polybench-inputs" DATASET=MINI O="$work/bin" CC="$BIN/keelcc" \
    KEEL_DB="$work/k.db" >/dev/null
# every nest of the 43 programs and polybench.c: 153 (polybench.c is two
# builds, with and without -fopenmp, schema 9: one nest each; a different
# count means a file or a nest was lost, or the inputs changed: update it)
"$AGREE" "$work/k.db" 153
# every expression text the polybench inputs stored (trip counts, bounds,
# extents, strides, overlap offsets): decode(encode(parse(t))) prints as
# parse(t), one by one (the form stored models carry) and through one pool
if [ -n "$EXPRPACK" ]; then
    sqlite3 "$work/k.db" "SELECT text FROM expressions
        UNION SELECT stride FROM access_loop_strides WHERE stride IS NOT NULL
        UNION SELECT offset FROM launch_overlap WHERE offset IS NOT NULL" >"$work/texts"
    "$EXPRPACK" "$work/texts" 150
fi
# the per-call binding gives the plain evaluation's launches, bit for bit,
# over 200 random bindings of every nest's sizes on two hosts (fastpath.c)
if [ -n "$FASTPATH" ]; then
    # (every nest read as keelcc stored its model, built from the IR: no
    # expression text parsed at run time, and member by member the model
    # the rows give)
    "$FASTPATH" "$work/k.db" 153 200 >"$work/fp.out" || { cat "$work/fp.out"; exit 1; }
    cat "$work/fp.out"
    grep -q '153 stored models, 0 parsing text' "$work/fp.out" ||
        { echo "FAIL: the database route did not load every nest packed"; exit 1; }
    # merged into a database with loops of its own (ids move): every
    # model keel merge wrote again is still loaded as stored and equals,
    # member by member, the model the moved rows give (one more nest: o.c's)
    printf 'void ax(int n, double *x, const double *y)\n{\n    for (int i = 0; i < n; i++)\n        x[i] = 2 * y[i] + x[i];\n}\n' >"$work/o.c"
    KEEL_MCA=off "$BIN/keelcc" --keel-db="$work/m.db" -c "$work/o.c" -o "$work/o.o"
    "$BIN/keel" merge "$work/m.db" "$work/k.db" >/dev/null
    "$FASTPATH" "$work/m.db" 154 20 >"$work/fp.out" || { cat "$work/fp.out"; exit 1; }
    cat "$work/fp.out"
    grep -q '154 stored models, 0 parsing text' "$work/fp.out" ||
        { echo "FAIL: a merged database's models were not loaded as stored"; exit 1; }
    # again with llvm-mca figures for two target CPUs on the innermost
    # loops (some loops only one), so that the hosts pick different ones;
    # rows edited by hand: the stored models go, and the database route
    # reads the rows (as for a database an older keelcc wrote)
    cp "$work/k.db" "$work/mca.db"
    sqlite3 "$work/mca.db" <"$SRC/testsuite/runtime/mca-rows.sql"
    "$FASTPATH" "$work/mca.db" 153 100 >"$work/fp.out" || { cat "$work/fp.out"; exit 1; }
    cat "$work/fp.out"
    grep -q ' 0 stored models, [1-9][0-9]* parsing text' "$work/fp.out" ||
        { echo "FAIL: the rows route was not taken"; exit 1; }
    # and the model check can fail: rows that no longer say what the
    # stored model says (a thread loop of gemm flipped, the model kept)
    cp "$work/k.db" "$work/flip.db"
    sqlite3 "$work/flip.db" "UPDATE launch_loops SET thread = 1 - thread
        WHERE launch_id = (SELECT id FROM loops WHERE file LIKE '%/blas/gemm/gemm.c' AND line = 42)
          AND loop_id = (SELECT id FROM loops WHERE file LIKE '%/blas/gemm/gemm.c' AND line = 43)"
    if "$FASTPATH" "$work/flip.db" 153 1 >"$work/fp.out"; then
        echo "FAIL: a model unlike its rows was not noticed"; exit 1
    fi
    grep -q "gemm.c:42: stored model: a loop's mapping" "$work/fp.out" ||
        { echo "FAIL: no model mismatch reported:"; cat "$work/fp.out"; exit 1; }
fi
# and the check can fail: one thread loop of gemm's nest at line 42 flipped
cp "$work/k.db" "$work/bad.db"
sqlite3 "$work/bad.db" "DELETE FROM nest_packs; UPDATE launch_loops SET thread = 1 - thread
    WHERE launch_id = (SELECT id FROM loops WHERE file LIKE '%/blas/gemm/gemm.c' AND line = 42)
      AND loop_id = (SELECT id FROM loops WHERE file LIKE '%/blas/gemm/gemm.c' AND line = 43)"
if "$AGREE" "$work/bad.db" 153 >"$work/bad.out"; then
    echo "FAIL: a flipped thread loop was not noticed"; exit 1
fi
grep -q 'MISMATCH .*gemm.c:42 thread loop (line 43)' "$work/bad.out" ||
    { echo "FAIL: no thread-loop mismatch reported:"; cat "$work/bad.out"; exit 1; }
echo "agree: a flipped thread loop is reported"
