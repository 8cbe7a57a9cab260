#!/bin/sh
# bestmap.sh BIN -- what a good port would give: `keel explain` and `keel
# report` give, beside the nest as compiled, the best legal GPU mapping keel
# sees and what to change.
#
# An MG resid-like nest: `omp parallel for` on the outer of three parallel
# loops (i3, i2, i1 from 1 to n-2): as compiled n-2 GPU threads; collapsing
# i3 with the loop inside it gives (n-2)^2, all three (n-2)^3.  By hand at
# n = 258: 256 threads as compiled, 65,536 with collapse(2) (collapse(3)'s
# 16,777,216 are no faster there: both move the same DRAM bytes, and the
# first found wins a tie); at n = 34: 32 as compiled, 32,768 with
# collapse(3).  Seven legal mappings are seen: i3 alone (as compiled), i3
# with i2, i3 with i1 moved out, i2 with i3 innermost (an interchange), and
# collapse(3) with each of i1, i2, i3 innermost.  A column copy (the
# parallel j outside i, a[i][j]) as compiled is coalesced along j with n
# threads; collapse(2) as written steps threads along i (stride n); at n =
# 4096 the interchange that puts j innermost is the best.  MG resid's i2
# loop is sequential only through its scratch array u1: privatising it is
# named as the change, the collapse is what it would give.  A compiled
# collapse(3) has (n-2)^3 work items.  A 1-D loop has one mapping (nothing
# to change); a sequential loop is not searched.  The run-time verdict
# stays about the code as compiled.
set -u
BIN=$(cd "$1" && pwd) || exit 1
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d /tmp/keel-bestmap-XXXXXX) || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset KEEL_DB KEEL_FORCE KEEL_VERBOSE KEEL_HOST KEEL_DEVICE
export KEEL_MCA=off
K="$BIN/keel"
cat >m.c <<'C'
void resid(int n, double u[n][n][n], double v[n][n][n], double r[n][n][n])
{
#pragma omp parallel for
    for (int i3 = 1; i3 < n - 1; i3++)
        for (int i2 = 1; i2 < n - 1; i2++)
            for (int i1 = 1; i1 < n - 1; i1++)
                r[i3][i2][i1] = v[i3][i2][i1] - 0.5 * u[i3][i2][i1]
                              - 0.25 * (u[i3][i2][i1 - 1] + u[i3][i2][i1 + 1]);
}
void scale(int n, double *x)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        x[i] = 2.0 * x[i];
}
void scan(int n, double *x)
{
    for (int i = 1; i < n; i++)
        x[i] += x[i - 1];
}
void colcopy(int n, double a[n][n], double b[n][n])
{
#pragma omp parallel for
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            a[i][j] = 2.0 * b[i][j];
}
void resid2(int n, double u[n][n][n], double r[n][n][n])
{
    double u1[1024];
#pragma omp parallel for private(u1)
    for (int i3 = 1; i3 < n - 1; i3++)
        for (int i2 = 1; i2 < n - 1; i2++) {
            for (int i1 = 0; i1 < n; i1++)
                u1[i1] = u[i3][i2 - 1][i1] + u[i3][i2 + 1][i1];
            for (int i1 = 1; i1 < n - 1; i1++)
                r[i3][i2][i1] = u[i3][i2][i1] - 0.25 * (u1[i1 - 1] + u1[i1 + 1]);
        }
}
void c3(int n, double u[n][n][n], double r[n][n][n])
{
#pragma omp target teams distribute parallel for collapse(3) map(to: u[0:n][0:n][0:n]) map(from: r[0:n][0:n][0:n])
    for (int i3 = 1; i3 < n - 1; i3++)
        for (int i2 = 1; i2 < n - 1; i2++)
            for (int i1 = 1; i1 < n - 1; i1++)
                r[i3][i2][i1] = 0.5 * u[i3][i2][i1];
}
C
"$BIN/keelcc" --keel-db="$work/m.db" -fopenmp -O2 -c m.c -o m.o >build.txt 2>&1 || { bad "build"; cat build.txt; }
ex() { "$K" explain "$@" --device h100 --host power9 m.db; }
js() { sqlite3 :memory: "SELECT $1 FROM json_each(readfile('$2'))" 2>/dev/null; }
get() { sqlite3 :memory: "SELECT json_extract(readfile('$2'), '\$.best_mapping.$1')"; }

ex m.c:4 --set n=258 >t258.txt 2>&1 || bad "explain n=258: $(tail -1 t258.txt)"
ex m.c:4 --set n=258 --json >j258.json 2>&1 || bad "explain --json n=258"
expect_eq "$(get searched j258.json) $(get better j258.json) $(get candidates j258.json)" "1 1 7" "searched, better, 7 mappings"
expect_eq "$(get items_as_compiled j258.json) $(get items j258.json)" "256.0 65536.0" "threads at n=258"
case $(get thread_loop_line j258.json) in 5|6) ok ;; *) bad "thread loop line $(get thread_loop_line j258.json)" ;; esac
line=$(grep '^best map' t258.txt)
case $line in
"best map    collapse(2) the i3 and i2 loops: 65,536 threads instead of 256; GPU "*" instead of "*|\
"best map    move the i1 loop out to just inside i3 (past i2), then collapse(2) the i3 and i1 loops: 65,536 threads instead of 256; GPU "*" instead of "*) ok ;;
*) bad "best map line: $line" ;;
esac
# the mapping found is faster; the verdict is the compiled code's
expect_eq "$(sqlite3 :memory: "SELECT json_extract(readfile('j258.json'), '\$.best_mapping.gpu_s') < json_extract(readfile('j258.json'), '\$.best_mapping.gpu_as_compiled_s') AND json_extract(readfile('j258.json'), '\$.best_mapping.gpu_as_compiled_s') = json_extract(readfile('j258.json'), '\$.model_seconds.gpu')")" 1 "faster; as compiled = the verdict's GPU time"
ex m.c:4 --set n=34 --json >j34.json 2>&1 || bad "explain n=34"
expect_eq "$(get items_as_compiled j34.json) $(get items j34.json)" "32.0 32768.0" "threads at n=34"
expect_eq "$(get collapse j34.json) $(get fastest_loop_line j34.json) $(get thread_loop_line j34.json)" "3 6 6" "collapse(3), i1 innermost"
ex m.c:4 --set n=34 >t34.txt 2>&1 || bad "explain n=34 text"
case $(grep '^best map' t34.txt) in
"best map    collapse(3) the i3, i2 and i1 loops: 32,768 threads instead of 32; GPU "*) ok ;;
*) bad "collapse(3) line: $(grep '^best map' t34.txt)" ;;
esac
# the column copy at n = 4096: j innermost, n^2 = 16,777,216 threads
ex m.c:24 --set n=4096 --json >jc.json 2>&1 || bad "explain colcopy"
expect_eq "$(get collapse jc.json) $(get fastest_loop_line jc.json) $(get items jc.json) $(get items_as_compiled jc.json)" \
    "2 24 16777216.0 4096.0" "interchange: j innermost"
ex m.c:24 --set n=4096 >tc.txt 2>&1 || bad "explain colcopy text"
case $(grep '^best map' tc.txt) in
"best map    interchange the j and i loops, then collapse(2) them (j innermost: consecutive threads step along it): 16,777,216 threads instead of 4,096; GPU "*) ok ;;
*) bad "interchange line: $(grep '^best map' tc.txt)" ;;
esac
# resid2 at n = 34: privatise u1, then (n-2)^2 = 1,024 threads instead of 32
ex m.c:32 --set n=34 --json >jp.json 2>&1 || bad "explain resid2"
expect_eq "$(get privatise jp.json)|$(get collapse jp.json)|$(get items jp.json)" "u1|2|1024.0" "privatise u1"
ex m.c:32 --set n=34 >tp.txt 2>&1 || bad "explain resid2 text"
case $(grep '^best map' tp.txt) in
"best map    privatise u1 per i2 iteration (written first in every iteration, at subscripts that do not move with i2: declare them inside the i2 loop), then, if keel finds i2 parallel, collapse(2) the i3 and i2 loops: 1,024 threads instead of 32; GPU "*) ok ;;
*) bad "privatise line: $(grep '^best map' tp.txt)" ;;
esac
expect_eq "$(grep -A1 '^best map' tp.txt | sed -n 2p)" \
    "            sequential as written: u1[i1] (write, line 35) and u1[i1] (write, line 35): distance unknown, not excluded (MIV)" \
    "why i2 is sequential as written"
# a compiled collapse(3): (n-2)^3 work items, as compiled is the best
ex m.c:43 --set n=258 --json >j3.json 2>&1 || bad "explain c3"
expect_eq "$(sqlite3 :memory: "SELECT json_extract(readfile('j3.json'), '\$.launch.gpu_work_items')")" "16777216.0" "collapse(3) as compiled: items"
# one loop: the compiled mapping is the only one
ex m.c:13 --set n=100000 >t1.txt 2>&1 || bad "explain 1-D"
expect_eq "$(grep '^best map' t1.txt)" "best map    as compiled (1 legal mapping seen, none faster)" "1-D loop"
# not parallel: not searched
ex m.c:18 --set n=100000 >t2.txt 2>&1 || bad "explain scan"
expect_eq "$(grep '^best map' t2.txt)" "best map    not searched (the launch loop is not parallel)" "sequential loop"
# the report: a section after the ranking, and the JSON fields
"$K" report --size 258 --device h100 --host power9 m.db >r.txt 2>&1 || bad "report: $(tail -1 r.txt)"
grep -q '^What a good port would give (the best legal mapping keel sees, at N=258; the verdicts above are about the code as compiled):$' r.txt && ok || bad "report section: $(cat r.txt)"
grep -q '^  N1    m.c:4  .*65,536 threads instead of 256; GPU ' r.txt && ok || bad "report line: $(grep '^  N1 ' r.txt)"
expect_eq "$(grep -c '^  N[0-9]' r.txt)" 3 "three nests to change"
"$K" report --size 258 --device h100 --host power9 --json m.db >r.json 2>&1 || bad "report --json"
expect_eq "$(sqlite3 :memory: "SELECT json_extract(value, '\$.line') || ' ' || (json_extract(value, '\$.best_mapping') IS NOT NULL) FROM json_each(readfile('r.json'), '\$.ranking') ORDER BY 1" | tr '\n' ';')" \
    "13 0;18 0;24 1;32 1;4 1;43 0;" "report JSON: best_mapping only where it helps"
finish bestmap
