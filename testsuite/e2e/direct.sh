#!/bin/sh
# direct.sh BIN -- keelcc's direct mode (issue 11 item 7): a rebuild whose
# inputs are unchanged since the build the database holds reuses that build
# (no parse, no analyses, no llvm-mca, no database write) and compiles the
# same instrumented text; anything else misses and records anew.  A hit is
# seen as no translation_units row recorded: before each rebuild the test
# marks the rows (message = 'kept'); a miss records a row of its own.
#  - same command, same files: hit, the same object byte for byte, the
#    program prints what clang-19's prints and its sites find their loops;
#  - a header changed (same size), a -include file changed, a -D changed,
#    the instrumentation mode changed, --keel-direct=off, the database
#    deleted: miss;
#  - another keelcc binary: miss;
#  - a hit runs llvm-mca zero times and replays keel's warnings about the
#    source exactly;
#  - one source compiled by several commands (as PolyBench's polybench.c:
#    another -I folder, other inputs, another -o, dependency files): the
#    second command and a rebuild of the first hit, the rows are exactly
#    those of the same commands run with direct mode off (the exact hit
#    writes nothing: it is left out of that run); a header that shadows
#    the shared one in a command's own -I folder, or another -D, misses.
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
. "$(dirname "$0")/../lib.sh"
expect_ne() { if [ "$1" != "$2" ]; then ok; else bad "$3: got '$1' both times"; fi; }
q() { sqlite3 "$KEEL_DB" "$1"; }
mark() { q "UPDATE translation_units SET message = 'kept'"; }
# 1 when no row of the source was recorded since mark (a hit), else 0: a
# miss records a row, which may leave other builds' rows in place
kept() { q "SELECT count(*) = 0 FROM translation_units WHERE path LIKE '%/$1'
            AND message IS NOT 'kept'"; }
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
KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./prog >/dev/null 2>v.txt
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
# ---- a header entered twice (no guard): listed twice, checked as one ----
printf '#define TWICE 2\n' >twice.h
printf '#include "twice.h"\n' >again.h
cat >t.c <<'EOF'
#include "twice.h"
#include "again.h"
void t(double *y, int n)
{
    for (int i = 0; i < n; i++)
        y[i] *= TWICE;
}
EOF
settle
"$KC" -O1 -c t.c -o t.o 2>/dev/null
expect_eq "$(q "SELECT inputs FROM direct_cache" | grep -c '/twice\.h$')" 2 \
    "a header entered twice: listed twice"
mark
"$KC" -O1 -c t.c -o t.o 2>/dev/null
expect_eq "$(kept t.c)" 1 "a header entered twice, unchanged: hit"
printf '#define TWICE 5\n' >twice.h
"$KC" -O1 -c t.c -o t.o 2>/dev/null
expect_eq "$(kept t.c)" 0 "a header entered twice, changed (same size): miss"
settle
"$KC" -O1 -c t.c -o t.o 2>/dev/null
mark
"$KC" -O1 -c t.c -o t.o 2>/dev/null
expect_eq "$(kept t.c)" 1 "a header entered twice, changed, then unchanged: hit"
# $PWD counts only where LLVM would use it: a stale one (make -C passes the
# caller's) is the same build
mark
PWD=/ "$KC" -O1 -c k.c -o k.o 2>/dev/null
expect_eq "$(kept k.c)" 1 "a stale \$PWD: hit"

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

# ---- a changed -D: miss; back to the first: the database still holds
# that build (another variant compiled into k.o keeps the rows already
# there), so a hit; one row per build of k.c: FACTOR 3, FACTOR 4, two
# -include files, -DEXTRA ----
mark
"$KC" -O1 -DEXTRA=1 -c k.c -o k.o 2>/dev/null
expect_eq "$(kept k.c)" 0 "changed -D: miss"
mark
"$KC" -O1 -c k.c -o k.o 2>/dev/null
expect_eq "$(kept k.c)" 1 "back to the first -D: hit"
expect_eq "$(q "SELECT count(*) || ':' || count(DISTINCT variant) FROM translation_units
               WHERE path LIKE '%/k.c'")" 5:5 "back to the first -D: one row per build of k.c"

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

# ---- one source, several commands (issue 11 item 7) ----
# share/util.c finds <conf.h> through the search path: in inc/ for
# programs a and b, in pc/ (a header of its own, same size, other value)
# for program c.
mkdir -p x/pa x/pb x/pc x/inc x/share x/bin
printf '#define SCALE 2\n' >x/inc/conf.h
printf '#define SCALE 3\n' >x/pc/conf.h
cat >x/share/util.c <<'EOF'
#include <conf.h>
void scale(double *y, const double *x, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * SCALE;
}
EOF
for p in a b c; do
    cat >x/p$p/$p.c <<'EOF'
#include <stdio.h>
void scale(double *, const double *, int);
int main(int argc, char **argv)
{
    (void)argv;
    double x[64], y[64];
    int n = 60 + argc;
    for (int i = 0; i < 64; i++)
        x[i] = i;
    scale(y, x, n);
    printf("%g\n", y[n - 1]);
    return 0;
}
EOF
done
settle
cd x || exit 1
# prog P [flags]: program P from its own source and share/util.c, searching
# its own folder first (PolyBench's command)
prog() { p=$1; shift; "$KC" -O1 "$@" -Ip$p -Iinc p$p/$p.c share/util.c -o bin/$p 2>>xerr.txt; }
# the commands that write, in order (a rebuild of a, an exact hit, comes
# after stage 1 and writes nothing): stage 1 builds a, then b
stage1() {
    prog a
    prog b -MMD
}
# stage 2: c (its own conf.h), b with another -D, util.c alone twice
stage2() {
    prog c
    prog b -DEXTRA=1
    "$KC" -O1 -Ipa -Iinc -c share/util.c -o u1.o 2>>xerr.txt
    "$KC" -O1 -Ipb -Iinc -MMD -MF u2.d -c share/util.c -o u2.o 2>>xerr.txt
}
# the rows of a database but ids and times (builds by path and variant)
dump() {
    sqlite3 "$1" "SELECT path, variant, hash, object, args, compiler, directory, status,
                         coalesce(nullif(message, 'kept'), '') FROM translation_units
                  ORDER BY path, variant;
                  SELECT t.path, t.variant, l.file, l.line, l.col, l.depth, l.kind, l.canonical
                    FROM loops l JOIN translation_units t ON t.id = l.tu_id ORDER BY 1, 2, 3, 4, 5;"
    for t in $(sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type = 'table'
                             AND name NOT IN ('direct_cache', 'keel_meta') ORDER BY name"); do
        echo "$t $(sqlite3 "$1" "SELECT count(*) FROM $t")"
    done
}
util_new() { q "SELECT count(*) FROM translation_units WHERE path LIKE '%/util.c' AND message IS NULL"; }
export KEEL_DB="$work/x.db"
: >xerr.txt
prog a
expect_eq "$(q "SELECT count(*) FROM direct_cache c JOIN translation_units t ON t.id = c.tu_id
                 WHERE t.path LIKE '%/util.c'")" 1 "program a: util.c has an entry"
mark
prog b -MMD
expect_eq "$(kept util.c)" 1 "program b (another -I folder, inputs, -o, -MMD): util.c hit"
expect_eq "$(kept b.c)" 0 "program b: its own source recorded"
expect_eq "$(q "SELECT object FROM translation_units WHERE path LIKE '%/util.c'")" "$PWD/bin/b" \
    "program b's hit: the row names b's object"
expect_eq "$(q "SELECT length(search) FROM direct_cache c JOIN translation_units t
                 ON t.id = c.tu_id WHERE t.path LIKE '%/util.c'")" 66 \
    "program b's hit: two search lists on the entry"
clang-19 -O1 -Ipb -Iinc pb/b.c share/util.c -o ref-b
expect_eq "$(./bin/b)" "$(./ref-b)" "program b (hit): clang-19's output"
KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./bin/b >/dev/null 2>v.txt
expect_eq "$(grep -c '^keel: util\.c:4 ' v.txt)" 1 \
    "program b (hit): its util.c site decides: $(cat v.txt)"
dump "$KEEL_DB" >rows-direct-1.txt
# the same commands with direct mode off, into a fresh database
KEEL_DB="$work/y.db" KEEL_DIRECT=off stage1
dump "$work/y.db" >rows-off-1.txt
expect_eq "$(cmp -s rows-direct-1.txt rows-off-1.txt && echo same)" same \
    "stage 1: rows as with direct mode off: $(diff rows-direct-1.txt rows-off-1.txt | head -5)"
mark
prog a
expect_eq "$(kept util.c)" 1 "program a again: util.c hit"
expect_eq "$(kept a.c)" 1 "program a again: a.c hit"
expect_eq "$(q "SELECT object FROM translation_units WHERE path LIKE '%/util.c'")" "$PWD/bin/b" \
    "program a again (an exact hit): nothing written, the row still names b's object"
expect_eq "$(cat xerr.txt)" "" "stage 1: no message"
mark
prog c
expect_eq "$(util_new)" 1 "program c (its own conf.h shadows inc/'s): util.c missed"
expect_eq "$(q "SELECT count(DISTINCT variant) FROM translation_units WHERE path LIKE '%/util.c'")" 2 \
    "program c: a build of util.c of its own"
clang-19 -O1 -Ipc -Iinc pc/c.c share/util.c -o ref-c
expect_eq "$(./bin/c)" "$(./ref-c)" "program c: clang-19's output"
mark
prog b -DEXTRA=1
expect_eq "$(util_new)" 1 "program b with another -D: util.c missed"
mark
"$KC" -O1 -Ipa -Iinc -c share/util.c -o u1.o 2>>xerr.txt
expect_eq "$(util_new)" 1 "util.c alone: recorded"
mark
"$KC" -O1 -Ipb -Iinc -MMD -MF u2.d -c share/util.c -o u2.o 2>>xerr.txt
expect_eq "$(util_new)" 0 "util.c alone, another -I folder, -o and -MF: hit"
expect_eq "$(test -s u2.d && echo yes)" yes "the hit's dependency file written"
cp u2.o u2-hit.o
KEEL_DIRECT=off "$KC" -O1 -Ipb -Iinc -MMD -MF u2.d -c share/util.c -o u2.o 2>>xerr.txt
cmp -s u2.o u2-hit.o
expect_eq "$?" 0 "the cross-command hit's object is a miss's, byte for byte"
KEEL_DB="$work/y.db" KEEL_DIRECT=off stage2
KEEL_DB="$work/y.db" KEEL_DIRECT=off "$KC" -O1 -Ipb -Iinc -MMD -MF u2.d -c share/util.c -o u2.o \
    2>>xerr.txt
dump "$KEEL_DB" >rows-direct-2.txt
dump "$work/y.db" >rows-off-2.txt
expect_eq "$(cmp -s rows-direct-2.txt rows-off-2.txt && echo same)" same \
    "stage 2: rows as with direct mode off: $(diff rows-direct-2.txt rows-off-2.txt | head -5)"
expect_eq "$(cat xerr.txt)" "" "stage 2: no message"
cd "$work" || exit 1

finish direct
