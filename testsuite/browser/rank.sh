#!/bin/sh
# rank.sh BIN -- `keel report`: what to port first, in text and JSON.
#
# The program of program.sh, built with keelcc and run (5 of its 13 nests
# logged at their real sizes).  The ranking puts the nests the program ran
# first, by the time the GPU saves; each nest has the verdict and reason
# its kind calls for (not parallel with the dependence; a bound the models
# cannot evaluate; too small, with the crossover `keel explain --sweep`
# finds); its times are those of `keel explain --set` at the logged size;
# text and JSON list the nests in one order; --top, --all, --size and
# --idioms (the idiom listing) work; bad options are one line, exit 2.
set -u
BIN=$(cd "$1" && pwd) || exit 1
SRC=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/../lib.sh"
work=$(mktemp -d /tmp/keel-rank-XXXXXX) || exit 1
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset KEEL_DB KEEL_FORCE KEEL_VERBOSE KEEL_HOST
export KEEL_MCA=off OMP_NUM_THREADS=2
K="$BIN/keel"
jq() { sqlite3 :memory: "SELECT $1 FROM json_each(readfile('$2'), '\$.ranking')${3:+ WHERE $3}"; }

sh "$SRC/program.sh" src
(cd src && "$BIN/keelcc" --keel-db="$work/k.db" -O2 k.c -o k) >build.txt 2>&1 || { bad "build"; cat build.txt; }
(cd src && KEEL_DEVICE=h100 KEEL_DB="$work/k.db" ./k) >/dev/null 2>&1 || bad "run"

"$K" report k.db >top.txt 2>err.txt || bad "report: $(cat err.txt)"
"$K" report --all --json k.db >all.json 2>err.txt || bad "report --json: $(cat err.txt)"
expect_eq "$(sed -n 2p top.txt)" "5 of 13 nests ranked at the sizes the program ran (logged launches), the others at N=1000 (every size symbol; --size)." "second line"
head -1 top.txt | grep -q '^What to port first: nests ranked by the time the GPU (h100) would save over the host CPU (host, [0-9]* threads\?)\.$' \
    && ok || bad "first line: $(head -1 top.txt)"
expect_eq "$(sed -n 4p top.txt | tr -s ' ')" "RANK NEST LOCATION FUNCTION VERDICT AT CPU GPU+XFER SAVES CROSSOVER REASON" "header"
expect_eq "$(awk 'NR > 4 && $1 ~ /^[0-9]+$/' top.txt | wc -l)" 10 "ten rows by default"
expect_eq "$(grep "^(the top" top.txt)" "(the top 10 of 13 nests: --all for every one, --top N for more)" "the footnote"
# text and JSON: one order
expect_eq "$(awk 'NR > 4 && $1 ~ /^[0-9]+$/ { printf "%s ", $2 }' top.txt)" \
    "$(jq "'N' || json_extract(value, '\$.nest')" all.json "key < 10" | tr '\n' ' ')" "text order = JSON order"
expect_eq "$(sqlite3 :memory: "SELECT json_extract(readfile('all.json'), '\$.nests') || ' ' || json_extract(readfile('all.json'), '\$.ranked_at_launches') || ' ' || json_array_length(readfile('all.json'), '\$.ranking')")" \
    "13 5 13" "JSON: nests, ranked at launches, rows"
# the nests the program ran come first, the matmul at the top
expect_eq "$(jq "json_extract(value, '\$.nest')" all.json "key < 5" | tr '\n' ' ')" "1 5 6 7 3 " "ran first"
expect_eq "$(jq "json_extract(value, '\$.launches')" all.json "key < 5" | tr '\n' ' ')" "1 1 1 1 1 " "one launch each"
row() {  # row NEST FIELDS...: fields of the nest's JSON object, '|'-joined
    n=$1; shift
    f=""; for x in "$@"; do f="$f${f:+ || '|' || }ifnull(json_extract(value, '\$.$x'), 'null')"; done
    jq "$f" all.json "json_extract(value, '\$.nest') = $n"
}
expect_eq "$(row 1 verdict reason function line size)" "GPU|null|mm|6|null" "N1"
expect_eq "$(row 2 verdict reason reason_text crossover_text)" \
    "CPU|not-parallel|not parallel: line 14: x[i] (write, line 15) and x[i - 1] (read, line 15): distance 1 (strong SIV)|never" "N2"
expect_eq "$(row 4 verdict reason reason_text cpu_s crossover)" \
    'unknown|not-evaluable|size not evaluable: cannot evaluate call.count(n)|null|null' "N4"
x3=$("$K" explain src/k.c:20 --sweep '*=1:1048576' --device h100 k.db | sed -n 's/^crossover   \* = \([0-9]*\):.*/\1/p')
expect_eq "$(row 3 verdict reason reason_text crossover)" \
    "CPU|too-small|too small: the GPU wins from N=$x3, above the logged sizes|$x3" "N3: explain's crossover"
# times: those of keel explain at the logged size, the saving their difference
"$K" explain src/k.c:6 --set n=300 --device h100 k.db >ex.txt
cpu=$(sed -n 's/^verdict     cpu \(.*\) | gpu .*/\1/p' ex.txt)
expect_eq "$(awk '$2 == "N1" { print $8, $9 }' top.txt)" "$cpu" "N1 cpu time as keel explain --set n=300"
expect_eq "$(jq "abs(json_extract(value, '\$.saves_s') - (json_extract(value, '\$.cpu_s') - json_extract(value, '\$.gpu_s') - json_extract(value, '\$.xfer_s'))) < 1e-12 * json_extract(value, '\$.cpu_s')" all.json "json_extract(value, '\$.nest') = 1")" \
    "1" "N1: saves = cpu - gpu - xfer"
expect_eq "$(jq "count(*)" all.json "json_extract(value, '\$.saves_s') > 0")" 4 "four nests save time"

# --top, --all, --size
"$K" report --top 3 k.db >t3.txt && expect_eq "$(awk 'NR > 4 && $1 ~ /^[0-9]+$/' t3.txt | wc -l)" 3 "--top 3"
"$K" report --all k.db >ta.txt && expect_eq "$(awk 'NR > 4 && $1 ~ /^[0-9]+$/' ta.txt | wc -l)" 13 "--all"
grep -q '^(the top' ta.txt && bad "--all: a footnote" || ok
"$K" report --all --json --size 100000 k.db >big.json
expect_eq "$(sqlite3 :memory: "SELECT json_extract(value, '\$.verdict') || ' ' || json_extract(value, '\$.size') FROM json_each(readfile('big.json'), '\$.ranking') WHERE json_extract(value, '\$.nest') = 8")" \
    "GPU 100000" "--size 100000: s4 goes to the GPU"
# --idioms: the PIR listing
"$K" report --idioms k.db >idioms.txt
expect_eq "$(head -1 idioms.txt | tr -s ' ')" "File Line Function Idiom Code" "--idioms header"
expect_eq "$(awk '$3 == "mm" { printf "%s %s;", $2, $4 }' idioms.txt)" "9 matmul;9 reduction;" "--idioms: mm"
# errors
"$K" report --top 0 k.db >out.txt 2>err.txt
expect_eq "$?:$(cat err.txt)" "2:keel: bad --top '0' (want 1 to 1073741824)" "--top 0"
"$K" report --device nosuch k.db >out.txt 2>err.txt
expect_eq "$?:$(cat err.txt)" "2:keel: no GPU profile 'nosuch' (see keel devices)" "--device nosuch"
"$K" report missing.db >out.txt 2>err.txt
expect_eq "$?:$(cat err.txt)" "1:keel: missing.db: no such file" "missing database"

# what keeps a nest off the GPU, from the dependence reason keelcc stored:
# a call whose work is not in the nest's cost, a synchronisation
mkdir -p why
cat >why/w.c <<'EOF'
void work(double *a, int i);
void calls(int n, double *a)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        work(a, i);
}
void spins(int n, volatile int *flag, double *a)
{
#pragma omp parallel for
    for (int i = 1; i < n; i++) {
#pragma omp flush(flag)
        a[i] = a[i] * 2.0;
    }
}
EOF
(cd why && "$BIN/keelcc" --keel-db="$work/why.db" -fopenmp -O2 -c w.c -o w.o) >wbuild.txt 2>&1 || { bad "build why"; cat wbuild.txt; }
"$K" report --all --json --size 100000 why.db >why.json 2>err.txt || bad "report why: $(cat err.txt)"
expect_eq "$(sqlite3 :memory: "SELECT json_extract(value, '\$.line') || ' ' || json_extract(value, '\$.verdict') || ' ' || json_extract(value, '\$.reason') FROM json_each(readfile('why.json'), '\$.ranking') ORDER BY 1" | tr '\n' ';')" \
    "11 CPU synchronisation;5 CPU unknown-callee;" "reasons: unknown callee, synchronisation"

echo "rank: $pass passed, $fail failed"
[ $fail = 0 ]
