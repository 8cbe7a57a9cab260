# lib.sh -- what the shell tests share: counting checks and the summary.
#
# A test script sources it once, before its first check:
#
#     . "$(dirname "$0")/../lib.sh"
#
# ($0 is the absolute path ctest gives), then counts each check with `ok`
# or `bad WHY` (or `expect_eq GOT WANT WHAT`) and ends with `finish
# [NAME]`, whose status is the test's: 0 when no check failed.  Each
# failed check prints one line "FAIL: WHY" on standard output, so a
# failing test names every check that failed, not only the first.
# POSIX sh: the tests run under dash as well as bash.

pass=0
fail=0

# One check passed.
ok() { pass=$((pass + 1)); }

# One check failed: "FAIL: " and the words given.
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# expect_eq GOT WANT WHAT: passes when GOT is WANT, else says both.
expect_eq() {
    if [ "$1" = "$2" ]; then ok; else bad "$3: got '$1', want '$2'"; fi
}

# finish [NAME]: print "[NAME: ]P passed, F failed"; status 0 when F is 0.
finish() {
    echo "${1:+$1: }$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
