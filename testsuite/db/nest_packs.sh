#!/bin/sh
# nest_packs.sh BIN -- the packed loop model keelcc stores with a build
# (schema 18, table nest_packs; analysis/nest_pack.h): one blob per launch
# site, the model keelcc built from its IR, which libkeelrt's database
# route decodes instead of reading the rows.  Checked: keelcc stores one
# per outermost loop and nothing else; the program's verdicts from the
# stored blobs are those from the rows (the blobs deleted); a database of
# schema 17 (no table) migrates at keelcc's next write, which stores the
# models of what it builds, the older nests deciding from their rows; a
# blob of an older format and a damaged blob decide from the rows alike;
# `keel merge` into a database with loops of its own moves the ids and
# writes each copied model again for them (the launch loop the blob names
# is its row's), and the merged database gives the same verdicts.  The
# what-if device (KEEL_DEVICE) needs no GPU.
BIN=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
cat >k.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
static void mm(int n, double a[n][n], double b[n][n], double c[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100;
    double (*a)[n] = calloc(n, sizeof *a), (*b)[n] = calloc(n, sizeof *b);
    double (*c)[n] = calloc(n, sizeof *c);
    for (int i = 0; i < n; i++)
        a[i][i] = b[i][i] = 1;
    mm(n, a, b, c);
    printf("%g\n", c[n - 1][n - 1]);
    return 0;
}
SRC
cat >o.c <<'SRC'
void ax(int n, double *x, const double *y)
{
    for (int i = 0; i < n; i++)
        x[i] = 2 * y[i] + x[i];
}
SRC
KC="$BIN/keelcc --keel-mca=off -O1"
$KC --keel-db="$work/k.db" -c k.c -o k.o 2>err.txt && $KC --keel-db="$work/k.db" k.o -o prog \
    2>>err.txt || bad "keelcc: $(cat err.txt)"
expect_eq "$(sqlite3 k.db "SELECT l.line FROM nest_packs p JOIN loops l ON l.id = p.loop_id
                           ORDER BY l.line" | tr '\n' ' ')" "5 18 " "one blob per outermost loop"
expect_eq "$(sqlite3 k.db "SELECT DISTINCT hex(substr(packed, 1, 12)) FROM nest_packs")" \
    "4B45454C4E45535403000000" "the model's format (KEELNEST, version 3)"
run() {   # run DB N: the program's output and KEEL_VERBOSE's lines, from the database
    env KEEL_FACTS=db KEEL_DB="$work/$1" KEEL_VERBOSE=1 KEEL_DEVICE=h100 KEEL_LOG=0 \
        ./prog "$2" 2>&1 | sed 's/^keel: [^ ]*k\.c:/k.c:/' | sort
}
run k.db 300 >ref300.txt
run k.db 4 >ref4.txt
expect_eq "$(grep -c 'k.c:5 mm.*GPU 1' ref300.txt)" 1 "n=300: GPU from the stored blob"
expect_eq "$(grep -c 'k.c:5 mm.*CPU 1' ref4.txt)" 1 "n=4: CPU from the stored blob"
cp k.db rows.db
sqlite3 rows.db "DELETE FROM nest_packs"
for n in 300 4; do
    expect_eq "$(run rows.db $n)" "$(cat ref$n.txt)" "n=$n: the rows give the blobs' verdicts"
done

# a database of schema 17: no table; keelcc's next write migrates it and
# stores the model of the nests it builds; the nests already there keep
# their rows (keelcc has no IR for them), which decide as the models do
cp k.db old.db
sqlite3 old.db "DROP TABLE nest_packs; PRAGMA user_version = 17"
$KC --keel-db="$work/old.db" -c o.c -o o.o 2>err.txt || bad "keelcc on schema 17: $(cat err.txt)"
expect_eq "$(sqlite3 old.db "PRAGMA user_version")" 18 "migrated"
expect_eq "$(sqlite3 old.db "SELECT l.file || ':' || l.line FROM nest_packs p
                             JOIN loops l ON l.id = p.loop_id ORDER BY l.file, l.line" |
             sed 's|.*/||' | tr '\n' ' ')" "o.c:3 " "new nests stored, old ones read from rows"
for n in 300 4; do
    expect_eq "$(run old.db $n)" "$(cat ref$n.txt)" "n=$n: migrated database"
done

# blobs an older keelcc stored (format 2, rows packed by db/): refused
# whole, the rows decide
cp k.db v2.db
sqlite3 v2.db "UPDATE nest_packs SET packed = substr(packed, 1, 8) || x'02000000'
               || substr(packed, 13)"
for n in 300 4; do
    expect_eq "$(run v2.db $n)" "$(cat ref$n.txt)" "n=$n: an older format"
done

# keel merge into a database that has loops of its own: ids move, and
# each copied model is written again for them -- the launch loop's id in
# the blob's header (bytes 25-32, little-endian) is its row's loop_id
$KC --keel-db="$work/m.db" -c o.c -o o.o 2>err.txt || bad "keelcc o.c: $(cat err.txt)"
"$BIN/keel" merge m.db k.db >merge.txt 2>&1 || bad "keel merge: $(cat merge.txt)"
le_id() {   # the 16 hex digits of $1 as a little-endian u64
    printf '%016X' "$1" | sed 's/\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)\(..\)/\8\7\6\5\4\3\2\1/'
}
moved=0
for row in $(sqlite3 m.db "SELECT loop_id || ':' || hex(substr(packed, 25, 8)) FROM nest_packs"); do
    [ "$(le_id "${row%%:*}")" = "${row#*:}" ] && moved=$((moved + 1))
done
expect_eq "$moved" 3 "merged: every model names its row's launch loop (o.c's and k.c's two)"
expect_eq "$(sqlite3 m.db "SELECT count(*) FROM nest_packs WHERE loop_id > (SELECT min(id) FROM loops)")" \
    2 "merged: k.c's models moved past m.db's ids"
for n in 300 4; do
    expect_eq "$(run m.db $n)" "$(cat ref$n.txt)" "n=$n: merged database"
done

# a damaged blob: the rows decide
cp k.db dam.db
sqlite3 dam.db "UPDATE nest_packs SET packed = substr(packed, 1, 40) || zeroblob(8)
                || substr(packed, 49)"
for n in 300 4; do
    expect_eq "$(run dam.db $n)" "$(cat ref$n.txt)" "n=$n: damaged blob"
done
echo "nest_packs: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -eq 18 ]
