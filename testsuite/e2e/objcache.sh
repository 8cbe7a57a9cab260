#!/bin/sh
# objcache.sh BIN -- keelcc's object cache: an unchanged single-source -c
# rebuild that direct mode hits copies the object the last compile made
# (DB.objcache/ beside the database) instead of compiling it.
#  - a hit runs no compiler, gives the object of a fresh compile (object
#    cache off) byte for byte, and prints exactly the messages the compile
#    printed (the compiler's warning, keel's warnings);
#  - every kind of change misses (the compiler runs, the object is a fresh
#    compile's): the source, a header, a header under #ifdef __OPTIMIZE__
#    (the parse has the compile's -O2: direct mode misses too), a header
#    only the real compile reads (under __has_feature(address_sanitizer):
#    the parse has no -fsanitize, so direct mode hits and the compile's own
#    dependency list must catch it), an argument, -o,
#    another keelcc binary, a KEEL_* variable, KEEL_OBJCACHE=off;
#  - not cached at all: __DATE__ in the source, a dependency file the user
#    asked for (-MD: still written);
#  - a command that compiles and links unchanged sources: the first rebuild
#    compiles each source alone and stores it, later ones only link; the
#    program is a fresh build's byte for byte, with the same messages;
#  - a corrupt entry is a miss with no message, and is replaced; an entry
#    that cannot be written is one warning and a good object;
#  - KEEL_OBJCACHE_SIZE=0 keeps the folder empty; concurrent writers of one
#    entry leave a whole entry.
# The compiler is a wrapper (clang-19 first in PATH) that counts its runs.
# Files are written more than a second before the compiles that store
# entries (the "too new" rule).
set -u
BIN=$1
KC="$BIN/keelcc"
work=$(mktemp -d /tmp/keel-objcache-XXXXXX)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 1
REAL_CC=$(command -v clang-19)
mkdir wrap
cat >wrap/clang-19 <<EOF
#!/bin/sh
echo run >>"$work/runs"
exec "$REAL_CC" "\$@"
EOF
chmod +x wrap/clang-19
export PATH="$work/wrap:$PATH"
export KEEL_DB="$work/k.db" KEEL_MCA=off KEEL_LOG=0
unset KEEL_VERBOSE KEEL_DEVICE KEEL_FORCE KEEL_DIRECT KEEL_INSTRUMENT KEEL_OBJCACHE \
      KEEL_OBJCACHE_SIZE KEEL_CC OMP_TARGET_OFFLOAD
. "$(dirname "$0")/../lib.sh"
runs() { if [ -f runs ]; then wc -l <runs | tr -d ' '; else echo 0; fi; }
settle() { sleep 1.2; }
# compile (args) into $1 with the cache; echo how many compiler runs it took
cc_count() {
    out=$1
    shift
    rm -f runs
    "$KC" "$@" -o "$out" 2>err.txt
    echo "$? $(runs)"
}
# the object of a fresh compile of the same command, object cache off
fresh() {
    out=$1
    shift
    KEEL_OBJCACHE=off "$KC" "$@" -o "$out" 2>/dev/null
}
same() { cmp -s "$1" "$2" && echo same || echo differ; }

cat >scale.h <<'EOF'
#define FACTOR 3
EOF
cat >opt.h <<'EOF'
#define BIAS 1
EOF
cat >k.c <<'EOF'
#include "scale.h"
#ifdef __OPTIMIZE__
#include "opt.h"
#else
#define BIAS 0
#endif
void k(double *y, const double *x, int n)
{
    int unused;
    for (int i = 0; i < n; i++)
        y[i] = x[i] * FACTOR + BIAS;
}
EOF
settle

# ---- miss, then hit ----
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 1" "first build: compiled"
cp err.txt miss-err.txt
expect_eq "$(grep -c "unused variable 'unused'" miss-err.txt)" 1 "first build: the compiler's warning"
expect_eq "$(ls k.db.objcache | wc -l | tr -d ' ')" 1 "first build: one entry"
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 0" "rebuild: no compiler run"
expect_eq "$(cat err.txt)" "$(cat miss-err.txt)" "rebuild: the same messages"
fresh ref.o -O2 -Wall -c k.c
expect_eq "$(same k.o ref.o)" same "hit: a fresh compile's object, byte for byte"
cp k.o hit.o
# keel's own warnings are replayed too (llvm-mca for a CPU it does not know)
KEEL_MCA=on cc_count k.o -O2 -Wall -c k.c --keel-mcpu=znver3,nosuchcpu >/dev/null
cp err.txt mca-miss.txt
expect_eq "$(grep -c 'warning: k.c: mca: ' mca-miss.txt)" 1 "llvm-mca: keel's warning"
expect_eq "$(KEEL_MCA=on cc_count k.o -O2 -Wall -c k.c --keel-mcpu=znver3,nosuchcpu)" "0 0" \
          "llvm-mca on: hit"
expect_eq "$(cat err.txt)" "$(cat mca-miss.txt)" "llvm-mca on: the same messages"

# ---- every kind of change misses ----
printf '#define FACTOR 4\n' >scale.h
settle
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 1" "header changed: compiled"
fresh ref.o -O2 -Wall -c k.c
expect_eq "$(same k.o ref.o)" same "header changed: a fresh compile's object"
expect_eq "$(same k.o hit.o)" differ "header changed: another object"
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 0" "header changed, then unchanged: hit"

# a header under #ifdef __OPTIMIZE__: the parse has -O2 as the compile
# does, so it reads the header too: direct mode misses (the build's row is
# written again), the object cache misses
sqlite3 "$KEEL_DB" "UPDATE translation_units SET message = 'kept'"
printf '#define BIAS 2\n' >opt.h
settle
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 1" "header under __OPTIMIZE__: compiled"
expect_eq "$(sqlite3 "$KEEL_DB" "SELECT count(*) FROM translation_units
                                 WHERE message IS NOT 'kept'")" 1 \
          "header under __OPTIMIZE__: the parse reads it (direct mode miss)"
fresh ref.o -O2 -Wall -c k.c
expect_eq "$(same k.o ref.o)" same "header under __OPTIMIZE__: a fresh compile's object"
cp k.o bias2.o
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 0" "... then unchanged: hit"

# a header the parse never reads (the parse has no -fsanitize, and
# __has_feature is no predefined macro): direct mode hits (no row
# recorded), the object cache misses
printf '#define SHADOW 1\n' >asan.h
cat >a.c <<'EOF'
#if __has_feature(address_sanitizer)
#include "asan.h"
#else
#define SHADOW 0
#endif
void a(double *y, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = i + SHADOW;
}
EOF
settle
cc_count a.o -O2 -fsanitize=address -c a.c >/dev/null
expect_eq "$(cc_count a.o -O2 -fsanitize=address -c a.c)" "0 0" "-fsanitize=address: hit"
sqlite3 "$KEEL_DB" "UPDATE translation_units SET message = 'kept'"
printf '#define SHADOW 2\n' >asan.h
settle
expect_eq "$(cc_count a.o -O2 -fsanitize=address -c a.c)" "0 1" \
          "header only the compile reads: compiled"
expect_eq "$(sqlite3 "$KEEL_DB" "SELECT count(*) FROM translation_units
                                 WHERE message IS NOT 'kept'")" 0 \
          "header only the compile reads: direct mode hit"
fresh ref.o -O2 -fsanitize=address -c a.c
expect_eq "$(same a.o ref.o)" same "header only the compile reads: a fresh compile's object"
expect_eq "$(cc_count a.o -O2 -fsanitize=address -c a.c)" "0 0" "... then unchanged: hit"

printf 'void k(double *y, const double *x, int n)\n{\n    for (int i = 0; i < n; i++)\n        y[i] = x[i] * 5;\n}\n' >k.c
settle
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 1" "source changed: compiled"
fresh ref.o -O2 -Wall -c k.c
expect_eq "$(same k.o ref.o)" same "source changed: a fresh compile's object"
cc_count k.o -O2 -Wall -c k.c >/dev/null
expect_eq "$(cc_count k.o -O1 -Wall -c k.c)" "0 1" "-O1 instead of -O2: compiled"
fresh ref.o -O1 -Wall -c k.c
expect_eq "$(same k.o ref.o)" same "-O1: a fresh compile's object"
expect_eq "$(cc_count k2.o -O2 -Wall -c k.c)" "0 1" "another -o: compiled"
expect_eq "$(cc_count k.o -O2 -Wall -I. -c k.c)" "0 1" "another search list: compiled"
expect_eq "$(KEEL_SOMETHING=1 cc_count k.o -O2 -Wall -c k.c)" "0 1" "a KEEL_ variable: compiled"
expect_eq "$(KEEL_OBJCACHE=off cc_count k.o -O2 -Wall -c k.c)" "0 1" "KEEL_OBJCACHE=off: compiled"
expect_eq "$(cc_count k.o -O2 -Wall -c k.c --keel-objcache=off)" "0 1" \
          "--keel-objcache=off: compiled"
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 0" "same command again: hit"
cp "$KC" ./keelcc2
rm -f runs
./keelcc2 -O2 -Wall -c k.c -o k.o 2>/dev/null
expect_eq "$(runs)" 1 "another keelcc binary: compiled"

# ---- not cached ----
cat >d.c <<'EOF'
const char *when(void) { return __DATE__ " " __TIME__; }
void d(double *y, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = 2 * i;
}
EOF
settle
cc_count d.o -O2 -c d.c >/dev/null
expect_eq "$(cc_count d.o -O2 -c d.c)" "0 1" "__DATE__: always compiled"
cc_count k.o -O2 -MD -c k.c >/dev/null
rm -f k.d
expect_eq "$(cc_count k.o -O2 -MD -c k.c)" "0 1" "-MD: always compiled"
expect_eq "$(grep -c 'k\.c' k.d 2>/dev/null)" 1 "-MD: the dependency file written"# arguments outside the allow-list: the command line recorded in the
# object (it would hold the dependency file's temporary name), the host's
# CPU, a compilation database fragment
for a in -frecord-command-line -march=native "-gen-cdb-fragment-path $work/cdb"; do
    cc_count k.o -O2 $a -c k.c >/dev/null
    expect_eq "$(cc_count k.o -O2 $a -c k.c)" "0 1" "$a: always compiled"
done

# ---- compile and link: each source's object cached, then the link ----
cat >m.c <<'EOF'
#include <stdio.h>
#ifdef __OPTIMIZE__
#include "opt.h"
#else
#define BIAS 0
#endif
void k(double *, const double *, int);
int main(int argc, char **argv)
{
    double x[100], y[100];
    int n = 90 + argc, unused;
    (void)argv;
    for (int i = 0; i < 100; i++)
        x[i] = i;
    k(y, x, n);
    printf("%g\n", y[n - 1] + BIAS);
    return 0;
}
EOF
settle
link() { rm -f runs; "$KC" -O2 -Wall m.c k.c -o "$1" -lm 2>err.txt; echo "$? $(runs)"; }
# (the compiler runs once more for the link object, the first time)
expect_eq "$(link prog)" "0 2" "link, cold: one command"
cp err.txt link-cold.txt
expect_eq "$(grep -c "unused variable 'unused'" link-cold.txt)" 1 "link, cold: the warning"
expect_eq "$(link prog)" "0 3" "link, first rebuild: each source alone, then the link"
expect_eq "$(cat err.txt)" "$(cat link-cold.txt)" "link, first rebuild: the same messages"
cp prog prog1
expect_eq "$(link prog)" "0 1" "link, unchanged rebuild: only the link"
expect_eq "$(cat err.txt)" "$(cat link-cold.txt)" "link, unchanged rebuild: the same messages"
KEEL_OBJCACHE=off "$KC" -O2 -Wall m.c k.c -o prog-ref -lm 2>/dev/null
expect_eq "$(same prog prog-ref)" same "link, hit: the program of a fresh build, byte for byte"
expect_eq "$(same prog1 prog-ref)" same "link, first rebuild: the program of a fresh build"
"$REAL_CC" -O2 m.c k.c -o plain -lm 2>/dev/null
expect_eq "$(./prog)" "$(./plain)" "link, hit: the program computes what clang-19's does"
KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./prog >/dev/null 2>v.txt
expect_eq "$(grep -c '^keel: k\.c:3 ' v.txt)" 1 "link, hit: the site decides: $(cat v.txt)"
printf '#define BIAS 3\n' >opt.h
settle
# (m.c reads opt.h under __OPTIMIZE__, and so does its -O2 parse: m.c misses
# direct mode, and the command runs as a cold build does, in one compiler run)
expect_eq "$(link prog)" "0 1" "link, header under __OPTIMIZE__: compiled as one command"
KEEL_OBJCACHE=off "$KC" -O2 -Wall m.c k.c -o prog-ref -lm 2>/dev/null
expect_eq "$(same prog prog-ref)" same "link, changed header: the program of a fresh build"
rm -f runs
"$KC" -O2 m.c k.c -o prog -lnosuchlib 2>err.txt
expect_eq "$?" 1 "link that fails: the compiler's status"
expect_eq "$(grep -c 'nosuchlib' err.txt)" 1 "link that fails: its error once: $(cat err.txt)"

# ---- a corrupt entry: a miss, no message, replaced ----
n0=$(ls k.db.objcache | wc -l | tr -d ' ')
cc_count k.o -O2 -Wall -c k.c >/dev/null
for e in k.db.objcache/*; do
    size=$(wc -c <"$e")
    printf 'X' | dd of="$e" bs=1 seek=$((size - 60)) conv=notrunc 2>/dev/null
done
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 1" "corrupt entry: compiled"
expect_eq "$(cat err.txt)" "" "corrupt entry: no message"
fresh ref.o -O2 -Wall -c k.c
expect_eq "$(same k.o ref.o)" same "corrupt entry: a fresh compile's object"
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 0" "corrupt entry replaced: hit"
for e in k.db.objcache/*; do : >"$e"; done
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 1" "empty entry: compiled"
expect_eq "$(same k.o ref.o)" same "empty entry: a fresh compile's object"
expect_eq "$(ls k.db.objcache | wc -l | tr -d ' ')" "$n0" "no entry more than before"

# ---- an entry that cannot be written: one warning ----
export KEEL_DB="$work/k2.db"
: >k2.db.objcache            # a file where the folder would be
cc_count k.o -O2 -Wall -c k.c >/dev/null
expect_eq "$(grep -c 'object cache' err.txt)" 1 "unwritable cache: one warning"
expect_eq "$(grep -c 'error' err.txt)" 0 "unwritable cache: no error"
cp k.o k2.o
fresh ref.o -O2 -Wall -c k.c
expect_eq "$(same k2.o ref.o)" same "unwritable cache: a fresh compile's object"
expect_eq "$(cc_count k.o -O2 -Wall -c k.c)" "0 1" "unwritable cache: compiled"

# ---- bounded: KEEL_OBJCACHE_SIZE=0 keeps nothing ----
export KEEL_DB="$work/k3.db"
KEEL_OBJCACHE_SIZE=0 cc_count k.o -O2 -Wall -c k.c >/dev/null
expect_eq "$(ls k3.db.objcache | wc -l | tr -d ' ')" 0 "KEEL_OBJCACHE_SIZE=0: no entry kept"

# ---- concurrent writers: a whole entry ----
export KEEL_DB="$work/k4.db"
"$KC" -O2 -c k.c -o k.o 2>/dev/null
rm -rf k4.db.objcache
for i in 1 2 3 4; do "$KC" -O2 -c k.c -o k.o 2>/dev/null & done
wait
expect_eq "$(ls -A k4.db.objcache | wc -l | tr -d ' ')" 1 "concurrent writers: one entry, no temporary"
expect_eq "$(cc_count k.o -O2 -c k.c)" "0 0" "concurrent writers: hit"
fresh ref.o -O2 -c k.c
expect_eq "$(same k.o ref.o)" same "concurrent writers: a fresh compile's object"

finish objcache
