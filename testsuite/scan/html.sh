#!/bin/sh
# html.sh BIN SRCDIR -- keel report --html, keel explain --sweep, and the
# compact keel loops.
#
# Three kernels (a matmul that parallelises, a first-order recurrence that
# does not, a stream) analysed with keel scan.  The page written for two
# GPU profiles is read with python3's html.parser (check_html.py): well
# formed, no script or external reference, its sections, one roofline per
# device, a boat-hull chart per class, and exactly the three nests; each
# nest's crossover equals what `keel explain --sweep '*=1:1048576'` finds
# for that nest and device (the same model calls), the recurrence says
# "never (sequential)", and the matmul has a finite crossover.  The sweep
# table has one row per power of two.  keel loops fits 120 columns with a
# very long path and keeps its end; --wide is the full table.
BIN=$(cd "$1" && pwd) || exit 1
SRC=$(cd "$2" && pwd) || exit 1
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/keel-html-XXXXXX) || exit 1
[ -n "$KEEP" ] || trap 'rm -rf "$tmp"' EXIT   # KEEP=1: leave the folder
cd "$tmp" && tmp=$(pwd -P) || exit 1
unset KEEL_DB KEEL_DEVICE
export KEEL_MCA=off OMP_NUM_THREADS=4

long=src/a-very-long-folder-name-that-pushes-the-location-column-far-beyond/and-then-some-more-of-it-still
mkdir -p "$long" build
cat > "$long/k.c" <<'C'
void mm(int n, double A[n][n], double B[n][n], double C[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i][j] += A[i][k] * B[k][j];
}

void recur(int n, double *x)
{
    for (int i = 1; i < n; i++)
        x[i] = x[i - 1] * 0.5 + x[i];
}

void copy(int n, double *restrict a, const double *restrict b)
{
    for (int i = 0; i < n; i++)
        a[i] = b[i];
}
C
printf '[{"directory": "%s", "command": "cc -O2 -c %s/k.c", "file": "%s/k.c"}]\n' "$tmp" "$long" "$long" \
    > build/compile_commands.json
"$BIN/keel" scan -p build k.db >/dev/null || bad "scan"

"$BIN/keel" report --html r.html --device h100,v100 k.db >out.txt 2>err.txt; rc=$?
[ $rc = 0 ] && [ "$(cat out.txt)" = r.html ] && [ ! -s err.txt ] && ok || { bad "report --html rc $rc"; cat err.txt; }
python3 "$SRC/check_html.py" r.html >parsed.txt; rc=$?
[ $rc = 0 ] && ok || { bad "page not well formed / not self-contained"; grep PROBLEM parsed.txt; }
if command -v xmllint >/dev/null 2>&1; then
    xmllint --noout r.html 2>xml.txt && ok || { bad "xmllint"; head -5 xml.txt; }
fi
[ "$(grep -c '^nest ' parsed.txt)" = 3 ] && ok || bad "three nests"
[ "$(grep '^nest ' parsed.txt | cut -d' ' -f3 | tr '\n' ' ')" = "3 11 17 " ] && ok || bad "nest lines 3 11 17"
[ "$(grep -c '^chart roofline' parsed.txt)" = 2 ] && grep -q '^chart roofline h100$' parsed.txt \
    && grep -q '^chart roofline v100$' parsed.txt && ok || bad "a roofline per device"
grep -q '^chart hull ' parsed.txt && ok || bad "boat-hull charts"
grep -q "^nest $tmp/$long/k.c 11 h100=never_(sequential) v100=never_(sequential)$" parsed.txt \
    && ok || { bad "recurrence: never (sequential)"; grep '^nest' parsed.txt; }

# logged decisions: a table in their section and hollow marks on the hull view
grep -q 'id="decisions"' r.html && bad "a decisions section without decisions" || ok
sqlite3 k.db "INSERT INTO decisions(loop_id, bindings, threads, device, cpu_s, gpu_s, xfer_s, verdict, decided_at)
              SELECT id, 'n=100', 4, 'h100', 2e-3, 1e-4, 1e-5, 'GPU', '2026-01-01T00:00:00Z' FROM loops WHERE line = 3"
"$BIN/keel" report --html r3.html --device h100,v100 k.db >/dev/null 2>&1
python3 "$SRC/check_html.py" r3.html >parsed3.txt && ok || bad "page with decisions not well formed"
grep -q 'id="decisions"' r3.html && grep -q '<td>n=100</td><td>h100</td><td>4</td><td>2.0 ms</td><td>100.0 us</td><td>10.0 us</td><td>GPU</td>' r3.html \
    && ok || bad "decision row"
[ "$(grep -o '<title>N1 logged launch n=100: [a-z +]*</title>' r3.html | wc -l)" = 2 ] && ok || bad "decision marks on the hull view"

# measured history (libkeelrt's history table, when it exists): filled marks and a table
sqlite3 k.db "CREATE TABLE IF NOT EXISTS history(loop_id INTEGER NOT NULL, size_key TEXT NOT NULL,
                n REAL NOT NULL, device TEXT NOT NULL, samples INTEGER NOT NULL, mean_s REAL NOT NULL,
                m2 REAL NOT NULL, PRIMARY KEY (loop_id, size_key, device));
              INSERT INTO history SELECT id, 'n=100', 240000, 'cpu', 10, 2e-3, 0 FROM loops WHERE line = 3;
              INSERT INTO history SELECT id, 'n=100', 240000, 'gpu', 12, 1e-4, 0 FROM loops WHERE line = 3"
"$BIN/keel" report --html r4.html --device h100 k.db >/dev/null 2>&1
python3 "$SRC/check_html.py" r4.html >parsed4.txt && ok || bad "page with history not well formed"
grep -q '<title>N1 measured n=100 on the cpu: mean of 10</title></circle>' r4.html \
    && grep -q '<title>N1 measured n=100 on the gpu: mean of 12</title></rect>' r4.html && ok || bad "history marks"
grep -q '<tr><td>n=100</td><td>gpu</td><td>12</td><td>100.0 us</td></tr>' r4.html && ok || bad "history table"

# many sizes: the decisions table shows the newest 20 and says of how many,
# the hull view draws the latest 16 and says so, the history table has
# every row (25 more decisions, 24 more measured sizes for line 3)
sqlite3 k.db "WITH RECURSIVE s(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM s WHERE k < 25)
              INSERT INTO decisions(loop_id, bindings, threads, device, cpu_s, gpu_s, xfer_s, verdict, decided_at)
              SELECT l.id, 'n=' || (200 + k), 4, 'h100', 2e-3, 1e-4, 1e-5, 'GPU', '2026-01-02T00:00:00Z'
                FROM loops l, s WHERE l.line = 3;
              WITH RECURSIVE s(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM s WHERE k < 24)
              INSERT INTO history SELECT l.id, 'n=' || (300 + k), 1, 'cpu', 10, 2e-3, 0
                FROM loops l, s WHERE l.line = 3"
"$BIN/keel" report --html r5.html --device h100 k.db >/dev/null 2>&1
python3 "$SRC/check_html.py" r5.html >parsed5.txt && ok || bad "page with many sizes not well formed"
grep -q 'decisions logged at run time (newest first; the newest 20 of 26)' r5.html && ok || bad "decisions caption"
[ "$(grep -c '<tr><td>n=2[0-9][0-9]</td><td>h100</td>' r5.html)" = 20 ] && ok || bad "20 decision rows"
grep -q 'the latest 16 per nest are drawn, 16 of the 26 logged' r5.html && ok || bad "hull caption"
[ "$(grep -o '<title>N1 logged launch n=2[0-9]*: cpu</title>' r5.html | wc -l)" = 16 ] && ok || bad "16 decision marks"
[ "$(grep -c '<tr><td>n=3[0-9][0-9]</td><td>cpu</td><td>10</td>' r5.html)" = 24 ] && ok || bad "all 24 measured sizes"

# every crossover is the one keel explain --sweep finds
for line in 3 11 17; do
    for dev in h100 v100; do
        page=$(grep "^nest .* $line " parsed.txt | tr ' ' '\n' | sed -n "s/^$dev=//p")
        "$BIN/keel" explain "k.c:$line" --sweep '*=1:1048576' --device $dev k.db >sweep.txt 2>&1
        x=$(sed -n 's/^crossover   \* = \([0-9]*\):.*/\1/p; s/^crossover   never.*/never/p' sweep.txt)
        case $page in never*) page=never ;; esac
        [ -n "$x" ] && [ "$x" = "$page" ] && ok || bad "line $line $dev: page '$page', explain '$x'"
    done
done
mm=$(grep "^nest .* 3 " parsed.txt | tr ' ' '\n' | sed -n 's/^h100=//p')
case $mm in ''|*[!0-9]*) bad "matmul: a finite crossover on h100, got '$mm'" ;; *) ok ;; esac
[ "$(grep -o '<td class="num [a-z]*"><span class="xover">' r.html | wc -l)" = 6 ] && ok || bad "crossover cells"

# the sweep table: 16, 32, ..., 4096 and the crossover line
"$BIN/keel" explain k.c:3 --sweep '*=16:4096' --device h100 k.db >sweep.txt 2>&1
[ "$(awk '$1 ~ /^[0-9]+$/ { printf "%s ", $1 }' sweep.txt)" = "16 32 64 128 256 512 1024 2048 4096 " ] \
    && ok || { bad "sweep rows"; cat sweep.txt; }
grep -q '^crossover   ' sweep.txt && ok || bad "sweep crossover line"
# a sweep row is exactly what keel explain --set says at that size
for dev in h100 v100; do
    "$BIN/keel" explain k.c:3 --set n=64 --device $dev k.db >one.txt 2>&1
    "$BIN/keel" explain k.c:3 --sweep 'n=64:64' --device $dev k.db >sw.txt 2>&1
    want=$(sed -n 's/^verdict     cpu \(.*\) | gpu \(.*\) + xfer \(.*\) -> \(GPU\|CPU\).*/\1|\2|\3|\4/p' one.txt)
    got=$(awk '$1 == 64 { print $2 " " $3 "|" $4 " " $5 "|" $6 " " $7 "|" $10 }' sw.txt)
    [ -n "$want" ] && [ "$want" = "$got" ] && ok || bad "$dev: explain --set says '$want', --sweep '$got'"
done
"$BIN/keel" explain k.c:3 --sweep 'n=1:x' k.db >out.txt 2>err.txt; rc=$?
[ $rc = 2 ] && grep -q "^keel: bad --sweep 'n=1:x'" err.txt && ok || bad "bad --sweep"
"$BIN/keel" explain k.c:17 --sweep 'n=8:8' --device h100 k.db >out.txt 2>&1 \
    && [ "$(awk '$1 == 8' out.txt | wc -l)" = 1 ] && ok || bad "one-size sweep of one symbol"

# compact loops: 120 columns, the end of the path kept; --wide is wider
"$BIN/keel" loops k.db >loops.txt 2>&1
[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' loops.txt)" -le 120 ] \
    && ok || { bad "compact loops wider than 120"; cat loops.txt; }
head -1 loops.txt | grep -q '^LOCATION  *IDIOMS  *VERDICT  *CYCLES/ITER$' && ok || bad "compact header"
grep -q '^  *\.\.\..*/k\.c:5  *matmul,reduction  *reduction  *-$' loops.txt && ok || { bad "compact row of line 5"; cat loops.txt; }
[ "$(wc -l < loops.txt)" = 6 ] && ok || bad "compact: 5 loops + header"
"$BIN/keel" loops --wide k.db >wide.txt 2>&1
head -1 wide.txt | grep -q '^LOCATION  *FUNCTION  *DEPTH  *PARENT  *IV  *TRIP  *PRAGMAS' && ok || bad "--wide header"

# errors
"$BIN/keel" report --html r2.html --device nosuch k.db >out.txt 2>err.txt; rc=$?
[ $rc = 2 ] && [ "$(cat err.txt)" = "keel: no GPU profile 'nosuch' (see keel devices)" ] && ok || bad "unknown device"
"$BIN/keel" report --html r2.html missing.db >out.txt 2>err.txt; rc=$?
[ $rc = 1 ] && [ "$(cat err.txt)" = "keel: missing.db: no such file" ] && [ ! -e r2.html ] && ok || bad "missing db"

echo "html: $pass passed, $fail failed"
[ $fail = 0 ]
