#!/bin/sh
# rt_decide.sh BINDIR DECIDE DECIDE_SHARED SRCDIR -- keel_decide end to end:
# verdicts and policies through a keelcc-built database, the decisions
# log, the bad-database paths (CPU + exactly one warning, no crash) and
# many threads on one site (static and shared libkeelrt).
BIN=$1 DECIDE=$2 DECIDE_SO=$3 SRC=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
lines() { wc -l <"$1" | tr -d ' '; }

cp "$SRC/kernels.c" k.c
"$BIN/keelcc" --keel-db="$work/k.db" -c k.c -o k.o || bad "keelcc"
export KEEL_DB="$work/k.db"
unset KEEL_FORCE OMP_TARGET_OFFLOAD KEEL_VERBOSE KEEL_LOG
export OMP_NUM_THREADS=16
# mm's arrays are parameters: its verdict relies on C, A and B being apart,
# and the call passes their addresses as instrumentation does (far apart)
MM='&C &A &B'

# what-if verdicts against h100: matmul flips from CPU (n=10) to GPU (n=2000)
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=10 $MM 2>err.txt)" 0 "mm n=10"
expect_eq "$(lines err.txt)" 0 "mm n=10 warnings"
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=2000 $MM 2>err.txt)" 1 "mm n=2000"
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE_SO" once k.c 4 n=2000 $MM 2>err.txt)" 1 "mm n=2000 (shared)"
# no GPU and no KEEL_DEVICE: CPU ("no device"), unless this host has CUDA
if ! ls /usr/lib/x86_64-linux-gnu/libcuda.so.1 /usr/lib64/libcuda.so.1 >/dev/null 2>&1; then
    expect_eq "$(KEEL_VERBOSE=2 "$DECIDE" once k.c 4 n=2000 $MM 2>err.txt)" 0 "no device"
    grep -q '(no device)$' err.txt && ok || bad "no device line: $(cat err.txt)"
fi

# policies
expect_eq "$(KEEL_FORCE=gpu "$DECIDE" once k.c 4 n=10 $MM)" 1 "KEEL_FORCE=gpu"
expect_eq "$(KEEL_DEVICE=h100 KEEL_FORCE=cpu "$DECIDE" once k.c 4 n=2000 $MM)" 0 "KEEL_FORCE=cpu"
expect_eq "$(OMP_TARGET_OFFLOAD=MANDATORY "$DECIDE" once k.c 4 n=10 $MM)" 1 "MANDATORY"
expect_eq "$(KEEL_DEVICE=h100 OMP_TARGET_OFFLOAD=disabled "$DECIDE" once k.c 4 n=2000 $MM)" 0 "DISABLED"
expect_eq "$(KEEL_FORCE=gpu OMP_TARGET_OFFLOAD=DISABLED "$DECIDE" once k.c 4 n=10 $MM)" 0 "DISABLED beats KEEL_FORCE"

# this host's stored calibration reaches keel_decide (read with the
# facts, through the same connection): a host calibrated at 1 MHz, 1 MB/s
# and 1 Mflop/s runs mm n=10 (1000 multiply-adds) in about a second, so
# the GPU wins where the host defaults keep it on the CPU; a calibration
# of another host is not this one's
cp k.db cal.db
sqlite3 cal.db "INSERT INTO host_calibration(host, cores, freq_hz, mem_bw, peak_flops, fork_ns,
    join_ns, sched_ns, target_fallback_ns) VALUES ('$(hostname)', 1, 1e6, 1e6, 1e6, 1000,
    1000, 1000, 40000)" || bad "sqlite3 insert"
expect_eq "$(KEEL_DB="$work/cal.db" KEEL_DEVICE=h100 KEEL_LOG=0 "$DECIDE" once k.c 4 n=10 $MM)" 1 \
    "calibrated slow host: mm n=10"
sqlite3 cal.db "UPDATE host_calibration SET host = 'not-$(hostname)'" || bad "sqlite3 update"
expect_eq "$(KEEL_DB="$work/cal.db" KEEL_DEVICE=h100 KEEL_LOG=0 "$DECIDE" once k.c 4 n=10 $MM)" 0 \
    "another host's calibration: mm n=10"
rm -f cal.db

# KEEL_VERBOSE: one line per launch
KEEL_VERBOSE=2 KEEL_DEVICE=h100 "$DECIDE" twice k.c 4 n=2000 $MM >out.txt 2>err.txt
expect_eq "$(cat out.txt)" "1 1" "verbose verdicts"
expect_eq "$(lines err.txt)" 2 "verbose lines"
grep -Eq '^keel: k\.c:4 mm \[matmul,reduction\] n=2000: cpu [0-9.]+ (s|ms|us) \| gpu [0-9.]+ (s|ms|us) \+ xfer [0-9.]+ (s|ms|us) -> GPU$' err.txt \
    && ok || bad "verbose format: $(head -1 err.txt)"

# the run-time overlap check: mm n=2000 touches 2000*2000*8 = 32000000
# bytes of each matrix.  C right below A is apart; one element less and
# they share a double; a base the call does not pass: no check, CPU.
C0=1099511627776
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=2000 "&C=$C0" "&A=$((C0 + 32000000))" '&B' 2>err.txt)" 1 "C and A adjacent"
expect_eq "$(KEEL_VERBOSE=2 KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=2000 "&C=$C0" "&A=$((C0 + 31999992))" '&B' 2>err.txt)" 0 "C and A share 8 bytes"
grep -Eq '^keel: k\.c:4 mm \[matmul,reduction\] n=2000: cpu .* -> CPU \(overlap: C \(written\) and A\)$' err.txt \
    && ok || bad "overlap line: $(cat err.txt)"
expect_eq "$(KEEL_VERBOSE=2 KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=2000 "&A=$C0" "&B=$C0" '&C' 2>err.txt)" 1 "A and B the same (both read)"
expect_eq "$(KEEL_VERBOSE=2 KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=2000 '&C' '&A' 2>err.txt)" 0 "a base not passed"
grep -q '^keel: k\.c:4 mm .* -> CPU (overlap unchecked: the call does not pass B)$' err.txt \
    && ok || bad "unchecked line: $(cat err.txt)"

# the decisions log: one row per new set of values; KEEL_LOG=0 writes none
before=$(sqlite3 k.db "SELECT count(*) FROM decisions")
KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=777 $MM >/dev/null
expect_eq "$(sqlite3 k.db "SELECT count(*) FROM decisions")" $((before + 1)) "decision logged"
# k.c has no OpenMP pragma: it runs on one thread whatever OMP_NUM_THREADS says
expect_eq "$(sqlite3 k.db "SELECT bindings, verdict, device, threads FROM decisions ORDER BY id DESC LIMIT 1")" \
    "n=777|GPU|h100|1" "decision row"
KEEL_LOG=0 KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=778 $MM >/dev/null
expect_eq "$(sqlite3 k.db "SELECT count(*) FROM decisions")" $((before + 1)) "KEEL_LOG=0"
# a database another process holds locked: the row is skipped (5 ms busy
# timeout), the verdict comes back
n0=$(sqlite3 k.db "SELECT count(*) FROM decisions")
(echo "BEGIN EXCLUSIVE; INSERT INTO decisions(loop_id, verdict) VALUES (1, 'X');"; sleep 3) \
    | sqlite3 k.db >/dev/null 2>&1 &
holder=$!
sleep 1
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=779 $MM 2>err.txt)" 1 "verdict on a locked db"
expect_eq "$(lines err.txt)" 0 "locked db warnings"
wait $holder
expect_eq "$(sqlite3 k.db "SELECT count(*) FROM decisions")" "$n0" "locked db: row skipped"

# bad values: overflow in n*n, a missing symbol -> CPU, silent unless
# KEEL_VERBOSE, then exactly one warning per cause
warnings() { grep -c '^keel: warning:' "$1"; }
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" twice k.c 12 n=4294967296 2>err.txt)" "0 0" "overflow"
expect_eq "$(lines err.txt)" 0 "overflow: silent"
KEEL_VERBOSE=2 KEEL_DEVICE=h100 "$DECIDE" twice k.c 12 n=4294967296 >/dev/null 2>err.txt
expect_eq "$(warnings err.txt)" 1 "overflow warning lines (verbose)"
grep -q 'overflow' err.txt && ok || bad "overflow warning: $(cat err.txt)"
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" twice k.c 4 m=3 2>err.txt)" "0 0" "missing symbol"
expect_eq "$(lines err.txt)" 0 "missing symbol: silent"
KEEL_VERBOSE=2 KEEL_DEVICE=h100 "$DECIDE" twice k.c 4 m=3 >/dev/null 2>err.txt
expect_eq "$(warnings err.txt)" 1 "missing symbol warning lines (verbose)"
grep -q "does not pass 'n'" err.txt && ok || bad "missing symbol warning: $(cat err.txt)"

# bad databases: CPU, silent; verbose: exactly one warning, no crash
check_bad() {   # name db-path pattern
    out=$(KEEL_DB="$2" KEEL_DEVICE=h100 "$DECIDE" twice k.c 4 n=2000 $MM 2>err.txt)
    expect_eq "$out" "0 0" "$1 verdicts"
    expect_eq "$(lines err.txt)" 0 "$1: silent"
    out=$(KEEL_VERBOSE=2 KEEL_DB="$2" KEEL_DEVICE=h100 "$DECIDE" twice k.c 4 n=2000 $MM 2>err.txt)
    expect_eq "$out" "0 0" "$1 verdicts (verbose)"
    expect_eq "$(warnings err.txt)" 1 "$1 warning lines"
    grep -q "$3" err.txt && ok || bad "$1 warning: $(cat err.txt)"
}
check_bad missing "$work/none.db" 'no such file'
head -c 8192 /dev/urandom >corrupt.db
check_bad corrupt "$work/corrupt.db" 'not a database'
cp k.db new.db && sqlite3 new.db 'PRAGMA user_version = 99'
check_bad newer "$work/new.db" 'newer than this keel'
cp k.db old.db && sqlite3 old.db 'PRAGMA user_version = 1'
check_bad older "$work/old.db" 'older than this keel'
mkfifo fifo.db
check_bad fifo "$work/fifo.db" 'not a regular file'
out=$(KEEL_DEVICE=h100 "$DECIDE" twice k.c 99 n=2000 2>err.txt)
expect_eq "$out" "0 0" "unknown loop verdicts"
expect_eq "$(lines err.txt)" 0 "unknown loop: silent"
KEEL_VERBOSE=2 KEEL_DEVICE=h100 "$DECIDE" twice k.c 99 n=2000 >/dev/null 2>err.txt
expect_eq "$(warnings err.txt)" 1 "unknown loop warning lines"
grep -q 'no loop at k.c:99' err.txt && ok || bad "unknown loop warning: $(cat err.txt)"
# db from the site when KEEL_DB is unset: "unset.db" does not exist
out=$(env -u KEEL_DB KEEL_VERBOSE=2 KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=2000 $MM 2>err.txt)
expect_eq "$out" 0 "site db"
grep -q 'unset.db: no such file' err.txt && ok || bad "site db warning: $(cat err.txt)"

# bounds the runtime cannot evaluate (a struct member, sizeof): silent
# without KEEL_VERBOSE, one warning per cause with it, CPU every time
cat >bounds.c <<'EOF'
#include <stdio.h>
struct buf { int used; double v[16]; };
#define COUNT(x) (sizeof(x) / sizeof((x)[0]))
static double sum(const struct buf *b)
{
    double s = 0;
    for (int i = 0; i < b->used; i++)
        s += b->v[i];
    return s;
}
int main(void)
{
    static const int w[] = { 4, 5, 6 };
    struct buf b = { 16, { 0 } };
    double t = 0;
    for (int r = 0; r < 1000; r++) {
        for (int i = 0; i < 16; i++)
            b.v[i] = i + r;
        t += sum(&b);
    }
    int s = 0;
    for (unsigned i = 0; i < COUNT(w); i++)
        s += w[i];
    printf("%.0f %d\n", t, s);
    return 0;
}
EOF
"$BIN/keelcc" --keel-db="$work/b.db" --keel-quiet -O1 bounds.c -o bounds || bad "keelcc bounds.c"
expect_eq "$(KEEL_DB="$work/b.db" KEEL_DEVICE=h100 ./bounds 2>err.txt)" "8112000 15" "bounds: output"
expect_eq "$(lines err.txt)" 0 "bounds: silent without KEEL_VERBOSE"
KEEL_DB="$work/b.db" KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./bounds >/dev/null 2>err.txt
# keelcc gives nests whose bounds the runtime cannot evaluate (sizeof) no
# call at all (instrument.c, "only what can matter"): no warning even when
# verbose; a bound read through the pointer the loop's own test reads
# (b->used) is passed by its C text, once (report mode: the same value)
expect_eq "$(warnings err.txt)" 0 "bounds: no warning (verbose)"
expect_eq "$(grep -c ' sum .* b->used=16: ' err.txt)" 1 "bounds: the member-bound nest gets b->used"

# a WAL database on a read-only filesystem (needs root for mount: skipped
# otherwise): read as immutable, same verdict, nothing on stderr
mkdir ro.mnt
if mount -t tmpfs -o size=8m tmpfs ro.mnt 2>/dev/null; then
    trap 'umount "$work/ro.mnt" 2>/dev/null; rm -rf "$work"' EXIT
    cp k.db ro.mnt/k.db && mount -o remount,ro ro.mnt
    expect_eq "$(KEEL_DB="$work/ro.mnt/k.db" KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=2000 $MM 2>err.txt)" 1 \
        "read-only filesystem: verdict"
    expect_eq "$(lines err.txt)" 0 "read-only filesystem: silent"
    expect_eq "$("$BIN/keel" loops "$work/ro.mnt/k.db" 2>&1 | grep -c '^k\.c:4 ')" 1 "read-only filesystem: keel loops"
    umount ro.mnt
else
    echo "skipped: read-only filesystem (mount not permitted)"
fi

# keel explain numbers: out of range is a one-line error, never clamped
# (INT64_MAX) or wrapped (atoi)
for a in "--set n=99999999999999999999999" "--set n=1e30" "--set n=10 --threads 99999999999" \
         "--set n=10 --threads 16x" "--set n=10 --threads 0" "--set n=10 --threads -3"; do
    "$BIN/keel" explain k.c:4 $a k.db >out.txt 2>err.txt
    expect_eq "$?" 2 "keel explain $a: exit status"
    expect_eq "$(lines err.txt)" 1 "keel explain $a: one line"
    grep -Eq "^keel: bad --(set|threads) " err.txt && ok || bad "keel explain $a: $(cat err.txt)"
done
"$BIN/keel" explain k.c:4 --set n=10 --threads 1048576 k.db >out.txt 2>err.txt
expect_eq "$(grep -E '^  threads ' out.txt | tr -s ' ')" " threads 1048576" "keel explain --threads 1048576"

# measured history (keel_record): trusted at 10 samples per device, it
# overrides the models (GPU for mm n=1500 on h100) and is logged as such
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=1500 $MM)" 1 "model before history"
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" record k.c 4 n=1500 $MM)" 0 "history decides"
expect_eq "$(sqlite3 k.db "SELECT device, samples, mean_s FROM history WHERE size_key = 'n=1500' ORDER BY device")" \
    "cpu|10|0.001
gpu|10|0.002" "history rows"
expect_eq "$(sqlite3 k.db "SELECT reason FROM decisions WHERE bindings = 'n=1500' ORDER BY id DESC LIMIT 1")" \
    "history: measured" "history logged as the reason"
# the key a miss looks history up with is the one keel_record stored: sizes
# sorted by name whatever order the call passes them in, negative values
# and values of every length (a site that passes extra symbols)
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" record k.c 4 zz=-9223372036854775807 n=1500 b=-3 \
    a10=1234567890123 $MM)" 0 "history decides, key of four sizes"
expect_eq "$(sqlite3 k.db "SELECT device, samples FROM history
                             WHERE size_key = 'a10=1234567890123,b=-3,n=1500,zz=-9223372036854775807'
                             ORDER BY device")" \
    "cpu|10
gpu|10" "history rows, key of four sizes"
# two sizes measured on each device carry the models' times to a third
# (history.h): in a copy without history, the CPU measured 10000 times
# faster than the models say (they give 3.5 s at n = 1000, 28 s at 2000:
# one thread) and the GPU 4 times slower (with its transfer) at n = 1000
# and 2000; at n = 1400, where the models say GPU by 1400x (9.6 s against
# 6.9 ms), history says CPU (0.96 ms against 27.5 ms), logged as a
# regression
sqlite3 k.db ".backup k2.db" && sqlite3 k2.db "DELETE FROM history" || bad "k2.db"
for n in 1000 2000; do
    "$BIN/keel" explain k.c:4 --device h100 --set n=$n k2.db |
        sed -n 's/^seconds  *cpu \([^ ]*\) gpu \([^ ]*\) xfer \([^ ]*\) .*/\1 \2 \3/p' |
        awk -v n=$n '{ printf "k.c:4 n=%s cpu %.17g\nk.c:4 n=%s gpu %.17g\n", n, $1 / 10000, n, 4 * ($2 + $3) }'
done >two.txt
expect_eq "$("$BIN/keel" history --add two.txt k2.db)" "added 4 measurements" "history --add two sizes"
expect_eq "$(KEEL_DB="$work/k2.db" KEEL_DEVICE=h100 "$DECIDE" once k.c 4 n=1400 $MM)" 0 \
    "two sizes carried to a third"
expect_eq "$(sqlite3 k2.db "SELECT verdict, reason FROM decisions WHERE bindings = 'n=1400' ORDER BY id DESC LIMIT 1")" \
    "CPU|history: regression" "regression logged as the reason"

# launch timing from real runs (keel_begin / keel_done, as offload-mode
# instrumentation brackets a region): 5 launches of n=1600 (2 ms each) and
# one of n=17 from each of 8 threads reach the history at exit, as CPU
# times (no libomptarget in this process: the region cannot have offloaded);
# a second run adds its samples (merged means); KEEL_LOG=0 records nothing
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" timed k.c 4 n=1600 $MM 2>err.txt)" "11111 0" "timed verdicts"
expect_eq "$(lines err.txt)" 0 "timed: silent"
expect_eq "$(sqlite3 k.db "SELECT device, samples, mean_s >= 0.002, mean_s < 1 FROM history WHERE size_key = 'n=1600'")" \
    "cpu|5|1|1" "timed history row"
expect_eq "$(sqlite3 k.db "SELECT device, samples, mean_s >= 0.001 FROM history WHERE size_key = 'n=17'")" \
    "cpu|8|1" "timed from 8 threads"
KEEL_DEVICE=h100 "$DECIDE" timed k.c 4 n=1600 $MM >/dev/null
expect_eq "$(sqlite3 k.db "SELECT samples, m2 >= 0 FROM history WHERE size_key = 'n=1600'")" "10|1" "timed merged"
KEEL_LOG=0 KEEL_DEVICE=h100 "$DECIDE" timed k.c 4 n=1600 $MM >/dev/null
expect_eq "$(sqlite3 k.db "SELECT samples FROM history WHERE size_key = 'n=1600'")" 10 "timed KEEL_LOG=0"
# KEEL_CALIBRATE=1: a size with fewer than 10 samples on a device runs on
# the one with fewer (CPU first); here the "GPU" launches ran on the host
# (no offload runtime), so they count for the CPU and the GPU stays short.
# A size the history has trusted (n=1500: 10 + 10) is decided by it.
expect_eq "$(KEEL_CALIBRATE=1 KEEL_DEVICE=h100 "$DECIDE" calibrate k.c 4 n=1700 $MM)" "0111" "calibrate alternates"
expect_eq "$(sqlite3 k.db "SELECT reason FROM decisions WHERE bindings = 'n=1700' ORDER BY id DESC LIMIT 1")" \
    "calibrating: fewer than 10 samples on a device" "calibrate logged"
expect_eq "$(KEEL_CALIBRATE=1 KEEL_DEVICE=h100 "$DECIDE" calibrate k.c 4 n=1500 $MM)" "0000" "calibrated size"

# a site that carries its source's hash ("FILE#h=HEX", as keelcc recorded
# it): the facts of another version of the source are not used
kpath=$(sqlite3 k.db "SELECT path FROM translation_units WHERE path LIKE '%/k.c'")
khash=$(sqlite3 k.db "SELECT hash FROM translation_units WHERE path LIKE '%/k.c'")
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" once "$kpath#h=$khash" 4 n=2000 $MM 2>err.txt)" 1 "site hash matches: verdict"
expect_eq "$(lines err.txt)" 0 "site hash matches: silent"
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" once "$kpath#h=0123456789abcdef" 4 n=2000 2>err.txt)" 0 \
    "stale database: verdict"
expect_eq "$(lines err.txt)" 0 "stale database: silent"
KEEL_VERBOSE=2 KEEL_DEVICE=h100 "$DECIDE" once "$kpath#h=0123456789abcdef" 4 n=2000 >/dev/null 2>err.txt
grep -q '^keel: warning: k.c:4: the database describes another version of k.c' err.txt && ok \
    || bad "stale database warning: $(cat err.txt)"
grep -q '^keel: k.c:4 n=2000: -> CPU (stale database)$' err.txt && ok || bad "stale database line: $(cat err.txt)"

# many threads, one site (n=1000 and its second size n=11: GPU and CPU;
# at n=21 the latency-bound GPU kernel and one CPU thread are too close)
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE" threads k.c 4 n=1000 $MM)" "threads ok 1 0" "threads (static)"
expect_eq "$(KEEL_DEVICE=h100 "$DECIDE_SO" threads k.c 4 n=1000 $MM)" "threads ok 1 0" "threads (shared)"

finish
