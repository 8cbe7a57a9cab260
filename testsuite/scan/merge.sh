#!/bin/sh
# merge.sh BIN SRCDIR -- keel merge of databases with overlapping sources.
#
# Two "machines" analyse overlapping sources (keel scan into a.db and
# b.db); their analysis times are set by hand so that a.db has the newer
# x.c and b.db the newer y.c (a different version, with one more loop).
# Each side logged run-time decisions, also for the source it loses, and a
# host calibration (one of them on both sides).  Checks: the newest
# analysis of each source wins, row for row (loops, statements, accesses
# with subscripts, strides, idioms: a canonical dump equals the winner's);
# decisions are all kept, moved onto the winning analysis's loop at the
# same file:line:col; calibrations appended once; foreign keys and
# integrity hold; merging again changes nothing; a table with 70 columns
# is merged whole; a newer schema or a missing input is a one-line error
# that leaves OUT untouched.
BIN=$(cd "$1" && pwd) || exit 1
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/keel-merge-XXXXXX) || exit 1
[ -n "$KEEP" ] || trap 'rm -rf "$tmp"' EXIT   # KEEP=1: leave the folder
cd "$tmp" && tmp=$(pwd -P) || exit 1
export KEEL_MCA=off
unset KEEL_DB

mkdir a b
cat > x.c <<'C'
void scale(int n, double *x)
{
    for (int i = 0; i < n; i++)
        x[i] *= 2.0;
}
C
cat > y.c <<'C'
void sum(int n, double *x, double *s)
{
    for (int i = 0; i < n; i++)
        s[0] += x[i];
}
C
cat > z.c <<'C'
void t(int n, double A[n][n], double B[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            B[j][i] = A[i][j];
}
C
db() {  # db DIR FILES...: a compile database of FILES in DIR
    dir=$1; shift
    { echo '['; sep=''
      for f in "$@"; do
          printf '%s{"directory": "%s", "command": "cc -O2 -c %s", "file": "%s"}\n' "$sep" "$tmp" "$f" "$f"
          sep=','
      done; echo ']'; } > "$dir/compile_commands.json"
}
db a x.c y.c
"$BIN/keel" scan -p a a.db >/dev/null || bad "scan a"
cat > y.c <<'C'
void sum(int n, double *x, double *s)
{
    for (int i = 0; i < n; i++)
        s[0] += x[i];
    for (int i = 0; i < n; i++)
        x[i] = 0;
}
C
db b y.c z.c x.c
"$BIN/keel" scan -p b b.db >/dev/null || bad "scan b"

sqlite3 a.db "UPDATE translation_units SET compiled_at = '2026-01-02T00:00:00Z' WHERE path LIKE '%/x.c';
              UPDATE translation_units SET compiled_at = '2026-01-01T00:00:00Z' WHERE path LIKE '%/y.c';
              INSERT INTO decisions(loop_id, bindings, threads, device, cpu_s, gpu_s, xfer_s, verdict, decided_at)
                SELECT id, 'n=10', 1, 'h100', 1e-6, 2e-5, 1e-7, 'CPU', '2026-01-03T00:00:00Z' FROM loops WHERE line = 3;
              INSERT INTO host_calibration(host, cores, mem_bw, measured_at) VALUES ('m1', 8, 4e10, '2026-01-01T00:00:00Z');"
sqlite3 b.db "UPDATE translation_units SET compiled_at = '2026-01-01T12:00:00Z' WHERE path LIKE '%/x.c';
              UPDATE translation_units SET compiled_at = '2026-01-02T00:00:00Z' WHERE path NOT LIKE '%/x.c';
              INSERT INTO decisions(loop_id, bindings, threads, device, cpu_s, gpu_s, xfer_s, verdict, decided_at)
                SELECT l.id, 'n=99', 1, 'h100', 1e-3, 2e-5, 1e-7, 'GPU', '2026-01-04T00:00:00Z' FROM loops l
                JOIN translation_units t ON t.id = l.tu_id WHERE l.line = 3 AND t.path NOT LIKE '%/z.c';
              INSERT INTO host_calibration(host, cores, mem_bw, measured_at) VALUES ('m1', 8, 4e10, '2026-01-01T00:00:00Z');
              INSERT INTO host_calibration(host, cores, mem_bw, measured_at) VALUES ('m2', 16, 8e10, '2026-01-02T00:00:00Z');"

"$BIN/keel" merge out.db a.db b.db >out.txt 2>err.txt; rc=$?
[ $rc = 0 ] && [ ! -s err.txt ] && ok || { bad "merge rc $rc"; cat err.txt; }
cat > want.txt <<'T'
keel merge: a.db: 2 sources taken, 0 not newer than out.db's kept out, 2 decisions added
keel merge: b.db: 2 sources taken, 1 not newer than out.db's kept out, 2 decisions added
keel merge: out.db now holds 3 sources, 5 loops
T
cmp -s out.txt want.txt && ok || { bad "merge summary"; diff want.txt out.txt; }

# canonical dump of one source's analysis
dump() {  # dump DB PATH-SUFFIX
    sqlite3 "$1" "SELECT l.line, l.col, l.depth, l.iv, l.idioms, l.parallel, l.coalescing,
                         s.text, a.array, a.is_write,
                         (SELECT group_concat(e.text, '][') FROM access_subscripts x
                            JOIN expressions e ON e.id = x.expr_id WHERE x.access_id = a.id),
                         (SELECT group_concat(class) FROM access_strides st WHERE st.access_id = a.id),
                         (SELECT group_concat(idiom) FROM idiom_instances i WHERE i.loop_id = l.id),
                         (SELECT class || w || d FROM loop_classes c WHERE c.loop_id = l.id)
                    FROM loops l JOIN translation_units t ON t.id = l.tu_id
                    LEFT JOIN statements s ON s.loop_id = l.id LEFT JOIN accesses a ON a.stmt_id = s.id
                   WHERE t.path LIKE '%/$2' ORDER BY l.line, l.col, s.line, a.id"
}
[ "$(dump out.db x.c)" = "$(dump a.db x.c)" ] && [ -n "$(dump a.db x.c)" ] && ok || bad "x.c: a.db's (newer) analysis"
[ "$(dump out.db y.c)" = "$(dump b.db y.c)" ] && [ "$(dump out.db y.c)" != "$(dump a.db y.c)" ] && ok || bad "y.c: b.db's (newer) analysis"
[ "$(dump out.db z.c)" = "$(dump b.db z.c)" ] && [ -n "$(dump b.db z.c)" ] && ok || bad "z.c: only in b.db"
[ "$(sqlite3 out.db "SELECT substr(t.path, length(t.path) - 2) || ':' || l.line || ':' || d.bindings || ':' || d.verdict
                     FROM decisions d JOIN loops l ON l.id = d.loop_id
                     JOIN translation_units t ON t.id = l.tu_id ORDER BY 1")" = "x.c:3:n=10:CPU
x.c:3:n=99:GPU
y.c:3:n=10:CPU
y.c:3:n=99:GPU" ] && ok || bad "decisions: all four, on the winning loops"
[ "$(sqlite3 out.db "SELECT group_concat(host || '@' || measured_at, ' ') FROM host_calibration")" \
  = "m1@2026-01-01T00:00:00Z m2@2026-01-02T00:00:00Z" ] && ok || bad "host calibrations appended once"
[ -z "$(sqlite3 out.db 'PRAGMA foreign_key_check')" ] && ok || bad "foreign keys"
[ "$(sqlite3 out.db 'PRAGMA integrity_check')" = ok ] && ok || bad "integrity"
"$BIN/keel" loops out.db >/dev/null 2>&1 && "$BIN/keel" show z.c:4 out.db >/dev/null 2>&1 \
    && ok || bad "keel reads the merged database"

# merging again changes nothing
before=$(sqlite3 out.db "SELECT (SELECT count(*) FROM loops), (SELECT count(*) FROM accesses),
                         (SELECT count(*) FROM decisions), (SELECT count(*) FROM host_calibration)")
"$BIN/keel" merge out.db a.db b.db out.db >out.txt 2>&1
after=$(sqlite3 out.db "SELECT (SELECT count(*) FROM loops), (SELECT count(*) FROM accesses),
                        (SELECT count(*) FROM decisions), (SELECT count(*) FROM host_calibration)")
[ "$before" = "$after" ] && ok || bad "second merge changed counts: $before -> $after"
grep -qx 'keel merge: out.db is the output, skipped' out.txt && ok || bad "OUT among the inputs"

# measured history (libkeelrt's table, created on first write, keyed by
# loop id): both sides' samples kept, moved to the winning loop at the same
# place, one (loop, size, device) combined as Welford accumulators are
hist='CREATE TABLE IF NOT EXISTS history(loop_id INTEGER NOT NULL, size_key TEXT NOT NULL, n REAL NOT NULL,
      device TEXT NOT NULL CHECK (device IN ('"'cpu', 'gpu'"')), samples INTEGER NOT NULL,
      mean_s REAL NOT NULL, m2 REAL NOT NULL, PRIMARY KEY (loop_id, size_key, device))'
cp a.db ha.db && cp b.db hb.db
sqlite3 ha.db "$hist; INSERT INTO history SELECT l.id, 'n=10', 80, 'cpu', 2, 1.0, 0.5 FROM loops l
               JOIN translation_units t ON t.id = l.tu_id WHERE t.path LIKE '%/y.c' AND l.line = 3"
sqlite3 hb.db "$hist; INSERT INTO history SELECT l.id, 'n=10', 80, 'cpu', 3, 2.0, 1.0 FROM loops l
               JOIN translation_units t ON t.id = l.tu_id WHERE t.path LIKE '%/y.c' AND l.line = 3;
               INSERT INTO history SELECT l.id, 'n=5', 40, 'gpu', 1, 0.5, 0 FROM loops l
               JOIN translation_units t ON t.id = l.tu_id WHERE t.path LIKE '%/x.c' AND l.line = 3"
"$BIN/keel" merge h.db ha.db hb.db >out.txt 2>err.txt || { bad "merge with history"; cat err.txt; }
grep -q "^keel merge: ha.db: .*, 2 history samples added$" out.txt && grep -q "^keel merge: hb.db: .*, 4 history samples added$" out.txt \
    && ok || { bad "history summary"; cat out.txt; }
[ "$(sqlite3 h.db "SELECT substr(t.path, length(t.path) - 2) || ':' || l.line || ':' || h.size_key || ':' || h.device
                         || ':' || h.samples || ':' || round(h.mean_s, 6) || ':' || round(h.m2, 6)
                   FROM history h JOIN loops l ON l.id = h.loop_id JOIN translation_units t ON t.id = l.tu_id
                   ORDER BY 1")" = "x.c:3:n=5:gpu:1:0.5:0.0
y.c:3:n=10:cpu:5:1.6:2.7" ] && ok || { bad "history rows"; sqlite3 h.db "SELECT * FROM history"; }

# a table a later schema might add, hanging off loops, with 70 columns and
# a 70-character column name: merged whole (no cap on tables or columns)
cols=$(seq 1 70 | sed 's/^/c/' | tr '\n' ',' | sed 's/,$//')
long=$(printf 'x%.0s' $(seq 1 70))
cp a.db wa.db
sqlite3 wa.db "CREATE TABLE wide(id INTEGER PRIMARY KEY, loop_id INTEGER REFERENCES loops(id)
               ON DELETE CASCADE, $(echo "$cols" | sed 's/,/ INTEGER,/g') INTEGER, $long TEXT);
               INSERT INTO wide(loop_id, c1, c70, $long) SELECT l.id, 1, 70, 'far' FROM loops l
               JOIN translation_units t ON t.id = l.tu_id WHERE t.path LIKE '%/x.c'"
cp wa.db wo.db
sqlite3 wo.db "PRAGMA foreign_keys = ON; DELETE FROM translation_units"
"$BIN/keel" merge wo.db wa.db >out.txt 2>err.txt || { bad "merge of a wide table"; cat err.txt; }
[ "$(sqlite3 wo.db "SELECT c1 || ':' || c70 || ':' || $long FROM wide")" = "1:70:far" ] \
    && ok || bad "wide table: all 70 columns and the long name merged"

# bad inputs: one line, OUT untouched
cp out.db keep.db
"$BIN/keel" merge out.db missing.db >out.txt 2>err.txt; rc=$?
[ $rc = 1 ] && [ "$(cat err.txt)" = "keel: missing.db: no such file" ] && ok || { bad "missing input"; cat err.txt; }
cp b.db future.db
sqlite3 future.db "PRAGMA user_version = 99"
"$BIN/keel" merge out.db future.db >out.txt 2>err.txt; rc=$?
[ $rc = 1 ] && grep -q '^keel: future.db: database schema version 99 is newer than this keel' err.txt \
    && ok || { bad "newer schema"; cat err.txt; }
cmp -s out.db keep.db && ok || bad "a refused merge modified OUT"
"$BIN/keel" merge out.db >out.txt 2>err.txt; rc=$?
[ $rc = 2 ] && ok || bad "merge without inputs: usage error"

echo "merge: $pass passed, $fail failed"
[ $fail = 0 ]
