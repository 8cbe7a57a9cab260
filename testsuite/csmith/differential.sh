#!/bin/sh
# differential.sh -- csmith differential testing of keelcc's instrumentation.
#
# For each seed in FIRST..FIRST+COUNT-1 it generates a random program with
# csmith (fixed seed: the same program every time), builds it with clang-19
# and with keelcc in each instrumentation mode (report, offload, off), all
# with the same flags (-O1 -w -I/usr/include/csmith), runs every build under
# a timeout and compares stdout and the exit status with the plain build's.
# It prints one line per seed that is not identical and then the counts:
#   tried        seeds generated
#   identical    every keelcc build printed and returned what clang-19's did
#   differ       some keelcc build printed or returned something else
#   keelcc fail  keelcc failed to build a program clang-19 built
#   slower       a keelcc build took more than 1.5x the plain build's CPU
#                time (best of three runs each; plain builds under 0.1 s
#                are not timed)
#   skipped      the plain build did not finish within the timeout or
#                crashed, or a build differs but the program does not
#                finish at -O0 either (csmith programs need not terminate,
#                and then -O1 builds may do anything: C11 6.8.5p6)
# Exit status: 0 when differ, keelcc fail and slower are all zero.
#
# usage: differential.sh KEELCC WORKDIR [FIRST [COUNT [TIMEOUT]]]
#   env: MODES (default "report offload off"), JOBS (default 1),
#        TIMING=0 (no timing, no slower count: what ctest runs, since tests
#        assert no timings),
#        CSMITH_OPTS (extra csmith options), KEEP=1 keeps the work files.
# Programs that differ are kept in WORKDIR/fail-SEED/ to reproduce.
set -u
KEELCC=$1
WORK=$2
FIRST=${3:-1}
COUNT=${4:-30}
TMO=${5:-10}
MODES=${MODES:-report offload off}
JOBS=${JOBS:-1}
CSMITH_OPTS=${CSMITH_OPTS:-}
CFLAGS="-O1 -w -I/usr/include/csmith"
# the script changes directory: a relative KEELCC must not stop resolving
case $KEELCC in
    /*) ;;
    */*) KEELCC=$(pwd)/$KEELCC ;;
    *) KEELCC=$(command -v "$KEELCC") || { echo "differential: $1: not found"; exit 1; } ;;
esac
[ -x "$KEELCC" ] || { echo "differential: $KEELCC: not an executable"; exit 1; }
command -v csmith >/dev/null 2>&1 || { echo "differential: csmith not installed (scripts/install-deps.sh)"; exit 1; }
[ -d /usr/include/csmith ] || { echo "differential: /usr/include/csmith missing (libcsmith-dev)"; exit 1; }
mkdir -p "$WORK" || exit 1
WORK=$(cd "$WORK" && pwd)

# run BIN OUTFILE: run under the timeout; prints "rc ms" where ms is the
# CPU time (user + sys, ms): on a loaded machine wall time measures the
# neighbours, CPU time the program.
run() {
    /usr/bin/time -f "%U %S" -o "$2.time" timeout "${LIMIT:-$TMO}" "$1" >"$2" 2>/dev/null
    rc=$?
    echo "$rc $(tail -n 1 "$2.time" | awk '{ printf "%d", ($1 + $2) * 1000 }')"
}

# best BIN OUTFILE MS: the least CPU time of that run and two more.
best() {
    b=$3
    for _ in 1 2; do
        set -- "$1" "$2" "$b" $(run "$1" "$2.again")
        [ "$5" -lt "$b" ] && b=$5
    done
    echo "$b"
}

# one SEED: prints one result line "SEED STATUS [detail]".
one() {
    s=$1
    d=$WORK/s$s
    rm -rf "$d"; mkdir -p "$d"
    csmith --seed "$s" $CSMITH_OPTS >"$d/p.c" 2>/dev/null || { echo "$s skipped csmith"; rm -rf "$d"; return; }
    if ! clang-19 $CFLAGS "$d/p.c" -o "$d/plain" 2>/dev/null; then
        echo "$s skipped clang-failed"; rm -rf "$d"; return
    fi
    set -- $(cd "$d" && run ./plain plain.out)
    prc=$1 pms=$2
    if [ "$prc" -eq 124 ] || [ "$prc" -ge 128 ]; then
        echo "$s skipped plain-rc=$prc"; [ "${KEEP:-0}" = 1 ] || rm -rf "$d"; return
    fi
    status=identical detail=""
    for m in $MODES; do
        if ! (cd "$d" && KEEL_QUIET=1 "$KEELCC" --keel-db="$d/k.db" --keel-mca=off \
                  --keel-instrument="$m" $CFLAGS p.c -o "k-$m") >"$d/k-$m.log" 2>&1; then
            status=keelcc-failed detail="$detail $m"
            continue
        fi
        # Three times the plain build's limit: a build that needs more is
        # far slower (and counts as a difference, never as skipped).
        set -- $(cd "$d" && LIMIT=$((TMO * 3)) KEEL_LOG=0 run "./k-$m" "k-$m.out")
        krc=$1 kms=$2
        if [ "$krc" -eq 124 ]; then
            status=differ detail="$detail $m:timeout"
        elif [ "$krc" -ne "$prc" ] || ! cmp -s "$d/plain.out" "$d/k-$m.out"; then
            # A program that does not finish at -O0 has no defined result:
            # C11 6.8.5p6 lets -O1 assume its loops terminate.
            if clang-19 -O0 -w -I/usr/include/csmith "$d/p.c" -o "$d/o0" 2>/dev/null &&
               ! (cd "$d" && timeout "$TMO" ./o0 >/dev/null 2>&1); then
                status=skipped detail="$detail non-terminating($m:rc=$krc/plain=$prc)"
                break
            fi
            status=differ detail="$detail $m:rc=$krc/plain=$prc"
        elif [ "${TIMING:-1}" = 1 ] && [ "$kms" -ge 200 ] && [ $((kms * 2)) -gt $((pms * 3)) ]; then
            # Looks slower: the best of three runs of both decides.
            pb=$(cd "$d" && best ./plain plain.out "$pms")
            kb=$(cd "$d" && KEEL_LOG=0 best "./k-$m" "k-$m.out" "$kms")
            if [ "$pb" -ge 100 ] && [ $((kb * 2)) -gt $((pb * 3)) ]; then
                [ "$status" = identical ] && status=slower
                detail="$detail $m:${kb}ms/plain=${pb}ms"
            fi
        fi
    done
    echo "$s $status$detail"
    if [ "$status" = identical ] && [ "${KEEP:-0}" != 1 ]; then
        rm -rf "$d"
    else
        rm -rf "$WORK/fail-$s"; mv "$d" "$WORK/fail-$s"
    fi
}

# Seeds run JOBS at a time; results collected in WORK/results.txt.
: >"$WORK/results.txt"
s=$FIRST
last=$((FIRST + COUNT - 1))
while [ "$s" -le "$last" ]; do
    j=0
    while [ "$j" -lt "$JOBS" ] && [ "$s" -le "$last" ]; do
        one "$s" >>"$WORK/results.txt" &
        s=$((s + 1)); j=$((j + 1))
    done
    wait
done

grep -v ' identical$' "$WORK/results.txt" | sort -n
tried=$(wc -l <"$WORK/results.txt")
cnt() { grep -c " $1" "$WORK/results.txt"; }
ident=$(cnt identical); differ=$(cnt differ); failed=$(cnt keelcc-failed)
slower=$(cnt slower); skipped=$(cnt skipped)
echo "tried $tried  identical $ident  differ $differ  keelcc-failed $failed  slower-1.5x $slower  skipped $skipped"
[ "$differ" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$slower" -eq 0 ]
