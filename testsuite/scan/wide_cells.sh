#!/bin/sh
# wide_cells.sh BIN -- keel loops --wide with a cell far wider than the
# rest (a function name of 150 characters): the long cell is cut to 120
# characters ("..." at its end), the other rows are not padded to it, and
# --json keeps the cell whole.  A location longer than that is printed
# whole and moves its own row only.
BIN=$1
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/keel-wide-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
long=f$(printf '%0149d' 0 | tr 0 x)
cat >w.c <<EOS
void $long(double *a, int n)
{
    for (int i = 0; i < n; i++)
        a[i] = 0.0;
}

void short1(double *b, int m)
{
    for (int j = 0; j < m; j++)
        b[j] = 1.0;
}
EOS
KEEL_DB=k.db KEEL_MCA=off "$BIN/keelcc" -c w.c -o w.o 2>err.txt && ok || { bad "keelcc"; cat err.txt; }
"$BIN/keel" loops --wide k.db >wide.txt 2>&1 && ok || bad "loops --wide"
[ "$(wc -l <wide.txt)" = 3 ] && ok || { bad "header + 2 rows"; cat wide.txt; }
# the function cell: its first 117 characters and "..."
cell=$(grep '^w\.c:3 ' wide.txt | awk '{ print $2 }')
want=$(printf '%.117s...' "$long")
[ "$cell" = "$want" ] && ok || { bad "function cell cut to 120: '$cell'"; cat wide.txt; }
# the FUNCTION column is 120 wide: DEPTH starts at the same column in every row
c1=$(sed -n 1p wide.txt | awk '{ print index($0, "DEPTH") }')
c3=$(grep '^w\.c:9 ' wide.txt | awk '{ print index($0, "short1") + 122 }')
[ "$c1" = "$c3" ] && ok || { bad "DEPTH at $c1, short row's depth at $c3"; cat wide.txt; }
max=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' wide.txt)
[ "$max" -lt 240 ] && ok || { bad "rows $max wide"; cat wide.txt; }
# a location of 160 characters: whole, and the other rows keep LOCATION at 120
deep=$(printf '%0150d' 0 | tr 0 d)
mkdir "$deep" && cp w.c "$deep/w.c"
(cd "$deep" && KEEL_DB=../k2.db KEEL_MCA=off "$BIN/keelcc" -c w.c -o w.o 2>/dev/null)
cp w.c v.c && KEEL_DB=k2.db KEEL_MCA=off "$BIN/keelcc" -c v.c -o v.o 2>/dev/null
"$BIN/keel" loops --wide k2.db >wide2.txt 2>&1
grep -q "^$deep/w\.c:3  " wide2.txt && ok || { bad "long location whole"; cat wide2.txt; }
c1=$(sed -n 1p wide2.txt | awk '{ print index($0, "FUNCTION") }')
[ "$c1" = 123 ] && ok || { bad "LOCATION column $c1, want 123"; cat wide2.txt; }
# --json: whole
"$BIN/keel" loops --json k.db >loops.json 2>&1 && grep -q "\"function\":\"$long\"" loops.json \
    && ok || { bad "--json keeps the name whole"; cat loops.json; }
echo "wide cells: $pass passed, $fail failed"
[ $fail = 0 ]
