#!/usr/bin/env python3
"""npb-answers.py CHECKOUT [--keel-bin DIR] [--work DIR] [--only CG,LU]

Builds the NAS Parallel Benchmarks (the OpenMP C version, NPB3.0-omp-C
layout: BT CG EP FT IS LU MG SP, a config/make.def.template) class S with
CC=keelcc from a checkout the user names (nothing is fetched), runs each
and checks that it verifies, then asks `keel explain --sweep` about every
outermost loop nest keelcc recorded and counts the nests that get an answer
(CPU or GPU on some size of the sweep) and those sent to the GPU.  Prints
one line per benchmark and a total; exits non-zero when a benchmark fails to
build or verify.  The checkout is copied into the work folder, never built
in place.  Timings are not asserted; the run takes minutes."""
import argparse, json, os, re, shutil, subprocess, sys

BENCHES = ["BT", "CG", "EP", "FT", "IS", "LU", "MG", "SP"]
SWEEP = "*=16:4096"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--keel-bin", default=os.path.join(here, "..", "build", "bin"))
    ap.add_argument("--work", default="/tmp/keel-npb")
    ap.add_argument("--only", default="")
    ap.add_argument("--device", default="h100")
    a = ap.parse_args()
    kbin = os.path.abspath(a.keel_bin)
    keelcc, keel = os.path.join(kbin, "keelcc"), os.path.join(kbin, "keel")
    if not os.path.isfile(os.path.join(a.checkout, "config", "make.def.template")):
        print("npb-answers: %s is not an NPB3.0-omp-C checkout (no config/make.def.template)"
              % a.checkout, file=sys.stderr)
        return 2
    work = os.path.abspath(a.work)
    src = os.path.join(work, "npb")
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(a.checkout, src, symlinks=True)
    os.makedirs(os.path.join(src, "bin"), exist_ok=True)
    # IS is K&R C (implicit int): clang-19 makes that an error, older
    # compilers a warning; the build keeps it a warning
    with open(os.path.join(src, "config", "make.def"), "w") as f:
        f.write("CC = %s -fopenmp\nCLINK = %s -fopenmp\nC_LIB = -lm\nC_INC = -I../common\n"
                "CFLAGS = -O3 -Wno-error=implicit-int -Wno-error=implicit-function-declaration\nCLINKFLAGS = -O3\nUCC = cc -O\nBINDIR = ../bin\n"
                "RAND = randdp\nWTIME = wtime.c\n" % (keelcc, keelcc))
    db = os.path.join(work, "keel.db")
    env = dict(os.environ, KEEL_DB=db, KEEL_QUIET="1", KEEL_MCA="off", OMP_NUM_THREADS="2")
    env.pop("KEEL_VERBOSE", None)
    only = [b for b in a.only.split(",") if b] or BENCHES
    bad = 0
    tot = [0, 0, 0]
    for b in only:
        r = subprocess.run(["make", b, "CLASS=S"], cwd=src, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        exe = os.path.join(src, "bin", b.lower() + ".S")
        if r.returncode != 0 or not os.path.isfile(exe):
            print("%-3s build FAILED" % b)
            bad += 1
            continue
        try:
            run = subprocess.run([exe], cwd=os.path.join(src, "bin"), env=env, timeout=600,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            ok = re.search(r"Verification\s*=\s*SUCCESSFUL", run.stdout) is not None
        except subprocess.TimeoutExpired:
            ok = False
        bad += not ok
        loops = json.loads(subprocess.run([keel, "loops", "--json", db], env=env,
                                          stdout=subprocess.PIPE, text=True).stdout or "[]")
        outer = [l for l in loops if l["depth"] == 0
                 and os.path.dirname(l["file"]) == os.path.join(src, b)]
        answered = gpu = 0
        for l in outer:
            out = subprocess.run([keel, "explain", "%s:%d" % (l["file"], l["line"]), "--sweep",
                                  SWEEP, "--device", a.device, db], env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True).stdout
            rows = [ln for ln in out.splitlines() if re.match(r"\s+\d+\s", ln)]
            verdicts = [m.group(1) for m in (re.search(r"\s(CPU|GPU)\b", ln) for ln in rows) if m]
            answered += bool(verdicts)
            gpu += "GPU" in verdicts
        tot[0] += len(outer); tot[1] += answered; tot[2] += gpu
        print("%-3s %s  outermost %3d  answered %3d  gpu at some size %3d"
              % (b, "verifies" if ok else "FAILED  ", len(outer), answered, gpu))
    print("all outermost %d  answered %d (%.0f%%)  gpu at some size %d"
          % (tot[0], tot[1], 100.0 * tot[1] / tot[0] if tot[0] else 0, tot[2]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
