#!/bin/sh
# scan.sh BIN SRCDIR -- keel scan -p over generated compile databases.
#
# A project of four C files -- one ordinary, one in a folder and with a file
# name that hold spaces (given as an `arguments` array behind ccache, with a
# -D the file needs), one that does not parse, one that includes a header
# of the project -- plus a C++ entry and a repeated entry, in the formats
# CMake (command string, escaped quotes), Bear (arguments array) and Meson
# (command with output) write.  Checks: the summary (files, loops, nests,
# the failure with its one-line reason), exit status 1 because of the
# failure, rows in the database per file, no object file written, stderr
# quiet when it is not a terminal and a progress line when it is, resume
# (a second scan analyses nothing, a changed file or changed flags are
# analysed again, --force analyses everything), -j1 == -j4, bad input, an
# entry whose directory is missing, keelcc's logs under $TMPDIR removed.
BIN=$(cd "$1" && pwd) || exit 1
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/keel-scan-XXXXXX) || exit 1
[ -n "$KEEP" ] || trap 'rm -rf "$tmp"' EXIT   # KEEP=1: leave the folder
cd "$tmp" && tmp=$(pwd -P) || exit 1
export KEEL_MCA=off     # llvm-mca is tested elsewhere; keep this test fast
unset KEEL_DB

mkdir -p "src dir" include build
cat > axpy.c <<'C'
#include "defs.h"
void axpy(int n, real a, real *x, real *y)
{
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}
C
cat > include/defs.h <<'C'
typedef double real;
C
cat > "src dir/mat mul.c" <<'C'
#ifndef SCALE
#error SCALE must be defined
#endif
void mm(int n, double A[n][n], double B[n][n], double C[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i][j] += SCALE * A[i][k] * B[k][j];
}
C
cat > broken.c <<'C'
void broken(int n, double *x)
{
    for (int i = 0; i < n; i++
        x[i] = 0;
}
C
cat > quoted.c <<'C'
#include <string.h>
void fill(int n, char *s)
{
    for (int i = 0; i < n; i++)
        s[i] = NAME[0];
}
C
echo 'int main() { return 0; }' > main.cpp

cat > build/compile_commands.json <<JSON
[
{"directory": "$tmp/build", "command": "/usr/bin/cc -I$tmp/include -O2 -o axpy.o -c $tmp/axpy.c", "file": "$tmp/axpy.c"},
{"directory": "$tmp", "arguments": ["ccache", "gcc", "-DSCALE=2.0", "-c", "src dir/mat mul.c", "-o", "build/mm.o"], "file": "src dir/mat mul.c", "output": "build/mm.o"},
{"directory": "$tmp", "command": "cc -c broken.c -o build/broken.o", "file": "broken.c"},
{"directory": "$tmp", "command": "cc '-DNAME=\"a b\"' -c quoted.c -o build/quoted.o", "file": "quoted.c", "output": "build/quoted.o"},
{"directory": "$tmp", "command": "c++ -c main.cpp -o build/main.o", "file": "main.cpp"},
{"directory": "$tmp/build", "command": "cc -I../include -c ../axpy.c -o axpy2.o", "file": "../axpy.c"}
]
JSON

"$BIN/keel" scan -p build -j2 k.db >out.txt 2>err.txt
rc=$?
[ $rc = 1 ] && ok || bad "scan with a failing file: exit 1, got $rc"
cat > want.txt <<'T'
keel scan: 4 C files in the compile database: 3 analysed, 0 unchanged (skipped), 1 failed
keel scan: 1 entries not C, 1 repeated files (first compile used)
not C:
  main.cpp: C++ source (.cpp): keel analyses C
keel scan: 5 loops in 3 nests in k.db
failed:
  broken.c: broken.c:4:9: error: expected ')'
T
cmp -s out.txt want.txt && ok || { bad "first scan summary"; diff want.txt out.txt; }
[ ! -s err.txt ] && ok || { bad "stderr not quiet off a terminal"; cat err.txt; }
ls build | grep -q '\.o$' && bad "scan wrote object files" || ok

q() { sqlite3 k.db "$1"; }
[ "$(q "SELECT status FROM translation_units WHERE path = '$tmp/src dir/mat mul.c'")" = ok ] \
    && ok || bad "file with spaces recorded"
[ "$(q "SELECT count(*) FROM loops l JOIN translation_units t ON t.id = l.tu_id
        WHERE t.path = '$tmp/src dir/mat mul.c'")" = 3 ] && ok || bad "mat mul.c: 3 loops"
[ "$(q "SELECT idioms FROM loops WHERE line = 8")" = "matmul,reduction" ] && ok || bad "matmul found"
[ "$(q "SELECT status || ':' || message FROM translation_units WHERE path = '$tmp/broken.c'")" \
    = "error:broken.c:4:9: error: expected ')'" ] && ok || bad "broken.c: error row"
[ "$(q "SELECT json_extract(args, '\$[0]') || '|' || directory FROM translation_units
        WHERE path = '$tmp/axpy.c'")" = "-I$tmp/include|$tmp/build" ] \
    && ok || bad "axpy.c: its own flags and directory (the first entry)"
[ "$(q "SELECT count(*) FROM loops l JOIN translation_units t ON t.id = l.tu_id
        WHERE t.path = '$tmp/quoted.c'")" = 1 ] && ok || bad "quoted.c: a -D with a quoted blank"
[ "$(q "SELECT count(*) FROM scan_state")" = 4 ] && ok || bad "scan_state: 4 rows"

# keelcc runs in the entry's directory, its output logged under $TMPDIR
# and removed: a missing directory is that file's one-line failure, and
# the broken file's reason still comes from its log
mkdir tmpd
cat > gone.json <<JSON
[
{"directory": "$tmp/no such dir", "command": "cc -c ../axpy.c", "file": "$tmp/axpy.c"},
{"directory": "$tmp", "command": "cc -c broken.c", "file": "broken.c"}
]
JSON
TMPDIR="$tmp/tmpd" "$BIN/keel" scan -p gone.json g.db >out.txt 2>&1
[ $? = 1 ] && ok || bad "missing directory: exit 1"
cat > want.txt <<T
keel scan: 2 C files in the compile database: 0 analysed, 0 unchanged (skipped), 2 failed
keel scan: 0 loops in 0 nests in g.db
failed:
  axpy.c: cannot run $BIN/keelcc in $tmp/no such dir: No such file or directory
  broken.c: broken.c:4:9: error: expected ')'
T
cmp -s out.txt want.txt && ok || { bad "missing directory summary"; diff want.txt out.txt; }
[ -z "$(ls tmpd)" ] && ok || bad "logs left in \$TMPDIR: $(ls tmpd)"

# resume: nothing changed
"$BIN/keel" scan -p build k.db >out.txt 2>&1
head -1 out.txt | grep -qx 'keel scan: 4 C files in the compile database: 0 analysed, 4 unchanged (skipped), 1 failed' \
    && ok || { bad "second scan skips everything"; cat out.txt; }
grep -qx "  broken.c: broken.c:4:9: error: expected ')' (unchanged since the last scan)" out.txt \
    && ok || bad "an unchanged failure is still reported"
# a changed source, then changed flags, are analysed again
echo '/* changed */' >> axpy.c
"$BIN/keel" scan -p build/compile_commands.json k.db >out.txt 2>&1
head -1 out.txt | grep -q ': 1 analysed, 3 unchanged' && ok || { bad "changed file rescanned"; cat out.txt; }
sed 's/-DSCALE=2.0/-DSCALE=3.0/' build/compile_commands.json > b2.json
"$BIN/keel" scan -p b2.json k.db >out.txt 2>&1
head -1 out.txt | grep -q ': 1 analysed, 3 unchanged' && ok || { bad "changed flags rescanned"; cat out.txt; }
# rows removed behind scan's back are analysed again
sqlite3 k.db "PRAGMA foreign_keys = ON; DELETE FROM translation_units WHERE path = '$tmp/quoted.c'"
"$BIN/keel" scan -p b2.json k.db >out.txt 2>&1
head -1 out.txt | grep -q ': 1 analysed, 3 unchanged' && ok || { bad "missing rows rescanned"; cat out.txt; }
"$BIN/keel" scan -p b2.json --force -j1 k.db >out.txt 2>&1
head -1 out.txt | grep -q ': 3 analysed, 0 unchanged (skipped), 1 failed' && ok || { bad "--force"; cat out.txt; }

# -j1 and -j4 fill the same rows
"$BIN/keel" scan -p build -j1 j1.db >/dev/null 2>&1
"$BIN/keel" scan -p build -j4 j4.db >/dev/null 2>&1
dump() { sqlite3 "$1" "SELECT t.path, l.line, l.col, l.idioms, l.parallel FROM loops l
                       JOIN translation_units t ON t.id = l.tu_id ORDER BY 1, 2, 3"; }
[ "$(dump j1.db)" = "$(dump j4.db)" ] && [ -n "$(dump j1.db)" ] && ok || bad "-j1 and -j4 differ"

# a progress line on a terminal (script gives the command a pty)
rm -f p.db
script -qec "'$BIN/keel' scan -p build -j1 p.db" /dev/null > tty.txt 2>&1
grep -q '\[1/4\]' tty.txt && grep -q '\[4/4\]' tty.txt && ok || { bad "progress line on a tty"; cat tty.txt; }

# bad input: one line, exit status
"$BIN/keel" scan k.db >out.txt 2>err.txt; rc=$?
[ $rc = 2 ] && grep -qx 'keel: scan needs -p BUILD_DIR (the folder of compile_commands.json)' err.txt \
    && ok || bad "scan without -p"
"$BIN/keel" scan -p nowhere k.db >out.txt 2>err.txt; rc=$?
[ $rc = 1 ] && grep -qx 'keel: nowhere/compile_commands.json: No such file or directory' err.txt \
    && ok || { bad "missing compile database"; cat err.txt; }
echo '{"not": "an array"}' > obj.json
"$BIN/keel" scan -p obj.json k.db >out.txt 2>err.txt; rc=$?
[ $rc = 1 ] && grep -qx 'keel: obj.json: not a compile database (want a JSON array)' err.txt \
    && ok || { bad "not an array"; cat err.txt; }
echo '[{"directory": "/tmp", "file": "x.c"}]' > nocmd.json
"$BIN/keel" scan -p nocmd.json k.db >out.txt 2>err.txt; rc=$?
[ $rc = 1 ] && grep -qx 'keel: nocmd.json: entry 0: needs directory, file and command or arguments' err.txt \
    && ok || { bad "entry without a command"; cat err.txt; }

# a real CMake project's database (CMake's own quoting of blanks and quotes)
mkdir -p cm/"my src"
cat > cm/CMakeLists.txt <<'C'
cmake_minimum_required(VERSION 3.13)
project(p C)
add_library(x STATIC "my src/k 1.c" plain.c)
target_compile_definitions(x PRIVATE "NAME=\"a b\"" N=100)
target_include_directories(x PRIVATE "my src")
C
printf '#include "h.h"\nvoid f(double *x)\n{\n    for (int i = 0; i < N; i++)\n        x[i] = NAME[1] + H;\n}\n' > "cm/my src/k 1.c"
echo '#define H 1' > "cm/my src/h.h"
printf 'void g(int n, double *y)\n{\n    for (int i = 0; i < n; i++)\n        y[i] = 0;\n}\n' > cm/plain.c
if cmake -S cm -B cm/b -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_C_COMPILER=clang-19 >cmake.txt 2>&1; then
    "$BIN/keel" scan -p cm/b cm.db >out.txt 2>&1
    head -1 out.txt | grep -qx 'keel scan: 2 C files in the compile database: 2 analysed, 0 unchanged (skipped), 0 failed' \
        && ok || { bad "CMake project"; cat out.txt; }
    [ "$(sqlite3 cm.db "SELECT trip FROM loop_summary WHERE file = '$tmp/cm/my src/k 1.c'")" = 100 ] \
        && ok || bad "CMake: -DN=100 seen"
else
    bad "cmake failed"; cat cmake.txt
fi

# keelcc under a launcher, as on a ccache / distcc build farm: KEEL_CC is a
# command of several words (env stands in for ccache where ccache is
# missing); the object is built, the status is the compiler's, rows land.
for launcher in env ccache; do
    command -v $launcher >/dev/null 2>&1 || continue
    rm -f l.db l.o
    CCACHE_DIR=$tmp/ccache KEEL_CC="$launcher clang-19" KEEL_INSTRUMENT=off \
        "$BIN/keelcc" --keel-db=l.db -O2 -c axpy.c -Iinclude -o l.o 2>err.txt; rc=$?
    [ $rc = 0 ] && [ -s l.o ] && [ ! -s err.txt ] && ok || { bad "KEEL_CC='$launcher clang-19': rc $rc"; cat err.txt; }
    [ "$(sqlite3 l.db "SELECT compiler || '|' || (SELECT count(*) FROM loops) FROM translation_units")" \
        = "$launcher clang-19|1" ] && ok || bad "KEEL_CC='$launcher clang-19': rows"
    CCACHE_DIR=$tmp/ccache KEEL_CC="$launcher clang-19" "$BIN/keelcc" --keel-db=l.db -c nosuch.c 2>/dev/null
    [ $? = 1 ] && ok || bad "KEEL_CC='$launcher clang-19': the compiler's status on failure"
done

# ... and a compiler whose path holds a blank is still one word
mkdir -p "my cc" && ln -s "$(command -v clang-19)" "my cc/clang"
rm -f l.o
KEEL_CC="$tmp/my cc/clang" KEEL_INSTRUMENT=off "$BIN/keelcc" --keel-db=l.db -c axpy.c -Iinclude -o l.o 2>err.txt \
    && [ -s l.o ] && ok || { bad "KEEL_CC with a blank in its path"; cat err.txt; }

echo "scan: $pass passed, $fail failed"
[ $fail = 0 ]
