#!/bin/sh
# cli_test.sh -- the `keel` command line against a fixed sample database.
#
#   sh cli_test.sh KEEL MKDB GOLDEN_DIR VERSION
#
# KEEL is the keel binary, MKDB the sample writer (testsuite/db/mkdb.c),
# GOLDEN_DIR holds the expected outputs.  The sample is written under a
# temporary folder that is also the working directory, so the table shows
# paths relative to it (src/gemm.c) and the golden files do not depend on
# where the test runs.  JSON is checked with sqlite3's json_valid.  Every
# failure must be exactly one "keel: " line on stderr with the right exit
# status.  Prints one line per failed check and a summary; exits non-zero
# when anything failed.

KEEL=$1 MKDB=$2 GOLDEN=$3 VERSION=$4
pass=0 fail=0
tmp=$(mktemp -d /tmp/keel-cli-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
tmp=$(pwd -P)
unset KEEL_DB

ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

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
sqlite3 future.db "pragma user_version = 99"
fails 1 "keel: future.db: database schema version 99 is newer than this keel ($V)" loops future.db
fails 1 "keel: future.db: database schema version 99 is newer than this keel ($V)" show gemm.c:16 future.db
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

# ---- help, version ----
for args in "--help" "-h" "help" "help help"; do
    succeeds $args
    same "keel $args" out.txt "$GOLDEN/help.txt"
done
for cmd in loops show; do
    succeeds $cmd --help
    head -1 out.txt | grep -q "^usage: keel $cmd" && ok || bad "keel $cmd --help"
    "$KEEL" help $cmd >out2.txt 2>&1
    same "keel help $cmd" out2.txt out.txt
done
succeeds loops --help missing.db
succeeds --version
[ "$(cat out.txt)" = "keel $VERSION" ] && ok || bad "keel --version: '$(cat out.txt)', want 'keel $VERSION'"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
