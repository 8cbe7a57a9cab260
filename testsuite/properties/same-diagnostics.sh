#!/bin/bash
# same-diagnostics.sh BIN SRC [CSMITH_COUNT] -- property: keelcc gives the
# build the verdict clang-19 gives.  Over every C file of the project's test
# corpora (testsuite/, the probe corpus, the PolyBench inputs) and
# CSMITH_COUNT csmith programs of fixed seeds (default 360: at least 500
# files in all), each compiled with `-Wall -Wextra` and again with
# `-Wall -Wextra -Werror`, keelcc's exit status, stdout and set of
# diagnostics (every `file:line:col: kind: text` line of stderr, the
# directory of the build taken out) are clang-19's.  Files run in parallel
# (JOBS, default: the number of processors).  Prints one line per file and
# flag set that differs and the counts; exit status 1 when any differs or
# fewer than 500 files were compared.
set -u
BIN=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
NCS=${3:-360}
JOBS=${JOBS:-$(nproc)}
unset KEEL_DB KEEL_VERBOSE KEEL_DEVICE KEEL_INSTRUMENT KEEL_DISABLE KEEL_QUIET KEEL_CC KEEL_LOG
export KEEL_MCA=off KEELCC=$BIN/keelcc SRC
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-samediag-XXXXXX")
trap 'rm -rf "$work"' EXIT
export work
mkdir -p "$work/csmith" "$work/res"
( cd "$SRC" && find testsuite polybench-inputs -name '*.c' | sort ) >"$work/files.txt"
for s in $(seq 700001 $((700000 + NCS))); do
    csmith --seed "$s" >"$work/csmith/cs$s.c" 2>/dev/null && echo "$work/csmith/cs$s.c" >>"$work/files.txt"
done

# one FILE: compile with both compilers and both flag sets, print a line per
# difference, then "checked"
one() {
    f=$1; case $f in /*) ;; *) f=$SRC/$f ;; esac
    d=$(mktemp -d "$work/res/f-XXXXXX")
    cp "$f" "$d/t.c"
    inc="-I$(dirname "$f") -I$SRC/polybench-inputs/utilities -I/usr/include/csmith"
    for set in "-Wall -Wextra" "-Wall -Wextra -Werror"; do
        for cc in clang keel; do
            if [ $cc = clang ]; then c=clang-19; else c="$KEELCC --keel-db=$d/k.db"; fi
            (cd "$d" && $c $set $inc -O0 -c t.c -o $cc.o >$cc.out 2>$cc.err; echo $? >$cc.rc)
            grep -E '^[^ :]+:[0-9]+:[0-9]+: (warning|error|note|fatal error): ' "$d/$cc.err" \
                | sort -u >"$d/$cc.diag"
        done
        why=
        cmp -s "$d/clang.rc" "$d/keel.rc" || why="$why exit $(cat "$d/keel.rc") vs $(cat "$d/clang.rc");"
        cmp -s "$d/clang.out" "$d/keel.out" || why="$why stdout;"
        cmp -s "$d/clang.diag" "$d/keel.diag" \
            || why="$why diagnostics: $(diff "$d/clang.diag" "$d/keel.diag" | grep '^[<>]' | head -2 | tr '\n' ' ');"
        [ -z "$why" ] || echo "DIFF $f [$set]:$why"
        if [ "$set" = "-Wall -Wextra" ]; then
            nd=$(wc -l <"$d/clang.diag")
            [ -e "$d/k.db" ] && echo "analysed $nd" || echo "unanalysed $nd"
        fi
    done
    rm -rf "$d"
    echo checked
}
export -f one
xargs -P "$JOBS" -I{} bash -c 'one "$1"' _ {} <"$work/files.txt" >"$work/log.txt"
grep '^DIFF' "$work/log.txt"
n=$(grep -c '^checked' "$work/log.txt")
nd=$(grep -c '^DIFF' "$work/log.txt")
na=$(grep -c '^analysed' "$work/log.txt")
nw=$(awk '$1 == "analysed" || $1 == "unanalysed" { s += $2 } END { print s + 0 }' "$work/log.txt")
echo "$n files, $na analysed by keelcc, $nw diagnostics under -Wall -Wextra; $nd differences"
[ "$n" -ge 500 ] && [ "$nd" -eq 0 ]
