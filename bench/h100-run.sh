#!/bin/bash
# h100-run.sh -- the run script of the bundle bench/h100-bundle.sh makes
# (copied there as run.sh).  On the machine to measure, from any folder:
#
#   OUT=DIR bash BUNDLE/run.sh
#
# needs only bash, python3, coreutils, tar, gzip and glibc there (nvcc and a GPU for
# step 4).  It sets LD_LIBRARY_PATH to BUNDLE/lib and writes into $OUT:
#   host.txt       lscpu, nproc, nvidia-smi -q (head), uname, glibc, load, hostname
#   calibrate.txt  `keel calibrate` into each database (a copy of BUNDLE/work's)
#   dbs.tar.gz     those calibrated databases (keel-MEDIUM/LARGE/EXTRALARGE.db)
#   smt.txt        bench/h100-smt-probe.c: which CPUs share a core (a virtual
#                  machine's CPUs may be hardware threads of fewer cores)
#   gpu-probe.txt  nvcc -arch=sm_90 bench/gpu-probe.cu, built and run (fails softly)
#   measured.txt   every CPU-truth binary run 3 times, in bench/cpu-truth.py's
#                  row format (sequential at 1 thread; omp-target at 1, nproc / 4
#                  (from 8 cores on) and nproc threads, OMP_TARGET_OFFLOAD=DISABLED),
#                  for cpu-truth.py --measured
# `keel calibrate` there measures what many threads get too (its "many threads"
# lines: the clock and a thread's rate of independent work with 1, 2, 4 ... all
# threads busy, the triad on as many): the CPU model at nproc / 4 and nproc
# threads is scored against it.
#   progress.log   what ran, with the seconds since the start
# A time guard (KEEL_BUNDLE_BUDGET seconds from the start, default 330) plans
# the runs by BUNDLE/times.txt scaled by the times seen so far: every binary
# once (MEDIUM first, then LARGE, shortest first), then every one a second
# time, then a third; a run that would end past the budget is skipped (said
# in progress.log), and measured.txt always holds what was measured.
# KEEL_BUNDLE_QUICK=1: two programs, one run each (a test of the bundle).
set -u
B=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${OUT:?OUT must name the folder for the results}"
mkdir -p "$OUT"
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$PATH:/usr/local/cuda/bin"
unset KEEL_HOST KEEL_DEVICE KEEL_DB OMP_NUM_THREADS
T0=$(date +%s)
say() { echo "[$(( $(date +%s) - T0 )) s] $*" | tee -a "$OUT/progress.log"; }

say "1/4 host"
{
    echo "== hostname"; hostname
    echo "== date"; date -u
    echo "== uname -a"; uname -a
    echo "== nproc"; nproc
    echo "== glibc"; ldd --version 2>&1 | head -1; getconf GNU_LIBC_VERSION 2>&1
    echo "== loadavg"; cat /proc/loadavg
    echo "== lscpu"; lscpu 2>&1
    echo "== transparent huge pages"; cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1
    echo "== nvidia-smi -q"; nvidia-smi -q 2>&1 | head -60
    echo "== nvcc"; nvcc --version 2>&1 | tail -2
    echo "== keel libraries"; ldd "$B/bin/keel" 2>&1
} > "$OUT/host.txt" 2>&1

say "2/4 keel calibrate"
W=$(mktemp -d "${TMPDIR:-/tmp}/keel-bundle-XXXXXX")
cp "$B"/work/*.db "$W/"
: > "$OUT/calibrate.txt"
for db in "$W"/keel-*.db; do
    echo "== $(basename "$db")" >> "$OUT/calibrate.txt"
    "$B/bin/keel" calibrate "$db" >> "$OUT/calibrate.txt" 2>&1 ||
        echo "keel calibrate failed: exit $?" >> "$OUT/calibrate.txt"
    say "calibrated $(basename "$db")"
done
(cd "$W" && tar czf "$OUT/dbs.tar.gz" keel-*.db)

if [ -x "$B/bin/smt-probe" ]; then
    timeout 60 "$B/bin/smt-probe" > "$OUT/smt.txt" 2>&1 || echo "smt-probe: exit $?" >> "$OUT/smt.txt"
    say "smt-probe, the lowest: $(grep "^cpu" "$OUT/smt.txt" | sort -k6 -n | head -1)"
fi

say "3/4 gpu-probe"
{
    if command -v nvcc >/dev/null 2>&1; then
        if nvcc -O2 -arch=sm_90 -o "$W/gpu-probe" "$B/gpu-probe.cu" 2>&1; then
            timeout 120 "$W/gpu-probe" 2>&1 || echo "gpu-probe: exit $?"
        else
            echo "gpu-probe: nvcc failed"
        fi
    else
        echo "gpu-probe: no nvcc on PATH"
    fi
} > "$OUT/gpu-probe.txt" 2>&1
say "gpu-probe: $(tail -1 "$OUT/gpu-probe.txt")"

say "4/4 CPU truth"
B="$B" W="$W" T0="$T0" python3 -u - <<'PY' 2>&1 | tee -a "$OUT/progress.log"
import os, re, subprocess, sys, time
B, OUT = os.environ["B"], os.environ["OUT"]
T0 = float(os.environ["T0"])
budget = float(os.environ.get("KEEL_BUNDLE_BUDGET", "330"))
quick = os.environ.get("KEEL_BUNDLE_QUICK", "") not in ("", "0")
nproc = os.cpu_count() or 1
est = {}
with open(os.path.join(B, "times.txt")) as f:
    for line in f:
        w = line.split()
        if len(w) == 2:
            est[w[0]] = float(w[1])
items = []      # (binary, name, dataset, threads, estimated seconds a run)
for ds in ("MEDIUM", "LARGE"):
    group = []
    for exe in sorted(est):
        if not exe.endswith("-" + ds):
            continue
        name = exe[:-len(ds) - 1]
        thrs = [1] + ([nproc // 4] if nproc >= 8 else []) + ([nproc] if nproc > 1 else [])
        for thr in (thrs if name.endswith("-omp") else [1]):
            # all threads: no faster than the one-thread run / threads, and a floor
            e = est[exe] if thr == 1 else est[exe] / thr + 0.05
            group.append((exe, name, ds, thr, e))
    items += sorted(group, key=lambda x: x[4])
if quick:
    pick = [x for x in items if x[1] in ("gemm", "atax-omp")]
    items, runs_wanted = pick, 1
else:
    runs_wanted = 3

def median(xs):
    xs = sorted(xs)
    return (xs[len(xs) // 2] + xs[(len(xs) - 1) // 2]) / 2.0

def now():
    return time.time() - T0

before = open("/proc/loadavg").read().strip()

def write():
    """measured.txt anew (a rename: whatever is there is whole)."""
    tmp = os.path.join(OUT, ".measured.tmp")
    with open(tmp, "w") as out:
        out.write("# bench/h100-run.sh on %s, %d cores: kernel times, rows as bench/cpu-truth.py "
                  "prints them (predicted: not made here)\n" % (os.uname().nodename, nproc))
        out.write("load average before: %s\n" % before)
        for exe, name, ds, thr, e in items:
            walls, cpus = got.get((exe, thr), ([], []))
            if not walls:
                continue
            times = cpus if thr == 1 else walls     # cpu-truth.py's --clock auto
            out.write("%-16s %-7s thr %-2d nests 0  predicted nan s  measured wall %10.6g s cpu "
                      "%10.6g s (median of %d, min %.6g)  ratio nan (%s)  -\n" % (
                          name, ds, thr, median(walls), median(cpus), len(times), min(times),
                          "cpu" if thr == 1 else "wall"))
        out.write("load average after: %s\n" % open("/proc/loadavg").read().strip())
    os.replace(tmp, os.path.join(OUT, "measured.txt"))

# every binary once (MEDIUM, then LARGE, shortest first), then the second
# runs, then the third, while the time lasts
got, dead = {}, set()
scale = 1.0      # this host's seconds / the bundle's, from the one-thread runs so far
for rnd in range(runs_wanted):
    for exe, name, ds, thr, e0 in items:
        key = (exe, thr)
        if key in dead or len(got.get(key, ([], []))[0]) != rnd:
            continue
        e, left = e0 * scale, budget - now()
        if e > left:
            print("[%d s] round %d: skip %s %s thr %d: %.1f s a run, %.0f s left" % (
                now(), rnd + 1, name, ds, thr, e, left))
            continue
        env = dict(os.environ, OMP_NUM_THREADS=str(thr), OMP_TARGET_OFFLOAD="DISABLED")
        t = time.time()
        try:
            r = subprocess.run([os.path.join(B, "work", exe)], env=env, capture_output=True,
                               text=True, timeout=max(5.0, left + 30))
        except subprocess.TimeoutExpired:
            print("[%d s] %s %s thr %d: timed out" % (now(), name, ds, thr))
            dead.add(key)
            continue
        took = time.time() - t
        if thr == 1 and e0 > 0.05:
            scale = max(0.05, min(20.0, took / e0))
        mt = re.search(r"^time: ([0-9.]+) s", r.stderr, re.M)
        mc = re.search(r"^cpu: ([0-9.]+) s", r.stderr, re.M)
        if r.returncode != 0 or not (mt and mc):
            print("[%d s] %s %s thr %d: exit %d, no time printed" % (
                now(), name, ds, thr, r.returncode))
            dead.add(key)
            continue
        walls, cpus = got.setdefault(key, ([], []))
        walls.append(float(mt.group(1)))
        cpus.append(float(mc.group(1)))
        print("[%d s] run %d %s %s thr %d: wall %s s cpu %s s" % (
            now(), rnd + 1, name, ds, thr, mt.group(1), mc.group(1)))
        sys.stdout.flush()
        write()
write()
PY
rm -rf "$W"
say "done; in $OUT: $(cd "$OUT" && ls | tr '\n' ' ')"
