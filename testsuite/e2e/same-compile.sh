#!/bin/sh
# same-compile.sh BIN -- keelcc's instrumented compile is indistinguishable
# from the plain clang-19 compile (issue 9 point 8, issue 16 faults 01-04,
# 10-15, 23, 24).  keelcc compiles its instrumented text through a VFS
# overlay on the source's own path, so:
#  - quoted #includes resolve as for the original: a config.h in TMPDIR or in
#    a user -iquote folder never wins over the source's own folder;
#  - __FILE__, __TIMESTAMP__, -MD dependency files (spaces and $ escaped by
#    clang), -save-temps names and object files carry no temporary name, and
#    two keelcc builds give byte-identical objects (with -g too);
#  - compiler messages are clang-19's, byte for byte, under -std=c89
#    -pedantic(-errors), -Wpadded, -Weverything, -Wall -Wextra with columns
#    kept; a failed compile shows the compiler's messages only;
#  - programs print what the plain build prints (a NUL byte, a user #line, a
#    pragma not attached to its loop, a BOM, a pragma in a comment, _Pragma)
#    and the instrumented compile never fails (no keelcc warning);
#  - a loop whose head assigns a bound, or a volatile bound, gets no call;
#  - sources named in a response file (@file) are analysed and instrumented.
set -u
BIN=$1
KC="$BIN/keelcc"
work=$(mktemp -d /tmp/keel-same-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export KEEL_DB="$work/k.db" KEEL_MCA=off
. "$(dirname "$0")/../lib.sh"
# linked: does the binary call keel_decide?
linked() { nm "$1" 2>/dev/null | grep -c ' keel_decide$'; }

# ---- quoted includes (fault 02) ----
mkdir -p src other tq
printf '#define WHO "src"\n' >src/config.h
printf '#define WHO "other"\n' >other/config.h
printf '#define WHO "tmpdir"\n' >tq/config.h
cat >src/main.c <<'EOF'
#include <stdio.h>
#include "config.h"
int main(int argc, char **argv) {
  (void)argv;
  int n = 100 + argc; double a[200];
  for (int i = 0; i < n; i++) a[i] = i * 0.5;
  printf("%s %g\n", WHO, a[n - 1]);
  return 0;
}
EOF
clang-19 src/main.c -o ref && ./ref >ref.out
TMPDIR=$work/tq "$KC" src/main.c -o kc 2>err.txt && ./kc >kc.out
expect_eq "$(cat kc.out)" "$(cat ref.out)" "TMPDIR holding a config.h"
expect_eq "$(linked kc)" 1 "main.c instrumented"
expect_eq "$(cat err.txt)" "" "keelcc messages"
clang-19 -iquote other src/main.c -o ref2 && "$KC" -iquote other src/main.c -o kc2 \
    && expect_eq "$(./kc2)" "$(./ref2)" "-iquote other"

# ---- __FILE__, __TIMESTAMP__ (fault 12) ----
cat >src/ts.c <<'EOF'
#include <stdio.h>
int main(int argc, char **argv) {
  (void)argv;
  int n = 10 + argc; long s = 0;
  for (int i = 0; i < n; i++) s += i;
  printf("%ld %s:%d %s\n", s, __FILE__, __LINE__, __TIMESTAMP__);
  return 0;
}
EOF
touch -d '2001-02-03 04:05:06' src/ts.c
clang-19 src/ts.c -o ref && "$KC" src/ts.c -o kc && expect_eq "$(./kc)" "$(./ref)" "__FILE__ __LINE__ __TIMESTAMP__"
expect_eq "$(linked kc)" 1 "ts.c instrumented"

# ---- -MD with a space and a $ in the name (fault 10) ----
mkdir -p "my dir"
cp src/ts.c "my dir/a b\$.c"
clang-19 -MD -c "my dir/a b\$.c" -o ref.o && "$KC" -MD -c "my dir/a b\$.c" -o kc.o
expect_eq "$(sed 1s/kc.o/ref.o/ kc.d)" "$(cat ref.d)" "dependency file"

# ---- -save-temps names (fault 13) ----
mkdir -p st1 st2
(cd st1 && clang-19 -save-temps -c ../src/ts.c) && (cd st2 && "$KC" -save-temps -c ../src/ts.c 2>/dev/null)
expect_eq "$(ls st2 | tr '\n' ' ')" "$(ls st1 | tr '\n' ' ')" "-save-temps files"

# ---- reproducible objects (issue 9 point 8) ----
for g in "" -g; do
    "$KC" -O2 $g -c src/ts.c -o r1.o && "$KC" -O2 $g -c src/ts.c -o r2.o
    cmp -s r1.o r2.o && ok || bad "two keelcc builds (${g:-no -g}) differ"
    expect_eq "$(strings -a r1.o | grep -c 'keel-[A-Za-z0-9]\{6\}\.\(c\|yaml\)')" 0 "temporary names in the object ${g}"
done

# ---- messages (faults 11, 15; c89_pedantic.c, diag_columns.c) ----
cat >c89.c <<'EOF'
#include <stdio.h>
static int a[100];
int main(int argc, char **argv) {
  int n = 50 + argc, i;
  long s = 0;
  (void)argv;
  for (i = 0; i < n; i++)
    a[i] = i * 3;
  for (i = 0; i < n; i++)
    s += a[i];
  printf("%ld\n", s);
  return 0;
}
EOF
cat >cols.c <<'EOF'
int f(unsigned n, int *a)
{
    int s = 0; for (int i = 0; i < n; i++)
        a[i] = s;
    return s;
}
inline int tri(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
EOF
same_msgs() {
    clang-19 "$@" -o /dev/null >ref.txt 2>&1; r1=$?
    "$KC" "$@" -o /dev/null >kc.txt 2>&1; r2=$?
    expect_eq "$r2" "$r1" "exit status of $*"
    cmp -s ref.txt kc.txt && ok || bad "messages differ for $*: $(diff ref.txt kc.txt | head -4)"
}
same_msgs -std=c89 -pedantic -c c89.c
same_msgs -std=c89 -pedantic-errors -c c89.c
same_msgs -std=c99 -pedantic -Wpadded -c c89.c
same_msgs -Weverything -c c89.c
same_msgs -Weverything -Werror -c c89.c
same_msgs -Wall -Wextra -Wno-sign-compare -c cols.c
# a warning on a loop's line keeps its line and column
"$KC" -Wextra -c cols.c -o /dev/null 2>kc.txt
expect_eq "$(grep -c '^cols.c:3:34: warning: comparison of integers' kc.txt)" 1 "column of a warning on a loop's line"

# ---- programs unchanged, instrumented compile never fails ----
printf 'int printf(const char *, ...);\nstatic int scale = 1;\nint main(void) { long s = 0; int n = 10;\n  for (int i = 0; i < n; i++) s += i * scale;\n  printf("%%ld\\n", s); return 0; }\n// NUL: \000 here\n__attribute__((constructor)) static void init(void) { scale = 100; }\n' >nul.c
cat >line.c <<'EOF'
#include <stdio.h>
int main(void) {
  int s = 0, n = 10;
#line 1000 "virtual.c"
#pragma omp parallel for reduction(+:s)
  for (int i = 0; i < n; i++) s += i;
  printf("%d %s:%d\n", s, __FILE__, __LINE__);
  return 0;
}
EOF
cat >split.c <<'EOF'
#include <stdio.h>
#define FOREACH(i, n) for (i = 0; i < (n); i++)
int main(void) {
  int n = 5, s = 0, i, j, b[5];
  FOREACH(i, n) {
    s += i;
#pragma GCC diagnostic ignored "-Wunused-variable"
  } for (j = 0; j < n; j++) b[j] = 10;
  for (j = 0; j < n; j++) s += b[j];
  printf("%d\n", s);
  return 0;
}
EOF
printf '\357\273\277#include <stdio.h>\nint main(void) { long s = 0; int n = 10;\n  for (int i = 0; i < n; i++) s += i;\n  printf("%%ld\\n", s); return 0; }\n' >bom.c
cat >cmt.c <<'EOF'
#include <stdio.h>
int main(void) { long s = 0; int n = 10;
/* disabled for now:
#pragma omp parallel for reduction(+:s)
*/
  for (int i = 0; i < n; i++) s += i;
  printf("%ld\n", s); return 0; }
EOF
cat >pmacro.c <<'EOF'
#include <stdio.h>
#define PARALLEL_FOR _Pragma("omp parallel for")
int main(void) {
  double a[100]; int n = 100;
  PARALLEL_FOR
  for (int i = 0; i < n; i++) a[i] = i * 0.5;
  _Pragma("omp parallel for")
  for (int i = 0; i < n; i++) a[i] += 1;
  printf("%g\n", a[99]);
  return 0;
}
EOF
cat >pif.c <<'EOF'
#include <stdio.h>
int main(void) {
  double a[100]; int i, n = 100;
#pragma omp parallel for
#if defined(_OPENMP)
  for (i = n - 1; i >= 0; i--)
#else
  for (i = 0; i < n; i++)
#endif
    a[i] = i * 0.5;
  printf("%g\n", a[99]);
  return 0;
}
EOF
for f in nul.c line.c split.c bom.c cmt.c pmacro.c pif.c; do
    for omp in "" -fopenmp; do
        clang-19 $omp $f -o ref 2>/dev/null
        "$KC" $omp $f -o kc >/dev/null 2>err.txt
        expect_eq "$(cat err.txt)" "" "keelcc messages for $omp $f"
        expect_eq "$(KEEL_DEVICE=h100 KEEL_LOG=0 ./kc 2>&1)" "$(./ref)" "output of $omp $f"
        # pif.c without -fopenmp: the active loop follows an #else, no call
        [ "$f$omp" = pif.c ] || expect_eq "$(linked kc)" 1 "$omp $f instrumented"
    done
done

# ---- no call where a value is not there to read (faults 23; uninit.c) ----
cat >vol.c <<'EOF'
#include <stdio.h>
volatile int fifo_count = 3;
int a[16];
int main(void) {
  for (int i = 0; i < fifo_count; i++) a[i] = i;
  printf("%d %d %d\n", a[0], a[1], a[2]);
  return 0;
}
EOF
cat >head.c <<'EOF'
#include <stdio.h>
int main(int argc, char **argv) {
  int i, n, a[64];
  (void)argv;
  for (i = 0, n = 10 + argc; i < n; i++) a[i] = i;
  printf("%d\n", a[n - 1]);
  return 0;
}
EOF
for f in vol.c head.c; do
    "$KC" -O1 -Wall $f -o kc 2>err.txt
    expect_eq "$(cat err.txt)" "" "keelcc messages for $f"
    expect_eq "$(linked kc)" 0 "$f gets no call"
done

# ---- response files (issue 9 point 10): analysed and instrumented ----
mkdir -p "r dir"
cp src/main.c "r dir/m.c"
cp src/config.h "r dir/config.h"
printf '%s\n' '-O2 -Wall' '"r dir/m.c"' >args.rsp
clang-19 @args.rsp -o ref && "$KC" --keel-db="$work/r.db" @args.rsp -o kc 2>err.txt
expect_eq "$(cat err.txt)" "" "keelcc messages with @args.rsp"
expect_eq "$(./kc)" "$(./ref)" "output with @args.rsp"
expect_eq "$(linked kc)" 1 "source inside a response file instrumented"
expect_eq "$(sqlite3 "$work/r.db" "SELECT count(*) FROM loops l JOIN translation_units t ON t.id = l.tu_id WHERE t.path LIKE '%/r dir/m.c'")" 1 "loops of a source inside a response file"

# ---- KEEL_CC=gcc: no -ivfsoverlay, so analysed only, silently ----
if command -v gcc >/dev/null 2>&1; then
    KEEL_CC=gcc KEEL_MCA=on "$KC" -O2 -c src/ts.c -o g.o 2>err.txt
    expect_eq "$(cat err.txt)" "" "keelcc messages with KEEL_CC=gcc"
    expect_eq "$(nm g.o | grep -c keel_)" 0 "KEEL_CC=gcc object uninstrumented"
fi

finish
