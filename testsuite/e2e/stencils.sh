#!/bin/sh
# stencils.sh BIN DECIDE SRC -- PolyBench's time-stepped stencils decided as
# one offload region (issue 10, items 4 and "Done when").
#
# jacobi-1d, jacobi-2d, fdtd-2d, heat-3d and adi are a sequential time loop
# around parallel sweeps.  keelcc places one decision before the time loop
# (none for the sweeps inside it); the runtime models the loop as one
# offload region: kernels and launches per step, the arrays resident on the
# device, the transfer counted once.  seidel-2d's sweeps carry dependences
# both ways (Gauss-Seidel in place): not parallel, CPU at every size.
#  1. MINI programs built with keelcc print the plain build's checksums and,
#     with KEEL_VERBOSE, one verdict per kernel, at the time loop, CPU;
#  2. at the EXTRALARGE sizes keel_decide itself (DECIDE: a driver calling
#     it with given values on the site keelcc wrote) answers GPU on the H100
#     profile beside the POWER9 host of Chikin et al. -- seidel-2d CPU;
#  3. keel explain prints the region (steps x kernels, data resident) and a
#     transfer of the footprint once, in and out (not once per step).
# --keel-mca=off and named profiles: the figures do not depend on this host.
set -u
BIN=$1
DECIDE=$2
SRC=$3
PB=$SRC/polybench-inputs
work=$(mktemp -d /tmp/keel-stencils-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export KEEL_DB="$work/k.db" KEEL_LOG=0 KEEL_HOST=power9 KEEL_DEVICE=h100
unset KEEL_VERBOSE KEEL_FORCE OMP_TARGET_OFFLOAD
. "$(dirname "$0")/../lib.sh"

# name, time loop line, MINI values, EXTRALARGE values, kernels per step,
# transfer bytes at EXTRALARGE (every array's interior footprint, in + out),
# the verdict there: jacobi-1d's 2000 launches (22.2 ms at 11.1 us) dwarf
# its kernels' work, so the GPU's predicted saving (29.3 ms against 22.9 ms)
# is less than the launch time: too small to be worth it
cat >cases.txt <<'EOF'
jacobi-1d 30 tsteps=20,n=30 tsteps=1000,n=4000 2 127936 small
jacobi-2d 34 tsteps=20,n=30 tsteps=1000,n=2800 2 250521728 GPU
fdtd-2d 44 tmax=20,ny=30,nx=20 tmax=1000,ny=2600,nx=2000 4 249502400 GPU
heat-3d 39 tsteps=20,n=10 tsteps=1000,n=200 2 248396544 GPU
adi 55 tsteps=20,n=20 tsteps=1000,n=2000 2 255488256 GPU
seidel-2d 30 tsteps=20,n=40 tsteps=1000,n=4000 0 0 CPU
EOF
while read -r name line mini xl kernels bytes want; do
    if [ "$want" = small ]; then wbit=0 wtxt='CPU (too small)'; else wbit=1 wtxt=GPU; fi
    dir=$PB/stencils/$name
    flags="-O1 -I$PB/utilities -I$dir -DMINI_DATASET"
    clang-19 $flags "$dir/$name.c" "$PB/utilities/polybench.c" -o "ref-$name" -lm \
        || bad "$name: clang-19 build"
    "$BIN/keelcc" --keel-mca=off $flags "$dir/$name.c" "$PB/utilities/polybench.c" \
        -o "kc-$name" -lm 2>err.txt || bad "$name: keelcc build"
    expect_eq "$(cat err.txt)" "" "$name: keelcc messages"
    # 1. the same checksums; one verdict, at the time loop
    "./ref-$name" >ref.out 2>&1
    KEEL_VERBOSE=2 "./kc-$name" >kc.out 2>v.txt
    expect_eq "$(cat kc.out)" "$(cat ref.out)" "$name: output"
    if [ "$kernels" -gt 0 ]; then
        expect_eq "$(grep -c "^keel: $name\.c:[0-9]* kernel_" v.txt)" 1 \
            "$name: one kernel verdict: $(cat v.txt)"
        grep -q "^keel: $name\.c:$line kernel_[a-z0-9_]* \[.*\] $mini: cpu .* -> CPU\$" v.txt && ok \
            || bad "$name: MINI verdict at the time loop: $(grep "^keel: $name" v.txt)"
    else
        # never offloadable: no call at all (issue 9: instrument what can matter)
        expect_eq "$(grep -c "^keel: $name\.c:[0-9]* kernel_" v.txt)" 0 "$name: no kernel call"
    fi
    # 2. keel_decide on this build's site at the large sizes
    abs=$(cd "$dir" && pwd)/$name.c
    hash=$(sqlite3 k.db "SELECT hash FROM translation_units WHERE path = '$abs'")
    # and the bases of its overlap condition, as instrumentation passes
    # them (decide_main gives each an address of its own, far apart)
    xl_sym="$(echo "$xl" | tr ',' ' ') $(sqlite3 k.db "SELECT DISTINCT '&' || o.base FROM launch_overlap o
        JOIN loops l ON l.id = o.launch_id JOIN translation_units t ON t.id = l.tu_id
        WHERE t.path = '$abs' AND l.line = $line AND o.checkable" | tr '\n' ' ')"
    # shellcheck disable=SC2086
    got=$(KEEL_VERBOSE=2 "$DECIDE" once "$abs#h=$hash" "$line" $xl_sym 2>d.txt)
    if [ "$kernels" -gt 0 ]; then
        expect_eq "$got" "$wbit" "$name: $wtxt at $xl: $(cat d.txt)"
        grep "^keel: $name\.c:$line kernel_[a-z0-9_]* \[.*\] $xl: cpu .* | gpu .* + xfer .* -> " d.txt \
            | grep -qF -- "-> $wtxt" \
            && ok || bad "$name: verdict line: $(cat d.txt)"
    else
        expect_eq "$got" 0 "$name: CPU at $xl"
        # the runtime's label is the loop's verdict as keel loops shows it
        grep -q "^keel: $name\.c:$line .* -> CPU (sequential)\$" d.txt && ok \
            || bad "$name: verdict line: $(cat d.txt)"
        expect_eq "$("$BIN/keel" loops --file "$name.c" k.db | grep -F "$name.c:$line " \
            | awk '{print $3}')" sequential "$name: keel loops' label"
    fi
    # 3. one region, the transfer once
    "$BIN/keel" explain "$name.c:$line" --set "$xl" --host power9 --device h100 k.db \
        >ex.txt 2>&1 || bad "$name: explain: $(head -3 ex.txt)"
    if [ "$kernels" -gt 0 ]; then
        steps=$(echo "$xl" | sed 's/^[a-z]*=\([0-9]*\),.*/\1/')
        grep -q "^  region  *$steps steps x $kernels kernels, data resident (transfers once)\$" ex.txt \
            && ok || bad "$name: region line: $(grep region ex.txt)"
        expect_eq "$(sed -n 's/^  d  *\([0-9]*\) bytes$/\1/p' ex.txt)" "$bytes" "$name: transfer bytes"
        grep '^verdict .* -> ' ex.txt | grep -qxF -- "$(grep '^verdict' ex.txt | sed 's/ -> .*//') -> $wtxt" \
            && ok || bad "$name: explain verdict: $(grep '^verdict' ex.txt)"
    else
        expect_eq "$(grep -c '^  region' ex.txt)" 0 "$name: no region"
        grep -q '^verdict .* -> CPU (sequential)$' ex.txt && ok \
            || bad "$name: explain verdict: $(grep '^verdict' ex.txt)"
    fi
done <cases.txt
echo "stencils: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -eq 53 ]
