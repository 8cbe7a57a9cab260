#!/bin/sh
# decision-latency.sh BUILD [LOOPS] -- keel_decide's cost, as a table.
#
# Generates a C file with LOOPS/2 functions (default 4000 loops), each a
# two-level nest `for i < n: for j < m: a[i][j] = b[i][j] * 2 + c[j]` over
# pointer parameters (a run-time overlap check of a, b, c before a GPU
# launch), and one more over global arrays (no check),
# compiles it with keelcc into a fresh database, builds the benchmark
# against libkeelrt.a and runs it under KEEL_DEVICE=h100 (so the models
# really run), KEEL_LOG=0; and again linked by keelcc, so that the sites
# find their facts packed into the program.  Median of 5 runs.  Where
# valgrind is installed, the two miss rows are also counted in
# instructions per call (callgrind: the difference of two runs of 2000 and
# 4000 misses, so that start-up and the first call cancel out), a figure
# that does not move with the machine's load, with its parts (binding the
# values, the models, the overlap check, the memo; callgrind_annotate's
# inclusive counts) for the miss with the check (its site has run history:
# the `timed` runs above log into the same database, so that every miss
# also asks the history rows).  The first call alone (a
# program's only decision: the runtime's set-up and one nest's facts) is
# timed with the what-if device and with none (then no facts are read),
# with the page faults it took and, under valgrind, its instructions.  Two
# counts of start-up: the relocations synth.o's data needs per launch site
# (readelf; keelcc's sites need none where the database is an absolute
# path, keelrt.h) and the page faults the linked program took before
# main's first call.
set -eu
BUILD=${1:-build}
LOOPS=${2:-4000}
BIN=$(cd "$BUILD/bin" && pwd)
LIB=$(cd "$BUILD/lib" && pwd)
ROOT=$(pwd)
work=$(mktemp -d /tmp/keel-dl-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
nf=$((LOOPS / 2))
awk -v nf="$nf" 'BEGIN {
    for (f = 0; f < nf; f++) {
        printf "void f%d(int n, int m, double a[n][m], double b[n][m], double c[m])\n{\n", f
        printf "    for (int i = 0; i < n; i++)\n"
        printf "        for (int j = 0; j < m; j++)\n"
        printf "            a[i][j] = b[i][j] * 2 + c[j];\n}\n"
    }
    printf "double ga[2000][1000], gb[2000][1000], gc[1000]; void g(int n, int m)\n{\n"
    printf "    for (int i = 0; i < n; i++)\n"
    printf "        for (int j = 0; j < m; j++)\n"
    printf "            ga[i][j] = gb[i][j] * 2 + gc[j];\n}\n"
}' >synth.c
t0=$(date +%s.%N)
"$BIN/keelcc" --keel-db="$work/k.db" -O1 -c synth.c -o synth.o
t1=$(date +%s.%N)
cc -O2 -I"$ROOT/runtime" "$ROOT/bench/decision-latency.c" "$LIB/libkeelrt.a" -lsqlite3 -lpthread -ldl -lm -o dl
# the same benchmark linked by keelcc with synth.o: the program carries the
# packed facts of synth.c's sites (keel_link_facts), which its sites name
# with synth.c's build hash as instrumented sites do
cc -O2 -I"$ROOT/runtime" -c "$ROOT/bench/decision-latency.c" -o dl.o
"$BIN/keelcc" --keel-db="$work/k.db" -O2 dl.o synth.o -o dl-linked -lm
hash=$(sqlite3 k.db "SELECT hash FROM translation_units LIMIT 1")
nloops=$(sqlite3 k.db "SELECT count(*) FROM loops")
dbsize=$(du -k k.db | cut -f1)
for r in 1 2 3 4 5; do
    KEEL_DB="$work/k.db" KEEL_DEVICE=h100 KEEL_LOG=0 ./dl "$work/synth.c" 100 $((3 + 6 * nf)) >>runs.txt
    KEEL_DB="$work/k.db" KEEL_DEVICE=h100 ./dl "$work/synth.c" 0 timed >>timed.txt
    KEEL_DB="$work/k.db" KEEL_DEVICE=h100 KEEL_LOG=0 ./dl-linked "$work/synth.c#h=$hash" 100 \
        $((3 + 6 * nf)) >>linked.txt
    # the first call alone: with the what-if device, and with none (no GPU here)
    KEEL_DB="$work/k.db" KEEL_DEVICE=h100 KEEL_LOG=0 ./dl-linked "$work/synth.c#h=$hash" 0 first \
        >>first.txt
    KEEL_DB="$work/k.db" KEEL_LOG=0 ./dl-linked "$work/synth.c#h=$hash" 0 first >>nodev.txt
done
med() { cut -f"$1" "${2:-runs.txt}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "decision latency: $nloops loops in the database ($dbsize KiB; keelcc took $(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }") s), median of 5 runs"
echo
printf '| %-52s | %12s |\n' "what" "time"
printf '| %-52s | %12s |\n' "----------------------------------------------------" "-----------:"
printf '| %-52s | %9.1f us |\n' "first call: open database + load one nest's facts" "$(awk "BEGIN { print $(med 1) / 1000 }")"
printf '| %-52s | %9.1f us |\n' "first call of a second site (facts only)" "$(awk "BEGIN { print $(med 2) / 1000 }")"
printf '| %-52s | %9.1f us |\n' "first call, mean over 100 more sites" "$(awk "BEGIN { print $(med 3) / 1000 }")"
printf '| %-52s | %9.1f us |\n' "first call, facts linked in (no database open)" "$(awk "BEGIN { print $(med 1 linked.txt) / 1000 }")"
printf '| %-52s | %9.1f us |\n' "first call of a second site, facts linked in" "$(awk "BEGIN { print $(med 2 linked.txt) / 1000 }")"
printf '| %-52s | %9.1f us |\n' "first call, facts linked in, mean over 100 more" "$(awk "BEGIN { print $(med 3 linked.txt) / 1000 }")"
printf '| %-52s | %9.1f us |\n' "first call alone, facts linked in (program's only)" "$(awk "BEGIN { print $(med 1 first.txt) / 1000 }")"
printf '| %-52s | %12s |\n' "  page faults it took" "$(med 2 first.txt)"
printf '| %-52s | %12s |\n' "  page faults before main's first call (start-up)" "$(med 4 first.txt)"
nsites=$(nm synth.o | grep -c 'keel_site_')
nrel=$(readelf -rW synth.o | awk '/^Relocation section/ { s = $3 } /^[0-9a-f]+ / && s ~ /data/ { n++ }
                                  END { print n + 0 }')
printf '| %-52s | %12s |\n' "relocations per launch site at start-up" \
    "$(awk "BEGIN { printf \"%.2f\", $nrel / $nsites }")"
printf '| %-52s | %9.1f us |\n' "first call alone, no device (KEEL_DEVICE unset)" "$(awk "BEGIN { print $(med 1 nodev.txt) / 1000 }")"
printf '| %-52s | %9.1f ns |\n' "warm call, same values (memo hit)" "$(med 4)"
printf '| %-52s | %9.1f ns |\n' "two value sets alternating (memo hits)" "$(med 5)"
printf '| %-52s | %9.1f ns |\n' "warm call, answer known to be CPU (unevaluable bound)" "$(med 6)"
printf '| %-52s | %9.1f ns |\n' "two address sets alternating (memo hits)" "$(med 7)"
printf '| %-52s | %9.1f ns |\n' "two value sets alternating, no overlap condition" "$(med 8)"
printf '| %-52s | %9.1f ns |\n' "a cycle of 48 size sets, overlap condition (memo hits)" "$(med 11)"
printf '| %-52s | %9.1f ns |\n' "new sizes every call: overlap check + models (miss)" "$(med 9)"
printf '| %-52s | %9.1f ns |\n' "new sizes every call: models only (miss)" "$(med 10)"
printf '| %-52s | %9.1f ns |\n' "timed launch: keel_decide + keel_begin + keel_done" \
    "$(sort -n timed.txt | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
if command -v valgrind >/dev/null 2>&1; then
    # instructions of CALLS misses at LINE (3: the nest with the overlap
    # check); the profile is kept in cg.CALLS.LINE for the parts below
    insns() {
        KEEL_DB="$work/k.db" KEEL_DEVICE=h100 KEEL_LOG=0 valgrind --tool=callgrind \
            --callgrind-out-file="$work/cg.$1.${2:-3}" ./dl "$work/synth.c" "$1" miss $2 \
            2>&1 >/dev/null | awk '/refs:/ { gsub(",", "", $4); print $4 }'
    }
    per_miss() { echo $(( ($(insns 4000 "$1") - $(insns 2000 "$1")) / 2000 )); }
    ov_miss=$(per_miss "")
    printf '| %-52s | %6s insns |\n' "new sizes every call: overlap check + models (miss)" \
        "$ov_miss"
    printf '| %-52s | %6s insns |\n' "new sizes every call: models only (miss)" \
        "$(per_miss $((3 + 6 * nf)))"
    # where one miss with the overlap check goes: each part's instructions
    # (callgrind's inclusive count, the same difference of two runs)
    if command -v callgrind_annotate >/dev/null 2>&1; then
        incl() {
            callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
                awk -v fn=":$2 " 'index($0, fn) && !/=>/ { gsub(",", "", $1); print $1; exit }'
        }
        part() { a=$(incl "$work/cg.4000.3" "$1"); b=$(incl "$work/cg.2000.3" "$1")
                 echo $(( (${a:-0} - ${b:-0}) / 2000 )); }
        bind=$(part rt_facts_bind_site) est=$(part rt_estimate_all) ovc=$(part rt_overlap_check)
        memo=$(( $(part memo_get) + $(part memo_put) )) hist=$(part history_decides)
        printf '| %-52s | %6s insns |\n' "  of which binding the values (rt_facts_bind_site)" "$bind"
        printf '| %-52s | %6s insns |\n' "  of which the models (rt_estimate_all)" "$est"
        printf '| %-52s | %6s insns |\n' "  of which the overlap check (rt_overlap_check)" "$ovc"
        printf '| %-52s | %6s insns |\n' "  of which the memo (lookup and store)" "$memo"
        printf '| %-52s | %6s insns |\n' "  of which the run history (the timed runs' rows)" "$hist"
        printf '| %-52s | %6s insns |\n' "  of which the rest of keel_decide" \
            "$((ov_miss - bind - est - ovc - memo - hist))"
    fi
    # the first call alone, facts linked in: the instructions of keel_decide
    printf '| %-52s | %6s insns |\n' "first call alone, facts linked in" \
        "$(KEEL_DB="$work/k.db" KEEL_DEVICE=h100 KEEL_LOG=0 valgrind --tool=callgrind \
            --callgrind-out-file=/dev/null --toggle-collect=keel_decide ./dl-linked \
            "$work/synth.c#h=$hash" 0 first 2>&1 >/dev/null |
            awk '/refs:/ { gsub(",", "", $4); print $4 }')"
fi
