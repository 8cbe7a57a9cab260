#!/bin/sh
# no_assert_shipped.sh FILE... -- what keel ships is built with NDEBUG: no
# keel binary or library calls __assert_fail (keelcc runs the analyses in
# the user's build, which a failing assert must never stop).  The unit
# tests link checked twins of the libraries instead (test_assert_live).
# The first argument is a checked test binary, which must call it: proof
# that the check can fail.
set -u
checked=$1; shift
if ! nm -u "$checked" | grep -q '__assert_fail'; then
    echo "FAIL: $checked (a checked build) does not call __assert_fail"; exit 1
fi
bad=0
for f in "$@"; do
    if nm -u "$f" 2>/dev/null | grep -q '__assert_fail'; then
        echo "FAIL: $f calls __assert_fail (built without NDEBUG)"; bad=1
    fi
    if nm -A "$f" 2>/dev/null | grep -q ' U __assert_fail'; then
        echo "FAIL: a member of $f calls __assert_fail (built without NDEBUG)"; bad=1
    fi
done
[ $bad = 0 ] && echo "ok: $# shipped files without assert"
exit $bad
