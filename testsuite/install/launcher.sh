#!/bin/sh
# launcher.sh BINDIR -- keelcc in the launcher form, `keelcc COMPILER args`,
# as ccache is used and as CMake runs CMAKE_C_COMPILER_LAUNCHER and
# CMAKE_C_LINKER_LAUNCHER: the named compiler is the real one (not an input
# file), the objects are instrumented, the link gets libkeelrt, and the
# program prints what the plain build prints.  A tiny CMake project built
# with both launchers links, runs, decides per launch and fills the database;
# so does one with the compiler launcher alone and libkeelrt from keelrt.pc
# on the link line, and one with keelcc as CMAKE_C_COMPILER.
BIN=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
CLANG=$(command -v clang-19)

mkdir src
cat >src/kern.c <<'SRC'
void scale(double *x, int n, double a)
{
    for (int i = 0; i < n; i++)
        x[i] = a * x[i];
}
SRC
cat >src/main.c <<'SRC'
#include <stdio.h>
void scale(double *x, int n, double a);
int main(void)
{
    static double x[4096];
    int n = 4096;
    for (int i = 0; i < n; i++)
        x[i] = i;
    scale(x, n, 0.5);
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    printf("%.1f\n", s);
    return 0;
}
SRC
want=$(clang-19 -O2 src/main.c src/kern.c -o plain && ./plain)
expect_eq "$want" 4193280.0 "plain clang-19 build"

# ---- by hand: keelcc clang-19 -c, keelcc /usr/bin/clang-19 (link) ----------
for cc in clang-19 "$CLANG"; do
    rm -f k.db ./*.o prog
    KEEL_DB=$work/k.db "$BIN/keelcc" "$cc" -O2 -c src/kern.c -o kern.o 2>err.txt
    expect_eq "$?:$(cat err.txt)" "0:" "keelcc $cc -c kern.c"
    KEEL_DB=$work/k.db "$BIN/keelcc" --keel-mca=off "$cc" -O2 -c src/main.c -o main.o 2>err.txt
    expect_eq "$?:$(cat err.txt)" "0:" "keelcc --keel-mca=off $cc -c main.c"
    KEEL_DB=$work/k.db "$BIN/keelcc" "$cc" main.o kern.o -o prog 2>err.txt
    expect_eq "$?:$(cat err.txt)" "0:" "keelcc $cc main.o kern.o (link)"
    expect_eq "$(./prog 2>&1)" "$want" "launcher-form program: output"
    n=$("$BIN/keel" loops --json "$work/k.db" | tr '{' '\n' | grep -c '"loop_id"')
    expect_eq "$n" 3 "launcher form: loops in the database"
    v=$(KEEL_VERBOSE=2 KEEL_DEVICE=h100 ./prog 2>&1 >/dev/null | grep -c '^keel: .*kern.c:3 scale .*-> ')
    expect_eq "$v" 1 "launcher form: a verdict for scale's loop (libkeelrt linked)"
done
# keel options before the compiler; a source with execute permission first
# is an input, not a compiler
rm -f k.db a.out
cp src/kern.c kx.c && chmod +x kx.c
"$BIN/keelcc" --keel-db="$work/k.db" --keel-mca=off "$CLANG" -c kx.c -o kx.o 2>err.txt
expect_eq "$?:$(cat err.txt)" "0:" "keelcc --keel-db=... /path/clang-19 -c"
"$BIN/keelcc" --keel-db="$work/k.db" --keel-mca=off kx.c -c -o ky.o 2>err.txt
expect_eq "$?:$(cat err.txt)" "0:" "keelcc kx.c (executable source) -c"
expect_eq "$(sqlite3 "$work/k.db" 'SELECT count(*) FROM translation_units')" 1 "kx.c recorded once"
# not a compiler, not a file: the compiler's own error and status
"$BIN/keelcc" --keel-db="$work/k.db" no-such-cc -c kx.c 2>err.txt
rc=$?
clang-19 no-such-cc -c kx.c 2>/dev/null
expect_eq "$rc" "$?" "keelcc no-such-cc: clang-19's exit status"

# ---- CMake: both launchers --------------------------------------------------
if command -v cmake >/dev/null; then
    cat >src/CMakeLists.txt <<'SRC'
cmake_minimum_required(VERSION 3.21)
project(tiny C)
add_executable(tiny main.c kern.c)
SRC
    KEEL_DB=$work/c.db cmake -S src -B cb -DCMAKE_C_COMPILER=clang-19 \
        -DCMAKE_C_COMPILER_LAUNCHER="$BIN/keelcc" \
        -DCMAKE_C_LINKER_LAUNCHER="$BIN/keelcc" \
        -DCMAKE_BUILD_TYPE=Release >cmake.log 2>&1
    expect_eq "$?" 0 "cmake configure with keelcc as launcher"
    KEEL_DB=$work/c.db cmake --build cb >build.log 2>&1
    rc=$?
    expect_eq "$rc" 0 "cmake --build with keelcc as launcher"
    [ "$rc" = 0 ] || cat build.log >&2
    expect_eq "$(./cb/tiny 2>&1)" "$want" "CMake-built program: output"
    v=$(KEEL_VERBOSE=2 KEEL_DEVICE=h100 ./cb/tiny 2>&1 >/dev/null | grep -c '^keel: .*kern.c:3 scale .*-> ')
    expect_eq "$v" 1 "CMake-built program: a verdict for scale's loop"
    expect_eq "$(sqlite3 "$work/c.db" 'SELECT count(*) FROM translation_units')" 2 "CMake build: two sources recorded"
    expect_eq "$(grep -c 'keelcc: warning' build.log)" 0 "CMake build: no keelcc warning"
    # the compiler launcher alone: CMake links without keelcc, so the link
    # gets libkeelrt from keelrt.pc (the build tree's)
    PKG_CONFIG_PATH=$BIN/../lib/pkgconfig
    export PKG_CONFIG_PATH
    libdir=$(pkg-config --variable=libdir keelrt)
    KEEL_DB=$work/d.db cmake -S src -B db -DCMAKE_C_COMPILER=clang-19 \
        -DCMAKE_C_COMPILER_LAUNCHER="$BIN/keelcc" \
        -DCMAKE_C_STANDARD_LIBRARIES="$(pkg-config --libs keelrt) -Wl,-rpath,$libdir" \
        >cmake.log 2>&1
    KEEL_DB=$work/d.db cmake --build db >build.log 2>&1
    rc=$?
    expect_eq "$rc" 0 "cmake --build, compiler launcher + keelrt.pc"
    [ "$rc" = 0 ] || cat build.log >&2
    v=$(KEEL_VERBOSE=2 KEEL_DEVICE=h100 ./db/tiny 2>&1 >/dev/null | grep -c '^keel: .*kern.c:3 scale .*-> ')
    expect_eq "$v" 1 "compiler launcher + keelrt.pc: a verdict for scale's loop"
    # keelcc as the compiler itself
    KEEL_DB=$work/e.db cmake -S src -B eb -DCMAKE_C_COMPILER="$BIN/keelcc" >cmake.log 2>&1
    KEEL_DB=$work/e.db cmake --build eb >build.log 2>&1
    expect_eq "$?" 0 "cmake --build, CMAKE_C_COMPILER=keelcc"
    expect_eq "$(./eb/tiny 2>&1)" "$want" "CMAKE_C_COMPILER=keelcc: output"
    expect_eq "$(sqlite3 "$work/e.db" "SELECT count(*) FROM translation_units WHERE path LIKE '%/src/%'")" 2 \
        "CMAKE_C_COMPILER=keelcc: both sources recorded"
else
    bad "cmake not installed (scripts/install-deps.sh installs it)"
fi
echo "launcher: $pass passed, $fail failed"
[ "$fail" = 0 ]
