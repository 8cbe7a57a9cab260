#!/bin/sh
# loop_fact.sh BIN -- one per-loop fact end to end (db/loop_facts.h):
# keelcc stores loops.serial_why (IPDA's reason, for a loop that is not
# parallel; NULL for a parallel one), keel show prints it, libkeelrt's
# KEEL_VERBOSE=1 summary reads it beside the loop's label as keel loops
# shows it (a reduction; the recurrence gets no site at all), and a database written before the fact
# existed (the column dropped) still reads, then gets the column back at
# the next write.  The what-if device (KEEL_DEVICE) needs no GPU.
BIN=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
cat > w.c <<'E'
#include <stdio.h>
int main(void)
{
    static double a[1000], b[1000];
    double s = 0;
    for (int i = 0; i < 1000; i++)
        a[i] = i;
    for (int i = 0; i < 1000; i++)
        s += a[i] * a[i];
    for (int i = 1; i < 1000; i++)
        b[i] = b[i - 1] + a[i];
    printf("%g %g\n", s, b[999]);
    return 0;
}
E
"$BIN/keelcc" --keel-db=k.db --keel-mca=off -O1 w.c -o w 2>err.txt || bad "keelcc: $(cat err.txt)"
expect_eq "$(sqlite3 k.db "SELECT line || ' ' || parallel || ' ' || ifnull(serial_why, 'NULL')
                           FROM loops ORDER BY line")" "6 parallel NULL
8 reduction only reductions are carried: s (+)
10 sequential b[i] (write, line 11) and b[i - 1] (read, line 11): distance 1 (strong SIV)" "stored"
expect_eq "$("$BIN/keel" show w.c:8 k.db | grep '^why')" "why serial  only reductions are carried: s (+)" "keel show"
expect_eq "$("$BIN/keel" show w.c:6 k.db | grep -c '^why')" 0 "keel show, parallel loop"
expect_eq "$("$BIN/keel" show --json w.c:8 k.db | grep -o '"serial_why": *"[^"]*"')" \
    '"serial_why":"only reductions are carried: s (+)"' "keel show --json"
KEEL_DB=$PWD/k.db KEEL_VERBOSE=1 KEEL_DEVICE=h100 KEEL_HOST=power9 KEEL_LOG=0 ./w >out.txt 2>v.txt
expect_eq "$(cat out.txt)" "3.32834e+08 499500" "program output"
expect_eq "$(grep 'w.c:8' v.txt | sed 's/^keel: [^ ]*w\.c:8 /w.c:8 /')" \
    "w.c:8 main [reduction]: 1 launch, CPU 1, GPU 0 (reduction), why: only reductions are carried: s (+)" "runtime summary"
# a database from before the fact: reads (no line), then gets the column back
# (its packed nests, derived from the rows, go too: the runtime reads the rows)
sqlite3 k.db "ALTER TABLE loops DROP COLUMN serial_why; DELETE FROM nest_packs" ||
    bad "drop column"
expect_eq "$("$BIN/keel" show w.c:8 k.db | grep -c '^why\|^parallel')" 1 "old database: show"
# (KEEL_FACTS=db: the program carries its facts since its one-command build)
KEEL_FACTS=db KEEL_DB=$PWD/k.db KEEL_VERBOSE=1 KEEL_DEVICE=h100 KEEL_HOST=power9 KEEL_LOG=0 ./w >out.txt 2>v.txt
expect_eq "$(grep 'w.c:8' v.txt | sed 's/^keel: [^ ]*w\.c:8 /w.c:8 /')" \
    "w.c:8 main [reduction]: 1 launch, CPU 1, GPU 0 (reduction)" "old database: runtime"
"$BIN/keelcc" --keel-db=k.db --keel-mca=off -O1 w.c -o w 2>err.txt || bad "keelcc again"
expect_eq "$(sqlite3 k.db "SELECT serial_why FROM loops WHERE line = 8")" \
    "only reductions are carried: s (+)" \
    "column added back"
echo "loop_fact: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -eq 9 ]
