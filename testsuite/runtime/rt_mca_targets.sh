#!/bin/sh
# rt_mca_targets.sh BINDIR -- libkeelrt keeps every llvm-mca target keelcc
# stored for a loop (it used to keep the first 4 silently): an axpy loop
# compiled with five --keel-mcpu targets, the host's (sapphirerapids, the
# xeon-8480 profile's) named last, is explained with --host xeon-8480; the
# CPU model must use exactly the sapphirerapids figure `keel show` prints.
BIN=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
cat > g.c <<'E'
void axpy(int n, double a, double *x, double *y)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}
E
"$BIN/keelcc" --keel-db=k.db --keel-mcpu=pwr9,nehalem,haswell,core2,sapphirerapids -O2 -fopenmp \
    -c g.c -o g.o || bad "keelcc"
"$BIN/keel" show g.c:4 k.db >show.txt || bad "keel show"
# five targets stored, each with its figure
[ "$(grep -cE '^  (pwr9|nehalem|haswell|core2|sapphirerapids) +[0-9.]+ cyc/iter' show.txt)" = 5 ] \
    && ok || bad "five targets stored: $(cat show.txt)"
want=$(sed -n 's/^  sapphirerapids *\([0-9.]*\) cyc\/iter.*/\1/p' show.txt)
[ -n "$want" ] && ok || bad "no sapphirerapids figure"
OMP_NUM_THREADS= "$BIN/keel" explain g.c:4 --set n=1000 --host xeon-8480 k.db >ex.txt 2>err.txt \
    || bad "explain: $(cat err.txt)"
grep -qx '  llvm-mca figures       sapphirerapids (the host'"'"'s CPU)' ex.txt && ok \
    || bad "the fifth target is not used: $(grep llvm-mca ex.txt)"
got=$(sed -n 's/^  cycles per iteration *\([0-9.]*\) .*/\1/p' ex.txt)
# %.3f in show, %.6g in explain: compare as numbers, exactly at show's precision
[ -n "$got" ] && [ "$(printf '%.3f' "$got")" = "$want" ] && ok \
    || bad "cycles per iteration $got, want sapphirerapids' $want"
finish
