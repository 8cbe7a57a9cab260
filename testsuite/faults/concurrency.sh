#!/bin/bash
# concurrency.sh BIN SRC [N] -- concurrent keelcc writers into one database,
# some of them killed with SIGKILL at a random moment.
#
# N rounds; in each, W keelcc processes (W = 6, 8 in the long run) compile
# sources into one database at once: distinct sources, and two writers on the
# same source.  A random subset (seeded) is killed with kill -9 after a random
# delay (0 to 1.5 s, so some die in the parse, some in the compile, some while
# writing).  After each round the case holds when:
#   - PRAGMA integrity_check says ok and PRAGMA foreign_key_check finds nothing;
#   - every compile that finished (exit 0) has its translation unit recorded
#     with exactly its number of loops (no lost rows), and no source has two
#     translation-unit rows;
#   - every compile that was not killed exited 0 (a busy database is waited
#     for, never a failed build).
# Rows from earlier rounds stay in the database, so later rounds replace rows.
SHORT_N=1 LONG_N=25 DEFAULT_SEED=1603
. "$(dirname "$0")/lib.sh"

cd "$work" || exit 1
W=6
[ "$LONG" = 1 ] && W=8
db=$work/k.db
for k in $(seq 0 11); do
    {
        echo "double x$k[512], y$k[512];"
        echo "void f$k(int n, double s)"
        echo "{"
        for l in $(seq 0 $((k % 4))); do
            echo "    for (int i = 0; i < n; i++)"
            echo "        x$k[i] = x$k[i] * s + y$k[i] + $l;"
        done
        echo "}"
    } >"src$k.c"
done
loops_of() { echo $(($1 % 4 + 1)); }

compiles=0 kills=0
for round in $(seq 1 "$N"); do
    case_begin "round $round"
    pids=() srcs=() killed=()
    exec 3>&2 2>/dev/null     # no "Killed" job notices from bash
    for w in $(seq 0 $((W - 1))); do
        rnd
        if [ "$w" = $((W - 1)) ]; then k=${srcs[0]}; else k=$((R % 12)); fi
        "$KEELCC" --keel-db="$db" -O1 -c "src$k.c" -o "w$w.o" 2>"w$w.err" &
        pids[w]=$! srcs[w]=$k killed[w]=0
    done
    for w in $(seq 0 $((W - 1))); do
        rnd
        if [ $((R % 3)) = 0 ]; then
            rnd
            sleep "$((R % 16 / 10)).$((R / 16 % 10))"
            kill -9 "${pids[w]}" 2>/dev/null && killed[w]=1
        fi
    done
    exec 2>&3 3>&-
    done_ok=()
    for w in $(seq 0 $((W - 1))); do
        { wait "${pids[w]}"; } 2>/dev/null
        rc=$?
        compiles=$((compiles + 1))
        if [ "${killed[w]}" = 1 ] && [ "$rc" = 137 ]; then kills=$((kills + 1)); continue; fi
        if [ "$rc" = 0 ]; then done_ok+=("${srcs[w]}"); else fail "writer $w (src${srcs[w]}.c) exit status $rc: $(head -1 "w$w.err")"; fi
        [ -s "w$w.err" ] && fail "writer $w printed: $(head -1 "w$w.err")"
    done
    ic=$(sqlite3 "$db" 'PRAGMA integrity_check' 2>&1 | head -1)
    [ "$ic" = ok ] || fail "integrity_check: $ic"
    fk=$(sqlite3 "$db" 'PRAGMA foreign_key_check' 2>&1 | head -1)
    [ -z "$fk" ] || fail "foreign_key_check: $fk"
    for k in "${done_ok[@]}"; do
        got=$(sqlite3 "$db" "SELECT count(*) FROM loops l JOIN translation_units t ON t.id = l.tu_id
                             WHERE t.path = '$work/src$k.c'" 2>&1)
        [ "$got" = "$(loops_of "$k")" ] || fail "src$k.c: $got loops recorded, want $(loops_of "$k")"
    done
    dup=$(sqlite3 "$db" 'SELECT path FROM translation_units GROUP BY path HAVING count(*) > 1' 2>&1)
    [ -z "$dup" ] || fail "two rows for $dup"
    case_end
done
echo "concurrency: $compiles compiles, $kills killed by kill -9"
summary concurrency
