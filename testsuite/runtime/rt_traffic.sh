#!/bin/sh
# rt_traffic.sh BINDIR SRCDIR -- the memory-traffic model, the GPU latency
# chain and time-stepped regions (issue 10.4) through keelcc + `keel
# explain`, with machine profiles written as text (machines as data), each
# figure against a hand computation; `keel devices --add/--export` and
# KEEL_HOST.
BIN=$1 SRC=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
. "$(dirname "$0")/../lib.sh"
field() { sed -n "s/^  $1 *\([0-9.e+]*\) .*/\1/p" out.txt; }

cp "$SRC/traffic.c" t.c
"$BIN/keelcc" --keel-db="$work/t.db" -fopenmp -c t.c -o t.o || bad "keelcc"
# a 1-core host with 4 KiB of cache and 64-byte lines; the same with 1 MiB
printf 'name = tiny\nkind = cpu\nclock = 1 GHz\ncores = 1\nmem_bw = 1 GB/s\nline = 64 B\nl2 = 4 KiB\nl3 = 0 B\nmem_latency = 100 ns\nmlp = 10\n' >tiny.machine
sed 's/^name = tiny/name = big/; s/^l2 = 4 KiB/l2 = 1 MiB/' tiny.machine >big.machine
# a GPU without L2
printf 'name = nol2\nkind = gpu\nsms = 10\nclock = 1 GHz\nmem_bw = 100 GB/s\nbus_bw = 10 GB/s\nmax_warps_sm = 64\nmax_threads_sm = 2048\nmax_blocks_sm = 32\nmem_latency = 500 cycles\nl2 = 0 B\n' >nol2.machine
unset KEEL_HOST KEEL_DEVICE OMP_NUM_THREADS

# colsum (t.c:5), n = 1000, one thread: s[i] += A[j][i].
# tiny: one iteration of j touches 3 lines (192 B, fits 4 KiB); one of i
# touches s[i] twice (64 B each) and a column of A: 1000 lines = 64000 B
# (does not fit).  s: 64 B per i -> 1000 x 64 = 64000 B, read and write;
# A: 64000 B per i -> 64e6 B.  Total 64128000 B (the CPU side takes the
# capacity as a step: nothing of a working set over the cache is reused).
"$BIN/keel" explain t.c:5 --host ./tiny.machine --device ./nol2.machine --threads 1 \
    --set n=1000 t.db >out.txt 2>err.txt || bad "explain tiny: $(cat err.txt)"
expect_eq "$(field 'CPU DRAM traffic')" 64128000 "column walk, 4 KiB cache"
# the accumulator s[i] does not move with j: its load is kept in a
# register (one per work item), but its store stays in the j loop, as A
# and s may alias (neither is restrict): 1000 per item; A[j][i] 1000
expect_eq "$(grep -c 'R s\[i\] .* x 1 per work item' out.txt)" 1 "register accumulator"
expect_eq "$(grep -c 'W s\[i\] .* x 1000 per work item' out.txt)" 1 "accumulator store per round"
expect_eq "$(grep -c 'A\[j\]\[i\] .* x 1000 per work item' out.txt)" 1 "column loads per item"
# GPU without L2: 1000 items = 32 warps; s[i] coalesced 8-byte: 256 B per
# warp request: the load once per item 32 x 256 = 8192 B, the store (read
# first: no write-allocate) 32 x 1000 x 256 = 8192000 B; A[j][i] coalesced
# across i: 32 x 1000 x 256 = 8192000 B: 16392192 B (> the 8016000 B
# footprint).  Latency chain: 1 round at i (s) + 1000 at j = 1001.
expect_eq "$(field 'GPU DRAM traffic')" 16392192 "GPU sectors, no L2"
expect_eq "$(field 'GPU latency chain')" 1001 "GPU latency chain"
expect_eq "$(sed -n 's/^machines *//p' out.txt)" "host tiny, device nol2" "machines line"
# big: one iteration of i (64128 B) fits 1 MiB: each access moves its
# footprint once: s 1000 x 8 = 8000 B (x2), A 1e6 x 8 = 8e6 B: 8016000 B;
# h100's 50 MiB L2 holds the whole footprint: the same on the GPU
"$BIN/keel" explain t.c:5 --host ./big.machine --device h100 --threads 1 \
    --set n=1000 t.db >out.txt 2>err.txt || bad "explain big: $(cat err.txt)"
expect_eq "$(field 'CPU DRAM traffic')" 8016000 "column walk, 1 MiB cache"
expect_eq "$(field 'GPU DRAM traffic')" 8016000 "GPU footprint in L2"

# the TLB (Liao-Chapman's Cache_c): tiny with 4 KiB pages and 8 entries
# (32 KiB reach).  One iteration of j touches 3 pages (fits); one of i
# touches s[i]'s page and a column of A, 1000 rows of 8000 B: a page each,
# 4096000 B of pages (does not fit).  s[i] (read and written: one count):
# one page per i, 1000 misses; A: 1000 per i, 1e6: 1001000 misses if
# nothing were reused across i.  The reach holds h = 32768 / 4104192 of
# one i iteration's pages (s read, s written, A's column), so the misses
# are s: 4096000 - h x (4096000 - 8000) bytes of pages, A: 4.096e9 - h x
# (4.096e9 - 8e6), over 4096: 993023.59 misses; one thread's chunk is all
# 1000 iterations: Tlb_c = 993023.59 x 14 = 13902330 cycles.  With 64 KiB pages and 1024 entries everything fits: the pages
# of A once (8e6 B / 65536 = 122.07) and of s (8000 B: 0.122): 122.192
sed 's/^name = tiny/name = tlb/' tiny.machine >tlb.machine
printf 'page = 4 KiB\ntlb_entries = 8\ntlb_miss = 14 cycles\n' >>tlb.machine
"$BIN/keel" explain t.c:5 --host ./tlb.machine --device ./nol2.machine --threads 1 \
    --set n=1000 t.db >out.txt 2>err.txt || bad "explain tlb: $(cat err.txt)"
expect_eq "$(field 'TLB misses')" 993024 "TLB misses, column walk"
expect_eq "$(field 'Tlb_c')" 1.39023e+07 "Tlb_c"
sed 's/^page = 4 KiB/page = 64 KiB/; s/^tlb_entries = 8/tlb_entries = 1024/' tlb.machine >tlb64.machine
"$BIN/keel" explain t.c:5 --host ./tlb64.machine --device ./nol2.machine --threads 1 \
    --set n=1000 t.db >out.txt 2>err.txt || bad "explain tlb64: $(cat err.txt)"
expect_eq "$(field 'TLB misses')" 122.192 "TLB misses within the reach"

# matvec (t.c:25), n = 1000, on "duo" (2 cores, 4 KiB cache each) with 2
# threads: y[i] += A[i][j] * x[j].  One i iteration's working set: y read
# and written (64 B each), a row of A (8000 B) and x (8000 B): 16128 B,
# over the cache.  A: its 8e6 B once.  y: 64 B per i, 64000 B, read and
# written.  x[j] is the same for every i: the two threads walk it in step
# and share its lines (constructive sharing, facts.c), so it is fetched
# once per round of 2 iterations: 500 x 8000 B = 4e6 B (not 8e6).  Total
# 8e6 + 4e6 + 2 x 64000 = 12128000 B.
printf 'name = duo\nkind = cpu\nclock = 1 GHz\ncores = 2\nmem_bw = 1 GB/s\nline = 64 B\nl2 = 4 KiB\nl3 = 0 B\nmem_latency = 100 ns\nmlp = 10\n' >duo.machine
"$BIN/keel" explain t.c:25 --host ./duo.machine --device ./nol2.machine --threads 2 \
    --set n=1000 t.db >out.txt 2>err.txt || bad "explain duo: $(cat err.txt)"
expect_eq "$(field 'CPU DRAM traffic')" 12128000 "shared x, 2 threads"
# 8 threads on the 2 cores: x is fetched once per round of 8: 125 x 8000
# B = 1e6 B; y and A as above: 9128000 B
"$BIN/keel" explain t.c:25 --host ./duo.machine --device ./nol2.machine --threads 8 \
    --set n=1000 t.db >out.txt 2>err.txt || bad "explain duo 8: $(cat err.txt)"
expect_eq "$(field 'CPU DRAM traffic')" 9128000 "shared x, 8 threads on 2 cores"

# planes (t.c:33): b[c], c = x + y*nx + z*nx*ny, split into the digits
# [z*ny + y][x] in radix nx (x < nx), so rows of distinct y are apart and
# y is parallel with x; z stays unknown (its digit z*ny + y is not split
# again): a region of nz steps, one kernel of nx*ny items per step.  nol2,
# n = 100: per launch 313 warps (10000 items); a read 313 x 128 B, b
# written without a read first (write-allocate: x 2) 2 x 313 x 128 B:
# 120192 B per step, at 100 GB/s 1.2 us, the bound (one dependent round
# of 500 cycles is 0.5 us): 100 steps 120.2 us; 10 compute warp
# instructions per item.
"$BIN/keel" explain t.c:33 --host ./tiny.machine --device ./nol2.machine \
    --set nx=100,ny=100,nz=100 t.db >out.txt 2>err.txt || bad "explain planes: $(cat err.txt)"
grep -q '^  region  *100 steps x 1 kernels, data resident (transfers once)$' out.txt \
    && ok || bad "planes launches: $(grep region out.txt)"
expect_eq "$(field 'GPU DRAM traffic')" 120192 "planes GPU traffic, one launch per step"
expect_eq "$(field 'GPU latency chain')" 1 "planes latency chain"
grep -q '^  compute insts / item  *10$' out.txt && ok ||
    bad "planes instructions per item: $(grep 'compute insts' out.txt)"
grep -q '^  GPU time  *120.2 us$' out.txt && ok || bad "planes GPU time: $(grep 'GPU time' out.txt)"
# the h100 pays a launch per z: 100 x 11.1 us = 1.1 ms
"$BIN/keel" explain t.c:33 --host ./tiny.machine --device h100 \
    --set nx=100,ny=100,nz=100 t.db >out.txt 2>err.txt || bad "explain planes h100: $(cat err.txt)"
grep -q '^  launch overhead  *1.1 ms$' out.txt && ok ||
    bad "planes launch overhead: $(grep 'launch overhead' out.txt)"

# jacobi (t.c:12): a time loop around two parallel sweeps is one region:
# 100 steps x 2 kernels; the transfer moves A and B once, in and out:
# 4 x 8 x (n - 2) = 32000000 B for n = 1000002; launches 100 x 2 x 10 us
"$BIN/keel" explain t.c:12 --host power9 --device v100 --set n=1000002,tsteps=100 t.db \
    >out.txt 2>err.txt || bad "explain jacobi: $(cat err.txt)"
grep -q '^  region  *100 steps x 2 kernels, data resident (transfers once)$' out.txt \
    && ok || bad "region line: $(grep region out.txt)"
expect_eq "$(field d)" 32000000 "region transfer once"
grep -q '^  launch overhead  *2.0 ms$' out.txt && ok || bad "launches per step: $(grep 'launch overhead' out.txt)"
grep -q '^verdict .*-> GPU$' out.txt && ok || bad "jacobi verdict: $(grep '^verdict' out.txt)"
grep -q '^decided by  model' out.txt && ok || bad "decided-by line"

# machines as data: export, add (to KEEL_MACHINES), list, use by name
export KEEL_MACHINES="$work/machines"
"$BIN/keel" devices --export power9 >p9.machine || bad "export"
grep -q '^mca_cpu = pwr9$' p9.machine && ok || bad "export mca_cpu"
sed 's/^name = power9/name = my-p9/; s/^cores = 40/cores = 20/' p9.machine >my.machine
expect_eq "$("$BIN/keel" devices --add my.machine)" \
    "added my-p9 (cpu) as $work/machines/my-p9.machine" "devices --add"
"$BIN/keel" devices >list.txt 2>&1 || bad "devices"
grep -q '^my-p9 .*20 cores x 4 = 80 threads' list.txt && ok || bad "user profile listed"
KEEL_HOST=my-p9 "$BIN/keel" explain t.c:5 --set n=1000 t.db >out.txt 2>err.txt \
    || bad "KEEL_HOST: $(cat err.txt)"
grep -q '^host        my-p9 ' out.txt && ok || bad "KEEL_HOST host line: $(grep '^host' out.txt)"
grep -q '^  threads  *80$' out.txt && ok || bad "KEEL_HOST threads: $(grep '^  threads' out.txt)"
printf 'name = broken\nkind = cpu\nclock = soon\n' >broken.machine
"$BIN/keel" devices --add broken.machine >/dev/null 2>err.txt && bad "bad profile added"
expect_eq "$(cat err.txt)" "keel: broken.machine:3: bad value 'soon' for clock" "bad profile message"

# history (StarPU): 10 measurements per device at n=1000 make the size
# trusted; their means decide over the model (which says GPU for h100)
"$BIN/keel" explain t.c:5 --device h100 --set n=1000 t.db >out.txt 2>&1
grep -q '^verdict .*-> GPU$' out.txt && ok || bad "model verdict before history: $(grep '^verdict' out.txt)"
i=0
while [ $i -lt 10 ]; do
    echo "t.c:5 n=1000 cpu 0.002"; echo "t.c:5 n=1000 gpu 0.004   # measured with transfers"
    i=$((i + 1))
done >m.txt
expect_eq "$("$BIN/keel" history --add m.txt t.db)" "added 20 measurements" "history --add"
expect_eq "$("$BIN/keel" history t.db | awk 'NR > 1 {print $2, $3, $4, $5, $9}' | tr '\n' ';')" \
    "n=1000 cpu 10 2.0 yes;n=1000 gpu 10 4.0 yes;" "history listing"
"$BIN/keel" explain t.c:5 --device h100 --set n=1000 t.db >out.txt 2>&1
grep -q '^decided by  history (measured)$' out.txt && ok || bad "decided by history: $(grep '^decided' out.txt)"
grep -q '^verdict     cpu 2.0 ms | gpu 4.0 ms + xfer 0.0 us -> CPU$' out.txt \
    && ok || bad "history verdict: $(grep '^verdict' out.txt)"
# 9 samples only at another size: not trusted, no regression (one size): the model
"$BIN/keel" explain t.c:5 --device h100 --set n=2000 t.db >out.txt 2>&1
grep -q '^decided by  model' out.txt && ok || bad "untrusted size: $(grep '^decided' out.txt)"
# two sizes measured on each device carry the models' times to a third
# (history.h, t = t1 (m / m1)^g per device): measured a quarter of the
# models' CPU time and twice their GPU time (with its transfer) at n = 2000
# and 4000, so g = 1 on both and at 3000 history says the CPU takes m/4
# and the GPU 2 m: the CPU, where the models say GPU.  (n = 1000, measured
# above, is not among the nearest two.)
secs() { sed -n 's/^seconds  *cpu \([^ ]*\) gpu \([^ ]*\) xfer \([^ ]*\) .*/\1 \2 \3/p' "$1"; }
for n in 2000 3000 4000; do
    "$BIN/keel" explain t.c:5 --device h100 --set n=$n t.db >x$n.txt 2>&1
done
expect_eq "$(sed -n 's/^decided by  \([a-z]*\).*/\1/p' x3000.txt)" model "3000 before: the models"
grep -q '^verdict .*-> GPU$' x3000.txt && ok || bad "3000 before: $(grep '^verdict' x3000.txt)"
for n in 2000 4000; do
    secs x$n.txt | awk -v n=$n '{ printf "t.c:5 n=%s cpu %.17g\nt.c:5 n=%s gpu %.17g\n", n, $1 / 4, n, 2 * ($2 + $3) }'
done >two.txt
expect_eq "$("$BIN/keel" history --add two.txt t.db)" "added 4 measurements" "history --add two sizes"
"$BIN/keel" explain t.c:5 --device h100 --set n=3000 t.db >out.txt 2>&1
grep -q '^decided by  history (regression)$' out.txt && ok || bad "3000: $(grep '^decided' out.txt)"
grep -q "^history     key n=3000: cpu .* (0 samples, 3 sizes) | gpu .* (0 samples, 3 sizes) (regression: the models' times carried through the 2 nearest measured sizes per device)$" out.txt \
    && ok || bad "3000 history line: $(grep '^history' out.txt)"
grep -q '^            model said GPU$' out.txt && ok || bad "3000 model said: $(grep 'model said' out.txt)"
grep -q '^verdict .*-> CPU$' out.txt && ok || bad "3000 verdict: $(grep '^verdict' out.txt)"
expect_eq "$({ secs x3000.txt; secs out.txt; } | tr '\n' ' ' |
             awk '{ c = $1 / 4; g = 2 * ($2 + $3);
                    print ($4 - c < 1e-6 * c && c - $4 < 1e-6 * c && $5 - g < 1e-6 * g && g - $5 < 1e-6 * g) ? "ok" : $4 " " $5 " want " c " " g }')" \
    ok "3000: the models' times carried (m/4, 2 m)"
"$BIN/keel" explain t.c:5 --device h100 --set n=3000 --json t.db >out.json 2>&1
grep -q '"regression": *"models'"'"' times through 2 sizes"' out.json && ok || bad "3000 json: $(grep regression out.json)"

echo "t.c:5 n=1000 tpu 1" >bad.txt
"$BIN/keel" history --add bad.txt t.db >/dev/null 2>err.txt && bad "bad device accepted"
expect_eq "$(cat err.txt)" "keel: bad.txt:1: device 'tpu' is neither cpu nor gpu" "bad device message"

# Hong-Kim's memory warp parallelism in the latency bound: rowsum
# (t.c:44), n = 10240 items (80 blocks of 128 on 10 SMs: 8 blocks, N = 32
# warps per SM, 1 wave), m = 1000, on a GPU with departure delays 4 / 10
# cycles, L1 40, DRAM 500.  A[i][k]: stride m across threads, 32
# transactions; along k the thread reads the rest of its 32-byte sector:
# a quarter of the rounds go to DRAM, at Mem_L_Uncoal = 500 + 31 x 10 =
# 810 cycles, the others hit L1 (40): 0.25 x 810 + 0.75 x 40 = 232.5 per
# round, 1000 rounds; s[i] (coalesced store) one round of 500:
# 233000 cycles.  Departures: 1000 x 0.25 x 32 x 10 + 4 = 80004 cycles.
# MWP_Without_BW = 233000 / 80004 = 2.912 < N: latency = 32 x 80004
# cycles = 2.56 ms at 1 GHz (the bandwidth bound is 820.8 us).
printf 'name = dep\nkind = gpu\nsms = 10\nclock = 1 GHz\nmem_bw = 100 GB/s\nbus_bw = 10 GB/s\nmax_warps_sm = 64\nmax_threads_sm = 2048\nmax_blocks_sm = 32\nmem_latency = 500 cycles\nl1_latency = 40 cycles\ndeparture_coal = 4 cycles\ndeparture_uncoal = 10 cycles\nl2 = 0 B\n' >dep.machine
"$BIN/keel" explain t.c:44 --host ./tiny.machine --device ./dep.machine \
    --set n=10240,m=1000 t.db >out.txt 2>err.txt || bad "explain rowsum: $(cat err.txt)"
expect_eq "$(sed -n 's/^  GPU latency chain .*rounds per work item, \([0-9]*\) cycles.*/\1/p' out.txt)" 233000 \
    "rowsum chain latency (Mem_L_Uncoal)"
expect_eq "$(field 'chain departures')" 80004 "rowsum departures"
expect_eq "$(sed -n 's/^  MWP_Without_BW *\([0-9.]*\), MWP_peak_BW.*, MWP \([0-9.]*\)$/\1 \2/p' out.txt)" \
    "2.912 2.912" "rowsum MWP_Without_BW, MWP"
grep -q '^  latency bound  *2.6 ms (1 waves x 233000 cycles of 1001 rounds x N/MWP 10.99; 320 warps)$' out.txt \
    && ok || bad "rowsum latency bound: $(grep 'latency bound' out.txt)"
grep -q '^  bound by  *latency$' out.txt && ok || bad "rowsum bound: $(grep 'bound by' out.txt)"

# A kernel ends with its slowest warp: tri (t.c:55), n = 1024 on dep: 8
# blocks on 8 SMs, N = 4, one wave.  A[j][i] coalesced, a new line every
# j (DRAM, 500 cycles); the j trip n - i is 513 at the middle i = 511:
# 513 rounds + s[i]'s store = 514 rounds, 257000 cycles; the longest item
# (i = 0) has 1024 + 1 rounds: 512500 cycles.  Departures 513 x 4 + 4 =
# 2056: MWP_Without_BW 125 > N: latency 512500 cycles = 512.5 us.
"$BIN/keel" explain t.c:55 --host ./tiny.machine --device ./dep.machine \
    --set n=1024 t.db >out.txt 2>err.txt || bad "explain tri: $(cat err.txt)"
grep -q '^  latency bound  *512.5 us (1 waves x 257000 cycles of 514 rounds, longest item 512500 cycles x N/MWP 1; 32 warps)$' out.txt \
    && ok || bad "tri latency bound: $(grep 'latency bound' out.txt)"
expect_eq "$(field 'chain departures')" 2056 "tri departures"

# The heaviest chunk of a static schedule (Liao-Chapman's Loop_chunk_c is
# the slowest thread's): tri (t.c:55), n = 1000, on duo (no loop overhead)
# with 2 threads: chunks of 500; iteration i runs n - i inner iterations.
# With b the inner iteration's cycles and b0 the parallel loop's own, the
# model's cycles per iteration (the middle i = 499: 501 inner) are
# b0 + 501 b, at n = 2000 (i = 999: 1001 inner) b0 + 1001 b, which gives
# b and b0.  The first chunk is the heaviest: sum over i = 0..499 of
# b0 + (1000 - i) b = 500 b0 + (500 x 1000 - 499 x 500 / 2) b
# = 500 b0 + 375250 b; on one thread the chunk is all 1000 iterations at
# the average, 1000 x (b0 + 501 b).
sed 's/^mlp = 10$/mlp = 10\nloop_overhead = 0 cycles/' duo.machine >duo0.machine
jnum() { python3 -c "import json,sys; d=json.load(open('$1')); print(repr(d['$2']['$3']))"; }
"$BIN/keel" explain t.c:55 --host ./duo0.machine --threads 2 --set n=1000 --json t.db >c1.json \
    2>err.txt || bad "explain tri 1000: $(cat err.txt)"
"$BIN/keel" explain t.c:55 --host ./duo0.machine --threads 2 --set n=2000 --json t.db >c2.json \
    2>err.txt || bad "explain tri 2000: $(cat err.txt)"
"$BIN/keel" explain t.c:55 --host ./duo0.machine --threads 1 --set n=1000 --json t.db >c0.json \
    2>err.txt || bad "explain tri 1 thread: $(cat err.txt)"
c1=$(jnum c1.json launch cycles_per_iteration) c2=$(jnum c2.json launch cycles_per_iteration)
got=$(jnum c1.json cpu loop_chunk_c) one=$(jnum c0.json cpu loop_chunk_c)
expect_eq "$(python3 -c "b=($c2-$c1)/500; b0=$c1-501*b; w=500*b0+375250*b; print(abs($got-w) <= 1e-9*w, w > 1.49*500*$c1)")" \
    "True True" "heaviest chunk of tri, 2 threads (Loop_chunk_c $got)"
expect_eq "$(python3 -c "print(abs($one-1000*$c1) <= 1e-9*$one)")" True "tri on one thread: the average"

# The cache levels (the cache-level term's lines): colsum on a host with
# a 4 KiB L1, 16 KiB L2 and 1 MiB L3, one core, n = 1000.  Only A[j][i]
# counts: a column walk (8000 B between rows along j); s[i] moves with i
# at unit stride.  Working set of one i iteration, each element once (the
# write of s[i] is its read's element): s[i] 64 B + A's column, 1000 lines
# = 64064 B.  Along j every line is new: 1000 x 64 = 64000 B at both
# levels.  Along i: repeated 1000 x 64000 = 6.4e7 B, footprint 1e6
# elements x 8 B = 8e6 B; the working set is over both caches, which keep
# the share C / W of it: L1 h1 = 4096 / 64064, L2 h2 = 16384 / 64064;
# lines into L1 T1 = h1 x 8e6 + (1 - h1) x 6.4e7, into L2 T2 = h2 x 8e6 +
# (1 - h2) x 6.4e7.  The thread's cache (16 KiB + 1 MiB) holds the
# 64128-B working set, so DRAM moves the footprint, 8e6 B (as above).
# From L2: T1 - T2 = 5.6e7 x 12288 / 64064 = 1.07413e7 B; from L3:
# T2 - 8e6 = 5.6e7 x 47680 / 64064 = 4.16783e7 B.  No l1: no such line.
printf 'name = lv\nkind = cpu\nclock = 1 GHz\ncores = 1\nmem_bw = 1 GB/s\nline = 64 B\nl1 = 4 KiB\nl2 = 16 KiB\nl3 = 1 MiB\nmem_latency = 100 ns\nmlp = 10\n' >lv.machine
"$BIN/keel" explain t.c:5 --host ./lv.machine --threads 1 --set n=1000 t.db >out.txt \
    2>err.txt || bad "explain levels: $(cat err.txt)"
expect_eq "$(sed -n 's/^  CPU cache hits *\([0-9.e+]*\) B from L2, \([0-9.e+]*\) B from L3 .*/\1 \2/p' out.txt)" \
    "1.07413e+07 4.16783e+07" "lines from L2 and L3, column walk"
expect_eq "$(field 'CPU DRAM traffic')" 8016000 "column walk, DRAM with the L3"
"$BIN/keel" explain t.c:5 --host ./tiny.machine --threads 1 --set n=1000 t.db >out.txt \
    2>err.txt || bad "explain tiny again: $(cat err.txt)"
expect_eq "$(grep -c 'CPU cache hits' out.txt)" 0 "no l1, no cache-level lines"

# A diagonal's footprint (diag, t.c:66, n = 1000): A[j][j] moves only
# with j, so it touches at most trip_j = 1000 elements, not the 1000 x 1000
# of its bounding box.  Host with a 256 KiB cache, one core.  One i
# iteration's working set: s[i] read and write (a line each), A's
# diagonal over j (1000 lines, 64000 B) and B's column (64000 B):
# 128128 B, fits.  s: its 1000 elements once, read and written: 2 x 8000;
# A: its 1000 lines once, 64000; B: its 1e6 elements once, 8e6 B.  Total
# 8080000 B.  (Counting the box, 6.4e7 B, the working set would not fit
# and B's column would come again for every i: 128128000 B.)  The transfer
# keeps the bounding box: 8e6 B of A + 8e6 of B + 8000 of s.
printf 'name = mid\nkind = cpu\nclock = 1 GHz\ncores = 1\nmem_bw = 1 GB/s\nline = 64 B\nl2 = 256 KiB\nl3 = 0 B\nmem_latency = 100 ns\nmlp = 10\n' >mid.machine
"$BIN/keel" explain t.c:66 --host ./mid.machine --threads 1 --set n=1000 t.db >out.txt \
    2>err.txt || bad "explain diag: $(cat err.txt)"
expect_eq "$(field 'CPU DRAM traffic')" 8080000 "diagonal: at most the trips that move it"
expect_eq "$(sed -n 's/^  bytes in \/ out *\([0-9]*\) \/ \([0-9]*\) .*/\1 \2/p' out.txt)" "16008000 8000" \
    "diagonal: the transfer's bounding box"

# The cache levels on many threads (mmcol, t.c:74, n = 32): L1 and L2 are
# a core's own, so B[k][j] -- invariant in the parallel i, a column walk
# along k (256 B between rows) -- comes into every thread's L1 for every
# i it runs: the lines do not depend on the threads.  A host of 4 cores,
# 4 KiB L1, 16 KiB L2.  Along k: 32 lines, 2048 B.  One j iteration (B's
# column, 32 lines, + C[i][j]'s line, 2112 B) fits L1: along j B's
# footprint, 32 x 32 x 8 = 8192 B.  One i iteration (B, 8192 B, + C's row,
# 256 B: W = 8448 B) is over the L1, which keeps 4096 / W of it; it fits
# the L2.  Into L1: 4096/8448 x 8192 + 4352/8448 x (32 x 8192); into L2:
# 8192 B.  From L2: 4352/8448 x (262144 - 8192) = 130824 B, from L3 0, on
# 1 thread and on 4 (counting the shared cache's round of 4 threads at
# these levels too gave 8 x 8192 for the i loop's repeats: 29541 B).
printf 'name = lv4\nkind = cpu\nclock = 1 GHz\ncores = 4\nmem_bw = 1 GB/s\nline = 64 B\nl1 = 4 KiB\nl2 = 16 KiB\nl3 = 1 MiB\nmem_latency = 100 ns\nmlp = 10\n' >lv4.machine
for thr in 1 4; do
    "$BIN/keel" explain t.c:74 --host ./lv4.machine --threads $thr --set n=32 t.db >out.txt \
        2>err.txt || bad "explain mmcol: $(cat err.txt)"
    expect_eq "$(sed -n 's/^  CPU cache hits *\([0-9.e+]*\) B from L2, \([0-9.e+]*\) B from L3 .*/\1 \2/p' out.txt)" \
        "130824 0" "lines from L2 and L3, a column every thread walks, $thr thread(s)"
done

finish rt_traffic
