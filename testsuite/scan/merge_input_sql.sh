#!/bin/sh
# merge_input_sql.sh BIN SRCDIR -- keel merge treats its inputs as data,
# never as SQL.
#
# An input database is crafted (PRAGMA writable_schema) so that the CREATE
# texts sqlite_master keeps for its history and decisions tables carry a
# second statement, and it holds a table, a view and a trigger of its own.
# After `keel merge OUT IN`, OUT's sqlite_master (type, name, table and
# SQL text of every entry) must equal that of a database keel built itself
# with the same tables: nothing of the input's schema reached OUT, the
# history table is keel's own text, and the input's measured history is
# still merged (its samples arrive).  An input whose decisions table is a
# view is refused with one line and OUT is left as it was.
BIN=$(cd "$1" && pwd) || exit 1
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/keel-mergesql-XXXXXX) || exit 1
[ -n "$KEEP" ] || trap 'rm -rf "$tmp"' EXIT   # KEEP=1: leave the folder
cd "$tmp" && tmp=$(pwd -P) || exit 1
unset KEEL_DB KEEL_DEVICE KEEL_HOST
export KEEL_MCA=off
K="$BIN/keel"
schema() { sqlite3 "$1" "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"; }

printf 'void f(int n, double *a)\n{\n    for (int i = 0; i < n; i++)\n        a[i] *= 2;\n}\n' > a.c
"$BIN/keelcc" --keel-db="$tmp/in.db" -c a.c -o a.o || bad "keelcc in.db"
"$BIN/keelcc" --keel-db="$tmp/out.db" -c a.c -o a2.o || bad "keelcc out.db"
# the reference: OUT with keel's own history table (keel history --add)
printf 'a.c:3 n=1000 cpu 0.5\n' > m.txt
"$K" history --add m.txt in.db >/dev/null || bad "history --add in.db"
cp out.db ref.db
"$K" history --add m.txt ref.db >/dev/null || bad "history --add ref.db"
sqlite3 ref.db "DELETE FROM history" || bad "ref history"

# the crafted input
sqlite3 in.db "CREATE TABLE evil(x); CREATE VIEW evil_v AS SELECT 1;
  CREATE TRIGGER evil_t AFTER INSERT ON loops BEGIN INSERT INTO evil VALUES (1); END;
  PRAGMA writable_schema = ON;
  UPDATE sqlite_master SET sql = sql || '; CREATE TABLE main.injected(x)' WHERE name = 'history';
  UPDATE sqlite_master SET sql = sql || '; CREATE TRIGGER main.injected_t AFTER DELETE ON loops
    BEGIN SELECT 1; END' WHERE name = 'decisions';" || bad "crafting in.db"
sqlite3 in.db "SELECT count(*) FROM history" >/dev/null 2>&1 && ok || bad "crafted in.db unreadable"
# a newer analysis in the input, so that its TU is taken too
sqlite3 in.db "UPDATE translation_units SET compiled_at = '2999-01-01T00:00:00Z'"

"$K" merge out.db in.db > merge.txt 2> merge.err; rc=$?
[ "$rc" = 0 ] && ok || bad "merge exit $rc: $(cat merge.err)"
[ ! -s merge.err ] && ok || bad "merge stderr: $(cat merge.err)"
grep -q '1 sources taken, 0 not newer than out.db.s kept out, 0 decisions added, 1 history samples added' \
    merge.txt && ok || bad "merge summary: $(cat merge.txt)"
schema out.db > got.txt
schema ref.db > want.txt
cmp -s got.txt want.txt && ok || { bad "OUT's schema is not keel's:"; diff want.txt got.txt; }
[ "$(sqlite3 out.db "SELECT count(*) FROM sqlite_master WHERE name LIKE '%injected%' OR name LIKE 'evil%'")" = 0 ] \
    && ok || bad "input objects in OUT"
[ "$(sqlite3 out.db "SELECT samples || ' ' || device FROM history")" = "1 cpu" ] && ok \
    || bad "history not merged: $(sqlite3 out.db 'SELECT * FROM history')"
[ "$(sqlite3 out.db 'PRAGMA integrity_check')" = ok ] && ok || bad "integrity"

# an input whose decisions table is a view: refused, OUT untouched
"$BIN/keelcc" --keel-db="$tmp/v.db" -c a.c -o a3.o || bad "keelcc v.db"
sqlite3 v.db "DROP TABLE decisions; CREATE VIEW decisions(id, loop_id, bindings, threads, device,
  cpu_s, gpu_s, xfer_s, verdict, reason, decided_at) AS SELECT 1, 1, 'x', 1, 'h100', 0, 0, 0,
  'CPU', NULL, 'now'" || bad "crafting v.db"
sqlite3 out.db .dump > before.sql
"$K" merge out.db v.db > v.txt 2> v.err; rc=$?
[ "$rc" = 1 ] && ok || bad "view input: exit $rc"
[ "$(cat v.err)" = "keel: v.db: decisions is not a table" ] && ok || bad "view input: $(cat v.err)"
sqlite3 out.db .dump > after.sql
cmp -s before.sql after.sql && ok || bad "view input changed OUT"

finish merge_input_sql
