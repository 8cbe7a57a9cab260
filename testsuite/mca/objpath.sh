#!/bin/sh
# objpath.sh BIN SRC -- a `-c` compile whose flags already write debug line
# tables takes llvm-mca's input from the user's own object: no second
# compile to assembly (the compiler runs once), the object byte for byte
# the one keelcc makes without this (KEEL_MCA_OBJECT=off), and, with the
# source compiled as written (--keel-instrument=off), every stored llvm-mca
# field the same as the assembly compile's.  Flags without line tables
# (-g -g0), OpenMP, remapped debug paths (-ffile-prefix-map) and
# KEEL_MCA_OBJECT=off compile to assembly as before;
# no temporary remarks file is left.
BIN=$1
SRC=$2
PB=$SRC/polybench-inputs
pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d /tmp/keel-mcaobj-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/t"
export TMPDIR="$tmp/t"
printf '#!/bin/sh\necho "$*" >>%s/cc.count\nexec clang-19 "$@"\n' "$tmp" >"$tmp/cc.sh"
chmod +x "$tmp/cc.sh"
G=$PB/linear-algebra/blas/gemm
Q="SELECT l.line, l.col, r.target, r.status, r.asm_copies, r.asm_innermost, r.vector, r.vf,
          r.ic, r.unroll, r.src_iters_per_asm_iter, r.cycles_per_asm_iter,
          r.cycles_per_src_iter, r.block_rthroughput, r.ipc, r.uops_per_iter, r.top_resource,
          r.top_resource_cycles, r.whole_iter_millicycles, r.reason, l.cycles_per_iter
     FROM mca_results r JOIN loops l ON l.id = r.loop_id ORDER BY l.line, l.col, r.target"
# build NAME OBJPATH FLAGS...: keelcc on gemm.c (KEEL_MCA_OBJECT=OBJPATH)
# into NAME.o, its rows into NAME.txt, the compiler's runs and its assembly
# compiles into NAME_cc, NAME_asm
build() {
    name=$1
    shift
    rm -f "$tmp/cc.count" "$tmp"/k.db*
    KEEL_MCA_OBJECT=$1
    shift
    env KEEL_CC="$tmp/cc.sh" KEEL_MCA_OBJECT=$KEEL_MCA_OBJECT "$BIN/keelcc" --keel-db="$tmp/k.db" \
        -I"$PB/utilities" -I"$G" "$@" -c "$G/gemm.c" -o "$tmp/$name.o" 2>"$tmp/err" \
        || { bad "$name: keelcc failed"; cat "$tmp/err"; }
    [ -s "$tmp/err" ] && { bad "$name: stderr"; cat "$tmp/err"; }
    sqlite3 "$tmp/k.db" "$Q" >"$tmp/$name.txt"
    eval "${name}_cc=\$(wc -l <\"$tmp/cc.count\" | tr -d ' ')"
    eval "${name}_asm=\$(grep -c -- ' -S ' \"$tmp/cc.count\")"
}
build obj on -O2 -g
build asm off -O2 -g
[ "$obj_cc" = 1 ] && [ "$obj_asm" = 0 ] && ok || bad "-g: $obj_cc compiler runs, $obj_asm to assembly (want 1, 0)"
[ "$asm_asm" = 1 ] && ok || bad "KEEL_MCA_OBJECT=off: $asm_asm assembly compiles (want 1)"
cmp -s "$tmp/obj.o" "$tmp/asm.o" && ok || bad "the object differs from keelcc's without the object path"
n=$(grep -c '|ok|' "$tmp/obj.txt")
[ "$n" = 10 ] && ok || bad "-g: $n of gemm's 10 loops with figures"
build plainobj on -O2 -g --keel-instrument=off
build plainasm off -O2 -g --keel-instrument=off
[ "$plainobj_asm" = 0 ] && ok || bad "instrument off: $plainobj_asm assembly compiles (want 0)"
cmp -s "$tmp/plainobj.txt" "$tmp/plainasm.txt" && ok \
    || { bad "the stored figures differ from the assembly compile's"; diff "$tmp/plainobj.txt" "$tmp/plainasm.txt"; }
cmp -s "$tmp/plainobj.o" "$tmp/plainasm.o" && ok || bad "instrument off: the object differs"
build lt on -O2 -gline-tables-only
[ "$lt_asm" = 0 ] && ok || bad "-gline-tables-only: $lt_asm assembly compiles (want 0)"
build g0 on -O2 -g -g0
[ "$g0_asm" = 1 ] && ok || bad "-g -g0: $g0_asm assembly compiles (want 1)"
build omp on -O2 -g -fopenmp
[ "$omp_asm" = 1 ] && ok || bad "-g -fopenmp: $omp_asm assembly compiles (want 1)"
build fpm on -O2 -g -ffile-prefix-map="$G"=.
[ "$fpm_asm" = 1 ] && ok || bad "-g -ffile-prefix-map: $fpm_asm assembly compiles (want 1)"
left=$(ls "$tmp/t" | grep -c keel-remarks)
[ "$left" = 0 ] && ok || bad "$left remarks files left"
echo "objpath: $pass passed, $fail failed (gemm -g: $obj_cc compiler run, $obj_asm assembly compiles)"
[ "$fail" = 0 ]
