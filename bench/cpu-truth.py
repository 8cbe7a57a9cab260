#!/usr/bin/env python3
"""cpu-truth.py -- keel's CPU model of this host against measured CPU times.

For every sequential PolyBench-style input (polybench-inputs/, not
omp-target/) at each dataset (default MEDIUM and LARGE):

  1. keelcc analyses the source (-O2, llvm-mca on) into a scratch database
     per dataset, and `keel calibrate` measures this host into it;
  2. clang-19 -O2 -DPOLYBENCH_TIME builds the same source and runs it RUNS
     times (default 3): the kernel times it prints (PolyBench's timer around
     the kernel function, i.e. all of its outermost nests) -> the medians.
     The timer prints two clocks: wall (CLOCK_MONOTONIC) and the process's
     CPU time (CLOCK_PROCESS_CPUTIME_ID, user + system of all its threads).
     On a shared machine a descheduled process stretches the wall time but
     not its CPU time, so a one-thread run (sequential, or OpenMP at 1
     thread) is scored on its CPU time; a run on all threads on its wall
     time (its CPU time is the sum over threads).  --clock wall scores
     every run on wall time; --clock cpu every run on its CPU time over
     its threads (a loaded machine, where the wall time of a run on all
     threads is mostly waits for a core: OpenMP's idle threads spin at the
     region's end, so this is about the slowest thread's busy time, for
     waits shorter than the runtime's spin time, 200 ms in libomp).  Both
     clocks are printed;
  3. `keel explain FILE:LINE --host host --json` for each
     outermost nest of the kernel function, every symbol bound to the
     dataset's value from the program's header: the predicted CPU seconds,
     summed over the nests.

With --omp, the omp-target inputs too (--omp-only: those alone), built
with clang-19 -fopenmp -DPOLYBENCH_OMP_WARMUP (no device: each `target`
region runs its host fallback; the warm-up starts the OpenMP runtime
before the timer, so its once-per-process start-up is not in the kernel
time) and run with
OMP_TARGET_OFFLOAD=DISABLED and OMP_NUM_THREADS=1 and =all (the cores
online; --threads 1,2,... names others); predicted with --threads 1 /
all (their kernels are OpenMP regions: the calibrated fork/join, schedule
and target-fallback figures count).

Prints one row per (program, dataset, threads): predicted, measured,
predicted / measured and the term that dominated the prediction (compute:
Liao-Chapman cycles from llvm-mca; memory: the traffic model's bytes over
the calibrated bandwidth; cache: the lines column walks and gathers get
from L2 and L3; fallback: the host fallback of target regions);
then the median ratio, the share within 1.25x and within 2x, and the ten
worst (furthest from 1 in log).  Also the load average before and after:
the measurement is only as quiet as the machine.  Python 3 standard
library only; nothing here is a test (no timing is asserted anywhere).

To measure another machine that has no compiler (bench/h100-bundle.sh):
--build-only makes, into --work, every binary and database a run would use
(keelcc's analyses with llvm-mca for --mcpu's CPUs, the CPUs of the
machine to be measured), but neither calibrates nor times; that machine
runs `keel calibrate` into the databases and times the binaries (three
runs each), printing lines in this script's row format; back here,
--measured that output with the same --work re-scores them with the
databases' calibration of that machine (its hostname: run under it, e.g.
`unshare -rU --uts`, since a calibration is read by this host's name) and
--threads naming the thread counts it ran.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

from verdicts import header_sizes  # the dataset blocks of a PolyBench-style header

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PB = os.path.join(ROOT, "polybench-inputs")


def sources(omp):
    out = []
    for d, _, files in os.walk(PB):
        rel = os.path.relpath(d, PB)
        if rel.startswith("utilities") or (rel.startswith("omp-target") != omp):
            continue
        for f in files:
            if f.endswith(".c"):
                out.append(os.path.join(d, f))
    return sorted(out)


def run(cmd, env=None, check=True):
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if check and r.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(cmd), r.stderr.strip()[-500:]))
    return r


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[n // 2] + xs[(n - 1) // 2]) / 2.0


def predict(keel, db, src, sizes, threads, env):
    """Sum of the kernel's outermost nests' predicted CPU seconds, and the
    term that dominated the largest one."""
    loops = json.loads(run([keel, "loops", "--json", db], env=env).stdout)
    real = os.path.realpath(src)
    nests = [l for l in loops if l["depth"] == 0 and os.path.realpath(l["file"]) == real
             and l["function"].startswith("kernel_")]
    total, big, term = 0.0, -1.0, "?"
    for l in nests:
        loc = "%s:%d" % (l["file"], l["line"])
        # a sequential program's nests run as compiled (no --threads: that
        # would ask for a parallel region); an OpenMP one's on `threads`
        base = [keel, "explain", loc, "--host", "host"] + (
            ["--threads", str(threads)] if threads else [])
        m = re.search(r"^needs\s+(\S+)", run(base + [db], env=env, check=False).stdout, re.M)
        if not m:
            raise RuntimeError("keel explain %s: no needs line" % loc)
        need = m.group(1).split(",")
        base.append("--json")
        sets = ",".join("%s=%d" % (s, sizes[s]) for s in need if s in sizes)
        e = json.loads(run(base + (["--set", sets] if sets else []) + [db], env=env).stdout)
        c = e["cpu"]
        t = e["seconds"]["cpu"]
        total += t
        if t > big:
            parts = {"compute": c.get("compute_s") or 0, "memory": c.get("memory_s") or 0,
                     "cache": c.get("cache_s") or 0, "fallback": c.get("target_fallback_s") or 0}
            big, term = t, max(parts, key=parts.get)
    return total, len(nests), term


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keel", default=os.path.join(ROOT, "build", "bin", "keel"))
    ap.add_argument("--keelcc", default=os.path.join(ROOT, "build", "bin", "keelcc"))
    ap.add_argument("--cc", default="clang-19")
    ap.add_argument("--datasets", default="MEDIUM,LARGE")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--omp", action="store_true",
                    help="also the omp-target inputs at 1 thread and all threads")
    ap.add_argument("--clock", choices=("auto", "wall", "cpu"), default="auto",
                    help="auto (default): one-thread runs scored on their CPU time, "
                         "all-thread runs on wall time; wall: every run on wall time; "
                         "cpu: every run on its CPU time over its threads")
    ap.add_argument("--omp-only", action="store_true",
                    help="the omp-target inputs alone (implies --omp)")
    ap.add_argument("--only", help="comma list of program names (file stems)")
    ap.add_argument("--threads", help="comma list of thread counts for the omp-target inputs "
                    "(default: 1 and all the cores online)")
    ap.add_argument("--work", help="scratch folder (kept); default a temporary one")
    ap.add_argument("--measured", metavar="OUTPUT",
                    help="take the measured times from an earlier run's output (and its "
                         "--work databases and calibration) instead of running: only the "
                         "predictions are made again; with a --work folder of no databases, "
                         "keelcc and keel calibrate build them anew")
    ap.add_argument("--build-only", action="store_true",
                    help="only build the binaries and keelcc's databases into --work (no "
                         "keel calibrate, no runs): for a machine without a compiler")
    ap.add_argument("--mcpu", help="llvm-mca CPUs keelcc records (KEEL_MCPU; default: "
                    "keelcc's, this host's CPU)")
    ap.add_argument("--compare", action="append", default=[], metavar="KEEL",
                    help="also predict with another keel binary (same measurements, same "
                         "calibration): a second table, e.g. the model before a change")
    a = ap.parse_args()

    work = a.work or tempfile.mkdtemp(prefix="keel-cpu-truth-")
    os.makedirs(work, exist_ok=True)
    env = dict(os.environ)
    for k in ("KEEL_HOST", "KEEL_DEVICE", "OMP_NUM_THREADS", "KEEL_DB"):
        env.pop(k, None)
    if a.mcpu:
        env["KEEL_MCPU"] = a.mcpu
    if a.build_only and (a.measured or not a.work):
        ap.error("--build-only wants --work and no --measured")
    allthr = os.cpu_count() or 1
    util = os.path.join(PB, "utilities")
    only = set(a.only.split(",")) if a.only else None
    omp_thr = [int(t) for t in a.threads.split(",")] if a.threads else [1, allthr]
    print("load average before: %s" % loadavg())

    known = {}
    if a.measured:
        with open(a.measured) as f:
            for line in f:
                m = re.match(r"(?:\[0\] )?(\S+)\s+(\S+)\s+thr (\d+) .* wall\s+(\S+) s\s+cpu\s+(\S+) s "
                             r"\(median of (\d+), min (\S+)\)(?:.*\((cpu|wall)\))?", line)
                if m:
                    known[(m.group(1), m.group(2), int(m.group(3)))] = (
                        float(m.group(4)), float(m.group(5)), int(m.group(6)), float(m.group(7)),
                        m.group(8) or ("cpu" if int(m.group(3)) == 1 else "wall"))
    rows = []
    for ds in a.datasets.split(","):
        db = os.path.join(work, "keel-%s.db" % ds)
        a.omp = a.omp or a.omp_only
        progs = ([] if a.omp_only else [(s, False) for s in sources(False)]) + (
            [(s, True) for s in sources(True)] if a.omp else [])
        progs = [p for p in progs if not only or os.path.splitext(os.path.basename(p[0]))[0] in only]
        fresh = not (known and os.path.exists(db))
        for src, omp in (progs if fresh else []):
            name = os.path.splitext(os.path.basename(src))[0]
            flags = ["-O2", "-I" + util, "-I" + os.path.dirname(src), "-D%s_DATASET" % ds] + (
                ["-fopenmp"] if omp else [])
            run([a.keelcc, "--keel-db=" + db] + flags + ["-c", src, "-o",
                os.path.join(work, "%s-%s%s.o" % (name, ds, "-omp" if omp else ""))], env=env)
        if fresh and not a.build_only:      # a new database (also with --measured): this host's calibration
            run([a.keel, "calibrate", db], env=env)
        for src, omp in progs:
            name = os.path.splitext(os.path.basename(src))[0] + ("-omp" if omp else "")
            exe = os.path.join(work, "%s-%s" % (name, ds))
            flags = ["-O2", "-I" + util, "-I" + os.path.dirname(src), "-D%s_DATASET" % ds,
                     "-DPOLYBENCH_TIME"] + (["-fopenmp", "-DPOLYBENCH_OMP_WARMUP"] if omp else [])
            if not known:
                run([a.cc] + flags + [src, os.path.join(util, "polybench.c"), "-o", exe, "-lm"])
            if a.build_only:
                print("built %s %s" % (name, ds))
                continue
            sizes = header_sizes(src, ds)
            for thr in (omp_thr if omp else [1]):
                renv = dict(env, OMP_NUM_THREADS=str(thr), OMP_TARGET_OFFLOAD="DISABLED")
                walls, cpus = [], []
                by_cpu = (a.clock == "auto" and thr == 1) or a.clock == "cpu"
                if known:
                    k = known.get((name, ds, thr))
                    if not k:
                        continue
                    # the medians and the scored clock's minimum survive
                    walls, cpus = [k[0]] * k[2], [k[1]] * k[2]
                    # the minimum of the clock that run scored (a CPU time
                    # over threads is scored as cpu / thr)
                    if k[4] == "cpu":
                        cpus[0] = k[3] * (thr if thr > 1 else 1)
                    else:
                        walls[0] = k[3]
                for _ in range(0 if known else a.runs):
                    r = run([exe], env=renv)
                    m = re.search(r"^time: ([0-9.]+) s", r.stderr, re.M)
                    c = re.search(r"^cpu: ([0-9.]+) s", r.stderr, re.M)
                    if m and c:
                        walls.append(float(m.group(1)))
                        cpus.append(float(c.group(1)))
                if not walls:
                    print("%s %s: no time printed" % (name, ds), file=sys.stderr)
                    continue
                times = [c / thr for c in cpus] if by_cpu else walls
                meas = median(times)
                if meas <= 0:
                    continue
                for ki, keel in enumerate([a.keel] + a.compare):
                    try:
                        pred, nn, term = predict(keel, db, src, sizes, thr if omp else 0, env)
                    except (RuntimeError, ValueError, KeyError) as e:
                        print("%s %s: %s" % (name, ds, e), file=sys.stderr)
                        continue
                    if nn == 0:
                        continue
                    rows.append(dict(keel=ki, name=name, ds=ds, thr=thr, pred=pred, meas=meas,
                                     r=pred / meas, rmin=pred / min(times), term=term, nests=nn,
                                     rwall=pred / median(walls)))
                    print("%s%-16s %-7s thr %-2d nests %d  predicted %10.4g s  measured wall "
                          "%10.4g s cpu %10.4g s (median of %d, min %.4g)  ratio %6.2f (%s)  %s" % (
                              "[%d] " % ki if a.compare else "", name, ds, thr, nn, pred,
                              median(walls), median(cpus), len(times), min(times), pred / meas,
                              "cpu" if by_cpu else "wall", term))
                sys.stdout.flush()
    print("load average after: %s" % loadavg())
    if a.build_only:
        return 0
    if not rows:
        return 1
    for ki, keel in enumerate([a.keel] + a.compare):
        if a.compare:
            print("\n== [%d] %s" % (ki, keel))
        summary([x for x in rows if x["keel"] == ki])
    return 0


def summary(rows):
    if not rows:
        return
    rs = [x["r"] for x in rows]
    n = len(rs)
    w125 = sum(1 for r in rs if 1 / 1.25 <= r <= 1.25)
    w2 = sum(1 for r in rs if 0.5 <= r <= 2)
    print("\nkernels %d   median predicted/measured %.2f   within 1.25x %d (%.0f%%)   "
          "within 2x %d (%.0f%%)" % (n, median(rs), w125, 100.0 * w125 / n, w2, 100.0 * w2 / n))
    ws = [x["rwall"] for x in rows]
    print("  against wall time for every run: median %.2f, within 1.25x %d, within 2x %d" % (
        median(ws), sum(1 for r in ws if 0.8 <= r <= 1.25), sum(1 for r in ws if 0.5 <= r <= 2)))
    mins = [x["rmin"] for x in rows]
    print("  against the fastest run instead of the median: median %.2f, within 1.25x %d, "
          "within 2x %d" % (median(mins), sum(1 for r in mins if 0.8 <= r <= 1.25),
                            sum(1 for r in mins if 0.5 <= r <= 2)))
    # the sets the docs' tables give: sequential inputs, OpenMP ones per thread count
    sets = [("sequential", [x for x in rows if not x["name"].endswith("-omp")])] + [
        ("OpenMP at %d thread%s" % (t, "s" if t > 1 else ""),
         [x for x in rows if x["name"].endswith("-omp") and x["thr"] == t])
        for t in sorted(set(x["thr"] for x in rows if x["name"].endswith("-omp")))]
    for label, g in sets:
        if g:
            g = [x["r"] for x in g]
            print("  %-22s n %3d  %.2f / %2.0f%% / %2.0f%%  (median / within 1.25x / within 2x)" % (
                label, len(g), median(g), 100.0 * sum(1 for r in g if 0.8 <= r <= 1.25) / len(g),
                100.0 * sum(1 for r in g if 0.5 <= r <= 2) / len(g)))
    for grp in sorted(set((x["ds"], x["thr"]) for x in rows)):
        g = [x["r"] for x in rows if (x["ds"], x["thr"]) == grp]
        print("  %-7s thr %-2d  n %2d  median %.2f  within 1.25x %d  within 2x %d" % (
            grp[0], grp[1], len(g), median(g), sum(1 for r in g if 0.8 <= r <= 1.25),
            sum(1 for r in g if 0.5 <= r <= 2)))
    print("\nten worst (furthest from 1):")
    for x in sorted(rows, key=lambda x: -abs(math.log(x["r"])))[:10]:
        print("  %-16s %-7s thr %-2d ratio %6.2f  predicted %9.4g s  measured %9.4g s  %s" % (
            x["name"], x["ds"], x["thr"], x["r"], x["pred"], x["meas"], x["term"]))


if __name__ == "__main__":
    sys.exit(main())
