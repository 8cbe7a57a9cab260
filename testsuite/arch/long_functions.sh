#!/bin/sh
# long_functions.sh ROOT [LIMIT] -- the production functions of ROOT (C
# files outside testsuite/, bench/, polybench-inputs/ and build folders)
# longer than LIMIT lines (default 120), longest first: "LINES FILE:LINE NAME".
# A function runs from the line of its name to its closing brace in column
# 0 (keel's style: the opening brace alone in column 0).  A report, not a
# test: table-like switches are long on purpose.
ROOT=${1:?usage: long_functions.sh ROOT [LIMIT]}
LIMIT=${2:-120}
cd "$ROOT" || exit 2
git ls-files -- '*.c' | grep -vE '^(testsuite|bench|polybench-inputs)/' |
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
done | sort -rn
