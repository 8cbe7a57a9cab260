#!/bin/sh
# bad-input.sh BIN SRC -- keelcc never changes what the compiler produces or
# returns; every analysis problem is one warning line and loses nothing.
set -u
BIN=$1
SRC=$2
KEELCC=$BIN/keelcc
KEEL=$BIN/keel
work=$(mktemp -d /tmp/keel-bad-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
lines() { if [ -s "$1" ]; then wc -l <"$1" | tr -d ' '; else echo 0; fi; }

cat >good.c <<'C'
double A[64][64], B[64][64];
void scale(int n, double s)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[i][j] = s * B[j][i];
}
C
printf 'int f(void) { return 1 +; }\n' >syntax.c
printf '#include "no-such-header.h"\nint x;\n' >nohdr.c

# Same object file, same exit status, database written.
clang-19 -O2 -c good.c -o plain.o
KEEL_DB=$work/k.db "$KEELCC" --keel-instrument=off -O2 -c good.c -o keel.o 2>err.txt
expect_eq "$?" 0 "good.c exit status"
cmp -s plain.o keel.o && ok || bad "keelcc object differs from clang-19's"
expect_eq "$(lines err.txt)" 0 "good.c stderr lines"
expect_eq "$(sqlite3 k.db 'SELECT count(*) FROM loops')" 2 "loops recorded"

# Recompiling replaces rows; an edited file loses its removed loop.
KEEL_DB=$work/k.db "$KEELCC" -O2 -c good.c -o keel.o
expect_eq "$(sqlite3 k.db 'SELECT count(*) FROM loops')" 2 "loops after recompiling"
sed -i 's/for (int j = 0; j < n; j++)/{ int j = i;/; s/B\[j\]\[i\];/B[j][i]; }/' good.c
KEEL_DB=$work/k.db "$KEELCC" -O2 -c good.c -o keel.o
expect_eq "$(sqlite3 k.db 'SELECT count(*) FROM loops')" 1 "loops after editing"

# Dependency files are the compiler's own: identical with and without
# instrumentation (the instrumented text includes no header and is compiled
# under the source's own name), never the temporary instrumented copy.
clang-19 -MD -MF plain.d -c good.c -o plain.o
KEEL_DB=$work/k.db "$KEELCC" --keel-instrument=off -MD -MF keel.d -c good.c -o plain.o
cmp -s keel.d plain.d && ok || bad "dependency file differs: $(cat keel.d)"
KEEL_DB=$work/k.db "$KEELCC" -MD -MF keel.d -c good.c -o plain.o
expect_eq "$(cat keel.d)" "plain.o: good.c" "instrumented dependency file"
KEEL_DB=$work/k.db "$KEELCC" -MD -c good.c -o dep.o
expect_eq "$(cat dep.d)" "dep.o: good.c" "dependency file named after -o"

# Syntax error and missing header: the compiler's status and messages, no
# keel warning, and the database keeps what it had.
for f in syntax.c nohdr.c; do
    clang-19 -c $f -o x.o 2>plain.err
    want=$?
    KEEL_DB=$work/k.db "$KEELCC" -c $f -o x.o 2>keel.err
    expect_eq "$?" "$want" "$f exit status"
    cmp -s plain.err keel.err && ok || bad "$f: stderr differs from clang-19's"
done
# (the edited -O2 build's loop and the -MD builds' one: without -O2 they are
# another build of good.c, whose parse has no __OPTIMIZE__)
expect_eq "$(sqlite3 k.db 'SELECT count(*) FROM loops')" 2 "loops kept after failed compiles"

# A corrupt database: compile succeeds, one warning, file untouched.
head -c 4096 /dev/urandom >corrupt.db
cp corrupt.db corrupt.orig
KEEL_DB=$work/corrupt.db "$KEELCC" -O2 -c good.c -o c.o 2>err.txt
expect_eq "$?" 0 "corrupt db exit status"
expect_eq "$(lines err.txt)" 1 "corrupt db warning lines"
grep -q '^keelcc: warning: .*corrupt.db' err.txt && ok || bad "corrupt db warning: $(cat err.txt)"
cmp -s corrupt.db corrupt.orig && ok || bad "corrupt database was modified"
"$KEEL" loops corrupt.db >/dev/null 2>err.txt
expect_eq "$?" 1 "keel loops on corrupt db"
expect_eq "$(lines err.txt)" 1 "keel loops error lines"

# A database location that cannot be written.
"$KEELCC" --keel-db=/nonexistent-dir/k.db -O2 -c good.c -o r.o 2>err.txt
expect_eq "$?" 0 "unwritable db exit status"
expect_eq "$(lines err.txt)" 1 "unwritable db warning lines"
[ -s r.o ] && ok || bad "no object with an unwritable database"

# A database of a newer schema version is refused, not touched.
cp k.db new.db
sqlite3 new.db 'PRAGMA user_version = 99'
KEEL_DB=$work/new.db "$KEELCC" -c good.c -o n.o 2>err.txt
expect_eq "$?" 0 "newer schema exit status"
grep -q 'version 99' err.txt && ok || bad "newer schema warning: $(cat err.txt)"
"$KEEL" loops new.db >/dev/null 2>err.txt
expect_eq "$?" 1 "keel loops on newer schema"

# The compiler accepts what libclang cannot parse (a GCC nested function):
# compile succeeds, one warning, the TU is recorded with status error.
if command -v gcc >/dev/null 2>&1; then
    printf 'int outer(int n) { int inner(int k) { return k + n; } int s = 0;\n for (int i = 0; i < n; i++) s += inner(i); return s; }\n' >nested.c
    KEEL_CC=gcc KEEL_DB=$work/k.db "$KEELCC" -c nested.c -o nested.o 2>err.txt
    expect_eq "$?" 0 "gcc-only code exit status"
    expect_eq "$(lines err.txt)" 1 "gcc-only code warning lines"
    grep -q '^keelcc: warning: nested.c: analysis skipped: ' err.txt && ok || bad "warning: $(cat err.txt)"
    expect_eq "$(sqlite3 k.db "SELECT status FROM translation_units WHERE path LIKE '%/nested.c'")" error "status of unparsable TU"
    # ... and every listing names it with the reason instead of an empty table
    "$KEEL" loops --file nested.c k.db >out.txt 2>err.txt
    expect_eq "$?" 0 "keel loops --file on a file not analysed: exit status"
    expect_eq "$(grep -c '^not analysed: ' out.txt)" 1 "keel loops --file names the file not analysed"
    grep -q '^not analysed: nested.c: nested.c:1:[0-9]*: error: function definition is not allowed here$' out.txt \
        && ok || bad "keel loops' reason: $(cat out.txt)"
    "$KEEL" loops k.db | grep -c '^not analysed: nested.c: ' >n.txt
    expect_eq "$(cat n.txt)" 1 "keel loops names it after the table"
    "$KEEL" report k.db >rep.txt 2>err.txt || bad "keel report: $(cat err.txt)"
    grep -q '^  nested.c: nested.c:1:[0-9]*: error: function definition is not allowed here$' rep.txt \
        && ok || bad "keel report's not analysed section: $(tail -3 rep.txt)"
    "$KEEL" report --json k.db >rep.json 2>err.txt || bad "keel report --json: $(cat err.txt)"
    expect_eq "$(sqlite3 :memory: "SELECT json_extract(value, '\$.file') LIKE '%/nested.c', json_extract(value, '\$.variant') IS NULL, json_extract(value, '\$.reason') LIKE '%function definition is not allowed here' FROM json_each(readfile('rep.json'), '\$.not_analysed')")" \
        "1|1|1" "keel report --json: not_analysed"
fi

# keel loops --wide prints locations of any length in full.
deep=a-rather-long-folder-name/and-another-long-folder-name/and-a-third-one
mkdir -p "$deep"
cp good.c "$deep/a-long-source-file-name.c"
(cd "$deep" && KEEL_DB=$work/long.db "$KEELCC" -c a-long-source-file-name.c -o x.o)
"$KEEL" loops --wide long.db >out.txt
grep -q "^$deep/a-long-source-file-name.c:4 " out.txt && ok || bad "long location cut: $(sed -n 2p out.txt)"

# Link-only commands analyse nothing; a missing compiler is exit 127.
clang-19 -fPIC -c good.c -o l.o
KEEL_DB=$work/link.db "$KEELCC" l.o -shared -o l.so 2>err.txt
expect_eq "$?" 0 "link-only exit status"
[ ! -e link.db ] && ok || bad "link-only command created a database"
KEEL_CC=no-such-compiler-xyz "$KEELCC" -c good.c 2>err.txt
expect_eq "$?" 127 "missing compiler exit status"
grep -q "cannot run 'no-such-compiler-xyz'" err.txt && ok || bad "missing compiler message: $(cat err.txt)"
"$KEELCC" --keel-bogus -c good.c 2>err.txt
expect_eq "$?" 2 "unknown keel option"
"$KEELCC" --help | grep -q -- '--keel-db=PATH' && ok || bad "keelcc --help"

finish
