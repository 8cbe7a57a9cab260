#!/bin/sh
# html-threads.sh BIN -- `keel report --html OUT --threads N` takes N as a
# whole number from 1 to 1048576 (as `keel explain --threads`), not atoi's
# reading: "8x", "", "-1", "0" and a number past the range are errors
# (exit 2, one message, no report written); issue 16's "--threads numbers
# silently clamped or wrapped".
set -u
BIN=$1
work=$(mktemp -d /tmp/keel-htmlthr-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export KEEL_MCA=off
. "$(dirname "$0")/../lib.sh"

printf 'void f(double *x, int n) { for (int i = 0; i < n; i++) x[i] = 2 * x[i]; }\n' >f.c
"$BIN/keelcc" --keel-db=k.db -c f.c -o f.o 2>/dev/null
for t in 8x "" -1 0 1048577 99999999999 4.5; do
    rm -f r.html
    "$BIN/keel" report --html r.html --threads="$t" k.db >/dev/null 2>err.txt
    expect_eq "$?:$(cat err.txt)" "2:keel: bad --threads '$t' (want 1 to 1048576)" "--threads='$t'"
    expect_eq "$(test -e r.html && echo written)" "" "--threads='$t': no report"
done
for t in 1 16 1048576; do
    rm -f r.html
    "$BIN/keel" report --html r.html --threads "$t" k.db >/dev/null 2>err.txt
    expect_eq "$?:$(cat err.txt)" "0:" "--threads $t"
    grep -q "$t thread" r.html && ok || bad "--threads $t: the report does not say $t threads"
done
finish html-threads
