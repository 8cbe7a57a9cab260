#!/bin/bash
# reproducible.sh BIN SRC -- objects keelcc writes are reproducible as
# clang-19's are: two identical builds give byte-identical objects, also
# with -frecord-command-line / -grecord-command-line (which put the
# compiler's arguments into the object: no temporary file's name may be
# among them).  When the descriptor keelcc hands the overlay through is
# already taken, keelcc names the file instead, and still instruments.
# Prints "FAIL: ..." per failed check; exit status 1 when any failed.
set -u
BIN=$(cd "$1" && pwd)
KEELCC=$BIN/keelcc
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC KEEL_LOG
export KEEL_MCA=off
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-repro-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect_eq() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', want '$2'"; }

cat >axpy.c <<'C'
void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
C
# build NAME ARGS...: two keelcc builds of axpy.c; their objects must match
build() {
    local name=$1; shift
    "$KEELCC" --keel-db="$work/k.db" "$@" -c axpy.c -o axpy.o && cp axpy.o one.o
    "$KEELCC" --keel-db="$work/k.db" "$@" -c axpy.c -o axpy.o && cp axpy.o two.o
    cmp -s one.o two.o && ok || bad "$name: two builds differ"
    nm one.o | grep -q ' U keel_decide' && ok || bad "$name: not instrumented"
}
build "-frecord-command-line" -O1 -frecord-command-line
rec=$(readelf -p .GCC.command.line one.o | grep -o 'clang.*')
case $rec in *keel-*) bad "-frecord-command-line: a temporary file recorded: $rec" ;; *) ok ;; esac
expect_eq "$(printf '%s' "$rec" | grep -c -- '-O1 -frecord-command-line -c axpy.c -o axpy.o')" 1 \
    "-frecord-command-line: the user's arguments recorded"
build "-g -grecord-command-line" -O1 -g -grecord-command-line
"$KEELCC" --keel-db="$work/k.db" -O1 -frecord-command-line -c axpy.c -o one.o 987</dev/null
nm one.o | grep -q ' U keel_decide' && ok || bad "descriptor taken: not instrumented"
case $(readelf -p .GCC.command.line one.o) in *keel-*.yaml*) ok ;; *) bad "descriptor taken: the overlay not named by its file" ;; esac

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
