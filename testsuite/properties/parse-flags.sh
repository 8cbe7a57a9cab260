#!/bin/bash
# parse-flags.sh BIN SRC -- keel's parse accepts what the compile accepted:
# the compile's -W (-Wno-error=...), -w, -pedantic and C dialect -f flags
# reach the libclang parse, so old-style C that the command lets through
# (implicit int, implicit function declarations) is analysed, and the
# build's stderr is clang-19's (no "analysis skipped" warning).
set -u
BIN=$(cd "$1" && pwd)
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC KEEL_LOG
export KEEL_MCA=off
work=$(mktemp -d "${TMPDIR:-/tmp}/parseflags-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect_eq() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', want '$2'"; }
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
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
