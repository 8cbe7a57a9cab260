#!/bin/sh
# polybench.sh BIN SRC -- end to end over every polybench input.
#
#  1. Build all programs with plain clang-19 and with keelcc (make -j1),
#     MINI dataset; every keelcc-built program prints exactly the same
#     checksums as its plain build.
#  2. Per source file, the kernel loops in the database (plain sqlite3 on the
#     loop_summary view) are exactly the `for` lines of its kernel functions
#     (kernel-loops.awk); every translation unit was analysed (status ok).
#  3. The same build under make -j8 into a second database gives exactly the
#     same rows (no lost or duplicated rows with concurrent writers), and a
#     forced rebuild into it changes nothing (recompiling replaces rows).
set -eu
BIN=$1
SRC=$2
PB=$SRC/polybench-inputs
HERE=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/keel-e2e-XXXXXX)
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib.sh"

make -s -C "$PB" DATASET=MINI O="$work/plain" CC=clang-19 >/dev/null
make -s -C "$PB" DATASET=MINI O="$work/keel" CC="$BIN/keelcc" KEEL_DB="$work/seq.db" \
    >/dev/null 2>"$work/keelcc.err"
if [ -s "$work/keelcc.err" ]; then
    bad "keelcc printed warnings:"; cat "$work/keelcc.err"
else ok; fi

nprog=0
for src in $(make -s -C "$PB" list); do
    prog=${src%.c}
    nprog=$((nprog + 1))
    # 1. same results
    "$work/plain/$prog" >"$work/out.plain" 2>&1 || bad "$prog: plain build failed to run"
    "$work/keel/$prog" >"$work/out.keel" 2>&1 || bad "$prog: keelcc build failed to run"
    if cmp -s "$work/out.plain" "$work/out.keel"; then ok; else bad "$prog: outputs differ"; fi
    grep -q checksum "$work/out.keel" || bad "$prog: prints no checksum"
    # 2. exactly the kernel loops
    abs=$(cd "$PB/$(dirname "$src")" && pwd)/$(basename "$src")
    want=$(awk -f "$HERE/kernel-loops.awk" "$PB/$src" | tr '\n' ' ')
    got=$(sqlite3 "$work/seq.db" "SELECT line FROM loop_summary WHERE file = '$abs' AND function LIKE 'kernel\\_%' ESCAPE '\\' ORDER BY line" | tr '\n' ' ')
    if [ -n "$want" ] && [ "$want" = "$got" ]; then ok; else bad "$src: kernel loops at lines [$got], want [$want]"; fi
    status=$(sqlite3 "$work/seq.db" "SELECT status FROM translation_units WHERE path = '$abs'")
    if [ "$status" = ok ]; then ok; else bad "$src: analysis status '$status'"; fi
done
[ "$nprog" -ge 43 ] && ok || bad "only $nprog programs (want 30 PolyBench + 13 offload)"

# 3. concurrent writers
dump() {
    sqlite3 "$1" "SELECT t.path, l.line, l.col, l.depth, l.iv, l.pragmas, l.trip_id IS NOT NULL,
                         (SELECT count(*) FROM statements s WHERE s.loop_id = l.id),
                         (SELECT count(*) FROM accesses a JOIN statements s ON a.stmt_id = s.id WHERE s.loop_id = l.id)
                  FROM loops l JOIN translation_units t ON t.id = l.tu_id ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9"
}
make -s -j8 -C "$PB" DATASET=MINI O="$work/par" CC="$BIN/keelcc" KEEL_DB="$work/par.db" >/dev/null 2>&1
dump "$work/seq.db" >"$work/seq.rows"
dump "$work/par.db" >"$work/par.rows"
if [ -s "$work/seq.rows" ] && cmp -s "$work/seq.rows" "$work/par.rows"; then ok; else bad "make -j8 rows differ from make -j1"; fi
make -s -B -j8 -C "$PB" DATASET=MINI O="$work/par" CC="$BIN/keelcc" KEEL_DB="$work/par.db" >/dev/null 2>&1
dump "$work/par.db" >"$work/par2.rows"
if cmp -s "$work/seq.rows" "$work/par2.rows"; then ok; else bad "rebuild duplicated or lost rows"; fi
ntu=$(sqlite3 "$work/par.db" "SELECT count(*) FROM translation_units")
# + utilities/polybench.c, built twice: with -fopenmp (omp-target/) and
# without (each program's own -I folder does not make another build)
nsrc=$(( $(make -s -C "$PB" list | wc -l) + 2 ))
[ "$ntu" -eq "$nsrc" ] && ok || bad "$ntu translation units, want $nsrc"

finish
