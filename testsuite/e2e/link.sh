#!/bin/sh
# link.sh BINDIR SRCDIR -- how keelcc links libkeelrt into what it builds:
# a `-x c` / `-xc` / `--language=c` given before the sources (also with the
# source on stdin) still links, as with the compiler alone (libkeelrt.a
# must not be read as C source).  One runtime per process: a shared library
# built with keelcc exports only its own symbols, needs libkeelrt rather
# than libsqlite3, and shares the runtime of the executable that loads it
# (at start or with dlopen): one warning per cause, not one per module.
BIN=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
KC="$BIN/keelcc --keel-db=$work/k.db --keel-mca=off"

cat >sum.c <<'SRC'
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argv;
    long s = 0;
    int n = 1000 + argc;
    for (int i = 0; i < n; i++)
        s += i;
    printf("%ld\n", s);
    return 0;
}
SRC
for opt in "-x c" "-xc" "--language=c" "--language c"; do
    rm -f a.out
    $KC $opt sum.c -o a.out 2>err.txt
    expect_eq "$?" 0 "keelcc $opt sum.c: exit status"
    expect_eq "$(./a.out 2>&1)" 500500 "keelcc $opt sum.c: output"
    expect_eq "$(grep -c 'libkeelrt' err.txt)" 0 "keelcc $opt sum.c: no error about libkeelrt"
    rm -f b.out
    $KC $opt - -o b.out <sum.c 2>err.txt
    expect_eq "$?" 0 "keelcc $opt - (stdin): exit status"
    expect_eq "$(./b.out 2>&1)" 500500 "keelcc $opt - (stdin): output"
done
# -x c then -x none and an object: still links
"$BIN/keelcc" --keel-db="$work/k.db" --keel-mca=off -c sum.c -o sum.o
$KC -x c -x none sum.o -o c.out 2>err.txt
expect_eq "$(./c.out 2>&1)" 500500 "-x c -x none sum.o"

# ---- shared libraries ----------------------------------------------------
cat >vsum.c <<'SRC'
double vsum(const double *x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    return s;
}
void vfill(double *x, int n)
{
    for (int i = 0; i < n; i++)
        x[i] = i;
}
SRC
cat >vsum.map <<'SRC'
{ global: vsum; vfill; local: *; };
SRC
cat >usevsum.c <<'SRC'
#include <stdio.h>
double vsum(const double *x, int n);
void vfill(double *x, int n);
int main(void)
{
    double x[64];
    double y = 0;
    for (int i = 0; i < 64; i++)
        y += i;
    vfill(x, 64);
    printf("%g %g\n", vsum(x, 64), y);
    return 0;
}
SRC
cat >dlvsum.c <<'SRC'
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
    double x[32], y = 0;
    for (int i = 0; i < 32; i++)
        y += i;
    void *h = dlopen("./libvsum.so", RTLD_NOW);
    if (!h)
        return 1;
    void (*fill)(double *, int) = (void (*)(double *, int))dlsym(h, "vfill");
    double (*sum)(const double *, int) = (double (*)(const double *, int))dlsym(h, "vsum");
    fill(x, 32);
    printf("%g %g\n", sum(x, 32), y);
    return 0;
}
SRC
$KC -O2 -fPIC -shared vsum.c -Wl,--version-script=vsum.map -o libvsum.so
expect_eq "$(nm -D --defined-only libvsum.so | awk '{ print $3 }' | sort | tr '\n' ' ')" "vfill vsum " \
    "libvsum.so (version script) exports only its own symbols"
$KC -O2 -fPIC -shared vsum.c -o libvsum2.so
expect_eq "$(nm -D --defined-only libvsum2.so | grep -ci keel)" 0 "libvsum2.so exports no keel symbol"
expect_eq "$(readelf -d libvsum.so | grep NEEDED | grep -c sqlite)" 0 "libvsum.so does not need libsqlite3"
expect_eq "$(readelf -d libvsum.so | grep NEEDED | grep -c 'libkeelrt')" 1 "libvsum.so needs libkeelrt"
$KC -O2 usevsum.c -L. -lvsum -Wl,-rpath,"$work" -o usevsum
expect_eq "$(./usevsum)" "2016 2016" "executable + library: output"
expect_eq "$(nm -D --defined-only usevsum | grep -c ' keel_decide$')" 1 "executable exports keel_decide"
# a database that is not there: one warning for the whole process
expect_eq "$(KEEL_DB="$work/none.db" KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./usevsum 2>&1 | grep -c '^keel: warning:')" 1 \
    "executable + library: one runtime, one warning"
expect_eq "$(KEEL_DB="$work/none.db" KEEL_DEVICE=h100 ./usevsum 2>&1)" "2016 2016" "executable + library: silent"
$KC -O2 dlvsum.c -ldl -o dlvsum
expect_eq "$(./dlvsum)" "496 496" "dlopen: output"
expect_eq "$(KEEL_DB="$work/none.db" KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./dlvsum 2>&1 | grep -c '^keel: warning:')" 1 \
    "dlopen: one runtime, one warning"
# a plain program (clang-19) using the keelcc-built library: it works alone
clang-19 -O2 usevsum.c -L. -lvsum -Wl,-rpath,"$work" -o usevsum.ref
expect_eq "$(KEEL_DB="$work/none.db" ./usevsum.ref 2>&1)" "2016 2016" "clang-19 program + keelcc library"
# a relocatable link carries no runtime: the final link adds it
$KC -O2 -c vsum.c -o vsum.o && $KC -r vsum.o -o vsum_r.o
expect_eq "$(nm --defined-only vsum_r.o | grep -c ' keel_decide$')" 0 "-r: no runtime inside"

finish
