#!/bin/sh
# rt_corrupt_log.sh BINDIR -- the run-time log writes nothing into a
# database whose log tables fail their integrity check, and checks only
# those tables (decisions, history, the calibration tables, the schema page
# and freelist), never keelcc's.  A keelcc-built program, run with a
# what-if GPU (KEEL_DEVICE=h100, so its verdicts are logged), must leave a
# database whose decisions table is damaged byte for byte as it was -- the
# main file and its WAL -- and print what the clang-19 build prints.  The
# damage is one that SQLite's quick_check does not see: the index
# decisions_loop is made to claim another column than the one its entries
# hold, so integrity_check(decisions) reports rows missing from it while
# every page and record is sound.  `keel history --add` refuses that file
# too.  The controls: an intact copy gets the run's decisions, and so does
# a copy whose damage is in keelcc's part only (the index statements_loop
# made wrong the same way): the program reads its facts from it as before.
BIN=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
unset KEEL_VERBOSE KEEL_FORCE KEEL_DB KEEL_LOG KEEL_HOST OMP_TARGET_OFFLOAD

cat >norms.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
/* row sums of squares and their total */
static void sq_rows(int n, int m, const double *a, double *r)
{
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < m; j++)
            s += a[i * m + j] * a[i * m + j];
        r[i] = s;
    }
}
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 300, m = 200;
    double *a = malloc(sizeof *a * n * m), *r = malloc(sizeof *r * n), t = 0;
    for (int k = 0; k < n * m; k++)
        a[k] = (k % 17) * 0.25;
    sq_rows(n, m, a, r);
    for (int i = 0; i < n; i++)
        t += r[i];
    printf("%d rows, total %.2f, r[7] %.2f\n", n, t, r[7]);
    free(a), free(r);
    return 0;
}
SRC
clang-19 -O1 norms.c -o plain || exit 1
"$BIN/keelcc" --keel-db="$work/k.db" --keel-mca=off --keel-quiet -O1 norms.c -o norms || exit 1
want=$(./plain 2000)
# by hand: a[k] = (k % 17) / 4; 400000 = 17 * 23529 + 7 elements give
# (23529 * 1496 + 91) / 16; row 7 starts at residue 6: (11 * 1496 + 1442) / 16
expect_eq "$want" "2000 rows, total 2199967.19, r[7] 1118.62" "clang-19 build"
sqlite3 k.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
cp k.db good.db

# control: an intact database gets the run's decisions
expect_eq "$(KEEL_DEVICE=h100 KEEL_DB="$work/good.db" ./norms 2000)" "$want" "output, intact database"
expect_eq "$(sqlite3 good.db 'SELECT count(*) FROM decisions')" 2 "decisions in the intact database"

# the damage: quick_check passes, integrity_check(decisions) does not;
# decisions_loop needs entries to disagree with, so a first run logs some
KEEL_DEVICE=h100 ./norms 2000 >/dev/null
expect_eq "$(sqlite3 k.db 'SELECT count(*) FROM decisions')" 2 "decisions before the damage"
cp k.db keel-part.db
sqlite3 k.db "PRAGMA writable_schema = ON;
  UPDATE sqlite_master SET sql = 'CREATE INDEX decisions_loop ON decisions(threads)'
  WHERE name = 'decisions_loop';" || exit 1
expect_eq "$(sqlite3 k.db 'PRAGMA quick_check')" ok "quick_check of the damaged file"
case $(sqlite3 k.db 'PRAGMA integrity_check(decisions)' | head -1) in
*"missing from index decisions_loop"*) ok ;;
*) bad "integrity_check(decisions) of the damaged file: $(sqlite3 k.db 'PRAGMA integrity_check(decisions)' | head -1)" ;;
esac
sqlite3 k.db 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
cp k.db before.db
wal_before=$(cat k.db-wal 2>/dev/null | cksum)

# the program: same output, the file untouched, with and without KEEL_VERBOSE
expect_eq "$(KEEL_DEVICE=h100 ./norms 2000)" "$want" "output, damaged database"
cmp -s k.db before.db && ok || bad "the program wrote into a database that fails integrity_check"
expect_eq "$(cat k.db-wal 2>/dev/null | cksum)" "$wal_before" "WAL of the damaged database"
KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./norms 2000 >out.txt 2>err.txt
expect_eq "$(cat out.txt)" "$want" "output, damaged database, KEEL_VERBOSE"
grep -q "k.db: database fails its integrity check (row [0-9]* missing from index decisions_loop); not written" err.txt &&
    ok || bad "KEEL_VERBOSE names the failed check: $(cat err.txt)"
cmp -s k.db before.db && ok || bad "KEEL_VERBOSE run wrote into the damaged database"
expect_eq "$(sqlite3 k.db 'SELECT count(*) FROM decisions')" 2 "decisions in the damaged database"

# keel history --add is the same run-time log
printf 'norms.c:6 n=2000,m=200 cpu 0.5\n' >times.txt
"$BIN/keel" history --add times.txt k.db >/dev/null 2>hist.err
grep -q "fails its integrity check" hist.err && ok || bad "keel history --add: $(cat hist.err)"
cmp -s k.db before.db && ok || bad "keel history --add wrote into the damaged database"
"$BIN/keel" history --add times.txt good.db >/dev/null 2>hist.err
expect_eq "$(sqlite3 good.db 'SELECT samples FROM history')" 1 "keel history --add, intact database"

# damage in keelcc's part only: the log's tables are sound, the run's
# decisions go in (2 more: new values; a decision the table already
# holds is not written again), and the damage stays what it was
want1k=$(./plain 1000)
sqlite3 keel-part.db "PRAGMA writable_schema = ON;
  UPDATE sqlite_master SET sql = 'CREATE INDEX statements_loop ON statements(line)'
  WHERE name = 'statements_loop';" || exit 1
case $(sqlite3 keel-part.db 'PRAGMA integrity_check' | head -1) in
*"missing from index statements_loop"*) ok ;;
*) bad "integrity_check of keel-part.db: $(sqlite3 keel-part.db 'PRAGMA integrity_check' | head -1)" ;;
esac
KEEL_DEVICE=h100 KEEL_VERBOSE=1 KEEL_DB="$work/keel-part.db" ./norms 1000 >out.txt 2>err.txt
expect_eq "$(cat out.txt)" "$want1k" "output, keelcc's part damaged"
expect_eq "$(grep -c 'integrity' err.txt)" 0 "no integrity warning, keelcc's part damaged"
expect_eq "$(sqlite3 keel-part.db 'SELECT count(*) FROM decisions')" 4 "decisions, keelcc's part damaged"
expect_eq "$(sqlite3 keel-part.db 'PRAGMA integrity_check(decisions)')" ok "decisions still sound"

# a damaged freelist (where new rows take their pages) is the log's too:
# a dropped table leaves free pages, the first trunk page then names a
# page past the end of the file
cp good.db free.db
sqlite3 free.db "CREATE TABLE filler(x); WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL
  SELECT i + 1 FROM c WHERE i < 400) INSERT INTO filler SELECT randomblob(200) FROM c;
  DROP TABLE filler; PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null || exit 1
be32() { od -An -tu1 -j"$2" -N4 "$1" | awk '{ print (($1 * 256 + $2) * 256 + $3) * 256 + $4 }'; }
psize=$(sqlite3 free.db 'PRAGMA page_size') trunk=$(be32 free.db 32)
[ "$trunk" -gt 0 ] && ok || bad "free.db has no freelist"
printf '\177\377\377\377' | dd of=free.db bs=1 seek=$(((trunk - 1) * psize + 8)) conv=notrunc 2>/dev/null
case $(sqlite3 free.db 'PRAGMA integrity_check(sqlite_schema)' | tr '\n' ' ') in
*"freelist"*) ok ;;
*) bad "integrity_check(sqlite_schema) of free.db: $(sqlite3 free.db 'PRAGMA integrity_check(sqlite_schema)')" ;;
esac
expect_eq "$(sqlite3 free.db 'PRAGMA integrity_check(decisions)')" ok "free.db: decisions sound"
cp free.db free-before.db
# the same run as the control's: its decisions are in the table already,
# nothing is to be written, so nothing is checked either
KEEL_DEVICE=h100 KEEL_VERBOSE=1 KEEL_DB="$work/free.db" ./norms 2000 >out.txt 2>err.txt
expect_eq "$(cat out.txt)" "$want" "output, damaged freelist, known decisions"
expect_eq "$(grep -c 'integrity' err.txt)" 0 "nothing to write: no check"
cmp -s free.db free-before.db && ok || bad "a run with nothing new wrote into free.db"
# new values: checked, refused
KEEL_DEVICE=h100 KEEL_VERBOSE=1 KEEL_DB="$work/free.db" ./norms 1000 >out.txt 2>err.txt
expect_eq "$(cat out.txt)" "$want1k" "output, damaged freelist"
grep -q "free.db: database fails its integrity check (.*freelist.*); not written" err.txt &&
    ok || bad "KEEL_VERBOSE names the damaged freelist: $(cat err.txt)"
cmp -s free.db free-before.db && ok || bad "the program wrote into a database with a damaged freelist"

finish rt_corrupt_log
