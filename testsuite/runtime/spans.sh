#!/bin/sh
# spans.sh BIN FASTPATH SRC -- the site plan's footprint walk (facts.c,
# bind_spans_plan) gives the plain evaluation's launches bit for bit on
# nests that take each of its routes (spans-nests.c: constant and symbolic
# differences, a gather, an invariant access, a triangle, a time-stepped
# region), over 300 random bindings whose values change at every call, so
# that every bind after a site's first goes through its plan.
set -eu
BIN=$1
FASTPATH=$2
SRC=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-spans-XXXXXX")
trap 'rm -rf "$work"' EXIT
KEEL_MCA=off "$BIN/keelcc" --keel-db="$work/k.db" -O2 -fopenmp -c \
    "$SRC/testsuite/runtime/spans-nests.c" -o "$work/n.o"
"$FASTPATH" "$work/k.db" 6 300 >"$work/fp.out" || { cat "$work/fp.out"; exit 1; }
cat "$work/fp.out"
echo "spans: ok"
