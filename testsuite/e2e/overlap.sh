#!/bin/sh
# overlap.sh BIN SRC -- the run-time overlap check in a program built by
# keelcc.  shift_scale, smooth3 and pair_copy are parallel only if their
# pointers do not overlap; main calls each with arrays apart and with
# overlapping ones.  At n = 4000000 on the h100 profile the models choose
# the GPU; libkeelrt keeps it only where the byte ranges are apart:
# overlapping calls run on the CPU with "overlap" in the log, struct-member
# pointers (no address the call can pass) never go to the GPU, and the
# program prints what clang-19's build prints.
set -u
BIN=$1
SRC=$2
work=$(mktemp -d /tmp/keel-overlap-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
unset KEEL_FORCE OMP_TARGET_OFFLOAD KEEL_LOG
export KEEL_DB="$work/k.db" KEEL_HOST=power9
. "$(dirname "$0")/../lib.sh"

cp "$SRC/alias.c" alias.c
clang-19 -O1 alias.c -o alias.plain || exit 1
"$BIN/keelcc" --keel-mca=off -O1 alias.c -o alias.keel 2>err.txt || exit 1
expect_eq "$(cat err.txt)" "" "keelcc silent"
./alias.plain 4000000 >plain.txt
KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./alias.keel 4000000 >keel.txt 2>log.txt
expect_eq "$(cat keel.txt)" "$(cat plain.txt)" "output equals clang-19's"
expect_eq "$(wc -l <keel.txt | tr -d ' ')" 6 "output lines"
# the verdicts of the three functions, in call order
got=$(grep -E '^keel: alias\.c:(11|17|23) ' log.txt | sed -E 's/^keel: (alias\.c:[0-9]+) ([a-z_0-9]+) .*-> /\1 \2 /')
expect_eq "$got" "alias.c:11 shift_scale GPU
alias.c:11 shift_scale CPU (overlap: out (written) and in)
alias.c:17 smooth3 GPU
alias.c:17 smooth3 CPU (overlap: out (written) and in)
alias.c:23 pair_copy CPU (overlap unchecked: dst cannot be read before the loop)" "verdicts"
# the condition is in the database: out written, in read
expect_eq "$(sqlite3 k.db "SELECT o.base, a.is_write, o.offset, o.checkable FROM launch_overlap o
    JOIN loops l ON l.id = o.launch_id JOIN accesses a ON a.id = o.access_id
    WHERE l.line = 17 ORDER BY o.base, o.offset")" "in|0|i|1
in|0|i + 1|1
in|0|i - 1|1
out|1|i|1" "smooth3's condition"
# small n: CPU by the models, the check does not change that
KEEL_DEVICE=h100 ./alias.keel 100 >keel100.txt 2>/dev/null
./alias.plain 100 >plain100.txt
expect_eq "$(cat keel100.txt)" "$(cat plain100.txt)" "n=100 output"

# keel show prints the condition (text and --json), keel explain whether
# the check applies and the element ranges it will compare
expect_eq "$("$BIN/keel" show alias.c:17 k.db | sed -n '/^overlap/,/^strides/p')" \
"overlap     run-time check: the GPU only if the written ranges miss the other bases' ranges
  write out + i
  read  in + i - 1
  read  in + i
  read  in + i + 1
strides     (between adjacent threads of the thread loop; inner = innermost loop)" "keel show smooth3"
expect_eq "$("$BIN/keel" show alias.c:23 k.db | grep -E '^  (write|no check)')" \
"  write dst + i  (the call cannot pass its address)
  no check possible: never the GPU" "keel show pair_copy"
expect_eq "$("$BIN/keel" show alias.c:30 k.db | grep -c '^overlap')" 0 "keel show: no condition"
expect_eq "$("$BIN/keel" show --json alias.c:11 k.db | tr -d ' \n' | grep -o '"overlap":\[[^]]*\]')" \
    '"overlap":[{"base":"out","offset":"i","access":"write","checkable":true},{"base":"in","offset":"i","access":"read","checkable":true}]' \
    "keel show --json"
expect_eq "$("$BIN/keel" explain alias.c:17 --set n=4000000 --device h100 k.db | grep -E '^(overlap|verdict)' | sed 's/cpu .* ->/->/')" \
"verdict     -> GPU
overlap     checked at launch on the bases' addresses; out[1..3999998] written, in[0..3999999]: the GPU only if the written ranges are apart" "keel explain smooth3"
expect_eq "$("$BIN/keel" explain alias.c:23 --set n=4000000 --device h100 k.db | grep -E '^(overlap|verdict)' | sed 's/cpu .* ->/->/')" \
"verdict     -> CPU (overlap unchecked: dst cannot be read before the loop)
overlap     overlap unchecked: dst cannot be read before the loop: never the GPU" "keel explain pair_copy"
expect_eq "$("$BIN/keel" explain alias.c:30 --set n=4000000 --device h100 k.db | grep '^overlap')" \
    "overlap     none (the verdict relies on no two bases being apart)" "keel explain: no condition"
expect_eq "$("$BIN/keel" explain alias.c:23 --set n=4000000 --device h100 --json k.db | tr -d '\n' | grep -o '"check": *"[a-z ]*"')" \
    '"check":"impossible"' "keel explain --json"

# a[i] += *bias with bias = &a[10] (and with bias elsewhere)
cp "$SRC/bias.c" bias.c
clang-19 -O1 bias.c -o bias.plain || exit 1
"$BIN/keelcc" --keel-mca=off -O1 bias.c -o bias.keel 2>err.txt || exit 1
./bias.plain 4000000 >plain.txt
KEEL_DEVICE=h100 KEEL_VERBOSE=2 ./bias.keel 4000000 >keel.txt 2>log.txt
expect_eq "$(cat keel.txt)" "$(cat plain.txt)" "bias: output equals clang-19's"
expect_eq "$(grep -E '^keel: bias\.c:7 ' log.txt | sed -E 's/^keel: (bias\.c:[0-9]+) ([a-z_0-9]+) .*-> /\1 \2 /')" \
"bias.c:7 add_bias GPU
bias.c:7 add_bias CPU (overlap: a (written) and bias)" "bias: verdicts"

finish
