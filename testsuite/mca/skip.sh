#!/bin/sh
# skip.sh BIN -- keelcc runs the llvm-mca stage (a second compile to
# assembly, then llvm-mca) only for sources with a nest the runtime could
# launch.  A source whose only loop prints (no instrumentation site) gets
# no assembly compile and no llvm-mca run, and its object is byte for byte
# clang-19's; a source with a site still gets both, and its cycles.  A
# rebuild of the unchanged source without a site is a direct-mode hit (no
# llvm-mca stage to wait for: nothing recorded again).
BIN=$1
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/keel-mcaskip-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
cat >nosite.c <<'EOS'
#include <stdio.h>
void show(const double *a, int n)
{
    for (int i = 0; i < n; i++)
        printf("%f\n", a[i]);
}
EOS
cat >site.c <<'EOS'
void scale(double *a, int n)
{
    for (int i = 0; i < n; i++)
        a[i] = 2.0 * a[i];
}
EOS
printf '#!/bin/sh\necho run >>%s/mca.count\nexec llvm-mca-19 "$@"\n' "$tmp" >mca.sh
printf '#!/bin/sh\necho "$*" >>%s/cc.count\nexec clang-19 "$@"\n' "$tmp" >cc.sh
chmod +x mca.sh cc.sh
count() { [ -f "$1" ] && wc -l <"$1" | tr -d ' ' || echo 0; }
for f in nosite site; do
    rm -f mca.count cc.count k.db*
    KEEL_CC="$tmp/cc.sh" KEEL_LLVM_MCA="$tmp/mca.sh" KEEL_DB=k.db "$BIN/keelcc" -O2 -c $f.c \
        -o $f.o 2>err.txt || { bad "$f: keelcc failed"; cat err.txt; }
    [ -s err.txt ] && { bad "$f: stderr"; cat err.txt; }
    eval "${f}_mca=\$(count mca.count) ${f}_asm=\$(grep -c -- ' -S ' cc.count)"
    "$BIN/keel" loops k.db >$f.loops 2>&1
done
[ "$nosite_mca" = 0 ] && [ "$nosite_asm" = 0 ] && ok \
    || bad "no site: $nosite_mca llvm-mca runs, $nosite_asm assembly compiles, want 0 and 0"
[ "$site_mca" -ge 1 ] && [ "$site_asm" = 1 ] && ok \
    || bad "site: $site_mca llvm-mca runs, $site_asm assembly compiles, want >= 1 and 1"
grep -q '^.*nosite\.c:4  *-  *[a-z]*  *-\(  .*\)\{0,1\}$' nosite.loops && ok || { bad "nosite cycles"; cat nosite.loops; }
grep -q '^.*site\.c:3  *stream  *parallel  *[0-9][0-9.]*$' site.loops && ok || { bad "site cycles"; cat site.loops; }
clang-19 -O2 -c nosite.c -o plain.o && cmp -s plain.o nosite.o && ok || bad "nosite object differs"
# direct mode: the first build stores its entry once the file is over a
# second old (the "too new" rule); the rebuild records nothing
rm -f k.db*
sleep 1.2
KEEL_DB=k.db "$BIN/keelcc" -O2 -c nosite.c -o nosite.o 2>err.txt || bad "nosite: first build failed"
sqlite3 k.db "UPDATE translation_units SET message = 'kept'"
KEEL_DB=k.db "$BIN/keelcc" -O2 -c nosite.c -o again.o 2>>err.txt || bad "nosite: rebuild failed"
[ -s err.txt ] && { bad "nosite rebuild: stderr"; cat err.txt; }
[ "$(sqlite3 k.db 'SELECT count(*) FROM direct_cache')" = 1 ] && ok \
    || bad "nosite: no direct-mode entry stored"
[ "$(sqlite3 k.db "SELECT count(*) FROM translation_units WHERE message IS NOT 'kept'")" = 0 ] \
    && ok || bad "nosite rebuild: recorded again, not a direct-mode hit"
cmp -s plain.o again.o && ok || bad "nosite rebuild: object differs"
echo "mca skip: $pass passed, $fail failed"
[ $fail = 0 ]
