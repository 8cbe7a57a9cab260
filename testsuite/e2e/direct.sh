#!/bin/sh
# direct.sh BIN -- keelcc's direct mode (issue 11 item 7): a rebuild whose
# inputs are unchanged since the build the database holds reuses that build
# (no parse, no analyses, no llvm-mca, no database write) and compiles the
# same instrumented text; anything else misses and records anew.  A hit is
# seen as the build's translation_units row staying as it was: before each
# rebuild the test marks the rows (message = 'kept'), which a recorded build
# replaces.
#  - same command, same files: hit, the same object byte for byte, the
#    program prints what clang-19's prints and its sites find their loops;
#  - a header changed (same size), a -include file changed, a -D changed,
#    the instrumentation mode changed, --keel-direct=off, the database
#    deleted: miss;
#  - another keelcc binary: miss;
#  - a hit runs llvm-mca zero times and replays keel's warnings about the
#    source exactly.
# Files are dated into the past (and written more than a second before the
# compiles that store entries): a file changed less than a second before
# keelcc started is never trusted (ccache's "too new" rule).
set -u
BIN=$1
KC="$BIN/keelcc"
work=$(mktemp -d /tmp/keel-direct-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export KEEL_DB="$work/k.db" KEEL_MCA=off KEEL_LOG=0
unset KEEL_VERBOSE KEEL_DEVICE KEEL_FORCE KEEL_DIRECT KEEL_INSTRUMENT OMP_TARGET_OFFLOAD
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
expect_eq() { if [ "$1" = "$2" ]; then ok; else bad "$3: got '$1', want '$2'"; fi; }
expect_ne() { if [ "$1" != "$2" ]; then ok; else bad "$3: got '$1' both times"; fi; }
q() { sqlite3 "$KEEL_DB" "$1"; }
mark() { q "UPDATE translation_units SET message = 'kept'"; }
kept() { q "SELECT count(*) FROM translation_units WHERE path LIKE '%/$1' AND message = 'kept'"; }
settle() { sleep 1.2; }      # past the "too new" second

cat >scale.h <<'EOF'
#define FACTOR 3
EOF
cat >k.c <<'EOF'
#include "scale.h"
void k(double *y, const double *x, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * FACTOR;
}
EOF
cat >main.c <<'EOF'
#include <stdio.h>
void k(double *, const double *, int);
int main(int argc, char **argv)
{
    (void)argv;
    double x[100], y[100];
    int n = 90 + argc;
    for (int i = 0; i < 100; i++)
        x[i] = i;
    k(y, x, n);
    printf("%g\n", y[n - 1]);
    return 0;
}
EOF
settle

# ---- miss, then hit ----
"$KC" -O1 -c k.c -o miss.o 2>err.txt
expect_eq "$(cat err.txt)" "" "first build: no message"
expect_eq "$(q "SELECT count(*) FROM direct_cache")" 1 "first build: one entry"
mark
"$KC" -O1 -c k.c -o miss.o 2>err.txt
expect_eq "$(cat err.txt)" "" "rebuild: no message"
expect_eq "$(kept k.c)" 1 "rebuild, nothing changed: hit (same row)"
cp miss.o hit.o
KEEL_DIRECT=off "$KC" -O1 -c k.c -o miss.o 2>/dev/null
expect_eq "$(kept k.c)" 0 "KEEL_DIRECT=off: miss"
cmp -s miss.o hit.o
expect_eq "$?" 0 "the hit's object is the miss's, byte for byte"
mark
"$KC" -O1 -c k.c -o miss.o --keel-direct=off 2>/dev/null
expect_eq "$(kept k.c)" 0 "--keel-direct=off: miss"

# ---- the hit program computes the same and its sites find their loops ----
"$KC" -O1 main.c k.c -o prog 2>/dev/null
settle
mark
"$KC" -O1 main.c k.c -o prog 2>err.txt
expect_eq "$(kept k.c)" 1 "linked rebuild: hit"
expect_eq "$(cat err.txt)" "" "linked rebuild: no message"
clang-19 -O1 main.c k.c -o ref
expect_eq "$(./prog)" "$(./ref)" "hit program: clang-19's output"
KEEL_DEVICE=h100 KEEL_VERBOSE=1 ./prog >/dev/null 2>v.txt
expect_eq "$(grep -c '^keel: k\.c:4 ' v.txt)" 1 "hit program: the site decides: $(cat v.txt)"
expect_eq "$(grep -c 'warning' v.txt)" 0 "hit program: no warning: $(cat v.txt)"

# ---- a changed header (same size): miss ----
"$KC" -O1 -c k.c -o k.o 2>/dev/null
settle
mark
printf '#define FACTOR 4\n' >scale.h
"$KC" -O1 -c k.c -o k.o 2>/dev/null
expect_eq "$(kept k.c)" 0 "changed header: miss"
settle
"$KC" -O1 -c k.c -o k.o 2>/dev/null
mark
"$KC" -O1 -c k.c -o k.o 2>/dev/null
expect_eq "$(kept k.c)" 1 "changed header, then unchanged: hit"

# ---- a changed -include file: miss ----
printf '#define EXTRA_ONE 1\n' >pre.h
settle
"$KC" -O1 -include pre.h -c k.c -o k.o 2>/dev/null
mark
"$KC" -O1 -include pre.h -c k.c -o k.o 2>/dev/null
expect_eq "$(kept k.c)" 1 "-include: hit"
printf '#define EXTRA_ONE 2\n' >pre.h
"$KC" -O1 -include pre.h -c k.c -o k.o 2>/dev/null
expect_eq "$(kept k.c)" 0 "changed -include file: miss"

# ---- a changed -D: miss; back to the first: the object's build was
# replaced by the other variant, so a miss again ----
mark
"$KC" -O1 -DEXTRA=1 -c k.c -o k.o 2>/dev/null
expect_eq "$(kept k.c)" 0 "changed -D: miss"
mark
"$KC" -O1 -c k.c -o k.o 2>/dev/null
expect_eq "$(kept k.c)" 0 "back to the first -D: miss"
expect_eq "$(q "SELECT count(*) FROM translation_units WHERE path LIKE '%/k.c'")" 1 \
    "back to the first -D: one build of k.o"

# ---- another instrumentation mode: miss ----
mark
"$KC" -O1 -c k.c -o k.o --keel-instrument=offload 2>/dev/null
expect_eq "$(kept k.c)" 0 "another instrumentation mode: miss"

# ---- the database deleted: miss (the rows are there again) ----
rm -f "$KEEL_DB" "$KEEL_DB-wal" "$KEEL_DB-shm"
"$KC" -O1 -c k.c -o k.o 2>/dev/null
expect_eq "$(q "SELECT count(*) FROM translation_units WHERE path LIKE '%/k.c'")" 1 \
    "database deleted: recorded again"
expect_eq "$(q "SELECT count(*) FROM loops")" 1 "database deleted: its loop again"

# ---- another keelcc binary: miss ----
mark
cp "$KC" ./keelcc2
./keelcc2 -O1 -c k.c -o k.o 2>/dev/null
expect_eq "$(kept k.c)" 0 "another keelcc binary: miss"

# ---- llvm-mca: none on a hit; keel's warnings replayed ----
cat >mca.sh <<EOF
#!/bin/sh
echo run >>"$work/mca-runs"
exec llvm-mca-19 "\$@"
EOF
chmod +x mca.sh
: >mca-runs
KEEL_MCA=on KEEL_LLVM_MCA="$work/mca.sh" "$KC" -O1 -c k.c -o k.o --keel-mcpu=znver3,nosuchcpu 2>miss.txt
runs=$(wc -l <mca-runs)
expect_ne "$runs" 0 "llvm-mca on a miss"
expect_eq "$(grep -c 'warning: k.c: mca: ' miss.txt)" 1 "a miss warns about the unknown CPU: $(cat miss.txt)"
mark
KEEL_MCA=on KEEL_LLVM_MCA="$work/mca.sh" "$KC" -O1 -c k.c -o k.o --keel-mcpu=znver3,nosuchcpu 2>hit.txt
expect_eq "$(kept k.c)" 1 "llvm-mca on: hit"
expect_eq "$(wc -l <mca-runs)" "$runs" "no llvm-mca on a hit"
expect_eq "$(cat hit.txt)" "$(cat miss.txt)" "the hit's warnings are the miss's"
expect_eq "$(q "SELECT count(*) FROM mca_results WHERE target = 'znver3' AND status = 'ok'")" 1 \
    "the hit keeps the llvm-mca rows"

echo "direct: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
