#!/bin/sh
# long_functions.sh ROOT [LIMIT] -- the production functions of ROOT (C
# files outside testsuite/, bench/, polybench-inputs/ and build folders)
# longer than LIMIT lines (default 120), longest first: "LINES FILE:LINE NAME".
# A function runs from the line of its name to its closing brace in column
# 0 (keel's style: the opening brace alone in column 0).
#
# long_functions.sh --check ROOT [LIMIT] -- the rule as a test (ctest
# arch_long_functions): exit 1 when a function over LIMIT is not in
# ROOT/testsuite/arch/long_functions.allow, or when an entry there names
# a function that is no longer over LIMIT (a stale exception); each
# offender on one line.  The list holds the table-like functions, long on
# purpose: "FILE NAME  reason", '#' comments.
check=0
if [ "${1:-}" = --check ]; then
    check=1
    shift
fi
ROOT=${1:?usage: long_functions.sh [--check] ROOT [LIMIT]}
LIMIT=${2:-120}
cd "$ROOT" || exit 2
long=$(git ls-files -- '*.c' | grep -vE '^(testsuite|bench|polybench-inputs)/' |
while read -r f; do
    awk -v f="$f" -v limit="$LIMIT" '
      /^[A-Za-z_].*[A-Za-z0-9_]+\(/ && !/;[[:space:]]*$/ { sig = FNR; name = $0 }
      /^\{/ { start = sig; fname = name }
      /^\}/ && start { n = FNR - start + 1
                       if (n > limit) {
                           match(fname, /[A-Za-z0-9_]+\(/)
                           printf "%d %s:%d %s\n", n, f, start, substr(fname, RSTART, RLENGTH - 1)
                       }
                       start = 0 }' "$f"
done | sort -rn)
if [ "$check" = 0 ]; then
    [ -z "$long" ] || printf '%s\n' "$long"
    exit 0
fi
allow=testsuite/arch/long_functions.allow
[ -f "$allow" ] || allow=/dev/null
# "FILE NAME" of each over-long function, and of each exception
got=$(printf '%s\n' "$long" | awk 'NF { sub(/:[0-9]+$/, "", $2); print $2, $3 }')
ok=$(sed -e 's/#.*//' "$allow" | awk 'NF >= 2 { print $1, $2 }')
bad=0
for k in $(printf '%s\n' "$got" | tr ' ' '|'); do
    k=$(printf '%s' "$k" | tr '|' ' ')
    if ! printf '%s\n' "$ok" | grep -qxF "$k"; then
        printf '%s\n' "$long" | awk -v f="${k% *}" -v n="${k#* }" '
            { split($2, p, ":") } p[1] == f && $3 == n { print "over " limit ": " $0 }' limit="$LIMIT"
        bad=1
    fi
done
for k in $(printf '%s\n' "$ok" | tr ' ' '|'); do
    k=$(printf '%s' "$k" | tr '|' ' ')
    if ! printf '%s\n' "$got" | grep -qxF "$k"; then
        echo "stale exception in $allow: $k is not over $LIMIT lines"
        bad=1
    fi
done
[ "$bad" = 0 ] && echo "long_functions: no function over $LIMIT lines but the table-like ones listed"
exit "$bad"
