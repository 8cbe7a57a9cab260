#!/bin/sh
# polybench-mca.sh BIN SRC -- every innermost loop of every polybench input
# gets cycles per source iteration, or a recorded reason, for the host CPU
# and for pwr9 (the paper's host).
#
# Each kernel source is compiled alone (-O2 -c, MINI dataset; -fopenmp for
# omp-target/) with keelcc --keel-mcpu=HOST,pwr9.  Then, per target, the
# rows of mca_results over innermost loops (loops without children) must be
# exactly one per loop, each either status ok with cycles_per_src_iter > 0 or
# status error with a reason.  Prints the counts.
set -u
BIN=$1
SRC=$2
PB=$SRC/polybench-inputs
work=$(mktemp -d /tmp/keel-mcapb-XXXXXX)
trap 'rm -rf "$work"' EXIT
host=$(llvm-mca-19 --version | sed -n 's/.*Host CPU: *//p')
[ -n "$host" ] || { echo "FAIL: no host CPU from llvm-mca-19 --version"; exit 1; }
fail=0
cd "$PB" || exit 1
for src in $(make -s list); do
    omp=""
    case $src in omp-target/*) omp=-fopenmp ;; esac
    "$BIN/keelcc" --keel-db="$work/k.db" --keel-mcpu="$host,pwr9" --keel-quiet -O2 $omp \
        -Iutilities -I"$(dirname "$src")" -DMINI_DATASET -c "$src" -o "$work/x.o" \
        || { echo "FAIL: $src does not compile"; fail=1; }
done
inner=$(sqlite3 "$work/k.db" "SELECT count(*) FROM loops l
                              WHERE NOT EXISTS (SELECT 1 FROM loops c WHERE c.parent_id = l.id)")
[ "$inner" -gt 100 ] || { echo "FAIL: only $inner innermost loops"; fail=1; }
for t in "$host" pwr9; do
    res=$(sqlite3 "$work/k.db" "
        SELECT count(*),
               sum(r.status = 'ok' AND r.cycles_per_src_iter > 0),
               sum(r.status = 'error' AND length(r.reason) > 0)
          FROM loops l JOIN mca_results r ON r.loop_id = l.id AND r.target = '$t'
         WHERE NOT EXISTS (SELECT 1 FROM loops c WHERE c.parent_id = l.id)")
    n=${res%%|*}; rest=${res#*|}; okc=${rest%%|*}; why=${rest#*|}
    echo "$t: $inner innermost loops, $okc with cycles per source iteration, $why with a reason"
    if [ "$n" != "$inner" ] || [ $((okc + why)) != "$inner" ]; then
        echo "FAIL: $t: rows $n, figures $okc + reasons $why != $inner"; fail=1
    fi
    # Most loops must have figures: a broken mapping would turn them all into reasons.
    [ $((okc * 10)) -ge $((inner * 7)) ] || { echo "FAIL: $t: only $okc of $inner with figures"; fail=1; }
done
sqlite3 "$work/k.db" "SELECT r.target, r.reason, count(*) FROM mca_results r JOIN loops l ON l.id = r.loop_id
                      WHERE r.status = 'error' AND NOT EXISTS (SELECT 1 FROM loops c WHERE c.parent_id = l.id)
                      GROUP BY 1, 2"
exit $fail
