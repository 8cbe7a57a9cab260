#!/bin/sh
# rt_runlog.sh BINDIR MEMO_CYCLE SRCDIR -- output that scales and a log
# that survives the program:
#  - a site cycling through 3, 8, 9 and 60 size sets: the models are
#    evaluated once per set over 10 rounds (a memo that grows to 512
#    launches); one cycling through 1000 sets over 3 rounds: at least
#    3000 - 2 x 512 evaluations (the memo stops growing);
#  - KEEL_VERBOSE=1: one line per site at exit and one of totals;
#    KEEL_VERBOSE=2: one line per launch;
#  - what the log leaves when the program calls abort() or is killed
#    (SIGKILL): nothing from a site's first call; the rows a later decision
#    found waiting, LOG_BATCH (64) of them or the oldest past LOG_AGE (1 s);
#    every decision (LOG_CAP, 100 a site) at a normal exit;
#  - a decision the table already holds is not written again;
#  - the program's writes wait in the WAL (no checkpoint when its
#    connection closes): the database file is not touched.
BIN=$1 CYCLE=$2 SRC=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
unset KEEL_VERBOSE KEEL_FORCE KEEL_LOG KEEL_HOST KEEL_CALIBRATE OMP_TARGET_OFFLOAD
export KEEL_DEVICE=h100 OMP_NUM_THREADS=16

# ---- the memo --------------------------------------------------------------
cp "$SRC/kernels.c" k.c
"$BIN/keelcc" --keel-db="$work/k.db" --keel-mca=off --keel-quiet -c k.c -o k.o || bad "keelcc k.c"
export KEEL_DB="$work/k.db"
for kr in "3 3" "8 8" "9 9" "60 60"; do
    set -- $kr
    KEEL_VERBOSE=1 "$CYCLE" k.c 4 n "$1" 10 >out.txt 2>err.txt
    expect_eq "$(grep -c '^keel: ' err.txt)" 2 "$1 sets: summary lines"
    expect_eq "$(sed -n 's/^keel: k\.c:4 mm \[matmul,reduction\]: \([0-9]*\) launches, CPU \([0-9]*\), GPU \([0-9]*\), models evaluated \([0-9]*\), predicted .*/\1 \4/p' err.txt)" \
        "$(($1 * 10)) $2" "$1 sets: launches and model evaluations"
    cpu=$(tr -cd 0 <out.txt | wc -c) gpu=$(tr -cd 1 <out.txt | wc -c)
    expect_eq "$(sed -n 's/^keel: k\.c:4 mm .*: [0-9]* launches, CPU \([0-9]*\), GPU \([0-9]*\),.*/\1 \2/p' err.txt)" \
        "$((cpu * 10)) $((gpu * 10))" "$1 sets: CPU and GPU counts"
    expect_eq "$(sed -n '$p' err.txt)" "keel: 1 site, $(($1 * 10)) launches, CPU $((cpu * 10)), GPU $((gpu * 10))" \
        "$1 sets: totals"
done
# a cycle longer than the memo: it stays bounded (at most 512 hits a round)
KEEL_VERBOSE=1 "$CYCLE" k.c 4 n 1000 3 >out.txt 2>err.txt
ev=$(sed -n 's/^keel: k\.c:4 mm .*: \([0-9]*\) launches, .*models evaluated \([0-9]*\),.*/\1 \2/p' err.txt)
set -- $ev
expect_eq "$1" 3000 "1000 sets: launches"
[ "${2:-0}" -ge 1976 ] && [ "${2:-0}" -le 3000 ] && ok || bad "1000 sets: $2 evaluations, want 1976..3000"
# KEEL_VERBOSE=2: a line per launch, no summary
KEEL_VERBOSE=2 "$CYCLE" k.c 4 n 3 2 >/dev/null 2>err.txt
expect_eq "$(grep -c '^keel: k\.c:4 mm \[matmul,reduction\] n=[0-9]*: cpu ' err.txt)" 6 "verbose 2: a line per launch"
expect_eq "$(grep -c 'launches' err.txt)" 0 "verbose 2: no summary"
# no KEEL_VERBOSE: nothing
"$CYCLE" k.c 4 n 3 2 >/dev/null 2>err.txt
expect_eq "$(wc -c <err.txt | tr -d ' ')" 0 "quiet without KEEL_VERBOSE"
# a site whose verdict does not depend on the values: its reason
KEEL_VERBOSE=1 KEEL_FORCE=cpu "$CYCLE" k.c 4 n 3 2 >/dev/null 2>err.txt
expect_eq "$(sed -n 1p err.txt)" "keel: k.c:4 mm [matmul,reduction]: 6 launches, CPU 6, GPU 0 (KEEL_FORCE=cpu)" \
    "fixed verdict summary"

# ---- decisions of a program that aborts or is killed ----------------------
# dies N HOW [PAUSE_MS NEXT]: scale() with the sizes 1..N (a new decision
# each); then, after a pause, NEXT: "s" scale() with sizes N+1 and N+2 (two
# later decisions of a known site), "f" shift() once (a site's first
# call); then HOW: abort(), SIGKILL, or a normal exit.
cat >dies.c <<'SRC'
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static double a[4096], b[4096];
static void scale(int n) { for (int i = 0; i < n; i++) a[i] = a[i] * 0.5 + i; }
static void shift(int n) { for (int i = 0; i < n; i++) b[i] = b[i] + a[i]; }
int main(int argc, char **argv)
{
    int many = atoi(argv[1]);
    for (int n = 1; n <= many; n++)     /* a new size every launch */
        scale(n);
    if (argc > 4) {
        long ms = atol(argv[3]);
        struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
        nanosleep(&t, NULL);
        if (argv[4][0] == 's')
            scale(many + 1), scale(many + 2);
        else
            shift(1000);
    }
    printf("%.1f\n", a[0] + b[0]);
    fflush(stdout);
    if (argv[2][0] == 'a')
        abort();
    if (argv[2][0] == 'k')
        kill(getpid(), SIGKILL);
    return 0;
}
SRC
"$BIN/keelcc" --keel-db="$work/d.db" --keel-mca=off --keel-quiet -O1 dies.c -o dies || bad "keelcc dies.c"
unset KEEL_DB
rows() {
    sqlite3 d.db "SELECT (SELECT count(*) FROM decisions d JOIN loops l ON l.id = d.loop_id WHERE l.line = 7),
                         (SELECT count(*) FROM decisions d JOIN loops l ON l.id = d.loop_id WHERE l.line = 8)"
}
# a site's first call writes nothing: one launch, then abort(), leaves none
(./dies 1 abort >out.txt 2>/dev/null)
expect_eq "$(cat out.txt)" 0.0 "abort: output"
expect_eq "$(rows)" "0|0" "abort after one launch (a first call)"
# LOG_BATCH: scale's 64th decision writes the 64 waiting; the other 36 die
sqlite3 d.db "DELETE FROM decisions"
(./dies 100 abort >/dev/null 2>&1)
expect_eq "$(rows)" "64|0" "abort after 100 decisions"
sqlite3 d.db "DELETE FROM decisions"
(./dies 100 kill >/dev/null 2>&1)
expect_eq "$(rows)" "64|0" "SIGKILL after 100 decisions"
# LOG_AGE: 3 decisions, a pause past a second, then a later decision of the
# same site writes the 4 waiting; the one after it dies with the program
sqlite3 d.db "DELETE FROM decisions"
(./dies 3 kill 1300 s >/dev/null 2>&1)
expect_eq "$(rows)" "4|0" "SIGKILL after a pause and two more decisions"
# ... but a site's first call after the pause does not write: nothing
sqlite3 d.db "DELETE FROM decisions"
(./dies 3 kill 1300 f >/dev/null 2>&1)
expect_eq "$(rows)" "0|0" "SIGKILL after a pause and another site's first call"
# a normal exit writes every decision (LOG_CAP keeps 100 a site)
sqlite3 d.db "DELETE FROM decisions"
(./dies 120 exit 0 f >/dev/null 2>&1)
expect_eq "$(rows)" "100|1" "exit after 121 decisions"
# the program's writes stay in the WAL: its connection neither checkpoints
# when it closes nor syncs, so the database file itself is as before, and
# every reader sees the rows
sqlite3 d.db "DELETE FROM decisions; PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
main_before=$(cksum <d.db)
(./dies 120 exit 0 f >/dev/null 2>&1)
expect_eq "$(cksum <d.db)" "$main_before" "the database file after the program's writes"
[ -s d.db-wal ] && ok || bad "the program's rows are not in the WAL"
expect_eq "$(rows)" "100|1" "exit after 121 decisions, read through the WAL"
# the same run again: every decision is in the table already, none is
# written twice; new values are
(./dies 120 exit 0 f >/dev/null 2>&1)
expect_eq "$(rows)" "100|1" "the same run again"
(./dies 130 exit 0 f >/dev/null 2>&1)
expect_eq "$(rows)" "100|1" "a run whose first 100 decisions are known"
(./dies 3 exit 0 s >/dev/null 2>&1)
expect_eq "$(rows)" "100|1" "known values, a site's cap not reached"
sqlite3 d.db "DELETE FROM decisions WHERE bindings = 'n=5'"
expect_eq "$(rows)" "99|1" "one decision deleted"
(./dies 5 exit 0 s >/dev/null 2>&1)
expect_eq "$(rows)" "100|1" "the decision the table lost, written again"
# KEEL_LOG=0: none
sqlite3 d.db "DELETE FROM decisions"
(KEEL_LOG=0 ./dies 100 kill >/dev/null 2>&1)
expect_eq "$(rows)" "0|0" "KEEL_LOG=0"
(KEEL_LOG=0 ./dies 100 exit >/dev/null 2>&1)
expect_eq "$(rows)" "0|0" "KEEL_LOG=0, normal exit"

finish rt_runlog
