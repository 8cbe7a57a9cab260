#!/bin/sh
# install.sh BUILD -- `cmake --install` (what `make install` runs) into a
# DESTDIR: every file is there (keel, keelcc, libkeelrt with keelrt.h and
# keelrt.pc, keelcc's walker module, three man pages, bash completion), the
# installed keelcc builds a program with the installed runtime and walker --
# found next to itself, not in the build tree -- and the program decides
# per launch; keelrt.pc gives a hand-written program the header and library.
BUILD=$(cd "$1" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"

DESTDIR=$work/root cmake --install "$BUILD" --prefix /opt/keel >install.log 2>&1
expect_eq "$?" 0 "cmake --install"
P=$work/root/opt/keel
for f in bin/keel bin/keelcc include/keelrt.h lib/libkeelrt.a lib/libkeelrt.so \
         lib/libkeelrt.so.0 lib/keelcc-walker.so lib/pkgconfig/keelrt.pc \
         share/man/man1/keel.1 share/man/man1/keelcc.1 share/man/man3/libkeelrt.3 \
         share/bash-completion/completions/keel share/bash-completion/completions/keelcc; do
    [ -f "$P/$f" ] && ok || bad "not installed: $f"
done
for x in bin/keel bin/keelcc; do
    [ -x "$P/$x" ] && ok || bad "not executable: $x"
done
expect_eq "$(head -c 2 "$P/share/man/man1/keel.1")" '.\' "keel.1 is roff"
expect_eq "$(grep -c '^\.TH KEELCC 1' "$P/share/man/man1/keelcc.1")" 1 "keelcc.1 title"
expect_eq "$(grep -c '^\.TH LIBKEELRT 3' "$P/share/man/man3/libkeelrt.3")" 1 "libkeelrt.3 title"
for m in man1/keel.1 man1/keelcc.1 man3/libkeelrt.3; do
    expect_eq "$(groff -man -ww -z "$P/share/man/$m" 2>&1)" "" "groff warnings in $m"
done
expect_eq "$(bash -c ". '$P/share/bash-completion/completions/keel'; complete -p keel keelcc" 2>&1 | wc -l)" 2 \
    "completion registers keel and keelcc"

# The installed tree moved elsewhere still works: everything is relative.
mv "$P" "$work/moved"
P=$work/moved
expect_eq "$("$P/bin/keel" --version 2>&1 | grep -c '^keel ')" 1 "installed keel --version"

cat >axpy.c <<'SRC'
#include <stdio.h>
int main(int argc, char **argv)
{
    (void)argv;
    static double x[5000], y[5000];
    int n = 4999 + argc;
    for (int i = 0; i < n; i++)
        x[i] = i, y[i] = 1;
    for (int i = 0; i < n; i++)
        y[i] += 2 * x[i];
    printf("%.1f\n", y[n - 1]);
    return 0;
}
SRC
# -Wl,--trace names every file the linker reads, LD_DEBUG=files every
# library loaded: the runtime and the walker must come from the installed tree.
LD_DEBUG=files "$P/bin/keelcc" --keel-db="$work/k.db" --keel-mca=off -O2 axpy.c -o axpy \
    -Wl,--trace >trace.txt 2>debug.txt
expect_eq "$?" 0 "installed keelcc: build"
expect_eq "$(grep -c "^$P/bin/../lib/libkeelrt.a" trace.txt)" 1 "linked the installed libkeelrt.a"
expect_eq "$(grep -c "$BUILD" trace.txt)" 0 "nothing linked from the build tree"
expect_eq "$(grep -c "file=$P/bin/../lib/keelcc-walker.so .*dynamically loaded by" debug.txt)" 1 \
    "loaded the installed walker"
expect_eq "$(grep 'file=.*keelcc-walker' debug.txt | grep -c "$BUILD")" 0 "no walker from the build tree"
expect_eq "$(./axpy)" 9999.0 "program built by the installed keelcc: output"
v=$(KEEL_VERBOSE=2 KEEL_DEVICE=h100 ./axpy 2>&1 >/dev/null | grep -c '^keel: .*axpy.c:.* main .*-> ')
[ "$v" -ge 1 ] && ok || bad "installed runtime: no verdict line"
expect_eq "$("$P/bin/keel" loops --json "$work/k.db" | tr '{' '\n' | grep -c '"loop_id"')" 2 \
    "installed keel reads the database: 2 loops"

# keelrt.pc: a program calling keel_decide by hand
cat >hand.c <<'SRC'
#include <stdio.h>
#include <keelrt.h>
int main(void)
{
    static keel_site site = { "no-such.db", "hand.c", 1, 1, 0, 0, 0 };
    printf("%d\n", keel_decide(&site, 0));
    return 0;
}
SRC
PKG_CONFIG_PATH=$P/lib/pkgconfig
export PKG_CONFIG_PATH
flags=$(pkg-config --cflags --libs --static keelrt)
expect_eq "$?" 0 "pkg-config keelrt"
# shellcheck disable=SC2086
clang-19 hand.c $flags -o hand 2>err.txt
expect_eq "$?:$(cat err.txt)" "0:" "hand.c built with keelrt.pc"
expect_eq "$(LD_LIBRARY_PATH=$P/lib ./hand 2>&1)" 0 "keel_decide without a database: CPU"
echo "install: $pass passed, $fail failed"
[ "$fail" = 0 ]
