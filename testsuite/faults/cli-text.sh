#!/bin/bash
# cli-text.sh BIN SRC -- what keel's text output and one-line errors say:
#   - a stored name holding control bytes (ESC, BEL, CR, a line break) is
#     printed escaped (\x1b, \x07, \x0d, \n): no raw control byte reaches the
#     terminal, and each table row stays one line;
#   - an error about a path that cannot be opened names the real cause
#     (errno as fopen left it, not as closing the database left it).
# Prints "FAIL: ..." per failed check; exit status 1 when any failed.
set -u
BIN=$(cd "$1" && pwd)
KEELCC=$BIN/keelcc KEEL=$BIN/keel
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC KEEL_LOG
export KEEL_MCA=off
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-clitext-XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"

# ---- control bytes in stored names --------------------------------------------
odd=$(printf 'a\033]0;title\007b\rc.c')
brk=$(printf 'sum\nof.c')
printf 'void s(int n, float *x) {\n  for (int i = 0; i < n; i++)\n    x[i] += 1.0f;\n}\n' >"$odd"
printf 'void t(int n, int *y) {\n  for (int i = 0; i < n; i++) y[i] = 0;\n}\n' >"$brk"
for f in "$odd" "$brk"; do
    "$KEELCC" --keel-db=k.db -c "$f" -o o.o 2>/dev/null || bad "keelcc failed on a name with control bytes"
done
"$KEEL" loops k.db >loops.txt 2>err.txt; expect_eq $? 0 "keel loops: exit status"
expect_eq "$(tr -d '\n' <loops.txt | tr -cd '\000-\037\177' | wc -c)" 0 "keel loops: raw control bytes"
expect_eq "$(wc -l <loops.txt)" 3 "keel loops: one line a loop, and the header"
grep -qF 'a\x1b]0;title\x07b\x0dc.c:2' loops.txt && ok || bad "keel loops: escaped name: $(cat -v loops.txt)"
grep -qF 'sum\nof.c:2' loops.txt && ok || bad "keel loops: escaped line break: $(cat -v loops.txt)"
"$KEEL" show "$brk:2" k.db >show.txt 2>&1; expect_eq $? 0 "keel show: exit status"
grep -q '^loop        sum\\nof\.c:2:3$' show.txt && ok || bad "keel show: $(head -1 show.txt | cat -v)"
"$KEEL" show "$odd:9" k.db >/dev/null 2>err.txt
expect_eq "$(wc -l <err.txt)" 1 "keel show, no loop: one line of error"
expect_eq "$(tr -d '\n' <err.txt | tr -cd '\000-\037\177' | wc -c)" 0 "keel show, no loop: raw control bytes"

# ---- the cause of an error -----------------------------------------------------
mkdir folder
"$KEEL" report --html folder k.db >/dev/null 2>err.txt
expect_eq "$(cat err.txt)" "keel: folder: cannot write: Is a directory" "report --html FOLDER"
"$KEEL" report --html "$work/no/such/r.html" k.db >/dev/null 2>err.txt
expect_eq "$(cat err.txt)" "keel: $work/no/such/r.html: cannot write: No such file or directory" \
    "report --html in a missing folder"
"$KEEL" history --add "$work/none.txt" k.db >/dev/null 2>err.txt
expect_eq "$(cat err.txt)" "keel: $work/none.txt: No such file or directory" "history --add MISSING"

finish
