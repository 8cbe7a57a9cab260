#!/bin/sh
# link.sh BINDIR SRCDIR -- how keelcc links libkeelrt into what it builds:
# a `-x c` / `-xc` / `--language=c` given before the sources (also with the
# source on stdin) still links, as with the compiler alone (libkeelrt.a
# must not be read as C source).
BIN=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
expect_eq() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', want '$2'"; }
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

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
