#!/bin/sh
# json.sh BIN SRCDIR -- every command's --json against its text form, on a
# database keelcc wrote (keel scan of two small kernels).
#
# For each command: the document is valid JSON (python3 -m json.tool and
# sqlite3's json_valid), its keys and the JSON type of each are an exact
# list, and its values are the text form's (verdicts, times to the digits
# the text prints, row counts, names in order).  keel explain's JSON and
# text give the same verdict and the same seconds; keel show's JSON has the
# dependence, stride and llvm-mca sections the text prints.
BIN=$(cd "$1" && pwd) || exit 1
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/keel-json-XXXXXX) || exit 1
[ -n "$KEEP" ] || trap 'rm -rf "$tmp"' EXIT   # KEEP=1: leave the folder
cd "$tmp" && tmp=$(pwd -P) || exit 1
unset KEEL_DB KEEL_DEVICE KEEL_HOST
export OMP_NUM_THREADS=4 KEEL_MACHINES="$tmp/machines"
K="$BIN/keel"

# valid NAME FILE: python's parser and SQLite's agree that FILE is JSON
valid() {
    python3 -m json.tool "$2" >/dev/null 2>&1 && ok || bad "$1: python3 rejects the JSON"
    [ "$(sqlite3 :memory: "select json_valid(readfile('$2'))")" = 1 ] && ok || bad "$1: not json_valid"
}
# keys FILE [PATH]: "key:type ..." of the object at PATH (default the root)
keys() {
    sqlite3 :memory: "select group_concat(key || ':' || type, ' ') from json_each(readfile('$1'), '${2:-\$}')"
}
# jx FILE PATH: one value
jx() { sqlite3 :memory: "select json_extract(readfile('$1'), '$2')"; }

mkdir build
cat > k.c <<'C'
void mm(int n, double A[n][n], double B[n][n], double C[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                C[i][j] += A[i][k] * B[k][j];
}

void recur(int n, double *x)
{
    for (int i = 1; i < n; i++)
        x[i] = x[i - 1] * 0.5 + x[i];
}
C
printf '[{"directory": "%s", "command": "cc -O2 -c k.c", "file": "k.c"},
  {"directory": "%s", "command": "nvcc -c k.cu", "file": "k.cu"},
  {"directory": "%s", "arguments": ["cc", "-x", "c++", "-c", "k.c"], "file": "k.c"}]\n' \
    "$tmp" "$tmp" "$tmp" > build/compile_commands.json

# ---- scan ----
"$K" scan -p build --json k.db >scan.json 2>err.txt || bad "scan: $(cat err.txt)"
valid scan scan.json
expect_eq "$(keys scan.json)" "files:integer analysed:integer skipped:integer failed:integer not_c:integer repeated:integer loops:integer nests:integer db:text failures:array not_c_files:array" "scan keys"
# the entries skipped as not C, each named with its reason
expect_eq "$(sqlite3 :memory: "select group_concat(json_extract(value, '\$.file') || ': ' || json_extract(value, '\$.reason'), '; ') from json_each(readfile('scan.json'), '\$.not_c_files')")" \
    "$tmp/k.cu: CUDA source (.cu): keel analyses C; $tmp/k.c: compiled as c++ (-x c++): keel analyses C" "scan: not C files named"
expect_eq "$(jx scan.json '$.not_c')" 2 "scan: not C count"
expect_eq "$(jx scan.json '$.files') $(jx scan.json '$.analysed') $(jx scan.json '$.loops') $(jx scan.json '$.nests') $(jx scan.json '$.db')" "1 1 4 2 k.db" "scan values"
"$K" scan -p build k.db >scan.txt 2>&1
"$K" scan -p build k.db --json >scan2.json 2>&1
expect_eq "$(head -1 scan.txt)" "keel scan: 1 C files in the compile database: 0 analysed, 1 unchanged (skipped), 0 failed" "scan text"
expect_eq "$(jx scan2.json '$.skipped') $(jx scan2.json '$.analysed')" "1 0" "scan --json again: skipped"
export KEEL_DB=k.db

# ---- loops ----
"$K" loops --json >loops.json && "$K" loops --wide >loops.txt || bad "loops"
valid loops loops.json
expect_eq "$(sqlite3 :memory: "select json_array_length(readfile('loops.json'))")" "$(($(wc -l <loops.txt) - 1))" "loops: rows"
expect_eq "$(keys loops.json '$[2]')" "loop_id:integer file:text line:integer col:integer function:text depth:integer parent_line:integer iv:text trip:text pragmas:array idioms:array algorithm_class:null parallel:text coalescing:null cycles_per_iter:real site:text site_why:text no_answer:null" "loops keys"
expect_eq "$(jx loops.json '$[2].idioms[1]') $(jx loops.json '$[2].parallel') $(jx loops.json '$[3].parallel')" "reduction reduction sequential" "loops values"
# the same verdicts in the same order as the text table
expect_eq "$(sqlite3 :memory: "select group_concat(json_extract(value, '\$.line') || '=' || json_extract(value, '\$.parallel'), ' ') from json_each(readfile('loops.json'))")" \
    "$(awk 'NR > 1 { split($1, a, ":"); for (i = 1; i <= NF; i++) if ($i ~ /^(parallel|reduction|sequential|unknown)$/) v = $i; printf "%s%s=%s", (NR > 2 ? " " : ""), a[2], v }' loops.txt)" \
    "loops: verdicts as in the text"

# ---- show: the sections of the text ----
"$K" show k.c:5 --json >show.json && "$K" show k.c:5 >show.txt || bad "show"
valid show show.json
expect_eq "$(sqlite3 :memory: "select group_concat(key, ' ') from json_each(readfile('show.json')) where key in ('dependence', 'strides', 'mca', 'statements')")" "statements dependence strides mca" "show: sections"
expect_eq "$(jx show.json '$.dependence.verdict'): $(jx show.json '$.dependence.reason')" "$(sed -n 's/^dependence  //p' show.txt)" "show: dependence as in the text"
expect_eq "$(sqlite3 :memory: "select json_array_length(readfile('show.json'), '\$.strides')")" "$(sed -n '/^strides/,/^mca/p' show.txt | grep -c '^  [0-9]')" "show: one stride per text line"
expect_eq "$(sqlite3 :memory: "select group_concat(json_extract(value, '\$.stride'), ' ') from json_each(readfile('show.json'), '\$.strides')")" \
    "$(sed -n '/^strides/,/^mca/p' show.txt | sed -n 's/.*  stride \([^ ]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')" "show: strides as in the text"
expect_eq "$(sqlite3 :memory: "select json_array_length(readfile('show.json'), '\$.mca')")" "$(sed -n '/^mca/,/^counts/p' show.txt | grep -c '^  [a-z0-9]')" "show: one llvm-mca target per text line"
# counts of C[i][j] += A[i][k] * B[k][j] in the k loop, by hand: 2 flops
# (one fmul, one fadd), 3 loads and 1 store of 8 bytes each per iteration;
# n iterations in total
expect_eq "$(sed -n '/^counts/,/^footprint/p' show.txt | sed '$d')" "counts      per iteration (inner loops included) and in total
  iteration  flops 2; iops 0; loads 3; stores 1
             bytes read 24, written 8; flop/byte (2) / (32)
  total      flops 2*n; iops 0; loads 3*n; stores n
             bytes read 24*n, written 8*n; flop/byte (2*n) / (32*n)" "show: counts"
expect_eq "$(sqlite3 :memory: "select group_concat(json_extract(value, '\$.scope') || ' ' || json_extract(value, '\$.fmul') || '+' || json_extract(value, '\$.fadd') || '=' || json_extract(value, '\$.flops') || ' ' || json_extract(value, '\$.bytes_read') || ' ' || json_extract(value, '\$.bytes_written') || ' ' || ifnull(json_extract(value, '\$.reason'), 'exact'), '; ') from json_each(readfile('show.json'), '\$.counts')")" \
    "iteration 1+1=2 24 8 exact; total n+n=2*n 24*n 8*n exact" "show --json: counts as in the text"
# footprint of the k loop, by hand: n iterations, each reading A, B and C
# once (8 bytes) and writing C once; boat hull only on outermost loops
expect_eq "$(sed -n '/^footprint/,$p' show.txt)" "footprint   bytes each array moves over all iterations
  A          read 8*n, written 0
  B          read 8*n, written 0
  C          read 8*n, written 8*n" "show: footprint"
expect_eq "$(sqlite3 :memory: "select group_concat(json_extract(value, '\$.array') || ' ' || json_extract(value, '\$.bytes_read') || ' ' || json_extract(value, '\$.bytes_written'), '; ') from json_each(readfile('show.json'), '\$.footprint')") $(jx show.json '$.boat_hull')" \
    "A 8*n 0; B 8*n 0; C 8*n 8*n " "show --json: footprint as in the text, no boat hull"
# the i loop's boat hull, by hand: w = n^2 work units (i, j) of m = n
# applications of f (2 operations: * and +); d = A and B in and C in and
# out, 8 bytes each: 32*n^2, all coalesced
"$K" show k.c:3 --json >show3.json && "$K" show k.c:3 >show3.txt || bad "show line 3"
expect_eq "$(sed -n '/^boat hull/,/^footprint/p' show3.txt | sed '$d')" "boat hull   0:n-1,0:n-1|chunk(-,0:n-1) ^ 0:n-1,0:n-1|chunk(0:n-1,-) -> 0:n-1,0:n-1|element
  w n^2; m n; f 2
  d 32*n^2 bytes (coalesced 32*n^2, uncoalesced 0)" "show: boat hull"
expect_eq "$(jx show3.json '$.boat_hull.w') $(jx show3.json '$.boat_hull.m') $(jx show3.json '$.boat_hull.f') $(jx show3.json '$.boat_hull.d') $(jx show3.json '$.boat_hull.u') $(jx show3.json '$.footprint[2].bytes_written')" \
    "n^2 n 2 32*n^2 0 8*n^3" "show --json: boat hull and footprint as in the text"
expect_eq "$(keys show.json '$.strides[0]')" "line:integer col:integer write:false array:text subscripts:array stride:text class:text thread_line:integer inner_stride:text inner_class:text false_sharing:false" "show: stride keys"
expect_eq "$(jx show.json '$.idioms')" '["matmul","reduction"]' "show: idioms an array"

# ---- report ----
"$K" report --idioms --json >report.json && "$K" report --idioms >report.txt || bad "report --idioms"
valid report report.json
expect_eq "$(keys report.json '$[0]')" "file:text line:integer function:text idiom:text code:text evidence:text loop_line:integer" "report keys"
expect_eq "$(sqlite3 :memory: "select group_concat(json_extract(value, '\$.idiom'), ' ') from json_each(readfile('report.json'))")" \
    "$(awk 'NR > 1 { printf "%s%s", (NR > 2 ? " " : ""), $4 }' report.txt)" "report: idioms as in the text"

# ---- explain: the same verdict and seconds as the text ----
for dev in h100 v100; do
    "$K" explain k.c:3 --set n=700 --device $dev --host power9 --threads 8 >ex.txt 2>&1 || bad "explain $dev: $(cat ex.txt)"
    "$K" explain --json k.c:3 --set=n=700 --device=$dev --host power9 --threads=8 >ex.json 2>err.txt || bad "explain --json $dev: $(cat err.txt)"
    valid "explain $dev" ex.json
    expect_eq "$(sed -n 's/^verdict .* -> \([A-Z]*\).*/\1/p' ex.txt)" "$(jx ex.json '$.verdict')" "explain $dev: verdict"
    expect_eq "$(sed -n 's/^seconds *//p' ex.txt)" \
        "$(python3 -c "import json; s = json.load(open('ex.json'))['seconds']; print('cpu %.9g gpu %.9g xfer %.9g hk %.9g' % (s['cpu'], s['gpu'], s['xfer'], s['hk']))")" \
        "explain $dev: seconds"
    expect_eq "$(sed -n 's/^  threads  *\([0-9]*\).*/\1/p' ex.txt)" "$(jx ex.json '$.cpu.threads')" "explain $dev: threads"
    expect_eq "$(sed -n 's/^  case  *\([0-9]\).*/\1/p' ex.txt)" "$(jx ex.json '$.gpu.case')" "explain $dev: Hong-Kim case"
    expect_eq "$(sed -n 's/^  bound by  *//p' ex.txt)" "$(jx ex.json '$.gpu.bound_by')" "explain $dev: bound"
    expect_eq "$(sed -n 's/^  d  *\([0-9]*\) bytes/\1/p' ex.txt)" "$(python3 -c "import json; print('%.0f' % json.load(open('ex.json'))['transfer']['bytes'])")" "explain $dev: transfer bytes"
    expect_eq "$(sqlite3 :memory: "select count(*) from json_each(readfile('ex.json'), '\$.facts')")" \
        "$(sed -n '/^loops (preorder/,/^machines/p' ex.txt | grep -vc '^machines')" "explain $dev: the facts' lines"
done
expect_eq "$(keys ex.json)" "loop:object needs:array values:object host:object device:object facts:array launch:object cpu:object gpu:object transfer:object overlap:object size_key:text history:null decided_by:text verdict:text why:null seconds:object model_seconds:object best_mapping:object" "explain keys"
expect_eq "$(jx ex.json '$.loop.function') $(jx ex.json '$.needs[0]') $(jx ex.json '$.values.n') $(jx ex.json '$.host.name') $(jx ex.json '$.device.name') $(jx ex.json '$.size_key')" \
    "mm n 700 power9 v100 n=700" "explain values"
"$K" explain k.c:11 --set n=700 --device h100 --json >ex2.json 2>err.txt || bad "explain recur: $(cat err.txt)"
expect_eq "$(jx ex2.json '$.verdict') $(jx ex2.json '$.why')" "CPU sequential" "explain: a recurrence is sequential, as keel loops says"
expect_eq "$(keys ex2.json | tr ' ' '\n' | cut -d: -f1 | tr '\n' ' ')" "$(keys ex.json | tr ' ' '\n' | cut -d: -f1 | tr '\n' ' ')" "explain: the same keys for another nest"

# ---- explain --sweep: the rows and the crossover of the text ----
"$K" explain k.c:3 --sweep '*=16:100' --device h100 --host power9 >sw.txt 2>&1 || bad "sweep: $(cat sw.txt)"
"$K" explain k.c:3 --sweep '*=16:100' --device h100 --host power9 --json >sw.json 2>err.txt || bad "sweep --json: $(cat err.txt)"
valid sweep sw.json
expect_eq "$(keys sw.json '$.sweep')" "symbol:text lo:integer hi:integer rows:array crossover:integer" "sweep keys"
expect_eq "$(sqlite3 :memory: "select group_concat(json_extract(value, '\$.n') || '=' || json_extract(value, '\$.faster'), ' ') from json_each(readfile('sw.json'), '\$.sweep.rows')")" \
    "$(awk '$1 ~ /^[0-9]+$/ { v = $10; for (i = 11; i <= NF; i++) v = v " " $i
        printf "%s%s=%s", (n++ ? " " : ""), $1, v }' sw.txt)" "sweep: rows as in the text"
expect_eq "$(jx sw.json '$.sweep.crossover')" "$(sed -n 's/^crossover   [*] = \([0-9]*\):.*/\1/p' sw.txt)" "sweep: crossover as in the text"

# ---- history ----
echo "k.c:3 n=700 cpu 0.25" | "$K" history --add - --json >h.json 2>err.txt || bad "history --add: $(cat err.txt)"
expect_eq "$(cat h.json)" '{"added":1}' "history --add --json"
echo "k.c:x n=700 cpu 0.25" | "$K" history --add - >out.txt 2>err.txt
expect_eq "$?:$(cat err.txt)" "1:keel: -:1: bad location 'k.c:x' (want FILE:LINE or FILE:LINE:COL)" "history --add: the one FILE:LINE parser"
for l in "k.c:3 n=700 cpu 0.25x" "k.c:3 n=700 cpu -1" "k.c:3 n=700 cpu 1 2" "k.c:3 n=700 cpu"; do
    echo "$l" | "$K" history --add - >out.txt 2>err.txt
    expect_eq "$?:$(cat err.txt)" "1:keel: -:1: want FILE:LINE SYM=V,... cpu|gpu SECONDS" "history --add '$l'"
done
"$K" history --json >h.json && "$K" history >h.txt || bad "history"
valid history h.json
expect_eq "$(keys h.json '$[0]')" "file:text line:integer size_key:text device:text samples:integer mean_s:real stddev_s:real trusted:false" "history keys"
expect_eq "$(jx h.json '$[0].line') $(jx h.json '$[0].size_key') $(jx h.json '$[0].samples')" \
    "$(awk 'NR == 2 { split($1, a, ":"); print a[2], $2, $4 }' h.txt)" "history: the text's row"
# a size is trusted (its times decide over the models) once measured on
# both devices: one CPU row alone is not, a GPU row at the same size makes
# both rows trusted, a GPU row at another size is not
printf 'k.c:3 n=700 gpu 0.5\nk.c:3 n=900 gpu 0.5\n' | "$K" history --add - >/dev/null || bad "history --add gpu"
"$K" history --json >h.json && "$K" history >h.txt || bad "history"
expect_eq "$(sqlite3 :memory: "select group_concat(json_extract(value, '\$.size_key') || '/' || json_extract(value, '\$.device') || '=' || json_extract(value, '\$.trusted'), ' ') from json_each(readfile('h.json'))")" \
    "n=700/cpu=1 n=700/gpu=1 n=900/gpu=0" "history: trusted when measured on both devices"
expect_eq "$(awk 'NR > 1 { printf "%s%s/%s=%s", n++ ? " " : "", $2, $3, $NF }' h.txt)" \
    "n=700/cpu=yes n=700/gpu=yes n=900/gpu=no" "history: the text's TRUSTED column"

# ---- devices ----
"$K" devices --json >d.json && "$K" devices >d.txt || bad "devices"
valid devices d.json
expect_eq "$(sqlite3 :memory: "select group_concat(json_extract(value, '\$.name'), ' ') from json_each(readfile('d.json'))")" \
    "$(awk 'NR > 1 && !/^ / { printf "%s%s", n++ ? " " : "", $1 }' d.txt)" "devices: names as in the text"
expect_eq "$(keys d.json '$[1]' | tr ' ' '\n' | cut -d: -f1 | tr '\n' ' ')" "name kind freq_hz cores smt threads mem_bw line l2_per_core l3 mem_latency_s mlp mca_cpu desc source " "devices: CPU keys"
expect_eq "$(sqlite3 :memory: "select keys from (select group_concat(j.key, ' ') keys, json_extract(d.value, '\$.kind') kind from json_each(readfile('d.json')) d, json_each(d.value) j group by d.key) where kind = 'gpu' group by keys")" \
    "name kind sms freq_hz mem_bw bus_bw max_warps_sm mem_latency_cycles sector l2 launch_s desc source" "devices: one set of keys for every GPU"
"$K" devices --json --add x.machine >out.txt 2>err.txt
expect_eq "$?:$(cat err.txt)" "2:keel: devices takes no arguments, or --add FILE, or --export NAME (see keel devices --help)" "devices --json --add"

# ---- merge ----
"$K" merge --json m.db k.db >m.json 2>err.txt || bad "merge: $(cat err.txt)"
valid merge m.json
expect_eq "$(keys m.json)" "output:text inputs:array sources:integer loops:integer" "merge keys"
expect_eq "$(jx m.json '$.inputs[0].path') $(jx m.json '$.inputs[0].sources_taken') $(jx m.json '$.sources') $(jx m.json '$.loops')" "k.db 1 1 4" "merge values"

# ---- calibrate ----
"$K" calibrate --json c.db >c.json 2>err.txt || bad "calibrate: $(cat err.txt)"
valid calibrate c.json
expect_eq "$(keys c.json | tr ' ' '\n' | cut -d: -f1 | tr '\n' ' ')" "cores freq_hz mem_bw peak_flops fork_ns sched_ns barrier_ns target_fallback_ns target_fallback_source page tlb_entries tlb_miss_ns tlb_source l1_bytes l2_bytes l3_bytes cache_source latency_fadd_cycles latency_fmul_cycles latency_fdiv_cycles latency_iadd_cycles latency_imul_cycles latency_idiv_cycles latency_fsel_cycles latency_isel_cycles latency_stlf_cycles threads_curve stored_in " "calibrate keys"
expect_eq "$(jx c.json '$.stored_in')" "c.db" "calibrate: stored in"
# what many threads get: the curve starts at one thread
expect_eq "$(jx c.json '$.threads_curve[0].threads')" "1" "calibrate: the thread curve's first point"
# why the fallback is or is not set: a sentence, never empty
[ -n "$(jx c.json '$.target_fallback_source')" ] && ok || bad "calibrate: no target_fallback_source"

finish
