#!/bin/sh
# cli_test.sh -- the `keel` command line against a fixed sample database.
#
#   sh cli_test.sh KEEL MKDB GOLDEN_DIR VERSION
#
# KEEL is the keel binary, MKDB the sample writer (testsuite/db/mkdb.c),
# GOLDEN_DIR holds the expected outputs.  The sample is written under a
# temporary folder that is also the working directory, so the table shows
# paths relative to it (src/gemm.c) and the golden files do not depend on
# where the test runs.  JSON is checked with sqlite3's json_valid, its
# keys and the JSON type of every field with json_each (exact lists).
# Every failure must be exactly one "keel: " line on stderr with the right
# exit status.  One FILE:LINE parser, one number parser and one option
# parser: show and explain reject the same locations, every numeric option
# the same malformed numbers, every command unknown options alike; keel
# help CMD works for every command.  Prints one line per failed check and a summary; exits non-zero
# when anything failed.

KEEL=$1 MKDB=$2 GOLDEN=$3 VERSION=$4
tmp=$(mktemp -d /tmp/keel-cli-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
tmp=$(pwd -P)
unset KEEL_DB

. "$(dirname "$0")/../lib.sh"

# same NAME FILE EXPECTED_FILE
same() {
    if cmp -s "$2" "$3"; then ok; else bad "$1"; diff "$3" "$2" | head -20; fi
}

# run ARGS...: sets rc, out (stdout file), err (stderr file)
run() {
    "$KEEL" "$@" >out.txt 2>err.txt
    rc=$?
}

# fails RC "MESSAGE" ARGS...: exit status RC, stdout empty, stderr exactly MESSAGE
fails() {
    want_rc=$1 want_msg=$2
    shift 2
    run "$@"
    if [ "$rc" -ne "$want_rc" ]; then bad "keel $*: exit $rc, want $want_rc"; else ok; fi
    printf '%s\n' "$want_msg" >want.txt
    if cmp -s err.txt want.txt; then ok; else bad "keel $*: stderr '$(cat err.txt)', want '$want_msg'"; fi
    if [ -s out.txt ]; then bad "keel $*: printed on stdout"; else ok; fi
}

# succeeds ARGS...: exit 0, nothing on stderr
succeeds() {
    run "$@"
    if [ "$rc" -eq 0 ] && [ ! -s err.txt ]; then ok; else bad "keel $*: exit $rc, stderr '$(cat err.txt)'"; fi
}

# sql QUERY: one value from sqlite3 (json checks)
sql() { sqlite3 :memory: "$1"; }

"$MKDB" keel.db "$tmp/src" || { echo "FAIL: mkdb"; exit 1; }
"$MKDB" abs.db /nonexistent/src || { echo "FAIL: mkdb"; exit 1; }

# ---- loops ----
succeeds loops --wide
same "loops" out.txt "$GOLDEN/loops.txt"
succeeds loops --wide abs.db
same "loops abs.db" out.txt "$GOLDEN/loops-abs.txt"
KEEL_DB=abs.db "$KEEL" loops --wide >out2.txt 2>&1
same "KEEL_DB=abs.db loops" out2.txt "$GOLDEN/loops-abs.txt"
succeeds loops --wide --file gemm.c
same "loops --file gemm.c" out.txt "$GOLDEN/loops-gemm.txt"
succeeds loops --wide --file=src/gemm.c keel.db
same "loops --file=src/gemm.c" out.txt "$GOLDEN/loops-gemm.txt"
succeeds loops --wide --file ./src/gemm.c
same "loops --file ./src/gemm.c" out.txt "$GOLDEN/loops-gemm.txt"
succeeds loops --wide --file "$tmp/src/gemm.c"
same "loops --file /abs/gemm.c" out.txt "$GOLDEN/loops-gemm.txt"
mkdir -p src
(cd src && "$KEEL" loops --wide --file gemm.c ../keel.db) >out2.txt 2>&1
if grep -q '^gemm.c:12 ' out2.txt; then ok; else bad "loops from src/: paths relative to it"; fi
succeeds loops --wide --function jacobi
same "loops --function jacobi" out.txt "$GOLDEN/loops-jacobi.txt"
succeeds loops --wide --file emm.c
printf 'LOCATION  FUNCTION  DEPTH  PARENT  IV  TRIP  PRAGMAS\n' >want.txt
same "loops --file emm.c (no match: header only)" out.txt want.txt

# ---- loops --json ----
succeeds loops --json
cp out.txt loops.json
[ "$(sql "select json_valid(readfile('loops.json'))")" = 1 ] && ok || bad "loops --json: invalid JSON"
[ "$(sql "select json_array_length(readfile('loops.json'))")" = 7 ] && ok || bad "loops --json: 7 rows"
[ "$(sql "select json_extract(readfile('loops.json'), '\$[3].pragmas[1]')")" = "GCC ivdep" ] && ok || bad "loops --json: pragmas"
[ "$(sql "select json_extract(readfile('loops.json'), '\$[6].cycles_per_iter')")" = 2.5 ] && ok || bad "loops --json: cycles"
[ "$(sql "select json_extract(readfile('loops.json'), '\$[0].file')")" = "$tmp/src/gemm.c" ] && ok || bad "loops --json: file as stored"
[ "$(sql "select json_type(readfile('loops.json'), '\$[0].parent_line')")" = null ] && ok || bad "loops --json: null parent"
succeeds loops --json --function nosuch
[ "$(cat out.txt)" = "[]" ] && ok || bad "loops --json with no rows: []"

# ---- show ----
succeeds show gemm.c:16
same "show gemm.c:16" out.txt "$GOLDEN/show-gemm-16.txt"
succeeds show src/gemm.c:16:7 keel.db
same "show src/gemm.c:16:7" out.txt "$GOLDEN/show-gemm-16.txt"
succeeds show "$tmp/src/gemm.c:16"
same "show /abs/gemm.c:16" out.txt "$GOLDEN/show-gemm-16.txt"
succeeds show gemm.c:32
same "show gemm.c:32" out.txt "$GOLDEN/show-gemm-32.txt"
succeeds show --json gemm.c:32
cp out.txt show.json
[ "$(sql "select json_valid(readfile('show.json'))")" = 1 ] && ok || bad "show --json: invalid JSON"
[ "$(sql "select json_extract(readfile('show.json'), '\$.statements[0].accesses[0].subscripts[0]')")" = "load.p(k)" ] && ok || bad "show --json: subscript"
[ "$(sql "select json_type(readfile('show.json'), '\$.statements[0].accesses[1].extents[0]')")" = null ] && ok || bad "show --json: unknown extent"
[ "$(sql "select json_extract(readfile('show.json'), '\$.statements[0].scalars[2].name')")" = k ] && ok || bad "show --json: scalar"
[ "$(sql "select json_extract(readfile('show.json'), '\$.statements[0].conditional')")" = 1 ] && ok || bad "show --json: conditional"
succeeds show util/stencil.c:8 --json
cp out.txt show2.json
[ "$(sql "select json_valid(readfile('show2.json'))")" = 1 ] && ok || bad "show --json 2: invalid JSON"
[ "$(sql "select json_extract(readfile('show2.json'), '\$.idioms[0]') || json_extract(readfile('show2.json'), '\$.parent_line')")" = stencil7 ] && ok || bad "show --json 2: idioms/parent"

# ---- show --json has the sections of the text, one type per field ----
# ipda.db: the sample plus what keelcc's later stages write (IPDA verdict
# and strides, llvm-mca results, idioms as keelcc stores them: a list)
cp keel.db ipda.db
sqlite3 ipda.db "
  INSERT INTO loop_dependences VALUES (4, 'parallel', 'no dependence carried');
  INSERT INTO access_strides VALUES (3, 4, '0', 'uniform', '1', 'coalesced', 0);
  INSERT INTO access_strides VALUES (5, 4, '1', 'coalesced', '1', 'coalesced', 1);
  INSERT INTO mca_results(loop_id, target, status, asm_label, asm_copies, asm_innermost,
      vector, cycles_per_asm_iter, block_rthroughput, ipc, uops_per_iter, top_resource,
      top_resource_cycles, vf, ic, unroll, src_iters_per_asm_iter, cycles_per_src_iter)
    VALUES (4, 'znver4', 'ok', '.LBB0_3', 1, 1, 1, 4.0, 3.5, 2.25, 9.0, 'Zn4FP0', 4.0, 4, 2, 1,
            8, 0.5);
  INSERT INTO mca_results(loop_id, target, status, reason) VALUES (4, 'pwr9', 'failed',
      'no assembly loop');
  UPDATE loops SET idioms = 'matmul,reduction', parallel = 'parallel', cycles_per_iter = 0.5
    WHERE id = 4;" || bad "ipda.db"
succeeds show gemm.c:16 ipda.db
same "show gemm.c:16 ipda.db" out.txt "$GOLDEN/show-ipda.txt"
sed -n '/^strides/,/^mca/p' out.txt | grep -c '^  [0-9]' >nstrides.txt
succeeds show gemm.c:16 --json ipda.db
cp out.txt ipda.json
j() { sql "select $1 from json_each(readfile('ipda.json')$2)"; }
[ "$(sql "select json_valid(readfile('ipda.json'))")" = 1 ] && ok || bad "show --json ipda: invalid JSON"
# every key, in order, with its JSON type
[ "$(j "group_concat(key || ':' || type, ' ')")" = "loop_id:integer file:text line:integer col:integer end_line:integer function:text function_file:text function_line:integer unit:text unit_status:text variant:null hash:text object:null kind:text canonical:true depth:integer parent_line:integer parent_col:integer inner:array iv:text lower:text upper:text step:integer trip:text pragmas:array n_if:integer n_break:integer n_continue:integer n_goto:integer n_return:integer idioms:array algorithm_class:null parallel:text coalescing:null site:null site_why:null no_answer:null gpu_map:null gpu_collapse:integer gpu_teams:null gpu_threads:null region_line:null cycles_per_iter:real statements:array dependence:object overlap:array strides:array mca:array counts:array boat_hull:null footprint:array" ] \
    && ok || bad "show --json keys: $(j "group_concat(key || ':' || type, ' ')")"
[ "$(j "group_concat(value, ',')" ",'\$.idioms'")" = "matmul,reduction" ] && ok || bad "show --json: idioms as an array"
[ "$(sql "select json_extract(readfile('ipda.json'), '\$.dependence.verdict') || ' ' || json_extract(readfile('ipda.json'), '\$.dependence.reason')")" = "parallel no dependence carried" ] \
    && ok || bad "show --json: dependence"
[ "$(sql "select json_array_length(readfile('ipda.json'), '\$.strides')")" = "$(cat nstrides.txt)" ] && ok || bad "show --json: one stride per text line"
[ "$(j "group_concat(key || ':' || type, ' ')" ",'\$.strides[0]'")" = "line:integer col:integer write:false array:text subscripts:array stride:text class:text thread_line:integer inner_stride:text inner_class:text false_sharing:false" ] \
    && ok || bad "show --json strides[0]: $(j "group_concat(key || ':' || type, ' ')" ",'\$.strides[0]'")"
[ "$(j "group_concat(key || ':' || type, ' ')" ",'\$.strides[1]'")" = "line:integer col:integer write:false array:text subscripts:array stride:null class:null thread_line:null inner_stride:null inner_class:null false_sharing:false" ] \
    && ok || bad "show --json strides[1] (no thread loop): $(j "group_concat(key || ':' || type, ' ')" ",'\$.strides[1]'")"
[ "$(sql "select json_extract(readfile('ipda.json'), '\$.strides[2].false_sharing')")" = 1 ] && ok || bad "show --json: false sharing"
[ "$(j "group_concat(json_extract(value, '\$.target'), ',')" ",'\$.mca'")" = "znver4,pwr9" ] && ok || bad "show --json: mca targets"
# an llvm-mca row that failed has the same keys, nulls for the figures
[ "$(j "group_concat(key || ':' || type, ' ')" ",'\$.mca[0]'")" = "target:text ok:true reason:null cycles_per_src_iter:real asm_label:text asm_innermost:true asm_cycles_per_iter:real src_iters_per_asm_iter:integer vf:integer ic:integer unroll:integer block_rthroughput:real ipc:real uops_per_iter:real busiest_resource:text busiest_resource_cycles:real whole_iter_millicycles:null" ] \
    && ok || bad "show --json mca[0]: $(j "group_concat(key || ':' || type, ' ')" ",'\$.mca[0]'")"
[ "$(j "group_concat(key, ' ')" ",'\$.mca[0]'")" = "$(j "group_concat(key, ' ')" ",'\$.mca[1]'")" ] && ok || bad "show --json: mca rows differ in keys"
[ "$(sql "select json_extract(readfile('ipda.json'), '\$.mca[1].reason') || json_type(readfile('ipda.json'), '\$.mca[1].vf')")" = "no assembly loopnull" ] && ok || bad "show --json: failed mca row"
# loops --json and show --json agree on a loop, field for field
succeeds loops --json ipda.db
cp out.txt loops2.json
for k in loop_id file line col function depth iv trip pragmas idioms algorithm_class parallel coalescing cycles_per_iter; do
    a=$(sql "select json_type(readfile('loops2.json'), '\$[3].$k') || json_extract(readfile('loops2.json'), '\$[3].$k')")
    b=$(sql "select json_type(readfile('ipda.json'), '\$.$k') || json_extract(readfile('ipda.json'), '\$.$k')")
    [ "$a" = "$b" ] && ok || bad "loops --json and show --json differ in $k: '$a' '$b'"
done
# one type per field across every row of loops --json: T or null, never two types
sql "select key, group_concat(distinct type) from (select j.key, j.type from json_each(readfile('loops2.json')) r, json_each(r.value) j order by j.key, j.type) group by key" >types.txt
cat >want.txt <<'T'
algorithm_class|null,text
coalescing|null
col|integer
cycles_per_iter|null,real
depth|integer
file|text
function|text
idioms|array,null
iv|null,text
line|integer
loop_id|integer
no_answer|null
parallel|null,text
parent_line|integer,null
pragmas|array,null
site|null
site_why|null
trip|null,text
T
same "loops --json: one type per field" types.txt want.txt
succeeds report --idioms --json ipda.db
[ "$(sql "select json_valid(readfile('out.txt')) || json_type(readfile('out.txt'))")" = "1array" ] && ok || bad "report --idioms --json: an array"
succeeds report --json ipda.db
[ "$(sql "select json_valid(readfile('out.txt')) || json_type(readfile('out.txt')) || json_type(readfile('out.txt'), '\$.ranking')")" = "1objectarray" ] && ok || bad "report --json: an object with a ranking"

# ---- errors: database ----
fails 1 "keel: no loop at gemm.c:99 in keel.db" show gemm.c:99
fails 1 "keel: no loop at gemm.c:16:8 in keel.db" show gemm.c:16:8
fails 1 "keel: no loop at nosuch.c:12 in keel.db" show nosuch.c:12
fails 1 "keel: missing.db: no such file" loops missing.db
fails 1 "keel: missing.db: no such file" show gemm.c:16 missing.db
mkdir empty && (cd empty && "$KEEL" loops >../out.txt 2>../err.txt; echo $? >../rc.txt)
[ "$(cat rc.txt)" = 1 ] && [ "$(cat err.txt)" = "keel: keel.db: no such file" ] && ok || bad "default keel.db missing: $(cat err.txt)"
KEEL_DB="$tmp/gone.db" "$KEEL" loops >out.txt 2>err.txt
[ $? = 1 ] && [ "$(cat err.txt)" = "keel: $tmp/gone.db: no such file" ] && ok || bad "KEEL_DB missing: $(cat err.txt)"
head -c 4096 /dev/urandom >junk.db
fails 1 "keel: junk.db: file is not a database" loops junk.db
sqlite3 other.db "create table t(x); insert into t values (1);"
fails 1 "keel: other.db: not a keel database" loops other.db
: >zero.db
fails 1 "keel: zero.db: not a keel database" loops zero.db
cp keel.db future.db
V=$(sqlite3 keel.db "pragma user_version")   # this keel's schema version
F=$((V + 1))
sqlite3 future.db "pragma user_version = $F"
fails 1 "keel: future.db: database schema version $F is newer than this keel ($V)" loops future.db
fails 1 "keel: future.db: database schema version $F is newer than this keel ($V)" show gemm.c:16 future.db
"$MKDB" two.db "$tmp/a" && "$MKDB" two.db "$tmp/b" || bad "mkdb two.db"
fails 2 "keel: gemm.c:16 is ambiguous: $tmp/a/gemm.c and $tmp/b/gemm.c match (give more of the path)" show gemm.c:16 two.db
succeeds show b/gemm.c:16 two.db
grep -q '^loop        b/gemm.c:16:7$' out.txt && ok || bad "show b/gemm.c:16 two.db"

# ---- errors: usage ----
fails 2 "keel: no command (see keel --help)"
fails 2 "keel: unknown command 'frob' (see keel --help)" frob
fails 2 "keel: unknown option '--frob' (see keel --help)" --frob
fails 2 "keel: unknown option '--bogus' for loops (see keel loops --help)" loops --bogus
fails 2 "keel: unknown option '--file' for show (see keel show --help)" show --file x gemm.c:16
fails 2 "keel: --function needs a value" loops --function
fails 2 "keel: too many arguments for loops (see keel loops --help)" loops a.db b.db
fails 2 "keel: show needs FILE:LINE (see keel show --help)" show
fails 2 "keel: bad location 'gemm.c' (want FILE:LINE or FILE:LINE:COL)" show gemm.c
fails 2 "keel: bad location 'gemm.c:0' (want FILE:LINE or FILE:LINE:COL)" show gemm.c:0
fails 2 "keel: bad location ':12' (want FILE:LINE or FILE:LINE:COL)" show :12
fails 2 "keel: too many arguments for show (see keel show --help)" show gemm.c:1 a.db b.db
fails 2 "keel: unknown command 'frob' (see keel --help)" help frob

# ---- one FILE:LINE parser: explain rejects what show rejects ----
for loc in gemm.c:abc gemm.c gemm.c:0 :12 gemm.c:16:x gemm.c:16:0 gemm.c:1234567890 gemm.c:-3; do
    for cmd in show explain; do
        fails 2 "keel: bad location '$loc' (want FILE:LINE or FILE:LINE:COL)" $cmd $loc
    done
done
fails 2 "keel: explain needs FILE:LINE (see keel explain --help)" explain
fails 2 "keel: too many arguments for explain (see keel explain --help)" explain gemm.c:16 a.db b.db

# ---- one number parser, one option parser ----
for v in 1x 0 -1 " 4" +4 0x10 99999999999 1048577 ""; do
    fails 2 "keel: bad --threads '$v' (want 1 to 1048576)" explain gemm.c:16 --threads "$v"
    fails 2 "keel: bad --threads '$v' (want 1 to 1048576)" report --html r.html --threads "$v"
done
fails 2 "keel: bad --set 'n=0x10' (want SYM=INT,SYM=INT)" explain gemm.c:16 --set n=0x10
fails 2 "keel: bad --set 'n=1e3' (want SYM=INT,SYM=INT)" explain gemm.c:16 --set=n=1e3
fails 2 "keel: bad --set 'n=99999999999999999999' (want SYM=INT,SYM=INT)" explain gemm.c:16 --set n=99999999999999999999
fails 2 "keel: bad --set 'n=1,,m=2' (want SYM=INT,SYM=INT)" explain gemm.c:16 --set 'n=1,,m=2'
fails 2 "keel: bad --set 'n=1,' (want SYM=INT,SYM=INT)" explain gemm.c:16 --set 'n=1,'
fails 2 "keel: --device wants a profile name (see keel devices)" explain gemm.c:16 --device ''
fails 2 "keel: --host wants a profile name (see keel devices)" explain gemm.c:16 --host ''
fails 2 "keel: bad -j '0' (want 1 to 4096)" scan -p build -j 0
fails 2 "keel: bad -j '2x' (want 1 to 4096)" scan -p build -j2x
fails 2 "keel: bad --size '1e3' (want 1 to 1099511627776)" report --html r.html --size 1e3
fails 2 "keel: --set needs a value" explain gemm.c:16 --set
fails 2 "keel: --add needs a value" history --add
fails 2 "keel: -p needs a value" scan -p
fails 2 "keel: --json takes no value" show --json=yes gemm.c:16
for cmd in loops show report scan merge devices calibrate explain history stats; do
    fails 2 "keel: unknown option '--frob' for $cmd (see keel $cmd --help)" $cmd --frob
done
fails 2 "keel: unknown option '-x' for scan (see keel scan --help)" scan -x
fails 2 "keel: unknown option '--frob' for report --html (see keel report --help)" report --html r.html --frob
fails 2 "keel: report --html writes HTML: --json is for keel report without --html" report --html r.html --json
fails 2 "keel: --device takes at most 8 GPU profiles" report --html r.html --device h100,h100,h100,h100,h100,h100,h100,h100,h100
for v in n=0x10:20 n=1:x n=4:2 =1:2 n=0:4 n=1 "n=1: 4"; do
    fails 2 "keel: bad --sweep '$v' (want SYM=LO:HI, 1 <= LO <= HI; SYM * for every symbol)" explain gemm.c:16 --sweep "$v" --json
done
fails 2 "keel: help takes at most one command" help loops show
fails 2 "keel: unknown command 'frob' (see keel --help)" frob --help

# ---- help, version ----
for args in "--help" "-h" "help" "help help"; do
    succeeds $args
    same "keel $args" out.txt "$GOLDEN/help.txt"
done
for cmd in loops show report scan merge devices calibrate explain history stats; do
    succeeds $cmd --help
    head -1 out.txt | grep -q "^usage: keel $cmd" && ok || bad "keel $cmd --help: $(head -1 out.txt)"
    grep -q -- '--json' out.txt && ok || bad "keel $cmd --help: no --json"
    "$KEEL" help $cmd >out2.txt 2>&1
    same "keel help $cmd" out2.txt out.txt
    "$KEEL" $cmd -h >out2.txt 2>&1
    same "keel $cmd -h" out2.txt out.txt
    grep -q "^  $cmd " "$GOLDEN/help.txt" && ok || bad "keel --help does not list $cmd"
done
succeeds help devices
same "keel help devices" out.txt "$GOLDEN/help-devices.txt"
succeeds explain --help gemm.c:abc
succeeds scan --help
succeeds loops --help missing.db
succeeds --version
[ "$(cat out.txt)" = "keel $VERSION" ] && ok || bad "keel --version: '$(cat out.txt)', want 'keel $VERSION'"

finish
