#!/bin/bash
# static-link.sh BIN SRC -- a -static link through keelcc prints what
# clang-19's prints (libkeelrt and its SQLite bring no linker warning about
# dlopen), and the static program runs its decisions into the database;
# a program that calls dlopen itself keeps the linker's warning about it.
# Prints "FAIL: ..." per failed check; exit status 1 when any failed.
set -u
BIN=$(cd "$1" && pwd)
KEELCC=$BIN/keelcc
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC KEEL_LOG
export KEEL_MCA=off
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-static-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
if ! printf 'int main(void){return 0;}\n' | clang-19 -static -x c - -o probe 2>/dev/null; then
    echo "no static C library: skipped"; exit 0
fi

cat >scale.c <<'C'
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  int n = 300 + argc;
  static float v[400];
  long t = 0;
  for (int i = 0; i < n; i++) v[i] = 3.0f * i;
  for (int i = 0; i < n; i++) t += (long)v[i];
  printf("%ld\n", t);
  return 0;
}
C
clang-19 -O2 -static scale.c -o plain >r.out 2>r.err; rr=$?
"$KEELCC" --keel-db="$work/k.db" -O2 -static scale.c -o kept >k.out 2>k.err; kr=$?
expect_eq "$kr" "$rr" "-static: exit status"
expect_eq "$(cat k.err)" "$(cat r.err)" "-static: linker messages"
expect_eq "$(./kept)" "$(./plain)" "-static: the program's output"
expect_eq "$(./kept)" 135450 "-static: the program's value"
KEEL_DEVICE=h100 ./kept >/dev/null 2>&1
expect_eq "$(sqlite3 k.db 'SELECT count(*) FROM decisions' 2>&1)" 1 "-static: decisions recorded (the parallel nest)"

# the program's own dlopen: the linker's warning stays
cat >own.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
  double w[64];
  for (int i = 0; i < 64; i++) w[i] = i;
  void *h = dlopen("libm.so.6", RTLD_NOW);
  printf("%d %g\n", h != NULL, w[63]);
  return 0;
}
C
clang-19 -O1 -c own.c -o own.o
clang-19 -static own.o -o own_plain >/dev/null 2>r2.err; rr=$?
"$KEELCC" --keel-db="$work/k.db" -O1 -c own.c -o own.o 2>/dev/null
"$KEELCC" --keel-db="$work/k.db" -static own.o -o own_kept >/dev/null 2>k2.err; kr=$?
expect_eq "$kr" "$rr" "-static, own dlopen: exit status"
expect_eq "$(grep -c "warning: Using 'dlopen' in statically linked" k2.err)" 1 \
    "-static, own dlopen: the linker's warning"
expect_eq "$(grep -c 'libsqlite3\|libkeelrt' k2.err)" 0 "-static, own dlopen: nothing about keel's libraries"

finish
