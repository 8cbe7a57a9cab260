#!/bin/sh
# keelcc-mca.sh BIN DIR -- the llvm-mca stage through keelcc.
#
#  1. Relations on kernels/gemm-orders.c: on skylake the vectorised ikj inner
#     loop (line 12) costs fewer cycles per source iteration than the scalar
#     ijk one (line 5); pwr9 and neoverse-v1 give figures for both; the host
#     target fills loops.cycles_per_iter; keel show / keel loops print them;
#     pwr8, whose model lacks an instruction of the blocks, gives all six.
#  2. Cache: a rebuild of unchanged code runs llvm-mca zero times (a counting
#     wrapper as KEEL_LLVM_MCA) and records the same figures; `llvm-mca
#     --version` runs once, its text kept under $TMPDIR.
#  3. Failures are reasons plus one warning line, never a failed build or a
#     changed output: llvm-mca missing, llvm-mca rejecting the input, a CPU
#     llvm-mca does not know, a target without backend; -MD -MF untouched.
set -u
BIN=$1
DIR=$2
SRC=$DIR/kernels/gemm-orders.c
work=$(mktemp -d /tmp/keel-mca-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
cp "$SRC" g.c
. "$(dirname "$0")/../lib.sh"
q() { sqlite3 "$1" "$2"; }

# ---- 1. relations -----------------------------------------------------------
"$BIN/keelcc" --keel-db=k.db --keel-mcpu=skylake,pwr9,neoverse-v1 -O2 -c g.c -o g.o 2>err.txt \
    && ok || bad "keelcc failed"
[ -s err.txt ] && bad "warnings: $(cat err.txt)" || ok
cyc() {  # cyc DB TARGET LINE -> cycles per source iteration
    q "$1" "SELECT r.cycles_per_src_iter FROM mca_results r JOIN loops l ON l.id = r.loop_id
            WHERE r.target = '$2' AND l.line = $3 AND r.status = 'ok'"
}
ijk=$(cyc k.db skylake 5) ikj=$(cyc k.db skylake 12)
[ -n "$ijk" ] && [ -n "$ikj" ] && awk "BEGIN { exit !($ikj < $ijk) }" \
    && ok || bad "skylake: ikj $ikj not below ijk $ijk"
for t in pwr9 neoverse-v1; do
    for line in 5 12; do
        c=$(cyc k.db $t $line)
        [ -n "$c" ] && awk "BEGIN { exit !($c > 0) }" && ok || bad "$t line $line: no cycles ($c)"
    done
done
# the vectorised copy is the primary one on skylake: VF 2 x IC 2 source iterations
[ "$(q k.db "SELECT vector, vf, ic, src_iters_per_asm_iter, asm_copies FROM mca_results r
              JOIN loops l ON l.id = r.loop_id WHERE target = 'skylake' AND l.line = 12")" = "1|2|2|4|2" ] \
    && ok || bad "skylake line 12 copy"
# outer loops: whole iteration = inner cycles x trip + own blocks, in millicycles
w=$(q k.db "SELECT whole_iter_millicycles FROM mca_results r JOIN loops l ON l.id = r.loop_id
            WHERE target = 'skylake' AND l.line = 11")
inner=$(q k.db "SELECT CAST(round(cycles_per_src_iter * 1000) AS INTEGER) FROM mca_results r
                JOIN loops l ON l.id = r.loop_id WHERE target = 'skylake' AND l.line = 12")
case "$w" in "$inner*n + "*) ok ;; *) bad "whole iteration of line 11: '$w' (inner $inner)" ;; esac
# loops.cycles_per_iter: the first own-architecture target (skylake) per source iteration
[ "$(q k.db "SELECT round(cycles_per_iter, 6) = round($ikj, 6) FROM loops WHERE line = 12")" = 1 ] \
    && ok || bad "loops.cycles_per_iter of line 12"
[ "$(q k.db "SELECT count(*) FROM loops WHERE cycles_per_iter IS NULL AND line IN (5, 12)")" = 0 ] \
    && ok || bad "innermost loops without cycles_per_iter"
"$BIN/keel" show g.c:12 k.db >show.txt && grep -q '^  skylake .* cyc/iter  asm .LBB1_10: .* = 4 src iters, VF 2 x IC 2' show.txt \
    && grep -q '^  pwr9 ' show.txt && grep -q '^  neoverse-v1 ' show.txt && ok || { bad "keel show"; cat show.txt; }
"$BIN/keel" loops k.db >loops.txt && grep -q 'CYCLES/ITER' loops.txt && ok || bad "keel loops column"
# pwr8: its scheduling model lacks `mtctr` (the count-register setup of each
# counted inner loop, in the blocks of lines 3, 4, 10 and 11); llvm-mca skips
# that instruction (-skip-unsupported-instructions=lack-sched) instead of
# rejecting the block, so all six loops get figures and keelcc warns nothing
"$BIN/keelcc" --keel-db=p8.db --keel-mcpu=pwr8 -O2 -c g.c -o g.o 2>err8.txt && ok || bad "keelcc pwr8"
[ -s err8.txt ] && bad "pwr8 warnings: $(cat err8.txt)" || ok
[ "$(q p8.db "SELECT count(*) FROM mca_results WHERE target = 'pwr8' AND status = 'ok'
               AND cycles_per_src_iter > 0")" = 6 ] && ok || bad "pwr8: not 6 loops with figures"

# ---- 2. warm cache: zero llvm-mca runs --------------------------------------
cat >count-mca <<EOS
#!/bin/sh
case " \$* " in *" --json "*) echo run >>$work/count ;; *" --version "*) echo v >>$work/vcount ;; esac
exec llvm-mca-19 "\$@"
EOS
chmod +x count-mca
: >count
: >vcount
mkdir tmp
TMPDIR=$work/tmp KEEL_LLVM_MCA=$work/count-mca "$BIN/keelcc" --keel-db=c.db --keel-mcpu=skylake,pwr9 -O2 -c g.c -o g.o \
    && ok || bad "cold build"
cold=$(wc -l <count)
[ "$cold" -gt 0 ] && ok || bad "cold build ran llvm-mca $cold times"
q c.db "SELECT l.line, r.target, r.status, r.cycles_per_src_iter, r.whole_iter_millicycles
        FROM mca_results r JOIN loops l ON l.id = r.loop_id ORDER BY 1, 2" >cold.txt
TMPDIR=$work/tmp KEEL_LLVM_MCA=$work/count-mca "$BIN/keelcc" --keel-db=c.db --keel-mcpu=skylake,pwr9 -O2 -c g.c -o g.o \
    && ok || bad "warm build"
[ "$(wc -l <count)" = "$cold" ] && ok || bad "warm build ran llvm-mca $(( $(wc -l <count) - cold )) times"
# `llvm-mca --version` ran once: its text is kept under $TMPDIR for the next run
[ "$(wc -l <vcount)" = 1 ] && ok || bad "llvm-mca --version ran $(wc -l <vcount) times"
[ "$(ls tmp | grep -c '^keel-mcaver-')" = 1 ] && ok || bad "kept version files: $(ls tmp)"
q c.db "SELECT l.line, r.target, r.status, r.cycles_per_src_iter, r.whole_iter_millicycles
        FROM mca_results r JOIN loops l ON l.id = r.loop_id ORDER BY 1, 2" >warm.txt
cmp -s cold.txt warm.txt && [ -s warm.txt ] && ok || bad "warm results differ"

# ---- 3. failures --------------------------------------------------------------
# (objects are compared with plain clang-19's, so without instrumentation)
clang-19 -O2 -MD -MF plain.d -c g.c -o plain.o
# llvm-mca missing
KEEL_LLVM_MCA=/nonexistent "$BIN/keelcc" --keel-instrument=off --keel-db=m.db -O2 -MD -MF keel.d -c g.c -o plain2.o 2>err.txt \
    && ok || bad "missing llvm-mca: compile failed"
[ "$(cat err.txt)" = "keelcc: warning: llvm-mca '/nonexistent' cannot run (no cycles per iteration recorded)" ] \
    && ok || bad "missing llvm-mca warning: $(cat err.txt)"
cmp -s plain.o plain2.o && ok || bad "missing llvm-mca: object differs"
sed 's/plain2.o/plain.o/' keel.d | cmp -s - plain.d && ok || bad "missing llvm-mca: dependency file differs"
[ "$(q m.db "SELECT count(*), sum(status = 'error' AND reason = 'llvm-mca ''/nonexistent'' cannot run')
             FROM mca_results")" = "6|6" ] && ok || bad "missing llvm-mca: reasons"
[ "$(q m.db "SELECT count(*) FROM loops WHERE cycles_per_iter IS NOT NULL")" = 0 ] && ok || bad "missing: cycles"
# with llvm-mca: the same object and dependency file as plain clang
"$BIN/keelcc" --keel-instrument=off --keel-db=d.db -O2 -MD -MF keel.d -c g.c -o plain2.o 2>err.txt && ok || bad "-MD compile"
cmp -s plain.o plain2.o && ok || bad "object differs"
sed 's/plain2.o/plain.o/' keel.d | cmp -s - plain.d && ok || bad "dependency file differs"
# llvm-mca rejects every block
cat >reject-mca <<EOS
#!/bin/sh
case " \$* " in *" --json "*) echo "x.s:1:1: error: invalid instruction mnemonic 'frob'" >&2; exit 1 ;; esac
exec llvm-mca-19 "\$@"
EOS
chmod +x reject-mca
KEEL_LLVM_MCA=$work/reject-mca "$BIN/keelcc" --keel-instrument=off --keel-db=r.db --keel-mcpu=skylake -O2 -c g.c -o plain2.o 2>err.txt \
    && ok || bad "rejecting llvm-mca: compile failed"
[ "$(wc -l <err.txt)" = 1 ] && grep -q "^keelcc: warning: g.c: mca: 6 loop blocks without figures: llvm-mca failed: x.s:1:1: error: invalid instruction mnemonic 'frob'$" err.txt \
    && ok || bad "rejecting llvm-mca warning: $(cat err.txt)"
[ "$(q r.db "SELECT count(*) FROM mca_results WHERE status = 'error' AND reason LIKE 'llvm-mca failed: %frob%'")" = 6 ] \
    && ok || bad "rejecting llvm-mca: reasons"
cmp -s plain.o plain2.o && ok || bad "rejecting llvm-mca: object differs"
# a CPU llvm-mca does not know, a target without a backend
"$BIN/keelcc" --keel-db=u.db --keel-mcpu=nosuchcpu,foo@sparc-unknown-linux-gnu -O2 -c g.c -o plain2.o 2>err.txt \
    && ok || bad "unknown cpu: compile failed"
[ "$(wc -l <err.txt)" = 2 ] && grep -q "^keelcc: warning: llvm-mca has no backend for sparc-unknown-linux-gnu (target foo)$" err.txt \
    && grep -q "^keelcc: warning: g.c: mca: 6 loop blocks without figures: llvm-mca does not know this CPU$" err.txt \
    && ok || bad "unknown cpu warnings: $(cat err.txt)"
[ "$(q u.db "SELECT target, count(*) FROM mca_results WHERE status = 'error' GROUP BY 1 ORDER BY 1" | tr '\n' ' ')" = "foo|6 nosuchcpu|6 " ] \
    && ok || bad "unknown cpu reasons"
# --keel-mca=off: no rows
"$BIN/keelcc" --keel-instrument=off --keel-db=o.db --keel-mca=off -O2 -c g.c -o plain2.o && \
    [ "$(q o.db "SELECT count(*) FROM mca_results")" = 0 ] && ok || bad "--keel-mca=off"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
