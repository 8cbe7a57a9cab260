#!/bin/bash
# build-classes.sh BIN SRC -- build classes compiled one after another into
# one object name, each linked in between (NPB's flow: a generated header
# sets the size, cg.o is rewritten, bin/cg.S then bin/cg.W): every program
# keeps its own facts, so each decides from its own build (no "stale
# database" verdict, same decision as when it was the only build).
# Prints "FAIL: ..." per failed check; exit status 1 when any failed.
set -u
BIN=$(cd "$1" && pwd)
KEELCC=$BIN/keelcc
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC KEEL_LOG
export KEEL_MCA=off
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-classes-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"

cat >scale.c <<'C'
#include "size.h"
static double u[LEN], w[LEN];
double scale(double f) {
  double s = 0;
  for (int i = 0; i < LEN; i++)
    w[i] = f * u[i] + w[i];
  for (int i = 0; i < LEN; i++)
    s += w[i];
  return s;
}
C
printf '#include <stdio.h>\ndouble scale(double);\nint main(void) { printf("%%g\\n", scale(2.0)); return 0; }\n' >main.c
"$KEELCC" --keel-db="$work/k.db" -O1 -c main.c -o main.o
for cls in S:2000 W:50000; do
    echo "#define LEN ${cls#*:}" >size.h
    "$KEELCC" --keel-db="$work/k.db" -O1 -c scale.c -o scale.o \
        && "$KEELCC" --keel-db="$work/k.db" main.o scale.o -o "prog.${cls%%:*}" \
        || bad "class ${cls%%:*}: build failed"
done
expect_eq "$(sqlite3 k.db "SELECT count(*) FROM translation_units WHERE path LIKE '%/scale.c'")" 2 \
    "one row per class of scale.c"
for p in S W; do
    out=$(KEEL_DEVICE=h100 KEEL_VERBOSE=2 "./prog.$p" 2>&1 >/dev/null)
    case $out in *stale*) bad "prog.$p: a stale verdict: $out" ;; *) ok ;; esac
    expect_eq "$(printf '%s\n' "$out" | grep -c 'scale.c:5 scale \[')" 1 "prog.$p: its nest decided from its facts"
done

finish
