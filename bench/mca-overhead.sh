#!/bin/sh
# mca-overhead.sh BUILD [RUNS] -- what keelcc's llvm-mca stage costs.
#
# Builds every polybench input (make -B -j1, -O2, SMALL dataset; each
# program is its kernel .c plus polybench.c, compiled and linked) with:
#   clang-19                      the plain compiler
#   keelcc --keel-mca=off         loop analysis only
#   keelcc, host CPU, cold        llvm-mca stage, empty database (no cache)
#   keelcc, host CPU, warm        rebuild into the same database (all cached)
#   keelcc, host + pwr9, cold/warm
# RUNS times each (default 1), and prints the median wall times, the time
# per program, the ratio to clang-19 and how many llvm-mca runs each build
# made (counted by a wrapper given as KEEL_LLVM_MCA).
set -eu
BUILD=${1:-build}
RUNS=${2:-1}
BIN=$(cd "$BUILD/bin" && pwd)
PB=$(pwd)/polybench-inputs
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-mcabench-XXXXXX")
trap 'rm -rf "$work"' EXIT
nfiles=$(( $(make -s -C "$PB" list | wc -l) ))
host=$(llvm-mca-19 --version | sed -n 's/.*Host CPU: *//p')
cat >"$work/count-mca" <<EOS
#!/bin/sh
case " \$* " in *" --json "*) echo run >>$work/count ;; esac
exec llvm-mca-19 "\$@"
EOS
chmod +x "$work/count-mca"

now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
build() {   # build CC DB [keelcc env...] -> seconds of one full build
    cc=$1 db=$2; shift 2
    t0=$(now)
    env "$@" KEEL_LLVM_MCA="$work/count-mca" make -s -B -C "$PB" CC="$cc" KEEL_DB="$db" \
        O="$work/bin" DATASET=SMALL >/dev/null 2>&1
    t1=$(now)
    awk "BEGIN { print $t1 - $t0 }"
}
fresh() { rm -f "$1" "$1-wal" "$1-shm"; }
row() {   # row NAME FILE RUNS-OF-LLVM-MCA
    t=$(median <"$2")
    printf '| %-28s | %9.2f | %16.0f | %6.2fx | %13s |\n' "$1" "$t" \
        "$(awk "BEGIN { print $t * 1000 / $nfiles }")" "$(awk "BEGIN { print $t / $p }")" "$3"
}
runs() { wc -l <"$work/count" | tr -d ' '; }

for r in $(seq "$RUNS"); do build clang-19 "$work/p.db" >>"$work/plain"; done
p=$(median <"$work/plain")
for r in $(seq "$RUNS"); do fresh "$work/o.db"; build "$BIN/keelcc" "$work/o.db" KEEL_MCA=off >>"$work/off"; done
for cfg in host "host,pwr9"; do
    list=$(echo "$cfg" | sed "s/host/$host/")
    for r in $(seq "$RUNS"); do
        fresh "$work/m.db"
        : >"$work/count"
        build "$BIN/keelcc" "$work/m.db" KEEL_MCPU="$list" >>"$work/cold.$cfg"
        echo "$(runs)" >"$work/cold-runs.$cfg"
        : >"$work/count"
        build "$BIN/keelcc" "$work/m.db" KEEL_MCPU="$list" >>"$work/warm.$cfg"
        echo "$(runs)" >"$work/warm-runs.$cfg"
    done
done
echo "llvm-mca stage overhead: $nfiles polybench programs (kernel .c + polybench.c, compile and link), -O2, make -B -j1, median of $RUNS, host CPU $host, $(nproc) cores"
echo
printf '| %-28s | %9s | %16s | %7s | %13s |\n' "build" "total (s)" "per program (ms)" "ratio" "llvm-mca runs"
printf '|%s|%s|%s|%s|%s|\n' "------------------------------" "-----------" "------------------" "---------" "---------------"
row "clang-19" "$work/plain" "-"
row "keelcc --keel-mca=off" "$work/off" "-"
row "keelcc $host, cold cache" "$work/cold.host" "$(cat "$work/cold-runs.host")"
row "keelcc $host, warm cache" "$work/warm.host" "$(cat "$work/warm-runs.host")"
row "keelcc $host+pwr9, cold" "$work/cold.host,pwr9" "$(cat "$work/cold-runs.host,pwr9")"
row "keelcc $host+pwr9, warm" "$work/warm.host,pwr9" "$(cat "$work/warm-runs.host,pwr9")"
