#!/bin/sh
# variants.sh BIN -- builds of one source and the runtime's facts (issue 9
# item 7, issue 16 fault 21), through keelcc, the compiler, the database
# and libkeelrt.
#  - one source compiled twice with different -D into one program: the
#    database keeps both builds, each object's sites name their build
#    ("#h=" suffix), every site finds its own build's loops (the function
#    names in the verdict lines are the build's), no "no loop at" warning;
#    a rebuild of the same variant adds nothing; keel show names each
#    loop's build; keel merge replaces a build only by the same build (path
#    and variant), with decisions and history on their own build's loop;
#  - a stale database: the source edited and recompiled after a program was
#    built: that program keeps deciding with the facts linked into it; read
#    from the database (KEEL_FACTS=db) its sites get CPU ("stale database"), silently
#    unless KEEL_VERBOSE, and then with one warning; never the facts of the
#    loop that now sits at the same line; the new program decides with the
#    new facts.
set -u
BIN=$1
KC="$BIN/keelcc"
work=$(mktemp -d /tmp/keel-variants-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export KEEL_DB="$work/k.db" KEEL_MCA=off KEEL_LOG=0
unset KEEL_VERBOSE KEEL_DEVICE KEEL_FORCE OMP_TARGET_OFFLOAD
. "$(dirname "$0")/../lib.sh"
q() { sqlite3 "$KEEL_DB" "$1"; }

# ---- two builds of one source in one program ----
# The float build has a second nest (EXTRA) where the double build has none.
cat >vec.c <<'EOF'
void NAME(T *y, const T *x, int n)
{
    for (int i = 0; i < n; i++)
        y[i] = x[i] * 2;
#ifdef EXTRA
    for (int i = 0; i < n; i++)
        y[i] += x[i] * x[i];
#endif
}
EOF
cat >main.c <<'EOF'
#include <stdio.h>
void scale_f(float *, const float *, int);
void scale_d(double *, const double *, int);
int main(int argc, char **argv)
{
    (void)argv;
    float a[64], b[64]; double c[64], d[64];
    int n = 60 + argc;
    for (int i = 0; i < 64; i++) { a[i] = (float)i; c[i] = i; }
    scale_f(b, a, n);
    scale_d(d, c, n);
    printf("%g %g\n", b[n - 1], d[n - 1]);
    return 0;
}
EOF
"$KC" -O1 -DT=float -DNAME=scale_f -DEXTRA -c vec.c -o vf.o 2>err.txt
"$KC" -O1 -DT=double -DNAME=scale_d -c vec.c -o vd.o 2>>err.txt
"$KC" -O1 main.c vf.o vd.o -o prog 2>>err.txt
expect_eq "$(cat err.txt)" "" "keelcc messages"
clang-19 -O1 -DT=float -DNAME=scale_f -DEXTRA -c vec.c -o rf.o \
    && clang-19 -O1 -DT=double -DNAME=scale_d -c vec.c -o rd.o \
    && clang-19 -O1 main.c rf.o rd.o -o ref
expect_eq "$(./prog 2>&1)" "$(./ref)" "program output"
expect_eq "$(q "SELECT count(*) FROM translation_units WHERE path LIKE '%/vec.c'")" 2 "builds of vec.c"
expect_eq "$(q "SELECT count(DISTINCT variant) || ':' || count(DISTINCT hash) FROM translation_units
               WHERE path LIKE '%/vec.c'")" "2:2" "variants and hashes"
expect_eq "$(q "SELECT group_concat(name || ':' || line, ' ') FROM (SELECT f.name AS name,
               l.line AS line FROM loops l JOIN functions f ON f.id = l.function_id
               WHERE l.file LIKE '%/vec.c' ORDER BY 1, 2)")" \
    "scale_d:3 scale_f:3 scale_f:6" "loops of both builds"
# each object names its own build (vec.c as the compiler was given it): its
# translation_units.hash, in every site (each carries its texts: keelrt.h)
hf=$(q "SELECT hash FROM translation_units WHERE path LIKE '%/vec.c' AND object LIKE '%/vf.o'")
hd=$(q "SELECT hash FROM translation_units WHERE path LIKE '%/vec.c' AND object LIKE '%/vd.o'")
expect_eq "$(strings vf.o | grep -c "^vec.c#h=$hf\$")" "$(nm vf.o | grep -c 'keel_site_')" \
    "vf.o's sites name the float build"
expect_eq "$(strings vd.o | grep -c "^vec.c#h=$hd\$")" "$(nm vd.o | grep -c 'keel_site_')" \
    "vd.o's sites name the double build"
expect_eq "$(strings vf.o vd.o | grep -c '#h=')" 3 "the builds' three sites"
KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./prog >/dev/null 2>v.txt
expect_eq "$(grep -c 'warning' v.txt)" 0 "no warning with both builds: $(cat v.txt)"
expect_eq "$(sed -n 's/^keel: vec\.c:\([0-9]*\) \([a-z_]*\) .*/\1 \2/p' v.txt | sort | tr '\n' ' ')" \
    "3 scale_d 3 scale_f 6 scale_f " "each site with its own build's facts"
# keel show names the build of each loop (issue 9 gap): both builds of
# vec.c have a loop at line 3, in the order they were compiled
vf=$(q "SELECT variant FROM translation_units WHERE hash = '$hf'")
vd=$(q "SELECT variant FROM translation_units WHERE hash = '$hd'")
"$BIN/keel" show vec.c:3 >show.txt 2>&1
expect_eq "$(grep -e '^== loop' -e '^function' -e '^build' show.txt)" "== loop 1 of 2 at vec.c:3
function    scale_f (vec.c:1)
build       variant $vf, hash $hf, object vf.o
== loop 2 of 2 at vec.c:3
function    scale_d (vec.c:1)
build       variant $vd, hash $hd, object vd.o" "keel show: each loop's build"
"$BIN/keel" show --json vec.c:3 >show.json 2>&1
expect_eq "$(sqlite3 :memory: "SELECT group_concat(json_extract(value, '\$.function') || ' '
               || json_extract(value, '\$.variant') || ' ' || json_extract(value, '\$.hash') || ' '
               || replace(json_extract(value, '\$.object'), '$work/', ''), ';')
               FROM json_each(readfile('show.json'))")" \
    "scale_f $vf $hf vf.o;scale_d $vd $hd vd.o" "keel show --json: each loop's build"
# keel merge matches builds by path and variant (issue 9 gap): an input
# whose double build is newer replaces that build only; the float build,
# its decisions and the double build's history stay where they belong
hist='CREATE TABLE IF NOT EXISTS history(loop_id INTEGER NOT NULL, size_key TEXT NOT NULL,
      n REAL NOT NULL, device TEXT NOT NULL, samples INTEGER NOT NULL, mean_s REAL NOT NULL,
      m2 REAL NOT NULL, PRIMARY KEY (loop_id, size_key, device))'
loop_of() {  # loop_of FUNCTION: its loop at vec.c:3
    echo "(SELECT l.id FROM loops l JOIN functions f ON f.id = l.function_id
           WHERE f.name = '$1' AND l.line = 3)"
}
cp "$KEEL_DB" mo.db && cp "$KEEL_DB" mi.db
sqlite3 mo.db "$hist; UPDATE translation_units SET compiled_at = '2026-01-01T00:00:00Z';
  INSERT INTO decisions(loop_id, bindings, threads, device, cpu_s, gpu_s, xfer_s, verdict, decided_at)
    VALUES ($(loop_of scale_f), 'n=1', 1, 'h100', 1e-6, 2e-5, 1e-7, 'CPU', '2026-01-02T00:00:00Z');
  INSERT INTO history VALUES ($(loop_of scale_d), 'n=8', 8, 'cpu', 2, 1.0, 0.5)"
sqlite3 mi.db "UPDATE translation_units SET compiled_at = '2026-01-01T00:00:00Z';
  UPDATE translation_units SET compiled_at = '2026-02-01T00:00:00Z' WHERE hash = '$hd';
  INSERT INTO decisions(loop_id, bindings, threads, device, cpu_s, gpu_s, xfer_s, verdict, decided_at)
    VALUES ($(loop_of scale_d), 'n=2', 1, 'h100', 1e-3, 2e-5, 1e-7, 'GPU', '2026-02-02T00:00:00Z')"
"$BIN/keel" merge mo.db mi.db >merge.txt 2>&1
expect_eq "$(head -1 merge.txt)" \
    "keel merge: mi.db: 1 sources taken, 2 not newer than mo.db's kept out, 1 decisions added" \
    "keel merge of builds: summary"
expect_eq "$(sqlite3 mo.db "SELECT group_concat(hash || '@' || compiled_at, ' ') FROM (SELECT hash,
               compiled_at FROM translation_units WHERE path LIKE '%/vec.c' ORDER BY hash)")" \
    "$(printf '%s\n' "$hf@2026-01-01T00:00:00Z" "$hd@2026-02-01T00:00:00Z" | sort | tr '\n' ' ' | sed 's/ $//')" \
    "keel merge: the float build kept, the newer double build taken"
expect_eq "$(sqlite3 mo.db "SELECT group_concat(f.name || ':' || d.bindings, ' ') FROM (SELECT * FROM decisions
               ORDER BY bindings) d JOIN loops l ON l.id = d.loop_id JOIN functions f ON f.id = l.function_id")" \
    "scale_f:n=1 scale_d:n=2" "keel merge: decisions on their own build's loop"
expect_eq "$(sqlite3 mo.db "SELECT group_concat(f.name || ':' || h.samples, ' ') FROM history h
               JOIN loops l ON l.id = h.loop_id JOIN functions f ON f.id = l.function_id")" \
    "scale_d:2" "keel merge: history on its own build's loop, once"
expect_eq "$(sqlite3 mo.db 'PRAGMA foreign_key_check')" "" "keel merge of builds: foreign keys"

# a rebuild of the same variant replaces its rows
nl=$(q "SELECT count(*) FROM loops")
"$KC" -O1 -DT=double -DNAME=scale_d -c vec.c -o vd.o 2>/dev/null
expect_eq "$(q "SELECT count(*) FROM translation_units")" 3 "rebuild: no new translation unit"
expect_eq "$(q "SELECT count(*) FROM loops")" "$nl" "rebuild: no new loops"
# other flags into the same object add a build: a program linked from
# vd.o before still needs the build it held
"$KC" -O1 -DT=double -DNAME=scale_d -DUNUSED -c vec.c -o vd.o 2>/dev/null
expect_eq "$(q "SELECT count(*) FROM translation_units WHERE path LIKE '%/vec.c'")" 3 \
    "other flags into vd.o: three builds"
expect_eq "$(q "SELECT count(*) FROM translation_units WHERE hash = '$hd'")" 1 "vd.o's old build kept"

# ---- -I folders: the headers they find make the build, not their names ----
mkdir -p ia ib ic
printf '#define W 1\n' >ia/cfg.h
printf '#define W 2\n' >ib/cfg.h
cp ia/cfg.h ic/cfg.h
cat >u.c <<'EOF'
#include "cfg.h"
void u(double *x, int n) { for (int i = 0; i < n; i++) x[i] = W; }
EOF
"$KC" -O1 -Iia -c u.c -o ua.o 2>/dev/null
"$KC" -O1 -Iib -c u.c -o ub.o 2>/dev/null
"$KC" -O1 -I ic -c u.c -o uc.o 2>/dev/null
expect_eq "$(q "SELECT count(*) || ':' || count(DISTINCT hash) FROM translation_units
               WHERE path LIKE '%/u.c'")" "2:2" "-I folders with other headers: two builds"
expect_eq "$(strings ua.o | grep -c '^u\.c#h=')" 1 "u.c instrumented"
expect_eq "$(strings ua.o | grep '/u\.c#h=')" "$(strings uc.o | grep '/u\.c#h=')" \
    "-I folders with the same header: one build"

# ---- a stale database (fault 21) ----
cat >s.c <<'EOF'
#include <stdio.h>
static double A[64][64], x[64];
int main(int argc, char **argv) {
  (void)argv;
  int n = 40 + argc;
  for (int i = 0; i < n; i++) x[i] = i;
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  printf("%.1f %g\n", s, A[1][1]);
  return 0;
}
EOF
"$KC" -O1 s.c -o old 2>/dev/null
KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./old >/dev/null 2>v.txt
expect_eq "$(grep -c '^keel: s\.c:6 main \[stream\] n=41: .*-> ' v.txt)" 1 "fresh database: facts used"
# the source edited: another nest now sits at line 6, the same column
cat >s.c <<'EOF'
#include <stdio.h>
static double A[64][64], x[64];
int main(int argc, char **argv) {
  (void)argv;
  int n = 40 + argc;
  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) A[i][j] = A[j][i] * 2.0 + x[j];
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  printf("%.1f %g\n", s, A[1][1]);
  return 0;
}
EOF
"$KC" -O1 s.c -o new 2>/dev/null
expect_eq "$(q "SELECT count(*) FROM translation_units WHERE path LIKE '%/s.c'")" 1 "edited: one build"
# the old program carries its own build's facts (linked in by its one
# keelcc command) and keeps deciding with them; from the database
# (KEEL_FACTS=db) its sites are stale
KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./old >/dev/null 2>v.txt
expect_eq "$(grep -c '^keel: s\.c:6 main \[stream\] n=41: .*-> ' v.txt)" 1 "edited: linked facts kept"
expect_eq "$(grep -c 'warning' v.txt)" 0 "edited: linked facts, no warning"
expect_eq "$(KEEL_FACTS=db KEEL_DEVICE=h100 ./old 2>&1)" "820.0 0" "stale: output, nothing on stderr"
KEEL_FACTS=db KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./old >/dev/null 2>v.txt
expect_eq "$(grep -c '^keel: warning: s\.c:6: the database describes another version of s\.c' v.txt)" 1 \
    "stale: one warning"
expect_eq "$(grep -c 'warning' v.txt)" 1 "stale: only one warning: $(cat v.txt)"
expect_eq "$(grep '^keel: s\.c:' v.txt)" "keel: s.c:6 n=41: -> CPU (stale database)
keel: s.c:8 n=41: -> CPU (stale database)" "stale: CPU, no other loop's facts"
# the database's verdict for this launch, had the facts been used, is not
# the old program's: the new program decides with the new loop's facts
KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./new >/dev/null 2>v.txt
expect_eq "$(grep -c '^keel: s\.c:6 main \[transpose\]' v.txt)" 1 "new program: new facts"
expect_eq "$(grep -c 'warning' v.txt)" 0 "new program: no warning"
KEEL_FACTS=db KEEL_DEVICE=h100 KEEL_FORCE=gpu ./old >/dev/null 2>&1
expect_eq "$?" 0 "stale with a forced verdict: runs"

finish variants
