#!/bin/bash
# reproducible.sh BIN SRC -- objects keelcc writes are reproducible as
# clang-19's are: two identical builds give byte-identical objects, also
# with -frecord-command-line / -grecord-command-line (which put the
# compiler's arguments into the object: no temporary file's name may be
# among them).  When the descriptor keelcc hands the overlay through is
# already taken, keelcc names the file instead, and still instruments.
# Without any prefix map, builds in two folders give byte-identical objects
# (the sites name the source as given and the link's database), plain,
# with -g, with -frecord-command-line, and from a .i; two links of the same
# objects are identical (the database's object comes through a descriptor
# of a fixed number, or, when that is taken, another, still linked); a
# make -j4 of four sources in two folders gives identical objects too.
# Prints "FAIL: ..." per failed check; exit status 1 when any failed.
set -u
BIN=$(cd "$1" && pwd)
KEELCC=$BIN/keelcc
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC KEEL_LOG
export KEEL_MCA=off
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-repro-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"

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

# two folders, no prefix map
for d in f1 folder-two; do
    mkdir -p "$d" && cp axpy.c "$d/"
    (cd "$d" && "$KEELCC" -O1 -c axpy.c -o a.o && "$KEELCC" -O1 -g -c axpy.c -o ag.o \
        && "$KEELCC" -O1 -frecord-command-line -c axpy.c -o ar.o \
        && clang-19 -O1 -E axpy.c -o axpy.i && "$KEELCC" -O1 -c axpy.i -o ai.o) \
        || bad "builds in $d"
done
for o in a.o ar.o ai.o; do
    cmp -s "f1/$o" "folder-two/$o" && ok || bad "$o: differs between folders"
done
# -g: the debug information names the compilation folder, as clang-19's
# does (as often); the rest is identical
(cd f1 && clang-19 -O1 -g -c axpy.c -o cg.o) && (cd folder-two && clang-19 -O1 -g -c axpy.c -o cg.o)
for d in f1 folder-two; do
    objcopy --strip-debug "$d/ag.o" "$d/ags.o" && objcopy --strip-debug "$d/cg.o" "$d/cgs.o"
done
cmp -s f1/ags.o folder-two/ags.o && ok || bad "-g: differs beyond the debug information"
expect_eq "$(strings f1/ag.o | grep -c "$work")" "$(strings f1/cg.o | grep -c "$work")" \
    "-g: the build folder named as often as by clang-19"
nm f1/ai.o | grep -q ' U keel_decide' && ok || bad ".i: not instrumented"
case $(strings f1/a.o f1/ai.o) in *"$work"*) bad "the build folder in an object" ;; *) ok ;; esac
cat >f1/main.c <<'C'
void axpy(int n, double a, const double *x, double *y);
int main(void) { double x[4] = { 1, 2, 3, 4 }, y[4] = { 0 }; axpy(4, 2, x, y); return y[3] != 8; }
C
(cd f1 && "$KEELCC" -O1 main.c a.o -o p1 && "$KEELCC" -O1 main.c a.o -o p2 \
    && "$KEELCC" -O1 main.c a.o -o p3 986</dev/null && ./p3) || bad "links"
cmp -s f1/p1 f1/p2 && ok || bad "two links differ"
expect_eq "$(strings f1/p3 | grep -c "^$work/f1/keel.db\$")" 1 "descriptor taken: the database linked"
for d in f1 folder-two; do
    for n in 1 2 3 4; do sed "s/axpy/axpy$n/" axpy.c >"$d/m$n.c"; done
    printf 'all: m1.o m2.o m3.o m4.o\n%%.o: %%.c\n\t%s -O2 -c $< -o $@\n' "$KEELCC" >"$d/Makefile"
    make -s -j4 -C "$d" >/dev/null 2>&1 || bad "make -j4 in $d"
done
for n in 1 2 3 4; do
    cmp -s "f1/m$n.o" "folder-two/m$n.o" && ok || bad "make -j4: m$n.o differs between folders"
done

finish
