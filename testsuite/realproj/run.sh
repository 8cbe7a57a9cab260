#!/bin/sh
# run.sh BIN SRC -- keel's offline "real project" check (issue 9, Deliver).
#
# Builds kl (testsuite/realproj/kl: four library sources, a private config
# header, a test program) the way a project's Makefile would: each source
# compiled to an object with -O2 -g -Wall -Wextra, an archive, a linked test
# program.  Once with plain clang-19, twice with keelcc (default
# instrumentation) into separate folders from the same working directory.
# Then:
#   - the compilers' messages are identical (keel adds none);
#   - the test program prints the same and exits with the same status, plain
#     and keelcc-built, and also with KEEL_DEVICE=h100 set at run time (the
#     keelcc build then decides against a device profile: same output, same
#     status, nothing on stderr);
#   - the two keelcc builds' objects and archives are byte-identical
#     (reproducible, no temporary names);
#   - the keelcc build is instrumented (keel_decide is called) and the
#     database holds loops of every source.
set -u
BIN=$1
SRC=$2
work=$(mktemp -d /tmp/keel-realproj-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -R "$SRC/testsuite/realproj/kl" "$work/kl"
cd "$work/kl" || exit 1
export KEEL_DB="$work/k.db" KEEL_MCA=off
. "$(dirname "$0")/../lib.sh"

# build CC OUT: objects, archive and test program under OUT; messages in OUT.msgs
build() {
    cc=$1 out=$2
    mkdir -p "$out"
    : >"$out.msgs"
    for s in vec mat stats text; do
        $cc -O2 -g -Wall -Wextra -c "src/$s.c" -o "$out/$s.o" >>"$out.msgs" 2>&1 || return 1
    done
    ar rcD "$out/libkl.a" "$out/vec.o" "$out/mat.o" "$out/stats.o" "$out/text.o" || return 1
    $cc -O2 -g -Wall -Wextra -Isrc tests/test_kl.c "$out/libkl.a" -o "$out/test_kl" \
        >>"$out.msgs" 2>&1
}

build clang-19 plain || bad "plain build failed: $(cat plain.msgs)"
build "$BIN/keelcc" k1 || bad "keelcc build failed: $(cat k1.msgs)"
build "$BIN/keelcc" k2 || bad "second keelcc build failed: $(cat k2.msgs)"
expect_eq "$(cat k1.msgs)" "$(cat plain.msgs)" "compiler messages"

./plain/test_kl >plain.out 2>plain.err
plain_rc=$?
expect_eq "$plain_rc" 0 "plain test program's status"
./k1/test_kl >k1.out 2>k1.err
expect_eq "$?" "$plain_rc" "keelcc-built test program's status"
cmp -s plain.out k1.out && ok || bad "keelcc-built output differs: $(diff plain.out k1.out | head -3)"
expect_eq "$(cat k1.err)" "$(cat plain.err)" "keelcc-built stderr"
KEEL_DEVICE=h100 ./k1/test_kl >dev.out 2>dev.err
expect_eq "$?" "$plain_rc" "status with KEEL_DEVICE=h100"
cmp -s plain.out dev.out && ok || bad "output with KEEL_DEVICE=h100 differs: $(diff plain.out dev.out | head -3)"
expect_eq "$(cat dev.err)" "$(cat plain.err)" "stderr with KEEL_DEVICE=h100"

for f in vec.o mat.o stats.o text.o libkl.a; do
    cmp -s "k1/$f" "k2/$f" && ok || bad "$f differs between two keelcc builds"
done
expect_eq "$(strings -a k1/libkl.a | grep -c 'keel-[A-Za-z0-9]\{6\}\.\(c\|yaml\)')" 0 "temporary names in the archive"

expect_eq "$(nm -A k1/libkl.a 2>/dev/null | grep ' U keel_decide' | cut -d: -f2 | sort -u | wc -l | tr -d ' ')" 3 "instrumented objects (vec, mat, text)"
expect_eq "$(nm plain/libkl.a 2>/dev/null | grep -c 'keel_decide')" 0 "plain objects"
n=$(sqlite3 "$KEEL_DB" "SELECT count(DISTINCT t.path) FROM loops l JOIN translation_units t ON t.id = l.tu_id WHERE t.path LIKE '%/kl/src/%'")
expect_eq "$n" 4 "sources with loops in the database"

finish
