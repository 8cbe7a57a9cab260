#!/bin/sh
# growth.sh BUILD [RUNS] -- how keelcc's cost grows with the size of a file
# and with the depth of a nest, against clang-19 on the same file.
#
# Files from bench/gen-growth.py: `size N` (about N lines of ordinary loop
# code, 100 to 50,000 lines) and `depth D` (one nest D loops deep, 1 to 64).
# Each is compiled with `-O0 -c` (so the compiler's own optimisation does
# not hide the analysis) by clang-19 and by keelcc with a new database and
# KEEL_MCA=off (the llvm-mca stage is measured by compile-overhead.sh),
# RUNS times each (default 3), alternated; the table gives the medians of
#   CPU (s)      user + system of the command and its children;
#   extra/line   keelcc's CPU minus clang's, per line of the file (µs):
#                constant when the growth is linear;
#   peak MiB     the largest resident size of any one process of the build
#                (GNU time's %M: keelcc's own, its libclang parse, or the
#                compiler it runs), and keelcc's over clang's;
#   extra KiB/line  keelcc's peak minus clang's, per line of the file:
#                constant when memory grows linearly;
#   no-instr     keelcc with KEEL_INSTRUMENT=off (parse, analyses and the
#                database, then the plain compile): its CPU and peak apart
#                from the compile of the instrumented text, whose site code
#                grows with the number of nests.
# Timings only: nothing here is asserted by a test.
set -eu
BUILD=${1:-build}
RUNS=${2:-3}
BIN=$(cd "$BUILD/bin" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-growth-XXXXXX")
trap 'rm -rf "$work"' EXIT
SIZES=${SIZES:-"100 1000 5000 20000 50000"}
DEPTHS=${DEPTHS:-"1 4 8 16 32 64"}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# one compile: appends "cpu maxrss_kib" to $3
one() {   # one CC FILE OUT [INSTRUMENT]
    rm -f "$work"/k.db*
    KEEL_INSTRUMENT=${4:-report} KEEL_DB="$work/k.db" KEEL_MCA=off /usr/bin/time -f "%U %S %M" -o "$work/t" \
        $1 -O0 -c "$2" -o "$work/x.o" 2>>"$work/log" >/dev/null || echo "failed: $1 $2" >&2
    awk '{ print $1 + $2, $3 }' "$work/t" >>"$3"
}
row() {   # row LABEL FILE
    f=$2
    lines=$(wc -l <"$f")
    : >"$work/p"; : >"$work/k"; : >"$work/n"
    for r in $(seq "$RUNS"); do
        one clang-19 "$f" "$work/p"
        one "$BIN/keelcc" "$f" "$work/k"
        one "$BIN/keelcc" "$f" "$work/n" off
    done
    pc=$(cut -d' ' -f1 <"$work/p" | median); pm=$(cut -d' ' -f2 <"$work/p" | median)
    kc=$(cut -d' ' -f1 <"$work/k" | median); km=$(cut -d' ' -f2 <"$work/k" | median)
    nc=$(cut -d' ' -f1 <"$work/n" | median); nm=$(cut -d' ' -f2 <"$work/n" | median)
    awk -v l="$1" -v n="$lines" -v pc="$pc" -v kc="$kc" -v pm="$pm" -v km="$km" -v nc="$nc" \
        -v nm="$nm" 'BEGIN {
        printf "| %-12s | %6d | %7.2f | %7.2f | %6.2fx | %8.1f | %6.0f | %6.0f | %5.2fx | %6.2f | %7.2f | %8.1f | %6.0f |\n",
            l, n, pc, kc, (pc > 0 ? kc / pc : 0), (kc - pc) / n * 1e6, pm / 1024, km / 1024,
            (pm > 0 ? km / pm : 0), (km - pm) / n, nc, (nc - pc) / n * 1e6, nm / 1024 }'
}
header() {
    printf '| %-12s | %6s | %7s | %7s | %7s | %8s | %6s | %6s | %6s | %6s | %7s | %8s | %6s |\n' "$1" "lines" \
        "clang s" "keelcc s" "ratio" "extra µs/line" "clang MiB" "keelcc MiB" "ratio" "extra KiB/line" \
        "no-instr s" "no-instr µs/line" "no-instr MiB"
    echo "|--------------|--------|---------|---------|---------|----------|--------|--------|-------|--------|---------|----------|--------|"
}
echo "growth: -O0 -c, KEEL_MCA=off, CPU of the command and its children, median of $RUNS," \
     "$(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) at the start"
echo
header "file size"
for n in $SIZES; do
    python3 "$HERE/gen-growth.py" size "$n" >"$work/size$n.c"
    row "size $n" "$work/size$n.c"
done
echo
header "nest depth"
for d in $DEPTHS; do
    python3 "$HERE/gen-growth.py" depth "$d" >"$work/depth$d.c"
    row "depth $d" "$work/depth$d.c"
done
echo
echo "load $(cut -d' ' -f1 /proc/loadavg) at the end"
