#!/bin/sh
# compile-overhead.sh BUILD [RUNS] -- what keelcc costs over plain clang-19.
#
# Builds every polybench input (make -B -j1, -O2, SMALL dataset) with plain
# clang-19 and with keelcc on the same flags, RUNS times each (default 3),
# and prints a table of the median wall times and the ratio.
set -eu
BUILD=${1:-build}
RUNS=${2:-3}
BIN=$(cd "$BUILD/bin" && pwd)
PB=$(pwd)/polybench-inputs
work=$(mktemp -d /tmp/keel-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
nfiles=$(( $(make -s -C "$PB" list | wc -l) ))

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timeit() {   # timeit CC -> seconds of one full build
    rm -f "$work/k.db" "$work/k.db-wal" "$work/k.db-shm"
    t0=$(now)
    make -s -B -C "$PB" CC="$1" KEEL_DB="$work/k.db" O="$work/bin" DATASET=SMALL >/dev/null 2>&1
    t1=$(now)
    awk "BEGIN { print $t1 - $t0 }"
}
for r in $(seq "$RUNS"); do timeit clang-19 >>"$work/plain"; done
for r in $(seq "$RUNS"); do timeit "$BIN/keelcc" >>"$work/keel"; done
p=$(median <"$work/plain")
k=$(median <"$work/keel")
echo "compile overhead: $nfiles polybench programs (each: kernel .c + polybench.c, compile and link), -O2, make -j1, median of $RUNS"
echo
printf '| %-10s | %12s | %16s |\n' "compiler" "total (s)" "per program (ms)"
printf '|%s|%s|%s|\n' "------------" "--------------" "------------------"
printf '| %-10s | %12.2f | %16.0f |\n' "clang-19" "$p" "$(awk "BEGIN { print $p * 1000 / $nfiles }")"
printf '| %-10s | %12.2f | %16.0f |\n' "keelcc" "$k" "$(awk "BEGIN { print $k * 1000 / $nfiles }")"
printf '| %-10s | %11.2fx | %16s |\n' "ratio" "$(awk "BEGIN { print $k / $p }")" ""
