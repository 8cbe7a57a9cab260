#!/bin/sh
# compile-overhead.sh BUILD [RUNS] [KERNEL...] -- what keelcc costs over
# plain clang-19, in wall time and in CPU time.
#
# Each KERNEL (a folder under polybench-inputs, default
# linear-algebra/blas/gemm) is built as one compile-and-link command,
# `CC -O2 -I... kernel.c polybench.c -o prog`, RUNS times (default 5) with:
#   clang-19                the plain compiler;
#   keelcc cold             keelcc as it is by default (analysis,
#                           instrumentation, llvm-mca for the host CPU)
#                           with a new database: every llvm-mca block runs;
#   keelcc warm             the same command again on the database the
#                           previous build left: a rebuild of unchanged code
#                           (keelcc's direct mode reuses the stored builds);
#   keelcc warm, no direct  the same with KEEL_DIRECT=off: parse, analyses
#                           and assembly compiles again, llvm-mca blocks from
#                           the database's cache (what a rebuild paid before
#                           direct mode, and roughly what an edited source
#                           with unchanged loops pays);
#   cold, llvm-mca off / instrument off / both off / analysis off
#                           the cold build with KEEL_MCA=off,
#                           KEEL_INSTRUMENT=off, both, or KEEL_DISABLE=1
#                           (keelcc only runs the compiler): what each
#                           stage costs is its difference to "keelcc cold";
# and prints the median wall time and the median CPU time (user + system of
# the command and all its children, which is what a parallel `make -j`
# pays) with the ratios to clang-19.  On a loaded machine wall times move a
# lot; CPU times much less.
set -eu
BUILD=${1:-build}
RUNS=${2:-5}
shift $(( $# > 2 ? 2 : $# ))
KERNELS=${*:-linear-algebra/blas/gemm}
BIN=$(cd "$BUILD/bin" && pwd)
PB=$(pwd)/polybench-inputs
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-bench-XXXXXX")
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# one CC build of every kernel; appends "wall cpu" to $2
build() {
    for k in $KERNELS; do
        name=$(basename "$k")
        /usr/bin/time -f "%e %U %S" -o "$work/t" \
            $1 -O2 -I"$PB/utilities" -I"$PB/$k" -DSMALL_DATASET "$PB/$k/$name.c" \
            "$PB/utilities/polybench.c" -o "$work/$name" -lm 2>>"$work/log" >/dev/null
        cat "$work/t"
    done | awk '{ w += $1; c += $2 + $3 } END { print w, c }' >>"$2"
}
for r in $(seq "$RUNS"); do
    build clang-19 "$work/plain"
    rm -f "$work"/k.db*
    KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/cold"
    KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/warm"
    KEEL_DIRECT=off KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/nodirect"
    # the stages: each cold build again with one stage off
    rm -f "$work"/k.db*
    KEEL_MCA=off KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/nomca"
    rm -f "$work"/k.db*
    KEEL_INSTRUMENT=off KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/noinst"
    rm -f "$work"/k.db*
    KEEL_MCA=off KEEL_INSTRUMENT=off KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/neither"
    rm -f "$work"/k.db*
    KEEL_DISABLE=1 KEEL_DB="$work/k.db" build "$BIN/keelcc" "$work/noanalysis"
done
row() {   # row LABEL FILE
    w=$(cut -d' ' -f1 <"$2" | median)
    c=$(cut -d' ' -f2 <"$2" | median)
    printf '| %-23s | %8.3f | %6.2fx | %8.3f | %6.2fx |\n' "$1" "$w" \
        "$(awk "BEGIN { print $w / $pw }")" "$c" "$(awk "BEGIN { print $c / $pc }")"
}
pw=$(cut -d' ' -f1 <"$work/plain" | median)
pc=$(cut -d' ' -f2 <"$work/plain" | median)
echo "compile overhead: $(echo $KERNELS | wc -w) program(s) ($KERNELS), each kernel.c + polybench.c compiled and linked in one command, -O2, median of $RUNS, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo
printf '| %-23s | %8s | %7s | %8s | %7s |\n' "build" "wall (s)" "ratio" "CPU (s)" "ratio"
printf '|%s|%s|%s|%s|%s|\n' "-------------------------" "----------" "---------" "----------" "---------"
row "clang-19" "$work/plain"
row "keelcc cold" "$work/cold"
row "keelcc warm" "$work/warm"
row "keelcc warm, no direct" "$work/nodirect"
row "cold, llvm-mca off" "$work/nomca"
row "cold, instrument off" "$work/noinst"
row "cold, both off" "$work/neither"
row "cold, analysis off" "$work/noanalysis"
