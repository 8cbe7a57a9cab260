#!/bin/sh
# regress.sh BIN SRC -- issue 15's regression tests: instrumented programs
# behave as the plain clang-19 -O1 builds and call libkeelrt only where a
# decision exists.
#
#  - unreachable-path.c (seeds 5079, 5343): the same output and exit status
#    as the plain build, where it used to crash;
#  - hot-launch.c (seed 1059): the same output as the plain build, and with
#    KEEL_VERBOSE=2 exactly the verdict lines of the decisions made: none for
#    the nest a goto leaves, one for the constant nest launched 1000 times,
#    two for the nest launched with n = 5 (1000 times) and n = 6.
set -u
BIN=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
T=$SRC/testsuite/csmith
work=$(mktemp -d /tmp/keel-csmith-XXXXXX)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"
cd "$work" || exit 1
unset KEEL_VERBOSE KEEL_FORCE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE OMP_TARGET_OFFLOAD

for prog in unreachable-path hot-launch; do
    clang-19 -O1 -w "$T/$prog.c" -o "$prog.plain" || bad "$prog: clang-19 failed"
    ./"$prog.plain" >"$prog.plain.out" 2>&1
    prc=$?
    for mode in report offload; do
        "$BIN/keelcc" --keel-db="$work/k.db" --keel-mca=off --keel-instrument=$mode -O1 -w \
            "$T/$prog.c" -o "$prog.$mode" 2>"$prog.$mode.err" || bad "$prog: keelcc ($mode) failed"
        expect_eq "$(cat "$prog.$mode.err")" "" "$prog: keelcc ($mode) warnings"
        ./"$prog.$mode" >"$prog.$mode.out" 2>&1
        expect_eq "$?" "$prc" "$prog ($mode): exit status"
        cmp -s "$prog.plain.out" "$prog.$mode.out" && ok ||
            bad "$prog ($mode): output '$(cat "$prog.$mode.out")', plain '$(cat "$prog.plain.out")'"
    done
done
expect_eq "$(cat unreachable-path.plain.out)" "g = 1" "plain unreachable-path"
expect_eq "$(cat hot-launch.plain.out)" "t = 3756500 a[3] = 1500" "plain hot-launch"

KEEL_VERBOSE=2 ./hot-launch.report >/dev/null 2>err.txt
expect_eq "$(grep -c '^keel: hot-launch.c:38 ' err.txt)" 0 "verdicts for the nest a goto leaves"
expect_eq "$(grep -c '^keel: hot-launch.c:20 ' err.txt)" 1 "verdicts for the constant nest"
expect_eq "$(grep -c '^keel: hot-launch.c:27 ' err.txt)" 2 "verdicts for the nest over n"
expect_eq "$(grep -c '^keel: ' err.txt)" 3 "verdict lines in all"
grep -q '^keel: hot-launch.c:27 .*n=6: ' err.txt && ok || bad "no verdict for n=6: $(cat err.txt)"

finish
