#!/bin/bash
# parse-flags.sh BIN SRC -- keel's parse accepts what the compile accepted:
# the compile's -W (-Wno-error=...), -w, -pedantic and C dialect -f flags
# reach the libclang parse, so old-style C that the command lets through
# (implicit int, implicit function declarations) is analysed, and the
# build's stderr is clang-19's (no "analysis skipped" warning); keel scan
# --extra-arg=ARG (repeatable) adds flags to every entry.  A C++ or
# preprocessed source compiled with keelcc gets one warning naming why it is
# not analysed.
set -u
BIN=$(cd "$1" && pwd)
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC KEEL_LOG
export KEEL_MCA=off
work=$(mktemp -d "${TMPDIR:-/tmp}/parseflags-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
cat >old.c <<'C'
static double v[1000];
scale(n, f)
    double f;
{
    int i;
    for (i = 0; i < n; i++)
        v[i] = v[i] * f;
    return 0;
}
main()
{
    int i, s = 0;
    for (i = 0; i < 1000; i++)
        v[i] = i;
    scale(1000, 0.5);
    for (i = 0; i < 1000; i++)
        s += (int)v[i];
    report(s);
    return 0;
}
report(int s) { return s > 0; }
C
# FLAGS...: clang-19 and keelcc give the same exit status and stderr, and
# keel recorded want loops
check() {
    local want=$1; shift
    rm -f k.db
    clang-19 "$@" -c old.c -o r.o 2>r.err; rr=$?
    "$BIN/keelcc" --keel-db=k.db "$@" -c old.c -o k.o 2>k.err; kr=$?
    expect_eq "$kr" "$rr" "[$*] exit status"
    diff r.err k.err >d.txt && ok || bad "[$*] stderr differs: $(head -c 400 d.txt)"
    expect_eq "$(sqlite3 k.db 'SELECT count(*) FROM loops' 2>/dev/null)" "$want" "[$*] loops recorded"
}
check 3 -O1 -Wno-error=implicit-int -Wno-error=implicit-function-declaration
check 3 -O1 -Wno-implicit-int -Wno-implicit-function-declaration -Wno-deprecated-non-prototype
check 3 -O1 -w -Wno-error=implicit-int -Wno-error=implicit-function-declaration
check 3 -O1 -std=gnu89
check 3 -O1 -std=c89 -Wall -Wextra
# the compile fails: nothing recorded, no word from keel
check "" -O1
# keel scan --extra-arg=...: appended to every entry's arguments, in order
mkdir -p proj && cp old.c proj/ && cat >proj/compile_commands.json <<J
[{"directory": "$work/proj", "file": "old.c", "command": "clang-19 -O1 -c old.c -o old.o"}]
J
"$BIN/keel" scan -p proj --no-mca s1.db >s1.out 2>&1
expect_eq "$?" 1 "scan without the flags fails on old.c"
expect_eq "$(sqlite3 s1.db 'SELECT count(*) FROM loops')" 0 "scan without the flags: loops"
"$BIN/keel" scan -p proj --no-mca --extra-arg=-Wno-error=implicit-int \
    --extra-arg -Wno-error=implicit-function-declaration s2.db >s2.out 2>&1
expect_eq "$?" 0 "scan --extra-arg: exit status ($(tail -1 s2.out))"
expect_eq "$(sqlite3 s2.db 'SELECT count(*) FROM loops')" 3 "scan --extra-arg: loops"
"$BIN/keel" scan -p proj --no-mca --extra-arg=-Wno-error=implicit-int s3.db >s3.out 2>&1
expect_eq "$?" 1 "scan with one of the two flags"
# inputs that are sources but not C: one warning each, naming the reason;
# the compile as clang-19's
printf 'int twice(int x) { return 2 * x; }\n' >t.cpp
clang-19 -E -w old.c -o old.i
"$BIN/keelcc" --keel-db=n.db -c t.cpp -o t.o 2>n.err; expect_eq "$?" 0 "t.cpp: exit status"
expect_eq "$(cat n.err)" "keelcc: warning: t.cpp: not analysed: not C (keel analyses C only)" "t.cpp: warning"
"$BIN/keelcc" --keel-db=n.db -x c++ -c t.cpp -o t2.o 2>n.err
expect_eq "$(cat n.err)" "keelcc: warning: t.cpp: not analysed: not C (keel analyses C only)" "-x c++: warning"
# preprocessed C is analysed, its loops stored where its line markers say
"$BIN/keelcc" --keel-db=n.db -std=gnu89 -w -c old.i -o i.o 2>n.err; expect_eq "$?" 0 "old.i: exit status"
expect_eq "$(cat n.err)" "" "old.i: analysed, no warning"
expect_eq "$(sqlite3 n.db "SELECT group_concat(line) FROM loops WHERE file LIKE '%/old.c'")" 6,13,16 \
    "old.i: its loops stored at old.c:6, 13, 16"
"$BIN/keelcc" --keel-db=n.db --keel-instrument=off -std=gnu89 -w -c old.i -o i.o 2>n.err
clang-19 -std=gnu89 -w -c old.i -o ri.o && cmp -s i.o ri.o && ok || bad "old.i: object differs from clang-19's"
"$BIN/keelcc" --keel-db=n.db --keel-quiet -c t.cpp -o t.o 2>n.err
expect_eq "$(cat n.err)" "" "--keel-quiet: no warning"
finish
