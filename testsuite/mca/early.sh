#!/bin/sh
# early.sh BIN -- a large source's assembly compile starts before the
# parse (beside it) and gives the same llvm-mca figures as a small one's,
# which starts after: the same loops, padded past the size threshold with
# comment lines after them, get the same rows.  A large source whose only
# loop prints has its early assembly compile stopped: no llvm-mca run, an
# object byte for byte clang-19's, no warning, and no temporary file left.
BIN=$1
. "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d /tmp/keel-mcaearly-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
mkdir scratch
cat >small.c <<'EOS'
void scale(double *restrict a, const double *restrict b, int n)
{
    for (int i = 0; i < n; i++)
        a[i] = 2.0 * b[i] + a[i];
}
void mm(int n, double c[n][n], double a[n][n], double b[n][n])
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                c[i][j] += a[i][k] * b[k][j];
}
EOS
cat >nosite.c <<'EOS'
#include <stdio.h>
void show(const double *a, int n)
{
    for (int i = 0; i < n; i++)
        printf("%f\n", a[i]);
}
EOS
# 48 KiB of comment lines after the code: past keelcc's 32 KiB threshold
pad() {
    i=0
    while [ $i -lt 768 ]; do
        echo "/* padding line $i: the loops above keep their lines and columns */"
        i=$((i + 1))
    done
}
{ cat small.c; pad; } >large.c
{ cat nosite.c; pad; } >nosite-large.c
[ "$(wc -c <large.c)" -gt 40000 ] && ok || bad "large.c is only $(wc -c <large.c) bytes"
printf '#!/bin/sh\necho "$*" >>%s/mca.count\nexec llvm-mca-19 "$@"\n' "$tmp" >mca.sh
printf '#!/bin/sh\necho "$*" >>%s/cc.count\nexec clang-19 "$@"\n' "$tmp" >cc.sh
chmod +x mca.sh cc.sh
runs() { { grep -v -- --version mca.count 2>/dev/null || true; } | wc -l | tr -d ' '; }
for f in small large nosite-large; do
    rm -f mca.count cc.count
    TMPDIR="$tmp/scratch" KEEL_CC="$tmp/cc.sh" KEEL_LLVM_MCA="$tmp/mca.sh" KEEL_DB=$f.db \
        "$BIN/keelcc" -O2 -c $f.c -o $f.o 2>err.txt || { bad "$f: keelcc failed"; cat err.txt; }
    [ -s err.txt ] && { bad "$f: stderr"; cat err.txt; }
    eval "mca_$(echo $f | tr - _)=\$(runs) asm_$(echo $f | tr - _)=\$(grep -c -- ' -S ' cc.count)"
    sqlite3 $f.db "SELECT l.line, l.col, r.target, r.status, r.reason, r.asm_copies, r.asm_innermost,
                          r.vector, r.vf, r.ic, r.unroll, r.src_iters_per_asm_iter,
                          r.cycles_per_asm_iter, r.block_rthroughput, r.ipc, r.uops_per_iter,
                          r.top_resource, r.top_resource_cycles, r.cycles_per_src_iter,
                          r.whole_iter_millicycles, l.cycles_per_iter
                     FROM loops l JOIN mca_results r ON r.loop_id = l.id ORDER BY 1, 2, 3" \
        >$f.rows 2>&1
done
[ "$asm_small" = 1 ] && [ "$asm_large" = 1 ] && ok \
    || bad "assembly compiles: small $asm_small, large $asm_large, want 1 and 1"
[ "$mca_small" -ge 1 ] && [ "$mca_large" = "$mca_small" ] && ok \
    || bad "llvm-mca runs: small $mca_small, large $mca_large"
[ "$(wc -l <small.rows)" = 4 ] && ok || { bad "small: want 4 rows"; cat small.rows; }
[ "$(grep -c '|ok|' small.rows)" = 4 ] && ok || { bad "small: want 4 rows with figures"; cat small.rows; }
cmp -s small.rows large.rows && ok || { bad "large source's figures differ"; diff small.rows large.rows; }
# the early compile of a source without a site: started, then stopped
[ "$asm_nosite_large" = 1 ] && [ "$mca_nosite_large" = 0 ] && ok \
    || bad "no site: $asm_nosite_large assembly compiles started, $mca_nosite_large llvm-mca runs, want 1 and 0"
[ "$(wc -c <nosite-large.rows)" = 0 ] && ok || { bad "no site: rows"; cat nosite-large.rows; }
clang-19 -O2 -c nosite-large.c -o plain.o && cmp -s plain.o nosite-large.o && ok \
    || bad "no site: object differs from clang-19's"
# (llvm-mca's version is kept there on purpose: keel-mcaver-*)
left=$(ls scratch | grep -vc '^keel-mcaver-' || true)
[ "$left" = 0 ] && ok || { bad "temporary files left: $left"; ls -la scratch; }
echo "mca early: $pass passed, $fail failed"
[ $fail = 0 ]
