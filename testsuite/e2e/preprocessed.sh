#!/bin/sh
# preprocessed.sh BIN -- a preprocessed source (`clang-19 -E` output: a .i,
# or any name with -x c / -x cpp-output) is analysed and instrumented like
# the .c it came from.  Its loops are stored at the locations its line
# markers name (p.c:7, mine.h:3: clang's diagnostics and debug info say so
# too), never at the .i's physical lines; loops from system headers stay
# unrecorded; the run-time verdict names p.c:7; the program prints what
# clang-19's build of the .i prints, keelcc's messages and exit status are
# clang-19's; a direct-mode rebuild hits and still instruments; llvm-mca
# figures reach the loop (the assembly's .loc lines name p.c too).
set -u
BIN=$1
KC="$BIN/keelcc"
K="$BIN/keel"
work=$(mktemp -d /tmp/keel-pre-XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
locs() { "$K" loops "$1" | awk 'NR > 1 { print $1 }' | sort | tr '\n' ' '; }
verdict() { KEEL_DEVICE=h100 KEEL_VERBOSE=1 "./$1" 2>&1 >/dev/null | head -1 | cut -d' ' -f1-3; }

mkdir -p sysinc
cat >sysinc/sys.h <<'EOF'
static inline void fill(double *x, int n) { for (int k = 0; k < n; k++) x[k] = 1; }
EOF
cat >mine.h <<'EOF'
static inline double sum(const double *x, int n) {
  double s = 0;
  for (int k = 0; k < n; k++) s += x[k];
  return s;
}
EOF
cat >p.c <<'EOF'
#include <stdio.h>
#include <sys.h>
#include "mine.h"
static double a[300];
int main(int argc, char **argv) {
  (void)argv; int n = 100 + argc, unused;
  for (int i = 0; i < n; i++) a[i] = i * 0.5;
  fill(a + 200, 10);
  printf("%g %g\n", a[n - 1], sum(a, n));
  return 0;
}
EOF
clang-19 -isystem sysinc -E p.c -o p.i || exit 1
# dated into the past and left alone a while: direct mode never trusts a file
# changed within the second before keelcc started
touch -d "2020-01-01 00:00" p.i
sleep 2

# ---- .i by its suffix: same messages, exit status and output as clang-19 ----
clang-19 -Wall -Wextra -O1 p.i -o c1 2>cc.txt
crc=$?
"$KC" --keel-db="$work/a.db" --keel-mcpu=znver4 -Wall -Wextra -O1 p.i -o p1 2>kc.txt
krc=$?
expect_eq "$krc" "$crc" "exit status of keelcc p.i"
expect_eq "$(cat kc.txt)" "$(cat cc.txt)" "keelcc's messages for p.i"
expect_eq "$(grep -c "unused variable 'unused'" kc.txt)" 1 "clang's warning at p.c:6 is kept"
expect_eq "$(grep -c '^p.c:6:' kc.txt)" 1 "the warning names p.c:6"
expect_eq "$(./p1)" "$(./c1)" "output of the instrumented p.i"
expect_eq "$(./p1)" "50 2525" "output value"
expect_eq "$(locs a.db)" "mine.h:3 p.c:7 " "stored locations (line markers, no system-header loop)"
expect_eq "$(verdict p1)" "keel: p.c:7 main" "run-time verdict names p.c:7"
expect_eq "$(nm p1 | grep -c ' keel_decide$')" 1 "p.i instrumented"
show=$("$K" show p.c:7 "$work/a.db")
expect_eq "$(echo "$show" | awk '$1 == "function" { print $2, $3 }')" "main (p.c:5)" "function's presumed line"
expect_eq "$(echo "$show" | awk '$1 == "lines" { print $2 }')" "7-7" "loop's presumed lines"
expect_eq "$(echo "$show" | grep -c '^  znver4 .* cyc/iter')" 1 "llvm-mca cycles for p.c:7"
expect_eq "$(echo "$show" | grep -c '^  7:31  a\[i\] = i \* 0.5$')" 1 "statement at its presumed line"

# ---- rebuild: direct mode hits and still instruments ----
sqlite3 a.db "UPDATE translation_units SET message = 'kept'"
"$KC" --keel-db="$work/a.db" --keel-mcpu=znver4 -Wall -Wextra -O1 p.i -o p1 2>kc2.txt
expect_eq "$(cat kc2.txt)" "$(cat cc.txt)" "messages of the rebuild"
expect_eq "$(sqlite3 a.db "SELECT count(*) FROM translation_units WHERE message IS NOT 'kept'")" 0 \
    "rebuild of an unchanged p.i: direct-mode hit"
expect_eq "$(./p1)" "$(./c1)" "output after the direct-mode hit"
expect_eq "$(verdict p1)" "keel: p.c:7 main" "verdict after the direct-mode hit"
expect_eq "$("$K" show p.c:7 "$work/a.db" | grep -c '^  znver4 .* cyc/iter')" 1 \
    "llvm-mca cycles after the hit"

# ---- -x c and -x cpp-output: the same locations ----
for x in c cpp-output; do
    rm -f x.db
    "$KC" --keel-db="$work/x.db" --keel-mca=off -O1 -x "$x" p.i -o px 2>kx.txt
    expect_eq "$?:$(cat kx.txt)" "0:" "keelcc -x $x p.i"
    expect_eq "$(locs x.db)" "mine.h:3 p.c:7 " "stored locations with -x $x"
    expect_eq "$(verdict px)" "keel: p.c:7 main" "verdict with -x $x"
    expect_eq "$(./px)" "$(./c1)" "output with -x $x"
done

# ---- -c names the object as clang does (p.o) ----
rm -f p.o
"$KC" --keel-db="$work/a.db" --keel-mca=off -c p.i 2>kc3.txt
expect_eq "$?:$(cat kc3.txt):$([ -f p.o ] && echo p.o)" "0::p.o" "keelcc -c p.i writes p.o"

finish preprocessed
