#!/bin/bash
# coverage.sh BIN SRC [CSMITH_COUNT] -- property: source-based coverage of a
# keelcc build is the plain build's.  Every PolyBench input (MINI dataset)
# and CSMITH_COUNT csmith programs of fixed seeds (default 8) are built with
# `-fprofile-instr-generate -fcoverage-mapping` by clang-19 and by keelcc
# (same folder, same source path), run, and llvm-cov-19's export (lcov: line,
# function and branch counts of the source) compared; keelcc's build must
# also be instrumented (it calls libkeelrt) wherever keel found a nest to
# report.  A csmith program whose plain build does not finish (csmith
# programs need not terminate) is skipped.  Prints a line per program that differs and the counts; exit
# status 1 when any differs or nothing was instrumented.
set -u
BIN=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
NCS=${3:-8}
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC KEEL_LOG
export KEEL_MCA=off
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-coverage-XXXXXX")
trap 'rm -rf "$work"' EXIT
PB=$SRC/polybench-inputs
progs=0 diffs=0 inst=0 lines=0 skipped=0
# check NAME FLAGS... : build b.c (+ files) both ways in $work/b, compare
check() {
    local name=$1; shift
    progs=$((progs + 1))
    for v in clang keel; do
        if [ $v = clang ]; then c=clang-19; else c="$BIN/keelcc --keel-db=$work/b/k.db"; fi
        (cd "$work/b" && $c -fprofile-instr-generate -fcoverage-mapping -O0 "$@" -o p.$v -lm \
            && LLVM_PROFILE_FILE=$v.profraw timeout 20 ./p.$v >/dev/null 2>&1 \
            && llvm-profdata-19 merge -o $v.profdata $v.profraw \
            && llvm-cov-19 export -format=lcov p.$v -instr-profile=$v.profdata >$v.lcov) \
            || { if [ $v = clang ]; then skipped=$((skipped + 1)); progs=$((progs - 1));
                 else echo "FAIL $name: keelcc's build did not build, run or export"; diffs=$((diffs + 1)); fi
                 return; }
    done
    nm "$work/b/p.keel" | grep -q keel_decide && inst=$((inst + 1))
    lines=$((lines + $(grep -c '^DA:' "$work/b/clang.lcov")))
    cmp -s "$work/b/clang.lcov" "$work/b/keel.lcov" \
        || { diffs=$((diffs + 1)); echo "DIFF $name: $(diff "$work/b/clang.lcov" "$work/b/keel.lcov" | grep '^[<>]' | head -4 | tr '\n' ' ')"; }
}
for f in $(cd "$PB" && find . -name '*.c' ! -path './utilities/*' | sort); do
    rm -rf "$work/b"; mkdir -p "$work/b"
    cp "$PB/$f" "$PB/${f%.c}.h" "$PB/utilities/polybench.c" "$PB/utilities/polybench.h" "$work/b/"
    check "$f" -DMINI_DATASET -I. "$(basename "$f")" polybench.c
done
for s in $(seq 800001 $((800000 + NCS))); do
    rm -rf "$work/b"; mkdir -p "$work/b"
    csmith --seed "$s" >"$work/b/cs.c" 2>/dev/null || continue
    check "csmith seed $s" -w -I/usr/include/csmith cs.c
done
echo "$progs programs ($inst instrumented by keelcc), $lines lines with counts; $diffs differ" \
     "($skipped skipped: the plain build did not finish in 20 s)"
[ "$diffs" -eq 0 ] && [ "$inst" -gt 0 ]
