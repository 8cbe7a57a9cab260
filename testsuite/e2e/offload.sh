#!/bin/sh
# offload.sh BIN -- the per-loop fact `offload` and what it does to the CPU
# time of an OpenMP target region.  clang compiles a `target` region of a
# command that names no offload target (-fopenmp alone) as host code that
# runs directly; only a build with an offload image goes through the
# offload runtime, whose host fallback (profile key target_fallback) a CPU
# run pays per region.  keelcc records which (loop fact offload: "image" or
# "host"; none without -fopenmp), keel show prints it, and keel explain
# charges the fallback only for "image" (--offload image|host overrides it).
set -u
BIN=$(cd "$1" && pwd) || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/keel-offload.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"

cat > t.c <<'EOF2'
void scale(int n, double *a, const double *b)
{
#pragma omp target teams distribute parallel for map(to: b[0:n]) map(from: a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = 2.0 * b[i];
}
EOF2
"$BIN/keelcc" --keel-db=host.db -O2 -fopenmp -c t.c -o host.o 2>err.txt || bad "keelcc -fopenmp: $(cat err.txt)"
# an offload build: analysed only (this machine may lack the offload toolchain)
"$BIN/keelcc" --keel-db=image.db --keel-analysis=only -O2 -fopenmp --offload-arch=sm_90 \
    -c t.c -o image.o 2>err.txt || bad "keelcc --offload-arch: $(cat err.txt)"
"$BIN/keelcc" --keel-db=plain.db -O2 -c t.c -o plain.o 2>err.txt || bad "keelcc: $(cat err.txt)"
fact() { "$BIN/keel" show t.c:4 "$1" | sed -n 's/^offload  *//p'; }
expect_eq "$(fact host.db)" "host" "-fopenmp alone"
expect_eq "$(fact image.db)" "image" "--offload-arch=sm_90"
expect_eq "$(fact plain.db)" "" "no -fopenmp: no fact"

# a host profile with a fallback of 500 us a region
"$BIN/keel" devices --export power9 | sed 's/^name = .*/name = fbtest/' > fb.machine
echo 'target_fallback = 500 us' >> fb.machine
fb() {
    db=$1; shift
    "$BIN/keel" explain t.c:4 --set n=1000 --host ./fb.machine --device h100 --threads 4 "$@" \
        "$db" | sed -n 's/^  target host fallback  *//p'
}
expect_eq "$(fb image.db)" "500.0 us" "image: one region's fallback"
expect_eq "$(fb host.db)" "0 (built with no offload image: a target region is host code)" \
    "host: none"
expect_eq "$(fb host.db --offload image)" "500.0 us" "--offload image overrides"
expect_eq "$(fb image.db --offload host)" \
    "0 (built with no offload image: a target region is host code)" "--offload host overrides"
"$BIN/keel" explain t.c:4 --offload gpu host.db >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q "^keel: --offload wants image or host, not 'gpu'$" err.txt ||
    bad "--offload gpu: $(cat err.txt)"
# the sweep follows the override too: its CPU column differs by the fallback
sw() { "$BIN/keel" explain t.c:4 --sweep 'n=1024:1024' --host ./fb.machine --device h100 \
           --threads 4 "$@" host.db | awk '$1 == 1024 { print $2, $3 }'; }
[ "$(sw)" != "$(sw --offload image)" ] || bad "sweep ignores --offload: $(sw)"

finish offload
